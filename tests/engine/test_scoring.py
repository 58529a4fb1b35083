"""Final scoring (docs/rules.md §3-§5, R11-R15): hand-built scenarios whose expected values are
worked out from the rule text in the comments, and a property test against the brute force
of ``tests/support/brute_force.py``."""

from __future__ import annotations

import random

import pytest
from brute_force import brute_force, score_placement
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quadropolis import scoring_solver as solver
from quadropolis.buildings import BuildingType as BT
from quadropolis.city import GEOMETRY, Building, City
from quadropolis.citygen import expert_corpus, random_city
from quadropolis.scoring import (
    CATEGORIES,
    DISTRICT_VP,
    FACTORY_PAIR_VP,
    MONUMENT_VP,
    OFFICE_VP,
    PARK_VP,
    RUN_VP,
    SHOP_VP,
    TOWER_VP,
    CityScore,
    Placement,
    evaluate,
    score_city,
)
from quadropolis.tiles import Mode

C, X = Mode.CLASSIC, Mode.EXPERT


def T(floors: int = 1) -> Building:
    return Building(BT.TOWER_BLOCK, floors)


def OT(floors: int = 1) -> Building:
    return Building(BT.OFFICE_TOWER, floors)


def PS(vp: int = 0) -> Building:
    return Building(BT.PUBLIC_SERVICE, vp=vp)


def H(vp: int = 0) -> Building:
    return Building(BT.HARBOR, vp=vp)


S = Building(BT.SHOP)
F = Building(BT.FACTORY)
M = Building(BT.MONUMENT)
TREE = Building(BT.PARK, tree=True)
PLAY = Building(BT.PARK, tree=False)


def city(mode: Mode, where: dict[str, Building], inhabitants: int = 0, energy: int = 0) -> City:
    """A city from {"r1c2": building} (rows and columns 1-based, as in the rulebook)."""
    geo = GEOMETRY[mode]
    cells: list[Building | None] = [None] * geo.size
    for name, b in where.items():
        r, c = int(name[1]), int(name[3])
        cells[(r - 1) * geo.cols + (c - 1)] = b
    return City(mode, tuple(cells), inhabitants, energy)


def sq(mode: Mode, name: str) -> int:
    return (int(name[1]) - 1) * GEOMETRY[mode].cols + int(name[3]) - 1


def check_consistent(c: City, res: CityScore, all_parks_absorb: bool = False) -> None:
    """The reported placement is feasible and re-scores (independently) to the report."""
    p = res.placement
    cap = 5 if c.mode is X else 4
    active = set(p.activated)
    assert list(p.activated) == sorted(active)
    for s in active:
        b = c.buildings[s]
        assert b is not None and b.type not in (BT.PARK, BT.MONUMENT)
    for s, n in p.customers:
        b = c.buildings[s]
        assert s in active and b is not None and b.type is BT.SHOP and 1 <= n <= cap
    needs_i = sum(
        1
        for s in active
        if c.buildings[s].type in (BT.PUBLIC_SERVICE, BT.FACTORY, BT.HARBOR, BT.OFFICE_TOWER)  # type: ignore[union-attr]
    )
    needs_e = sum(
        1
        for s in active
        if c.buildings[s].type in (BT.TOWER_BLOCK, BT.SHOP, BT.OFFICE_TOWER)  # type: ignore[union-attr]
    )
    n_cust = sum(n for _, n in p.customers)
    assert needs_i + n_cust + p.unused_inhabitants == c.inhabitants
    assert needs_e + p.unused_energy == c.energy
    assert p.unused_inhabitants >= 0 and p.unused_energy >= 0
    built = {s for s, b in enumerate(c.buildings) if b is not None}
    movable = {s for s in built if c.buildings[s].type not in (BT.PARK, BT.MONUMENT)}  # type: ignore[union-attr]
    assert set(p.removed) == movable - active
    absorbers = [
        s
        for s in built
        if c.buildings[s].type is BT.PARK and (all_parks_absorb or c.buildings[s].tree)  # type: ignore[union-attr]
    ]
    assert set(p.absorbing_parks) <= set(absorbers)
    assert len(p.absorbing_parks) == min(p.unused_energy, len(absorbers))
    total, br, placed, empty = score_placement(
        c, active, dict(p.customers), all_parks_absorb=all_parks_absorb
    )
    assert list(res.breakdown) == list(CATEGORIES)
    assert res.breakdown == br
    assert (res.total, res.inhabitants_placed, res.empty_squares) == (total, placed, empty)


