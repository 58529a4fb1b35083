"""The bot pool's scheduling policy (:class:`~quadropolis.server.bot_pool.Lane`), on one
worker thread so the order of the jobs is the order they ran in: moves before analyses but
never for ever, round-robin between owners, and which levels take the costly lane."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from quadropolis.server.bot_pool import ANALYSIS, COSTLY_LEVELS, MOVE, MOVES_PER_ANALYSIS, Lane
from quadropolis.server.errors import Unavailable


def test_owners_take_turns_and_analyses_wait_a_few_moves_at_most() -> None:
    ran: list[str] = []
    gate = threading.Event()

    def job(name: str) -> str:
        if name == "X":
            gate.wait(10)  # the worker is busy while the others queue
        ran.append(name)
        return name

    async def go() -> list[str]:
        with ThreadPoolExecutor(1) as executor:
            lane = Lane("test", executor, workers=1, queue=8)
            first = asyncio.create_task(lane.run(MOVE, "x", job, "X"))
            await asyncio.sleep(0)  # the tasks made so far run up to their wait
            rest = [
                asyncio.create_task(lane.run(kind, owner, job, name))
                for kind, owner, name in [
                    (MOVE, "a", "A1"),
                    (MOVE, "a", "A2"),
                    (MOVE, "a", "A3"),
                    (ANALYSIS, "c", "C1"),
                    (MOVE, "b", "B1"),
                ]
            ]
            await asyncio.sleep(0)  # the tasks made so far run up to their wait
            assert lane.waiting() == 5
            gate.set()
            return [await t for t in (first, *rest)]

    results = asyncio.run(go())
    assert results == ["X", "A1", "A2", "A3", "C1", "B1"]  # each caller gets its own result
    # a, then b (round-robin), then a; after four moves the waiting analysis goes
    assert MOVES_PER_ANALYSIS == 4
    assert ran == ["X", "A1", "B1", "A2", "C1", "A3"]


def test_waiting_analyses_are_bounded() -> None:
    gate = threading.Event()

    async def go() -> None:
        with ThreadPoolExecutor(1) as executor:
            lane = Lane("test", executor, workers=1, queue=1)
            busy = asyncio.create_task(lane.run(MOVE, "x", gate.wait, 10))
            await asyncio.sleep(0)  # the tasks made so far run up to their wait
            waiting = asyncio.create_task(lane.run(ANALYSIS, "a", len, "a"))
            await asyncio.sleep(0)  # the tasks made so far run up to their wait
            with pytest.raises(Unavailable, match="1 analyses are waiting"):
                await lane.run(ANALYSIS, "b", len, "b")
            gate.set()
            assert await busy is True and await waiting == 1

    asyncio.run(go())


def test_only_the_searching_levels_are_costly() -> None:
    assert {"hard", "expert"} == COSTLY_LEVELS
