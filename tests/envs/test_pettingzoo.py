"""``quadropolis_v1``: PettingZoo's own API, seed and render tests, the registry, masks,
relative observations, rewards and illegal actions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from quadropolis import GameConfig, IllegalMoveError, Mode, new_game, outcome
from quadropolis.envs import action_mask, encode, quadropolis_v1, views

CONFIGS = [{}, {"mode": "expert", "players": 3, "reward": "margin", "dense_reward": 0.1}]


# Dict observations with an action mask are PettingZoo's classic convention; api_test warns anyway.
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("options", CONFIGS)
def test_pettingzoos_api_test_passes(options: dict[str, Any]) -> None:
    api_test(quadropolis_v1.env(**options), num_cycles=300)


@pytest.mark.parametrize("options", CONFIGS)
def test_pettingzoos_seed_test_passes(options: dict[str, Any]) -> None:
    seed_test(lambda: quadropolis_v1.env(**options), num_cycles=300)


def test_pettingzoos_render_test_passes(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: quadropolis_v1.env(render_mode=render_mode))
    assert "Player 1" in capsys.readouterr().out  # "human" prints the board


def test_the_env_is_in_pettingzoos_registry() -> None:
    env = pettingzoo.make("aec", "quadropolis_v1", players=3)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env.metadata["name"] == "quadropolis_v1"


def _play(env: Any, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


def test_observations_are_seen_from_each_agent_and_masks_only_for_the_one_to_move() -> None:
    env = quadropolis_v1.raw_env(players=3)
    env.reset(seed=4)
    engine = new_game(GameConfig(mode=Mode.CLASSIC, players=3, seed=4))
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        assert np.array_equal(obs["observation"], encode(engine, seat))
        v = views(obs["observation"])
        assert v["seat_to_move"][(0 - seat) % 3] == 1  # seat 0 acts first
        if seat == 0:
            assert np.array_equal(obs["action_mask"], action_mask(engine))
        else:
            assert not obs["action_mask"].any()


def test_every_agent_gets_its_final_reward() -> None:
    env = quadropolis_v1.env(mode="expert", players=4)
    total = _play(env, seed=12)
    assert sum(total.values()) == pytest.approx(1.0)  # win shares (R13)
    margin = _play(quadropolis_v1.env(players=2, reward="margin"), seed=12)
    assert margin["player_0"] == -margin["player_1"]


def test_dense_rewards_add_up_to_each_final_score() -> None:
    env = quadropolis_v1.raw_env(players=2, dense_reward=1.0, reward="margin")
    total = _play(env, seed=21)
    scores = outcome(env.state_of_game).totals
    assert total["player_0"] == pytest.approx(scores[0] + scores[0] - scores[1])
    assert total["player_1"] == pytest.approx(scores[1] + scores[1] - scores[0])


def test_illegal_actions(caplog: pytest.LogCaptureFixture) -> None:
    raw = quadropolis_v1.raw_env()
    raw.reset(seed=1)
    with pytest.raises(IllegalMoveError, match="player_0: action 120"):
        raw.step(120)  # discard before taking
    wrapped = quadropolis_v1.env()
    wrapped.reset(seed=1)
    wrapped.step(120)
    assert "Illegal move" in caplog.text
    # the scheme's lower bound: a loss under win_share, never better than one
    assert wrapped.terminations["player_0"] and wrapped.rewards["player_0"] == 0.0
