"""Exact optimal final scoring of one city (docs/rules.md §3-§5, rulings R11-R15).

At game end the player chooses where every inhabitant and energy unit sits; the engine
computes the placement that maximises the city's VP, then the inhabitants placed, then
minimises the empty squares left after non-activated buildings are removed (R12, R13).

This module is the public face: the result types, :func:`score_city` and :func:`evaluate`
(scoring one given placement by the rules, no optimisation). The optimum is found exactly,
without enumerating the 2^n activation subsets, by :mod:`.scoring_solver` (the phases and
the dominance arguments), with the group tables of :mod:`.scoring_groups`; the VP tables
live in :mod:`.scoring_tables` and are re-exported here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .buildings import BuildingType
from .city import Building, City, Geometry
from .scoring_solver import optimal_activation
from .scoring_tables import DISTRICT_VP as DISTRICT_VP
from .scoring_tables import FACTORY_PAIR_VP as FACTORY_PAIR_VP
from .scoring_tables import MONUMENT_VP as MONUMENT_VP
from .scoring_tables import OFFICE_VP as OFFICE_VP
from .scoring_tables import PARK_VP as PARK_VP
from .scoring_tables import RUN_VP as RUN_VP
from .scoring_tables import SHOP_VP as SHOP_VP
from .scoring_tables import TABLES, USES_ENERGY, office_vp, run_vp
from .scoring_tables import TOWER_VP as TOWER_VP
from .tiles import Mode

__all__ = [
    "CATEGORIES",
    "CATEGORY_HEADS",
    "CATEGORY_NAMES",
    "EXPERT_CATEGORIES",
    "CityScore",
    "Placement",
    "mode_categories",
    "score_city",
]

CATEGORIES: Final[tuple[str, ...]] = (
    "tower_block",
    "shop",
    "public_service",
    "park",
    "factory",
    "harbor",
    "office_tower",
    "monument",
    "unused_inhabitants",
    "pollution",
)

#: Each category of the score sheet in the players' words (the building types' plurals).
CATEGORY_NAMES: Final[dict[str, str]] = {
    **{t.key: t.plural for t in BuildingType},
    "unused_inhabitants": "unused inhabitants",
    "pollution": "pollution",
}
assert tuple(CATEGORY_NAMES) == CATEGORIES
#: Each category in one word, for a table's narrow column heads (``tower``, ``public``,
#: ``unused``): the first word of its key.
CATEGORY_HEADS: Final[dict[str, str]] = {c: c.partition("_")[0] for c in CATEGORIES}
#: The categories only an Expert game scores (its buildings are not in Classic).
EXPERT_CATEGORIES: Final = frozenset({BuildingType.OFFICE_TOWER.key, BuildingType.MONUMENT.key})


def mode_categories(mode: Mode) -> tuple[str, ...]:
    """The categories a game of ``mode`` scores, in the score sheet's order: every one in
    Expert, all but :data:`EXPERT_CATEGORIES` in Classic."""
    return tuple(c for c in CATEGORIES if mode is Mode.EXPERT or c not in EXPERT_CATEGORIES)


_B = BuildingType
_T, _S, _PS, _PK, _F, _H, _O, _M = (
    _B.TOWER_BLOCK,
    _B.SHOP,
    _B.PUBLIC_SERVICE,
    _B.PARK,
    _B.FACTORY,
    _B.HARBOR,
    _B.OFFICE_TOWER,
    _B.MONUMENT,
)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where the resources sit in the final placement.

    ``activated``: sorted squares of the activated buildings holding their activation cost
    (parks and monuments are always activated and are not listed). ``customers``: (shop
    square, customers) for shops with at least one customer. ``absorbing_parks``: parks that
    absorb one unused energy unit (R11). ``removed``: squares whose building is not activated
    and is removed before scoring. ``unused_energy`` counts energy not used to activate,
    before absorption."""

    activated: tuple[int, ...]
    customers: tuple[tuple[int, int], ...]
    absorbing_parks: tuple[int, ...]
    removed: tuple[int, ...]
    unused_inhabitants: int
    unused_energy: int

    def to_json(self, geometry: Geometry) -> dict[str, Any]:
        name = geometry.square_name
        return {
            "activated": [name(s) for s in self.activated],
            "customers": {name(s): n for s, n in self.customers},
            "absorbing_parks": [name(s) for s in self.absorbing_parks],
            "removed": [name(s) for s in self.removed],
            "unused_inhabitants": self.unused_inhabitants,
            "unused_energy": self.unused_energy,
        }


