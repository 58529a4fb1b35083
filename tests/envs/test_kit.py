"""The research kit: opponents as objects, self-play and a league,
the evaluation protocol and policies entering the arena."""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from quadropolis import GameConfig, Mode
from quadropolis.arena import rating_against, run_tournament, wilson_interval
from quadropolis.bots import BotError, GreedyBot, make_bot
from quadropolis.cli import main
from quadropolis.envs import PolicyBot, encode, evaluate, make_gym_env
from quadropolis.envs.layout import observation_high
from quadropolis.envs.selfplay import SelfPlay

POLICY_MODULE = '''
import numpy as np

def first_legal(observation, action_mask):
    """A deterministic policy: the lowest legal action."""
    return int(np.flatnonzero(action_mask)[0])
'''


def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    return int(np.flatnonzero(action_mask)[0])


class Recorder:
    """A policy that plays the lowest legal action and keeps what it was shown."""

    def __init__(self) -> None:
        self.seen: list[np.ndarray] = []

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.seen.append(observation.copy())
        return first_legal(observation, action_mask)


class SB3Like:
    """stable-baselines3's shape: ``predict(obs, action_masks=..., deterministic=...)``."""

    def __init__(self) -> None:
        self.calls = 0

    def predict(self, obs: np.ndarray, action_masks: np.ndarray, deterministic: bool = False) -> Any:
        self.calls += 1
        assert action_masks.dtype == bool and deterministic
        return np.array(int(np.flatnonzero(action_masks)[-1])), None


def _play(env: Any, seed: int) -> list[np.ndarray]:
    obs, info = env.reset(seed=seed)
    seen, done = [obs], False
    while not done:
        obs, _, done, _, info = env.step(first_legal(obs, info["action_mask"]))
        seen.append(obs)
    return seen


# --- opponents as objects -------------------------------------------------------------------


def test_a_bot_object_plays_as_its_spec_does() -> None:
    by_spec = _play(make_gym_env(opponents="greedy"), seed=3)
    by_object = _play(make_gym_env(opponents=GreedyBot()), seed=3)
    assert len(by_spec) == len(by_object) and all(
        np.array_equal(a, b) for a, b in zip(by_spec, by_object, strict=True)
    )


def test_policies_are_opponents_that_see_their_own_seat() -> None:
    recorder, sb3 = Recorder(), SB3Like()
    env = make_gym_env(players=3, opponents=[recorder, sb3], normalize=True)
    env.reset(seed=2)
    state = env.game_state.copy()
    _play(env, seed=2)
    assert recorder.seen and sb3.calls > 0
    assert recorder.seen[0].max() <= 1.0  # the env's normalize reaches its opponents
    # seat 1 moved first among the opponents: it saw the position from its own seat
    np.testing.assert_allclose(
        recorder.seen[0] * observation_high(), encode(_after_seat0(state), 1), rtol=1e-6
    )


def _after_seat0(state: Any) -> Any:
    """``state`` after seat 0's first take and build by :func:`first_legal`."""
    from quadropolis.envs import action_mask, action_to_move
    from quadropolis.rules import apply_unchecked

    s = state.copy()
    while s.current_player == 0:
        apply_unchecked(s, action_to_move(int(np.flatnonzero(action_mask(s))[0])))
    return s


def test_a_policy_outside_the_mask_is_a_bot_error() -> None:
    env = make_gym_env(opponents=lambda obs, mask: 120)  # discard before taking: never legal first
    with pytest.raises(BotError, match="mask forbids"):
        _play(env, seed=1)


# --- self-play and the league -------------------------------------------------------------


class Snapshots:
    """A learner's ``snapshot``: each call freezes a new policy (counted)."""

    def __init__(self) -> None:
        self.taken = 0

    def __call__(self) -> Any:
        self.taken += 1
        return first_legal


def test_self_play_refreshes_its_frozen_copy_on_schedule() -> None:
    snaps = Snapshots()
    env = SelfPlay(make_gym_env(players=3), snaps, refresh=2)
    assert snaps.taken == 1  # the first frozen copy, at once
    names = []
    for episode in range(5):
        _, info = env.reset(seed=episode)
        names.append(info["opponents"])
    assert snaps.taken == 3  # at episodes 0, 2 and 4
    assert names == [["self@0"] * 2] * 2 + [["self@1"] * 2] * 2 + [["self@2"] * 2]
    assert env.episodes == 5 and env.latest == "self@2"
    _, _, done, _, _ = env.step(first_legal(*_obs_and_mask(env)))
    assert not done


