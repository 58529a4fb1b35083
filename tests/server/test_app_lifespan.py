"""The application's lifespan, run in this process: while it serves, the cyclic garbage
collector runs with the server's thresholds (young objects get time to die before they reach
the generation whose collection pauses every game); afterwards the process gets its own
thresholds back."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import httpx

from quadropolis.server.app import GC_THRESHOLDS, create_app
from quadropolis.server.settings import Settings


def test_the_collector_is_tuned_while_serving_and_restored_after(tmp_path: Path) -> None:
    app = create_app(Settings(f"sqlite:///{tmp_path / 'games.sqlite3'}"))
    before = gc.get_threshold()
    assert before != GC_THRESHOLDS

    async def serve() -> tuple[int, tuple[int, int, int]]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                reply = await client.get("/api/health")
            return reply.status_code, gc.get_threshold()

    status, serving = asyncio.run(serve())
    assert status == 200 and serving == GC_THRESHOLDS
    assert gc.get_threshold() == before
    # The young generation waits for more new objects, the middle one for more young collections.
    assert GC_THRESHOLDS[0] > before[0] and GC_THRESHOLDS[1] > before[1]
