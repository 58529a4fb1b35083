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

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from ..bots import Bot
from ..errors import ConfigError
from .gym_env import QuadropolisEnv
from .opponents import Opponent, make_opponent

__all__ = ["SelfPlay"]


class SelfPlay(gymnasium.Wrapper[npt.NDArray[np.float32], np.int64, npt.NDArray[np.float32], np.int64]):
    """The agent against frozen copies of itself, refreshed on a schedule, optionally in a
    league of past checkpoints and bots (see the module docstring)."""

    def __init__(
        self,
        env: gymnasium.Env[npt.NDArray[np.float32], np.int64],
        snapshot: Callable[[], Opponent],
        *,
        refresh: int = 20,
        league: int = 0,
        bots: Sequence[str | Bot] = (),
        latest: float | None = None,
        seed: int | None = None,
    ) -> None:
        base = getattr(env, "unwrapped", env)
        if not isinstance(base, QuadropolisEnv):
            raise ConfigError(
                f"SelfPlay wraps the single Quadropolis env, got {type(base).__name__} "
                "(on the batched env, give quadropolis.envs.league.League as its opponents)"
            )
        super().__init__(env)
        if refresh < 1 or league < 0:
            raise ConfigError(f"refresh must be at least 1 and league at least 0, got {refresh} and {league}")
        if latest is None:  # plain self-play, else half the seats to the latest by default
            latest = 1.0 if not league and not bots else 0.5
        if not 0.0 <= latest <= 1.0:
            raise ConfigError(f"latest is a probability, got {latest}")
        self._base = base
        self._snapshot = snapshot
        self.refresh = refresh
        self.league_size = league
        self.latest_share = latest
        self._bots = [(b if isinstance(b, str) else b.name, make_opponent(b)) for b in bots]
        self._rng = np.random.default_rng(seed)
        self._episodes = 0
        self._taken = 0
        #: (name, bot) of the latest snapshot and of the league's checkpoints, oldest first.
        self.checkpoints: list[tuple[str, Bot]] = []
        self._latest: tuple[str, Bot] = self._take()
        self._names: list[str] = []

    def _take(self) -> tuple[str, Bot]:
        name = f"self@{self._taken}"
        self._taken += 1
        entry = (name, make_opponent(self._snapshot(), self._base.normalize, name=name))
        if self.league_size:
            self.checkpoints.append(entry)
            del self.checkpoints[: -self.league_size]
        return entry

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        if self._episodes and self._episodes % self.refresh == 0:
            self._latest = self._take()
        self._episodes += 1
        pool = self.checkpoints + self._bots
        chosen = []
        for _ in range(self._base.players - 1):
            if not pool or self._rng.random() < self.latest_share:
                chosen.append(self._latest)
            else:
                chosen.append(pool[int(self._rng.integers(len(pool)))])
        self._names = [name for name, _ in chosen]
        self._base.set_opponents([bot for _, bot in chosen])
        obs, info = self.env.reset(seed=seed, options=options)
        info["opponents"] = list(self._names)
        return obs, info

    @property
    def latest(self) -> str:
        """The name of the latest snapshot (``self@k``)."""
        return self._latest[0]

    @property
    def episodes(self) -> int:
        """Episodes begun (resets) so far."""
        return self._episodes
