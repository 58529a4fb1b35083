"""Presence flapping: a seat holder connecting and closing in a loop costs a
bounded number of database writes and state pushes (they are coalesced per game) — in process
on the real stores with time on a manual clock (exactly one write and at most one push per
``presence_delay``), and against a real server process (a bounded rate, and another client
answered throughout)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterable
from pathlib import Path

import pytest
from server_helpers import GENEROUS, Client, Server, database, hotseat

from quadropolis.server.clock import ManualClock
from quadropolis.server.env import Env
from quadropolis.server.protocol import CreateGame
from quadropolis.server.settings import Limits
from quadropolis.server.storage import Store

#: Cycles of connect, authenticate, close by one seat holder.
CYCLES = 500


def seat_updates(url: str) -> int | None:
    """Rows of ``seats`` updated so far (PostgreSQL's statistics), ``None`` on SQLite."""
    if not url.startswith("postgres"):
        return None
    import psycopg

    time.sleep(1.2)  # the server's statistics reach the collector within a second
    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute("SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'seats'").fetchone()
    assert row is not None
    return int(row[0])


def ping_times(client: Client, stop: threading.Event, out: list[float]) -> None:
    while not stop.is_set():
        started = time.monotonic()
        client.send(type="ping", id="p")
        client.expect("pong")
        out.append(time.monotonic() - started)
        time.sleep(0.1)  # 10 a second: under the per-connection message limit


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_flapping_seat_holder_costs_bounded_writes_and_pushes(kind: str, tmp_path: Path) -> None:
    # The flap is faster than the handshakes one address may open (test_abuse tests that limit):
    # lifted here, so that what is bounded is the presence's writes and pushes.
    lifted = ("--handshakes-per-address", "100000")
    with (
        database(kind, tmp_path) as url,
        Server(url, tmp_path, *lifted, *GENEROUS) as server,
        server.http() as http,
    ):
        game, tokens = hotseat(http)
        other, other_tokens = hotseat(http)
        watcher = Client(server.ws_url(game))
        victim = Client(server.ws_url(other), [other_tokens[0]])
        before = seat_updates(url)
        pings: list[float] = []
        stop = threading.Event()
        pinger = threading.Thread(target=ping_times, args=(victim, stop, pings), daemon=True)
        pinger.start()
        started = time.monotonic()
        for _ in range(CYCLES):
            Client(server.ws_url(game), [tokens[0]]).close()
        seconds = time.monotonic() - started
        stop.set()
        pinger.join()
        time.sleep(1)  # the last coalesced change is written and pushed
        pushes = 0
        while True:
            try:
                pushes += watcher.recv(timeout=0.5)["type"] == "state"
            except TimeoutError:
                break
        bound = 4 * seconds + 4  # at most one write and one push per 0.25 s, and the tail
        assert pushes <= bound, (pushes, seconds)  # it was 2 per cycle: 1,000
        after = seat_updates(url)
        if before is not None and after is not None:
            assert after - before <= bound, (after - before, seconds)
        assert pings  # the other client was answered throughout (each ping had its pong)
        watcher.close()
        victim.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_presence_changes_within_the_delay_are_one_write_and_at_most_one_push(
    kind: str, tmp_path: Path
) -> None:
    async def go(url: str) -> None:
        store = Store(url)
        await asyncio.to_thread(store.upgrade)
        clock = ManualClock()
        env = Env.build(store, limits=Limits(presence_delay=0.25), sweep_seconds=1e6, clock=clock)
        await env.start()
        try:
            service, audience = env.service, env.audience
            new = await service.create(CreateGame(players=2, name="Ann", take=[0, 1]), "c")
            touches: list[list[int]] = []
            touch = store.touch

            def counted(game_id: str, seats: Iterable[int], now: float) -> None:
                seats = list(seats)
                touches.append(seats)
                touch(game_id, seats, now)

            store.touch = counted  # type: ignore[method-assign]
            pushes: list[str] = []
            service.subscribe(pushes.append)
            for _ in range(CYCLES):
                await audience.connected(new.game, [0])
                await audience.disconnected(new.game, [0])
            await asyncio.sleep(0.1)  # (the flush waits for the clock, not for real time)
            assert touches == [] and pushes == []
            await clock.advance(0.25)
            end = time.monotonic() + 30
            while not touches:
                assert time.monotonic() < end, "the coalesced presence was never written"
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.1)
            assert touches == [[0]] and len(pushes) <= 1
        finally:
            await env.close()
            store.close()

    with database(kind, tmp_path) as url:
        asyncio.run(go(url))
