"""What every benchmark section shares: the settings measured, the workloads (full and quick)
and the way a figure is reported."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, TypeAlias

from ..tiles import Mode

#: The (mode, players) settings measured by the playout and bot figures.
PLAYOUT_CASES: Final = ((Mode.CLASSIC, 2), (Mode.CLASSIC, 4), (Mode.EXPERT, 2), (Mode.EXPERT, 4))

#: ``report(key, value, unit, label)`` records one figure (the median of the runs).
Report: TypeAlias = Callable[[str, float, str, str], None]


@dataclass(frozen=True, slots=True)
class Workload:
    """How much each figure measures."""

    #: Runs per figure when ``--repeat`` is not given (each figure is their median).
    repeat: int
    #: Seconds of random playouts per run, per setting.
    playout_seconds: float
    #: Cities of each corpus scored per run (Expert: the fixed corpus of full cities).
    scoring_cities: int
    #: Seconds of MCTS search per run, per setting (at least one doubling step is measured).
    mcts_seconds: float
    #: The take decisions timed per run, per level and setting: position ``i`` follows
    #: ``7 i`` random actions (see :func:`quadropolis.bench.bots.level_move_times`).
    level_positions: tuple[int, ...]


#: What ``quadropolis bench`` measures (the figures of docs/performance.md and the other chapters):
#: unchanged since they were taken.
FULL: Final = Workload(
    repeat=5, playout_seconds=2.0, scoring_cities=1000, mcts_seconds=2.0, level_positions=tuple(range(8))
)
#: ``--quick``: a smoke run of a few seconds that exercises every figure once: short timings,
#: a tenth of each scoring corpus, one short MCTS search (50 iterations or more), and one of
#: the full run's decisions per level (the last, 49 actions in: the cheapest to search).
#: Noisy, and not comparable with a full run.
QUICK: Final = Workload(
    repeat=1, playout_seconds=0.1, scoring_cities=100, mcts_seconds=0.05, level_positions=(7,)
)