@dataclass(frozen=True, slots=True)
class CityScore:
    """The optimal score of a city: total VP, VP by category (printed VP in their building's
    category, penalties negative), the tie-breakers of R13 and the placement achieving it."""

    total: int
    breakdown: dict[str, int]
    inhabitants_placed: int
    empty_squares: int
    placement: Placement

    def to_json(self, geometry: Geometry) -> dict[str, Any]:
        return {
            "total": self.total,
            "breakdown": dict(self.breakdown),
            "inhabitants_placed": self.inhabitants_placed,
            "empty_squares": self.empty_squares,
            "placement": self.placement.to_json(geometry),
        }


def score_city(city: City, *, all_parks_absorb: bool = False) -> CityScore:
    """The optimal final score of ``city`` (R12): the placement of its inhabitants and
    energy maximising VP, then inhabitants placed, then minimising empty squares.

    ``all_parks_absorb`` is the §6 variant where every park (not only tree parks, R11)
    absorbs one unused energy unit. The placement is re-scored by :func:`evaluate`, so the
    breakdown is computed by the rules as written, independently of the solver's keys."""
    active = optimal_activation(city, all_parks_absorb)
    placement = _placement(city, active, all_parks_absorb)
    return evaluate(city, placement, all_parks_absorb=all_parks_absorb)


def _placement(city: City, active: list[bool], all_parks_absorb: bool) -> Placement:
    """The placement of an activation: customers fill the activated shops in square order, as
    few as possible (shop VP are convex, and every shop takes the same number), absorbing
    parks take unused energy in square order (R11), everything else is counted as unused."""
    cap = 5 if city.mode is Mode.EXPERT else 4
    bs = city.buildings
    acts: list[int] = []
    shops: list[int] = []
    used_i = 0
    used_e = 0
    removed: list[int] = []
    for s, b in enumerate(bs):
        if b is None:
            continue
        t = b.type
        if t in (_PK, _M):
            continue
        if not active[s]:
            removed.append(s)
            continue
        acts.append(s)
        if t in USES_ENERGY:
            used_e += 1
        if t in (_PS, _F, _H, _O):
            used_i += 1
        if t is _S:
            shops.append(s)
    free = city.inhabitants - used_i
    customers: list[tuple[int, int]] = []
    for s in shops:
        c = min(cap, free)
        if c <= 0:
            break
        customers.append((s, c))
        free -= c
    unused_e = city.energy - used_e
    absorbing = [
        s for s, b in enumerate(bs) if b is not None and b.type is _PK and (all_parks_absorb or b.tree)
    ]
    return Placement(
        activated=tuple(acts),
        customers=tuple(customers),
        absorbing_parks=tuple(absorbing[: max(0, unused_e)]),
        removed=tuple(removed),
        unused_inhabitants=free,
        unused_energy=unused_e,
    )


def evaluate(city: City, placement: Placement, *, all_parks_absorb: bool = False) -> CityScore:
    """Score ``city`` under a given ``placement`` by the rules of §4 (no optimisation).

    Raises ``ValueError`` if the placement is not feasible for the city."""
    on, customers, placed = _standing(city, placement, all_parks_absorb)
    breakdown = _building_vp(city, on, customers)
    breakdown["unused_inhabitants"] = -placement.unused_inhabitants
    # R11: each absorbing park takes one unused energy unit; the rest pollute.
    breakdown["pollution"] = -max(0, placement.unused_energy - len(placement.absorbing_parks))
    return CityScore(
        total=sum(breakdown.values()),
        breakdown=breakdown,
        inhabitants_placed=placed,
        empty_squares=on.count(None),
        placement=placement,
    )


