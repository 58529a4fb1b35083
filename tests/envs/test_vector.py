"""The batched env (quadropolis.envs.vector): each of its games is the very game the single
env plays from the same seed, seat and actions (observations, masks, action numbers, rewards,
terminations, illegal actions, autoreset), as SyncVectorEnv of single envs gives it too; it is
deterministic; make_vec returns it; bad input gets a precise error."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest

from quadropolis import engine
from quadropolis.bots import BotError
from quadropolis.envs import ActionError, make_gym_env
from quadropolis.envs.gym_env import QuadropolisEnv
from quadropolis.envs.vector import QuadropolisVectorEnv, make_vector_env
from quadropolis.errors import ConfigError, IllegalMoveError, QuadropolisError


class _Policy:
    """A policy that plays the same whether called on one observation (the single env) or on a
    batch (the batched env): the legal action with the highest score in a fixed part of the
    observation (the site), the lowest such action on a tie."""

    def __call__(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> Any:
        return np.argmax(mask * (1.0 + obs[..., 359:480]), axis=-1)

    def __repr__(self) -> str:
        return "policy"


CASES: list[dict[str, Any]] = [
    {"mode": "classic", "players": 2, "opponents": "neural"},
    {"mode": "expert", "players": 3, "seat": None, "opponents": ["neural", "greedy"], "dense_reward": 0.5},
    {"mode": "classic", "players": 4, "opponents": [_Policy(), "neural", "random"], "normalize": True},
    {"mode": "classic", "players": 2},
    {"mode": "classic", "players": 3, "seat": None, "normalize": True},
    {"mode": "classic", "players": 4, "seat": 3, "urbanist_blocks": "square", "reward": "margin"},
    {"mode": "expert", "players": 2, "opponents": "greedy", "dense_reward": 0.5, "reward": "margin"},
    {"mode": "expert", "players": 3, "opponents": ["greedy", "random"], "all_parks_absorb": True},
    {"mode": "expert", "players": 4, "seat": None, "dense_reward": -0.25},
]


def _pick(rng: np.random.Generator, masks: npt.NDArray[np.int8], illegal: float) -> npt.NDArray[np.int64]:
    """A random legal action per game; with probability ``illegal`` an action outside the mask
    (out of range or masked out)."""
    actions = (rng.random(masks.shape) * masks).argmax(1).astype(np.int64)
    for i in np.flatnonzero(rng.random(len(actions)) < illegal):
        forbidden = np.flatnonzero(masks[i] == 0)
        actions[i] = rng.choice([-1, 121, *forbidden.tolist()])
    return actions


def _single(options: dict[str, Any], seat: int, seed: int) -> tuple[QuadropolisEnv, Any, dict[str, Any]]:
    env = make_gym_env(**{**options, "seat": seat})
    obs, info = env.reset(seed=seed)
    return env, obs, info


@pytest.mark.parametrize("options", CASES, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_every_game_is_the_single_envs_game(options: dict[str, Any]) -> None:
    """Step a batch of 5 games for 300 steps (several episodes each, autoresets, illegal
    actions); each game against a single env reset with that game's seed and seat."""
    n = 5
    venv = QuadropolisVectorEnv(n, **options)
    obs, infos = venv.reset(seed=40)
    assert venv.episode_seeds == [40 + i for i in range(n)]
    singles = [_single(options, int(infos["seat"][i]), 40 + i) for i in range(n)]
    for i, (_, o, info) in enumerate(singles):
        assert np.array_equal(obs[i], o) and np.array_equal(infos["action_mask"][i], info["action_mask"])
    rng = np.random.default_rng(3)
    episodes = 0
    for _ in range(300):
        actions = _pick(rng, infos["action_mask"], illegal=0.01)
        done_before = [s[0]._done for s in singles]
        obs, rewards, terminated, truncated, infos = venv.step(actions)
        assert not truncated.any()
        for i in range(n):
            if done_before[i]:  # NEXT_STEP: the action was ignored, a new episode began
                env, o, info = singles[i] = _single(options, int(infos["seat"][i]), venv.episode_seeds[i])
                reward, term, illegal = 0.0, False, False
                episodes += 1
            else:
                env = singles[i][0]
                o, reward, term, _, info = env.step(int(actions[i]))
                illegal = bool(info.get("illegal_action", False))
            assert np.array_equal(obs[i], o), i
            assert np.array_equal(infos["action_mask"][i], info["action_mask"]), i
            assert (rewards[i], terminated[i], infos["illegal_action"][i]) == (reward, term, illegal)
            assert infos["seat"][i] == info["seat"]
    assert episodes >= n  # every game went through an autoreset


