"""Escapes from a loss, and ratings earned without playing, attacked through a real server
process on SQLite and PostgreSQL: a resigner, a player who goes silent, an account that lets
the takeover bot play its rated game, and one that resigns after a single move. Resigning and
timing out are losses once the first moves are played; before, the game is aborted for
rating; a game of two ends at once; the record and the replay of each game exist."""

from __future__ import annotations

import itertools
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import GENEROUS, Server, bearer, database

from quadropolis.server.data import MIN_OWN_MOVES

CSRF = {"X-Quadropolis-Client": "1"}
PASSWORD = "correct horse battery"
AGAINST_EASY = {"players": 2, "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}], "take": [0]}
#: A rated table for two accounts: the creator takes seat 0, seat 1 is open.
FOR_TWO = {"players": 2, "take": [0]}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    tmp = tmp_path_factory.mktemp(f"forfeit-{request.param}")
    with database(request.param, tmp) as url:
        yield url, tmp


#: Each account comes from an address of its own (``X-Forwarded-For`` from the trusted
#: loopback proxy), and accounts need no rated history to be rated against each other here:
#: the Sybil rule is attacked apart (two accounts of one address).
PEOPLE_APART = ("--forwarded-allow-ips", "127.0.0.1", "--rated-history", "0")


@pytest.fixture(scope="module")
def server(db: tuple[str, Path]) -> Iterator[Server]:
    url, tmp = db
    with Server(url, tmp, "--games-per-client", "1000", *GENEROUS, *PEOPLE_APART) as s:
        yield s


_hosts = itertools.count(1)


def account(server: Server, address: str | None = None) -> httpx.Client:
    """A browser logged in as a new account, from ``address`` (default: one of its own, in
    198.18.0.0/15, the range set aside for tests)."""
    n = next(_hosts)
    where = address or f"198.18.{n // 250}.{n % 250 + 1}"
    client = httpx.Client(base_url=server.url, timeout=30, headers={**CSRF, "X-Forwarded-For": where})
    r = client.post("/api/accounts", json={"username": f"f{secrets.token_hex(4)}", "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client


def my_game(client: httpx.Client, spec: dict[str, Any]) -> tuple[str, dict[int, str]]:
    """A game created by the account: its id and the token of each seat it took."""
    r = client.post("/api/me/games", json=spec)
    assert r.status_code == 201, r.text
    body = r.json()
    return body["game"], {s["seat"]: s["token"] for s in body["seats"]}


def play_moves(players: dict[int, httpx.Client], game: str, each: int) -> None:
    """Play the first legal move for whichever of ``players``' seats is to move (the bots
    answer for the others) until each of them has played ``each`` moves of its own."""
    played = dict.fromkeys(players, 0)
    deadline = time.monotonic() + 60
    while min(played.values()) < each:
        assert time.monotonic() < deadline, f"the moves were not played: {played}"
        seat_client = next(iter(players.values()))
        view = seat_client.get(f"/api/me/games/{game}").json()
        assert view["status"] == "playing", view["status"]
        seat = view["to_move"]
        if seat not in players:
            time.sleep(0.02)
            continue
        body = {"seat": seat, "version": view["version"], "move": view["legal_moves"][0]}
        r = players[seat].post(f"/api/me/games/{game}/moves", json=body)
        if r.status_code == 200:
            played[seat] += 1


def resign(http: httpx.Client, game: str, seat: int, token: str) -> str:
    r = http.post(f"/api/games/{game}/resign", json={"seat": seat}, headers=bearer(token))
    assert r.status_code == 200, r.text
    return str(r.json()["status"])


def finished(http: httpx.Client, game: str, timeout: float = 30) -> dict[str, Any]:
    """The view of ``game`` once it has ended (``over`` or ``expired``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view: dict[str, Any] = http.get(f"/api/games/{game}").json()
        if view["status"] in ("over", "expired"):
            return view
        time.sleep(0.1)
    raise AssertionError(f"game {game} did not end")


def settled(http: httpx.Client, game: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        body: dict[str, Any] = http.get(f"/api/games/{game}/ratings").json()
        if body["settled"]:
            return body
        time.sleep(0.05)
    raise AssertionError(f"game {game} was not settled")


def record_and_replay(http: httpx.Client, game: str) -> dict[str, Any]:
    """The game's record, checked to replay to its result: the replay's last position is the
    end of the game, with the record's result and forfeits."""
    r = http.get(f"/api/games/{game}/record")
    assert r.status_code == 200, r.text
    record: dict[str, Any] = r.json()
    at = len(record["moves"])
    r = http.post("/api/replay", json={"record": record, "at": at})
    assert r.status_code == 200, r.text
    end = r.json()["view"]
    assert end["status"] == "over"
    assert end["result"]["winners"] == record["result"]["winners"]
    assert end["result"].get("forfeits") == record["result"].get("forfeits")
    return record


def mu_change(seat: dict[str, Any]) -> float:
    return float(seat["after"]["mu"] - seat["before"]["mu"])


def test_a_resigner_against_another_account_loses_at_once_and_the_opponent_wins(server: Server) -> None:
    ann, bob = account(server), account(server)
    game, tokens = my_game(ann, FOR_TWO)
    assert bob.post(f"/api/me/games/{game}/seats/1").status_code == 200
    play_moves({0: ann, 1: bob}, game, MIN_OWN_MOVES)
    # Ann is behind, or just tired of the game: she resigns instead of playing it out.
    assert resign(ann, game, 0, tokens[0]) == "over"
    view = ann.get(f"/api/games/{game}").json()
    assert view["result"]["winners"] == [1] and view["result"]["forfeits"] == [0]
    assert view["result"]["ranks"] == [2, 1] and view["seats"][0]["forfeited"]
    ratings = settled(ann, game)
    assert ratings["rated"]
    mine, theirs = ratings["seats"]
    assert (mine["place"], theirs["place"]) == (2, 1)
    assert mu_change(mine) < 0 < mu_change(theirs)
    assert record_and_replay(ann, game)["result"]["forfeits"] == [0]


def test_two_accounts_of_one_address_trade_no_rating_points(server: Server) -> None:
    # A Sybil signs up twice from one address and lets one account beat the other.
    feeder, farmer = account(server, "198.19.0.1"), account(server, "198.19.0.1")
    game, tokens = my_game(feeder, FOR_TWO)
    assert farmer.post(f"/api/me/games/{game}/seats/1").status_code == 200
    play_moves({0: feeder, 1: farmer}, game, MIN_OWN_MOVES)
    assert resign(feeder, game, 0, tokens[0]) == "over"
    assert settled(feeder, game) == {"game": game, "settled": True, "rated": False, "seats": []}
    me = farmer.get("/api/me").json()
    assert farmer.get(f"/api/players/{me['username']}").json()["ratings"] == []


def test_a_resigner_against_three_bots_takes_last_place_and_loses_rating(server: Server) -> None:
    ann = account(server)
    bots = [{"type": "bot", "level": "easy"}] * 3
    game, tokens = my_game(ann, {"players": 4, "seats": [{"type": "human"}, *bots], "take": [0]})
    play_moves({0: ann}, game, MIN_OWN_MOVES)
    # No person is left to play: the game ends at once instead of the bots playing it out.
    assert resign(ann, game, 0, tokens[0]) == "over"
    ratings = settled(ann, game)
    assert ratings["rated"]
    mine = ratings["seats"][0]
    assert mine["place"] == 4 and mu_change(mine) < 0
    assert all(bot["place"] < 4 for bot in ratings["seats"][1:])  # every bot above her
    record = record_and_replay(ann, game)
    assert record["result"]["forfeits"] == [0] and 0 not in record["result"]["winners"]


def test_an_account_that_never_connects_to_a_takeover_table_earns_no_rating(server: Server) -> None:
    ann = account(server)
    spec = {**AGAINST_EASY, "takeover_after": 1, "takeover_level": "medium"}
    game, _ = my_game(ann, spec)
    # Ann never opens the game: the takeover bot plays her seat from start to end.
    view = finished(ann, game, timeout=180)
    assert view["status"] == "over" and "forfeits" not in view["result"]
    assert settled(ann, game) == {"game": game, "settled": True, "rated": False, "seats": []}
    me = ann.get("/api/me").json()
    profile = ann.get(f"/api/players/{me['username']}").json()
    assert profile["ratings"] == [] and profile["history"] == []
    record_and_replay(ann, game)


def test_an_account_that_moves_once_then_resigns_gets_an_unrated_game(server: Server) -> None:
    ann = account(server)
    game, tokens = my_game(ann, AGAINST_EASY)
    play_moves({0: ann}, game, 1)
    assert resign(ann, game, 0, tokens[0]) == "over"
    assert settled(ann, game)["rated"] is False  # aborted for rating: too few moves to count
    assert record_and_replay(ann, game)["result"]["forfeits"] == [0]


def test_going_silent_in_a_rated_game_loses_it_on_expiry(db: tuple[str, Path]) -> None:
    url, tmp = db
    options = ("--games-per-client", "1000", "--playing-expiry", "4", *GENEROUS, *PEOPLE_APART)
    with Server(url, tmp, *options) as server:
        ann, bob = account(server), account(server)
        silent, _ = my_game(ann, AGAINST_EASY)
        play_moves({0: ann}, silent, MIN_OWN_MOVES)
        early, _ = my_game(bob, AGAINST_EASY)
        play_moves({0: bob}, early, 1)
        # Both stop playing, hoping the game expires unrated instead of being lost.
        view = finished(ann, silent)
        assert view["status"] == "over" and view["result"]["forfeits"] == [0]
        assert view["result"]["winners"] == [1] and view["seats"][0]["forfeited"]
        ratings = settled(ann, silent)
        assert ratings["rated"] and ratings["seats"][0]["place"] == 2 and mu_change(ratings["seats"][0]) < 0
        record_and_replay(ann, silent)
        # Before its first moves a game idle too long is aborted: no result, no rating.
        assert finished(bob, early)["status"] == "expired"
