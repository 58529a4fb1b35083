"""The difficulty levels, defined in one place: what ``easy``, ``medium``, ``neural``, ``hard``
and ``expert`` are, for the terminal game, the server, the browser's lobby and the arena.

A search level is an iteration budget (deterministic: the same seed and moves give the same
game on any machine) plus a time cap that only a slow machine reaches: on a machine like
the reference one (2 cores) the budget ends well before the cap, so the level plays the same
moves, at the same strength, as in the arena; on a much slower machine the cap keeps the
wait bounded, at some cost in strength. The arena drops the caps (``time_caps=False`` in
:func:`quadropolis.bots.make_bot`) so that its games are reproducible whatever the load.

Root-parallel trees (``trees``) are part of a level: they are searched in two processes
when a player waits for the move (terminal) and one after another in a single process
(arena, server workers) -- the same moves either way (see :mod:`quadropolis.bots.mcts`).
The strength and time figures behind these budgets are in docs/bots.md ("Difficulty levels").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class SearchLevel:
    """A search level's budget: ``iterations`` per take (a build or discard gets about a
    third), shared by ``trees`` root-parallel trees searched by up to ``workers`` processes,
    rollouts cut after ``horizon`` actions per player, at most ``seconds`` per decision;
    ``greed``: the rollouts' share of best-prior takes (:func:`~quadropolis.bots.policy.rollout_move`)."""

    iterations: int
    trees: int
    workers: int
    horizon: int
    seconds: float
    greed: float = 0.0


#: ``easy``: how often it plays a uniformly random legal move instead of the greedy one.
EASY_EPSILON: Final = 0.35

#: The search levels' budgets.
SEARCH_LEVELS: Final[dict[str, SearchLevel]] = {
    "medium": SearchLevel(iterations=250, trees=1, workers=1, horizon=6, seconds=1.0),
    # Half the rollouts' takes are the best by the prior: uniform rollouts rarely build a
    # monument by the parks and shops that make it pay, so the search left monuments to its
    # opponents (docs/bots.md, "Difficulty levels"). That costs time per iteration, and hard's
    # budget went up by a third to pay for it.
    "hard": SearchLevel(iterations=8000, trees=2, workers=2, horizon=6, seconds=1.0, greed=0.5),
    "expert": SearchLevel(iterations=30000, trees=2, workers=2, horizon=6, seconds=3.0, greed=0.5),
}


def describe(level: SearchLevel) -> str:
    """A search level's settings in a line (``--help``, docs/bots.md)."""
    where = "one process"
    if level.workers > 1:
        where = f"{level.trees} trees searched in {level.workers} processes"
    return (
        f"MCTS, {level.iterations:,} iterations per take (a third of that per build), {where}; "
        f"rollouts of {level.horizon} actions per player, then exact scoring"
        f"{_rollout_takes(level.greed)}; at most {level.seconds:g} s per move"
    )


def _rollout_takes(greed: float) -> str:
    return f" (rollout takes: the prior's best {greed:.0%} of the time)" if greed > 0 else ""


#: What each difficulty level is for a player, weakest first (the browser's lobby,
#: ``GET /api/levels``, ``quadropolis play --help``). The claims are docs/bots.md's measurements.
LEVELS: Final[dict[str, str]] = {
    "easy": (
        f"A beginner: usually the move that scores most at once, but a random one {EASY_EPSILON:.0%} "
        "of the time. Instant."
    ),
    "medium": "A casual player that looks a few turns ahead with a short search. About 0.1 s a move.",
    "neural": (
        "A learned player: a small neural network trained on a strong search, weighing what each move "
        "scores at once against what it leads to. Instant."
    ),
    "hard": (
        "A strong player: a deep search that beats the one-move-ahead greedy bot in about 99 two-player "
        "games of 100. About 0.1 s a move."
    ),
    "expert": (
        "The most thorough: nearly four times the search of hard. Up to about half a second a move, "
        "at most 3 s."
    ),
}

#: The same levels in their settings (``quadropolis arena --help``, docs/bots.md).
LEVEL_DETAILS: Final[dict[str, str]] = {
    "easy": f"greedy, but a random legal move {EASY_EPSILON:.0%} of the time (instant)",
    "medium": describe(SEARCH_LEVELS["medium"]),
    "neural": "a small network scoring each move from greedy's exact values (bots/neural.py; NumPy; "
    "under a millisecond a move)",
    **{name: describe(SEARCH_LEVELS[name]) for name in ("hard", "expert")},
}

__all__ = ["EASY_EPSILON", "LEVELS", "LEVEL_DETAILS", "SEARCH_LEVELS", "SearchLevel", "describe"]
