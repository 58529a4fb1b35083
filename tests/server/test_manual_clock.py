"""The server's injected clock (:mod:`quadropolis.server.clock`): a manual clock's wall and
monotonic times move together and only when told, and its waits end when an advance reaches
them (or when their event is set), never on real time passing."""

from __future__ import annotations

import asyncio

from quadropolis.server.clock import ManualClock, SystemClock


def test_a_manual_clock_moves_only_when_told_and_wakes_the_waits_it_reaches() -> None:
    async def go() -> None:
        clock = ManualClock(wall=5_000.0, monotonic=10.0)
        assert (clock.time(), clock.monotonic()) == (5_000.0, 10.0)
        short = asyncio.create_task(clock.sleep(1.0))
        long = asyncio.create_task(clock.sleep(3.0))
        await asyncio.sleep(0.05)
        assert not short.done() and not long.done()  # real time passing moves nothing
        await clock.advance(1.5)
        assert short.done() and not long.done()
        assert (clock.time(), clock.monotonic()) == (5_001.5, 11.5)
        await clock.advance(1.5)
        assert long.done()

    asyncio.run(go())


def test_a_wait_ends_at_its_event_or_at_its_time() -> None:
    async def go() -> None:
        clock = ManualClock()
        event = asyncio.Event()
        by_event = asyncio.create_task(clock.wait(event, 30.0))
        await asyncio.sleep(0)
        assert not by_event.done()
        event.set()
        await asyncio.wait_for(by_event, 5)
        event.clear()
        waiter = asyncio.create_task(clock.wait(event, 2.0))
        await asyncio.sleep(0)  # it has started: its end is fixed, whenever its sleep first runs
        await clock.advance(2.0)
        await asyncio.wait_for(waiter, 5)
        await asyncio.wait_for(SystemClock().wait(event, 0.0), 5)  # the machine's: at once

    asyncio.run(go())
