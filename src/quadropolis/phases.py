"""The phases of an action (a player's turn is a take, then a build or discard when a
building was taken; the game ends after the last round's clean-up)."""

from __future__ import annotations

from typing import Final

TAKE: Final = 0  # the current player must put an architect in a slot
PLACE: Final = 1  # the current player took a building and must build or discard it
OVER: Final = 2  # the game has ended

PHASE_NAMES: Final = ("take", "place", "over")
