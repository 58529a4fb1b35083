"""Post-game reviews as the server runs them: one job per game (or posted record), searched
move by move on the bot workers, with its progress polled.

A one-way helper of :class:`~quadropolis.server.records.Records`: the records side decides
what may be reviewed (a finished game, a record that replays) and where a result is kept (a
game's in the database, a posted record's in a small in-memory cache); this module runs the
jobs and never calls back into it.

**Bounds.** One job at a time per game or record (asking again while it runs returns its
progress); at most ``per_client`` jobs running for one client address and ``running`` on the
whole server (beyond: ``rate_limited``); each job takes one bot-worker slot per move, in turn
with the bots' decisions, so the games go on while it runs. **Cancelled when nobody waits:**
every poll (``GET`` or ``POST`` of the review) counts as someone waiting; a job not polled
for :data:`ABANDON_SECONDS` stops before its next move and its progress is dropped (asking
again starts it afresh; the review is deterministic, so it comes out the same)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

from ..bots import PositionSearch, assemble, positions
from ..record import GameRecord
from .bot_pool import BotPool
from .errors import RateLimited, Unavailable

log = logging.getLogger("quadropolis.server")

#: Seconds without a poll after which a running review is abandoned.
ABANDON_SECONDS: Final = 30.0
#: Reviews of posted records kept in memory (a game's is stored in the database).
RECORD_REVIEWS: Final = 64

Save = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass
class _Job:
    client: str
    total: int
    last_poll: float
    done: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class ReviewJobs:
    """Running reviews by key (a game id, or ``record:`` and a digest), with their bounds."""

    def __init__(
        self,
        per_client: int = 2,
        running: int = 8,
        abandon_after: float = ABANDON_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_client = per_client
        self.running = running
        self.abandon_after = abandon_after
        self.clock = clock
        self._jobs: dict[str, _Job] = {}
        self._failed: dict[str, str] = {}

    def progress(self, key: str) -> dict[str, Any] | None:
        """The reply for a review under way (and a poll that keeps it going), a failure once,
        or ``None`` when none runs."""
        failure = self._failed.pop(key, None)
        if failure is not None:
            return {"status": "failed", "message": failure}
        job = self._jobs.get(key)
        if job is None:
            return None
        job.last_poll = self.clock()
        return {"status": "running", "done": job.done, "total": job.total}

    def start(
        self, key: str, bots: BotPool | None, record: GameRecord, iterations: int, client: str, save: Save
    ) -> dict[str, Any]:
        """Start reviewing ``record`` (replays: checked already) under ``key``, or return the
        progress of the job already running there. ``save`` receives ``Review.to_json()``."""
        running = self.progress(key)
        if running is not None and running["status"] == "running":
            return running
        if bots is None:
            raise Unavailable("this server runs no bot workers: reviews are off")
        if self.running_for(client) >= self.per_client:
            raise RateLimited(
                f"at most {self.per_client} reviews at a time per client: wait for one under way"
            )
        if len(self._jobs) >= self.running:
            raise RateLimited(f"the server runs {self.running} reviews already: try again in a minute")
        job = _Job(client, len(record.moves), self.clock())
        self._jobs[key] = job
        job.task = asyncio.create_task(
            self._run(key, job, bots, record, iterations, save), name=f"review-{key}"
        )
        return {"status": "running", "done": 0, "total": job.total}

    async def _run(
        self, key: str, job: _Job, bots: BotPool, record: GameRecord, iterations: int, save: Save
    ) -> None:
        try:
            states = await asyncio.to_thread(positions, record)
            searches: list[PositionSearch] = []
            for i in range(job.total):
                if self.clock() - job.last_poll > self.abandon_after:
                    log.info("review %s abandoned after %d of %d moves", key, i, job.total)
                    return
                searches.append(await bots.review_position(states[i], i, iterations, job.client))
                job.done = i + 1
            review = await asyncio.to_thread(assemble, record, states, searches, iterations)
            await save(review.to_json())
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a worker lost, the database down: say so once, allow a retry
            log.exception("review %s failed", key)
            self._failed[key] = f"the review failed ({type(e).__name__}): ask again to retry"
        finally:
            del self._jobs[key]

    def running_for(self, client: str) -> int:
        """Reviews running for ``client``."""
        return sum(1 for j in self._jobs.values() if j.client == client)

    async def close(self) -> None:
        """Cancel every running review (the server is stopping)."""
        tasks = [j.task for j in self._jobs.values() if j.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
