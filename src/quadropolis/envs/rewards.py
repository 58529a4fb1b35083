"""The reward schemes of a finished game and their bounds. :mod:`.episode` pays them; every
adapter takes them from there, so a change of a reward lands here or there, once."""

from __future__ import annotations

from typing import Final

from ..errors import QuadropolisError
from ..outcome import Outcome
from ..tiles import Mode
from .layout import TILE_ENERGY, TILE_INHABITANTS

__all__ = ["REWARDS", "check_reward", "final_rewards", "reward_bounds", "score_bounds"]


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
