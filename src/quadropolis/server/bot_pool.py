"""Bots playing server-side, off the event loop: every decision is computed in a worker
process (:class:`BotPool`, a :class:`~concurrent.futures.ProcessPoolExecutor` awaited with
``run_in_executor``), so a ``hard`` search never blocks other games' moves.

Only the levels of :data:`quadropolis.bots.LEVELS` (``easy``, ``medium``, ``hard``: the same
definitions as the terminal game) can be asked for, by name; a budget never comes from the
network. Each decision runs in one search process (``workers=1``, as in the arena: ``hard``
searches its 600 iterations in one tree), so the pool size is the server's whole bot budget:
``workers`` decisions at a time, at most ``queue`` waiting, the rest waiting their turn.

Analyses (hints: :meth:`BotPool.analyse`) run in the same workers with the ``hard`` level's
iteration budget (no time cap: the same position always gets the same hint, however loaded
the server), in turn with the decisions; so do the positions of post-game reviews
(:meth:`BotPool.review_position`), one move at a time.

The worker receives :func:`quadropolis.bots.observe` of the state (the seed hidden) and an RNG
key that does not depend on the seed, and returns the move in notation. The key is the game
id and version, so a decision recomputed after a restart is the same move."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .. import engine
from ..bots import LEVELS, Bot, MCTSBot, PositionSearch, analyse, make_bot, observe, search_position
from ..errors import QuadropolisError
from ..moves import Move
from ..state import GameState

_BOTS: dict[str, Bot] = {}
#: The level whose search analyses a position (hints), with its fixed budget.
ANALYSIS_LEVEL = "hard"
#: How much lower the bot workers' scheduling priority is than the server's.
WORKER_NICENESS = 10


def _choose(level: str, observation: dict[str, Any], rng_key: str) -> str:
    """In a worker: the move of a ``level`` bot in the observed state (notation)."""
    if level not in LEVELS:  # never trust the caller with a spec
        raise QuadropolisError(f"unknown bot level {level!r}")
    bot = _BOTS.get(level)
    if bot is None:
        bot = _BOTS[level] = make_bot(level, workers=1)
    state = GameState.from_json(observation)
    return str(bot.choose(state, random.Random(rng_key)))


def _analyse(observation: dict[str, Any], seed: int, top: int) -> dict[str, Any]:
    """In a worker: :func:`quadropolis.bots.analyse` of the observed state by ``hard``, with
    ``engine``: the search that computed it (``native`` unless the compiled engine is
    missing or ``QUADROPOLIS_ENGINE=python``)."""
    bot = _BOTS.get(ANALYSIS_LEVEL)
    if bot is None:
        bot = _BOTS[ANALYSIS_LEVEL] = make_bot(ANALYSIS_LEVEL, workers=1)
    if not isinstance(bot, MCTSBot):  # pragma: no cover - hard is a search bot
        raise QuadropolisError(f"bot {ANALYSIS_LEVEL!r} cannot analyse")
    found = analyse(GameState.from_json(observation), bot, seed, top=top).to_json()
    return {**found, "engine": bot.engine or engine.name()}


def _review_position(state: dict[str, Any], index: int, iterations: int) -> PositionSearch:
    """In a worker: :func:`quadropolis.bots.search_position` (it hides the seed itself)."""
    return search_position(GameState.from_json(state), index, iterations)


def _warm() -> int:
    return 0


def _watch_parent(parent: int) -> None:
    """In a worker: yield the CPU to the server (bot thinking is background work; a player's
    move waiting behind it is not), and exit once the server process is gone (killed with
    SIGKILL, it cannot shut its pool down, and an orphaned worker would wait forever)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class BotPool:
    """Worker processes choosing bot moves. ``workers`` processes (spawned fresh, not forked
    from the threaded server); at most ``workers + queue`` decisions submitted at once."""

    def __init__(
        self, workers: int = 1, queue: int = 64, executor: ProcessPoolExecutor | None = None
    ) -> None:
        self.workers = max(1, workers)
        self._own = executor is None
        self._executor = executor or new_executor(self.workers)
        self._slots = asyncio.Semaphore(self.workers + max(0, queue))

    async def start(self) -> None:
        """Start the worker processes now rather than at the first bot move."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._executor, _warm) for _ in range(self.workers)))

    async def choose(self, level: str, state: GameState, rng_key: str) -> Move:
        """The move of a ``level`` bot for the player to move in ``state``; the bot sees only
        ``observe(state)``."""
        if level not in LEVELS:
            raise QuadropolisError(f"unknown bot level {level!r}")
        observation = observe(state).to_json()
        loop = asyncio.get_running_loop()
        async with self._slots:
            text = await loop.run_in_executor(self._executor, _choose, level, observation, rng_key)
        return Move.parse(text)

    async def analyse(self, state: GameState, seed: int, top: int = 5) -> dict[str, Any]:
        """``Analysis.to_json()`` of the position by the ``hard`` level's search, computed in
        a worker from ``observe(state)`` (the seed hidden), in turn with bot decisions."""
        observation = observe(state).to_json()
        loop = asyncio.get_running_loop()
        async with self._slots:
            result: dict[str, Any] = await loop.run_in_executor(
                self._executor, _analyse, observation, seed, top
            )
        return result

    async def review_position(self, state: GameState, index: int, iterations: int) -> PositionSearch:
        """One position of a post-game review searched in a worker (see
        :func:`quadropolis.bots.search_position`), in turn with bot decisions: a review takes
        one slot per move, so the games' bots keep playing while it runs."""
        loop = asyncio.get_running_loop()
        async with self._slots:
            return await loop.run_in_executor(
                self._executor, _review_position, state.to_json(), index, iterations
            )

    def close(self) -> None:
        """Stop the workers (unless the executor was lent by the caller)."""
        if self._own:
            self._executor.shutdown(wait=True, cancel_futures=True)


def new_executor(workers: int) -> ProcessPoolExecutor:
    """A worker pool as :class:`BotPool` makes one (to share between pools in tests)."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_watch_parent,
        initargs=(os.getpid(),),
    )