# ---------------------------------------------------------------------------------------
# R11: tree parks absorb one unused energy, playgrounds absorb nothing; §6 variant.


def test_r11_tree_park_absorbs_one_energy() -> None:
    res = score_city(city(C, {"r4c4": TREE}, energy=3))
    # 3 unused energy, one absorbed by the tree park -> -2 pollution
    assert res.breakdown["pollution"] == -2 and res.total == -2
    assert res.placement.absorbing_parks == (sq(C, "r4c4"),)
    assert res.placement.unused_energy == 3


def test_r11_playground_absorbs_nothing() -> None:
    res = score_city(city(C, {"r4c4": PLAY}, energy=3))
    assert res.breakdown["pollution"] == -3 and res.total == -3
    assert res.placement.absorbing_parks == ()


def test_all_parks_absorb_variant_counts_playgrounds() -> None:
    c = city(C, {"r4c4": PLAY, "r1c1": TREE}, energy=3)
    assert score_city(c).total == -2  # only the tree park absorbs
    res = score_city(c, all_parks_absorb=True)
    assert res.total == -1  # both parks absorb
    assert set(res.placement.absorbing_parks) == {sq(C, "r4c4"), sq(C, "r1c1")}


def test_r11_playgrounds_do_not_make_unused_energy_free() -> None:
    # Two playgrounds, 2 inhabitants, 2 energy. Options:
    #   office towers OT(2)+OT(1) adjacent (group 2: 3 + 1 = 4), nothing unused -> 4
    #   both PS0 in two districts (5), 2 unused energy -> 5 - 2 = 3
    #   OT(2) alone (1) + one PS (2), 1 unused energy -> 2
    # Only if playgrounds absorbed (the §6 variant) would the public services win with 5.
    where = {"r1c1": OT(2), "r1c2": OT(1), "r4c1": PS(), "r4c5": PS(), "r3c3": PLAY, "r4c3": PLAY}
    c = city(X, where, inhabitants=2, energy=2)
    res = score_city(c)
    assert res.total == 4
    assert res.placement.activated == (sq(X, "r1c1"), sq(X, "r1c2"))
    res = score_city(c, all_parks_absorb=True)
    assert res.total == 5
    assert res.placement.activated == (sq(X, "r4c1"), sq(X, "r4c5"))
    assert res.breakdown["pollution"] == 0


def test_absorbed_energy_is_not_more_than_unused() -> None:
    # 1 energy, two tree parks, a tower block: activating it uses the only energy unit
    res = score_city(city(C, {"r1c1": TREE, "r4c4": TREE, "r2c3": T(2)}, energy=1))
    assert res.total == 3 and res.placement.absorbing_parks == ()
    assert res.placement.unused_energy == 0


# ---------------------------------------------------------------------------------------
# R12: optimal placement and its tie-breakers.


def test_r12_harbor_next_to_monument_left_inactive() -> None:
    c = city(X, {"r1c1": H(), "r1c2": M}, inhabitants=1)
    res = score_city(c)
    # activated: harbor 0 VP, monument -5, no penalty = -5; left off: 1 unused inhabitant = -1
    assert res.total == -1
    assert res.placement.removed == (sq(X, "r1c1"),)
    assert res.breakdown["unused_inhabitants"] == -1 and res.breakdown["monument"] == 0
    assert res.inhabitants_placed == 0
    assert res.empty_squares == 19  # only the monument stands after the removal
    check_consistent(c, res)


def test_r12_harbor_next_to_monument_activated_when_it_pays() -> None:
    # three harbors of 3 printed VP in a row, one beside a monument:
    # printed 9 + horizontal run of 3 (7) - 5 = 11 > leaving them off (-3)
    c = city(X, {"r1c1": H(3), "r1c2": H(3), "r1c3": H(3), "r2c1": M}, inhabitants=3)
    res = score_city(c)
    assert res.breakdown["harbor"] == 16 and res.breakdown["monument"] == -5
    assert res.total == 11