def _standing(
    city: City, placement: Placement, all_parks_absorb: bool
) -> tuple[list[Building | None], dict[int, int], int]:
    """Check that ``placement`` is feasible for ``city``; return the buildings still standing
    at scoring by square (parks, monuments and the activated buildings, R12), the customers
    by shop square, and the inhabitants placed (R13). Raises ``ValueError`` naming the first
    problem."""
    bs = city.buildings
    cap = 5 if city.mode is Mode.EXPERT else 4
    on: list[Building | None] = [b if b is not None and b.type in (_PK, _M) else None for b in bs]
    used_i = 0
    used_e = 0
    for s in placement.activated:
        b = bs[s]
        if b is None or b.type in (_PK, _M):
            raise ValueError(f"square {s} holds no building to activate")
        on[s] = b
        if b.type in (_T, _S, _O):
            used_e += 1
        if b.type in (_PS, _F, _H, _O):
            used_i += 1
    customers = dict(placement.customers)
    n_cust = 0
    for s, c in customers.items():
        b = on[s]
        if b is None or b.type is not _S or not 1 <= c <= cap:
            raise ValueError(f"bad customers on square {s}")
        n_cust += c
    unused_i = city.inhabitants - used_i - n_cust
    unused_e = city.energy - used_e
    if unused_i != placement.unused_inhabitants or unused_e != placement.unused_energy:
        raise ValueError("placement resource counts do not match the city")
    if unused_i < 0 or unused_e < 0:
        raise ValueError("placement uses more resources than the city has")
    parks = placement.absorbing_parks
    for p in parks:
        b = bs[p]
        if b is None or b.type is not _PK or not (b.tree or all_parks_absorb):
            raise ValueError(f"square {p} holds no park that absorbs energy (R11)")
    if len(set(parks)) != len(parks) or len(parks) > max(0, unused_e):
        raise ValueError("more absorbing parks than unused energy units")
    return on, customers, used_i + n_cust


def _building_vp(city: City, on: list[Building | None], customers: dict[int, int]) -> dict[str, int]:
    """VP of the standing buildings ``on`` by category (the first eight of
    :data:`CATEGORIES`, in order): §4, R14 runs, R15 office groups; Expert parks count office
    towers too."""
    geo = city.geometry
    nb = geo.neighbours
    pk_users = (_T, _O) if city.mode is Mode.EXPERT else (_T,)
    tower = shop = ps = park = factory = harbor = monument = 0
    ps_districts: set[int] = set()
    hmask = 0
    offices: list[int] = []
    floors: list[int] = []
    for s, b in enumerate(on):
        if b is None:
            continue
        t = b.type
        if t is _T:
            tower += TOWER_VP[b.floors]
        elif t is _S:
            shop += SHOP_VP[customers.get(s, 0)]
        elif t is _PS:
            ps += b.vp
            ps_districts.add(geo.district[s])
        elif t is _PK:
            park += PARK_VP[sum(1 for x in nb[s] if (o := on[x]) is not None and o.type in pk_users)]
        elif t is _F:
            for x in nb[s]:
                if (o := on[x]) is not None:
                    factory += FACTORY_PAIR_VP.get(o.type, 0)
        elif t is _H:
            harbor += b.vp
            hmask |= 1 << s
        elif t is _O:
            offices.append(s)
            floors.append(b.floors)
        else:
            for x in nb[s]:
                if (o := on[x]) is not None:
                    monument += MONUMENT_VP[o.type]
    return {
        "tower_block": tower,
        "shop": shop,
        "public_service": ps + DISTRICT_VP[len(ps_districts)],
        "park": park,
        "factory": factory,
        "harbor": harbor + run_vp(hmask, TABLES[city.mode].hvalid, geo.cols),
        "office_tower": office_vp(offices, floors, nb) if offices else 0,
        "monument": monument,
    }
