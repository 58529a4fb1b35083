"""Whether a table is rated: the part of the ratings' rules (:mod:`.ratings.rules`) that the
table alone decides, below both the game server's core, which needs it (no hints at a rated
running table; a view says whether its game is rated), and the ratings feature, which builds
the rest of its rules on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..bots import LEVELS
from .data import GUIDED_SEED, SeatData

#: The modes rated apart.
MODES: Final = ("classic", "expert")
#: The configuration's variants that a rated game has (the standard rules).
STANDARD_VARIANTS: Final = {"urbanist_blocks": "lines", "all_parks_absorb": False}


def rated_table(config: Mapping[str, Any], seats: Sequence[SeatData]) -> bool:
    """Whether a game at this table is rated if it ends with a result (the rules of
    :mod:`.ratings.rules` that the table alone decides): the standard rules of a rated mode, not the guided
    game, every seat an account's (its own) or a bot's, at least one account. While such a
    game runs nobody may have it analysed (:meth:`.records.Records.analysis`)."""
    if config.get("mode") not in MODES or not 2 <= len(seats) <= 4:
        return False
    if config.get("seed") == GUIDED_SEED and config.get("mode") == "classic" and len(seats) == 2:
        return False
    if {**STANDARD_VARIANTS, **config.get("variants", {})} != STANDARD_VARIANTS:
        return False
    accounts = [s.account for s in seats if s.account is not None]
    if not accounts or len(set(accounts)) != len(accounts):
        return False
    return all(s.account is not None or (s.kind == "bot" and s.level in LEVELS) for s in seats)
