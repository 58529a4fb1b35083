"""A player's city: its geometry (rows, columns, districts, printed square numbers), the
buildings standing on its squares, and where architect #n may build (R2, R8, R16).

Squares are indexed row-major from 0; rows and columns are 1-based in every text the
package prints or reads (``r2c3`` is row 2, column 3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .buildings import BuildingType
from .errors import InvalidStateError
from .tiles import Mode

_B = BuildingType


@dataclass(frozen=True, slots=True)
class Building:
    """What stands on one square: a building, possibly a stack of ``floors`` tiles.

    ``vp`` is the printed VP of the stack (only public services and harbors print VP and
    neither stacks). ``tree`` matters for parks only: a tree park absorbs one unused energy,
    a playground absorbs nothing (R11)."""

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
    def from_json(cls, data: Any, where: str = "cell") -> Building:
        if not isinstance(data, Mapping):
            raise InvalidStateError(f"{where}: expected null or an object, got {_kind(data)}")
        unknown = set(data) - {"type", "floors", "vp", "variant"}
        if unknown:
            raise InvalidStateError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        if "type" not in data:
            raise InvalidStateError(f"{where}: missing field 'type'")
        if not isinstance(data["type"], str):
            raise InvalidStateError(f"{where}: 'type' must be a string")
        try:
            btype = BuildingType.from_key(data["type"])
        except ValueError as e:
            raise InvalidStateError(f"{where}: {e}") from None
        floors = _int_field(data, "floors", 1, where)
        vp = _int_field(data, "vp", 0, where)
        variant = data.get("variant", "tree")
        if variant not in ("tree", "playground"):
            raise InvalidStateError(f'{where}: \'variant\' must be "tree" or "playground"')
        if "variant" in data and btype is not _B.PARK:
            raise InvalidStateError(f"{where}: 'variant' applies to parks only")
        if floors < 1:
            raise InvalidStateError(f"{where}: 'floors' must be at least 1")
        if vp < 0:
            raise InvalidStateError(f"{where}: 'vp' must not be negative")
        most = _PRINTED_VP_MAX.get(btype, 0)
        if vp > most:
            what = f"at most {most}" if most else "none"
            raise InvalidStateError(f"{where}: a {btype.key} prints {what} VP (TILES.md), got 'vp': {vp}")
        return cls(btype, floors, vp, btype is _B.PARK and variant == "tree")


#: The most printed VP a tile of each type carries (TILES.md); other types print none.
_PRINTED_VP_MAX: Final = {_B.PUBLIC_SERVICE: 2, _B.HARBOR: 3}


def _kind(v: Any) -> str:
    return "null" if v is None else type(v).__name__


def _int_field(data: Mapping[str, Any], key: str, default: int, where: str) -> int:
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise InvalidStateError(f"{where}: {key!r} must be an integer, got {_kind(v)}")
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


@dataclass(frozen=True, slots=True)
class City:
    """A city as scored: the building on each square (row-major, ``None`` = empty square) and
    the player's inhabitants and energy."""

    mode: Mode
    buildings: tuple[Building | None, ...]
    inhabitants: int = 0
    energy: int = 0

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

        Raises :class:`InvalidStateError` naming the first problem found."""
        if not isinstance(data, Mapping):
            raise InvalidStateError(f"city: expected a JSON object, got {_kind(data)}")
        unknown = set(data) - {"mode", "rows", "inhabitants", "energy"}
        if unknown:
            raise InvalidStateError(f"city: unknown field(s) {', '.join(sorted(unknown))}")
        for key in ("mode", "rows"):
            if key not in data:
                raise InvalidStateError(f"city: missing field {key!r}")
        try:
            mode = Mode(data["mode"])
        except ValueError:
            raise InvalidStateError(
                f'city: \'mode\' must be "classic" or "expert", got {data["mode"]!r}'
            ) from None
        geo = GEOMETRY[mode]
        rows = data["rows"]
        if not isinstance(rows, Sequence) or isinstance(rows, str) or len(rows) != geo.rows:
            raise InvalidStateError(f"city: 'rows' must be a list of {geo.rows} rows")
        buildings: list[Building | None] = []
        for r, row in enumerate(rows):
            if not isinstance(row, Sequence) or isinstance(row, str) or len(row) != geo.cols:
                raise InvalidStateError(
                    f"city: row {r + 1} must be a list of {geo.cols} cells ({mode.value} city)"
                )
            for c, cell in enumerate(row):
                where = f"city: r{r + 1}c{c + 1}"
                b = None if cell is None else Building.from_json(cell, where)
                if b is not None:
                    limit = geo.max_floors.get(b.type, 1)
                    if b.floors > limit:
                        raise InvalidStateError(
                            f"{where}: a {b.type.key} has at most {limit} floor(s) in "
                            f"{mode.value} mode, got {b.floors}"
                        )
                    if b.type is _B.OFFICE_TOWER and mode is Mode.CLASSIC:
                        raise InvalidStateError(f"{where}: office towers exist only in expert mode")
                    if b.type is _B.MONUMENT and mode is Mode.CLASSIC:
                        raise InvalidStateError(f"{where}: monuments exist only in expert mode")
                buildings.append(b)
        inh = _int_field(data, "inhabitants", 0, "city")
        en = _int_field(data, "energy", 0, "city")
        if inh < 0 or en < 0:
            raise InvalidStateError("city: 'inhabitants' and 'energy' must not be negative")
        return cls(mode, tuple(buildings), inh, en)
