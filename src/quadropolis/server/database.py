"""The storage as the event loop sees it: a :class:`~quadropolis.server.storage.Store`'s calls
run in database threads, off the event loop, and the actions of every game committed
together (:mod:`~quadropolis.server.writer`; on PostgreSQL from the event loop itself:
:mod:`~quadropolis.server.postgres_commit`). A failure other than the storage's own errors is
logged and becomes :class:`~quadropolis.server.errors.Unavailable`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, Final, TypeVar

from ..errors import QuadropolisError
from .clock import Clock
from .data import ActionData
from .errors import Unavailable
from .postgres_commit import PostgresAppender
from .storage import Store
from .writer import Writer

log = logging.getLogger("quadropolis.server")

T = TypeVar("T")
#: Group commits in flight at once on PostgreSQL (:class:`.writer.Writer`; SQLite: one).
POSTGRES_BATCHES: Final = 2


class Database:
    """Calls of ``store`` off the event loop, and its group commits (``clock``: the commit
    connections' pool's, for pinging idle ones)."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        sqlite = store.backend == "sqlite"
        # SQLite admits one writer at a time: one thread avoids lock waits; PostgreSQL
        # takes several (its pool is as large).
        self._threads = ThreadPoolExecutor(1 if sqlite else 8, thread_name_prefix="db")
        # PostgreSQL's commits go from the event loop (:mod:`.postgres_commit`), SQLite's
        # from its database thread.
        appender = None if sqlite else PostgresAppender(store.url, POSTGRES_BATCHES, clock)
        self._appender = appender
        self._writer = Writer(
            partial(self.run, store.append_batch)
            if appender is None
            else lambda batch: self._stored(appender.append_batch(batch)),
            concurrency=1 if sqlite else POSTGRES_BATCHES,
        )

    async def open(self) -> None:
        """Open PostgreSQL's commit connections (SQLite: nothing to open)."""
        if self._appender is not None:
            await self._appender.open()

    async def close(self) -> None:
        """Close them, and wait for the database threads' calls to end."""
        if self._appender is not None:
            await self._appender.close()
        self._threads.shutdown(wait=True)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call in the database threads."""
        loop = asyncio.get_running_loop()
        return await self._stored(loop.run_in_executor(self._threads, partial(fn, *args)))

    async def append(
        self,
        game_id: str,
        action: ActionData,
        result: dict[str, Any] | None,
        deadline: float | None,
        activity: float | None,
    ) -> None:
        """Commit ``action`` of ``game_id`` with its effects, grouped with other games' actions
        (:meth:`.writer.Writer.append`: ``VersionTaken`` if its version is taken)."""
        await self._writer.append(game_id, action, result, deadline, activity)

    async def _stored(self, call: Awaitable[T]) -> T:
        """Await a storage call (in a database thread, or on the event loop): a failure
        other than the storage's own errors is logged and becomes :class:`Unavailable`."""
        try:
            return await call
        except QuadropolisError:  # VersionTaken, StorageError: the caller's to handle
            raise
        except Exception as e:
            log.exception("storage failure")
            raise Unavailable(f"storage unavailable: {type(e).__name__}") from None
