"""Moves and their canonical text notation.

A player's action is one or two moves:

- :class:`Take` ``3L4``: put architect #3 in slot L4 (the left end of row 4) and move the
  urbanist to the designated square, taking the building there if any (R6);
- then, if a building was taken, :class:`Build` ``r2c3`` (on square row 2, column 3 of the
  player's city, possibly on top of a stack, R8/R16) or :class:`Discard` ``discard`` (R9).

``Move.parse(str(m)) == m`` for every move; parsing is case-insensitive and ignores a leading
``#`` and surrounding white space. Hand-built moves are checked when they are made
(``Take(architect 1-5, slot 0-19)``, ``Build(row 1-4, column 1-5)``, integers, never
booleans): a move that has no notation cannot exist. Whether it is legal in a given state
(Classic has architects #1-#4 and four columns) is for :func:`quadropolis.rules.apply`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Final, cast

from .errors import NotationError, quote
from .site import SLOT_INDEX, SLOT_NAMES


class Move:
    """Base of the three move kinds. Moves are small frozen values."""

    __slots__ = ()

    @staticmethod
    def parse(text: str) -> Move:
        """Parse canonical notation (``3L4``, ``r2c3``, ``discard``).

        Raises :class:`NotationError` naming what is wrong."""
        if not isinstance(text, str):
            raise NotationError(f"a move must be text, got {quote(text)}")
        t = text.strip().lower()
        if t == "discard":
            return DISCARD
        m = _TAKE_RE.fullmatch(t)
        if m:
            arch = int(m.group(1))
            if not 1 <= arch <= 5:
                raise NotationError(f"{quote(text)}: architects are numbered 1-5")
            slot = m.group(2).upper() + m.group(3)
            if slot not in SLOT_INDEX:
                raise NotationError(f"{quote(text)}: no slot {slot} (slots are T1-T5, B1-B5, L1-L5, R1-R5)")
            return TAKES[SLOT_INDEX[slot]][arch]
        m = _BUILD_RE.fullmatch(t)
        if m:
            row, col = int(m.group(1)), int(m.group(2))
            if not (1 <= row <= 4 and 1 <= col <= 5):
                raise NotationError(f"{quote(text)}: city squares are r1c1 to r4c5")
            return BUILDS[row][col]
        raise NotationError(
            f"{quote(text)} is not a move: expected a take like '3L4' (architect, slot), "
            "a build like 'r2c3' (row, column) or 'discard'"
        )


# ASCII digits only: "３L4" (a full-width 3) is not the notation of 3L4.
_TAKE_RE: Final = re.compile(r"#?(\d)\s*([tblr])(\d)", re.ASCII)
_BUILD_RE: Final = re.compile(r"r(\d)\s*c(\d)", re.ASCII)


def _check(what: str, name: str, value: object, lo: int, hi: int, hint: str = "") -> None:
    # Exactly int: a bool (or any int subclass with its own str) would print another move.
    if type(value) is not int or not lo <= value <= hi:
        raise NotationError(f"{what}: {name} must be an integer from {lo} to {hi}{hint}, got {quote(value)}")


@dataclass(frozen=True, slots=True)
class Take(Move):
    """Put architect #``architect`` in slot ``slot`` (index into :data:`site.SLOT_NAMES`)."""

    architect: int
    slot: int

    kind: ClassVar[str] = "take"

    def __post_init__(self) -> None:
        _check("Take", "architect", self.architect, 1, 5)
        _check("Take", "slot", self.slot, 0, 19, " (the index of T1-T5, B1-B5, L1-L5, R1-R5)")

    @staticmethod
    def at(architect: int, slot: str) -> Take:
        """``Take.at(3, "L4")``; raises :class:`NotationError` for an unknown slot name."""
        index = SLOT_INDEX.get(slot.upper()) if isinstance(slot, str) else None
        if index is None:
            raise NotationError(f"no slot {quote(slot)} (slots are T1-T5, B1-B5, L1-L5, R1-R5)")
        return Take(architect, index)

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

    def __post_init__(self) -> None:
        _check("Build", "row", self.row, 1, 4, " (city squares are r1c1 to r4c5)")
        _check("Build", "col", self.col, 1, 5, " (city squares are r1c1 to r4c5)")

    def __str__(self) -> str:
        return f"r{self.row}c{self.col}"


@dataclass(frozen=True, slots=True)
class Discard(Move):
    """Discard the taken building (R9)."""

    kind: ClassVar[str] = "discard"

    def __str__(self) -> str:
        return "discard"


# Interned moves: legal-move generation hands out these shared values instead of allocating.
# TAKES[slot][architect], BUILDS[row][col]: architects, rows and columns count from 1, and
# index 0 holds None (no such move exists; nothing indexes it).
TAKES: Final = cast(
    tuple[tuple[Take, ...], ...], tuple((None, *(Take(a, s) for a in range(1, 6))) for s in range(20))
)
BUILDS: Final = cast(
    tuple[tuple[Build, ...], ...],
    ((None,) * 6, *((None, *(Build(r, c) for c in range(1, 6))) for r in range(1, 5))),
)
DISCARD: Final = Discard()

#: Every move, numbered in the order in which :func:`quadropolis.rules.legal_moves` lists
#: them: ``MOVES[k]`` is move number ``k``. Takes by slot then architect
#: (``slot * 5 + architect - 1``: 0-99), builds square by square, row by row
#: (``100 + (row - 1) * 5 + col - 1``: 100-119), discard (120). Adapters that index moves
#: (the RL action space) use these numbers.
MOVES: Final[tuple[Move, ...]] = (
    *(TAKES[s][a] for s in range(20) for a in range(1, 6)),
    *(BUILDS[r][c] for r in range(1, 5) for c in range(1, 6)),
    DISCARD,
)
_NUMBER_OF_ID: Final = {id(m): k for k, m in enumerate(MOVES)}


def move_number(move: Move) -> int:
    """The number of ``move`` (its index in :data:`MOVES`): equal moves, interned or made by
    hand, have the same number."""
    k = _NUMBER_OF_ID.get(id(move))  # the interned moves (what legal_moves hands out)
    if k is not None:
        return k
    if isinstance(move, Take):
        return move.slot * 5 + move.architect - 1
    if isinstance(move, Build):
        return 100 + (move.row - 1) * 5 + move.col - 1
    if isinstance(move, Discard):
        return 120
    raise TypeError(f"not a move: {move!r}")
