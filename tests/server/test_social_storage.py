"""The storage of the daily challenge, rematches and table chat: migration
``0006`` upgrades a database of the previous version without losing a game or an account,
and the repository's rules (one entry per account and day, one rematch per game, chat kept
bounded) on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import database, insert_old_account, insert_old_game, link_seats_before_0009

from quadropolis.server.accounts.storage import AccountStore
from quadropolis.server.data import OVER, PLAYING, ChatLine, GameData, SeatData
from quadropolis.server.migrations import current, upgrade
from quadropolis.server.social.storage import CHAT_HISTORY, AlreadyPlayed, Challenge, SocialStore
from quadropolis.server.storage import Store

#: The revision before this one: what a server of the previous version left.
PREVIOUS = "0005"
CONFIG = {"mode": "classic", "players": 2, "seed": 7}


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as u:
        yield u


@pytest.fixture()
def store(url: str) -> Iterator[Store]:
    s = Store(url)
    s.upgrade()
    yield s
    s.close()


def a_game(game_id: str, status: str = PLAYING) -> GameData:
    seats = (
        SeatData(0, "human", None, "P0", bytes([1]) * 32, 1.0),
        SeatData(1, "bot", "easy", "Bot (easy)", None, None),
    )
    return GameData(game_id, CONFIG, status, False, "c", None, "easy", 1.0, None, None, seats)


def test_upgrading_a_database_of_the_previous_version_keeps_its_games_and_accounts(url: str) -> None:
    store = Store(url)
    try:
        upgrade(store.engine, PREVIOUS)
        insert_old_game(store.engine, "old")
        alice = insert_old_account(store.engine, "Alice")
        link_seats_before_0009(store.engine, alice, "old", [0])
        upgrade(store.engine, "0006")
        assert current(store.engine) == "0006"
        store.upgrade()  # later revisions follow; the models describe the newest schema
        old = store.load("old")
        assert old is not None and old.status == PLAYING and [a.move for a in old.actions] == ["1T1"]
        assert old.seats[0].account == alice and old.seats[1].account is None
        social = SocialStore(store.engine)
        assert social.chat("old") == [] and social.rematch_of("old") is None
        social.add_chat("old", ChatLine(0, "P0", "gg", 4.0))
        assert social.chat("old") == [ChatLine(0, "P0", "gg", 4.0)]
    finally:
        store.close()


def test_an_account_has_one_entry_a_day_and_guests_any_number(store: Store) -> None:
    social = SocialStore(store.engine)
    alice = AccountStore(store.engine).insert_account("Alice", "hash", 1.0)
    day = social.insert_challenge(Challenge("2026-11-26", CONFIG, ("easy",)), 1.0)
    # A second draw of the same day finds the first one: everyone plays the same deal.
    assert social.insert_challenge(Challenge("2026-11-26", {**CONFIG, "seed": 8}, ("medium",)), 2.0) == day
    entry = social.reserve(day.day, alice.id, 0, 1.0)
    with pytest.raises(AlreadyPlayed):
        social.reserve(day.day, alice.id, 0, 1.0)
    store.insert_game(a_game("g1"))
    social.fill(entry, "g1")
    assert social.entry_of(day.day, alice.id) == "g1"
    for guest in ("g2", "g3"):
        store.insert_game(a_game(guest))
        social.add_practice(day.day, guest, 0, 2.0)
    found = social.daily_game("g2")
    assert found is not None and not found.ranked and found.practice and found.username is None
    # Only the account's game plays the day's deal; it is finished once over.
    assert (social.deal_day("g1"), social.deal_day("g2")) == (day.day, None)
    assert not social.finished_attempt(day.day, alice.id)
    # A reservation whose game could not be created is dropped: the account may try again.
    bob = AccountStore(store.engine).insert_account("Bob", "hash", 1.0)
    social.unreserve(social.reserve(day.day, bob.id, 0, 1.0))
    social.reserve(day.day, bob.id, 0, 1.0)


def test_a_game_has_one_rematch_and_its_chat_keeps_the_newest_lines(store: Store) -> None:
    social = SocialStore(store.engine)
    for game in ("old", "new", "other"):
        store.insert_game(a_game(game, OVER if game == "old" else PLAYING))
    assert social.insert_rematch("old", "new", 1.0)
    assert not social.insert_rematch("old", "other", 2.0)
    assert social.rematch_of("old") == "new" and social.is_rematch("new") and not social.is_rematch("other")
    for i in range(CHAT_HISTORY + 7):
        social.add_chat("old", ChatLine(0, "P0", f"line {i}", float(i)))
    kept = social.chat("old")
    assert len(kept) == CHAT_HISTORY
    assert kept[0].text == "line 7" and kept[-1].text == f"line {CHAT_HISTORY + 6}"
    assert social.chat("other") == []
