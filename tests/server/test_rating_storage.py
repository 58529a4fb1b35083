"""Ratings' storage and rules on SQLite and PostgreSQL: migration ``0008`` upgrades a
database of the previous version with its finished games (settled afterwards), a game is
settled once however often it is tried (restart, two processes at once), concurrent
finishes of one player's games both count, ties follow the core's ranking, and which games
are rated."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from server_helpers import database, hold_seats
from sqlalchemy import text

from quadropolis import GameConfig, legal_moves, new_game
from quadropolis.outcome import Outcome, outcome
from quadropolis.record import result_json
from quadropolis.rules import apply_unchecked
from quadropolis.server.accounts.storage import AccountStore
from quadropolis.server.data import MIN_OWN_MOVES, OVER, PLAYING, ActionData, SeatData
from quadropolis.server.game import LiveGame
from quadropolis.server.migrations import config, current
from quadropolis.server.ratings.rules import (
    HISTORY_GAMES,
    INITIAL_MU,
    INITIAL_SIGMA,
    AccountFacts,
    Entrant,
    Rating,
    SeatPlay,
    entrants,
    rate,
    rated_places,
    seat_plays,
)
from quadropolis.server.ratings.storage import RatingStore
from quadropolis.server.storage import Store
from quadropolis.tiles import Mode

#: The revision before the ratings' one.
PREVIOUS = "0007"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as u:
        yield u


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    s = Store(url)
    try:
        s.upgrade()
        yield s
    finally:
        s.close()


def finished_game(
    store: Store,
    game_id: str,
    seats: tuple[tuple[str, str | None], ...],
    seed: int = 5,
    mode: str = "classic",
) -> Outcome:
    """Store a game of ``seats`` (kind, bot level) played to its end with each turn's first
    legal move, human seats' moves by their players; its outcome."""
    config = GameConfig(mode=Mode(mode), players=len(seats), seed=seed)
    insert_running(store, game_id, config, seats)
    state = new_game(config)
    version = 0
    while not state.is_over:
        move = legal_moves(state)[0]
        seat = state.current_player
        apply_unchecked(state, move)
        version += 1
        actor = "player" if seats[seat][0] == "human" else "bot"
        result = result_json(outcome(state)) if state.is_over else None
        store.append(
            game_id, ActionData(version, seat, "move", str(move), None, actor, 2.0 + version), result
        )
    return outcome(state)


def insert_running(
    store: Store, game_id: str, config: GameConfig, seats: tuple[tuple[str, str | None], ...]
) -> None:
    """A running game and its seats, written in plain SQL with the columns every revision since
    ``0007`` has (the models describe the newest schema, so they cannot write an older one)."""
    with store.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, config, status, public, creator, takeover_after, takeover_level,"
                " created_at, finished_at, result, analysis, last_activity, move_seconds, deadline)"
                " VALUES (:id, :config, :status, :yes, 'c', NULL, 'easy', 1.0, NULL, NULL, :no, 1.0,"
                " NULL, NULL)"
            ),
            {
                "id": game_id,
                "config": json.dumps(config.to_json()),
                "status": PLAYING,
                "yes": True,
                "no": False,
            },
        )
        for i, (kind, level) in enumerate(seats):
            conn.execute(
                text(
                    "INSERT INTO seats (game_id, seat, kind, level, name, token_hash, last_seen, host)"
                    " VALUES (:id, :seat, :kind, :level, :name, NULL, 1.0, :no)"
                ),
                {
                    "id": game_id,
                    "seat": i,
                    "kind": kind,
                    "level": level,
                    "name": f"P{i}" if kind == "human" else f"Bot ({level})",
                    "no": False,
                },
            )


def rebuilt(store: Store, game_id: str) -> Outcome:
    data = store.load(game_id)
    assert data is not None and data.status == OVER
    result = LiveGame.rebuild(data).result
    assert result is not None
    return result


