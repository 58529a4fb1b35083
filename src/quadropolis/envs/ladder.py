"""A cheap ladder of opponents between ``random`` and ``greedy`` (and one rung above): bots whose
move costs at most a few times the env's own step, to train against in order.

Each :class:`Rung` is a bot spec (give it as ``opponents=`` to the Gymnasium env, to
:class:`~.selfplay.SelfPlay`'s league or to :func:`~.evaluation.evaluate`) with what it
measured: its strength, the win share of the rung against ``greedy`` in 2-player games
(``quadropolis.envs.evaluate(make_bot(spec), opponents="greedy", games=200, seed=0)``, 95%
intervals in docs/rl.md), and its cost, the time of an agent's step in ``Quadropolis-v1``
(2 players) with the rung as opponent, divided by the time of a step against ``random``
(``quadropolis bench ladder``). The epsilon-greedy rungs (``greedy:epsilon=E``) play a
uniformly random legal move with probability E, drawn from the bot's seeded RNG, so an
episode is reproducible from the env's seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..tiles import Mode

__all__ = ["LADDER", "Rung", "ladder_specs"]


@dataclass(frozen=True, slots=True)
class Rung:
    """One opponent of the ladder: its bot ``spec``, what it is, its measured win share and
    mean margin (its VP minus greedy's) against ``greedy`` by mode (2 players), and its step
    cost relative to a ``random`` opponent (Classic, 2 players)."""

    spec: str
    what: str
    vs_greedy: dict[Mode, float]
    margin: dict[Mode, float]
    step_cost: float


#: The ladder, weakest first (figures: see the module docstring; docs/rl.md, "A cheap ladder of opponents").
LADDER: Final[tuple[Rung, ...]] = (
    Rung(
        "random",
        "uniformly random legal moves",
        {Mode.CLASSIC: 0.0, Mode.EXPERT: 0.0},
        {Mode.CLASSIC: -44.4, Mode.EXPERT: -73.4},
        1.0,
    ),
    Rung(
        "greedy:epsilon=0.6",
        "greedy, a random move 60% of the time",
        {Mode.CLASSIC: 0.0, Mode.EXPERT: 0.0},
        {Mode.CLASSIC: -30.3, Mode.EXPERT: -49.6},
        2.3,
    ),
    Rung(
        "greedy:epsilon=0.3",
        "greedy, a random move 30% of the time",
        {Mode.CLASSIC: 0.06, Mode.EXPERT: 0.035},
        {Mode.CLASSIC: -16.6, Mode.EXPERT: -28.9},
        3.4,
    ),
    Rung(
        "greedy:epsilon=0.1",
        "greedy, a random move 10% of the time",
        {Mode.CLASSIC: 0.258, Mode.EXPERT: 0.245},
        {Mode.CLASSIC: -6.0, Mode.EXPERT: -10.2},
        3.6,
    ),
    Rung(
        "greedy",
        "the best projected score at once (native)",
        {Mode.CLASSIC: 0.52, Mode.EXPERT: 0.45},
        {Mode.CLASSIC: 0.6, Mode.EXPERT: -0.1},
        5.2,
    ),
    Rung(
        "neural",
        "the learned bot (needs NumPy only)",
        {Mode.CLASSIC: 0.69, Mode.EXPERT: 0.72},
        {Mode.CLASSIC: 2.8, Mode.EXPERT: 3.8},
        13.8,
    ),
)


def ladder_specs() -> list[str]:
    """The ladder's bot specs, weakest first (for ``opponents=`` or a league)."""
    return [rung.spec for rung in LADDER]
