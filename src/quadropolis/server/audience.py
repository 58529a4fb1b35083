"""Who is connected to each game in this process, above the authority: the open connections
per game (a watched finished game stays in memory), and the presence of seat holders —
counted at once (takeover reads it: :attr:`~.service.GameService.attendance`) but written and
pushed only after ``Limits.presence_delay``, once for every change in between, so a seat
holder's connect/close loop costs a bounded number of database writes and pushes, not two
per cycle. :class:`~quadropolis.server.service.GameService` knows nothing of it: it asks
:attr:`~.service.GameService.watched`, which this sets."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Iterable

from .errors import Unavailable
from .game import LiveGame
from .service import GameService


class Audience:
    """The connections of one server process's games (see the module docstring)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        #: Open connections (players and spectators) per game, to know when to evict it.
        self._watchers: Counter[str] = Counter()
        #: Games whose presence changed and is not yet written and pushed (debounced).
        self._due: dict[str, set[int]] = {}
        self._flushes: set[asyncio.Task[None]] = set()
        self._closing = False
        service.watched = self.watched

    def watched(self, game_id: str) -> bool:
        """Whether a client of this process is connected to ``game_id``."""
        return self._watchers[game_id] > 0

    def opened(self, game_id: str) -> None:
        """A client (player or spectator) connected to ``game_id`` in this process."""
        self._watchers[game_id] += 1

    def closed(self, game_id: str) -> None:
        """A client of ``game_id`` left. A finished game nobody watches leaves memory once no
        one has asked for it for ``finished_cache`` seconds (the sweeper's), not at once: a
        spectator reconnecting in a loop to a finished game would have it read again from
        the database and replayed at every connection."""
        self._watchers[game_id] -= 1
        if self._watchers[game_id] <= 0:
            del self._watchers[game_id]
        self.service.evict_if_idle(game_id, self.service.clock.monotonic())

    async def connected(self, game_id: str, seats: Iterable[int]) -> None:
        """A client holding ``seats`` connected to this process."""
        await self._change(game_id, list(seats), +1)

    async def disconnected(self, game_id: str, seats: Iterable[int]) -> None:
        """A client holding ``seats`` went away (the takeover clock starts now)."""
        await self._change(game_id, list(seats), -1)

    async def close(self) -> None:
        """Drop the presence writes not yet made (the next heartbeat is another process's)."""
        self._closing = True
        tasks = list(self._flushes)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _change(self, game_id: str, seats: list[int], delta: int) -> None:
        """Count the change at once, write and push it after ``presence_delay``."""
        if not seats:
            return
        service = self.service
        game = await service.game(game_id)
        service.attendance.change(game, seats, delta, service.clock.time())
        due = self._due.get(game_id)
        if due is not None:
            due.update(seats)
            return
        self._due[game_id] = set(seats)
        task = asyncio.create_task(self._flush(game), name=f"presence-{game_id}")
        self._flushes.add(task)  # held until done: the loop keeps only weak references
        task.add_done_callback(self._flushes.discard)

    async def _flush(self, game: LiveGame) -> None:
        """After ``presence_delay``, write the presence of ``game`` changed meanwhile, and push
        it if what clients see changed."""
        service = self.service
        await service.clock.sleep(service.limits.presence_delay)
        seats = sorted(self._due.pop(game.id, ()))
        if self._closing or not seats:
            return
        now = service.clock.time()
        with contextlib.suppress(Unavailable):  # presence is advisory; the next heartbeat retries
            await service.run(service.store.touch, game.id, seats, now)
        service.attendance.touched(game.id, now)
        if service.attendance.shown_changed(game):
            service.notify(game.id)
