"""Scenario tests of the rules of play, one or more per ruling (docs/rules.md)."""

from __future__ import annotations

import pytest
from helpers import game, pending, slot, sq, tile, with_site

from quadropolis import (
    DISCARD,
    Build,
    Building,
    BuildingType,
    IllegalMoveError,
    Mode,
    Move,
    Take,
    apply,
    explain_illegal,
    legal_moves,
)
from quadropolis.site import DESIGNATED, SLOT_NAMES, square_name
from quadropolis.state import OVER, PLACE, TAKE

B = BuildingType


# R1 ---------------------------------------------------------------------------------------


def test_r1_twenty_slots_and_counting_from_the_slots_own_side() -> None:
    assert len(SLOT_NAMES) == 20 and len(set(SLOT_NAMES)) == 20
    # docs/rules.md's example: left end of row 4 with #3 -> row 4, column 3; right end -> 3rd from right.
    assert square_name(DESIGNATED[slot("L4")][3]) == "r4c3"
    assert square_name(DESIGNATED[slot("R4")][3]) == "r4c3"
    assert square_name(DESIGNATED[slot("R4")][1]) == "r4c5"
    assert square_name(DESIGNATED[slot("T2")][1]) == "r1c2"
    assert square_name(DESIGNATED[slot("B2")][1]) == "r5c2"
    assert square_name(DESIGNATED[slot("B2")][4]) == "r2c2"
    # #5 (Expert) reaches the far square of a line.
    assert square_name(DESIGNATED[slot("L1")][5]) == "r1c5"


def test_r1_a_slot_holds_one_architect_per_round_but_the_two_ends_differ() -> None:
    s = game(players=2)
    s = apply(s, "1L1")
    if s.phase == PLACE:
        s = apply(s, "discard")
    # Player 1 now; L1 is used (and row 1 is blocked by the urbanist anyway): use a free line.
    s.urbanist = sq("r5c5")  # move the urbanist away so only R1 is in play
    assert explain_illegal(s, Take.at(2, "L1")) is not None
    assert "already holds an architect" in (explain_illegal(s, Take.at(2, "L1")) or "")
    assert explain_illegal(s, Take.at(2, "R1")) is None
    assert Take.at(2, "R1") in legal_moves(s)
    assert not any(isinstance(m, Take) and m.slot_name == "L1" for m in legal_moves(s))


# R3 ---------------------------------------------------------------------------------------


def test_r3_supplies_are_unlimited() -> None:
    s = pending(game(), "T3", 1)
    s.inhabitants[0] = 65  # the box holds 65; the rule treats the supply as unlimited
    s = apply(s, "r1c1")
    assert s.inhabitants[0] == 68


# R4 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("players,up", [(2, 16), (3, 20), (4, 25)])
def test_r4_face_up_tiles_by_player_count(mode: Mode, players: int, up: int) -> None:
    s = game(mode, players, seed=5)
    assert sum(1 for t in s.site if t >= 0) == 25
    assert 25 - s.face_down.bit_count() == up


def test_r4_face_down_square_behaves_like_an_empty_square() -> None:
    s = game(players=2, seed=3)
    q = next(q for q in range(25) if s.face_down >> q & 1)
    take = next(m for m in legal_moves(s) if DESIGNATED[m.slot][m.architect] == q)  # type: ignore[attr-defined]
    before = s.site[q]
    after = apply(s, take)
    assert after.phase == TAKE and after.current_player == 1  # nothing taken, action over
    assert after.site[q] == before and after.face_down >> q & 1  # the tile stays, face down
    assert after.urbanist == q
    assert after.cities[0] == s.cities[0]


# R5 ---------------------------------------------------------------------------------------


def test_r5_urbanist_blocks_both_ends_of_its_row_and_column() -> None:
    s = with_site(game(), {"r2c3": "S"})
    s = apply(s, "3L2")  # designates r2c3
    assert s.urbanist == sq("r2c3")
    s = apply(s, "discard")
    takes = legal_moves(s)
    blocked = {"L2", "R2", "T3", "B3"}
    assert not any(m.slot_name in blocked for m in takes)  # type: ignore[attr-defined]
    assert {m.slot_name for m in takes} == set(SLOT_NAMES) - blocked - {"L2"}  # type: ignore[attr-defined]
    with pytest.raises(IllegalMoveError, match=r"architect #2 at R2: the urbanist blocks row 2 \(R5\)"):
        apply(s, "2R2")
    with pytest.raises(IllegalMoveError, match=r"the urbanist blocks column 3"):
        apply(s, "1B3")


