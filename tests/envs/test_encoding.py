"""The shared RL encoding: the fixed action space, the mask, every part of the observation
checked on hand-built states, the observation text and the rewards."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest
from helpers import game, pending, slot, sq, tile, with_site

from quadropolis import (
    Building,
    BuildingType,
    GameConfig,
    GameState,
    Mode,
    QuadropolisError,
    apply_unchecked,
    legal_moves,
    new_game,
    outcome,
)
from quadropolis.envs import (
    KIND_CODES,
    LAYOUT,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    ActionError,
    Encoder,
    action_mask,
    action_to_move,
    encode,
    final_rewards,
    layout_table,
    legal_actions,
    move_to_action,
    observation_text,
    views,
)
from quadropolis.envs.encoding import observation_high, reward_bounds, score_bounds
from quadropolis.moves import Build, Take
from quadropolis.playout import random_playout

B = BuildingType


def _view(state: GameState, observer: int) -> dict[str, np.ndarray]:
    return views(encode(state, observer))


def _random_states(mode: Mode, players: int, seed: int) -> list[GameState]:
    s = new_game(GameConfig(mode=mode, players=players, seed=seed))
    rng = random.Random(seed)
    out = [s.copy()]
    while not s.is_over:
        apply_unchecked(s, rng.choice(legal_moves(s)))
        out.append(s.copy())
    return out


# --- actions ---------------------------------------------------------------------------------


def test_the_action_space_round_trips_the_engines_notation() -> None:
    assert NUM_ACTIONS == 121
    assert [move_to_action(action_to_move(a)) for a in range(NUM_ACTIONS)] == list(range(NUM_ACTIONS))
    assert str(action_to_move(0)) == "1T1"
    assert str(action_to_move(13 * 5 + 2)) == "3L4"  # slot 13 = L4, architect #3
    assert str(action_to_move(19 * 5 + 4)) == "5R5"
    assert str(action_to_move(100 + 1 * 5 + 2)) == "r2c3"
    assert str(action_to_move(119)) == "r4c5"
    assert str(action_to_move(120)) == "discard"
    assert move_to_action("3L4") == 67 and move_to_action("r2c3") == 107 and move_to_action("discard") == 120
    # hand-made (not interned) moves map too
    assert move_to_action(Take(3, slot("L4"))) == 67 and move_to_action(Build(2, 3)) == 107


@pytest.mark.parametrize("bad", [-1, 121, 1000, "x"])
def test_an_integer_outside_the_space_is_an_action_error(bad: object) -> None:
    with pytest.raises(ActionError, match="0-120"):
        action_to_move(bad)  # type: ignore[arg-type]
    assert issubclass(ActionError, QuadropolisError)


@pytest.mark.parametrize(("mode", "players"), [(Mode.CLASSIC, 2), (Mode.CLASSIC, 4), (Mode.EXPERT, 3)])
def test_the_mask_is_exactly_legal_moves_in_ascending_action_order(mode: Mode, players: int) -> None:
    for s in _random_states(mode, players, seed=players):
        expected = [move_to_action(m) for m in legal_moves(s)]
        actions = legal_actions(s)
        assert actions == expected == sorted(expected)
        mask = action_mask(s)
        assert mask.dtype == np.int8 and mask.shape == (121,)
        assert np.flatnonzero(mask).tolist() == expected
    assert not action_mask(s).any()  # game over: all zeros


# --- observation layout ----------------------------------------------------------------------


def test_the_layout_is_contiguous_and_documented() -> None:
    offset = 0
    for p in LAYOUT:
        assert p.offset == offset and p.description
        offset += p.size
    assert offset == OBSERVATION_SIZE == 2409
    table = layout_table()
    assert all(f"`{p.name}`" in table for p in LAYOUT)
    v = views(np.zeros((3, OBSERVATION_SIZE), np.float32))  # batches too
    assert v["city"].shape == (3, 4, 20, 17) and v["site_tile"].shape == (3, 25, 21)


def test_every_observation_lies_within_the_declared_bounds() -> None:
    high = observation_high()
    for mode, players in [(Mode.CLASSIC, 4), (Mode.EXPERT, 4), (Mode.EXPERT, 2)]:
        for s in _random_states(mode, players, seed=9)[::7]:
            for observer in range(players):
                obs = encode(s, observer)
                assert obs.dtype == np.float32 and obs.shape == (OBSERVATION_SIZE,)
                assert (obs >= 0).all() and (obs <= high).all()


def test_configuration_parts() -> None:
    v = _view(game(Mode.CLASSIC, 3, urbanist_blocks="square"), 0)
    assert v["mode"].tolist() == [1, 0] and v["players"].tolist() == [0, 1, 0]
    assert v["variants"].tolist() == [1, 0]
    assert v["square_exists"].reshape(4, 5)[:, :4].all() and not v["square_exists"].reshape(4, 5)[:, 4].any()
    # Classic districts are the 2x2 quadrants (R2): r1c1 in 1, r1c4 in 2, r4c1 in 3, r4c4 in 4
    d = v["square_district"].reshape(4, 5, 5)
    assert d[0, 0, 0] == d[0, 3, 1] == d[3, 0, 2] == d[3, 3, 3] == 1
    assert not v["square_number"].any()
    # architect #2 builds on row 2 or column 2 (R8)
    e2 = v["square_eligible"][1].reshape(4, 5)
    assert {(r, c) for r in range(4) for c in range(5) if e2[r, c]} == {(1, c) for c in range(4)} | {
        (r, 1) for r in range(4)
    }
    v = _view(game(Mode.EXPERT, 4, all_parks_absorb=True), 0)
    assert (
        v["mode"].tolist() == [0, 1]
        and v["players"].tolist() == [0, 0, 1]
        and v["variants"].tolist() == [0, 1]
    )
    assert v["square_exists"].all()
    # docs/rules.md §5: r1c3 is in district 4 and numbered 1; r4c5 in district 3, numbered 4
    assert v["square_district"][2, 3] == 1 and v["square_number"][2, 0] == 1
    assert v["square_district"][19, 2] == 1 and v["square_number"][19, 3] == 1
    # architect #5: squares numbered 5 or in district 5 (R16)
    assert int(v["square_eligible"][4].sum()) == 8


def test_round_and_tiles_to_come() -> None:
    s = game(Mode.CLASSIC, 2)
    s.round = 3
    v = _view(s, 0)
    assert v["round"].tolist() == [0, 0, 1, 0, 0]
    # Classic round 4 with 2 players (TILES.md): 16 face-up tiles, among them 2 T1 and 2 shops
    to_come = dict(zip(KIND_CODES, v["to_come"].tolist(), strict=True))
    assert sum(to_come.values()) == 16 and to_come["T1"] == 2 and to_come["S"] == 2 and to_come["O"] == 0
    s.round = 4
    assert not _view(s, 0)["to_come"].any()
    # Expert, 4 players, round 1: rounds 2-5 bring 4 x 25 tiles, all face up
    assert _view(game(Mode.EXPERT, 4), 0)["to_come"].sum() == 100


def test_site_urbanist_and_slots() -> None:
    s = with_site(game(Mode.CLASSIC, 2, seed=1), {"r2c3": "T2", "r1c1": None})
    s.site[sq("r5c5")] = tile("PKT", Mode.CLASSIC, 1)
    s.face_down |= 1 << sq("r5c5")
    s.urbanist = sq("r2c3")
    s.slots_used = 1 << slot("T3") | 1 << slot("L1")
    s.turn, s.position = 2, 0
    v = _view(s, 0)
    assert v["site_tile"][sq("r2c3"), KIND_CODES.index("T2")] == 1
    assert not v["site_tile"][sq("r1c1")].any() and not v["site_face_down"][sq("r1c1")]  # empty square
    assert v["site_face_down"][sq("r5c5")] == 1 and not v["site_tile"][sq("r5c5")].any()  # R4: kind hidden
    assert v["site_tile"].sum() + v["site_face_down"].sum() == sum(t >= 0 for t in s.site)
    assert np.flatnonzero(v["urbanist"]).tolist() == [sq("r2c3")]
    assert np.flatnonzero(v["slot_used"]).tolist() == [slot("T3"), slot("L1")]
    # R5: the urbanist on r2c3 blocks both ends of row 2 and of column 3
    assert np.flatnonzero(v["slot_blocked"]).tolist() == sorted(slot(x) for x in ("T3", "B3", "L2", "R2"))
    assert v["turn"].tolist() == [0, 1, 0, 0] and v["phase"].tolist() == [1, 0]
    s.config = dataclasses.replace(s.config, urbanist_blocks="square")
    assert not _view(s, 0)["slot_blocked"].any()


def test_building_in_hand() -> None:
    s = pending(game(Mode.EXPERT, 2), "H2V", 4)
    v = _view(s, 1)
    assert v["phase"].tolist() == [0, 1]
    assert np.flatnonzero(v["hand_tile"]).tolist() == [KIND_CODES.index("H2V")]
    assert v["hand_architect"].tolist() == [0, 0, 0, 1, 0]
    assert not _view(game(Mode.EXPERT, 2), 0)["hand_tile"].any()


def test_seats_are_relative_to_the_observer() -> None:
    s = game(Mode.CLASSIC, 3)
    s.starter, s.position, s.mayor = 1, 1, 2  # seat 2 to move, holds the mayor; seat 1 started
    s.architects = [0b00100, 0b10100, 0]  # seat 0 used #2; seat 1 used #2 and #4
    s.inhabitants, s.energy = [1, 2, 3], [4, 5, 6]
    v = _view(s, 1)  # relative seats: 0 = seat 1, 1 = seat 2, 2 = seat 0
    assert v["seat_present"].tolist() == [1, 1, 1, 0]
    assert v["seat_to_move"].tolist() == [0, 1, 0, 0]
    assert v["seat_mayor"].tolist() == [0, 1, 0, 0]
    assert v["seat_starter"].tolist() == [1, 0, 0, 0]
    assert v["architects_used"].tolist() == [[0, 1, 0, 1, 0], [0, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0] * 5]
    assert v["inhabitants"].tolist() == [2, 3, 1, 0] and v["energy"].tolist() == [5, 6, 4, 0]
    assert not v["pool"].any()
    e = game(Mode.EXPERT, 2)
    e.architects = [0, 2, 1, 0, 2, 2]
    ve = _view(e, 0)
    assert ve["pool"].tolist() == [2, 1, 0, 2, 2] and not ve["architects_used"].any()


def test_city_squares() -> None:
    s = game(Mode.CLASSIC, 2)
    s.cities[1][1 * 4 + 2] = Building(B.TOWER_BLOCK, 3)  # seat 1, r2c3
    s.cities[1][3 * 4 + 3] = Building(B.HARBOR, 1, 2)  # r4c4, 2 printed VP
    s.cities[0][0] = Building(B.PARK, tree=True)
    s.cities[0][1] = Building(B.PARK, tree=False)  # playground
    v = _view(s, 0)["city"]
    tower = v[1, 1 * 5 + 2]  # Classic squares sit in a 4 x 5 grid: index row * 5 + column
    assert tower[:8].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
    assert tower[8:13].tolist() == [1, 1, 1, 0, 0] and not tower[13:].any()
    harbor = v[1, 3 * 5 + 3]
    assert (
        harbor[B.HARBOR] == 1
        and harbor[8:13].tolist() == [1, 0, 0, 0, 0]
        and harbor[13:16].tolist() == [1, 1, 0]
    )
    assert v[0, 0, 16] == 1 and v[0, 1, 16] == 0 and v[0, 1, B.PARK] == 1
    assert v.sum() == tower.sum() + harbor.sum() + v[0, 0].sum() + v[0, 1].sum()
    assert _view(s, 1)["city"][0, 1 * 5 + 2, 10] == 1  # seen by its owner: relative seat 0
    e = game(Mode.EXPERT, 2)
    e.cities[0][19] = Building(B.OFFICE_TOWER, 5)  # r4c5: Expert index is row * 5 + column too
    assert _view(e, 0)["city"][0, 19, 8:13].tolist() == [1] * 5


def test_the_cached_encoder_agrees_with_a_fresh_one() -> None:
    # One encoder fed positions of games of both modes in random order: its caches of the site
    # and of each city never show anything but the position encoded.
    states = [s for mode, n in [(Mode.CLASSIC, 2), (Mode.EXPERT, 4)] for s in _random_states(mode, n, seed=n)]
    enc = Encoder()
    rng = random.Random(0)
    for _ in range(600):
        s = rng.choice(states)
        observer = rng.randrange(s.config.players)
        assert np.array_equal(enc.encode(s, observer), encode(s, observer))


def test_nothing_hidden_leaks_into_observations() -> None:
    # The seed (hence the layouts of rounds to come) is not encoded: two games that differ only
    # in their seed look the same; nor is which face-down tile lies where.
    a = game(Mode.CLASSIC, 2, seed=1)
    b = a.copy()
    b.config = dataclasses.replace(a.config, seed=987654321)
    assert np.array_equal(encode(a, 0), encode(b, 0))
    assert observation_text(a, 0) == observation_text(b, 0) and "987654321" not in observation_text(b, 0)
    hidden = [q for q in range(25) if a.face_down >> q & 1]
    c = a.copy()
    c.site[hidden[0]], c.site[hidden[1]] = c.site[hidden[1]], c.site[hidden[0]]
    assert c.site != a.site
    assert np.array_equal(encode(c, 0), encode(a, 0)) and observation_text(c, 0) == observation_text(a, 0)


def test_observation_text_tells_positions_apart() -> None:
    states = _random_states(Mode.CLASSIC, 2, seed=3)
    texts = [observation_text(s, 0) for s in states]
    assert len(set(texts)) == len(texts)
    assert texts[0].startswith("classic 2p r1t1 s0 takes mayor s0 starter s0 | site ")
    assert observation_text(states[0], 1).startswith("classic 2p r1t1 s1 takes")


# --- rewards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "players"), [(Mode.CLASSIC, 2), (Mode.EXPERT, 4)])
def test_final_rewards(mode: Mode, players: int) -> None:
    for seed in range(5):
        result = outcome(
            random_playout(GameConfig(mode=mode, players=players, seed=seed), random.Random(seed))
        )
        share = final_rewards(result, "win_share")
        assert sum(share) == pytest.approx(1.0)
        assert [p for p, r in enumerate(share) if r > 0] == list(result.winners)
        margin = final_rewards(result, "margin")
        totals = result.totals
        assert margin == [t - max(u for q, u in enumerate(totals) if q != p) for p, t in enumerate(totals)]
        low, high = score_bounds(mode)
        assert all(low <= t <= high for t in totals)
        lo, hi = reward_bounds(mode, "margin")
        assert all(lo <= m <= hi for m in margin)
    with pytest.raises(QuadropolisError, match="reward must be one of"):
        final_rewards(result, "elo")


def test_the_rl_chapters_observation_table_is_the_layout() -> None:
    chapter = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    assert "`quadropolis.envs.layout_table()`" in chapter
    assert layout_table() in chapter
