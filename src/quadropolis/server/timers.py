"""The timers of the server, above the authority: two periodic tasks driving
:class:`~quadropolis.server.service.GameService`, which knows nothing of them.

**The sweeper** (every ``sweep_seconds``): heartbeats for present players of takeover games,
others' heartbeats read back, takeovers started or ended (pushed to clients), stalled bot
turns restarted, finished games nobody asked for evicted from memory, and, every
``Limits.expiry_check`` seconds, **expiry**: waiting games with no activity for
``waiting_expiry`` seconds end ``expired``; a running one where no person acted for
``playing_expiry`` is lost by the person to move (``over``, a forfeit) once every person has
played :data:`~.data.MIN_OWN_MOVES` moves of their own, else aborted (``expired``).

**The clocks** (:mod:`~quadropolis.server.clocks`): a table with a time per move stores the
deadline of the turn being played with each action; when it passes, the bot of
``takeover_level`` plays the turn (actor ``clock``). The clock task wakes at the earliest
deadline in the database (loading that game if this process has not yet), when the service
signals a nearer one (:attr:`~.service.GameService.deadline_moved`), or every
:data:`~.clocks.CLOCK_POLL` seconds, so deadlines pass after a restart without any game
being replayed at start-up.

Both wait on the service's clock (:mod:`~quadropolis.server.clock`): a test moving a manual
clock makes hours pass for them at once."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Final

from ..outcome import outcome
from ..record import result_json
from .clocks import CLOCK_POLL, IDLE_MOVES
from .data import ENDED, EXPIRED, MIN_OWN_MOVES, PLAYING
from .game import HUMAN, LiveGame
from .service import GameService

log = logging.getLogger("quadropolis.server")

#: A running game unchanged this long is checked for a bot turn to start by every process.
STALL_SECONDS: Final = 1.0


class Timers:
    """The sweeper and the clocks of one server process (see the module docstring)."""

    def __init__(self, service: GameService, sweep_seconds: float = 0.5) -> None:
        self.service = service
        self.sweep_seconds = sweep_seconds
        self._tasks: list[asyncio.Task[None]] = []
        self._next_expiry = 0.0
        self._closing = False

    async def start(self) -> None:
        """Start the two periodic tasks."""
        self._tasks = [
            asyncio.create_task(self._sweep_forever(), name="sweeper"),
            asyncio.create_task(self._clocks_forever(), name="clocks"),
        ]

    async def close(self) -> None:
        """Stop them (a sweep or clock check under way is cancelled)."""
        self._closing = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # --- the sweeper -------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while True:
            await self.service.clock.sleep(self.sweep_seconds)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sweep failed")

    async def sweep(self) -> None:
        """Heartbeats for present players of takeover games, others' heartbeats read back,
        takeovers started or ended (pushed to clients), stalled bot turns restarted, idle
        finished games evicted, and expiry when its time has come."""
        service = self.service
        now = service.clock.time()
        watched = [g for g in service.games() if g.status == PLAYING and g.takeover_after is not None]
        await self._heartbeats(watched, now)
        # A bot turn is started by the process that made the move before it; others step in
        # only when a game has stalled (that process died, or takeover time has come).
        stalled = service.clock.monotonic() - STALL_SECONDS
        for game in service.games():
            if game.status == PLAYING and service.changed_at(game.id) <= stalled:
                service.kick(game)
            elif game.status in ENDED:
                service.evict_if_idle(game.id, service.clock.monotonic())
        if now >= self._next_expiry:
            self._next_expiry = now + service.limits.expiry_check
            await self.expire()

    async def _heartbeats(self, watched: list[LiveGame], now: float) -> None:
        """Write the heartbeats due of the players present here in ``watched`` (takeover
        games), read back the others', and push the games whose shown presence changed."""
        service, presence = self.service, self.service.attendance
        for game in watched:
            here = presence.heartbeat_due(game, now)
            if here:
                await service.run(service.store.touch, game.id, here, now)
                presence.touched(game.id, now)
        if watched:
            for game_id, seat in await service.run(service.store.takeover_candidates):
                held = service.loaded(game_id)
                if held is not None and seat.last_seen is not None:
                    known = held.seats[seat.seat].last_seen
                    if known is None or seat.last_seen > known:
                        held.seen(seat.seat, seat.last_seen)
        for game in watched:
            if presence.shown_changed(game):
                service.notify(game.id)

    async def expire(self) -> list[str]:
        """End the games idle too long (see :class:`~.settings.Limits`); their ids. A running
        one whose persons have each played :data:`~.data.MIN_OWN_MOVES` moves of their own
        is lost by the person to move (``over``: :meth:`_forfeit_idle`); any other is
        ``expired`` (aborted, without a result). Each is announced, so the other processes
        holding one read its new status."""
        service, limits = self.service, self.service.limits
        now = service.clock.time()
        since = (now - limits.waiting_expiry, now - limits.playing_expiry)
        clock_idle = IDLE_MOVES * limits.clock_scale
        forfeited = []
        for game_id in await service.run(service.store.idle_running, since[1], now, clock_idle):
            if await self._forfeit_idle(game_id, now, (since[1], clock_idle)):
                forfeited.append(game_id)
        expired = await service.run(service.store.expire, *since, now, clock_idle)
        for game_id in expired:
            game = service.loaded(game_id)
            if game is not None and game.status not in ENDED:
                game.status = EXPIRED
                game.presence += 1
            await service.broker.publish(game_id, game.version if game is not None else 0)
        return forfeited + expired

    async def _forfeit_idle(self, game_id: str, now: float, idle: tuple[float, float]) -> bool:
        """End idle running ``game_id`` as lost by the seat to move, if a person holds it and
        every seat a person holds has played :data:`~.data.MIN_OWN_MOVES` moves of its own;
        whether it did (else :meth:`expire` aborts it)."""
        service = self.service
        game = await service.game(game_id)
        async with game.lock:
            await service.catch_up_locked(game)
            seat = game.to_move
            people = [s.seat for s in game.seats if s.kind == HUMAN and s.token_hash is not None]
            if seat is None or seat not in people or any(game.own_moves(p) < MIN_OWN_MOVES for p in people):
                return False
            result = result_json(outcome(game.state, (*game.forfeits, seat)))
            if not await service.run(service.store.forfeit_idle, game_id, seat, result, now, idle):
                return False
            await service.catch_up_locked(game, now)
            await service.publish(game)
        return True

    # --- the clocks --------------------------------------------------------------------

    async def _clocks_forever(self) -> None:
        """Wake at the next deadline (or a nearer one set meanwhile, or every
        :data:`CLOCK_POLL` seconds) and start the bot's move of each game whose time ran out."""
        wake, clock = self.service.deadline_moved, self.service.clock
        while not self._closing:
            looked = clock.monotonic()
            try:
                wait = await self.run_clocks()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock check failed")
                wait = CLOCK_POLL
            # Counted from the look, not its end: time passing during the look counts.
            await clock.wait(wake, looked + wait - clock.monotonic())
            wake.clear()

    async def run_clocks(self) -> float:
        """Start the bot's move in every running game whose time per move ran out (loading
        the game if needed); the seconds until the next check is due."""
        service = self.service
        now = service.clock.time()
        due, upcoming = await service.run(service.store.due_clocks, now)
        for game_id in due:
            game = await service.game(game_id)
            if game.deadline is None or game.deadline > now:
                await service.catch_up(game)  # another process moved it on meanwhile
            service.kick(game)
        wait = CLOCK_POLL if upcoming is None else min(CLOCK_POLL, upcoming - now)
        # A due move under way is retried by the sweeper; do not spin on it meanwhile.
        return max(wait, STALL_SECONDS if due else 0.01)