def test_r5_variant_urbanist_blocks_only_its_square() -> None:
    s = with_site(game(urbanist_blocks="square"), {"r2c3": "S"})
    s = apply(apply(s, "3L2"), "discard")
    moves = legal_moves(s)
    assert Take.at(2, "R2") in moves  # the line is open in this variant ...
    assert Take.at(3, "R2") not in moves  # ... but R2 with #3 designates r2c3, the urbanist's square
    with pytest.raises(IllegalMoveError, match="urbanist stands on r2c3"):
        apply(s, "3R2")


# R6 ---------------------------------------------------------------------------------------


def test_r6_designating_an_empty_square_is_legal_and_takes_nothing() -> None:
    s = with_site(game(), {"r1c1": None})
    s2 = apply(s, "1L1")
    assert s2.phase == TAKE and s2.current_player == 1
    assert s2.urbanist == sq("r1c1")  # the urbanist still moves there (step 2)
    assert s2.cities == s.cities and s2.inhabitants == s.inhabitants


# R7 ---------------------------------------------------------------------------------------


def test_r7_a_legal_slot_exists_with_the_most_slots_used() -> None:
    s = game(players=4)
    # 15 slots used and the urbanist in the middle blocking 4 more: one slot remains.
    s.slots_used = sum(1 << slot(n) for n in SLOT_NAMES if n not in {"L3", "R3", "T3", "B3", "T1"})
    s.urbanist = sq("r3c3")
    assert {m.slot_name for m in legal_moves(s)} == {"T1"}  # type: ignore[attr-defined]


# R8 (Classic placement and stacking) --------------------------------------------------------


def test_r8_build_on_an_empty_square_of_row_n_or_column_n() -> None:
    s = pending(game(), "S", 2)
    builds = {str(m) for m in legal_moves(s) if isinstance(m, Build)}
    assert builds == {"r2c1", "r2c2", "r2c3", "r2c4", "r1c2", "r3c2", "r4c2"}
    assert DISCARD in legal_moves(s)
    with pytest.raises(IllegalMoveError, match=r"architect #2: r1c1 is not in row 2 or column 2 \(R8\)"):
        apply(s, "r1c1")


def test_r8_stacking_by_line_or_by_floor_number() -> None:
    s = pending(game(), "T1", 3)
    city = s.cities[0]
    city[0] = Building(B.TOWER_BLOCK, 1)  # r1c1: not in row/column 3, new floor would be 2
    city[5] = Building(B.TOWER_BLOCK, 2)  # r2c2: not in line 3, new floor would be 3 -> allowed
    city[2] = Building(B.TOWER_BLOCK, 1)  # r1c3: column 3 -> allowed
    city[15] = Building(B.SHOP)  # r4c4: a shop, never stackable
    legal = {str(m) for m in legal_moves(s)}
    assert "r2c2" in legal and "r1c3" in legal
    assert "r1c1" not in legal and "r4c4" not in legal
    with pytest.raises(IllegalMoveError, match=r"new floor \(2\) to be numbered 3 \(R8\)"):
        apply(s, "r1c1")
    after = apply(s, "r2c2")
    assert after.cities[0][5] == Building(B.TOWER_BLOCK, 3)


def test_r8_only_same_type_and_height_limit() -> None:
    s = pending(game(), "T1", 4)
    s.cities[0][3] = Building(B.TOWER_BLOCK, 4)  # r1c4, column 4 but already 4 floors
    s.cities[0][12] = Building(B.FACTORY)  # r4c1: row 4, but a factory
    legal = {str(m) for m in legal_moves(s)}
    assert "r1c4" not in legal and "r4c1" not in legal
    with pytest.raises(IllegalMoveError, match="already has 4 floors"):
        apply(s, "r1c4")
    with pytest.raises(IllegalMoveError, match="can only go on a tower block"):
        apply(s, "r4c1")
    s2 = pending(game(), "S", 4)
    s2.cities[0][3] = Building(B.SHOP)
    with pytest.raises(IllegalMoveError, match="cannot be stacked"):
        apply(s2, "r1c4")


