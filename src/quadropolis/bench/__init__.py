"""``quadropolis bench``: performance figures measured on one core, each the median of
``repeat`` runs. Sections run by default: ``engine`` (:mod:`.engine`: playouts with exact
scoring, scoring time, state memory and copy cost, under the selected engine), ``engines``
(:mod:`.engines`: the Python and compiled engines side by side, with their ratios) and
``bots`` (:mod:`.bots`: MCTS simulations per second, time per move of each level); only when
named: ``envs`` (:mod:`.envs`: the RL adapters' moves per second beside the raw engine's;
needs the ``rl`` extra), ``ladder`` (:mod:`.ladder`: the cost of each opponent of the RL
ladder and the ``neural`` bot's time per move; needs the ``rl`` extra), ``server``
(:mod:`.server`) and ``web`` (:mod:`.web`). A section's module is imported only when it
runs, so a missing extra never breaks the others.
Workloads (:mod:`.report`): :data:`FULL`, what the docs' figures measure, and
:data:`QUICK`, a smoke run of a few seconds. Figures are measured here only (never in timed
unit tests). May import the standard library, the rules core and the public API of the
application packages it measures."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any, Final, TextIO, cast

from .. import engine as selected  # not `engine`: that is the name of this package's section
from .report import FULL, QUICK, Report, Workload

#: Every section, by name: what it measures (each is the module ``quadropolis.bench.NAME``
#: with a ``run(report, repeat, work)`` function).
SECTIONS: Final[dict[str, str]] = {
    "engine": "random playouts, optimal scoring, state memory and copy cost (the selected engine)",
    "engines": "the Python and the compiled engine side by side (alternating runs) and their ratios, "
    "MCTS simulations/s included",
    "bots": "MCTS simulations/s, time per move of each level",
    "envs": "RL adapters' moves/s beside the raw engine's (needs the rl extra)",
    "ladder": "the RL ladder's opponents: env steps/s and step cost against each rung, the neural "
    "bot's time per move (needs the rl extra)",
    "server": "concurrent games against a real server on loopback: moves/s, latency, lost moves "
    "(SQLite; PostgreSQL too when QUADROPOLIS_BENCH_POSTGRES_URL is set; needs the web extra)",
    "web": "the browser client in Chromium: page load and click-to-updated-table times "
    "(needs the web extra, Chromium and the built client)",
}
#: The sections run when none is named.
DEFAULT_SECTIONS: Final = ("engine", "engines", "bots")


def section(name: str) -> Callable[[Report, int, Workload], None]:
    """The ``run`` function of section ``name`` (imported now)."""
    module = importlib.import_module(f"{__name__}.{name}")
    return cast(Callable[[Report, int, Workload], None], module.run)


def run_benchmarks(
    out: TextIO,
    repeat: int | None = None,
    quick: bool = False,
    as_json: bool = False,
    sections: tuple[str, ...] = DEFAULT_SECTIONS,
) -> dict[str, Any]:
    """Run the named sections with the :data:`FULL` workload (:data:`QUICK` with ``quick``),
    writing one line per figure to ``out`` (or, with ``as_json``, one JSON object at the end);
    returns ``{key: {"value", "unit"}}``. ``repeat`` ≥ 1, default the workload's (5 full,
    1 quick)."""
    work = QUICK if quick else FULL
    runs = work.repeat if repeat is None else repeat
    if runs < 1:
        raise ValueError(f"repeat must be at least 1, got {runs}")
    figures: dict[str, Any] = {}

    def report(key: str, value: float, unit: str, label: str) -> None:
        figures[key] = {"value": round(value, 4), "unit": unit}
        if not as_json:
            out.write(f"{label:<58} {value:>10.3f} {unit}\n")
            out.flush()

    if not as_json:
        kind = "quick smoke run, not comparable with a full run; " if quick else ""
        out.write(f"quadropolis bench ({kind}median of {runs} run(s), one core unless noted)\n")
        out.write(f"engine: {selected.name()} ({selected.ENGINE_VARIABLE}={selected.choice()})\n")
    for name in sections:
        section(name)(report, runs, work)
    if as_json:
        out.write(json.dumps(figures) + "\n")
    return figures


__all__ = ["DEFAULT_SECTIONS", "FULL", "QUICK", "SECTIONS", "Workload", "run_benchmarks", "section"]