def test_r12_tie_on_vp_prefers_more_inhabitants_placed() -> None:
    # OT(1 floor, alone) = 0 VP; F next to the office tower +4 and next to the monument -5.
    # {O}: 0 VP, one unused inhabitant -> -1, placed 1.  {O, F}: 4 - 5 = -1, placed 2.
    c = city(X, {"r1c1": OT(1), "r1c2": F, "r1c3": M}, inhabitants=2, energy=1)
    res = score_city(c)
    assert res.total == -1
    assert res.inhabitants_placed == 2
    assert set(res.placement.activated) == {sq(X, "r1c1"), sq(X, "r1c2")}
    assert res.breakdown["factory"] == 4 and res.breakdown["monument"] == -5
    check_consistent(c, res)


def test_r12_tie_on_vp_and_placed_prefers_fewer_empty_squares() -> None:
    # A lone shop with the only energy unit: 0 VP either way (the tree park would absorb the
    # unit otherwise), nobody placed either way; activating it leaves one fewer empty square.
    c = city(C, {"r1c1": S, "r4c4": TREE}, energy=1)
    res = score_city(c)
    assert res.total == 0 and res.inhabitants_placed == 0
    assert res.placement.activated == (sq(C, "r1c1"),)
    assert res.empty_squares == 14


def test_r12_scarce_energy_goes_to_the_best_tower_block() -> None:
    c = city(C, {"r1c1": T(1), "r2c2": T(3), "r3c3": T(2)}, energy=1)
    res = score_city(c)
    assert res.placement.activated == (sq(C, "r2c2"),)
    assert res.total == 6


def test_r12_inhabitants_to_customers_rather_than_public_services() -> None:
    # Two PS0 in district 1 and a shop, 4 inhabitants, 1 energy (for the shop).
    # 0 PS + 4 customers: 7.  1 PS (district 2) + 3 customers (4): 6.
    # 2 PS (2) + 2 customers (2): 4.  So both public services are removed.
    c = city(C, {"r1c1": PS(), "r1c2": PS(), "r4c4": S}, inhabitants=4, energy=1)
    res = score_city(c)
    assert res.total == 7
    assert res.placement.customers == ((sq(C, "r4c4"), 4),)
    assert res.placement.removed == (sq(C, "r1c1"), sq(C, "r1c2"))
    assert res.inhabitants_placed == 4


def test_score_is_deterministic() -> None:
    c = random_city(random.Random(5), X, filled=20)
    a = score_city(c)
    b = score_city(City(c.mode, tuple(c.buildings), c.inhabitants, c.energy))
    assert a == b


# ---------------------------------------------------------------------------------------
# R13 tie-breaker values.


def test_r13_inhabitants_placed_counts_activations_and_customers() -> None:
    c = city(C, {"r1c1": PS(1), "r3c3": PS(2), "r4c4": S, "r2c4": F}, inhabitants=6, energy=1)
    res = score_city(c)
    # PS x2 (printed 3 + two districts 5 = 8) + shop with 4 customers (7) = 15 uses all six
    # inhabitants; the lone factory (0 VP) would cost the 4th customer (7 -> 4): removed.
    assert res.total == 15
    assert res.inhabitants_placed == 6  # 2 activations + 4 customers
    assert res.empty_squares == 13  # 16 squares, 3 buildings left after removing the factory
    assert res.placement.removed == (sq(C, "r2c4"),)


# ---------------------------------------------------------------------------------------
# R14: harbor runs.


def test_r14_shared_harbor_counts_in_both_runs() -> None:
    c = city(X, {"r1c1": H(), "r1c2": H(), "r1c3": H(), "r2c1": H(), "r3c1": H()}, inhabitants=5)
    res = score_city(c)
    # horizontal run of 3 (7) + vertical run of 3 (7) sharing r1c1
    assert res.breakdown["harbor"] == 14 and res.total == 14


