"""Each tile kind explained in the players' words: what it is, what it scores, where it may
go. Every figure is read from the engine's own tables (the VP tables of
:mod:`.scoring_tables`, the floor limits and placement of :mod:`.city`), so the explanations
cannot drift from the rules the engine plays. The server sends them in its tile manifest and
the browser shows them as each tile's tooltip; the rulings cited are those of docs/rules.md.

Standard library and core only, no I/O."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .buildings import BuildingType, TileKind
from .city import GEOMETRY
from .render import kind_label
from .scoring_tables import (
    DISTRICT_VP,
    FACTORY_PAIR_VP,
    MONUMENT_VP,
    OFFICE_VP,
    PARK_VP,
    RUN_VP,
    SHOP_VP,
    TOWER_VP,
    USES_ENERGY,
    USES_INHABITANT,
)
from .tiles import TILES, Mode

_B = BuildingType
#: The building types of the Classic game (the others are Expert only).
_IN_CLASSIC: Final = frozenset(t.kind.type for t in TILES if t.in_mode(Mode.CLASSIC))
#: The largest count a Classic table uses (4 floors, customers, districts, a run of 4); the
#: Expert tables go one further.
_CLASSIC_TOP: Final = 4


@dataclass(frozen=True, slots=True)
class TileHelp:
    """A tile kind explained: ``what`` it is (``what_all_parks_absorb`` under that §6
    variant, which changes only parks), what it ``scores`` and ``where`` it may be built.
    Each is one or two sentences, in the players' words."""

    name: str
    what: str
    what_all_parks_absorb: str
    scores: str
    where: str


def tile_help(kind: TileKind) -> TileHelp:
    """The explanation of tile ``kind`` (both modes: Expert differences are said in it)."""
    return TileHelp(
        name=kind.words,
        what=_what(kind, all_parks_absorb=False),
        what_all_parks_absorb=_what(kind, all_parks_absorb=True),
        scores=f"{_needs(kind.type)} {_scores(kind.type)}",
        where=_where(kind.type),
    )


def _what(kind: TileKind, all_parks_absorb: bool) -> str:
    name = kind.words
    article = "an" if name[0] in "aeiou" else "a"
    # The tile as every client draws it (``T1*``, ``Kt``…): the one notation players see.
    parts = [f"{kind_label(kind)}: {article} {name}"]
    if kind.type is _B.PARK:
        if all_parks_absorb:
            parts.append("absorbs 1 unused energy at the end of the game (variant: every park absorbs)")
        elif kind.tree:
            parts.append("absorbs 1 unused energy at the end of the game (R11)")
        else:
            parts.append("gives 1 inhabitant when built, absorbs nothing (R11)")
    else:
        gives = _plural(kind.inhabitants, "inhabitant") + _plural(kind.energy, "energy", "energy")
        if gives:
            parts.append("gives " + " and ".join(gives) + " when built")
    if kind.vp:
        parts.append(f"prints {kind.vp} VP")
    if kind.mayor:
        parts.append("whoever builds it takes the mayor and starts the next round (R10)")
    if kind.type not in _IN_CLASSIC:
        parts.append("Expert only")
    return "; ".join(parts) + "."


def _plural(n: int, one: str, many: str | None = None) -> list[str]:
    if n <= 0:
        return []
    return [f"{n} {one if n == 1 else many or one + 's'}"]


def _needs(btype: BuildingType) -> str:
    energy = btype in USES_ENERGY
    inhabitant = btype in USES_INHABITANT
    if energy and inhabitant:
        return "Needs 1 inhabitant and 1 energy to score."
    if energy:
        return "Needs 1 energy to score."
    if inhabitant:
        return "Needs 1 inhabitant to score."
    return "Always scores (needs nothing)."