# R9 ---------------------------------------------------------------------------------------


def test_r9_discard_is_always_allowed_and_gives_nothing() -> None:
    s = pending(game(), "T3", 1)
    for q in range(16):
        s.cities[0][q] = Building(B.SHOP)  # no eligible square at all
    assert legal_moves(s) == [DISCARD]
    after = apply(s, "discard")
    assert after.inhabitants[0] == 0 and after.cities[0] == s.cities[0]


# R10 --------------------------------------------------------------------------------------


def _to_round_end(s):  # type: ignore[no-untyped-def]
    while s.round == 1:
        m = legal_moves(s)
        s = apply(s, DISCARD if DISCARD in m else m[0])
    return s


def test_r10_mayor_moves_when_the_mayor_tower_block_is_built() -> None:
    s = with_site(game(players=3), {"r1c1": "T1m"})
    s = apply(s, "1L1")
    assert s.mayor == 0  # taking does not move the mayor
    s.cities[0][0] = None
    s2 = apply(s, "r1c1")
    assert s2.mayor == 0
    # seat 1 builds it instead
    t = with_site(game(players=3), {"r1c2": "S", "r3c3": "T1m"})
    t = apply(apply(t, "2L1"), "discard")
    t = apply(t, "3L3")
    assert t.current_player == 1 and t.mayor == 0
    t = apply(t, "r3c1")
    assert t.mayor == 1
    t = _to_round_end(t)
    assert t.round == 2 and t.starter == 1 and t.current_player == 1


def test_r10_discarding_the_mayor_tile_leaves_the_mayor() -> None:
    s = with_site(game(players=2, first_player=1), {"r1c1": "T1m"})
    s = apply(apply(s, "1L1"), "discard")
    assert s.mayor == 1
    s = _to_round_end(s)
    assert s.starter == 1


def test_r10_building_the_mayor_tile_as_an_upper_floor_counts() -> None:
    s = pending(game(players=2), "T1m", 1)
    s.position = 1  # player 1 acts
    s.cities[1][0] = Building(B.TOWER_BLOCK, 1)
    s = apply(s, "r1c1")
    assert s.cities[1][0] == Building(B.TOWER_BLOCK, 2) and s.mayor == 1


# R11 (engine side: the playground's inhabitant) ---------------------------------------------


def test_r11_playground_gives_one_inhabitant_and_is_not_a_tree_park() -> None:
    s = apply(pending(game(), "PKP", 1), "r1c1")
    assert s.inhabitants[0] == 1 and s.cities[0][0] == Building(B.PARK, tree=False)
    t = apply(pending(game(), "PKT", 1), "r1c1")
    assert t.inhabitants[0] == 0 and t.cities[0][0] == Building(B.PARK, tree=True)


# R16 and the Expert architects -------------------------------------------------------------


def test_r16_expert_build_on_squares_numbered_n_or_in_district_n() -> None:
    s = pending(game(Mode.EXPERT), "F2", 3)
    builds = {str(m) for m in legal_moves(s) if isinstance(m, Build)}
    # numbered 3: r1c2 r1c5 r3c3 r4c2; district 3: r3c4 r3c5 r4c4 r4c5
    assert builds == {"r1c2", "r1c5", "r3c3", "r4c2", "r3c4", "r3c5", "r4c4", "r4c5"}
    with pytest.raises(IllegalMoveError, match=r"#3: r1c1 is neither numbered 3 nor in district 3 \(R16\)"):
        apply(s, "r1c1")


