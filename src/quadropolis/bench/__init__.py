"""``quadropolis bench``: performance figures measured on one core, each the median of
``repeat`` runs. Sections: ``engine`` (:mod:`.engine`: playouts with exact scoring, scoring
time, state memory and copy cost) and ``bots`` (:mod:`.bots`: MCTS simulations per second,
time per move of each level). May import the standard library, the rules core and the public
API of the application packages it measures."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final, TextIO

from . import bots, engine
from .report import Report

SECTIONS: Final[dict[str, Callable[[Report, int, bool], None]]] = {"engine": engine.run, "bots": bots.run}


def run_benchmarks(
    out: TextIO,
    repeat: int = 5,
    quick: bool = False,
    as_json: bool = False,
    sections: tuple[str, ...] = tuple(SECTIONS),
) -> dict[str, Any]:
    """Run the named sections, writing one line per figure to ``out`` (or, with ``as_json``,
    one JSON object at the end); returns ``{key: {"value", "unit"}}``. ``repeat`` ≥ 1."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    figures: dict[str, Any] = {}

    def report(key: str, value: float, unit: str, label: str) -> None:
        figures[key] = {"value": round(value, 4), "unit": unit}
        if not as_json:
            out.write(f"{label:<58} {value:>10.3f} {unit}\n")
            out.flush()

    if not as_json:
        out.write(f"quadropolis bench (median of {repeat} run(s), one core unless noted)\n")
    for name in sections:
        SECTIONS[name](report, repeat, quick)
    if as_json:
        out.write(json.dumps(figures) + "\n")
    return figures


__all__ = ["SECTIONS", "run_benchmarks"]
