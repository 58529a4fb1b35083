"""Building types and the tile kinds printed on the physical tiles (TILES.md)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class BuildingType(IntEnum):
    """The eight building types. ``str(t)`` / :attr:`key` is the snake_case name used in JSON."""

    TOWER_BLOCK = 0
    SHOP = 1
    PUBLIC_SERVICE = 2
    PARK = 3
    FACTORY = 4
    HARBOR = 5
    OFFICE_TOWER = 6
    MONUMENT = 7

    @property
    def key(self) -> str:
        return self.name.lower()

    @classmethod
    def from_key(cls, key: str) -> BuildingType:
        try:
            return cls[key.upper()]
        except KeyError:
            names = ", ".join(t.key for t in cls)
            raise ValueError(f"unknown building type {key!r} (expected one of: {names})") from None

    @property
    def words(self) -> str:
        """The type in the players' words (the rulebook's name): ``tower block``."""
        return BUILDING_NAMES[self]

    @property
    def plural(self) -> str:
        """The type's name in the plural: ``tower blocks``, ``factories``."""
        return BUILDING_PLURALS[self]

    def __str__(self) -> str:
        return self.key


#: Each building type in the players' words: the rulebook's names, the only name table. Every
#: text a player reads (the engine's messages, the terminal, the server's tile manifest and
#: through it the browser) names buildings from here, never by their JSON :attr:`key`.
BUILDING_NAMES: dict[BuildingType, str] = {
    BuildingType.TOWER_BLOCK: "tower block",
    BuildingType.SHOP: "shop",
    BuildingType.PUBLIC_SERVICE: "public service",
    BuildingType.PARK: "park",
    BuildingType.FACTORY: "factory",
    BuildingType.HARBOR: "harbor",
    BuildingType.OFFICE_TOWER: "office tower",
    BuildingType.MONUMENT: "monument",
}
#: The same names in the plural (score sheet lines, counts).
BUILDING_PLURALS: dict[BuildingType, str] = {
    t: name[:-1] + "ies" if name.endswith("y") else name + "s" for t, name in BUILDING_NAMES.items()
}


#: Single-letter codes used when drawing a city or the construction site.
TYPE_LETTER: dict[BuildingType, str] = {
    BuildingType.TOWER_BLOCK: "T",
    BuildingType.SHOP: "S",
    BuildingType.PUBLIC_SERVICE: "P",
    BuildingType.PARK: "K",
    BuildingType.FACTORY: "F",
    BuildingType.HARBOR: "H",
    BuildingType.OFFICE_TOWER: "O",
    BuildingType.MONUMENT: "M",
}


@dataclass(frozen=True, slots=True)
class TileKind:
    """What is printed on a tile: its type, the resources it gives when built, printed VP,
    the mayor symbol, and for parks whether it is a tree park (absorbs 1 pollution) or a
    playground (gives 1 inhabitant, absorbs nothing; R11)."""

    code: str
    type: BuildingType
    inhabitants: int = 0
    energy: int = 0
    vp: int = 0
    mayor: bool = False
    tree: bool = False

    @property
    def words(self) -> str:
        """What the tile is in the players' words: its type's name, or for a park
        ``tree park`` / ``playground`` (R11)."""
        if self.type is BuildingType.PARK:
            return "tree park" if self.tree else "playground"
        return self.type.words


_B = BuildingType

#: Tile kinds of TILES.md, by their code there.
KINDS: dict[str, TileKind] = {
    k.code: k
    for k in (
        TileKind("T1", _B.TOWER_BLOCK, inhabitants=1),
        TileKind("T1m", _B.TOWER_BLOCK, inhabitants=1, mayor=True),
        TileKind("T2", _B.TOWER_BLOCK, inhabitants=2),
        TileKind("T3", _B.TOWER_BLOCK, inhabitants=3),
        TileKind("S", _B.SHOP),
        TileKind("PS0", _B.PUBLIC_SERVICE, vp=0),
        TileKind("PS1", _B.PUBLIC_SERVICE, vp=1),
        TileKind("PS2", _B.PUBLIC_SERVICE, vp=2),
        TileKind("PKT", _B.PARK, tree=True),
        TileKind("PKP", _B.PARK, inhabitants=1),
        TileKind("F1", _B.FACTORY, energy=1),
        TileKind("F2", _B.FACTORY, energy=2),
        TileKind("F3", _B.FACTORY, energy=3),
        TileKind("H2I", _B.HARBOR, inhabitants=2),
        TileKind("H2E", _B.HARBOR, energy=2),
        TileKind("H1I1E", _B.HARBOR, inhabitants=1, energy=1),
        TileKind("H1V", _B.HARBOR, vp=1),
        TileKind("H2V", _B.HARBOR, vp=2),
        TileKind("H3V", _B.HARBOR, vp=3),
        TileKind("O", _B.OFFICE_TOWER),
        TileKind("M", _B.MONUMENT),
    )
}
