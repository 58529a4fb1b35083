"""An obviously-correct reference for the final scoring (docs/rules.md §3-§5), for tests only.

It shares no code with ``quadropolis.scoring``: adjacency, districts, runs and office groups
are recomputed here from rows and columns, straight from the rule text. It enumerates every
subset of the buildings that need resources, and for each subset every number of customers;
only the *distribution* of a given number of customers over the activated shops is not tried
one by one but by an exact knapsack-style DP over the shops (the max over all distributions
of the sum of shop VP, which is all a distribution changes: nothing else in the rules looks at
how many customers a shop holds)."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from quadropolis.buildings import BuildingType as BT
from quadropolis.city import City
from quadropolis.tiles import Mode

TOWER = {1: 1, 2: 3, 3: 6, 4: 10, 5: 15}
SHOP = {0: 0, 1: 1, 2: 2, 3: 4, 4: 7, 5: 11}
DISTRICTS = {0: 0, 1: 2, 2: 5, 3: 9, 4: 14, 5: 20}
PARK = {0: 0, 1: 2, 2: 4, 3: 7, 4: 11}
RUN = {0: 0, 1: 0, 2: 3, 3: 7, 4: 12, 5: 18}
OFFICE = [  # OFFICE[group size 1..5+][floors 1..5]
    None,
    [None, 0, 1, 3, 6, 10],
    [None, 1, 3, 6, 10, 15],
    [None, 2, 5, 9, 14, 20],
    [None, 3, 7, 12, 18, 25],
    [None, 4, 9, 15, 22, 30],
]
MONUMENT = {
    BT.FACTORY: -5,
    BT.HARBOR: -5,
    BT.TOWER_BLOCK: 0,
    BT.OFFICE_TOWER: 0,
    BT.MONUMENT: 0,
    BT.PUBLIC_SERVICE: 2,
    BT.SHOP: 3,
    BT.PARK: 5,
}
EXPERT_DISTRICTS = ("11422", "11422", "55433", "55433")  # docs/rules.md §5

NEEDS_ENERGY = {BT.TOWER_BLOCK, BT.SHOP, BT.OFFICE_TOWER}
NEEDS_INHABITANT = {BT.PUBLIC_SERVICE, BT.FACTORY, BT.HARBOR, BT.OFFICE_TOWER}


def dims(city: City) -> tuple[int, int]:
    return (4, 4) if city.mode is Mode.CLASSIC else (4, 5)


def district_of(city: City, r: int, c: int) -> int:
    if city.mode is Mode.CLASSIC:
        return (r // 2) * 2 + (c // 2)  # the four 2x2 quadrants (R2)
    return int(EXPERT_DISTRICTS[r][c])


def adjacent(city: City, r: int, c: int) -> Iterable[tuple[int, int]]:
    rows, cols = dims(city)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < rows and 0 <= c + dc < cols:
            yield r + dr, c + dc


def structural(city: City, active: set[int]) -> dict[str, int]:
    """VP by category of the activated buildings (parks and monuments always present),
    shops counted without customers (added by the caller) and without penalties."""
    rows, cols = dims(city)
    grid: dict[tuple[int, int], object] = {}
    for i, b in enumerate(city.buildings):
        if b is not None and (b.type in (BT.PARK, BT.MONUMENT) or i in active):
            grid[divmod(i, cols)] = b
    out = dict.fromkeys(
        ("tower_block", "shop", "public_service", "park", "factory", "harbor", "office_tower", "monument"), 0
    )
    expert = city.mode is Mode.EXPERT
    districts = set()
    for (r, c), b in grid.items():
        t = b.type  # type: ignore[attr-defined]
        nbrs = [grid[p] for p in adjacent(city, r, c) if p in grid]
        ntypes = [n.type for n in nbrs]  # type: ignore[attr-defined]
        if t is BT.TOWER_BLOCK:
            out["tower_block"] += TOWER[b.floors]  # type: ignore[attr-defined]
        elif t is BT.PUBLIC_SERVICE:
            out["public_service"] += b.vp  # type: ignore[attr-defined]
            districts.add(district_of(city, r, c))
        elif t is BT.PARK:
            n = sum(1 for x in ntypes if x is BT.TOWER_BLOCK or (expert and x is BT.OFFICE_TOWER))
            out["park"] += PARK[n]
        elif t is BT.FACTORY:
            for x in ntypes:
                out["factory"] += {BT.SHOP: 2, BT.HARBOR: 3, BT.OFFICE_TOWER: 4}.get(x, 0)
        elif t is BT.HARBOR:
            out["harbor"] += b.vp  # type: ignore[attr-defined]
        elif t is BT.MONUMENT:
            out["monument"] += sum(MONUMENT[x] for x in ntypes)
    out["public_service"] += DISTRICTS[len(districts)]

    # harbors: longest horizontal run anywhere + longest vertical run anywhere (R14)
    def is_h(r: int, c: int) -> bool:
        b = grid.get((r, c))
        return b is not None and b.type is BT.HARBOR  # type: ignore[attr-defined]

    best_h = 0
    for r in range(rows):
        run = 0
        for c in range(cols):
            run = run + 1 if is_h(r, c) else 0
            best_h = max(best_h, run)
    best_v = 0
    for c in range(cols):
        run = 0
        for r in range(rows):
            run = run + 1 if is_h(r, c) else 0
            best_v = max(best_v, run)
    out["harbor"] += RUN[best_h] + RUN[best_v]
    # office towers: each by its floors and the size of its connected group (R15)
    offices = {p for p, b in grid.items() if b.type is BT.OFFICE_TOWER}  # type: ignore[attr-defined]
    seen: set[tuple[int, int]] = set()
    for p in offices:
        if p in seen:
            continue
        group = {p}
        todo = [p]
        while todo:
            q = todo.pop()
            for n in adjacent(city, *q):
                if n in offices and n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        size = min(len(group), 5)
        out["office_tower"] += sum(OFFICE[size][grid[q].floors] for q in group)  # type: ignore[attr-defined,index]
    return out


def shop_values(n_shops: int, cap: int) -> list[int]:
    """best[c]: max total shop VP over every way of putting c customers in n_shops shops
    holding at most ``cap`` each (an exact DP over the shops, one shop at a time)."""
    best = [0]
    for _ in range(n_shops):
        nxt = [-(10**9)] * (len(best) + cap)
        for c, v in enumerate(best):
            for x in range(cap + 1):
                nxt[c + x] = max(nxt[c + x], v + SHOP[x])
        best = nxt
    return best


def score_placement(
    city: City, active: set[int], customers: dict[int, int], *, all_parks_absorb: bool = False
) -> tuple[int, dict[str, int], int, int]:
    """(total, breakdown, inhabitants_placed, empty_squares) of an explicit placement where
    leftover energy is absorbed by as many absorbing parks as possible."""
    br = structural(city, active)
    cap = 5 if city.mode is Mode.EXPERT else 4
    for s, n in customers.items():
        assert s in active and city.buildings[s].type is BT.SHOP and 0 <= n <= cap  # type: ignore[union-attr]
        br["shop"] += SHOP[n]
    used_i = sum(1 for s in active if city.buildings[s].type in NEEDS_INHABITANT)  # type: ignore[union-attr]
    used_e = sum(1 for s in active if city.buildings[s].type in NEEDS_ENERGY)  # type: ignore[union-attr]
    placed = used_i + sum(customers.values())
    assert placed <= city.inhabitants and used_e <= city.energy
    absorbers = sum(
        1 for b in city.buildings if b is not None and b.type is BT.PARK and (all_parks_absorb or b.tree)
    )
    br["unused_inhabitants"] = -(city.inhabitants - placed)
    br["pollution"] = -max(0, city.energy - used_e - absorbers)
    present = sum(
        1
        for i, b in enumerate(city.buildings)
        if b is not None and (i in active or b.type in (BT.PARK, BT.MONUMENT))
    )
    return sum(br.values()), br, placed, len(city.buildings) - present


def brute_force(city: City, *, all_parks_absorb: bool = False) -> tuple[int, int, int]:
    """The best (total VP, inhabitants placed, empty squares) over every placement, compared
    as (total, placed, -empty) (R12/R13)."""
    cap = 5 if city.mode is Mode.EXPERT else 4
    candidates = [
        i for i, b in enumerate(city.buildings) if b is not None and b.type not in (BT.PARK, BT.MONUMENT)
    ]
    absorbers = sum(
        1 for b in city.buildings if b is not None and b.type is BT.PARK and (all_parks_absorb or b.tree)
    )
    fixed = sum(1 for b in city.buildings if b is not None and b.type in (BT.PARK, BT.MONUMENT))
    best: tuple[int, int, int] | None = None
    for k in range(len(candidates) + 1):
        for subset in combinations(candidates, k):
            active = set(subset)
            types = [city.buildings[s].type for s in subset]  # type: ignore[union-attr]
            used_i = sum(1 for t in types if t in NEEDS_INHABITANT)
            used_e = sum(1 for t in types if t in NEEDS_ENERGY)
            if used_i > city.inhabitants or used_e > city.energy:
                continue
            base = sum(structural(city, active).values())
            pollution = max(0, city.energy - used_e - absorbers)
            shops = shop_values(types.count(BT.SHOP), cap)
            empty = len(city.buildings) - fixed - k
            for c in range(min(city.inhabitants - used_i, len(shops) - 1) + 1):
                placed = used_i + c
                total = base + shops[c] - (city.inhabitants - placed) - pollution
                cand = (total, placed, -empty)
                if best is None or cand > (best[0], best[1], -best[2]):
                    best = (total, placed, empty)
    assert best is not None
    return best
