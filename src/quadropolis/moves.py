"""Moves and their canonical text notation.

A player's action is one or two moves:

- :class:`Take` ``3L4``: put architect #3 in slot L4 (the left end of row 4) and move the
  urbanist to the designated square, taking the building there if any (R6);
- then, if a building was taken, :class:`Build` ``r2c3`` (on square row 2, column 3 of the
  player's city, possibly on top of a stack, R8/R16) or :class:`Discard` ``discard`` (R9).

``Move.parse(str(m)) == m`` for every move; parsing is case-insensitive and ignores a leading
``#`` and surrounding white space."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Final

from .errors import NotationError
from .site import SLOT_INDEX, SLOT_NAMES


class Move:
    """Base of the three move kinds. Moves are small frozen values."""

    __slots__ = ()

    @staticmethod
    def parse(text: str) -> Move:
        """Parse canonical notation (``3L4``, ``r2c3``, ``discard``).

        Raises :class:`NotationError` naming what is wrong."""
        if not isinstance(text, str):
            raise NotationError(f"a move must be text, got {type(text).__name__}")
        t = text.strip().lower()
        if t == "discard":
            return DISCARD
        m = _TAKE_RE.fullmatch(t)
        if m:
            arch = int(m.group(1))
            if not 1 <= arch <= 5:
                raise NotationError(f"{text!r}: architects are numbered 1-5")
            slot = m.group(2).upper() + m.group(3)
            if slot not in SLOT_INDEX:
                raise NotationError(f"{text!r}: no slot {slot} (slots are T1-T5, B1-B5, L1-L5, R1-R5)")
            return TAKES[SLOT_INDEX[slot]][arch]
        m = _BUILD_RE.fullmatch(t)
        if m:
            row, col = int(m.group(1)), int(m.group(2))
            if not (1 <= row <= 4 and 1 <= col <= 5):
                raise NotationError(f"{text!r}: city squares are r1c1 to r4c5")
            return BUILDS[row][col]
        raise NotationError(
            f"{text!r} is not a move: expected a take like '3L4' (architect, slot), "
            "a build like 'r2c3' (row, column) or 'discard'"
        )


_TAKE_RE: Final = re.compile(r"#?(\d)\s*([tblr])(\d)")
_BUILD_RE: Final = re.compile(r"r(\d)\s*c(\d)")


@dataclass(frozen=True, slots=True)
class Take(Move):
    """Put architect #``architect`` in slot ``slot`` (index into :data:`site.SLOT_NAMES`)."""

    architect: int
    slot: int

    kind: ClassVar[str] = "take"

    @staticmethod
    def at(architect: int, slot: str) -> Take:
        """``Take.at(3, "L4")``."""
        return Take(architect, SLOT_INDEX[slot.upper()])

    @property
    def slot_name(self) -> str:
        return SLOT_NAMES[self.slot]

    def __str__(self) -> str:
        return f"{self.architect}{SLOT_NAMES[self.slot]}"


@dataclass(frozen=True, slots=True)
class Build(Move):
    """Build the taken building on city square row ``row``, column ``col`` (1-based)."""

    row: int
    col: int

    kind: ClassVar[str] = "build"

    def __str__(self) -> str:
        return f"r{self.row}c{self.col}"


@dataclass(frozen=True, slots=True)
class Discard(Move):
    """Discard the taken building (R9)."""

    kind: ClassVar[str] = "discard"

    def __str__(self) -> str:
        return "discard"


# Interned moves: legal-move generation hands out these shared values instead of allocating.
TAKES: Final[tuple[tuple[Take, ...], ...]] = tuple(tuple(Take(a, s) for a in range(6)) for s in range(20))
BUILDS: Final[tuple[tuple[Build, ...], ...]] = tuple(tuple(Build(r, c) for c in range(6)) for r in range(5))
DISCARD: Final = Discard()
