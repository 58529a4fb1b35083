"""The Gymnasium and PettingZoo envs with the compiled engine selected (their observations and
masks computed natively from the game's native twin) give exactly what they give
with the Python engine: observations, masks, rewards, terminations, global states, step after
step."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from quadropolis import engine
from quadropolis.envs import make_gym_env, make_pettingzoo_env

CASES = [
    {"mode": "classic", "players": 2},
    {"mode": "classic", "players": 3, "normalize": True, "seat": None},
    {"mode": "classic", "players": 4, "urbanist_blocks": "square", "reward": "margin"},
    {"mode": "expert", "players": 2, "opponents": "greedy", "dense_reward": 0.1},
    {"mode": "expert", "players": 3, "all_parks_absorb": True, "normalize": True},
    {"mode": "expert", "players": 4, "seat": 2, "reward": "margin"},
]


def _episodes(choice: str, options: dict[str, Any], games: int = 3) -> list[tuple[Any, ...]]:
    """Every step's outputs of ``games`` episodes of random masked actions (an illegal action
    ends the last one)."""
    with engine.using(choice):
        env = make_gym_env(**options)
        rand = random.Random(7).random
        out: list[tuple[Any, ...]] = []
        for g in range(games):
            obs, info = env.reset(seed=100 + g)
            out.append((obs, info["action_mask"], env.state()))
            done, steps = False, 0
            while not done:
                legal = info["action_mask"].nonzero()[0]
                action = int(legal[int(rand() * len(legal))])
                if g == games - 1 and steps == 9:
                    action = int(np.flatnonzero(info["action_mask"] == 0)[0])  # illegal
                obs, reward, done, _, info = env.step(action)
                out.append((obs, info["action_mask"], env.state(), reward, info.get("illegal_action")))
                steps += 1
        return out


@pytest.mark.parametrize("options", CASES, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_native_observations_and_masks_equal_python(options: dict[str, Any]) -> None:
    python = _episodes("python", options)
    native = _episodes("native", options)
    assert len(native) == len(python)
    for a, b in zip(python, native, strict=True):
        for x, y in zip(a, b, strict=True):
            if isinstance(x, np.ndarray):
                assert x.dtype == y.dtype and np.array_equal(x, y)
            else:
                assert x == y
    assert python[-1][-1] is True  # the illegal action was played


def _aec_episodes(choice: str, options: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every observation (of every agent), reward and termination of two AEC episodes."""
    with engine.using(choice):
        env = make_pettingzoo_env(wrapped=False, **options)
        rand = random.Random(3).random
        out: list[tuple[Any, ...]] = []
        for g in range(2):
            env.reset(seed=200 + g)
            for agent in env.agent_iter():
                observations = [env.observe(a) for a in env.possible_agents]
                out.append(
                    (*(o["observation"] for o in observations), *(o["action_mask"] for o in observations))
                )
                out.append((env.state(), *env.rewards.values(), *env.terminations.values()))
                if env.terminations[agent]:
                    env.step(None)
                    continue
                legal = env.observe(agent)["action_mask"].nonzero()[0]
                env.step(int(legal[int(rand() * len(legal))]))
        return out


@pytest.mark.parametrize("options", CASES[:3] + CASES[4:], ids=lambda o: "-".join(str(v) for v in o.values()))
def test_native_pettingzoo_observations_equal_python(options: dict[str, Any]) -> None:
    options = {k: v for k, v in options.items() if k not in ("seat", "opponents")}
    python = _aec_episodes("python", options)
    native = _aec_episodes("native", options)
    assert len(python) == len(native) > 100
    for a, b in zip(python, native, strict=True):
        for x, y in zip(a, b, strict=True):
            if isinstance(x, np.ndarray):
                assert x.dtype == y.dtype and np.array_equal(x, y)
            else:
                assert x == y