def _table(vp: Sequence[int], first: int = 1, expert_only: bool = False) -> str:
    """``1 → 1, 2 → 3, 3 → 6, 4 → 10 (Expert: 5 → 15)`` from a table indexed by count (every
    entry alike for an ``expert_only`` building)."""
    top = len(vp) if expert_only else min(len(vp), _CLASSIC_TOP + 1)
    shown = ", ".join(f"{n} → {vp[n]}" for n in range(first, top))
    if top < len(vp):
        shown += f" (Expert: {top} → {vp[top]})"
    return shown


def _per_neighbour(table: dict[BuildingType, int]) -> str:
    return ", ".join(f"{t.words} {v:+d}".replace("-", "−") for t, v in table.items() if v)


def _scores(btype: BuildingType) -> str:
    if btype is _B.TOWER_BLOCK:
        return f"Scores by its floors: {_table(TOWER_VP)}."
    if btype is _B.SHOP:
        return f"Scores by its customers (inhabitants placed in it): {_table(SHOP_VP)}."
    if btype is _B.PUBLIC_SERVICE:
        return (
            "Its printed VP, and the city scores once by the districts holding one: "
            f"{_table(DISTRICT_VP)} (R2)."
        )
    if btype is _B.PARK:
        return f"Scores by the adjacent tower blocks (Expert: and office towers): {_table(PARK_VP)}."
    if btype is _B.FACTORY:
        return f"Scores for each adjacent {_per_neighbour(FACTORY_PAIR_VP)} (office towers: Expert)."
    if btype is _B.HARBOR:
        return (
            "Its printed VP, and the city's longest row and longest column of harbors score: "
            f"{_table(RUN_VP, first=2)} (R14)."
        )
    if btype is _B.OFFICE_TOWER:
        alone, big = (_table(OFFICE_VP[n], expert_only=True) for n in (1, 5))
        return (
            "Scores by its floors and the size of its group of touching office towers: "
            f"alone {alone}; in a group of 5 or more {big} (R15)."
        )
    return f"Scores for each adjacent {_per_neighbour(MONUMENT_VP)}."


def _where(btype: BuildingType) -> str:
    classic, expert = GEOMETRY[Mode.CLASSIC], GEOMETRY[Mode.EXPERT]
    if btype in _IN_CLASSIC:
        where = "With architect #n: an empty square in row n or column n"
        where += " (Expert: numbered n or in district n)"
        rulings = "R8, R16"
    else:
        where = "With architect #n: an empty square numbered n or in district n"
        rulings = "R16"
    if btype not in expert.max_floors:
        return f"{where} ({rulings}). Never stacked."
    limits = f"at most {expert.max_floors[btype]} floors"
    if btype in classic.max_floors and classic.max_floors[btype] != expert.max_floors[btype]:
        limits = f"at most {classic.max_floors[btype]} floors (Expert: {expert.max_floors[btype]})"
    return (
        f"{where}; or on top of {_article(btype.words)} in such a square or as floor number n, "
        f"{limits} ({rulings})."
    )


