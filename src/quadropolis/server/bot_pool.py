"""Bots playing server-side, off the event loop: every decision is computed in a worker
process, so a ``hard`` search never blocks other games' moves.

Only the levels of :data:`quadropolis.bots.LEVELS` can be asked for, by name; a budget never
comes from the network. Each decision runs in one search process (``workers=1``, as in the
arena), so the pool size is the server's whole bot budget.

Analyses (hints: :meth:`BotPool.analyse`) run in the same workers with the ``hard`` level's
iteration budget (no time cap: the same position always gets the same hint, however loaded
the server), in turn with the decisions; so do the positions of post-game reviews
(:meth:`BotPool.review_position`), one move at a time.

**Scheduling** (:class:`BotPool`), so that one visitor cannot starve the others' bots:

- two lanes, each its own worker processes: the *cheap* lane (``easy``, ``medium``: a few
  milliseconds a decision) and the *costly* lane (``hard``, ``expert`` and analyses); a cheap
  bot never waits behind a costly search;
- in each lane, bot moves before analyses (but at most :data:`MOVES_PER_ANALYSIS` moves in a
  row while an analysis waits: analyses slow down under load, never stop);
- among the jobs of one kind, round-robin over their owners (the address that created the
  game, or that asked for the analysis): an owner with twenty games waiting gets one turn in
  the lane, then every other owner with work waiting gets one, and so on;
- at most ``queue`` analyses wait at once (more: ``unavailable``); bot moves are bounded by
  the games themselves (one decision under way per game).

How many costly bot seats one address may have at once is the service's check
(:data:`COSTLY_LEVELS`, ``Limits.costly_bots_per_client``).

The worker receives :func:`quadropolis.bots.observe` of the state (the seed hidden) and an RNG
key (:func:`decision_key`) mixing the game's secret seed with its id and version: the same
move after a restart, and no way to predict it from public data."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import multiprocessing
import os
import random
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

from .. import engine
from ..bots import (
    LEVELS,
    SEARCH_LEVELS,
    Bot,
    MCTSBot,
    PositionSearch,
    analyse,
    make_bot,
    observe,
    search_position,
)
from ..errors import QuadropolisError
from ..moves import Move
from ..state import GameState
from .errors import Unavailable

_BOTS: dict[str, Bot] = {}
#: The level whose search analyses a position (hints), with its fixed budget.
ANALYSIS_LEVEL = "hard"
#: How much lower the bot workers' scheduling priority is than the server's.
WORKER_NICENESS = 10
#: A search level with more iterations than this per decision (over all its trees) is costly.
CHEAP_ITERATIONS: Final = 1000
#: The levels whose decisions take the costly lane (and count against an address's cap).
COSTLY_LEVELS: Final = frozenset(
    name for name, level in SEARCH_LEVELS.items() if level.iterations * level.trees > CHEAP_ITERATIONS
)
#: Bot moves served in a row, at most, while an analysis waits.
MOVES_PER_ANALYSIS: Final = 4
#: Job kinds, served in this order within a lane.
MOVE: Final = 0
ANALYSIS: Final = 1


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


@dataclass(slots=True)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


class Lane:
    """Worker processes serving jobs by kind (moves first), then round-robin by owner."""

    def __init__(self, name: str, executor: Executor, workers: int, queue: int) -> None:
        self.name = name
        self.executor = executor
        self.workers = workers
        self.queue = queue
        self._busy = 0
        #: Per kind: owner -> jobs waiting, owners in turn order.
        self._waiting: tuple[OrderedDict[str, deque[_Job]], ...] = (OrderedDict(), OrderedDict())
        self._analyses = 0
        #: Moves dispatched since the last analysis.
        self._streak = 0

    def waiting(self) -> int:
        return sum(len(jobs) for kind in self._waiting for jobs in kind.values())

    async def run(self, kind: int, owner: str, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker, in its turn (see the module docstring)."""
        if kind == ANALYSIS and self._analyses >= self.queue:
            raise Unavailable(f"{self._analyses} analyses are waiting already: try again in a moment")
        job = _Job(fn, args, asyncio.get_running_loop().create_future())
        self._waiting[kind].setdefault(owner, deque()).append(job)
        self._analyses += kind == ANALYSIS
        self._dispatch()
        return await job.future

    def _next(self) -> _Job | None:
        # Moves first, but never for ever: an analysis waiting goes after a few moves.
        starved = self._streak >= MOVES_PER_ANALYSIS and self._waiting[ANALYSIS]
        for kind in (ANALYSIS, MOVE) if starved else (MOVE, ANALYSIS):
            owners = self._waiting[kind]
            while owners:
                owner, jobs = next(iter(owners.items()))
                job = jobs.popleft()
                if jobs:
                    owners.move_to_end(owner)  # its next job waits for every other owner's
                else:
                    del owners[owner]
                self._analyses -= kind == ANALYSIS
                if not job.future.done():  # its caller may have given up (cancelled)
                    self._streak = self._streak + 1 if kind == MOVE else 0
                    return job
        return None

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._busy < self.workers:
            job = self._next()
            if job is None:
                return
            self._busy += 1
            running = loop.run_in_executor(self.executor, job.fn, *job.args)
            running.add_done_callback(partial(self._finished, job))

    def _finished(self, job: _Job, done: asyncio.Future[Any]) -> None:
        self._busy -= 1
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif done.exception() is not None:
                job.future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                job.future.set_result(done.result())
        with contextlib.suppress(RuntimeError):  # the loop may be closing
            self._dispatch()


