"""The accounts' storage: migration ``0005`` upgrades a database of the previous
version without losing a game, and the repository's rules (unique usernames ignoring case,
sessions expiring, deleting an account keeping its games) on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from server_helpers import database, hold_seats, insert_old_game
from sqlalchemy import text

from quadropolis.server.accounts.names import SKELETON_MAX, skeleton
from quadropolis.server.accounts.storage import FORMER_PLAYER, AccountStore, UsernameTaken
from quadropolis.server.data import PLAYING, GameData, SeatData
from quadropolis.server.migrations import config, current, upgrade
from quadropolis.server.schema import SKELETON_WIDTH, AccountRow
from quadropolis.server.storage import Store

#: The revision before the accounts' one: what a server of the previous version left.
PREVIOUS = "0004"


def newest_revision() -> str | None:
    """The head of the migrations (later revisions than the accounts' may follow it)."""
    return ScriptDirectory.from_config(config()).get_current_head()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as u:
        yield u


def a_game(game_id: str) -> GameData:
    seats = tuple(SeatData(i, "human", None, f"P{i}", bytes([i]) * 32, 1.0) for i in range(2))
    config = {"mode": "classic", "players": 2, "seed": 7}
    return GameData(game_id, config, PLAYING, True, "c", None, "easy", 1.0, None, None, seats)


def test_upgrading_a_database_of_the_previous_version_keeps_its_games(url: str) -> None:
    store = Store(url)
    try:
        upgrade(store.engine, PREVIOUS)
        insert_old_game(store.engine, "old")
        store.upgrade()
        assert current(store.engine) == newest_revision()
        old = store.load("old")
        assert old is not None and old.status == PLAYING and [s.name for s in old.seats] == ["P0", "P1"]
        assert [a.move for a in old.actions] == ["1T1"]
        accounts = AccountStore(store.engine)
        account = accounts.insert_account("Alice", "hash", 3.0)
        hold_seats(store.engine, account.id, "old", [1])
        assert [h.seats for h in accounts.games_of(account.id, 10)] == [(1,)]
    finally:
        store.close()


def test_the_repository_keeps_names_unique_and_games_after_a_deletion(url: str) -> None:
    store = Store(url)
    try:
        store.upgrade()
        store.insert_game(a_game("g"))
        accounts = AccountStore(store.engine)
        alice = accounts.insert_account("Alice", "hash", 1.0)
        with pytest.raises(UsernameTaken):
            accounts.insert_account("ALICE", "hash", 2.0)
        accounts.insert_session(b"s" * 32, alice.id, 1.0, 100.0)
        assert accounts.session_account(b"s" * 32, 50.0) == alice
        assert accounts.session_account(b"s" * 32, 100.0) is None  # expired
        accounts.insert_session(b"t" * 32, alice.id, 200.0, 300.0)  # clears the expired one
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM account_sessions")).scalar() == 1
        hold_seats(store.engine, alice.id, "g", [0])
        assert [h.game for h in accounts.games_of(alice.id, 10)] == ["g"]
        assert accounts.delete_account(alice.id) == ["g"]
        assert accounts.by_username("alice") is None
        game = store.load("g")
        assert game is not None
        assert [s.name for s in game.seats] == [FORMER_PLAYER, "P1"]
    finally:
        store.close()


def test_upgrading_keeps_old_look_alike_accounts_and_gives_them_no_shared_signup_key(url: str) -> None:
    store = Store(url)
    try:
        upgrade(store.engine, "0008")  # the revision before accounts kept skeletons and sign-up keys
        with store.engine.begin() as conn:
            for name in ("alice", "a1ice", "bob"):
                conn.execute(
                    text(
                        "INSERT INTO accounts (username, username_key, password_hash, created_at)"
                        " VALUES (:n, :n, 'h', 1.0)"
                    ),
                    {"n": name},
                )
        store.upgrade()
        with store.engine.connect() as conn:
            rows = conn.execute(
                text("SELECT id, username, username_skeleton, signup_key FROM accounts ORDER BY id")
            ).all()
        # The older of two look-alikes keeps the skeleton; both accounts stay.
        assert [(r[1], r[2], r[3]) for r in rows] == [
            ("alice", "allce", f"unknown:{rows[0][0]}"),
            ("a1ice", None, f"unknown:{rows[1][0]}"),
            ("bob", "bob", f"unknown:{rows[2][0]}"),
        ]
        accounts = AccountStore(store.engine)
        with pytest.raises(UsernameTaken):
            accounts.insert_account("AIice", "hash", 2.0, "192.0.2.1")
        old = accounts.by_username("a1ice")
        assert old is not None and old.signup_key == f"unknown:{rows[1][0]}"
        assert accounts.insert_account("carol", "hash", 2.0, "192.0.2.1").signup_key == "192.0.2.1"
        assert accounts.insert_account("dave", "hash", 2.0).signup_key.startswith("unknown:")
    finally:
        store.close()


def test_the_skeleton_column_holds_the_longest_skeleton() -> None:
    """The schema's column width (which knows nothing of accounts) fits the longest skeleton
    of a valid username, the rule :mod:`quadropolis.server.accounts.names` states."""
    assert len(skeleton("m" * 20)) == SKELETON_MAX <= SKELETON_WIDTH
    assert AccountRow.__table__.c.username_skeleton.type.length == SKELETON_WIDTH