def test_upgrading_from_the_previous_version_keeps_games_and_settles_them_after(url: str) -> None:
    store = Store(url)
    try:
        # A game finished and its seat held by an account (the models write the newest
        # schema), then the database taken back to the version before ratings, which keeps
        # who held the seat in its ``account_seats`` table: what an older server left.
        store.upgrade()
        alice = AccountStore(store.engine).insert_account("Alice", "hash", 1.0)
        finished_game(store, "old", (("human", None), ("bot", "easy")))
        hold_seats(store.engine, alice.id, "old", [0])
        before = store.load("old")
        downgrade(store.engine, PREVIOUS)
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT account_id FROM account_seats")).scalars().all() == [alice.id]
        store.upgrade()
        assert current(store.engine) == ScriptDirectory.from_config(config()).get_current_head()
        assert store.load("old") == before
        ratings = RatingStore(store.engine)
        assert ratings.unsettled(10) == ["old"]
        assert ratings.settle("old", rebuilt(store, "old"), 9.0)
        assert ratings.unsettled(10) == []
        assert [c.account for c in ratings.changes("old")] == [alice.id, None]
        assert ratings.ratings_of(alice.id)["classic"].games == 1
    finally:
        store.close()


def downgrade(engine: Any, revision: str) -> None:
    """Take the database behind ``engine`` back to ``revision`` (Alembic's downgrade)."""
    cfg = config(engine)
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, revision)


