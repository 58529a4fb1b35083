"""The server's one clock: wall time (stored and shown: deadlines, last activity, when a game
was created) and monotonic time (intervals kept in memory: when a game last changed, rate
buckets), and the waits of the periodic tasks, which end early when the clock is moved.

:class:`SystemClock` is the server's; :class:`ManualClock` stands still until a test moves
it (:meth:`ManualClock.advance`), waking every wait whose time has come, so a test of expiry,
clocks or eviction passes hours without sleeping.

Pure: standard library only."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Protocol


class Clock(Protocol):
    """Wall and monotonic time, and waits measured on them."""

    def time(self) -> float:
        """Seconds since the epoch (what is stored and shown)."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (intervals kept in memory)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""
        ...

    async def wait(self, event: asyncio.Event, seconds: float) -> None:
        """Return once ``event`` is set or ``seconds`` have passed, whichever comes first."""
        ...


class SystemClock:
    """The machine's clocks (:func:`time.time`, :func:`time.monotonic`)."""

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def wait(self, event: asyncio.Event, seconds: float) -> None:
        # asyncio.timeout, not wait_for: wait_for (3.11) loses a cancellation that arrives
        # as the event is set, and a task closing its waiter would wait forever.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, seconds)):
                await event.wait()


class ManualClock:
    """A clock that moves only when told (:meth:`advance`); its wall and monotonic times
    move together. Waits end when an advance reaches their time."""

    def __init__(self, wall: float = 1_750_000_000.0, monotonic: float = 1_000.0) -> None:
        self._offset = wall - monotonic
        self._now = monotonic
        self._moved = asyncio.Condition()

    def time(self) -> float:
        return self._now + self._offset

    def monotonic(self) -> float:
        return self._now

    async def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``, wake the waits whose time has come, and let
        the woken tasks run up to their next wait for anything."""
        self._now += seconds
        async with self._moved:
            self._moved.notify_all()
        for _ in range(10):  # a woken task may take several steps before waiting again
            await asyncio.sleep(0)

    async def sleep(self, seconds: float) -> None:
        await self._until(self._now + seconds)

    async def wait(self, event: asyncio.Event, seconds: float) -> None:
        if event.is_set():
            return
        # The end is fixed now, not when the sleeping task first runs: an advance in between
        # must count.
        sleeper = asyncio.ensure_future(self._until(self._now + seconds))
        setter = asyncio.ensure_future(event.wait())
        try:
            await asyncio.wait((sleeper, setter), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sleeper, setter):
                task.cancel()

    async def _until(self, end: float) -> None:
        async with self._moved:
            await self._moved.wait_for(lambda: self._now >= end)
