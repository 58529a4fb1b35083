"""The group commit (:class:`quadropolis.server.writer.Writer`): how many batches commit at
once, and that every caller learns its own action's fate only once its batch is done."""

from __future__ import annotations

import asyncio

import pytest

from quadropolis.errors import QuadropolisError
from quadropolis.server.data import ActionData
from quadropolis.server.writer import Batch, Writer


def action(version: int) -> ActionData:
    return ActionData(version, 0, "move", "1T1", None, "player", 1.0)


@pytest.mark.parametrize("concurrency", [1, 2])
def test_at_most_concurrency_batches_commit_at_once(concurrency: int) -> None:
    committing: list[int] = []
    peak = 0
    stored: list[str] = []
    synced = asyncio.Event()  # a commit's sync: held until the test lets it end

    async def run(batch: Batch) -> list[QuadropolisError | None]:
        nonlocal peak
        committing.append(len(batch))
        peak = max(peak, len(committing))
        await synced.wait()
        committing.pop()
        stored.extend(game for game, *_ in batch)
        return [None] * len(batch)

    async def main() -> None:
        writer = Writer(run, concurrency)
        calls = []
        for i in range(12):  # moves arriving while batches commit
            calls.append(asyncio.create_task(writer.append(f"g{i}", action(1), None)))
            for _ in range(3):
                await asyncio.sleep(0)
        assert len(committing) == concurrency  # the others wait for a batch to end
        synced.set()
        await asyncio.gather(*calls)

    asyncio.run(main())
    assert peak == concurrency
    assert sorted(stored) == sorted(f"g{i}" for i in range(12))  # each stored once


def test_a_failed_action_fails_alone_and_only_after_its_commit() -> None:
    async def run(batch: Batch) -> list[QuadropolisError | None]:
        await asyncio.sleep(0.01)
        return [QuadropolisError("taken") if game == "bad" else None for game, *_ in batch]

    async def main() -> list[BaseException | None]:
        writer = Writer(run, 2)
        results = await asyncio.gather(
            *(writer.append(g, action(1), None) for g in ("a", "bad", "c")), return_exceptions=True
        )
        return list(results)

    results = asyncio.run(main())
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], QuadropolisError) and str(results[1]) == "taken"


@pytest.mark.parametrize("concurrency", [1, 2])
def test_an_action_right_after_a_batch_is_stored(concurrency: int) -> None:
    """A caller woken by its batch's commit appends at once, before the batch's task is
    gone: it must start a new batch, not wait forever."""

    async def run(batch: Batch) -> list[QuadropolisError | None]:
        await asyncio.sleep(0)
        return [None] * len(batch)

    async def main() -> None:
        writer = Writer(run, concurrency)
        for version in range(1, 6):
            await writer.append("g", action(version), None)

    asyncio.run(asyncio.wait_for(main(), 5))
