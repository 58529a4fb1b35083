"""The RL docs run: every fenced ``python`` block of the researchers' chapter (``docs/rl.md``)
is executed alone, in a fresh namespace, as a reader would paste it; blocks that train do so
at the tiny budgets the docs give them."""

from __future__ import annotations

import contextlib
import importlib
import io
import re
from pathlib import Path

import pytest

CHAPTER = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
#: Packages of the ``train`` extra a block may import: without them the block is skipped.
OPTIONAL = ("stable_baselines3", "sb3_contrib", "torch")


def rl_blocks() -> list[tuple[int, str]]:
    """The chapter's python blocks, each with the line it starts on."""
    text = CHAPTER.read_text(encoding="utf-8")
    return [
        (text[: m.start()].count("\n") + 1, m.group(1))
        for m in re.finditer(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    ]


BLOCKS = rl_blocks()


def test_the_section_has_its_blocks() -> None:
    """The extraction finds the chapter's examples (a moved chapter would skip them all)."""
    assert len(BLOCKS) >= 6
    assert any("SelfPlay" in code for _, code in BLOCKS)
    assert any("QuadropolisSB3VecEnv" in code for _, code in BLOCKS)


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"docs/rl.md:{line}" for line, _ in BLOCKS])
def test_every_python_block_of_the_rl_docs_runs(line: int, code: str) -> None:
    for package in OPTIONAL:
        if re.search(rf"^\s*(from|import) {package}\b", code, re.MULTILINE):
            pytest.importorskip(package)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"docs/rl.md:{line}", "exec"), {"__name__": "__docs__"})


def test_arena_help_says_out_needs_a_json_or_csv_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``arena --out``: the help names the two suffixes, and another suffix is refused
    before a game is played (no file written, exit status 1 with the reason)."""
    cli = importlib.import_module("quadropolis.cli.main")
    with pytest.raises(SystemExit) as exit_help:
        cli.build_parser().parse_args(["arena", "--help"])
    assert exit_help.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--out FILE save results; FILE must end in .json" in text and "or .csv" in text
    out = tmp_path / "results.txt"
    status = cli.main(["arena", "--bot", "random", "--bot", "random", "--games", "50", "--out", str(out)])
    assert status == 1 and not out.exists()
    assert "results are written as .json or .csv (got '.txt')" in capsys.readouterr().err
