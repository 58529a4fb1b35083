"""Self-play and a league on the batched env (:class:`quadropolis.envs.league.League`): the
schedule of snapshots, one call of each snapshot per step for all its games, a bot of the pool
playing exactly what the engine's own bot plays, and the SB3 adapter training against it."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from quadropolis.envs.league import League
from quadropolis.envs.vector import QuadropolisVectorEnv
from quadropolis.errors import ConfigError


class _Snapshot:
    """A frozen batched policy (the first legal action) that records the batch of every call."""

    def __init__(self, calls: list[tuple[int, int]], index: int) -> None:
        self.calls, self.index = calls, index

    def __call__(self, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> Any:
        assert observations.shape == (len(masks), 2409)
        self.calls.append((self.index, len(masks)))
        return masks.argmax(1)


def _first_legal(masks: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    return masks.argmax(1).astype(np.int64)  # type: ignore[no-any-return]


def _play(env: QuadropolisVectorEnv, steps: int, seed: int) -> list[dict[str, Any]]:
    """The infos of ``steps`` steps of the first legal action in every game."""
    _, info = env.reset(seed=seed)
    infos = []
    for _ in range(steps):
        _, _, _, _, info = env.step(_first_legal(info["action_mask"]))
        infos.append(info)
    return infos


def test_plain_self_play_snapshots_on_schedule_one_call_per_step() -> None:
    calls: list[tuple[int, int]] = []
    taken: list[int] = []

    def snapshot() -> _Snapshot:
        taken.append(len(taken))
        return _Snapshot(calls, taken[-1])

    league = League(snapshot, refresh=8)
    assert league.latest is None and not taken  # nothing taken before the league first plays
    env = QuadropolisVectorEnv(8, opponents=league, autoreset_mode="same_step")
    infos = _play(env, 200, seed=1)
    ended = sum(int(i.get("_final_scores", np.zeros(8, bool)).sum()) for i in infos)
    assert ended >= 8  # every game finished an episode at least once
    # a snapshot when the league first played, then one every 8 episodes begun
    assert len(taken) == 1 + (league.episodes - 1) // 8 and league.latest == f"self@{len(taken) - 1}"
    # at a step, every game waiting for one snapshot is decided in one call of it
    assert max(size for _, size in calls) > 1
    assert all(league.opponents_of(g) == {0: name} for g in range(8) for name in [league.opponents_of(g)[0]])


def _episodes(env: QuadropolisVectorEnv, steps: int, league: League | None) -> dict[tuple[int, int], Any]:
    """Each finished episode's (opponent's name, final scores) by (game, episode seed)."""
    _, info = env.reset(seed=40)
    out = {}
    for _ in range(steps):
        _, _, done, _, info = env.step(_first_legal(info["action_mask"]))
        seeds = env.episode_seeds  # NEXT_STEP: the ended episodes are still in place
        for g in np.flatnonzero(done).tolist():
            name = league.opponents_of(g)[0] if league else "greedy"
            out[g, seeds[g]] = (name, info["final_scores"][g].tolist())
    return out


def test_a_bot_of_the_pool_plays_what_the_engines_own_bot_plays() -> None:
    league = League(lambda: _Snapshot([], 0), league=1, bots=["greedy"], latest=0.0, seed=3)
    mixed = _episodes(QuadropolisVectorEnv(16, opponents=league), 80, league)
    native = _episodes(QuadropolisVectorEnv(16, opponents="greedy"), 80, None)
    names = {name for name, _ in mixed.values()}
    assert "greedy" in names and names - {"greedy"} <= {f"self@{k}" for k in range(league.episodes)}
    both = [key for key, (name, _) in mixed.items() if name == "greedy" and key in native]
    assert len(both) >= 3
    for key in both:  # the same episode as against the engine's greedy, to the same end
        assert mixed[key] == native[key]


def test_bad_schedules_are_refused() -> None:
    with pytest.raises(ConfigError):
        League(lambda: None, refresh=0)
    with pytest.raises(ConfigError):
        League(lambda: None, latest=1.5)


def test_the_sb3_adapter_trains_against_a_league_of_its_own_snapshots() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from quadropolis.envs.sb3 import QuadropolisSB3VecEnv, frozen_copy

    model: Any = None
    league = League(lambda: frozen_copy(model.policy), refresh=4, league=2, bots=["random"], seed=0)
    env = QuadropolisSB3VecEnv(4, opponents=league, normalize=True)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    assert league.latest is not None and league.episodes >= 1
    assert [name for name, _ in league.checkpoints][-1] == league.latest


def test_selfplay_on_the_batched_env_points_to_the_league() -> None:
    from quadropolis.envs.selfplay import SelfPlay

    with pytest.raises(ConfigError, match="League"):
        SelfPlay(QuadropolisVectorEnv(2), snapshot=lambda: None)  # type: ignore[arg-type]


class _CountingGames:
    """The engine's batch, counting the rounds of opponents' moves (``waiting`` calls that
    found games waiting)."""

    def __init__(self, games: Any) -> None:
        self.games, self.rounds = games, 0

    def waiting(self, games: Any, opponents: Any) -> int:
        k = int(self.games.waiting(games, opponents))
        self.rounds += k > 0
        return k

    def __getattr__(self, name: str) -> Any:
        return getattr(self.games, name)


def test_a_league_holding_every_other_seat_is_called_once_per_round_of_moves() -> None:
    calls: list[tuple[int, int]] = []
    league = League(lambda: _Snapshot(calls, 0), refresh=10**6)  # one snapshot: one member
    env = QuadropolisVectorEnv(16, players=4, seat=None, opponents=league)
    counted = env._games = _CountingGames(env._games)
    _, info = env.reset(seed=9)
    for _ in range(30):  # the games drift apart: at a round, games wait for different seats
        _, _, _, _, info = env.step(_first_legal(info["action_mask"]))
    assert len(calls) == counted.rounds > 0  # one call per round, for every game waiting then
