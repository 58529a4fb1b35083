"""The research kit's defects, each pinned: the illegal-action penalty never beats a
legal finish, ``render_mode="rgb_array"``, the mask once an episode is over, OpenSpiel's
declared bounds, ``normalize=True`` and the global ``state()``."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from quadropolis import GameConfig, Mode, new_game
from quadropolis.envs import GYM_ID, NUM_ACTIONS, encode, make_gym_env, quadropolis_v1
from quadropolis.envs.layout import observation_high
from quadropolis.envs.picture import PICTURE_SIZE, TYPE_COLOURS
from quadropolis.envs.rewards import REWARDS, illegal_reward, reward_bounds
from quadropolis.tiles import TILES

ROOT = Path(__file__).resolve().parents[2]

# --- 1. the illegal-action penalty ---------------------------------------------------------


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("scheme", REWARDS)
def test_the_default_penalty_is_the_schemes_lower_bound(mode: Mode, scheme: str) -> None:
    assert illegal_reward(mode, scheme) == reward_bounds(mode, scheme)[0]
    assert illegal_reward(mode, scheme, dense=0.1) < reward_bounds(mode, scheme)[0]
    assert make_gym_env(mode=mode.value, reward=scheme).illegal_reward == illegal_reward(mode, scheme)
    # one value for both adapters: PettingZoo's env() hands the raw env's to its wrapper
    assert quadropolis_v1.raw_env(mode=mode.value, reward=scheme).illegal_reward == illegal_reward(
        mode, scheme
    )


def test_ending_a_margin_game_illegally_is_worse_than_losing_it() -> None:
    """The bug: under ``margin`` an illegal action paid -1 while a loss to greedy costs ~45."""
    env = make_gym_env(reward="margin", opponents="greedy", dense_reward=0.1)
    worst_legal = np.inf
    for seed in range(3):
        _, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        collected, done, so_far = 0.0, False, []
        while not done:
            so_far.append(collected)  # the return if the agent now ended the game illegally
            _, r, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            collected += float(r)
        worst_legal = min(worst_legal, collected)
        assert max(so_far) + env.illegal_reward < collected  # at every step, illegal is worse
    _, info = env.reset(seed=9)
    _, r, done, _, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert done and info["illegal_action"] and float(r) == env.illegal_reward < worst_legal


def test_pettingzoos_wrapped_env_pays_the_bound_for_an_illegal_action() -> None:
    env = quadropolis_v1.env(reward="margin", mode="expert")
    env.reset(seed=1)
    env.step(120)  # discard before taking: illegal
    assert env.terminations["player_0"] and env.rewards["player_0"] == -773.0


# --- 2. render_mode="rgb_array" --------------------------------------------------------------


def test_rgb_array_frames_show_the_table() -> None:
    env = gymnasium.make(GYM_ID, render_mode="rgb_array", players=3)  # what make_vec_env passes
    _, info = env.reset(seed=4)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.shape == (PICTURE_SIZE[1], PICTURE_SIZE[0], 3)
    colours = {tuple(c) for c in np.unique(frame.reshape(-1, 3), axis=0)}
    state = env.unwrapped.game_state  # type: ignore[attr-defined]
    face_up = {
        TILES[t].kind.type for q, t in enumerate(state.site) if t >= 0 and not state.face_down >> q & 1
    }
    assert {TYPE_COLOURS[t] for t in face_up} <= colours  # every face-up building type, in its colour
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not np.array_equal(frame, env.render())  # a take changes the picture
    plain = gymnasium.make(GYM_ID)  # render_mode=None
    plain.reset(seed=4)
    assert plain.render() is None


def test_pettingzoo_draws_the_same_kind_of_frame() -> None:
    env = quadropolis_v1.env(render_mode="rgb_array")
    env.reset(seed=2)
    frame = env.render()
    assert frame.shape == (PICTURE_SIZE[1], PICTURE_SIZE[0], 3) and frame.dtype == np.uint8


# --- 3. the mask once the episode is over ------------------------------------------------


def _masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The standard masked categorical: ``masked_fill(~mask, -inf)`` then softmax."""
    masked = np.where(mask.astype(bool), logits, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(masked - masked.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]


def test_after_a_terminal_step_the_mask_keeps_a_masked_categorical_finite() -> None:
    assert np.isnan(_masked_softmax(np.zeros(3), np.zeros(3))).all()  # what all zeros did
    envs = gymnasium.make_vec(GYM_ID, num_envs=2, vectorization_mode="sync")
    _, info = envs.reset(seed=[1, 2])
    rng = np.random.default_rng(0)
    logits = np.zeros((2, NUM_ACTIONS))
    terminal_masks = 0
    for _ in range(80):
        probs = _masked_softmax(logits, info["action_mask"])
        assert np.isfinite(probs).all()
        actions = [int(rng.choice(NUM_ACTIONS, p=p)) for p in probs]
        _, _, terminated, _, info = envs.step(np.array(actions))
        for k in np.flatnonzero(terminated):
            assert info["action_mask"][k].all()  # pgx's convention: all ones at the end
            terminal_masks += 1
    envs.close()
    assert terminal_masks >= 2


# --- 4. OpenSpiel's bounds -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "history"),
    [
        ({"mode": "classic", "players": 2}, 164),
        ({"mode": "expert", "players": 2}, 205),
        ({"mode": "expert", "players": 4}, 285),
    ],
)
def test_openspiel_declares_true_bounds(params: dict[str, Any], history: int) -> None:
    from quadropolis.envs.openspiel_game import load

    game = load(params)
    assert game.max_history_length() == game.max_move_number() == history
    rng = random.Random(7)
    for _ in range(25):
        state = game.new_initial_state()
        actions = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                chance += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        assert actions <= game.max_game_length()
        assert chance == game.max_chance_nodes_in_history()  # every deal of every round
        assert len(state.history()) <= game.max_history_length()
        assert state.move_number() <= game.max_move_number()


