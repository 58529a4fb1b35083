"""A player's city: its geometry (rows, columns, districts, printed square numbers), the
buildings standing on its squares, and where architect #n may build (R2, R8, R16).

Squares are indexed row-major from 0; rows and columns are 1-based in every text the
package prints or reads (``r2c3`` is row 2, column 3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .buildings import BuildingType
from .errors import InvalidStateError, quote, quote_keys
from .tiles import Mode

_B = BuildingType


@dataclass(frozen=True, slots=True)
class Building:
    """What stands on one square: a building, possibly a stack of ``floors`` tiles.

    ``vp`` is the printed VP of the stack (only public services and harbors print VP and
    neither stacks). ``tree`` matters for parks only: a tree park absorbs one unused energy,
    a playground absorbs nothing (R11). Fields are checked where a building enters a
    :class:`City` (:func:`building_problem`), not here: stacking in the rules engine is a
    hot path."""

    type: BuildingType
    floors: int = 1
    vp: int = 0
    tree: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type.key}
        if self.floors != 1:
            d["floors"] = self.floors
        if self.vp:
            d["vp"] = self.vp
        if self.type is _B.PARK:
            d["variant"] = "tree" if self.tree else "playground"
        return d

    @classmethod
    def from_json(cls, data: Any, where: str = "cell", mode: Mode | None = None) -> Building:
        """Parse one cell (not ``null``). With ``mode`` the building must be able to stand in
        a city of that mode (height limits, Expert-only types); without, in some mode."""
        if not isinstance(data, Mapping):
            raise InvalidStateError(f"{where}: expected null or an object, got {quote(data)}")
        unknown = set(data) - {"type", "floors", "vp", "variant"}
        if unknown:
            raise InvalidStateError(f"{where}: unknown field(s) {quote_keys(unknown)}")
        if "type" not in data:
            raise InvalidStateError(f"{where}: missing field 'type'")
        key = data["type"]
        if not isinstance(key, str):
            raise InvalidStateError(f"{where}: 'type' must be a string, got {quote(key)}")
        btype = _TYPE_KEYS.get(key)
        if btype is None:
            raise InvalidStateError(
                f"{where}: unknown building type {quote(key)} (expected one of: {', '.join(_TYPE_KEYS)})"
            )
        floors = _int_field(data, "floors", 1, where)
        vp = _int_field(data, "vp", 0, where)
        variant = data.get("variant", "tree")
        if not isinstance(variant, str) or variant not in ("tree", "playground"):
            raise InvalidStateError(
                f'{where}: \'variant\' must be "tree" or "playground", got {quote(variant)}'
            )
        if "variant" in data and btype is not _B.PARK:
            raise InvalidStateError(f"{where}: 'variant' applies to parks only")
        b = cls(btype, floors, vp, btype is _B.PARK and variant == "tree")
        problem = building_problem(b, mode)
        if problem is not None:
            raise InvalidStateError(f"{where}: {problem}")
        return b


#: The most printed VP a tile of each type carries (TILES.md); other types print none.
_PRINTED_VP_MAX: Final = {_B.PUBLIC_SERVICE: 2, _B.HARBOR: 3}
#: Building types by their JSON key.
_TYPE_KEYS: Final = {t.key: t for t in BuildingType}
#: Cap on a city's inhabitants and on its energy: far above what a game can give (a player
#: builds at most 20 tiles, each giving at most 3) and small enough for exact scoring.
RESOURCE_MAX: Final = 999


def building_problem(b: object, mode: Mode | None) -> str | None:
    """Why ``b`` cannot stand on a square of a ``mode`` city (any mode if ``None``), or
    ``None``: a :class:`Building` of a :class:`BuildingType`, with whole ``floors`` from 1 to
    the type's height limit (tower blocks 4 in Classic, 5 in Expert; office towers 5; others
    1), printed ``vp`` within what its tiles print (TILES.md: public services 0-2, harbors
    0-3, others none), ``tree`` a bool and true for parks only, office towers and monuments
    only in Expert."""
    if type(b) is not Building:
        return f"expected a Building or None, got {quote(b)}"
    btype = b.type
    if type(btype) is not BuildingType:
        return f"'type' must be a BuildingType, got {quote(btype)}"
    if mode is Mode.CLASSIC and btype is _B.OFFICE_TOWER:
        return "office towers exist only in expert mode"
    if mode is Mode.CLASSIC and btype is _B.MONUMENT:
        return "monuments exist only in expert mode"
    floors, vp = b.floors, b.vp
    if type(floors) is not int:
        return f"'floors' must be an integer, got {quote(floors)}"
    if floors < 1:
        return f"'floors' must be at least 1, got {quote(floors)}"
    limit = _FLOOR_LIMIT[mode][btype]
    if floors > limit:
        in_mode = f" in {mode.value} mode" if mode is not None else ""
        return f"a {btype.words} has at most {limit} floor(s){in_mode}, got {quote(floors)}"
    if type(vp) is not int:
        return f"'vp' must be an integer, got {quote(vp)}"
    if vp < 0:
        return f"'vp' must not be negative, got {quote(vp)}"
    most = _PRINTED_VP_MAX.get(btype, 0)
    if vp > most:
        what = f"at most {most}" if most else "none"
        return f"a {btype.words} prints {what} VP (TILES.md), got 'vp': {quote(vp)}"
    if type(b.tree) is not bool:
        return f"'tree' must be true or false, got {quote(b.tree)}"
    if b.tree and btype is not _B.PARK:
        return f"a {btype.words} cannot be a tree park"
    return None


def _int_field(data: Mapping[str, Any], key: str, default: int, where: str) -> int:
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise InvalidStateError(f"{where}: {key!r} must be an integer, got {quote(v)}")
    return v


class Geometry:
    """The fixed layout of a city in one mode.

    Classic (R2): 4x4 squares, four districts = the 2x2 quadrants, architect #n builds on an
    empty square of row n or column n. Expert (R16): 4 rows x 5 columns, five districts of
    four squares and a printed number on every square; architect #n builds on an empty square
    numbered n or in district n."""

    __slots__ = (
        "mode",
        "rows",
        "cols",
        "size",
        "district",
        "number",
        "neighbours",
        "eligible",
        "max_floors",
        "architects",
    )

    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.rows = 4
        self.cols = 4 if mode is Mode.CLASSIC else 5
        self.size = self.rows * self.cols
        self.architects = 4 if mode is Mode.CLASSIC else 5
        if mode is Mode.CLASSIC:
            self.district: tuple[int, ...] = tuple(
                1 + (r // 2) * 2 + (c // 2) for r in range(4) for c in range(4)
            )
            self.number: tuple[int, ...] | None = None
            eligible = [
                frozenset(r * 4 + c for r in range(4) for c in range(4) if n in (r + 1, c + 1))
                for n in range(6)
            ]
            self.max_floors: dict[BuildingType, int] = {_B.TOWER_BLOCK: 4}
        else:
            self.district = tuple(int(x) for row in _EXPERT_DISTRICTS for x in row)
            self.number = tuple(int(x) for row in _EXPERT_NUMBERS for x in row)
            eligible = [
                frozenset(s for s in range(self.size) if self.number[s] == n or self.district[s] == n)
                for n in range(6)
            ]
            self.max_floors = {_B.TOWER_BLOCK: 5, _B.OFFICE_TOWER: 5}
        #: eligible[n]: squares where architect #n may build or stack by line/number/district.
        self.eligible: tuple[frozenset[int], ...] = tuple(eligible)
        nbrs = []
        for s in range(self.size):
            r, c = divmod(s, self.cols)
            n = []
            if r > 0:
                n.append(s - self.cols)
            if c > 0:
                n.append(s - 1)
            if c < self.cols - 1:
                n.append(s + 1)
            if r < self.rows - 1:
                n.append(s + self.cols)
            nbrs.append(tuple(n))
        #: Orthogonal neighbours of each square.
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(nbrs)

    def square_name(self, s: int) -> str:
        r, c = divmod(s, self.cols)
        return f"r{r + 1}c{c + 1}"

    def can_stack(self, below: Building | None, btype: BuildingType, architect: int, s: int) -> bool:
        """R8/R16: a stackable building may go on a building of the same type if the square is
        eligible for the architect, or if the new floor's number equals the architect's number,
        within the height limit."""
        if below is None or below.type is not btype:
            return False
        limit = self.max_floors.get(btype)
        if limit is None or below.floors >= limit:
            return False
        return s in self.eligible[architect] or below.floors + 1 == architect


_EXPERT_DISTRICTS: Final = ("11422", "11422", "55433", "55433")
_EXPERT_NUMBERS: Final = ("23113", "54254", "12312", "43554")

GEOMETRY: Final[dict[Mode, Geometry]] = {m: Geometry(m) for m in Mode}

#: _FLOOR_LIMIT[mode][type]: the most floors a building of that type has in that mode (the
#: height limits of docs/rules.md §2; ``None``: the most in any mode).
_FLOOR_LIMIT: Final[dict[Mode | None, dict[BuildingType, int]]] = {
    m: {t: GEOMETRY[m].max_floors.get(t, 1) for t in BuildingType} for m in Mode
}
_FLOOR_LIMIT[None] = {t: max(_FLOOR_LIMIT[m][t] for m in Mode) for t in BuildingType}


@dataclass(frozen=True, slots=True)
class City:
    """A city as scored: the building on each square (row-major, ``None`` = empty square) and
    the player's inhabitants and energy.

    Checked when made (raises :class:`InvalidStateError` naming the first problem): a
    :class:`Mode`, a tuple of one entry per square of that mode, every building able to
    stand there (:func:`building_problem`), and whole numbers of inhabitants and energy from
    0 to :data:`RESOURCE_MAX` (999; booleans are not numbers)."""

    mode: Mode
    buildings: tuple[Building | None, ...]
    inhabitants: int = 0
    energy: int = 0

    def __post_init__(self) -> None:
        mode = self.mode
        if type(mode) is not Mode:
            raise InvalidStateError(f"city: mode must be a Mode, got {quote(mode)}")
        bs = self.buildings
        size = GEOMETRY[mode].size
        if type(bs) is not tuple or len(bs) != size:
            raise InvalidStateError(
                f"city: buildings must be a tuple of {size} squares ({mode.value} city), got {quote(bs)}"
                + (f" of {len(bs)}" if isinstance(bs, tuple) else "")
            )
        floors_max = FLOORS_BY_TYPE[mode]
        for b in bs:
            # The fast path of building_problem (which gives the message): exact classes first
            # (True == 1), then the ranges, looked up by the type's integer value.
            if b is not None and (
                b.__class__ is not Building
                or b.type.__class__ is not BuildingType
                or b.floors.__class__ is not int
                or b.vp.__class__ is not int
                or b.tree.__class__ is not bool
                or not 1 <= b.floors <= floors_max[b.type]
                or not 0 <= b.vp <= PRINTED_VP_BY_TYPE[b.type]
                or (b.tree and b.type is not _PARK)
            ):
                self._reject(b)
        for name in ("inhabitants", "energy"):
            v = getattr(self, name)
            if type(v) is not int or not 0 <= v <= RESOURCE_MAX:
                raise InvalidStateError(
                    f"city: {name!r} must be a whole number from 0 to {RESOURCE_MAX}, got {quote(v)}"
                )

    @property
    def geometry(self) -> Geometry:
        return GEOMETRY[self.mode]

    def rows(self) -> list[list[Building | None]]:
        cols = self.geometry.cols
        return [list(self.buildings[i : i + cols]) for i in range(0, len(self.buildings), cols)]

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode.value,
            "rows": [[b.to_json() if b else None for b in row] for row in self.rows()],
            "inhabitants": self.inhabitants,
            "energy": self.energy,
        }

    @classmethod
    def from_json(cls, data: Any) -> City:
        """Parse and validate the city format of ``quadropolis score``.

        Raises :class:`InvalidStateError` naming the first problem found; never another
        exception, whatever the value (wrong types, huge integers, deep nesting)."""
        if not isinstance(data, Mapping):
            raise InvalidStateError(f"city: expected a JSON object, got {quote(data)}")
        unknown = set(data) - {"mode", "rows", "inhabitants", "energy"}
        if unknown:
            raise InvalidStateError(f"city: unknown field(s) {quote_keys(unknown)}")
        for key in ("mode", "rows"):
            if key not in data:
                raise InvalidStateError(f"city: missing field {key!r}")
        mode_name = data["mode"]
        if not isinstance(mode_name, str) or mode_name not in _MODES:
            raise InvalidStateError(f'city: \'mode\' must be "classic" or "expert", got {quote(mode_name)}')
        mode = _MODES[mode_name]
        geo = GEOMETRY[mode]
        rows = data["rows"]
        if not isinstance(rows, list | tuple) or len(rows) != geo.rows:
            raise InvalidStateError(f"city: 'rows' must be a list of {geo.rows} rows, got {quote(rows)}")
        buildings: list[Building | None] = []
        for r, row in enumerate(rows):
            if not isinstance(row, list | tuple) or len(row) != geo.cols:
                raise InvalidStateError(
                    f"city: row {r + 1} must be a list of {geo.cols} cells ({mode.value} city), "
                    f"got {quote(row)}"
                )
            for c, cell in enumerate(row):
                where = f"city: r{r + 1}c{c + 1}"
                buildings.append(None if cell is None else Building.from_json(cell, where, mode))
        inh = _int_field(data, "inhabitants", 0, "city")
        en = _int_field(data, "energy", 0, "city")
        if inh < 0 or en < 0:
            raise InvalidStateError("city: 'inhabitants' and 'energy' must not be negative")
        return cls(mode, tuple(buildings), inh, en)

    def _reject(self, b: object) -> None:
        s = next(i for i, x in enumerate(self.buildings) if x is b)
        problem = building_problem(b, self.mode) or "not a building"
        raise InvalidStateError(f"city: {GEOMETRY[self.mode].square_name(s)}: {problem}")


_MODES: Final = {m.value: m for m in Mode}
#: Height limits and printed VP limits by the building type's integer value (fast checks);
#: a height limit of 0 marks a type that does not exist in the mode.
FLOORS_BY_TYPE: Final = {
    m: tuple(
        0 if m is Mode.CLASSIC and t in (_B.OFFICE_TOWER, _B.MONUMENT) else _FLOOR_LIMIT[m][t]
        for t in BuildingType
    )
    for m in Mode
}
#: PRINTED_VP_BY_TYPE[type]: the most printed VP a building of that type may carry.
PRINTED_VP_BY_TYPE: Final = tuple(_PRINTED_VP_MAX.get(t, 0) for t in BuildingType)
_PARK: Final = _B.PARK