def test_r16_expert_stacking_office_towers() -> None:
    s = pending(game(Mode.EXPERT), "O", 2)
    s.cities[0][0] = Building(B.OFFICE_TOWER, 1)  # r1c1: numbered 2 -> allowed
    s.cities[0][5] = Building(B.OFFICE_TOWER, 1)  # r2c1: numbered 5, district 1, floor 2 -> allowed
    s.cities[0][12] = Building(B.OFFICE_TOWER, 2)  # r3c3: numbered 3, district 4, floor 3 -> no
    s.cities[0][15] = Building(B.OFFICE_TOWER, 5)  # r4c1: 5 floors, the limit
    legal = {str(m) for m in legal_moves(s)}
    assert {"r1c1", "r2c1"} <= legal
    assert "r3c3" not in legal and "r4c1" not in legal
    assert apply(s, "r2c1").cities[0][5] == Building(B.OFFICE_TOWER, 2)


def test_expert_shared_pool_of_architects() -> None:
    s = game(Mode.EXPERT, players=3, seed=11)
    assert s.architects[1:] == [3, 3, 3, 3, 3]
    s = with_site(s, {"r1c5": None, "r2c5": None})
    s = apply(s, "5L1")
    s = apply(s, "5L2")  # a second #5 from the pool is fine
    assert s.architects[5] == 1
    actions = 2
    while actions < 12:  # 4 turns x 3 players
        m = legal_moves(s)
        if isinstance(m[0], Take):
            actions += 1
        s = apply(s, DISCARD if DISCARD in m else m[-1])
        if actions == 11 and s.phase == TAKE:
            assert sum(s.architects[1:]) == 4
    if s.phase == PLACE:
        s = apply(s, DISCARD)
    # after 4 turns each, the last architect was used and the pool refilled for round 2
    assert s.round == 2 and s.architects[1:] == [3, 3, 3, 3, 3]


def test_expert_architect_numbers_only_from_the_pool() -> None:
    s = game(Mode.EXPERT, players=2)
    s.architects[4] = 0
    assert not any(isinstance(m, Take) and m.architect == 4 for m in legal_moves(s))
    with pytest.raises(IllegalMoveError, match="no architect #4 is left in the pool"):
        apply(s, "4L1")


def test_classic_architects_once_per_round_and_numbered_1_to_4() -> None:
    s = game(players=2)
    with pytest.raises(IllegalMoveError, match="numbered 1-4"):
        apply(s, "5L1")
    s.architects[0] = 1 << 2
    with pytest.raises(IllegalMoveError, match="already used architect #2"):
        apply(s, "2L1")


# Flow ---------------------------------------------------------------------------------------


def test_wrong_phase_moves_are_rejected_with_the_reason() -> None:
    s = game()
    with pytest.raises(IllegalMoveError, match="must first take a building"):
        apply(s, "r1c1")
    with pytest.raises(IllegalMoveError, match="must first take a building"):
        apply(s, "discard")
    p = pending(game(), "S", 1)
    with pytest.raises(IllegalMoveError, match="must build it"):
        apply(p, "1L1")


def test_apply_never_modifies_its_input() -> None:
    s = game(seed=4)
    snapshot = s.copy()
    for m in legal_moves(s):
        apply(s, m)
    with pytest.raises(IllegalMoveError):
        apply(s, "r1c1")
    assert s == snapshot


def test_end_of_round_cleanup_and_game_end() -> None:
    s = game(players=2, seed=9)
    first_layout = list(s.site)
    while s.round == 1:
        m = legal_moves(s)
        s = apply(s, m[0])
    assert s.turn == 1 and s.position == 0 and s.phase == TAKE
    assert s.urbanist == -1 and s.slots_used == 0 and s.architects == [0, 0]
    assert s.site != first_layout and sum(1 for t in s.site if t >= 0) == 25
    while not s.is_over:
        s = apply(s, legal_moves(s)[-1])
    assert s.phase == OVER and legal_moves(s) == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        apply(s, "1L1")


def test_moves_accept_notation_strings_and_values() -> None:
    s = game()
    assert apply(s, "1L1") == apply(s, Move.parse("1l1")) == apply(s, Take.at(1, "L1"))


def test_tile_helper_finds_real_tiles() -> None:
    assert tile("T1m") >= 0


# R2 ---------------------------------------------------------------------------------------


