"""Group commit: the actions of every game waiting to be stored go to the database together,
in one transaction, so one sync to disk acknowledges them all.

A commit costs a round trip to the database's single writer (SQLite) or its log, and with
PostgreSQL or SQLite's ``full`` sync level a sync of the disk, from a fraction of a
millisecond to several on a busy machine; one commit per move would cap the server at a few
hundred moves per second and queue every move behind the others. The
:class:`Writer` runs at most ``concurrency`` batches at a time (one for SQLite, whose single
writer would only make a second one wait; two for PostgreSQL, which syncs its log once for
the commits that arrive together): actions arriving while they commit form the next one. With
one batch at a time an action arriving during a commit waits for that commit, then its own
(one and a half on average); with two it usually waits for its own only. Each caller still
learns its own action's fate (stored, or refused because its version was taken), and is
answered only once its batch is committed. A game's actions are never in two batches at
once: the service stores them one at a time, under the game's lock."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..errors import QuadropolisError
from .data import ActionData, PendingAction

Batch = Sequence[PendingAction]
#: Stores a batch: ``Store.append_batch`` in the database thread (SQLite), or PostgreSQL's
#: one-statement commit awaited on the event loop (:mod:`.postgres_commit`).
Runner = Callable[[Batch], Awaitable[list[QuadropolisError | None]]]


class Writer:
    """Appends actions through ``run`` (``Store.append_batch`` in a thread), batched, at most
    ``concurrency`` batches committing at once."""

    def __init__(self, run: Runner, concurrency: int = 1) -> None:
        self._run = run
        self._concurrency = concurrency
        self._pending: list[
            tuple[str, ActionData, dict[str, Any] | None, float | None, float | None, asyncio.Future[None]]
        ] = []
        #: The batches committing now (each drains the pending actions until none is left).
        self._tasks: set[asyncio.Task[None]] = set()

    async def append(
        self,
        game_id: str,
        action: ActionData,
        result: dict[str, Any] | None,
        deadline: float | None = None,
        activity: float | None = None,
    ) -> None:
        """Store ``action`` (with the next move's ``deadline``, if the game has a clock, and
        the game's last ``activity`` after it, if it changes it); returns once committed, or
        raises what refused it."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((game_id, action, result, deadline, activity, future))
        if len(self._tasks) < self._concurrency:
            self._tasks.add(asyncio.create_task(self._drain(), name="group-commit"))
        await future

    async def _drain(self) -> None:
        try:
            await self._commit_pending()
        finally:
            # At once, not in a done callback: an action appended after the last look at the
            # pending list must find room for a new batch, or it would wait forever.
            task = asyncio.current_task()
            if task is not None:
                self._tasks.discard(task)

    async def _commit_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                outcomes = await self._run([(g, a, r, d, t) for g, a, r, d, t, _ in batch])
            except BaseException as e:  # the whole transaction failed: so did each action
                for *_, future in batch:
                    if not future.done():
                        future.set_exception(e)
                if isinstance(e, asyncio.CancelledError):
                    raise
                continue
            for (*_, future), failure in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if failure is None:
                    future.set_result(None)
                else:
                    future.set_exception(failure)
