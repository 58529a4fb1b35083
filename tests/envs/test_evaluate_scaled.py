"""Evaluation that scales and ranks: :func:`quadropolis.envs.evaluate` in worker processes plays
the very games of one process, and :func:`quadropolis.envs.evaluate_ladder` rates agents that
never beat ``greedy`` apart from each other, where a rating against ``greedy`` alone cannot."""

from __future__ import annotations

import numpy as np
import pytest

from quadropolis.bots import make_bot
from quadropolis.envs import LadderEvaluation, evaluate, evaluate_ladder
from quadropolis.errors import ConfigError


def _first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    """A deterministic policy (a closure would do as well: the workers are forked)."""
    return int(np.flatnonzero(mask)[0])


def test_jobs_play_the_games_of_one_process_game_for_game() -> None:
    one = evaluate(_first_legal, "greedy:epsilon=0.3", games=6, seed=11)
    three = evaluate(lambda o, m: _first_legal(o, m), "greedy:epsilon=0.3", games=6, seed=11, jobs=3)
    assert three.results == one.results
    assert (three.win_share, three.mean_vp, three.margin) == (one.win_share, one.mean_vp, one.margin)
    assert [r[0] for r in three.results] == list(range(11, 17))  # in game order


def test_bad_jobs_are_refused() -> None:
    for jobs in (0, 1.5, True):
        with pytest.raises(ConfigError, match="jobs"):
            evaluate(_first_legal, games=2, jobs=jobs)  # type: ignore[arg-type]


def test_several_rungs_rank_agents_that_never_beat_greedy() -> None:
    weak = make_bot("random")
    better = make_bot("greedy:epsilon=0.6")
    # Against greedy alone both lose every game: one and the same rating
    alone = [evaluate(bot, "greedy", games=4, seed=3) for bot in (weak, better)]
    assert [e.win_share for e in alone] == [0.0, 0.0]
    assert alone[0].rating == alone[1].rating
    ladder = [evaluate_ladder(bot, games=4, seed=3, jobs=2) for bot in (weak, better)]
    assert all(isinstance(e, LadderEvaluation) for e in ladder)
    assert [e.rungs for e in ladder] == [("random", "easy", "greedy")] * 2
    assert ladder[0].rating < ladder[1].rating
    for e in ladder:
        assert e.rating_ci95[0] < e.rating < e.rating_ci95[1]
        assert e.evaluations[2].win_share == 0.0 and e.evaluations[0].games == 4
    assert "vs greedy" in str(ladder[1]) and ladder[1].to_json()["evaluations"][0]["games"] == 4


def test_a_rung_without_a_rating_is_refused() -> None:
    with pytest.raises(ConfigError, match="rated ladder"):
        evaluate_ladder(_first_legal, ["greedy:epsilon=0.3"], games=2)


def test_the_ladder_rating_on_the_batched_env_is_the_one_of_single_games() -> None:
    single = evaluate_ladder(lambda o, m: int(np.argmax(m)), games=4, seed=5)
    batched = evaluate_ladder(lambda o, m: m.argmax(1), games=4, seed=5, batched=True, batch=3)
    assert [e.results for e in batched.evaluations] == [e.results for e in single.evaluations]
    assert batched.rating == single.rating and batched.rating_ci95 == single.rating_ci95