def test_r2_classic_districts_are_the_four_quadrants() -> None:
    from quadropolis import City, score_city
    from quadropolis.city import GEOMETRY

    geo = GEOMETRY[Mode.CLASSIC]
    # district of every square, row by row: quadrants 2x2
    assert [geo.district[r * 4 : r * 4 + 4] for r in range(4)] == [
        (1, 1, 2, 2),
        (1, 1, 2, 2),
        (3, 3, 4, 4),
        (3, 3, 4, 4),
    ]
    ps = Building(B.PUBLIC_SERVICE)

    def two_ps(a: int, b: int) -> int:
        cells: list[Building | None] = [None] * 16
        cells[a] = cells[b] = ps
        return score_city(City(Mode.CLASSIC, tuple(cells), inhabitants=2)).total

    # r1c1 + r2c2: same quadrant -> one district -> 2 VP (both activated)
    assert two_ps(0, 5) == 2
    # r1c2 + r1c3: adjacent squares but different quadrants -> two districts -> 5 VP
    assert two_ps(1, 2) == 5
    # r2c2 + r3c2: across the middle row line -> 5 VP
    assert two_ps(5, 9) == 5


# §2 / R10: the order of play within a round ------------------------------------------------


def _seats_in_order(s, rounds: int = 1):  # type: ignore[no-untyped-def]
    """Play on (discarding, or the first legal take) and list, per round, the seat of every
    take in the order played, until ``rounds`` more rounds have ended; returns the lists and
    the state reached."""
    order: list[list[int]] = []
    start = s.round
    while s.round < start + rounds and not s.is_over:
        if s.phase == TAKE:
            while len(order) <= s.round - start:
                order.append([])
            order[s.round - start].append(s.current_player)
        m = legal_moves(s)
        s = apply(s, DISCARD if DISCARD in m else m[0])
    return order, s


@pytest.mark.parametrize("mode", list(Mode))
def test_s2_r10_order_of_play_starts_from_the_rounds_first_player_whatever_the_mayor_does(mode: Mode) -> None:
    """docs/rules.md §2 and R10: every turn of a round starts with the seat that held the mayor
    when the round began; a mayor built mid-round changes the order only from the next round."""
    s = with_site(game(mode, players=3), {"r1c5": None, "r3c1": "T1m"})
    assert s.starter == s.mayor == 0
    s = apply(s, "1R1")  # seat 0 designates the empty r1c5: takes nothing
    s = apply(s, "1L3")  # seat 1 takes the mayor tower block on r3c1 ...
    square = "r1c1" if mode is Mode.CLASSIC else "r1c4"  # (#1: row/column 1; Expert: numbered 1)
    s = apply(s, square)  # ... and builds it: the mayor moves at once (R10)
    assert s.mayor == 1 and s.starter == 0
    assert s.current_player == 2  # the turn goes on in seat order
    rest, s = _seats_in_order(s)
    # the rest of turn 1, then turns 2-4 still start from seat 0, the round's first player
    assert rest[0] == [2] + [0, 1, 2] * 3
    assert s.round == 2 and s.starter == 1 and s.mayor == 1
    nxt, _ = _seats_in_order(s)
    assert nxt[0] == [1, 2, 0] * 4  # from the next round on, the new mayor starts every turn


def test_s2_r10_a_mayor_built_in_the_last_action_of_a_round_starts_the_next_round() -> None:
    s = game(players=2, first_player=1)
    order, s = _seats_in_order(s.copy(), rounds=1)
    assert order == [[1, 0] * 4]  # seat 1 holds the mayor: it starts every turn of round 1
    s = game(players=2, first_player=1)
    while not (s.turn == 4 and s.position == 1 and s.phase == TAKE):
        m = legal_moves(s)
        s = apply(s, DISCARD if DISCARD in m else m[0])
    assert s.current_player == 0 and s.mayor == 1
    take = legal_moves(s)[0]
    assert isinstance(take, Take)
    s = with_site(s, {square_name(DESIGNATED[take.slot][take.architect]): "T1m"})
    s = apply(s, take)
    s = apply(s, next(m for m in legal_moves(s) if isinstance(m, Build)))
    assert s.round == 2 and s.mayor == 0 and s.starter == 0 and s.current_player == 0