def _article(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


# --- the same explanations as values, for a client that says them in another language -----

#: One sentence (or clause) of an explanation: a code and its values. Numbers are numbers,
#: building types their JSON keys, a VP table a list of ``[count, VP]`` pairs.
Part = tuple[str, dict[str, object]]


@dataclass(frozen=True, slots=True)
class TileHelpParts:
    """:class:`TileHelp` as codes and values: each of ``what`` (and its §6 variant),
    ``scores`` and ``where`` a list of :data:`Part`, in the order of the English text."""

    what: tuple[Part, ...]
    what_all_parks_absorb: tuple[Part, ...]
    scores: tuple[Part, ...]
    where: tuple[Part, ...]

    def to_json(self) -> dict[str, list[list[object]]]:
        sections = {"what": self.what, "what_all_parks_absorb": self.what_all_parks_absorb}
        sections |= {"scores": self.scores, "where": self.where}
        return {name: [[code, values] for code, values in parts] for name, parts in sections.items()}


def tile_help_parts(kind: TileKind) -> TileHelpParts:
    """The explanation of tile ``kind`` as codes and values (see :class:`TileHelpParts`):
    the figures of :func:`tile_help`, read from the same tables."""
    return TileHelpParts(
        what=_what_parts(kind, all_parks_absorb=False),
        what_all_parks_absorb=_what_parts(kind, all_parks_absorb=True),
        scores=(_needs_part(kind.type), _scores_part(kind.type)),
        where=_where_parts(kind.type),
    )


def _what_parts(kind: TileKind, all_parks_absorb: bool) -> tuple[Part, ...]:
    name: dict[str, object] = {"label": kind_label(kind), "building": kind.type.key}
    if kind.type is _B.PARK:
        name["park"] = "tree" if kind.tree else "playground"
    parts: list[Part] = [("name", name)]
    if kind.type is _B.PARK:
        parts.append(("park_every" if all_parks_absorb else "park_tree" if kind.tree else "playground", {}))
    elif kind.inhabitants or kind.energy:
        parts.append(("gives", {"inhabitants": kind.inhabitants, "energy": kind.energy}))
    if kind.vp:
        parts.append(("prints", {"vp": kind.vp}))
    if kind.mayor:
        parts.append(("mayor", {}))
    if kind.type not in _IN_CLASSIC:
        parts.append(("expert_only", {}))
    return tuple(parts)


def _needs_part(btype: BuildingType) -> Part:
    energy, inhabitant = btype in USES_ENERGY, btype in USES_INHABITANT
    if energy and inhabitant:
        return "needs_both", {}
    return ("needs_energy" if energy else "needs_inhabitant" if inhabitant else "needs_nothing"), {}


def _table_values(vp: Sequence[int], first: int = 1, expert_only: bool = False) -> dict[str, object]:
    """The pairs :func:`_table` writes: ``table``, and ``expert`` for the row only Expert reaches."""
    top = len(vp) if expert_only else min(len(vp), _CLASSIC_TOP + 1)
    values: dict[str, object] = {"table": [[n, vp[n]] for n in range(first, top)]}
    if top < len(vp):
        values["expert"] = [top, vp[top]]
    return values


def _scores_part(btype: BuildingType) -> Part:
    code = f"scores_{btype.key}"
    tables = {_B.TOWER_BLOCK: TOWER_VP, _B.SHOP: SHOP_VP, _B.PUBLIC_SERVICE: DISTRICT_VP, _B.PARK: PARK_VP}
    if btype in tables:
        return code, _table_values(tables[btype])
    if btype is _B.HARBOR:
        return code, _table_values(RUN_VP, first=2)
    if btype is _B.OFFICE_TOWER:
        alone, big = (_table_values(OFFICE_VP[n], expert_only=True)["table"] for n in (1, 5))
        return code, {"alone": alone, "big": big}
    pairs = FACTORY_PAIR_VP if btype is _B.FACTORY else MONUMENT_VP
    return code, {"pairs": [[t.key, v] for t, v in pairs.items() if v]}


def _where_parts(btype: BuildingType) -> tuple[Part, ...]:
    classic, expert = GEOMETRY[Mode.CLASSIC], GEOMETRY[Mode.EXPERT]
    in_classic = btype in _IN_CLASSIC
    where: Part = ("where_lines", {}) if in_classic else ("where_numbers", {})
    rulings = "R8, R16" if in_classic else "R16"
    if btype not in expert.max_floors:
        return where, ("never_stacked", {"rulings": rulings})
    values: dict[str, object] = {
        "building": btype.key,
        "floors": expert.max_floors[btype],
        "rulings": rulings,
    }
    if btype in classic.max_floors and classic.max_floors[btype] != expert.max_floors[btype]:
        values |= {"floors": classic.max_floors[btype], "expert_floors": expert.max_floors[btype]}
    return where, ("stacks", values)