def test_the_first_episodes_equal_sync_vector_env() -> None:
    """gymnasium's SyncVectorEnv of single envs, reset with the same seed: the same arrays
    until a game's first episode ends (later episodes' seeds come from each env's np_random)."""
    options: dict[str, Any] = {"mode": "expert", "players": 3, "opponents": "greedy", "reward": "margin"}
    sync = gymnasium.make_vec("Quadropolis-v1", 4, vectorization_mode="sync", **options)
    batched = gymnasium.make_vec("Quadropolis-v1", 4, vectorization_mode="vector_entry_point", **options)
    assert isinstance(batched.unwrapped, QuadropolisVectorEnv)
    a, ia = sync.reset(seed=9)
    b, ib = batched.reset(seed=9)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        assert np.array_equal(a, b) and np.array_equal(ia["action_mask"], ib["action_mask"])
        actions = _pick(rng, ib["action_mask"], illegal=0.0)
        a, ra, ta, _, ia = sync.step(actions)
        b, rb, tb, _, ib = batched.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        steps += 1
        if tb.any():
            assert np.array_equal(a, b)
            break
    assert steps > 20


def test_same_seed_same_episodes_bit_for_bit() -> None:
    def run(seed: int) -> list[npt.NDArray[Any]]:
        venv = QuadropolisVectorEnv(8, players=3, seat=None, opponents=["greedy", "random"], dense_reward=1.0)
        obs, infos = venv.reset(seed=seed)
        rng = np.random.default_rng(1)
        out = [obs, infos["seat"]]
        for _ in range(120):
            obs, rewards, terminated, _, infos = venv.step(_pick(rng, infos["action_mask"], illegal=0.0))
            out += [obs, rewards, terminated, infos["action_mask"], infos["seat"]]
        out.append(np.array(venv.episode_seeds))
        return out

    first, again, other = run(5), run(5), run(6)
    assert all(x.tobytes() == y.tobytes() for x, y in zip(first, again, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(first, other, strict=True))


def test_seeds_per_game_and_drawn() -> None:
    venv = QuadropolisVectorEnv(3)
    venv.reset(seed=[7, 2**63 - 1, None])
    seeds = venv.episode_seeds
    assert seeds[:2] == [7, 2**63 - 1] and 0 <= seeds[2] < 2**62
    venv.reset()
    assert len(set(venv.episode_seeds)) == 3


def test_make_vec_and_spaces() -> None:
    venv = gymnasium.make_vec(
        "Quadropolis-v1", num_envs=4, vectorization_mode="vector_entry_point", normalize=True
    )
    assert isinstance(venv, QuadropolisVectorEnv)
    assert venv.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, infos = venv.reset(seed=0)
    assert obs.shape == (4, 2409) and obs.dtype == np.float32 and venv.observation_space.contains(obs)
    assert infos["action_mask"].shape == (4, 121) and infos["action_mask"].dtype == np.int8
    assert np.array_equal(venv.action_masks(), infos["action_mask"].astype(bool))
    assert venv.action_space.shape == (4,)
    assert venv.game_state(0).config.seed == 0
    venv.close()


def test_copy_false_returns_the_arrays_written_in_place() -> None:
    venv = QuadropolisVectorEnv(2, copy=False)
    obs, infos = venv.reset(seed=1)
    before = obs.copy()
    venv.step(infos["action_mask"].argmax(1))
    assert not np.array_equal(obs, before)  # the same array, rewritten


def test_without_the_compiled_engine_make_vec_falls_back_to_sync() -> None:
    with engine.using("python"):
        venv = make_vector_env(2, players=3)
        assert isinstance(venv, gymnasium.vector.SyncVectorEnv)
        with pytest.raises(ConfigError, match="compiled engine"):
            QuadropolisVectorEnv(2)
        obs, _ = venv.reset(seed=3)
    assert np.array_equal(obs, QuadropolisVectorEnv(2, players=3).reset(seed=3)[0])


@pytest.mark.parametrize(
    "actions",
    [
        np.zeros(3, np.int64),  # too many
        np.zeros((2, 1), np.int64),  # wrong shape
        np.zeros(2, np.float32),  # not integers
        ["1", "2"],
        None,
    ],
)
def test_bad_action_arrays_raise_action_error(actions: Any) -> None:
    venv = QuadropolisVectorEnv(2)
    venv.reset(seed=0)
    with pytest.raises(ActionError, match="actions must be 2 integers"):
        venv.step(actions)
    assert venv.episode_seeds == [0, 1]


def test_illegal_actions_terminate_or_raise() -> None:
    venv = QuadropolisVectorEnv(3, reward="margin", dense_reward=0.5)
    _, infos = venv.reset(seed=0)
    legal = infos["action_mask"].argmax(1)
    huge = np.array([legal[0], 2**40, np.flatnonzero(infos["action_mask"][2] == 0)[0]], np.uint64)
    _, rewards, terminated, _, infos = venv.step(huge)
    assert terminated.tolist() == [False, True, True]
    assert infos["illegal_action"].tolist() == [False, True, True]
    assert rewards[1] == rewards[2] == venv.illegal_reward < -337
    assert infos["action_mask"][1:].all()  # all ones once over

    strict = QuadropolisVectorEnv(3, illegal_action="raise")
    _, infos = strict.reset(seed=0)
    before = [strict.game_state(i).to_json() for i in range(3)]
    bad = infos["action_mask"].argmax(1)
    bad[1] = 120  # discard, not legal while taking
    with pytest.raises(IllegalMoveError, match="game 1: action 120"):
        strict.step(bad)
    assert [strict.game_state(i).to_json() for i in range(3)] == before  # no game moved


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"opponents": 3}, "a bot spec, a Bot or a batched policy"),
        ({"opponents": "nobody"}, "nobody"),
        ({"opponents": ["random", "greedy"]}, "need 1 opponent"),
        ({"num_envs": 0}, "num_envs"),
        ({"num_envs": True}, "num_envs"),
        ({"seat": 2}, "seat"),
        ({"mode": "deluxe"}, "mode"),
        ({"players": 5}, "players"),
        ({"reward": "vp"}, "reward"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"illegal_reward": 0.5}, "illegal_reward"),
        ({"render_mode": "rgb_array"}, "render_mode"),
    ],
)
def test_bad_options(options: dict[str, Any], match: str) -> None:
    with pytest.raises(QuadropolisError, match=match):
        QuadropolisVectorEnv(**options)


@pytest.mark.parametrize(
    ("policy", "match"),
    [
        (lambda obs, masks: np.full(len(masks), 120), "chose action 120, not a legal action"),
        (lambda obs, masks: np.zeros((len(masks), 2), np.int64), "must return .* integer actions"),
        (lambda obs, masks: masks.argmax(1).astype(np.float64), "must return .* integer actions"),
    ],
)
def test_a_policy_opponent_that_plays_outside_the_mask_is_a_bot_error(policy: Any, match: str) -> None:
    venv = QuadropolisVectorEnv(3, seat=1, opponents=policy)  # the opponent moves first
    with pytest.raises(BotError, match=match):
        venv.reset(seed=0)


def test_bad_seeds_and_step_before_reset() -> None:
    venv = QuadropolisVectorEnv(2)
    with pytest.raises(QuadropolisError, match="reset"):
        venv.step(np.zeros(2, np.int64))
    for seed in (-1, 2**63 - 1, [1], [1, -2], [1, "x"], "seed"):
        with pytest.raises(ConfigError, match="seed"):
            venv.reset(seed=seed)  # type: ignore[arg-type]