# §6 variant all_parks_absorb: the playground's inhabitant (R11) -----------------------------


def test_r11_without_the_variant_a_playground_gives_one_inhabitant_and_absorbs_nothing() -> None:
    from quadropolis import projected_score

    s = apply(pending(game(all_parks_absorb=False), "PKP", 1), "r1c1")
    assert s.inhabitants[0] == 1 and s.cities[0][0] == Building(B.PARK, tree=False)
    s.energy[0] = 1
    score = projected_score(s, 0)
    assert score.placement.absorbing_parks == ()
    assert score.breakdown["pollution"] == -1 and score.breakdown["unused_inhabitants"] == -1


def test_variant_all_parks_absorb_playground_gives_no_inhabitant_and_absorbs() -> None:
    from quadropolis import projected_score

    s = apply(pending(game(all_parks_absorb=True), "PKP", 1), "r1c1")
    assert s.inhabitants[0] == 0 and s.energy[0] == 0  # the literal reading: no inhabitant
    assert s.cities[0][0] == Building(B.PARK, tree=False)  # still a playground on the city
    s.energy[0] = 1
    score = projected_score(s, 0)
    assert score.placement.absorbing_parks == (0,)  # every park absorbs in the variant
    assert score.breakdown["pollution"] == 0 and score.total == 0
    # a tree park gives nothing either way; other tiles keep their resources in the variant
    t = apply(pending(game(all_parks_absorb=True), "PKT", 1), "r1c1")
    assert t.inhabitants[0] == t.energy[0] == 0
    u = apply(pending(game(all_parks_absorb=True), "H1I1E", 1), "r1c1")
    assert (u.inhabitants[0], u.energy[0]) == (1, 1)
    v = apply(pending(game(Mode.EXPERT, all_parks_absorb=True), "PKP", 1), "r1c3")
    assert v.inhabitants[0] == 0


@pytest.mark.parametrize("absorb", [False, True])
def test_variant_all_parks_absorb_resources_over_a_seeded_game(absorb: bool) -> None:
    """Over whole seeded games (apply_unchecked, the search path), every build adds exactly
    the tile's resources, except playgrounds under the variant, which add nothing."""
    import random

    from quadropolis import GameConfig, apply_unchecked, new_game
    from quadropolis.tiles import TILES

    playgrounds = 0
    for mode, seed in ((Mode.CLASSIC, 1), (Mode.EXPERT, 2), (Mode.CLASSIC, 3)):
        s = new_game(GameConfig(mode=mode, players=4, seed=seed, all_parks_absorb=absorb))
        rng = random.Random(seed)
        while not s.is_over:
            moves = legal_moves(s)
            builds = [m for m in moves if isinstance(m, Build)]
            m = builds[0] if builds else moves[int(rng.random() * len(moves))]
            if isinstance(m, Build):
                kind = TILES[s.pending_tile].kind
                p = s.current_player
                before = (s.inhabitants[p], s.energy[p])
                apply_unchecked(s, m)
                got = (s.inhabitants[p] - before[0], s.energy[p] - before[1])
                if kind.type is B.PARK and not kind.tree:
                    playgrounds += 1
                    assert got == ((0, 0) if absorb else (1, 0))
                else:
                    assert got == (kind.inhabitants, kind.energy)
            else:
                apply_unchecked(s, m)
    assert playgrounds > 0  # the games really built playgrounds


def test_variant_all_parks_absorb_states_round_trip_through_json() -> None:
    import random

    from quadropolis import GameConfig, GameState, apply_unchecked, new_game

    for mode, players, seed in ((Mode.CLASSIC, 2, 0), (Mode.EXPERT, 3, 1), (Mode.CLASSIC, 4, 2)):
        s = new_game(GameConfig(mode=mode, players=players, seed=seed, all_parks_absorb=True))
        rng = random.Random(seed)
        while not s.is_over:
            moves = legal_moves(s)
            apply_unchecked(s, moves[int(rng.random() * len(moves))])
            assert GameState.from_json(s.to_json()) == s
