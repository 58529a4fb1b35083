"""The composition root of the game side: the authority
(:class:`~quadropolis.server.service.GameService`) and the collaborators above it, each
taking it in its constructor — the timers (sweeper, expiry, clocks:
:mod:`~quadropolis.server.timers`), the records side (records, summaries, replays, analyses,
reviews: :mod:`~quadropolis.server.records`) and the audience (connections and presence:
:mod:`~quadropolis.server.audience`) — built, started and closed together, in that order
and its reverse."""

from __future__ import annotations

from dataclasses import dataclass

from .audience import Audience
from .bot_pool import BotPool
from .broker import Broker
from .clock import Clock
from .records import Records
from .service import GameService
from .settings import Limits
from .storage import Store
from .timers import Timers


@dataclass(frozen=True, slots=True)
class Env:
    """One server process's game side."""

    service: GameService
    timers: Timers
    records: Records
    audience: Audience

    @classmethod
    def build(
        cls,
        store: Store,
        broker: Broker | None = None,
        bots: BotPool | None = None,
        limits: Limits | None = None,
        sweep_seconds: float = 0.5,
        clock: Clock | None = None,
    ) -> Env:
        """The service over ``store`` and its collaborators, not yet started."""
        service = GameService(store, broker, bots, limits, clock)
        return cls(service, Timers(service, sweep_seconds), Records(service), Audience(service))

    async def start(self) -> None:
        """Start the service (its broker), then the timers."""
        await self.service.start()
        await self.timers.start()

    async def close(self) -> None:
        """Stop the timers, the reviews and the presence writes, then the service."""
        await self.timers.close()
        await self.records.close()
        await self.audience.close()
        await self.service.close()
