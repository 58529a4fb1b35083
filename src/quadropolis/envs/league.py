"""Self-play and a league on the batched env: :class:`League`, an opponent of
:class:`~.vector.QuadropolisVectorEnv` and of the SB3 adapter
(:class:`~.sb3.QuadropolisSB3VecEnv`) that seats, game by game, frozen snapshots of the learner,
its past checkpoints and bots, with the schedule of :class:`~.selfplay.SelfPlay` counted in the
batch's episodes. Every game waiting for the same snapshot is decided by one call of it (one
batched forward pass), e.g. with sb3-contrib::

    league = League(lambda: frozen_copy(model.policy), refresh=64, league=4, bots=["greedy"])
    env = QuadropolisSB3VecEnv(64, opponents=league, normalize=True)
    model = MaskablePPO("MlpPolicy", env)
    model.learn(20_000)

``snapshot`` returns a frozen copy of the learner's current policy: a batched policy
``(observations (k, 2409), masks (k, 121)) -> k actions`` or an object with SB3's ``predict``
(:func:`~.sb3.frozen_copy` of ``model.policy``). It is first called when the league first
plays (so it may name a model made after the env, as above), then every ``refresh`` episodes.

The schedule, counted in episodes begun in the batch (a game's episode begins for the league
when it first plays in it):

- the newest snapshot is *the latest*; with ``league=K`` the last ``K`` snapshots stay as
  checkpoints;
- in each episode of each game every seat the league holds is filled, independently: the
  latest snapshot with probability ``latest``, else one drawn uniformly from the pool (the
  checkpoints and the ``bots``: specs or :class:`~quadropolis.bots.Bot` objects, played with
  the single env's generators as the batched env plays them). With no league and no bots (the
  default) every opponent is the latest snapshot: plain self-play. A game keeps its opponents
  for the whole episode, even when a newer snapshot is taken meanwhile.

The draws come from ``numpy.random.default_rng(seed)``, in the order of the games. Give the
league for every other seat (``opponents=league``) or for some of them (``opponents=[league,
"greedy", league]``). :meth:`League.opponents_of` names a game's current opponents (``self@k``
is snapshot ``k``, 0 the first; a bot by its spec). A reset of the env forgets the games'
draws (a reset may replay a seed), not the snapshots nor the episode count.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Unpack

import numpy as np
import numpy.typing as npt

from .batched_opponents import external_opponent
from .snapshots import Schedule, Snapshots

__all__ = ["League"]


class League(Snapshots[Any]):
    """Frozen snapshots of the learner, checkpoints and bots as one opponent of the batched env,
    drawn game by game (see the module docstring; the keyword arguments and their defaults:
    :class:`~.snapshots.Schedule`); ``episodes`` counts the episodes begun (in every game of
    the batch) since the league first played."""

    #: The batched env plays this object as it is (it decides its games' moves itself).
    batched_opponent: Final = True

    def __init__(
        self,
        snapshot: Callable[[], Any],
        **schedule: Unpack[Schedule],
    ) -> None:
        made: dict[Any, Any] = {}
        super().__init__(
            snapshot,
            lambda policy, _name: external_opponent(policy, {}),
            lambda bot: external_opponent(bot, made),
            **schedule,
        )
        # game -> (its episode seed, {seat index among the others: (name, opponent)})
        self._drawn: dict[int, tuple[int, dict[int, tuple[str, Any]]]] = {}

    @property
    def latest(self) -> str | None:
        """The name of the latest snapshot (``self@k``), None before the league first plays."""
        return None if self._latest is None else self._latest[0]

    def opponents_of(self, game: int) -> dict[int, str]:
        """The names of game ``game``'s opponents drawn so far in its current episode, by their
        index among the other seats (the agent's seat skipped)."""
        drawn = self._drawn.get(game)
        return {} if drawn is None else {k: name for k, (name, _) in drawn[1].items()}

    def forget(self) -> None:
        """The env was reset: the games' draws and the bots' generators are dropped."""
        self._drawn.clear()
        for _, opponent in self._members():
            opponent.forget()

    def moves(
        self, games: Any, listed: npt.NDArray[np.int32], others: npt.NDArray[np.int32]
    ) -> npt.NDArray[np.int64]:
        """The moves of the listed waiting games of ``games`` (the engine's batch), each by the
        member drawn for its seat and episode; every member is called once for all its games."""
        chosen = [
            self._member(games, game, other)
            for game, other in zip(listed.tolist(), others.tolist(), strict=True)
        ]
        moves = np.empty(len(listed), np.int64)
        by_member: dict[int, list[int]] = {}
        for row, member in enumerate(chosen):
            by_member.setdefault(id(member), []).append(row)
        for rows in by_member.values():
            at = np.array(rows, np.intp)
            member = chosen[rows[0]][1]
            moves[at] = member.moves(
                games, np.ascontiguousarray(listed[at]), np.ascontiguousarray(others[at])
            )
        return moves

    # --- internals -------------------------------------------------------------------------

    def _member(self, games: Any, game: int, other: int) -> tuple[str, Any]:
        """The member playing seat ``other`` of ``game`` in its current episode (drawn now if
        the episode is new to the league, after the snapshot its schedule asks for)."""
        seed = int(games.episode_seed(game))
        drawn = self._drawn.get(game)
        if drawn is None or drawn[0] != seed:
            self._begin_episode()
            drawn = self._drawn[game] = (seed, {})
        if other not in drawn[1]:
            drawn[1][other] = self._draw()
        return drawn[1][other]

    def _members(self) -> list[tuple[str, Any]]:
        latest = [] if self._latest is None else [self._latest]
        return latest + self.checkpoints + self._bots
