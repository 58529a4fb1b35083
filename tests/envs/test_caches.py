"""The adapters' caches never change a result: the incremental encoder against a plain
reference encoding (every part written from the state, as the layout describes it), the
shared action masks, the bots' hidden-seed config, and OpenSpiel's cached player to act."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import numpy as np
import pytest
from helpers import game

from quadropolis import (
    Building,
    BuildingType,
    GameConfig,
    GameState,
    Mode,
    apply_unchecked,
    legal_moves,
    new_game,
)
from quadropolis.bots import observe
from quadropolis.bots.base import HIDDEN_SEED
from quadropolis.city import GEOMETRY
from quadropolis.envs import (
    OBSERVATION_SIZE,
    Encoder,
    action_mask,
    encode,
    legal_actions,
    move_to_action,
    views,
)
from quadropolis.envs.encoding import KIND_CODES, shared_action_mask
from quadropolis.phases import OVER, PLACE, TAKE
from quadropolis.site import BLOCKED_SLOTS
from quadropolis.tiles import TILES

B = BuildingType
SQUARE = {"urbanist_blocks": "square", "all_parks_absorb": True}


def _reference(state: GameState, observer: int) -> np.ndarray:
    """The observation written part by part from the state, the plain way (slow)."""
    obs = np.zeros(OBSERVATION_SIZE, np.float32)
    v = views(obs)
    cfg = state.config
    n = cfg.players
    mode = cfg.mode
    v["mode"][0 if mode is Mode.CLASSIC else 1] = 1
    v["players"][n - 2] = 1
    v["variants"][:] = (cfg.urbanist_blocks == "square", cfg.all_parks_absorb)
    geo = GEOMETRY[mode]
    for q in range(geo.size):
        cq = q // geo.cols * 5 + q % geo.cols
        v["square_exists"][cq] = 1
        v["square_district"][cq, geo.district[q] - 1] = 1
        if geo.number is not None:
            v["square_number"][cq, geo.number[q] - 1] = 1
        for a in range(1, geo.architects + 1):
            if q in geo.eligible[a]:
                v["square_eligible"][a - 1, cq] = 1
    v["round"][state.round - 1] = 1
    for t in TILES:
        if t.in_mode(mode) and t.round > state.round and t.min_players <= n:
            v["to_come"][KIND_CODES.index(t.kind.code)] += 1
    v["turn"][state.turn - 1] = 1
    if state.phase == TAKE:
        v["phase"][0] = 1
    elif state.phase == PLACE:
        v["phase"][1] = 1
        v["hand_tile"][KIND_CODES.index(TILES[state.pending_tile].kind.code)] = 1
        v["hand_architect"][state.pending_architect - 1] = 1
    for q, t in enumerate(state.site):
        if t >= 0:
            if state.face_down >> q & 1:
                v["site_face_down"][q] = 1
            else:
                v["site_tile"][q, KIND_CODES.index(TILES[t].kind.code)] = 1
    if state.urbanist >= 0:
        v["urbanist"][state.urbanist] = 1
        if cfg.urbanist_blocks == "lines":
            v["slot_blocked"][:] = [BLOCKED_SLOTS[state.urbanist] >> i & 1 for i in range(20)]
    v["slot_used"][:] = [state.slots_used >> i & 1 for i in range(20)]
    v["seat_to_move"][(state.current_player - observer) % n] = 1
    v["seat_mayor"][(state.mayor - observer) % n] = 1
    v["seat_starter"][(state.starter - observer) % n] = 1
    for r in range(n):
        p = (observer + r) % n
        v["seat_present"][r] = 1
        if mode is Mode.CLASSIC:
            v["architects_used"][r, :4] = [state.architects[p] >> a & 1 for a in (1, 2, 3, 4)]
        for q, b in enumerate(state.cities[p]):
            if b is not None:
                f = v["city"][r, q // geo.cols * 5 + q % geo.cols]
                f[int(b.type)] = 1
                f[8 : 8 + min(b.floors, 5)] = 1
                f[13 : 13 + min(b.vp, 3)] = 1
                f[16] = b.type is B.PARK and b.tree
        v["inhabitants"][r] = state.inhabitants[p]
        v["energy"][r] = state.energy[p]
    if mode is Mode.EXPERT:
        v["pool"][:] = state.architects[1:6]
    return obs


def _games(seed: int) -> list[list[GameState]]:
    games = []
    for mode in Mode:
        for players in (2, 3, 4):
            for variants in ({}, SQUARE):
                s = new_game(GameConfig(mode=mode, players=players, seed=seed, **variants))  # type: ignore[arg-type]
                rng = random.Random(f"{seed}/{mode.value}/{players}/{len(variants)}")
                positions = [s.copy()]
                while not s.is_over:
                    apply_unchecked(s, rng.choice(legal_moves(s)))
                    positions.append(s.copy())
                games.append(positions)
    return games


GAMES = _games(seed=11)
ALL = [s for positions in GAMES for s in positions]


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype == np.float32 and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_the_encoding_is_the_plain_reference_in_every_mode_and_variant() -> None:
    for s in ALL[::3]:
        observer = random.Random(s.round * 7 + s.turn).randrange(s.config.players)
        assert _same(encode(s, observer), _reference(s, observer))


@pytest.mark.parametrize(
    "who",
    [
        lambda s, k: 0,
        lambda s, k: s.current_player if not s.is_over else 0,
        lambda s, k: k % s.config.players,
    ],
    ids=["fixed-seat", "player-to-move", "every-seat"],
)
def test_one_encoder_along_games_matches_the_reference(who: Callable[[GameState, int], int]) -> None:
    # As the adapters use it: one encoder per env, the state changing move by move (Gymnasium:
    # a fixed seat; PettingZoo: the player to move; OpenSpiel: any seat), games one after the
    # other (new configs, new seeds) without reset().
    enc = Encoder()
    out = np.full(OBSERVATION_SIZE, 7, np.float32)
    for positions in GAMES:
        for k, s in enumerate(positions):
            observer = who(s, k)
            expected = _reference(s, observer)
            assert _same(enc.encode(s, observer), expected)
            if k % 5 == 0:
                assert enc.encode(s, observer, out=out) is out and _same(out, expected)


def test_an_encoder_fed_positions_in_random_order_matches_the_reference() -> None:
    # Jumps backwards (buildings removed), across modes, player counts and variants, with
    # configs that differ only by their seed or are new objects.
    rng = random.Random(3)
    enc = Encoder()
    for i in range(1500):
        s = rng.choice(ALL)
        if i % 4 == 0:
            s = s.copy()
            s.config = dataclasses.replace(s.config, seed=rng.randrange(100))
        observer = rng.randrange(-1, s.config.players + 2)  # any int: seats are taken modulo n
        assert _same(enc.encode(s, observer), _reference(s, observer % s.config.players))
        if i % 300 == 0:
            enc.reset()


def _odd(state: GameState, rng: random.Random) -> GameState:
    """A state made by hand with values no game reaches (counts beyond a byte, negative...)."""
    s = state.copy()
    n = s.config.players
    k = rng.randrange(6)
    if k == 0:
        s.inhabitants[rng.randrange(n)] = rng.choice([255, 256, 1000, -3])
    elif k == 1:
        s.energy[rng.randrange(n)] = rng.choice([300, -1])
    elif k == 2 and s.config.mode is Mode.EXPERT:
        s.architects[rng.randrange(1, 6)] = rng.choice([9, 400, -2])
    elif k == 3:
        s.urbanist = rng.choice([-3, 0, 24])
    elif k == 4:
        s.cities[rng.randrange(n)][0] = Building(B.TOWER_BLOCK, rng.choice([1, 5, 9]), rng.choice([0, 4]))
    else:
        s.cities[rng.randrange(n)][1] = Building(B.PARK, tree=rng.random() < 0.5)
    return s


def test_states_made_by_hand_encode_as_the_reference() -> None:
    rng = random.Random(5)
    enc = Encoder()
    for _ in range(600):
        s = _odd(rng.choice(ALL), rng)
        observer = rng.randrange(s.config.players)
        expected = _reference(s, observer)
        assert _same(enc.encode(s, observer), expected) and _same(encode(s, observer), expected)


def test_the_seats_parts_follow_the_observer() -> None:
    s = game(Mode.CLASSIC, 4)
    s.cities[2][5] = Building(B.SHOP)  # seat 2's r2c2 (Classic: 4 columns)
    s.inhabitants, s.energy = [1, 2, 3, 4], [5, 6, 7, 8]
    enc = Encoder()
    for observer in (0, 3, 1, 2, 2, 0):
        v = views(enc.encode(s, observer))
        assert v["inhabitants"].tolist() == [s.inhabitants[(observer + r) % 4] for r in range(4)]
        assert v["energy"].tolist() == [s.energy[(observer + r) % 4] for r in range(4)]
        assert v["city"][(2 - observer) % 4, 1 * 5 + 1, B.SHOP] == 1 and v["city"][:, :, B.SHOP].sum() == 1


def test_masks_are_shared_read_only_and_handed_out_as_copies() -> None:
    for s in ALL[::5]:
        actions = [move_to_action(m) for m in legal_moves(s)]
        shared = shared_action_mask(s)
        assert not shared.flags.writeable and shared.dtype == np.int8
        assert np.flatnonzero(shared).tolist() == sorted(actions) == legal_actions(s)
        mask = action_mask(s)
        assert mask.flags.writeable and mask is not shared and np.array_equal(mask, shared)
        mask[:] = 1  # the caller's copy: the next mask is untouched
        assert np.array_equal(action_mask(s), shared)
    with pytest.raises(ValueError, match="read-only"):
        shared[0] = 1


def test_observe_hides_the_seed_with_one_config_per_config() -> None:
    configs = [
        GameConfig(mode=mode, players=players, seed=seed, **variants)  # type: ignore[arg-type]
        for mode in Mode
        for players in (2, 4)
        for seed in (0, 1, 2**40)
        for variants in ({}, SQUARE)
    ]
    rng = random.Random(0)
    for _ in range(400):
        config = rng.choice(configs)
        if rng.random() < 0.3:  # an equal config, another object
            config = dataclasses.replace(config)
        state = new_game(config)
        seen = observe(state)
        assert seen.config == dataclasses.replace(config, seed=HIDDEN_SEED)
        assert seen.config.seed == HIDDEN_SEED and state.config is config  # the state is untouched
        assert seen is not state and seen.site == state.site and seen.cities == state.cities
        assert observe(state).config is seen.config  # made once for this config object
    # Two configs differing in anything but the seed never share a hidden config.
    a, b = GameConfig(players=2, seed=5), GameConfig(players=3, seed=5)
    assert observe(new_game(a)).config.players == 2 and observe(new_game(b)).config.players == 3
    assert observe(new_game(a)).config == GameConfig(players=2, seed=HIDDEN_SEED)


def test_openspiels_cached_player_to_act_is_the_positions() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from quadropolis.envs import load_openspiel_game

    chance, terminal = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
    for params in ({"players": 2}, {"mode": "expert", "players": 4, **SQUARE}):
        game_ = load_openspiel_game(params)
        rng = random.Random(1)
        state = game_.new_initial_state()
        while not state.is_terminal():
            engine = state.game_state
            if state.dealing:
                expected = chance
                assert state.is_chance_node()
            else:
                expected = engine.current_player
            assert state.current_player() == expected
            clone = state.clone()
            assert clone.current_player() == expected
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            assert clone.current_player() == expected  # the clone did not move
        assert state.game_state.phase == OVER and state.current_player() == terminal


def test_copies_of_an_encoder_and_of_the_envs_encode_the_same() -> None:
    import copy
    import pickle

    from quadropolis.envs import make_gym_env, quadropolis_v1

    positions = GAMES[3]
    enc = Encoder()
    for s in positions[:40]:
        enc.encode(s, 1)
    for twin in (copy.copy(enc), copy.deepcopy(enc), pickle.loads(pickle.dumps(enc))):
        for s in positions[40:60]:
            assert _same(twin.encode(s, 1), _reference(s, 1)) and _same(enc.encode(s, 1), _reference(s, 1))
    gym_env = make_gym_env(mode="expert", players=3)
    obs, info = gym_env.reset(seed=4)
    pz_env = quadropolis_v1.raw_env(players=3)
    pz_env.reset(seed=4)
    rng = random.Random(4)
    for _ in range(10):
        obs, _, _, _, info = gym_env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        pz_env.step(int(rng.choice(np.flatnonzero(pz_env.observe(pz_env.agent_selection)["action_mask"]))))
    gym_twin, pz_twin = copy.deepcopy(gym_env), copy.deepcopy(pz_env)
    for _ in range(20):  # the game lasts 40 agent steps
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, _, _, info = gym_env.step(action)
        twin_obs, _, _, _, twin_info = gym_twin.step(action)
        assert _same(obs, twin_obs) and np.array_equal(info["action_mask"], twin_info["action_mask"])
        agent = pz_env.agent_selection
        seen, twin_seen = pz_env.observe(agent), pz_twin.observe(agent)
        assert _same(seen["observation"], twin_seen["observation"])
        action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
        pz_env.step(action)
        pz_twin.step(action)