def test_r14_one_run_per_direction() -> None:
    c = city(X, {"r1c1": H(), "r1c2": H(), "r3c1": H(1), "r3c2": H()}, inhabitants=4)
    res = score_city(c)
    # two horizontal runs of 2: only the longest one (3) counts; printed 1; vertical run 1 = 0
    assert res.breakdown["harbor"] == 4


@pytest.mark.parametrize(("length", "vp"), [(1, 0), (2, 3), (3, 7), (4, 12), (5, 18)])
def test_harbor_run_table(length: int, vp: int) -> None:
    c = city(X, {f"r2c{i}": H() for i in range(1, length + 1)}, inhabitants=length)
    assert score_city(c).breakdown["harbor"] == vp


# ---------------------------------------------------------------------------------------
# R15: office towers.


def test_r15_rulebook_example_19_vp() -> None:
    c = city(X, {"r1c1": OT(2), "r1c2": OT(2), "r1c3": OT(3)}, inhabitants=3, energy=3)
    res = score_city(c)
    assert res.breakdown["office_tower"] == 5 + 5 + 9
    assert res.total == 19


def test_r15_group_size_capped_at_5() -> None:
    where = {f"r1c{i}": OT(1) for i in range(1, 6)}
    where["r2c1"] = OT(1)  # a group of six
    res = score_city(city(X, where, inhabitants=6, energy=6))
    assert res.breakdown["office_tower"] == 6 * 4  # row "5+", 1 floor: 4 each


def test_r15_removed_office_tower_splits_group() -> None:
    # energy for two only: the 5-floor pair (15 + 15) beats anything with the 1-floor middle
    c = city(X, {"r1c1": OT(5), "r1c2": OT(1), "r1c3": OT(5)}, inhabitants=3, energy=2)
    res = score_city(c)
    # best: two towers; not adjacent -> 10 + 10 = 20, or the middle one with one 5-floor
    # tower: group 2 -> 15 + 1 = 16. 20 wins, with one unused inhabitant: 19.
    assert res.total == 19
    assert res.placement.removed == (sq(X, "r1c2"),)


# ---------------------------------------------------------------------------------------
# Each category's table.


@pytest.mark.parametrize(("mode", "floors", "vp"), [(C, 1, 1), (C, 2, 3), (C, 3, 6), (C, 4, 10), (X, 5, 15)])
def test_tower_block_table(mode: Mode, floors: int, vp: int) -> None:
    res = score_city(city(mode, {"r2c2": T(floors)}, energy=1))
    assert res.breakdown["tower_block"] == vp and res.total == vp


@pytest.mark.parametrize(
    ("mode", "inhabitants", "shop", "unused"),
    [
        (C, 0, 0, 0),
        (C, 1, 1, 0),
        (C, 2, 2, 0),
        (C, 3, 4, 0),
        (C, 4, 7, 0),
        (C, 6, 7, 2),
        (X, 4, 7, 0),
        (X, 5, 11, 0),
        (X, 6, 11, 1),
    ],
)
def test_shop_table_and_customer_cap(mode: Mode, inhabitants: int, shop: int, unused: int) -> None:
    res = score_city(city(mode, {"r1c1": S}, inhabitants=inhabitants, energy=1))
    assert res.breakdown["shop"] == shop
    assert res.breakdown["unused_inhabitants"] == -unused


def test_customers_concentrate_in_few_shops() -> None:
    # 8 customers in two Classic shops: 4 + 4 (7 + 7 = 14), not spread thinner
    res = score_city(city(C, {"r1c1": S, "r4c4": S}, inhabitants=8, energy=2))
    assert res.breakdown["shop"] == 14
    # 5 customers: 4 + 1 (7 + 1 = 8) beats 3 + 2 (4 + 2 = 6)
    res = score_city(city(C, {"r1c1": S, "r4c4": S}, inhabitants=5, energy=2))
    assert res.breakdown["shop"] == 8


