"""The batched env under Gymnasium's SAME_STEP autoreset, its final results, its first
episode's seats under ``seat=None``, every ladder rung as its opponent and set_opponents:
each checked against Gymnasium's own SyncVectorEnv of single envs or the NEXT_STEP batch."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.vector import AutoresetMode

import quadropolis.envs  # noqa: F401  (registers Quadropolis-v1)
from quadropolis.envs.vector import QuadropolisVectorEnv
from quadropolis.errors import ConfigError


def _random_legal(rng: np.random.Generator, masks: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    return (rng.random(masks.shape) * masks).argmax(1).astype(np.int64)  # type: ignore[no-any-return]


def _pair(mode: AutoresetMode, **options: Any) -> tuple[Any, Any]:
    """The batched env and SyncVectorEnv of single envs, both with autoreset ``mode``."""
    batched = gymnasium.make_vec(
        "Quadropolis-v1", 4, vectorization_mode="vector_entry_point", autoreset_mode=mode, **options
    )
    sync = gymnasium.make_vec(
        "Quadropolis-v1", 4, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}, **options
    )
    return batched, sync


def test_make_vec_reports_same_step_with_gymnasiums_names() -> None:
    same = gymnasium.make_vec(
        "Quadropolis-v1", 2, vectorization_mode="vector_entry_point", autoreset_mode=AutoresetMode.SAME_STEP
    )
    assert isinstance(same.unwrapped, QuadropolisVectorEnv)
    assert same.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    by_value = QuadropolisVectorEnv(2, autoreset_mode="SameStep")
    assert by_value.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    default = QuadropolisVectorEnv(2)
    assert default.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert QuadropolisVectorEnv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP  # class untouched
    with pytest.raises(ConfigError, match="autoreset_mode"):
        QuadropolisVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED)


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
def test_seat_none_plays_sync_vector_envs_first_episodes(mode: AutoresetMode) -> None:
    """With ``seat=None`` the first episode's seats (and so the whole first episode) are
    SyncVectorEnv's: the single env draws the seat from np_random seeded with the game seed."""
    batched, sync = _pair(mode, players=3, seat=None, opponents="greedy", reward="margin")
    b, ib = batched.reset(seed=11)
    a, ia = sync.reset(seed=11)
    assert np.array_equal(ib["seat"], ia["seat"]) and len(set(ib["seat"].tolist())) > 1
    rng = np.random.default_rng(0)
    while True:
        assert np.array_equal(a, b) and np.array_equal(ia["action_mask"], ib["action_mask"])
        actions = _random_legal(rng, ib["action_mask"])
        a, ra, ta, _, ia = sync.step(actions)
        b, rb, tb, _, ib = batched.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        if tb.any():
            break


def test_same_step_ends_episodes_as_sync_vector_env() -> None:
    """The step ending a game's episode: the final reward, terminated, the last observation in
    final_obs and the ended episode's infos in final_info as SyncVectorEnv(SAME_STEP) gives
    them; the final scores and winners are the single env's; the new episode starts at once."""
    batched, sync = _pair(AutoresetMode.SAME_STEP, players=2, seat=None, opponents="greedy")
    _, ib = batched.reset(seed=5)
    sync.reset(seed=5)
    rng = np.random.default_rng(1)
    while True:
        actions = _random_legal(rng, ib["action_mask"])
        _, ra, ta, _, ia = sync.step(actions)
        b, rb, tb, _, ib = batched.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        if tb.any():
            break
    ended = np.flatnonzero(tb)
    assert np.array_equal(ib["_final_obs"], ia["_final_obs"])
    fa, fb = ia["final_info"], ib["final_info"]
    for i in ended:
        assert np.array_equal(ib["final_obs"][i], ia["final_obs"][i])
        assert np.array_equal(fb["action_mask"][i], fa["action_mask"][i]) and fb["seat"][i] == fa["seat"][i]
        assert tuple(ib["final_scores"][i]) == fa["scores"][i]
        assert tuple(np.flatnonzero(ib["winners"][i])) == fa["winners"][i]
        agent = fa["seat"][i]
        others = [s for p, s in enumerate(fa["scores"][i]) if p != agent]
        assert ib["margin"][i] == fa["scores"][i][agent] - max(others)
        # the next episode is under way: its first observation, a legal mask, not all ones
        assert not np.array_equal(b[i], ib["final_obs"][i]) and 0 < ib["action_mask"][i].sum() < 121
    assert np.array_equal(ib["_final_scores"], tb)
    assert batched.unwrapped.episode_seeds[ended[0]] != 5 + ended[0]


