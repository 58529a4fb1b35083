"""VP tables of the final scoring (docs/rules.md §4, R11-R15) and the two VP rules that look at
shapes rather than counts: harbor runs (R14) and office-tower groups (R15).

The leaf of the scoring modules: :mod:`.scoring_groups`, :mod:`.scoring_solver` and
:mod:`.scoring` (which re-exports the tables) import it. Standard library and core only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .buildings import BuildingType
from .city import GEOMETRY, Geometry
from .tiles import Mode

_B = BuildingType

#: Building types activated by an energy unit, and those activated by an inhabitant (§4).
USES_ENERGY: Final = (_B.TOWER_BLOCK, _B.SHOP, _B.OFFICE_TOWER)
USES_INHABITANT: Final = (_B.PUBLIC_SERVICE, _B.FACTORY, _B.HARBOR, _B.OFFICE_TOWER)

#: Tower block VP by floors (index = floors).
TOWER_VP: Final = (0, 1, 3, 6, 10, 15)
#: Shop VP by customers (index = customers; 5 only in Expert).
SHOP_VP: Final = (0, 1, 2, 4, 7, 11)
#: Public service bonus by number of districts holding at least one activated one.
DISTRICT_VP: Final = (0, 2, 5, 9, 14, 20)
#: Park VP by adjacent activated tower blocks (Expert: and office towers).
PARK_VP: Final = (0, 2, 4, 7, 11)
#: Harbor run VP by run length (R14).
RUN_VP: Final = (0, 0, 3, 7, 12, 18)
#: Office tower VP per tower: OFFICE_VP[group size, capped at 5][floors] (R15).
OFFICE_VP: Final = (
    (0, 0, 0, 0, 0, 0),
    (0, 0, 1, 3, 6, 10),
    (0, 1, 3, 6, 10, 15),
    (0, 2, 5, 9, 14, 20),
    (0, 3, 7, 12, 18, 25),
    (0, 4, 9, 15, 22, 30),
)
#: Factory VP per adjacent activated building of each type.
FACTORY_PAIR_VP: Final = {_B.SHOP: 2, _B.HARBOR: 3, _B.OFFICE_TOWER: 4}
#: Monument VP per adjacent activated building of each type.
MONUMENT_VP: Final = {
    _B.TOWER_BLOCK: 0,
    _B.SHOP: 3,
    _B.PUBLIC_SERVICE: 2,
    _B.PARK: 5,
    _B.FACTORY: -5,
    _B.HARBOR: -5,
    _B.OFFICE_TOWER: 0,
    _B.MONUMENT: 0,
}

#: The same two tables indexed by the building type's integer value (the solver's fast path).
MONUMENT_VP_BY_TYPE: Final = tuple(MONUMENT_VP[t] for t in BuildingType)
PAIR_VP_BY_TYPE: Final = tuple(FACTORY_PAIR_VP.get(t, 0) for t in BuildingType)


class GeometryTables:
    """What the scoring reads of a mode's geometry, plus ``hvalid``: the bitmask of squares
    whose right-hand neighbour is in the same row (horizontal runs must not wrap, R14)."""

    __slots__ = ("nb", "hvalid", "cols", "size", "district")

    def __init__(self, geo: Geometry) -> None:
        self.nb: tuple[tuple[int, ...], ...] = geo.neighbours
        self.cols: int = geo.cols
        self.size: int = geo.size
        self.district: tuple[int, ...] = geo.district
        self.hvalid: int = sum(1 << s for s in range(geo.size) if s % geo.cols != geo.cols - 1)


#: Built once at import, by mode.
TABLES: Final = {m: GeometryTables(GEOMETRY[m]) for m in Mode}


def run_vp(mask: int, hvalid: int, cols: int) -> int:
    """VP of the longest horizontal plus the longest vertical run of the harbors whose squares
    are the set bits of ``mask`` (R14: one run per direction, anywhere in the city; a harbor
    may count in both). Each step of a loop shortens every run by one square, so the number
    of steps is the longest run."""
    h = 0
    x = mask
    while x:
        x &= (x >> 1) & hvalid
        h += 1
    v = 0
    x = mask
    while x:
        x &= x >> cols
        v += 1
    return RUN_VP[min(h, 5)] + RUN_VP[min(v, 5)]


_OFFICE_CACHE: dict[tuple[int, tuple[int, ...], tuple[int, ...]], int] = {}
_OFFICE_CACHE_LIMIT: Final = 200_000


def office_vp(squares: Sequence[int], floors: Sequence[int], nb: Sequence[Sequence[int]]) -> int:
    """VP of the activated office towers on ``squares`` with ``floors`` floors each (R15):
    each tower scores by its own floors and the size of its orthogonally connected group
    (capped at 5). ``nb`` is the geometry's neighbour table.

    Memoised: the same few office layouts recur across the cities of a playout run. The cache
    is cleared when it grows past a bound so memory stays flat in long runs."""
    key = (len(nb), tuple(squares), tuple(floors))
    v = _OFFICE_CACHE.get(key)
    if v is None:
        if len(_OFFICE_CACHE) > _OFFICE_CACHE_LIMIT:
            _OFFICE_CACHE.clear()
        v = _OFFICE_CACHE[key] = _office_groups(squares, floors, nb)
    return v


def _office_groups(squares: Sequence[int], floors: Sequence[int], nb: Sequence[Sequence[int]]) -> int:
    """:func:`office_vp` uncached: a breadth-first search for each connected group."""
    where = {s: i for i, s in enumerate(squares)}
    seen = [False] * len(squares)
    total = 0
    for i in range(len(squares)):
        if seen[i]:
            continue
        seen[i] = True
        group = [i]
        k = 0
        while k < len(group):
            for t in nb[squares[group[k]]]:
                j = where.get(t)
                if j is not None and not seen[j]:
                    seen[j] = True
                    group.append(j)
            k += 1
        row = OFFICE_VP[min(len(group), 5)]
        total += sum(row[floors[g]] for g in group)
    return total
