"""Clocks on SQLite and PostgreSQL: a game's time per move, the deadline
stored with every action, the bot playing the move whose time ran out (also after a restart,
for a game no process has loaded), correspondence games outliving the usual expiry, and the
migration ``0007`` upgrading a database of the previous version. Time passes on a manual
clock the tests move (:class:`~quadropolis.server.clock.ManualClock`); the clock scale
setting makes minutes and days short."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import pytest
from pydantic import ValidationError
from server_helpers import insert_old_game
from service_helpers import act_first_legal, started_env

from quadropolis.phases import TAKE
from quadropolis.server.clock import ManualClock
from quadropolis.server.data import EXPIRED, PLAYING, WAITING, GameData, SeatData
from quadropolis.server.env import Env
from quadropolis.server.migrations import current, upgrade
from quadropolis.server.protocol import CreateGame, SeatSpec
from quadropolis.server.service import GameService, NewGame
from quadropolis.server.settings import Limits
from quadropolis.server.storage import Store

#: A minute per move lasts 1.2 seconds; a day 1728 seconds.
SCALE = 0.02


def running(
    url: str, executor: ProcessPoolExecutor, clock: ManualClock, scale: float = SCALE
) -> contextlib.AbstractAsyncContextManager[Env]:
    """The service and its timers, started, on ``clock``."""
    return started_env(url, executor, Limits(clock_scale=scale), clock)


def hotseat(move_time: float | None = 60) -> CreateGame:
    """Two human seats both taken by the creator, a minute per move."""
    return CreateGame(players=2, name="Ann", take=[0, 1], move_time=move_time)


async def wait_for(predicate: object, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.05)


def count_looks(store: Store) -> Callable[[], int]:
    """Count the clocks' looks at ``store`` (``due_clocks`` calls) from now on; the count's reader."""
    due_clocks = store.due_clocks
    looks = 0

    def counted(now: float) -> tuple[list[str], float | None]:
        nonlocal looks
        looks += 1
        return due_clocks(now)

    store.due_clocks = counted  # type: ignore[method-assign]
    return lambda: looks


def test_the_bot_plays_the_move_whose_time_ran_out(db_url: str, executor: ProcessPoolExecutor) -> None:
    async def go() -> None:
        manual = ManualClock()
        async with running(db_url, executor, manual) as env:
            service = env.service
            new = await service.create(hotseat(), "c")
            game = await service.game(new.game)
            clock = service.view(game)["clock"]
            assert clock["move_seconds"] == 60 and clock["kind"] == "live"
            assert clock["deadline"] == pytest.approx(manual.time() + 1.2)
            stored = await asyncio.to_thread(service.store.load, new.game)
            assert stored is not None and stored.deadline == clock["deadline"] and stored.move_seconds == 60
            await manual.advance(1.1)
            await env.timers.run_clocks()
            await service.idle()
            assert game.version == 0  # not yet
            await manual.advance(0.2)  # (past it: 1.2 s in sums of floats may fall short by a hair)
            await wait_for(lambda: game.version >= 1 and game.state.phase == TAKE, 10)
            await the_next_turn_has_its_own_time(service, new, clock["deadline"])

    asyncio.run(go())


async def the_next_turn_has_its_own_time(service: GameService, new: NewGame, first_deadline: float) -> None:
    """The clock played seat 0's whole turn (its take, and the build due after it: the
    turn's time had run out); the next turn's time starts with the move that handed it over."""
    game = await service.game(new.game)
    assert [(a.actor, a.seat) for a in game.log] == [("clock", 0)] * game.version
    assert game.log[0].created_at >= first_deadline
    assert game.deadline == pytest.approx(game.log[-1].created_at + 1.2)
    stored = await asyncio.to_thread(service.store.load, new.game)
    assert stored is not None and stored.deadline == game.deadline
    # A take in time is the player's; the turn's time goes on (its build is due), and the
    # move that hands the turn over starts the next one's.
    turn_deadline = game.deadline
    while game.state.phase != TAKE or game.to_move == 1:
        action = await act_first_legal(service, game, new.tokens)
        assert action.actor == "player"
        if game.state.phase == TAKE:
            assert game.deadline == pytest.approx(action.created_at + 1.2)
        else:
            assert game.deadline == turn_deadline


def test_a_game_without_a_clock_has_none(db_url: str, executor: ProcessPoolExecutor) -> None:
    async def go() -> None:
        clock = ManualClock()
        async with running(db_url, executor, clock) as env:
            service = env.service
            new = await service.create(hotseat(None), "c")
            game = await service.game(new.game)
            assert service.view(game)["clock"] is None and game.deadline is None
            await clock.advance(600)
            await env.timers.run_clocks()
            await service.idle()
            assert game.version == 0

    asyncio.run(go())


def test_the_clock_starts_when_the_last_seat_is_taken(db_url: str, executor: ProcessPoolExecutor) -> None:
    async def go() -> None:
        manual = ManualClock()
        async with running(db_url, executor, manual, scale=1.0) as env:
            service = env.service
            new = await service.create(CreateGame(players=2, name="Ann", move_time=86400), "c")
            game = await service.game(new.game)
            assert game.status == WAITING and service.view(game)["clock"]["deadline"] is None
            await manual.advance(3600)
            await service.join(new.game, 1, "Bob")
            clock = service.view(game)["clock"]
            assert clock["kind"] == "correspondence"
            assert clock["deadline"] == manual.time() + 86400

    asyncio.run(go())


def test_the_clock_of_a_game_started_by_a_join_runs_out(db_url: str, executor: ProcessPoolExecutor) -> None:
    """The join that starts a game with a clock wakes the clocks (which otherwise look every
    CLOCK_POLL seconds): the bot plays the first move once its 1.2 s have run out."""

    async def go() -> None:
        clock = ManualClock()
        async with running(db_url, executor, clock) as env:
            service = env.service
            looks = count_looks(service.store)
            new = await service.create(CreateGame(players=2, name="Ann", move_time=60), "c")
            game = await service.game(new.game)
            await service.join(new.game, 1, "Bob")
            assert game.deadline is not None
            await wait_for(lambda: looks() >= 1, 10)  # the join woke the clocks, which looked
            await clock.advance(1.3)  # the clocks wake at the deadline, not CLOCK_POLL later
            await wait_for(lambda: game.version >= 1, 10)
            assert game.log[0].actor == "clock"

    asyncio.run(go())


def test_creating_or_joining_a_game_without_a_clock_does_not_wake_the_clocks(
    db_url: str, executor: ProcessPoolExecutor
) -> None:
    """The clocks read the database when woken: a game without a clock gives them nothing to
    do, so creating one (a burst of them at a busy server's start) costs no such read."""

    async def go() -> None:
        async with running(db_url, executor, ManualClock()) as env:
            service = env.service
            await asyncio.sleep(0.2)  # the clocks' first look, at the start
            looks = count_looks(service.store)
            new = await service.create(CreateGame(players=2, name="Ann"), "c")
            await service.create(hotseat(None), "c")
            await service.join(new.game, 1, "Bob")
            await asyncio.sleep(0.3)
            assert looks() == 0
            await service.create(hotseat(), "c")
            await wait_for(lambda: looks() == 1, 5)

    asyncio.run(go())


def test_deadlines_pass_after_a_restart_with_nothing_loaded_at_start(
    db_url: str, executor: ProcessPoolExecutor
) -> None:
    async def go() -> None:
        clock = ManualClock()
        async with running(db_url, executor, clock) as env:
            new = await env.service.create(hotseat(), "c")
            deadline = (await env.service.game(new.game)).deadline
        assert deadline is not None
        await clock.advance(deadline - clock.time() + 0.2)  # it passes while no server runs
        async with running(db_url, executor, clock) as env:
            second = env.service
            assert second.loads == 0 and second.loaded(new.game) is None
            await wait_for(lambda: second.loaded(new.game) is not None, 10)
            game = second.loaded(new.game)
            assert game is not None
            await wait_for(lambda: game.version >= 1, 10)
            assert game.log[0].actor == "clock" and second.loads == 1

    asyncio.run(go())


def test_a_correspondence_game_outlives_the_usual_expiry(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.upgrade()
        now = 1_000_000.0
        seats = tuple(SeatData(i, "human", None, f"P{i}", bytes([i]) * 32, 1.0) for i in range(2))
        config = {"mode": "classic", "players": 2, "seed": 7}
        for game_id, status, idle, move_seconds in [
            ("casual", PLAYING, 7200.0, None),  # two hours idle, no clock: expires
            ("letter", PLAYING, 7200.0, 86400.0),  # two hours into a day per move: lives
            ("asleep", PLAYING, 3 * 86400 + 1, 86400.0),  # three days without a person: expires
            ("invite", WAITING, 7200.0, 86400.0),  # waiting for a friend for two hours: lives
        ]:
            store.insert_game(
                GameData(game_id, config, status, True, "c", None, "easy", 0.0, None, None, seats,
                         last_activity=now - idle, move_seconds=move_seconds)
            )  # fmt: skip
        expired = store.expire(now - 1800, now - 3600, now, 3.0)
        assert sorted(expired) == ["asleep", "casual"]
        assert [g.status for g in map(store.load, ["letter", "invite", "asleep"]) if g] == [
            PLAYING,
            WAITING,
            EXPIRED,
        ]
        # A creator's quota counts a live correspondence game however long ago it was moved.
        assert store.active_games_of("c", now - 1800, now - 3600) == 2
    finally:
        store.close()


@pytest.mark.parametrize("seconds", [59, 301, 86399, 3 * 86400 + 1, 0, -60])
def test_times_per_move_outside_live_and_correspondence_are_refused(seconds: float) -> None:
    with pytest.raises(ValidationError, match="1 to 3 days"):
        CreateGame(move_time=seconds)
    assert CreateGame(move_time=300, seats=[SeatSpec(), SeatSpec()]).move_time == 300


def test_upgrading_a_database_of_the_previous_version_keeps_its_games(
    db_url: str, executor: ProcessPoolExecutor
) -> None:
    store = Store(db_url)
    try:
        upgrade(store.engine, "0006")
        insert_old_game(store.engine, "old")
        upgrade(store.engine, "0007")
        assert current(store.engine) == "0007"
        store.upgrade()
        old = store.load("old")
        assert old is not None and old.status == PLAYING and [a.move for a in old.actions] == ["1T1"]
        assert old.move_seconds is None and old.deadline is None  # no clock: plays as before
        assert store.due_clocks(1e12) == ([], None)
    finally:
        store.close()