@pytest.mark.parametrize(("districts", "vp"), [(1, 2), (2, 5), (3, 9), (4, 14), (5, 20)])
def test_public_service_district_table(districts: int, vp: int) -> None:
    # one PS (printed 1) in each of the first ``districts`` Expert districts
    one_per_district = ["r1c1", "r1c4", "r3c4", "r1c3", "r3c1"]  # districts 1, 2, 3, 4, 5
    where = {n: PS(1) for n in one_per_district[:districts]}
    res = score_city(city(X, where, inhabitants=districts))
    assert res.breakdown["public_service"] == vp + districts


def test_public_service_same_district_counts_once() -> None:
    res = score_city(city(C, {"r1c1": PS(), "r2c2": PS(2)}, inhabitants=2))
    assert res.breakdown["public_service"] == 2 + 2  # one district, printed 2


@pytest.mark.parametrize(("n", "vp"), [(0, 0), (1, 2), (2, 4), (3, 7), (4, 11)])
def test_park_table(n: int, vp: int) -> None:
    around = ["r1c2", "r2c1", "r2c3", "r3c2"][:n]
    where = {name: T(1) for name in around}
    where["r2c2"] = TREE
    res = score_city(city(C, where, energy=n))
    assert res.breakdown["park"] == vp


def test_park_counts_office_towers_in_expert_and_not_diagonals() -> None:
    where = {"r2c2": TREE, "r1c2": OT(1), "r2c1": T(1), "r1c1": T(1)}  # r1c1 is diagonal
    res = score_city(city(X, where, inhabitants=1, energy=3))
    assert res.breakdown["park"] == 4


def test_park_ignores_inactive_tower_block() -> None:
    where = {"r2c2": TREE, "r1c2": T(1), "r2c1": T(4)}
    res = score_city(city(C, where, energy=1))
    # only one tower block can be activated: the 4-floor one (10 + park 2)
    assert res.breakdown["park"] == 2 and res.breakdown["tower_block"] == 10


def test_factory_pairs() -> None:
    # factory r2c2 next to shop r1c2, harbor r2c1, office tower r2c3: 2 + 3 + 4
    where = {"r2c2": F, "r1c2": S, "r2c1": H(), "r2c3": OT(1), "r3c3": S}  # r3c3 diagonal
    res = score_city(city(X, where, inhabitants=3, energy=3))
    assert res.breakdown["factory"] == 9


def test_monument_neighbours() -> None:
    where = {"r2c2": M, "r1c2": TREE, "r2c1": S, "r2c3": PS(), "r3c2": T(1), "r1c1": S}
    res = score_city(city(X, where, inhabitants=1, energy=3))
    # park +5, shop +3, public service +2, tower block 0; r1c1 is diagonal
    assert res.breakdown["monument"] == 10


def test_monument_next_to_monument_and_office_tower_is_zero() -> None:
    res = score_city(city(X, {"r2c2": M, "r2c3": M, "r1c2": OT(1)}, inhabitants=1, energy=1))
    assert res.breakdown["monument"] == 0


def test_unused_penalties() -> None:
    res = score_city(city(C, {}, inhabitants=4, energy=2))
    assert res.breakdown["unused_inhabitants"] == -4 and res.breakdown["pollution"] == -2
    assert res.total == -6 and res.empty_squares == 16


def test_stack_needs_one_activation_cost() -> None:
    res = score_city(city(X, {"r1c1": OT(4)}, inhabitants=1, energy=1))
    assert res.total == 6  # alone, 4 floors: 6 VP, from one inhabitant + one energy


def test_json_uses_square_names() -> None:
    c = city(C, {"r2c3": T(1), "r1c1": S}, inhabitants=1, energy=2)
    j = score_city(c).to_json(c.geometry)
    assert set(j) == {"total", "breakdown", "inhabitants_placed", "empty_squares", "placement"}
    assert j["placement"]["activated"] == ["r1c1", "r2c3"]
    assert j["placement"]["customers"] == {"r1c1": 1}
    assert list(j["breakdown"]) == list(CATEGORIES)
    assert Placement((), (), (), (), 0, 0).to_json(c.geometry)["removed"] == []


# ---------------------------------------------------------------------------------------
# evaluate: scoring a given placement, and rejecting infeasible ones.


