"""The RL kit and the arena share their statistics through the core module
:mod:`quadropolis.stats`: the kit imports nothing of the arena (the arena may enter an RL
policy through ``quadropolis.envs``), and the arena's public statistics are the core's."""

from __future__ import annotations

import ast
from pathlib import Path

import quadropolis.arena as arena
import quadropolis.stats as stats

ENVS = Path(__file__).resolve().parents[2] / "src" / "quadropolis" / "envs"


def _imported(path: Path) -> set[str]:
    """The modules ``path`` imports, lazy imports included, relative ones made absolute."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "quadropolis" if node.level == 2 else "quadropolis.envs" if node.level == 1 else ""
            module = node.module or ""
            names.add(f"{base}.{module}".strip(".") if base else module)
    return names


def test_the_rl_kit_imports_nothing_of_the_arena() -> None:
    offenders = {
        path.name: sorted(
            n for n in _imported(path) if n == "quadropolis.arena" or n.startswith("quadropolis.arena.")
        )
        for path in sorted(ENVS.glob("*.py"))
    }
    assert not {k: v for k, v in offenders.items() if v}
    assert "quadropolis.stats" in _imported(ENVS / "evaluation.py")  # the check sees imports


def test_the_arena_re_exports_the_core_statistics() -> None:
    for name in (
        "Z95",
        "lineup",
        "wilson_interval",
        "mean_sd",
        "pairwise_results",
        "bradley_terry",
        "rating_against",
    ):
        assert getattr(arena, name) is getattr(stats, name)
