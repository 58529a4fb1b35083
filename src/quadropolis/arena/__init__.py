"""The arena: tournaments between bots, played in parallel, with statistics and reports.

Holds :mod:`.tournament` (running the games on the local or Ray backend, results as data),
:mod:`.report` (JSON/CSV output, plots, progress bar, tables), :mod:`.ratings` (ratings over
saved tournaments) and :mod:`.command` (``quadropolis arena``). Its statistics (seat rotation,
Wilson intervals, pairwise results, Bradley-Terry ratings) live below it in the core module
:mod:`quadropolis.stats`, shared with the RL evaluation, and are re-exported here.
May import the standard library, the rules core, the public API of :mod:`quadropolis.bots`
and the shared option helpers :mod:`quadropolis.cli.options`; optional: Ray, matplotlib."""

from __future__ import annotations

from ..stats import Z95, bradley_terry, lineup, mean_sd, pairwise_results, rating_against, wilson_interval
from .command import add_arena_command
from .tournament import (
    BACKENDS,
    ArenaError,
    EntrantStats,
    Fixture,
    GameResult,
    TournamentResult,
    entrant_bot,
    entrant_labels,
    play_game,
    run_tournament,
    schedule,
)

__all__ = [
    "BACKENDS",
    "Z95",
    "ArenaError",
    "EntrantStats",
    "Fixture",
    "GameResult",
    "TournamentResult",
    "add_arena_command",
    "bradley_terry",
    "entrant_bot",
    "entrant_labels",
    "lineup",
    "mean_sd",
    "pairwise_results",
    "play_game",
    "rating_against",
    "run_tournament",
    "schedule",
    "wilson_interval",
]