def _obs_and_mask(env: Any) -> tuple[np.ndarray, np.ndarray]:
    return env.unwrapped.state(), env.unwrapped.action_masks().astype(np.int8)


def test_a_league_mixes_checkpoints_and_bots() -> None:
    env = SelfPlay(
        make_gym_env(players=4), Snapshots(), refresh=1, league=3, bots=["greedy", "random"], seed=0
    )
    seen: set[str] = set()
    for episode in range(30):
        _, info = env.reset(seed=episode)
        seen.update(info["opponents"])
        assert len(env.checkpoints) <= 3
    assert {"greedy", "random"} <= seen
    assert len([n for n in seen if n.startswith("self@")]) > 3  # checkpoints come and go
    assert {n for n, _ in env.checkpoints} == {
        "self@27",
        "self@28",
        "self@29",
    }  # one per reset after the first


def test_self_play_refuses_a_foreign_env() -> None:
    import gymnasium

    from quadropolis import QuadropolisError

    with pytest.raises(QuadropolisError, match="wraps the single Quadropolis env"):
        SelfPlay(gymnasium.make("CartPole-v1"), Snapshots())


# --- the evaluation protocol ----------------------------------------------------------------


def test_evaluate_plays_the_arenas_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "kit_policy.py").write_text(POLICY_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = evaluate(first_legal, "random", games=4, seed=11)
    arena = run_tournament(
        GameConfig(mode=Mode.CLASSIC, players=2), ["python:kit_policy:first_legal", "random"], 4, 11, jobs=1
    )
    assert [r[2] for r in result.results] == [g.scores[g.seat_of(0)] for g in arena.games]
    assert [r[1] for r in result.results] == [0, 1, 0, 1]  # seats rotated
    assert [r[0] for r in result.results] == [11, 12, 13, 14]
    e = arena.entrants[0]
    assert result.win_share == pytest.approx(e.win_rate) and result.mean_vp == pytest.approx(e.mean_score)
    assert result.win_share_ci95 == wilson_interval(e.wins, 4)
    sd = float(np.std([r[2] for r in result.results], ddof=1))
    assert result.mean_vp_ci95[1] - result.mean_vp == pytest.approx(1.959963984540054 * sd / 2)
    assert result.margin == pytest.approx(np.mean([r[3] for r in result.results]))


def test_evaluate_rates_on_the_ladder_only_against_ladder_bots() -> None:
    greedy = evaluate(make_bot("greedy"), "random", games=2, seed=1)
    assert greedy.win_share == 1.0 and greedy.rating is not None and greedy.rating > 429
    assert evaluate(first_legal, first_legal, games=2).rating is None  # no ladder opponent
    assert "win share" in str(greedy) and greedy.to_json()["games"] == 2


def test_rating_against_fixed_opponents() -> None:
    # 3 wins and 1 loss against a 1500, plus the prior's virtual draw: 3.5 of 5
    assert rating_against([(1500, 1), (1500, 1), (1500, 1), (1500, 0)]) == pytest.approx(
        1500 + 400 * math.log10(0.7 / 0.3)
    )
    assert rating_against([(1000, 0.5), (2000, 0.5)]) == pytest.approx(1500, abs=1e-6)


def test_a_policy_enters_the_arena_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cli_policy.py").write_text(POLICY_MODULE + "\nBOT = None\n")
    monkeypatch.chdir(tmp_path)  # the command line imports from the working directory
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    status = main(
        [
            "arena",
            "--bot",
            "python:cli_policy:first_legal",
            "--bot",
            "random",
            "--games",
            "2",
            "--jobs",
            "1",
            "--quiet",
        ]
    )
    assert status == 0 and "python:cli_policy:first_legal" in out.getvalue()
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    bad = main(["arena", "--bot", "python:cli_policy:nothing", "--bot", "random", "--games", "2", "--quiet"])
    assert bad != 0 and "has no attribute nothing" in err.getvalue()


def test_policy_bot_uses_normalised_observations_when_asked() -> None:
    recorder = Recorder()
    bot = PolicyBot(recorder, normalize=True)
    from quadropolis import new_game
    from quadropolis.bots import observe

    state = new_game(GameConfig(seed=5))
    move = bot.choose(observe(state), None)  # type: ignore[arg-type]
    assert str(move) and recorder.seen[0].max() <= 1.0
    np.testing.assert_allclose(recorder.seen[0], encode(state, 0) / observation_high(), rtol=1e-6)
