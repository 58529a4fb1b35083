"""The stable-baselines3 adapter of the batched env (quadropolis.envs.sb3): SB3's VecEnv
contract as DummyVecEnv of single envs keeps it (observations, rewards, dones, the terminal
observation), the masks sb3-contrib's MaskablePPO reads, and a real MaskablePPO run."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecMonitor

from quadropolis.envs import make_gym_env
from quadropolis.envs.sb3 import QuadropolisSB3VecEnv, frozen_copy
from quadropolis.errors import ConfigError

OPTIONS: dict[str, Any] = {"players": 2, "seat": None, "opponents": "greedy", "normalize": True}


def _random_legal(rng: np.random.Generator, masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    return (rng.random(masks.shape) * masks).argmax(1).astype(np.int64)  # type: ignore[no-any-return]


def test_first_episodes_are_dummy_vec_envs_of_single_envs() -> None:
    """Seeded alike, the adapter and DummyVecEnv of single envs give the same observations,
    rewards, dones, masks and terminal observations until the first episode ends."""
    adapter = QuadropolisSB3VecEnv(4, **OPTIONS)
    dummy = DummyVecEnv([lambda: make_gym_env(**OPTIONS) for _ in range(4)])
    adapter.seed(30)
    dummy.seed(30)
    a, b = adapter.reset(), np.asarray(dummy.reset())
    rng = np.random.default_rng(0)
    while True:
        assert np.array_equal(a, b)
        masks = get_action_masks(adapter)
        assert np.array_equal(masks, get_action_masks(dummy))
        actions = _random_legal(rng, masks)
        adapter.step_async(actions)
        dummy.step_async(actions)
        a, ra, da, ia = adapter.step_wait()
        b_, rb, db, ib = dummy.step_wait()
        b = np.asarray(b_)
        assert ra.dtype == np.float32 and np.array_equal(ra, rb) and np.array_equal(da, db)
        if da.any():
            break
    for i in np.flatnonzero(da):
        assert np.array_equal(ia[i]["terminal_observation"], ib[i]["terminal_observation"])
        assert ia[i]["TimeLimit.truncated"] is False and ia[i]["illegal_action"] is False
        assert tuple(ia[i]["final_scores"]) == ib[i]["scores"] and tuple(ia[i]["winners"]) == ib[i]["winners"]
        assert not np.array_equal(a[i], ia[i]["terminal_observation"])  # the next episode's
    assert all(info == {} for info, done in zip(ia, da, strict=True) if not done)


def test_the_vec_env_contract() -> None:
    env = QuadropolisSB3VecEnv(3, players=2, opponents="random")
    assert isinstance(env, VecEnv) and env.num_envs == 3
    assert is_masking_supported(env) and env.has_attr("action_masks")
    env.seed(4)
    env.reset()
    masks = env.action_masks()
    assert masks.shape == (3, 121) and masks.dtype == np.bool_
    rows = env.env_method("action_masks", indices=[2, 0])
    assert np.array_equal(rows[0], masks[2]) and np.array_equal(rows[1], masks[0])
    assert env.get_attr("num_envs", indices=[0, 1]) == [3, 3]
    assert env.env_method("game_state", 1, indices=0)[0].config.players == 2
    env.set_attr("dense_reward", 0.25)
    assert env.get_attr("dense_reward") == [0.25] * 3
    assert env.env_is_wrapped(gymnasium.Wrapper) == [False] * 3
    with pytest.raises(ConfigError, match="autoreset_mode"):
        QuadropolisSB3VecEnv(2, autoreset_mode="NextStep")
    env.close()


def test_seeded_resets_replay_the_same_games() -> None:
    def run() -> list[npt.NDArray[Any]]:
        env = QuadropolisSB3VecEnv(2, **OPTIONS)
        env.seed(7)
        out: list[npt.NDArray[Any]] = [env.reset()]
        rng = np.random.default_rng(1)
        for _ in range(60):
            obs, rewards, dones, _ = env.step(_random_legal(rng, env.action_masks()))
            out += [np.asarray(obs), rewards, dones]
        return out

    assert all(np.array_equal(x, y) for x, y in zip(run(), run(), strict=True))


def test_maskable_ppo_learns_on_the_adapter_without_an_illegal_action() -> None:
    """A real MaskablePPO run (a few hundred steps, against greedy): illegal_action="raise"
    makes any action outside the mask fail the run; VecMonitor sees the ended episodes."""
    env = VecMonitor(QuadropolisSB3VecEnv(8, illegal_action="raise", **OPTIONS))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=128, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    assert (
        model.ep_info_buffer is not None and len(model.ep_info_buffer) >= 8
    )  # games of ~40 agent moves ended along the way
    action, _ = model.predict(np.asarray(env.reset()), action_masks=get_action_masks(env), deterministic=True)
    assert get_action_masks(env)[np.arange(8), action].all()


def test_the_throughput_example_measures_both_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).resolve().parents[2] / "examples" / "sb3_throughput.py"
    spec = importlib.util.spec_from_file_location("sb3_throughput", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(["--games", "2", "--n-steps", "8", "--repeats", "2", "--opponent", "random"])
    assert [len(v) for v in result["runs"].values()] == [2, 2]
    assert result["ratio"] == result["medians"]["adapter"] / result["medians"]["dummy"] > 0
    assert "ratio:" in capsys.readouterr().out


def test_set_opponents_before_a_reset_plays_the_new_opponents_from_it() -> None:

    def run(env: QuadropolisSB3VecEnv) -> list[npt.NDArray[Any]]:
        env.seed(5)
        out = [env.reset()]
        rng = np.random.default_rng(2)
        for _ in range(20):
            obs, rewards, _, _ = env.step(_random_legal(rng, env.action_masks()))
            out += [np.asarray(obs), rewards]
        return out

    changed = QuadropolisSB3VecEnv(2, seat=1, opponents="random")
    VecMonitor(changed).env_method("set_opponents", "greedy:epsilon=0.3")
    fresh = QuadropolisSB3VecEnv(2, seat=1, opponents="greedy:epsilon=0.3")
    unchanged = QuadropolisSB3VecEnv(2, seat=1, opponents="random")
    first = run(changed)
    assert all(np.array_equal(x, y) for x, y in zip(first, run(fresh), strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(first, run(unchanged), strict=True))


def test_the_maskable_ppo_example_trains_a_curriculum_on_the_batched_env() -> None:
    path = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("maskable_ppo_batched", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = ["--games", "4", "--n-steps", "16", "--batch", "64", "--steps", "128", "--eval-games", "2"]
    out = module.main([*argv, "--opponents", "random", "greedy:epsilon=0.3"])
    model = out["model"]
    assert model.num_timesteps >= 128  # both stages, counted on
    env = model.get_env()
    assert isinstance(env, QuadropolisSB3VecEnv)
    assert [type(o).__name__ for o in env.venv._external.values()] == ["_EpsilonGreedyOpponent"]  # last stage
    assert out["greedy"].games == 2 and 0.0 <= out["greedy"].win_share <= 1.0


def test_set_opponents_mid_run_truncates_the_games_in_play_and_restarts_all() -> None:
    env = QuadropolisSB3VecEnv(4, players=2, opponents="random")
    env.seed(3)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(5):
        env.step(_random_legal(rng, env.action_masks()))
    before = env.venv.episode_seeds
    with pytest.raises(ConfigError):
        env.set_opponents(["greedy", "greedy"])  # 2 players: one opponent; nothing changes
    env.set_opponents("greedy")
    step = env.step(_random_legal(rng, env.action_masks()))
    obs, rewards, dones, infos = np.asarray(step[0]), step[1], step[2], step[3]
    assert dones.all() and env.venv._codes == (1,)  # every game restarted, against greedy
    assert all(a != b for a, b in zip(env.venv.episode_seeds, before, strict=True))
    for i, info in enumerate(infos):
        assert info["TimeLimit.truncated"] is True and info["illegal_action"] is False
        assert info["terminal_observation"].shape == (2409,) and rewards[i] == 0.0
    assert not any(np.array_equal(obs[i], infos[i]["terminal_observation"]) for i in range(4))
    _, _, dones, _ = env.step(_random_legal(rng, env.action_masks()))  # and on it goes
    assert not dones.any()


def test_self_play_against_frozen_snapshots_evaluated_in_one_batch() -> None:
    """A frozen copy of the learner's policy as the batched env's opponent: its predict is
    called on all the games waiting for it at once, and learning goes on against it."""
    env = QuadropolisSB3VecEnv(8, seat=None, normalize=True, opponents="greedy", illegal_action="raise")
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=128, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=128)
    snapshot = frozen_copy(model.policy)  # copy.deepcopy fails on a policy that has trained
    calls: list[int] = []
    predict = snapshot.predict

    def counted(obs: Any, **kwargs: Any) -> Any:
        calls.append(len(obs))
        return predict(obs, **kwargs)

    snapshot.predict = counted
    env.set_opponents(snapshot)
    model.learn(total_timesteps=128, reset_num_timesteps=False)
    assert model.num_timesteps >= 256
    assert calls and max(calls) > 1  # several games' moves in one call


def test_a_frozen_copy_predicts_as_the_policy_did_when_copied() -> None:
    env = QuadropolisSB3VecEnv(4, normalize=True)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    obs, masks = np.asarray(env.reset()), env.action_masks()
    copied = frozen_copy(model.policy)
    before, _ = model.policy.predict(obs, action_masks=masks, deterministic=True)
    model.learn(total_timesteps=256, reset_num_timesteps=False)  # the original moves on
    assert np.array_equal(copied.predict(obs, action_masks=masks, deterministic=True)[0], before)
    assert any(
        not torch_equal(a, b) for a, b in zip(copied.parameters(), model.policy.parameters(), strict=True)
    )


def torch_equal(a: Any, b: Any) -> bool:
    return bool((a == b).all())
