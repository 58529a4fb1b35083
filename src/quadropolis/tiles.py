"""The 142-tile manifest of TILES.md, transcribed as data.

Where the public sources are silent TILES.md makes choices, kept here unchanged:

- A1: in each round one unmarked park is a playground.
- A2: where a Classic round has two tiles of one kind with different markings and only one is
  classic-only, the table picks which (round 1 F1 and PS1; round 2 shop; round 3 parks; round 4
  T2, PS1, H1I1E, H2I).
- A3: the markings of expert-only tiles are chosen so that every Expert round reveals
  16/20/25 tiles with 2/3/4 players.
- A4: Expert round 4 has its own mayor tower block (expert only).
- A5: a "harbor giving 3 energy" in one Classic source is read as a factory giving 3 energy.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .buildings import KINDS, TileKind
from .errors import ConfigError, quote


class Mode(StrEnum):
    """Game mode."""

    CLASSIC = "classic"
    EXPERT = "expert"

    @classmethod
    def parse(cls, name: object) -> Mode:
        """The mode called ``name`` as JSON, the command line and the RL adapters' options
        spell it (``"classic"``, ``"expert"``; a :class:`Mode` is returned as it is).

        Raises :class:`ConfigError` naming the valid modes for anything else (the value
        quoted safely)."""
        if isinstance(name, cls):
            return name
        if isinstance(name, str) and name in {m.value for m in cls}:
            return cls(name)
        valid = " or ".join(repr(m.value) for m in cls)
        raise ConfigError(f"mode must be {valid}, got {quote(name)}")


#: Number of rounds per mode.
ROUNDS: Final = {Mode.CLASSIC: 4, Mode.EXPERT: 5}

BOTH: Final = "both"
CLASSIC: Final = "classic"
EXPERT: Final = "expert"


@dataclass(frozen=True, slots=True)
class Tile:
    """One physical tile. ``min_players`` is 2 for an unmarked tile, 3 for "3-4", 4 for "4":
    the tile is turned face up only with at least that many players (R4)."""

    id: int
    round: int
    kind: TileKind
    modes: str
    min_players: int

    def in_mode(self, mode: Mode) -> bool:
        return self.modes == BOTH or self.modes == mode.value

    @property
    def code(self) -> str:
        return self.kind.code


# (round, kind code, mode, min_players, count): one line per line of TILES.md, same order.
_MANIFEST: Final[tuple[tuple[int, str, str, int, int], ...]] = (
    (1, "T1", BOTH, 2, 1),
    (1, "T1", CLASSIC, 2, 1),
    (1, "T1m", BOTH, 2, 1),
    (1, "T2", BOTH, 2, 1),
    (1, "T2", BOTH, 3, 1),
    (1, "T2", BOTH, 4, 1),
    (1, "T3", BOTH, 2, 1),
    (1, "S", BOTH, 2, 2),
    (1, "S", BOTH, 4, 1),
    (1, "PS0", BOTH, 2, 1),
    (1, "PS1", CLASSIC, 3, 1),
    (1, "PS1", BOTH, 4, 1),
    (1, "PS2", BOTH, 2, 1),
    (1, "PKP", BOTH, 2, 1),
    (1, "PKT", BOTH, 2, 1),
    (1, "PKT", BOTH, 4, 1),
    (1, "F1", BOTH, 2, 1),
    (1, "F1", CLASSIC, 3, 1),
    (1, "F2", BOTH, 2, 1),
    (1, "F3", BOTH, 2, 1),
    (1, "H1I1E", BOTH, 3, 1),
    (1, "H1V", BOTH, 4, 1),
    (1, "H2E", BOTH, 2, 1),
    (1, "H2I", BOTH, 2, 1),
    (1, "O", EXPERT, 2, 1),
    (1, "O", EXPERT, 3, 2),
    (2, "T1", CLASSIC, 2, 2),
    (2, "T1m", BOTH, 2, 1),
    (2, "T2", BOTH, 2, 1),
    (2, "T2", BOTH, 3, 1),
    (2, "T2", BOTH, 4, 1),
    (2, "T3", BOTH, 2, 1),
    (2, "S", BOTH, 2, 1),
    (2, "S", CLASSIC, 2, 1),
    (2, "S", BOTH, 4, 1),
    (2, "PS0", BOTH, 2, 1),
    (2, "PS1", BOTH, 3, 1),
    (2, "PS1", BOTH, 4, 1),
    (2, "PS2", BOTH, 2, 1),
    (2, "PKP", BOTH, 2, 1),
    (2, "PKT", BOTH, 2, 1),
    (2, "PKT", BOTH, 4, 1),
    (2, "F1", CLASSIC, 2, 1),
    (2, "F2", BOTH, 2, 1),
    (2, "F2", BOTH, 3, 1),
    (2, "F3", BOTH, 2, 1),
    (2, "H1I1E", BOTH, 2, 1),
    (2, "H1I1E", BOTH, 4, 1),
    (2, "H2I", BOTH, 3, 1),
    (2, "H2V", BOTH, 2, 1),
    (2, "O", EXPERT, 2, 3),
    (2, "M", EXPERT, 2, 1),
    (3, "T1", CLASSIC, 2, 1),
    (3, "T1m", BOTH, 2, 1),
    (3, "T2", BOTH, 2, 1),
    (3, "T2", BOTH, 3, 1),
    (3, "T2", BOTH, 4, 1),
    (3, "T3", BOTH, 2, 1),
    (3, "S", BOTH, 2, 2),
    (3, "S", BOTH, 4, 1),
    (3, "PS0", BOTH, 2, 1),
    (3, "PS1", BOTH, 3, 1),
    (3, "PS1", BOTH, 4, 1),
    (3, "PS2", BOTH, 2, 1),
    (3, "PKP", BOTH, 2, 1),
    (3, "PKT", BOTH, 2, 1),
    (3, "PKT", CLASSIC, 2, 1),
    (3, "PKT", CLASSIC, 4, 1),
    (3, "F1", CLASSIC, 2, 1),
    (3, "F2", BOTH, 2, 1),
    (3, "F2", BOTH, 3, 1),
    (3, "F3", BOTH, 2, 1),
    (3, "H1I1E", BOTH, 4, 1),
    (3, "H2E", BOTH, 3, 1),
    (3, "H2I", BOTH, 2, 1),
    (3, "H2V", BOTH, 2, 1),
    (3, "O", EXPERT, 2, 2),
    (3, "O", EXPERT, 4, 1),
    (3, "M", EXPERT, 2, 1),
    (4, "T1", BOTH, 2, 1),
    (4, "T1", CLASSIC, 2, 1),
    (4, "T1m", EXPERT, 2, 1),
    (4, "T2", BOTH, 2, 1),
    (4, "T2", CLASSIC, 3, 1),
    (4, "T2", BOTH, 4, 1),
    (4, "T3", BOTH, 2, 1),
    (4, "S", BOTH, 2, 2),
    (4, "S", BOTH, 4, 1),
    (4, "PS0", BOTH, 2, 1),
    (4, "PS1", CLASSIC, 3, 1),
    (4, "PS1", BOTH, 4, 1),
    (4, "PS2", BOTH, 2, 1),
    (4, "PKP", BOTH, 2, 1),
    (4, "PKT", BOTH, 2, 1),
    (4, "PKT", BOTH, 4, 1),
    (4, "F1", CLASSIC, 2, 1),
    (4, "F2", BOTH, 2, 1),
    (4, "F2", BOTH, 3, 1),
    (4, "F3", BOTH, 2, 1),
    (4, "H1I1E", CLASSIC, 2, 1),
    (4, "H1I1E", BOTH, 4, 1),
    (4, "H2E", BOTH, 2, 1),
    (4, "H2I", CLASSIC, 3, 1),
    (4, "H3V", BOTH, 2, 1),
    (4, "O", EXPERT, 2, 2),
    (4, "O", EXPERT, 3, 2),
    (4, "M", EXPERT, 3, 1),
    (5, "T2", EXPERT, 2, 1),
    (5, "T2", EXPERT, 3, 1),
    (5, "T2", EXPERT, 4, 1),
    (5, "T3", EXPERT, 2, 2),
    (5, "S", EXPERT, 2, 2),
    (5, "S", EXPERT, 4, 1),
    (5, "PS0", EXPERT, 2, 1),
    (5, "PS1", EXPERT, 4, 1),
    (5, "PS2", EXPERT, 2, 1),
    (5, "PKP", EXPERT, 2, 1),
    (5, "PKT", EXPERT, 2, 1),
    (5, "F2", EXPERT, 2, 1),
    (5, "F2", EXPERT, 3, 1),
    (5, "F3", EXPERT, 2, 1),
    (5, "H1I1E", EXPERT, 2, 1),
    (5, "H1I1E", EXPERT, 3, 1),
    (5, "H3V", EXPERT, 2, 1),
    (5, "H3V", EXPERT, 4, 1),
    (5, "O", EXPERT, 2, 3),
    (5, "O", EXPERT, 3, 1),
    (5, "M", EXPERT, 4, 1),
)


def _build() -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    for rnd, code, modes, min_players, count in _MANIFEST:
        for _ in range(count):
            tiles.append(Tile(len(tiles), rnd, KINDS[code], modes, min_players))
    return tuple(tiles)


#: Every tile, indexed by its id (0-141, in manifest order).
TILES: Final[tuple[Tile, ...]] = _build()


def round_tiles(mode: Mode, rnd: int) -> tuple[Tile, ...]:
    """The tiles laid out for round ``rnd`` (1-based) of ``mode``, in manifest order."""
    return tuple(t for t in TILES if t.round == rnd and t.in_mode(mode))
