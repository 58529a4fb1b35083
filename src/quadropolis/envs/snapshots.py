"""The schedule of self-play and of a league, shared by :class:`~.selfplay.SelfPlay` (the
single env) and :class:`~.league.League` (the batched env): when a snapshot of the learner is
taken, which snapshots stay as checkpoints, and how an opponent seat is filled (the latest
snapshot with probability ``latest``, else one drawn uniformly from the checkpoints and the
bots), every draw from ``numpy.random.default_rng(seed)``. Each class says how a snapshot and
a bot become one of its opponents (:meth:`Snapshots._opponent`) and when an episode begins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypedDict, TypeVar

import numpy as np

from ..bots import Bot
from ..errors import ConfigError

__all__ = ["Schedule", "Snapshots"]

T = TypeVar("T")


class Schedule(TypedDict, total=False):
    """The keyword arguments of the schedule, as :class:`~.selfplay.SelfPlay` and
    :class:`~.league.League` take them: ``refresh`` (episodes between snapshots, 20),
    ``league`` (checkpoints kept, 0), ``bots`` (none), ``latest`` (the latest snapshot's share
    of the seats: 1 with no league and no bots, else 0.5) and ``seed`` (None)."""

    refresh: int
    league: int
    bots: Sequence[str | Bot]
    latest: float | None
    seed: int | None


class Snapshots(Generic[T]):
    """Snapshots of the learner, checkpoints and bots, with the schedule of the module
    docstring; ``T`` is the kind of opponent they are made into: ``make_snapshot(policy,
    name)`` makes a snapshot one, ``make_bot(bot)`` a bot spec or object."""

    def __init__(
        self,
        snapshot: Callable[[], Any],
        make_snapshot: Callable[[Any, str], T],
        make_bot: Callable[[str | Bot], T],
        *,
        refresh: int = 20,
        league: int = 0,
        bots: Sequence[str | Bot] = (),
        latest: float | None = None,
        seed: int | None = None,
    ) -> None:
        if refresh < 1 or league < 0:
            raise ConfigError(f"refresh must be at least 1 and league at least 0, got {refresh} and {league}")
        if latest is None:  # plain self-play, else half the seats to the latest by default
            latest = 1.0 if not league and not bots else 0.5
        if not 0.0 <= latest <= 1.0:
            raise ConfigError(f"latest is a probability, got {latest}")
        self._snapshot = snapshot
        self._make_snapshot = make_snapshot
        self.refresh = refresh
        self.league_size = league
        self.latest_share = latest
        self._bots = [(b if isinstance(b, str) else b.name, make_bot(b)) for b in bots]
        self._rng = np.random.default_rng(seed)
        self._episodes = 0
        self._taken = 0
        #: (name, opponent) of the league's checkpoints, oldest first.
        self.checkpoints: list[tuple[str, T]] = []
        self._latest: tuple[str, T] | None = None

    @property
    def episodes(self) -> int:
        """Episodes begun so far."""
        return self._episodes

    def _take(self) -> None:
        """A new snapshot (``make_snapshot(snapshot(), name)``), made the latest and kept as a
        checkpoint in a league."""
        name = f"self@{self._taken}"
        self._taken += 1
        self._latest = entry = (name, self._make_snapshot(self._snapshot(), name))
        if self.league_size:
            self.checkpoints.append(entry)
            del self.checkpoints[: -self.league_size]

    def _begin_episode(self) -> None:
        """An episode begins: the first snapshot if none was taken yet, else a new one every
        ``refresh`` episodes."""
        if self._latest is None or (self._episodes and self._episodes % self.refresh == 0):
            self._take()
        self._episodes += 1

    def _draw(self) -> tuple[str, T]:
        """The member filling one opponent seat: the latest snapshot or one of the pool."""
        assert self._latest is not None
        pool = self.checkpoints + self._bots
        if not pool or self._rng.random() < self.latest_share:
            return self._latest
        return pool[int(self._rng.integers(len(pool)))]
