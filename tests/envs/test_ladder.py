"""The cheap ladder of opponents (:data:`quadropolis.envs.LADDER`): every rung is a bot spec the
env takes, the rungs are ordered by their measured strength, and the epsilon-greedy rungs are
reproducible from the env's seed."""

from __future__ import annotations

import numpy as np
import pytest

from quadropolis import Mode
from quadropolis.bots import make_bot
from quadropolis.envs import LADDER, ladder_specs, make_gym_env


@pytest.mark.parametrize("spec", ladder_specs())
def test_every_rung_is_an_opponent_that_finishes_episodes(spec: str) -> None:
    make_bot(spec)  # a valid spec
    env = make_gym_env(opponents=spec)
    _, info = env.reset(seed=3)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.game_state.is_over and env.opponents[0].name == spec


def test_the_ladder_climbs_from_random_to_above_greedy() -> None:
    assert ladder_specs()[0] == "random" and "greedy" in ladder_specs()
    for mode in (Mode.CLASSIC, Mode.EXPERT):
        strengths = [rung.vs_greedy[mode] for rung in LADDER]
        assert strengths == sorted(strengths), mode
        assert all(0.0 <= s <= 1.0 for s in strengths)
    assert all(rung.step_cost >= 1.0 and rung.what for rung in LADDER)


def test_epsilon_greedy_rungs_are_reproducible_from_the_seed() -> None:
    def game(opponent: str, seed: int) -> list[str]:
        env = make_gym_env(opponents=opponent)
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        return [str(m) for m in env.game_state.cities[1]]

    assert game("greedy:epsilon=0.6", 5) == game("greedy:epsilon=0.6", 5)
    assert game("greedy:epsilon=0.6", 5) != game("greedy", 5)  # its random moves differ from greedy
