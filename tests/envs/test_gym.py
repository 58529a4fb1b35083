"""``Quadropolis-v1``: Gymnasium's own env checker, vector envs, seeding, rewards, illegal
actions and rendering."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from quadropolis import ConfigError, GameConfig, IllegalMoveError, Mode, QuadropolisError, new_game, outcome
from quadropolis.envs import GYM_ID, NUM_ACTIONS, OBSERVATION_SIZE, action_mask, encode, make_gym_env


def _random_action(info: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {
            "mode": "expert",
            "players": 3,
            "seat": None,
            "opponents": ["greedy", "random"],
            "reward": "margin",
            "dense_reward": 0.1,
        },
    ],
)
def test_gymnasiums_env_checker_passes(options: dict[str, object]) -> None:
    env = gymnasium.make(GYM_ID, **options)
    check_env(env.unwrapped)  # reset/step determinism, spaces, fresh data, render modes, close
    assert env.observation_space.shape == (OBSERVATION_SIZE,) and env.action_space.n == NUM_ACTIONS
    env.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_envs_play_whole_games(mode: str) -> None:
    envs = gymnasium.make_vec(GYM_ID, num_envs=2, vectorization_mode=mode)
    obs, info = envs.reset(seed=[5, 6])
    assert obs.shape == (2, OBSERVATION_SIZE) and info["action_mask"].shape == (2, NUM_ACTIONS)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(200):
        # after a terminal step the next action is ignored (autoreset): the mask is all ones
        actions = [int(rng.choice(np.flatnonzero(m))) for m in info["action_mask"]]
        obs, reward, terminated, truncated, info = envs.step(np.array(actions))
        assert not truncated.any() and "illegal_action" not in info
        for k in np.flatnonzero(terminated):
            finished += 1
            assert reward[k] in (0.0, 0.5, 1.0)  # 2-player win share
    envs.close()
    assert finished >= 2  # a 2-player Classic game is 16 takes and up to 16 builds per seat


def test_reset_with_a_seed_plays_the_engines_game_of_that_seed() -> None:
    env = make_gym_env(mode="expert", players=2, seat=0)
    obs, info = env.reset(seed=1234)
    engine = new_game(GameConfig(mode=Mode.EXPERT, players=2, seed=1234))
    assert env.game_state == engine
    assert np.array_equal(obs, encode(engine, 0)) and np.array_equal(info["action_mask"], action_mask(engine))
    again, _ = env.reset(seed=1234)
    assert np.array_equal(obs, again)
    other, _ = env.reset(seed=1235)
    assert not np.array_equal(obs, other)
    # the agent in seat 1: seat 0 (a bot) has acted before the first observation
    env1 = make_gym_env(seat=1)
    _, info = env1.reset(seed=3)
    assert env1.game_state.current_player == 1 and info["seat"] == 1


def test_the_dense_reward_adds_up_to_the_final_score() -> None:
    env = make_gym_env(dense_reward=1.0, reward="win_share", opponents="greedy")
    _, info = env.reset(seed=8)
    rng = np.random.default_rng(8)
    total, done = 0.0, False
    while not done:
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        _, r, done, _, info = env.step(_random_action(info, rng))
        total += float(r)
    result = outcome(env.game_state)
    share = 1 / len(result.winners) if 0 in result.winners else 0.0
    assert total == pytest.approx(result.totals[0] + share)
    assert info["scores"] == result.totals and info["winners"] == result.winners
    assert info["action_mask"].all() and env.action_masks().all()  # pgx's convention at the end
    with pytest.raises(QuadropolisError, match="episode is over"):
        env.step(0)


def test_margin_reward() -> None:
    env = make_gym_env(reward="margin")
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    done = False
    while not done:
        _, r, done, _, info = env.step(_random_action(info, rng))
    totals = info["scores"]
    assert r == totals[0] - totals[1]


def test_illegal_actions_end_the_episode_or_raise() -> None:
    env = make_gym_env(illegal_reward=-5.0)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, r, terminated, truncated, info = env.step(illegal)
    assert (r, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)
    strict = make_gym_env(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalMoveError, match="must first take a building"):
        strict.step(120)  # discard while a building must be taken first
    with pytest.raises(IllegalMoveError, match="no such action"):
        strict.step(500)


def test_render_shows_the_board_without_the_seed() -> None:
    env = make_gym_env(render_mode="ansi")
    env.reset(seed=987654)
    text = env.render()
    assert isinstance(text, str) and "L1" in text and "Player 1" in text  # the engine's text board
    assert "987654" not in text
    assert make_gym_env().render() is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "chess"}, "mode"),
        ({"players": 5}, "players"),
        ({"seat": 2}, "seat"),
        ({"players": 3, "opponents": ["random"]}, r"need 2 opponent\(s\)"),
        ({"opponents": 42}, "an opponent is a bot spec"),
        ({"opponents": "nobody"}, "unknown bot"),
        ({"reward": "elo"}, "reward"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"render_mode": "rgb"}, "render_mode"),
        ({"reward": "margin", "illegal_reward": -1.0}, "illegal_reward must be at most -337"),
    ],
)
def test_bad_options_are_config_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(QuadropolisError, match=message):
        make_gym_env(**options)
    assert issubclass(ConfigError, QuadropolisError)
