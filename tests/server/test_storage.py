"""Storage on SQLite and on a real PostgreSQL server: the schema comes from the migrations and
matches the models, the history is append-only with at most one action per (game, version),
a group commit refuses a conflicting action alone, a seat is claimed once."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy.exc
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from server_helpers import database
from sqlalchemy import inspect

from quadropolis.errors import QuadropolisError
from quadropolis.server import postgres_commit, storage
from quadropolis.server.data import OVER, PLAYING, WAITING, ActionData, GameData, SeatData
from quadropolis.server.migrations import current
from quadropolis.server.postgres_commit import PostgresAppender
from quadropolis.server.schema import Base
from quadropolis.server.storage import Store, VersionTaken


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with database(request.param, tmp_path) as url:
        s = Store(url)
        s.upgrade()
        yield s
        s.close()


#: A batch appender: ``Store.append_batch`` or the event loop's PostgreSQL one.
AppendBatch = Callable[[list[tuple[str, ActionData, dict[str, Any] | None, float | None]]], list[Any]]


@pytest.fixture(params=["sqlite", "postgresql", "postgresql-event-loop"])
def batches(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Store, AppendBatch]]:
    """A store and its group commit: ``Store.append_batch`` (in the caller's thread), or on
    PostgreSQL the server's :class:`PostgresAppender` (one statement, on an event loop)."""
    backend = request.param.partition("-")[0]
    with database(backend, tmp_path) as url:
        s = Store(url)
        s.upgrade()
        if request.param != "postgresql-event-loop":
            yield s, s.append_batch
        else:
            loop = asyncio.new_event_loop()
            appender = PostgresAppender(url, 2)
            loop.run_until_complete(appender.open())
            try:
                yield s, lambda items: loop.run_until_complete(appender.append_batch(items))
            finally:
                loop.run_until_complete(appender.close())
                loop.close()
        s.close()


def new_game(store: Store, game: str, open_seats: int = 0) -> None:
    seats = tuple(
        SeatData(
            i, "human", None, "" if i < open_seats else f"P{i}", None if i < open_seats else b"h" * 32, None
        )
        for i in range(2)
    )
    status = WAITING if open_seats else PLAYING
    config = {"mode": "classic", "players": 2, "seed": 7}
    store.insert_game(GameData(game, config, status, True, "c", None, "easy", 1.0, None, None, seats))


def move(version: int, text: str = "1T1") -> ActionData:
    return ActionData(version, 0, "move", text, None, "player", 2.0)


#: The newest migration (``server/migrations/versions/``): every upgrade must end there.
HEAD_REVISION = "0012"


def test_migrations_create_the_schema_of_the_models(store: Store) -> None:
    assert current(store.engine) == HEAD_REVISION
    store.upgrade()  # idempotent
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        tables = set(inspect(conn).get_table_names())
    assert {"games", "seats", "actions", "reviews", "alembic_version"} <= tables


def test_a_review_is_stored_once_with_its_game(store: Store) -> None:
    new_game(store, "g9")
    assert store.load_review("g9") is None
    review = {"format": "quadropolis-review/1", "moves": [{"move": "1T1", "label": "good"}]}
    store.save_review("g9", 800, review, 3.0)
    store.save_review("g9", 800, {"format": "other"}, 4.0)  # a second writer keeps the first
    assert store.load_review("g9") == review


def test_an_action_is_stored_once_per_version(store: Store) -> None:
    new_game(store, "g1")
    store.append("g1", move(1))
    with pytest.raises(VersionTaken):
        store.append("g1", move(1, "2T1"))
    data = store.load("g1")
    assert data is not None and [(a.version, a.move) for a in data.actions] == [(1, "1T1")]


def test_a_group_commit_refuses_a_conflict_alone(batches: tuple[Store, AppendBatch]) -> None:
    store, append_batch = batches
    for g in ("a", "b", "c"):
        new_game(store, g)
    store.append("b", move(1))
    outcomes = append_batch(
        [
            ("a", move(1), None, None, None),
            ("b", move(1), None, None, None),
            ("c", move(1), {"scores": [1, 2]}, None, None),
        ]
    )
    assert outcomes[0] is None and isinstance(outcomes[1], VersionTaken) and outcomes[2] is None
    for g, n in (("a", 1), ("b", 1), ("c", 1)):
        data = store.load(g)
        assert data is not None and len(data.actions) == n
    c = store.load("c")
    assert c is not None and c.status == OVER and c.result == {"scores": [1, 2]}


def test_a_refused_action_leaves_its_game_as_it_was(batches: tuple[Store, AppendBatch]) -> None:
    store, append_batch = batches
    new_game(store, "e")
    store.append("e", move(1))
    late = ActionData(1, 0, "move", "2T1", None, "player", 9.0)
    [outcome] = append_batch([("e", late, {"scores": [5]}, None, None)])
    assert isinstance(outcome, VersionTaken)
    data = store.load("e")
    assert data is not None
    assert (data.status, data.result, data.last_activity, data.finished_at) == (PLAYING, None, 2.0, None)


def test_the_event_loop_appender_replaces_a_dead_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pooled connection the database closed (restart, idle timeout) is pinged and
    replaced before the batch, which is stored: the move is not refused."""
    monkeypatch.setattr(storage, "PING_AFTER_IDLE", 0.0)  # ping at every use
    with database("postgresql", tmp_path) as url:
        store = Store(url)
        store.upgrade()
        new_game(store, "f")
        loop = asyncio.new_event_loop()
        appender = postgres_commit.PostgresAppender(url, 1)
        loop.run_until_complete(appender.open())
        try:
            assert loop.run_until_complete(appender.append_batch([("f", move(1), None, None, None)])) == [
                None
            ]
            with store.engine.connect() as conn:
                killed = conn.exec_driver_sql(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                ).scalar()
            assert killed
            second = ActionData(2, 1, "move", "2T1", None, "player", 3.0)
            assert loop.run_until_complete(appender.append_batch([("f", second, None, None, None)])) == [None]
            data = store.load("f")
            assert data is not None and [a.version for a in data.actions] == [1, 2]
        finally:
            loop.run_until_complete(appender.close())
            loop.close()
            store.close()


def _kill_other_connections(store: Store) -> int:
    with store.engine.connect() as conn:
        killed = conn.exec_driver_sql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).scalar()
    return int(killed or 0)


def test_the_store_pings_only_a_connection_idle_for_a_while(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The threads' pool pings a connection idle for over PING_AFTER_IDLE and replaces it if
    the database closed it: the call after a quiet spell succeeds. One used just now is not
    pinged (a busy server pays no extra round trip): the database's closing of it reaches
    the one call that uses it, as an error, and the next call gets a new connection."""
    with database("postgresql", tmp_path) as url:
        store, witness = Store(url, pool_size=1), Store(url, pool_size=1)
        try:
            store.upgrade()
            new_game(store, "g")
            assert store.load("g") is not None
            monkeypatch.setattr(storage, "PING_AFTER_IDLE", 0.0)  # every connection is idle
            assert _kill_other_connections(witness) == 1
            data = store.load("g")
            assert data is not None and data.id == "g"

            monkeypatch.setattr(storage, "PING_AFTER_IDLE", 3600.0)  # none is
            assert _kill_other_connections(witness) == 1
            with pytest.raises(sqlalchemy.exc.OperationalError):
                store.load("g")
            data = store.load("g")
            assert data is not None and data.id == "g"
        finally:
            store.close()
            witness.close()


def test_a_group_commit_applies_one_games_actions_in_order(batches: tuple[Store, AppendBatch]) -> None:
    """Several actions of one game in a batch (as many statements as for one): stored in
    order, the game's row as after the last; the same version twice is stored once."""
    store, append_batch = batches
    new_game(store, "d")
    bot = ActionData(2, 1, "move", "2T1", None, "bot", 4.0)
    outcomes = append_batch(
        [
            ("d", move(1), None, 100.0, None),
            ("d", move(1, "2T2"), None, None, None),
            ("d", bot, {"scores": [3]}, None, None),
        ]
    )
    assert outcomes[0] is None and isinstance(outcomes[1], VersionTaken) and outcomes[2] is None
    data = store.load("d")
    assert data is not None and [(a.version, a.move) for a in data.actions] == [(1, "1T1"), (2, "2T1")]
    assert (data.status, data.result, data.deadline) == (OVER, {"scores": [3]}, None)
    assert data.last_activity == move(1).created_at


def test_undo_appends_and_never_deletes(store: Store) -> None:
    new_game(store, "g")
    store.append("g", move(1))
    store.append("g", ActionData(2, 0, "undo", None, 1, "player", 3.0))
    status, _, actions = store.refresh("g", 0)
    assert status == PLAYING and [a.kind for a in actions] == ["move", "undo"]


def test_a_seat_is_claimed_once_and_the_last_claim_starts_the_game(store: Store) -> None:
    new_game(store, "g", open_seats=1)
    results: list[bool] = []
    threads = [
        threading.Thread(target=lambda i=i: results.append(store.claim_seat("g", 0, f"N{i}", b"x" * 32, 5.0)))
        for i in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False, False, False, True]
    data = store.load("g")
    assert data is not None and data.status == PLAYING and data.seats[0].token_hash == b"x" * 32
    assert store.summaries(WAITING, 10) == []


def test_a_game_leaves_its_creators_quota_once_they_resigned_every_seat_they_took(store: Store) -> None:
    def game(game_id: str, hosts: tuple[bool, ...]) -> None:
        seats = tuple(
            SeatData(i, "human", None, f"P{i}", bytes([i + 1]) * 32, None, host=host)
            for i, host in enumerate(hosts)
        )
        config = {"mode": "classic", "players": len(hosts), "seed": 7}
        store.insert_game(
            GameData(game_id, config, PLAYING, True, "ann", None, "easy", 1.0, None, None, seats)
        )

    # Three seats: a resignation ends a game of two at once.
    game("joined", (True, False, False))  # Ann took seat 0, others joined seats 1 and 2
    game("hotseat", (True, True, False))  # Ann took two seats
    game("no seat", (False, False, False))  # Ann took no seat (as in a game of bots): it stays hers
    assert store.active_games_of("ann", 0.0, 0.0) == 3
    unused: dict[str, object] = {}  # the result a game ended by this resignation would have
    assert store.resign("joined", 0, bytes([1]) * 32, "easy", 2.0, unused) == PLAYING
    assert store.resign("hotseat", 0, bytes([1]) * 32, "easy", 2.0, unused) == PLAYING
    assert store.active_games_of("ann", 0.0, 0.0) == 2  # she still plays the hotseat's seat 1
    data = store.load("joined")
    assert data is not None and data.seats[0].kind == "bot" and data.seats[0].host


def test_servers_starting_together_migrate_once(tmp_path: Path) -> None:
    """Several server processes starting at once on one PostgreSQL database: the first
    migrates under the advisory lock, the others wait, then find the schema current."""
    with database("postgresql", tmp_path) as url:
        code = "import sys; from quadropolis.server.storage import Store; Store(sys.argv[1]).upgrade()"
        procs = [
            subprocess.Popen([sys.executable, "-c", code, url], stderr=subprocess.PIPE, text=True)
            for _ in range(4)
        ]
        for proc in procs:
            _, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
        s = Store(url)
        assert current(s.engine) == HEAD_REVISION
        s.close()


@pytest.mark.parametrize(("level", "pragma"), [("normal", 1), ("full", 2)])
def test_sqlite_commits_at_the_sync_level_chosen(level: str, pragma: int, tmp_path: Path) -> None:
    s = Store(f"sqlite:///{tmp_path / 'sync.sqlite3'}", sqlite_sync=level)
    try:
        s.upgrade()
        new_game(s, "g1")  # new games at NORMAL, then the connection is back at the level
        assert s.append_batch([("g1", move(1), None, None, None)]) == [None]
        with s.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == pragma
    finally:
        s.close()


def test_an_unknown_sqlite_sync_level_is_refused(tmp_path: Path) -> None:
    with pytest.raises(QuadropolisError, match="unknown SQLite sync level 'off'"):
        Store(f"sqlite:///{tmp_path / 'x.sqlite3'}", sqlite_sync="off")