class BotPool:
    """The two lanes of worker processes (spawned fresh, not forked from the threaded
    server): ``workers`` costly ones and one cheap one. ``executor`` (tests): one executor
    lent for both lanes."""

    def __init__(
        self, workers: int = 1, queue: int = 64, executor: ProcessPoolExecutor | None = None
    ) -> None:
        self.workers = max(1, workers)
        self._own = executor is None
        costly = executor or new_executor(self.workers)
        cheap = executor or new_executor(1)
        self.costly = Lane("costly", costly, self.workers, max(0, queue))
        self.cheap = Lane("cheap", cheap, 1, max(0, queue))

    async def start(self) -> None:
        """Start the worker processes now rather than at the first bot move."""
        loop = asyncio.get_running_loop()
        lanes = [(self.costly, self.workers), (self.cheap, 1)]
        await asyncio.gather(
            *(loop.run_in_executor(lane.executor, _warm) for lane, n in lanes for _ in range(n))
        )

    def lane(self, level: str) -> Lane:
        return self.costly if level in COSTLY_LEVELS else self.cheap

    async def choose(self, level: str, state: GameState, rng_key: str, owner: str = "") -> Move:
        """The move of a ``level`` bot for the player to move in ``state``; the bot sees only
        ``observe(state)``. ``owner``: whose turn in the lane it takes (the game's creator)."""
        if level not in LEVELS:
            raise QuadropolisError(f"unknown bot level {level!r}")
        observation = observe(state).to_json()
        text = await self.lane(level).run(MOVE, owner, _choose, level, observation, rng_key)
        return Move.parse(str(text))

    async def analyse(self, state: GameState, seed: int, top: int = 5, owner: str = "") -> dict[str, Any]:
        """``Analysis.to_json()`` of the position by the ``hard`` level's search, computed in
        a costly worker from ``observe(state)`` (the seed hidden), after the bot moves waiting
        there; ``owner``: the asking address (round-robin among those asking)."""
        observation = observe(state).to_json()
        result: dict[str, Any] = await self.costly.run(ANALYSIS, owner, _analyse, observation, seed, top)
        return result

    async def review_position(
        self, state: GameState, index: int, iterations: int, owner: str = ""
    ) -> PositionSearch:
        """One position of a post-game review searched in a costly worker (see
        :func:`quadropolis.bots.search_position`), queued as an analysis: after the bot moves
        waiting there, one position at a time, so the games' bots keep playing while a review
        runs. ``owner``: the asking address (round-robin among those asking)."""
        result: PositionSearch = await self.costly.run(
            ANALYSIS, owner, _review_position, state.to_json(), index, iterations
        )
        return result

    def close(self) -> None:
        """Stop the workers (unless the executor was lent by the caller)."""
        if self._own:
            for lane in (self.costly, self.cheap):
                lane.executor.shutdown(wait=True, cancel_futures=True)


def decision_key(seed: int, game_id: str, version: int) -> str:
    """The RNG key of a bot decision in game ``game_id`` at ``version``: a digest keyed by the
    game's seed (secret until the end), so it is the same after a restart but cannot be
    derived from what clients see (the id and version)."""
    digest = hashlib.blake2b(f"{game_id}/{version}".encode(), key=seed.to_bytes(8, "big"), digest_size=16)
    return digest.hexdigest()


def new_executor(workers: int) -> ProcessPoolExecutor:
    """A worker pool as :class:`BotPool` makes one (to share between pools in tests)."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_watch_parent,
        initargs=(os.getpid(),),
    )