def test_make_observation_gives_the_observation_tensor() -> None:
    from open_spiel.python.observation import make_observation

    from quadropolis.envs.openspiel_game import load

    game = load({"mode": "expert"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    obs = make_observation(game)
    obs.set_from(state, 0)
    assert np.array_equal(obs.tensor, np.asarray(state.observation_tensor(0), np.float32))


def test_the_rl_extra_installs_pillow_and_dm_tree() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {d.split(">")[0].split("=")[0].lower() for d in extras["rl"]}
    assert {"pillow", "dm-tree", "numpy", "gymnasium", "pettingzoo", "open-spiel"} <= names


# --- 5. normalize=True and the global state ---------------------------------------------------


def test_normalized_observations_lie_in_the_unit_interval() -> None:
    checked = gymnasium.make(GYM_ID, normalize=True, render_mode="rgb_array")
    check_env(checked.unwrapped)
    env = make_gym_env(normalize=True, mode="expert", players=3, opponents="greedy")
    assert env.observation_space.high.max() == 1.0
    raw = make_gym_env(mode="expert", players=3, opponents="greedy")
    obs, info = env.reset(seed=5)
    ref, _ = raw.reset(seed=5)
    rng = np.random.default_rng(5)
    done = False
    while not done:
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        np.testing.assert_allclose(obs, ref / observation_high(), rtol=1e-6)
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, done, _, info = env.step(a)
        ref, *_ = raw.step(a)


def test_the_global_state_is_the_position_from_seat_zero() -> None:
    env = make_gym_env(seat=1, players=3)
    obs, _ = env.reset(seed=6)
    assert env.game_state != new_game(GameConfig(players=3, seed=6))  # seat 0, a bot, has acted
    assert np.array_equal(env.state(), encode(env.game_state, 0)) and env.state() in env.state_space
    assert np.array_equal(obs, encode(env.game_state, 1))
    assert not np.array_equal(env.state(), obs)  # the agent's view is relative to seat 1
    pz = quadropolis_v1.raw_env(players=3, normalize=True)
    pz.reset(seed=6)
    assert np.allclose(pz.state(), encode(pz.state_of_game, 0) / observation_high())
    assert pz.state() in pz.state_space


def test_the_parallel_api_holds_every_agent_and_one_acts() -> None:
    par = turn_based_aec_to_parallel(quadropolis_v1.env())
    obs, _ = par.reset(seed=3)
    assert set(obs) == {"player_0", "player_1"}
    movers = [a for a, o in obs.items() if o["action_mask"].any()]
    assert movers == ["player_0"]
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) if a in movers else 0 for a, o in obs.items()}
    obs, *_ = par.step(actions)
    assert sum(bool(o["action_mask"].any()) for o in obs.values()) == 1


@pytest.mark.filterwarnings("ignore:Observation")
def test_pettingzoos_api_tests_pass_with_the_new_options() -> None:
    from pettingzoo.test import api_test, parallel_api_test

    api_test(quadropolis_v1.env(normalize=True, render_mode="rgb_array"), num_cycles=100)
    parallel_api_test(turn_based_aec_to_parallel(quadropolis_v1.env(normalize=True)), num_cycles=100)