def test_same_step_is_next_step_without_the_reset_steps() -> None:
    """One game, several episodes: SAME_STEP's observations, rewards and results are
    NEXT_STEP's with the steps that only reset taken out."""
    options: dict[str, Any] = {
        "players": 3,
        "seat": None,
        "opponents": ["greedy", "random"],
        "dense_reward": 0.5,
    }
    nxt = QuadropolisVectorEnv(1, **options)
    same = QuadropolisVectorEnv(1, autoreset_mode=AutoresetMode.SAME_STEP, **options)
    obs_n, info_n = nxt.reset(seed=21)
    obs_s, info_s = same.reset(seed=21)
    rng = np.random.default_rng(2)
    episodes = 0
    while episodes < 3:
        assert np.array_equal(obs_n, obs_s) and np.array_equal(info_n["seat"], info_s["seat"])
        actions = _random_legal(rng, info_s["action_mask"])
        obs_s, r_s, t_s, _, info_s = same.step(actions)
        obs_n, r_n, t_n, _, info_n = nxt.step(actions)
        assert (r_s[0], t_s[0]) == (r_n[0], t_n[0])
        if t_n[0]:
            episodes += 1
            assert np.array_equal(info_s["final_obs"][0], obs_n[0])
            assert np.array_equal(info_s["final_scores"], info_n["final_scores"])
            assert info_n["_final_scores"][0] and info_n["margin"][0] == info_s["margin"][0]
            obs_n, r_n, t_n, _, info_n = nxt.step(actions)  # NEXT_STEP: the reset step
            assert r_n[0] == 0.0 and not t_n[0]
    assert same.episode_seeds == nxt.episode_seeds


def test_restart_refuses_a_game_still_playing() -> None:
    venv = QuadropolisVectorEnv(2, autoreset_mode=AutoresetMode.SAME_STEP)
    venv.reset(seed=0)
    before = venv.episode_seeds
    outputs = venv._outputs()
    assert venv._games.restart(np.array([1], np.int32), *outputs) == 0
    assert venv.episode_seeds == before


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3, "seat": 1, "opponents": ["greedy:epsilon=0.3", "random"]},
        {"players": 3, "seat": 1, "opponents": ["easy", "greedy"]},
        {"players": 3, "seat": 1, "opponents": ["mcts:iterations=20", "greedy:epsilon=0.6"]},
        {"players": 4, "seat": None, "opponents": "greedy:epsilon=0.3"},  # one bot, three seats
        {"players": 2, "seat": None, "opponents": "greedy:epsilon=0.1", "reward": "margin"},
    ],
)
def test_ladder_rungs_as_opponents_play_the_single_envs_games(options: dict[str, Any]) -> None:
    """Bots the engine does not play natively play, from the same seeds, the single env's games
    (the same generators per seat), through a whole first episode and into the second."""
    batched, sync = _pair(AutoresetMode.SAME_STEP, **options)
    b, ib = batched.reset(seed=3)
    a, ia = sync.reset(seed=3)
    rng = np.random.default_rng(4)
    for _ in range(200):
        assert np.array_equal(a, b) and np.array_equal(ia["action_mask"], ib["action_mask"])
        actions = _random_legal(rng, ib["action_mask"])
        a, ra, ta, _, ia = sync.step(actions)
        b, rb, tb, _, ib = batched.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        if tb.any():
            for i in np.flatnonzero(tb):
                assert np.array_equal(ib["final_obs"][i], ia["final_obs"][i])
                assert tuple(ib["final_scores"][i]) == ia["final_info"]["scores"][i]
            return
    raise AssertionError("no episode ended in 200 steps")