def test_a_game_is_settled_once(store: Store) -> None:
    accounts, ratings = AccountStore(store.engine), RatingStore(store.engine)
    alice = accounts.insert_account("Alice", "hash", 1.0)
    result = finished_game(store, "g", (("human", None), ("bot", "easy")))
    hold_seats(store.engine, alice.id, "g", [0])
    # Two processes finishing the same game at once: one settles it, the other changes nothing.
    outcomes: list[bool] = []
    threads = [
        threading.Thread(target=lambda: outcomes.append(ratings.settle("g", result, 5.0))) for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == [False, True]
    assert not ratings.settle("g", result, 6.0)  # and again after a restart
    assert ratings.ratings_of(alice.id)["classic"].games == 1
    board = ratings.leaderboard("classic", 10)
    assert {(s.username, s.bot, s.rating.games) for s in board} == {("Alice", None, 1), (None, "easy", 1)}
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM rating_changes")).scalar() == 2
        assert conn.execute(text("SELECT count(*) FROM seat_results")).scalar() == 2


def test_concurrent_finishes_of_one_players_games_both_count(store: Store) -> None:
    accounts, ratings = AccountStore(store.engine), RatingStore(store.engine)
    alice = accounts.insert_account("Alice", "hash", 1.0)
    # The same two rated players in both games, at swapped seats: updated in opposite seat
    # orders they would deadlock on PostgreSQL; they must wait for each other instead.
    human, easy = ("human", None), ("bot", "easy")
    results = {"g0": finished_game(store, "g0", (human, easy), seed=10)}
    results["g1"] = finished_game(store, "g1", (easy, human), seed=11)
    hold_seats(store.engine, alice.id, "g0", [0])
    hold_seats(store.engine, alice.id, "g1", [1])
    barrier = threading.Barrier(2)

    def settle(game_id: str) -> None:
        barrier.wait()
        assert ratings.settle(game_id, results[game_id], 5.0)

    threads = [threading.Thread(target=settle, args=(g,)) for g in results]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ratings.ratings_of(alice.id)["classic"].games == 2
    alices = [c for g in results for c in ratings.changes(g) if c.account == alice.id]
    first, second = sorted(alices, key=lambda c: c.before.sigma, reverse=True)
    # The later update started from the earlier one's result: no update was lost.
    assert first.before == Rating(INITIAL_MU, INITIAL_SIGMA)
    assert (second.before.mu, second.before.sigma) == pytest.approx((first.after.mu, first.after.sigma))
    final = ratings.ratings_of(alice.id)["classic"]
    assert (final.mu, final.sigma) == pytest.approx((second.after.mu, second.after.sigma))
    [bot] = [s for s in ratings.leaderboard("classic", 10) if s.bot == "easy"]
    assert bot.rating.games == 2


def test_profiles_read_results_history_and_reviews(store: Store) -> None:
    accounts, ratings = AccountStore(store.engine), RatingStore(store.engine)
    alice = accounts.insert_account("Alice", "hash", 1.0)
    result = finished_game(store, "g", (("bot", "easy"), ("human", None), ("bot", "easy")), mode="expert")
    hold_seats(store.engine, alice.id, "g", [1])
    store.save_review("g", 100, {"format": "quadropolis-review/1"}, 3.0)
    assert ratings.settle("g", result, 7.0)
    [played] = ratings.played(alice.id, 10)
    assert (played.game, played.seat, played.mode, played.players) == ("g", 1, "expert", 3)
    assert (played.place, played.score) == (result.ranks[1], result.totals[1])
    assert played.breakdown == result.scores[1].breakdown and played.reviewed
    assert played.seats == (("Bot (easy)", "easy"), ("P1", None), ("Bot (easy)", "easy"))
    assert played.change is not None and played.change.after.sigma < INITIAL_SIGMA
    [point] = ratings.history(alice.id)
    assert (point.game, point.mode, point.rating.games) == ("g", "expert", 1)
    # One bot level at two seats is one rated player: one row, one game's worth of certainty.
    [bot] = [s for s in ratings.leaderboard("expert", 10) if s.bot == "easy"]
    changes = [c for c in ratings.changes("g") if c.bot == "easy"]
    assert bot.rating.games == 1 and len(changes) == 2
    assert bot.rating.mu == pytest.approx(INITIAL_MU + sum(c.after.mu - c.before.mu for c in changes))
    assert bot.rating.sigma == pytest.approx(min(c.after.sigma for c in changes))


def test_deleting_an_account_clears_it_from_ratings_keeping_the_others(store: Store) -> None:
    accounts, ratings = AccountStore(store.engine), RatingStore(store.engine)
    alice = accounts.insert_account("Alice", "hash", 1.0)
    result = finished_game(store, "g", (("human", None), ("bot", "easy")))
    hold_seats(store.engine, alice.id, "g", [0])
    assert ratings.settle("g", result, 5.0)
    accounts.delete_account(alice.id)
    assert [s.bot for s in ratings.leaderboard("classic", 10)] == ["easy"]
    assert [(c.account, c.bot) for c in ratings.changes("g")] == [(None, None), (None, "easy")]


def test_unrated_games_keep_their_results_without_ratings(store: Store) -> None:
    accounts, ratings = AccountStore(store.engine), RatingStore(store.engine)
    alice = accounts.insert_account("Alice", "hash", 1.0)
    result = finished_game(store, "guest", (("human", None), ("human", None)))
    hold_seats(store.engine, alice.id, "guest", [0])  # seat 1: a guest
    assert ratings.settle("guest", result, 5.0)
    assert ratings.changes("guest") == [] and ratings.is_settled("guest")
    assert ratings.leaderboard("classic", 10) == []
    assert [p.game for p in ratings.played(alice.id, 10)] == ["guest"]


# --- the rules, without a database ------------------------------------------------------

CLASSIC = {"mode": "classic", "players": 2, "seed": 99}


#: Two seats, each with its person's first moves played.
PLAYED = (SeatPlay(MIN_OWN_MOVES), SeatPlay(MIN_OWN_MOVES))


def person(seat: int, account: int | None = None) -> SeatData:
    return SeatData(seat, "human", None, f"P{seat}", None, None, account=account)


def easy(seat: int, account: int | None = None) -> SeatData:
    return SeatData(seat, "bot", "easy", "Bot (easy)", None, None, account=account)


#: What the Sybil rule reads of accounts 7 and 8: signed up apart, with history.
FACTS = {7: AccountFacts("10.0.0.7", HISTORY_GAMES), 8: AccountFacts("10.0.0.8", HISTORY_GAMES)}


def test_which_games_are_rated() -> None:
    assert entrants(CLASSIC, OVER, [person(0, 7), easy(1)], {0}, PLAYED, FACTS) == (
        Entrant(account=7),
        Entrant(bot="easy"),
    )
    assert entrants(CLASSIC, "abandoned", [person(0, 7), easy(1)], {0}, PLAYED, FACTS) is None  # no result
    assert entrants(CLASSIC, OVER, [person(0, 7), person(1)], {0, 1}, PLAYED, FACTS) is None  # a guest
    assert entrants(CLASSIC, OVER, [person(0, 7), person(1, 7)], {0, 1}, PLAYED, FACTS) is None  # hotseat
    assert entrants(CLASSIC, OVER, [easy(0), easy(1)], set(), PLAYED, FACTS) is None  # bots alone
    # A guest who resigned: a bot finished a seat where a person had moved.
    assert entrants(CLASSIC, OVER, [person(0, 7), easy(1)], {0, 1}, PLAYED, FACTS) is None
    # An account that resigned keeps its seat's result.
    assert entrants(CLASSIC, OVER, [easy(0, 7), easy(1)], {0}, PLAYED, FACTS) == (
        Entrant(account=7),
        Entrant(bot="easy"),
    )
    variant = {**CLASSIC, "variants": {"all_parks_absorb": True}}
    assert entrants(variant, OVER, [person(0, 7), easy(1)], {0}, PLAYED, FACTS) is None
    guided = {**CLASSIC, "seed": 1}
    assert entrants(guided, OVER, [person(0, 7), easy(1)], {0}, PLAYED, FACTS) is None
    # Two accounts: rated against each other only from apart and with history.
    people = [person(0, 7), person(1, 8)]
    assert entrants(CLASSIC, OVER, people, {0, 1}, PLAYED, FACTS) == (Entrant(account=7), Entrant(account=8))
    one_address = {**FACTS, 8: AccountFacts("10.0.0.7", HISTORY_GAMES)}
    assert entrants(CLASSIC, OVER, people, {0, 1}, PLAYED, one_address) is None
    new_account = {**FACTS, 8: AccountFacts("10.0.0.8", 0)}
    assert entrants(CLASSIC, OVER, people, {0, 1}, PLAYED, new_account) is None


def test_an_account_that_did_not_play_its_first_moves_is_not_rated() -> None:
    few = (SeatPlay(MIN_OWN_MOVES - 1), SeatPlay(0))
    assert entrants(CLASSIC, OVER, [person(0, 7), easy(1)], {0}, few, FACTS) is None
    # A seat the takeover bot played throughout: no move of the account's own.
    left = (SeatPlay(0, left=True), SeatPlay())
    assert entrants(CLASSIC, OVER, [person(0, 7), easy(1)], set(), left, FACTS) is None


def test_how_seats_were_played_and_the_places_rated() -> None:
    moves = [(0, "player"), (1, "bot"), (0, "player"), (1, "bot"), (0, "takeover"), (2, "player")]
    plays = seat_plays(moves, 3)
    assert plays == (SeatPlay(2, True, 2), SeatPlay(0, False, -1), SeatPlay(1, False, 5))
    first = Outcome(outcome(new_game(GameConfig(players=3, seed=5))).scores, (0, 1, 2))
    # A tie at the start: the seat finished by the takeover bot is placed last.
    assert rated_places(first, plays) == (3, 1, 1)
    resigned = Outcome(first.scores, (1,), (1,))  # seat 1 resigned: lowest; the leaver above it
    assert rated_places(resigned, plays) == (2, 3, 1)


def test_places_decide_and_ties_share() -> None:
    a, b, c = Entrant(account=1), Entrant(account=2), Entrant(bot="easy")
    fresh = {e: Rating() for e in (a, b, c)}
    per_seat, after = rate([a, b, c], [1, 1, 3], fresh)
    assert per_seat[0].mu == pytest.approx(per_seat[1].mu)  # a tie: equal changes
    assert per_seat[0].mu > INITIAL_MU > per_seat[2].mu
    assert all(r.games == 1 and r.sigma < INITIAL_SIGMA for r in after.values())
    per_seat, _ = rate([a, b], [2, 1], fresh)
    assert per_seat[1].ordinal > per_seat[0].ordinal