def test_evaluate_rescores_the_optimal_placement() -> None:
    c = city(X, {"r1c1": OT(2), "r1c2": OT(2), "r2c1": TREE, "r1c3": S, "r2c3": F}, 4, 3)
    res = score_city(c)
    assert evaluate(c, res.placement) == res


@pytest.mark.parametrize(
    ("placement", "problem"),
    [
        (Placement((0,), (), (), (), 0, 0), "no building to activate"),  # a park
        (Placement((), ((1, 1),), (), (1,), 0, 1), "bad customers"),  # shop not activated
        (Placement((1,), ((1, 5),), (), (), 0, 0), "bad customers"),  # above the Classic cap
        (Placement((1,), (), (), (), 0, 0), "resource counts"),  # 1 inhabitant unaccounted
        (Placement((1,), ((1, 1),), (0, 0), (), 0, 0), "no park that absorbs|more absorbing"),
    ],
)
def test_evaluate_rejects_infeasible_placements(placement: Placement, problem: str) -> None:
    c = city(C, {"r1c1": PLAY, "r1c2": S}, inhabitants=1, energy=1)
    with pytest.raises(ValueError, match=problem):
        evaluate(c, placement)


def test_vp_tables_are_still_exported_by_scoring() -> None:
    # Their home is scoring_tables; bots and other callers import them from scoring.
    assert TOWER_VP[4] == 10 and SHOP_VP[4] == 7 and OFFICE_VP[3][2] == 5
    assert RUN_VP[3] == 7 and PARK_VP[2] == 4 and DISTRICT_VP[2] == 5
    assert FACTORY_PAIR_VP[BT.HARBOR] == 3 and MONUMENT_VP[BT.PARK] == 5


# ---------------------------------------------------------------------------------------
# The solver's phases keep the contracts their docstrings state (scoring_solver).


@pytest.mark.parametrize("seed", range(4))
def test_solver_phase_contracts(seed: int) -> None:
    rng = random.Random(seed)
    for i in range(150):
        mode = (C, X)[i % 2]
        c = random_city(rng, mode)
        bd = solver.classify(c, all_parks_absorb=False)
        st = bd.state
        # phase 1: parks and monuments forced, empty squares off, all-or-nothing classes
        for s, b in enumerate(c.buildings):
            if b is None:
                assert st[s] == solver.OFF
            elif b.type in (BT.PARK, BT.MONUMENT):
                assert st[s] == solver.FORCED
        for t in (BT.PUBLIC_SERVICE, BT.OFFICE_TOWER):
            assert len({st[s] for s in bd.squares[t]}) <= 1
        forced = [c.buildings[s] for s in range(len(st)) if st[s] == solver.FORCED]
        assert bd.n_forced == len(forced)
        uses_e = (BT.TOWER_BLOCK, BT.SHOP, BT.OFFICE_TOWER)
        assert bd.e_forced == sum(1 for b in forced if b is not None and b.type in uses_e)
        assert bd.e_forced <= c.energy and bd.i_forced <= c.inhabitants
        # phase 2: every candidate is a hub or in exactly one class, classes hold candidates
        se = solver.settle(bd)
        classes = [se.ps, se.h_int, se.to_t, se.to_o, se.t_const, se.shops, se.i_const, se.hubs]
        members = [s for cl in classes for s in cl]
        assert sorted(members) == [s for s in range(len(st)) if st[s] == solver.CANDIDATE]
        # phases 3-6: forced buildings stay active, off ones are never activated
        gr = solver.build_groups(bd, se)
        active = solver.activation(bd, se, gr, solver.solve(bd, se, gr))
        for s in range(len(st)):
            if st[s] != solver.CANDIDATE:
                assert active[s] == (st[s] == solver.FORCED)


# ---------------------------------------------------------------------------------------
# citygen


def test_citygen_is_deterministic_and_full() -> None:
    a = expert_corpus(20)
    assert a == expert_corpus(20)
    assert all(sum(b is not None for b in c.buildings) == 20 for c in a)
    rng = random.Random(3)
    c = random_city(rng, C, filled=7)
    assert c.mode is C and sum(b is not None for b in c.buildings) == 7
    for b in c.buildings:
        if b is not None:
            assert b.type not in (BT.OFFICE_TOWER, BT.MONUMENT)