def _steps(venv: QuadropolisVectorEnv, steps: int) -> list[npt.NDArray[Any]]:
    """``steps`` steps of random legal actions (a fixed generator): the observations and rewards."""
    rng = np.random.default_rng(9)
    masks = venv.action_masks().astype(np.int8)
    out: list[npt.NDArray[Any]] = []
    for _ in range(steps):
        obs, rewards, _, _, infos = venv.step(_random_legal(rng, masks))
        masks = infos["action_mask"]
        out += [obs, rewards]
    return out


def _same(x: list[npt.NDArray[Any]], y: list[npt.NDArray[Any]]) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(x, y, strict=True))


def test_set_opponents_changes_the_opponents_from_the_next_reset() -> None:
    def batch(opponents: str) -> QuadropolisVectorEnv:
        venv = QuadropolisVectorEnv(3, seat=1, opponents=opponents)
        venv.reset(seed=8)
        return venv

    venv = batch("greedy")
    venv.set_opponents("greedy:epsilon=0.6")
    with pytest.raises(ConfigError):
        venv.set_opponents(["random", "random"])  # 2 players: one opponent; the last call stands
    with pytest.raises(ConfigError):
        venv.set_opponents(7)
    # until the next reset, the games go on against greedy
    assert _same(_steps(venv, 30), _steps(batch("greedy"), 30))
    venv.reset(seed=8)
    changed = _steps(venv, 30)
    assert _same(changed, _steps(batch("greedy:epsilon=0.6"), 30))
    assert not _same(changed, _steps(batch("greedy"), 30))


def test_without_the_compiled_engine_the_fallback_keeps_the_autoreset_mode() -> None:
    from quadropolis import engine
    from quadropolis.envs.vector import make_vector_env

    with engine.using("python"):
        venv = make_vector_env(2, autoreset_mode="SameStep")
        assert isinstance(venv, gymnasium.vector.SyncVectorEnv)
        assert venv.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
        with pytest.raises(ConfigError, match="autoreset_mode"):
            make_vector_env(2, autoreset_mode="Disabled")


class _SitePolicy:
    """Plays the same whether called on one observation or on a batch: the legal action with
    the highest score in a fixed part of the observation, the lowest such action on a tie."""

    def __call__(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> Any:
        return np.argmax(mask * (1.0 + obs[..., 359:480]), axis=-1)


@pytest.mark.parametrize(
    "options",
    [
        {"opponents": "greedy", "games": 8},
        {"opponents": "greedy:epsilon=0.3", "games": 7, "mode": "expert", "normalize": True},
        {"opponents": ["random", "greedy:epsilon=0.1"], "players": 3, "games": 6},
    ],
)
def test_evaluate_batched_plays_evaluates_games(options: dict[str, Any]) -> None:
    """The same games (seeds, seats rotated, the bots' generators) and so the same figures as
    evaluate, which plays the policy one observation at a time; a batch smaller than the games
    changes nothing."""
    from quadropolis.envs import evaluate, evaluate_batched

    alone = evaluate(_SitePolicy(), seed=4, **options)
    batched = evaluate_batched(_SitePolicy(), seed=4, batch=3, **options)
    assert batched == alone
    assert [r[1] for r in batched.results] == [g % alone.players for g in range(alone.games)]
    assert (batched.rating is not None) == (options["opponents"] == "greedy")  # ladder bots only


def test_evaluate_batched_refuses_a_policy_playing_outside_the_mask() -> None:
    from quadropolis.bots import BotError
    from quadropolis.envs import evaluate_batched

    with pytest.raises(BotError, match="outside the mask"):
        evaluate_batched(lambda obs, masks: np.full(len(obs), 120), games=2)  # discard: not a take
