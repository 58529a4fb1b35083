"""What the in-process tests of the game service share: its collaborators started on a real
store (time on a manual clock if wished), games of two held by one person, and moves played
through the service."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor

from quadropolis.server.bot_pool import BotPool
from quadropolis.server.clock import Clock, ManualClock
from quadropolis.server.data import ActionData
from quadropolis.server.env import Env
from quadropolis.server.game import LiveGame
from quadropolis.server.protocol import CreateGame
from quadropolis.server.service import GameService
from quadropolis.server.settings import Limits
from quadropolis.server.storage import Store


@contextlib.asynccontextmanager
async def started_env(
    url: str,
    executor: ProcessPoolExecutor | None = None,
    limits: Limits | None = None,
    clock: Clock | None = None,
    sweep_seconds: float = 0.05,
) -> AsyncIterator[Env]:
    """The service over ``url`` (upgraded) with its collaborators, started; closed with its store."""
    store = Store(url)
    await asyncio.to_thread(store.upgrade)
    bots = BotPool(1, executor=executor) if executor is not None else None
    env = Env.build(store, bots=bots, limits=limits, sweep_seconds=sweep_seconds, clock=clock)
    await env.start()
    try:
        yield env
    finally:
        await env.close()
        store.close()


async def act_first_legal(service: GameService, game: LiveGame, tokens: dict[int, str]) -> ActionData:
    """Play the first legal move of the seat to move (one of ``tokens``'); the stored action."""
    seat = game.to_move
    assert seat is not None
    move = service.view(game)["legal_moves"][0]
    return await service.act(game.id, seat, tokens[seat], game.version, move)


def run_on_manual_clock(
    url: str,
    test: Callable[[Env, ManualClock], Awaitable[None]],
    executor: ProcessPoolExecutor | None = None,
    limits: Limits | None = None,
) -> None:
    """Run ``test`` on :func:`started_env` over ``url``, time on a new manual clock, no sweeps."""

    async def go() -> None:
        clock = ManualClock()
        async with started_env(url, executor, limits, clock, sweep_seconds=1e6) as env:
            await test(env, clock)

    asyncio.run(go())


async def hotseat_game(
    service: GameService, move_time: float | None = None
) -> tuple[LiveGame, dict[int, str]]:
    """A new game of two whose creator Ann takes both seats: the game and each seat's token."""
    new = await service.create(CreateGame(players=2, name="Ann", take=[0, 1], move_time=move_time), "c")
    return await service.game(new.game), new.tokens
