"""The batched env's final results (``final_scores``, ``winners``, ``margin``), which the
compiled engine keeps when it computes a finished game's final reward, against the Python rules
of record (:func:`quadropolis.outcome.outcome`) scoring the very same finished game again."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from quadropolis.envs.vector import QuadropolisVectorEnv
from quadropolis.outcome import outcome


@pytest.mark.parametrize(
    "options",
    [
        {"mode": "classic", "players": 2, "opponents": "greedy"},
        {"mode": "classic", "players": 3, "seat": None, "reward": "margin"},
        {
            "mode": "expert",
            "players": 4,
            "opponents": ["random", "greedy", "random"],
            "all_parks_absorb": True,
        },
        {"mode": "expert", "players": 2, "urbanist_blocks": "square", "seat": 1},
    ],
)
def test_final_results_equal_the_python_rules_on_the_finished_game(options: dict[str, Any]) -> None:
    env = QuadropolisVectorEnv(6, **options)
    rng = np.random.default_rng(7)
    _, info = env.reset(seed=300)
    finished = 0
    while finished < 12:
        masks = info["action_mask"]
        actions = (rng.random(masks.shape) * masks).argmax(1)
        _, _, terminated, _, info = env.step(actions)
        if not terminated.any():
            assert "final_scores" not in info
            continue
        assert np.array_equal(info["_final_scores"], terminated & ~info["illegal_action"])
        for i in np.flatnonzero(terminated):
            # NEXT_STEP: the finished game stays in place until the game's next step
            result = outcome(env.game_state(int(i)))
            agent = int(info["seat"][i])
            totals = result.totals
            assert tuple(info["final_scores"][i]) == totals
            assert tuple(np.flatnonzero(info["winners"][i])) == result.winners
            best_other = max(t for p, t in enumerate(totals) if p != agent)
            assert info["margin"][i] == totals[agent] - best_other
            finished += 1
        others = ~info["_final_scores"]
        assert not info["final_scores"][others].any() and not info["winners"][others].any()
        assert not info["margin"][others].any()


def test_an_episode_ended_by_an_illegal_action_has_no_results() -> None:
    env = QuadropolisVectorEnv(2, opponents="greedy")
    _, info = env.reset(seed=5)
    illegal = np.array([int(np.flatnonzero(info["action_mask"][0] == 0)[0]), 0])
    illegal[1] = int(np.flatnonzero(info["action_mask"][1])[0])
    _, _, terminated, _, info = env.step(illegal)
    assert terminated[0] and info["illegal_action"][0] and not info["_final_scores"][0]
    assert not info["final_scores"][0].any()
