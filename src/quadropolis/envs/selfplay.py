"""Self-play and a league for the Gymnasium env: :class:`SelfPlay` seats frozen copies of the
agent (and, in a league, its past checkpoints and bots) in the other seats.

``snapshot`` is a function the learner provides that returns a *frozen* copy of its current
policy: a callable ``(observation, action_mask) -> action`` or an object with an SB3-style
``predict`` (:mod:`.opponents`), e.g. for sb3-contrib::

    env = SelfPlay(QuadropolisEnv(normalize=True), snapshot=lambda: frozen(model), refresh=50)
    model = MaskablePPO("MlpPolicy", env)  # ``frozen(model)``: a copy the learner no longer updates

The schedule, counted in episodes (resets):

- a snapshot is taken when the wrapper is made and then every ``refresh`` episodes; the
  newest is *the latest*; with ``league=K`` the last ``K`` snapshots stay as checkpoints;
- at each reset every opponent seat is filled, independently: the latest snapshot with
  probability ``latest``, else one drawn uniformly from the pool (the checkpoints and the
  ``bots``: specs or :class:`~quadropolis.bots.Bot` objects). With no league and no bots
  (the default) every opponent is the latest snapshot: plain self-play.

The draws come from ``numpy.random.default_rng(seed)``. ``info["opponents"]`` names the
opponents of the episode (``self@k`` is snapshot ``k``, 0 the first; a bot by its spec).
Only the agent's own rewards are returned, as in the wrapped env. On the batched env (and its
SB3 adapter) the same schedule is :class:`~.league.League`, given as the env's opponents.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Unpack

import gymnasium
import numpy as np
import numpy.typing as npt

from ..bots import Bot
from ..errors import ConfigError
from .gym_env import QuadropolisEnv
from .opponents import Opponent, make_opponent
from .snapshots import Schedule, Snapshots

__all__ = ["SelfPlay"]


class SelfPlay(
    gymnasium.Wrapper[npt.NDArray[np.float32], np.int64, npt.NDArray[np.float32], np.int64],
    Snapshots[Bot],
):
    """The agent against frozen copies of itself, refreshed on a schedule, optionally in a
    league of past checkpoints and bots (see the module docstring; the keyword arguments and
    their defaults: :class:`~.snapshots.Schedule`); ``episodes`` counts the episodes begun
    (resets) so far."""

    def __init__(
        self,
        env: gymnasium.Env[npt.NDArray[np.float32], np.int64],
        snapshot: Callable[[], Opponent],
        **schedule: Unpack[Schedule],
    ) -> None:
        base = getattr(env, "unwrapped", env)
        if not isinstance(base, QuadropolisEnv):
            raise ConfigError(
                f"SelfPlay wraps the single Quadropolis env, got {type(base).__name__} "
                "(on the batched env, give quadropolis.envs.league.League as its opponents)"
            )
        super().__init__(env)
        self._base = base
        Snapshots.__init__(
            self,
            snapshot,
            lambda policy, name: make_opponent(policy, base.normalize, name=name),
            make_opponent,
            **schedule,
        )
        self._take()  # the first snapshot, when the wrapper is made
        self._names: list[str] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        self._begin_episode()
        chosen = [self._draw() for _ in range(self._base.players - 1)]
        self._names = [name for name, _ in chosen]
        self._base.set_opponents([bot for _, bot in chosen])
        obs, info = self.env.reset(seed=seed, options=options)
        info["opponents"] = list(self._names)
        return obs, info

    @property
    def latest(self) -> str:
        """The name of the latest snapshot (``self@k``)."""
        assert self._latest is not None  # taken when the wrapper is made
        return self._latest[0]
