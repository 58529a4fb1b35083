"""Fan-out of "game G changed" notices to every server process serving the game.

A notice carries only the game id and its new version, never a state: the process receiving
it reads what changed from the database (the single source of truth), then pushes views to
its own clients. So a lost or late notice can delay a push but never corrupt a game, and
notices may arrive in any order.

- :class:`LocalBroker` (the default; SQLite is single-process): delivers within the process.
- :class:`RedisBroker` (``--redis URL``): also publishes on a Redis pub/sub channel to which
  every process subscribes; a process ignores its own notices (it has delivered them locally
  already). After a lost connection to Redis it resubscribes and asks for a full catch-up
  (:data:`EVERY_GAME`), since notices sent meanwhile are gone."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

log = logging.getLogger("quadropolis.server")

#: The game id of a notice asking to catch up every game held (after a broker outage).
EVERY_GAME: Final = "*"
CHANNEL: Final = "quadropolis:games"


@dataclass(frozen=True, slots=True)
class Notice:
    game: str
    version: int
    #: True when it comes from another process (the receiver must read the database).
    remote: bool = False


Deliver = Callable[[Notice], Awaitable[None]]


class Broker(ABC):
    """Delivers notices to this process (``deliver``, given to :meth:`start`) and, for a
    shared broker, to every other process."""

    @abstractmethod
    async def start(self, deliver: Deliver) -> None: ...

    @abstractmethod
    async def publish(self, game: str, version: int) -> None:
        """Announce that ``game`` is now at ``version`` (delivered locally before returning)."""

    @abstractmethod
    async def close(self) -> None: ...


class LocalBroker(Broker):
    """One process: publishing is delivering."""

    def __init__(self) -> None:
        self._deliver: Deliver | None = None

    async def start(self, deliver: Deliver) -> None:
        self._deliver = deliver

    async def publish(self, game: str, version: int) -> None:
        if self._deliver is not None:
            await self._deliver(Notice(game, version))

    async def close(self) -> None:
        self._deliver = None


class RedisBroker(Broker):
    """Redis pub/sub between processes (each process has its own random ``origin``)."""

    def __init__(self, url: str, channel: str = CHANNEL, retry_seconds: float = 0.5) -> None:
        import redis.asyncio as aioredis

        self._redis: Any = aioredis.from_url(url)
        self.channel = channel
        self.origin = secrets.token_hex(8)
        self._retry = retry_seconds
        self._deliver: Deliver | None = None
        self._task: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()

    async def start(self, deliver: Deliver) -> None:
        self._deliver = deliver
        self._task = asyncio.create_task(self._listen(), name="redis-listener")
        # Serve only once subscribed: a notice published before would be missed.
        await asyncio.wait_for(self._subscribed.wait(), timeout=30)

    async def publish(self, game: str, version: int) -> None:
        if self._deliver is not None:
            await self._deliver(Notice(game, version))
        payload = json.dumps({"game": game, "version": version, "origin": self.origin})
        try:
            await self._redis.publish(self.channel, payload)
        except Exception as e:  # the move is stored; other processes catch up on reconnect
            log.warning("redis publish failed: %s", e)

    async def _listen(self) -> None:
        first = True
        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.subscribe(self.channel)
                self._subscribed.set()
                if not first and self._deliver is not None:
                    await self._deliver(Notice(EVERY_GAME, 0, remote=True))
                first = False
                async for message in pubsub.listen():
                    await self._receive(message)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("redis subscription lost (%s); retrying", e)
                await asyncio.sleep(self._retry)

    async def _receive(self, message: dict[str, Any]) -> None:
        if message.get("type") != "message" or self._deliver is None:
            return
        try:
            data = json.loads(message["data"])
            notice = Notice(str(data["game"]), int(data["version"]), remote=True)
            if data.get("origin") == self.origin:
                return
        except (ValueError, KeyError, TypeError):
            log.warning("ignoring a malformed broker message")
            return
        await self._deliver(notice)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._deliver = None
        await self._redis.aclose()


def make_broker(redis_url: str | None) -> Broker:
    return RedisBroker(redis_url) if redis_url else LocalBroker()
