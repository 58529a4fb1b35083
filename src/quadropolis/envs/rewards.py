"""The reward schemes of a finished game, their bounds and the penalty of an illegal action.
:mod:`.episode` pays them; every adapter takes them from there, so a change of a reward lands
here or there, once.

**The illegal-action penalty** (:func:`illegal_reward`) is, by default, the lowest return the
rest of an episode could bring by legal play: the scheme's lower bound (:func:`reward_bounds`)
minus, with a dense reward ``c``, ``|c|`` times the widest swing of a projected score
(:func:`score_bounds`). Ending a game by an illegal action can therefore never pay better
than any legal way to finish it (a ``margin`` agent losing to ``greedy`` by 45 VP learned to
end its games on purpose when the penalty was -1). A penalty chosen by hand must not exceed
that bound either (:func:`check_illegal_reward`).
"""

from __future__ import annotations

from typing import Final

from ..errors import ConfigError, QuadropolisError
from ..outcome import Outcome
from ..tiles import Mode
from .layout import TILE_ENERGY, TILE_INHABITANTS

__all__ = [
    "REWARDS",
    "check_illegal_reward",
    "check_reward",
    "final_rewards",
    "illegal_reward",
    "reward_bounds",
    "score_bounds",
]


#: Reward schemes: ``win_share`` (1 for a sole win, 1/k for a k-way tie on every R13
#: tie-breaker, 0 otherwise) and ``margin`` (own final VP minus the best other final VP).
REWARDS: Final = ("win_share", "margin")


def check_reward(scheme: str) -> str:
    if scheme not in REWARDS:
        raise QuadropolisError(f"reward must be one of {', '.join(REWARDS)}, got {scheme!r}")
    return scheme


def final_rewards(result: Outcome, scheme: str) -> list[float]:
    """Each seat's final reward under ``scheme`` (see :data:`REWARDS`)."""
    totals = result.totals
    if scheme == "win_share":
        share = 1.0 / len(result.winners)
        return [share if p in result.winners else 0.0 for p in range(len(totals))]
    if scheme == "margin":
        return [float(t - max(u for q, u in enumerate(totals) if q != p)) for p, t in enumerate(totals)]
    raise QuadropolisError(f"reward must be one of {', '.join(REWARDS)}, got {scheme!r}")


def score_bounds(mode: Mode) -> tuple[int, int]:
    """A lower and an upper bound of any final city score in ``mode``: the lowest is every
    inhabitant and energy unit of the mode's tiles unused; the highest, every square at the
    best any single building can score there plus the whole-city bonuses (public service
    districts, both harbor runs)."""
    low = -(TILE_INHABITANTS[mode] + TILE_ENERGY[mode])
    if mode is Mode.CLASSIC:
        return low, 16 * 12 + 14 + 2 * 12  # factory next to 4 harbors: 12
    return low, 20 * 30 + 20 + 2 * 18  # office tower of 5 floors in a group of 5+: 30


def reward_bounds(mode: Mode, scheme: str) -> tuple[float, float]:
    """Bounds of :func:`final_rewards` under ``scheme``."""
    if scheme == "win_share":
        return 0.0, 1.0
    low, high = score_bounds(mode)
    return float(low - high), float(high - low)


def illegal_reward(mode: Mode, scheme: str, dense: float = 0.0) -> float:
    """The default reward of an illegal action that ends the game: the lowest return the rest
    of an episode can bring by legal play under ``scheme`` with dense coefficient ``dense``
    (see the module docstring): 0 for ``win_share`` without dense rewards (a loss), -337 for
    Classic ``margin``."""
    low, high = score_bounds(mode)
    return reward_bounds(mode, scheme)[0] - abs(dense) * (high - low)


def check_illegal_reward(mode: Mode, scheme: str, dense: float, value: float | None) -> float:
    """``value`` if it is at most :func:`illegal_reward` (``None``: that bound). Raises
    :class:`~quadropolis.ConfigError` for a penalty that could beat a legal finish."""
    bound = illegal_reward(mode, scheme, dense)
    if value is None:
        return bound
    value = float(value)
    if not value <= bound:  # NaN is refused too
        raise ConfigError(
            f"illegal_reward must be at most {bound:g}, the lowest return of a legal finish under "
            f"reward={scheme!r} with dense_reward={dense:g} (so that ending a game on purpose never "
            f"pays), got {value:g}"
        )
    return value