# ---------------------------------------------------------------------------------------
# Property test against the brute force.

_TYPES = {
    C: [BT.TOWER_BLOCK, BT.SHOP, BT.PUBLIC_SERVICE, BT.PARK, BT.FACTORY, BT.HARBOR],
    X: list(BT),
}


@st.composite
def small_cities(draw: st.DrawFn) -> tuple[City, bool]:
    mode = draw(st.sampled_from([C, X]))
    geo = GEOMETRY[mode]
    squares = draw(st.lists(st.integers(0, geo.size - 1), unique=True, max_size=13))
    cells: list[Building | None] = [None] * geo.size
    movable = 0
    for s in squares:
        t = draw(st.sampled_from(_TYPES[mode]))
        if t not in (BT.PARK, BT.MONUMENT):
            if movable == 11:  # keep the brute force fast
                continue
            movable += 1
        limit = geo.max_floors.get(t, 1)
        floors = draw(st.integers(1, limit))
        vp = (
            draw(st.integers(0, 2 if t is BT.PUBLIC_SERVICE else 3))
            if t in (BT.PUBLIC_SERVICE, BT.HARBOR)
            else 0
        )
        tree = t is BT.PARK and draw(st.booleans())
        cells[s] = Building(t, floors, vp, tree)
    inhabitants = draw(st.integers(0, 16))
    energy = draw(st.integers(0, 12))
    return City(mode, tuple(cells), inhabitants, energy), draw(st.booleans())


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cities())
def test_matches_brute_force(case: tuple[City, bool]) -> None:
    c, apa = case
    res = score_city(c, all_parks_absorb=apa)
    assert (res.total, res.inhabitants_placed, res.empty_squares) == brute_force(c, all_parks_absorb=apa)
    check_consistent(c, res, apa)


@pytest.mark.parametrize("seed", range(3))
def test_full_cities_are_consistent(seed: int) -> None:
    # full cities are too big for the brute force; check the placement re-scores exactly
    rng = random.Random(seed)
    for mode in (C, X):
        for _ in range(40):
            c = random_city(rng, mode, filled=GEOMETRY[mode].size)
            check_consistent(c, score_city(c))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from([C, X]), st.booleans())
def test_generated_cities_match_brute_force(seed: int, mode: Mode, apa: bool) -> None:
    # denser, citygen-shaped neighbourhoods: up to 11 buildings needing resources
    rng = random.Random(seed)
    c = random_city(rng, mode, filled=rng.randint(6, 14))
    movable = [s for s, b in enumerate(c.buildings) if b is not None and b.type not in (BT.PARK, BT.MONUMENT)]
    cells = list(c.buildings)
    for s in movable[11:]:
        cells[s] = None
    c = City(mode, tuple(cells), rng.randint(0, 14), rng.randint(0, 11))
    res = score_city(c, all_parks_absorb=apa)
    assert (res.total, res.inhabitants_placed, res.empty_squares) == brute_force(c, all_parks_absorb=apa)
    check_consistent(c, res, apa)


def test_the_category_words_are_defined_once_for_every_table() -> None:
    """The score sheet's one-word column heads and the Classic/Expert split of the categories
    (the terminal, the text drawings, the arena report and the picture read them here)."""
    from quadropolis.scoring import CATEGORY_HEADS, EXPERT_CATEGORIES, mode_categories

    assert CATEGORY_HEADS == {
        "tower_block": "tower",
        "shop": "shop",
        "public_service": "public",
        "park": "park",
        "factory": "factory",
        "harbor": "harbor",
        "office_tower": "office",
        "monument": "monument",
        "unused_inhabitants": "unused",
        "pollution": "pollution",
    }
    assert mode_categories(Mode.EXPERT) == CATEGORIES
    assert mode_categories(Mode.CLASSIC) == tuple(c for c in CATEGORIES if c not in EXPERT_CATEGORIES)
    assert {"office_tower", "monument"} == EXPERT_CATEGORIES
