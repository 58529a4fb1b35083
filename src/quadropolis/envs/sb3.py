"""The batched env as a stable-baselines3 ``VecEnv``: :class:`QuadropolisSB3VecEnv`.

``QuadropolisSB3VecEnv(num_envs, **options)`` steps ``num_envs`` games in the compiled engine
(:class:`~.vector.QuadropolisVectorEnv` with Gymnasium's ``SAME_STEP`` autoreset, the
semantics SB3 expects) and speaks SB3's ``VecEnv`` contract, so ``MaskablePPO("MlpPolicy",
QuadropolisSB3VecEnv(16, opponents="greedy", normalize=True))`` trains on the fast path:

- ``reset()`` returns the observations ``(N, 2409)`` float32 (seeds from :meth:`seed`, else
  drawn); ``step_async(actions)`` / ``step_wait()`` return observations, rewards ``(N,)``
  float32, dones ``(N,)`` bool and one info dict per game. A game whose episode ended at the
  step is already in its next episode: its info has SB3's ``"terminal_observation"`` (the
  ended episode's last observation), ``"TimeLimit.truncated"`` (always false: a game always
  ends), ``"illegal_action"``, and, if the game ended normally, ``"final_scores"`` (each
  seat's VP), ``"winners"`` (seats) and ``"margin"`` (the agent's VP minus the best other
  VP), so a win-rate curve needs no second env. Other games' infos are empty.
- ``action_masks()`` gives the legal actions of every game ``(N, 121)`` bool, and
  ``env_method("action_masks")`` the same as one row per game: sb3-contrib's
  ``MaskablePPO`` reads the masks through either (``get_action_masks``).
- ``get_attr``/``set_attr``/``env_method`` act on the one batched env (the games share its
  attributes and methods), answering one entry per index asked; ``env_method("action_masks")``
  is the exception, per game. ``env_is_wrapped`` is false for every game (no Gymnasium
  wrapper).
- ``set_opponents(opponents)`` (or ``env_method("set_opponents", ...)`` through a wrapper):
  the next ``reset()`` or step starts every game afresh against ``opponents`` (any opponent
  of the batched env, or an object with SB3's ``predict``, such as a frozen copy of the
  learner's policy, called on all the waiting games at once): at that step the games still
  playing end *truncated* (``dones`` true, ``"TimeLimit.truncated"`` true, their last
  observation in ``"terminal_observation"``, so SB3 bootstraps their value), and every game
  starts a new episode (seeds drawn from the batched env's ``np_random``). So a curriculum or
  self-play calls it between ``learn(..., reset_num_timesteps=False)`` calls.

:func:`frozen_copy` copies a learner's policy for self-play (``copy.deepcopy`` fails on a
policy that has trained: sb3-contrib's masked distribution keeps the last forward pass's
tensors, which torch refuses to deep-copy).

Options: those of the batched env (``mode``, ``players``, ``seat``, ``opponents``, ``reward``,
``dense_reward``, ``illegal_action``, ``illegal_reward``, ``normalize``, ``urbanist_blocks``,
``all_parks_absorb``). Needs the compiled engine and the ``train`` extra (stable-baselines3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from ..errors import ConfigError
from .vector import QuadropolisVectorEnv

__all__ = ["QuadropolisSB3VecEnv", "frozen_copy"]


def frozen_copy(policy: Any) -> Any:
    """A frozen copy of an SB3 policy (``model.policy``): a new policy of its class, built
    with its constructor's parameters, its weights loaded, in evaluation mode; it predicts as
    the original did when copied, whatever the original learns afterwards."""
    clone = type(policy)(**policy._get_constructor_parameters())
    clone.load_state_dict(policy.state_dict())
    clone.set_training_mode(False)
    return clone


class QuadropolisSB3VecEnv(VecEnv):
    """``num_envs`` games of ``Quadropolis-v1`` as an SB3 ``VecEnv`` (see the module docstring)."""

    def __init__(self, num_envs: int = 1, **options: Any) -> None:
        if "autoreset_mode" in options or "copy" in options:
            raise ConfigError("the SB3 adapter sets autoreset_mode (SAME_STEP) and copy itself")
        self.venv = QuadropolisVectorEnv(num_envs, autoreset_mode=AutoresetMode.SAME_STEP, **options)
        super().__init__(num_envs, self.venv.single_observation_space, self.venv.single_action_space)
        self._actions: npt.NDArray[np.int64] | None = None
        self._switch = False  # set_opponents() called: every game restarts at the next step

    # --- the VecEnv contract -----------------------------------------------------------------

    def reset(self) -> npt.NDArray[np.float32]:
        """Starts an episode in every game: game ``i`` with seed ``seeds[i]`` after
        :meth:`seed`, else drawn from the batched env's ``np_random``."""
        seeds: Sequence[int | None] | None = None if all(s is None for s in self._seeds) else self._seeds
        obs, _ = self.venv.reset(seed=seeds)
        self._switch = False
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64, copy=False)

    def step_wait(
        self,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], list[dict[str, Any]]]:
        if self._actions is None:
            raise ConfigError("step_wait() without step_async(actions)")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, infos = self.venv.step(actions)
        dones = terminated | truncated
        game_infos = self._game_infos(dones, infos)
        if self._switch:  # the new opponents: every game still playing ends truncated
            for i in np.flatnonzero(~dones):
                game_infos[i].update({"terminal_observation": obs[i], "TimeLimit.truncated": True})
                game_infos[i]["illegal_action"] = False
            obs, _ = self.venv.reset()
            self._switch = False
            dones = np.ones(self.num_envs, np.bool_)
        return obs, rewards.astype(np.float32), dones, game_infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game now, ``(N, 121)`` bool."""
        return self.venv.action_masks()

    def set_opponents(self, opponents: Any) -> None:
        """Every game starts afresh against ``opponents`` at the next step or reset (see the
        module docstring); checked now: a bad opponent is a ConfigError, nothing changes."""
        self.venv.set_opponents(opponents)
        self._switch = True

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The batched env's attribute ``attr_name``, once per index (the games share it)."""
        value = getattr(self._target(attr_name), attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Sets the batched env's attribute (shared by every game, whatever ``indices``)."""
        setattr(self._target(attr_name), attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks``: each game's own mask; any other method: called once on the batched
        env, its result given for each index."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self._target(method_name), method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(
        self, wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]], indices: Any = None
    ) -> list[bool]:
        """False for every game: the games are not Gymnasium envs, nothing wraps them."""
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[npt.NDArray[Any] | None]:
        """None per game: the batched env draws nothing (use the single env to watch a game)."""
        return [None] * self.num_envs

    # --- internals -------------------------------------------------------------------------

    def _target(self, name: str) -> Any:
        """Where an attribute or method lives: this adapter (``action_masks``, ``set_opponents``)
        or the batched env."""
        return self if name in ("action_masks", "set_opponents") else self.venv

    def _game_infos(self, dones: npt.NDArray[np.bool_], infos: dict[str, Any]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if not dones.any():
            return out
        final_obs, illegal = infos["final_obs"], infos["final_info"]["illegal_action"]
        scored = infos["_final_scores"]
        for i in np.flatnonzero(dones):
            info = out[i]
            info["terminal_observation"] = final_obs[i]
            info["TimeLimit.truncated"] = False
            info["illegal_action"] = bool(illegal[i])
            if scored[i]:
                info["final_scores"] = infos["final_scores"][i].tolist()
                info["winners"] = np.flatnonzero(infos["winners"][i]).tolist()
                info["margin"] = int(infos["margin"][i])
        return out

    def _get_indices(self, indices: Any) -> Iterable[int]:
        return super()._get_indices(indices)
