"""Group commit: the actions of every game waiting to be stored go to the database together,
in one transaction, so one sync to disk acknowledges them all.

A commit costs a round trip to the database's single writer (SQLite) or its log, and with
PostgreSQL or SQLite's ``full`` sync level a sync of the disk, from a fraction of a
millisecond to several on a busy machine; one commit per move would cap the server at a few
hundred moves per second and queue every move behind the others. The
:class:`Writer` runs at most one batch at a time: actions arriving while a batch commits form
the next one. Each caller still learns its own action's fate (stored, or refused because its
version was taken), and is answered only once the batch is committed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..errors import QuadropolisError
from .data import ActionData

#: (game, action, its result if it ends the game, the next move's deadline if the game has a clock)
Batch = Sequence[tuple[str, ActionData, dict[str, Any] | None, float | None]]
#: Runs ``Store.append_batch`` off the event loop (in the database thread).
Runner = Callable[[Batch], Awaitable[list[QuadropolisError | None]]]


class Writer:
    """Appends actions through ``run`` (``Store.append_batch`` in a thread), batched."""

    def __init__(self, run: Runner) -> None:
        self._run = run
        self._pending: list[
            tuple[str, ActionData, dict[str, Any] | None, float | None, asyncio.Future[None]]
        ] = []
        self._busy = False
        self._task: asyncio.Task[None] | None = None

    async def append(
        self, game_id: str, action: ActionData, result: dict[str, Any] | None, deadline: float | None = None
    ) -> None:
        """Store ``action`` (with the next move's ``deadline``, if the game has a clock);
        returns once committed, or raises what refused it."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((game_id, action, result, deadline, future))
        if not self._busy:
            self._busy = True
            self._task = asyncio.create_task(self._drain(), name="group-commit")
        await future

    async def _drain(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    outcomes = await self._run([(g, a, r, d) for g, a, r, d, _ in batch])
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
        finally:
            self._busy = False
