"""Ratings, leaderboards and profiles through a real server process, on SQLite and
PostgreSQL: a rated game against a bot changes both ratings and shows on the leaderboard and
the profile; a hotseat game is settled unrated; a game the server finished but did not settle
(it stopped in between) is settled by the next server, with the same changes."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import GENEROUS, Server, database, error_of
from sqlalchemy import create_engine, text

from quadropolis.scoring import CATEGORIES
from quadropolis.server.storage import normalise_url

CSRF = {"X-Quadropolis-Client": "1"}
PASSWORD = "correct horse battery"
AGAINST_EASY = {"players": 2, "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}], "take": [0]}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    tmp = tmp_path_factory.mktemp(f"ratings-{request.param}")
    with database(request.param, tmp) as url:
        yield url, tmp


def account(server: Server) -> tuple[httpx.Client, str]:
    client = httpx.Client(base_url=server.url, timeout=30, headers=CSRF)
    name = f"r{secrets.token_hex(4)}"
    r = client.post("/api/accounts", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client, name


def play_to_end(client: httpx.Client, spec: dict[str, Any]) -> str:
    """Create a game as the account and play each of its turns with the first legal move."""
    game: str = client.post("/api/me/games", json=spec).json()["game"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = client.get(f"/api/me/games/{game}").json()
        if view["status"] == "over":
            return game
        if view["you"] and view["to_move"] in view["you"]:
            body = {"seat": view["to_move"], "version": view["version"], "move": view["legal_moves"][0]}
            assert client.post(f"/api/me/games/{game}/moves", json=body).status_code in (200, 409)
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def settled(client: httpx.Client, game: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        body: dict[str, Any] = client.get(f"/api/games/{game}/ratings").json()
        if body["settled"]:
            return body
        time.sleep(0.05)
    raise AssertionError("the game was not settled")


def test_a_rated_game_shows_everywhere(db: tuple[str, Path]) -> None:
    url, tmp = db
    with Server(url, tmp, *GENEROUS) as server:
        client, name = account(server)
        game = play_to_end(client, AGAINST_EASY)
        ratings = settled(client, game)
        assert ratings["rated"] and [s["seat"] for s in ratings["seats"]] == [0, 1]
        mine, bot = ratings["seats"]
        assert bot["bot"] == "easy" and mine["bot"] is None
        assert mine["before"] == {"rating": 0.0, "mu": 25.0, "sigma": 8.33}
        assert mine["change"] == pytest.approx(mine["after"]["rating"] - mine["before"]["rating"], abs=0.02)
        assert (mine["change"] > bot["change"]) == (mine["place"] < bot["place"])
        board = client.get("/api/leaderboard", params={"mode": "classic"}).json()
        lines = {(p["username"], p["bot"]): p for p in board["players"]}
        assert lines[(name, None)]["rating"] == mine["after"]["rating"] and lines[(name, None)]["games"] == 1
        assert [p["place"] for p in board["players"]] == list(range(1, len(board["players"]) + 1))
        ordinals = [p["rating"] for p in board["players"]]
        assert ordinals == sorted(ordinals, reverse=True)
        assert (None, "easy") in lines
        assert name not in client.get("/api/leaderboard", params={"mode": "expert"}).text
        profile = client.get(f"/api/players/{name.upper()}").json()
        assert profile["username"] == name and profile["games_played"] == 1
        assert [(r["mode"], r["games"], r["rating"]) for r in profile["ratings"]] == [
            ("classic", 1, mine["after"]["rating"])
        ]
        assert [(h["game"], h["rating"]) for h in profile["history"]] == [(game, mine["after"]["rating"])]
        [played] = profile["games"]
        assert (played["game"], played["place"], played["replay"]) == (
            game,
            mine["place"],
            f"/?replay={game}",
        )
        assert played["rating"] == mine and not played["reviewed"]
        [stats] = profile["statistics"]
        assert (stats["mode"], stats["players"], stats["games"]) == ("classic", 2, 1)
        assert stats["wins"] == (1 if mine["place"] == 1 else 0)
        assert stats["best"] == played["score"] == stats["average"]
        assert set(stats["categories"]) <= set(CATEGORIES)
        assert sum(stats["categories"].values()) == pytest.approx(played["score"])


def test_hotseat_games_are_unrated_and_bad_requests_refused(db: tuple[str, Path]) -> None:
    url, tmp = db
    with Server(url, tmp, *GENEROUS) as server:
        client, name = account(server)
        game = play_to_end(client, {"players": 2, "take": [0, 1]})
        assert settled(client, game) == {"game": game, "settled": True, "rated": False, "seats": []}
        profile = client.get(f"/api/players/{name}").json()
        # One line per seat held: a hotseat game shows each of the player's seats.
        assert profile["ratings"] == [] and profile["games_played"] == 1
        assert [(g["game"], g["seat"], g["rating"]) for g in profile["games"]] == [
            (game, 0, None),
            (game, 1, None),
        ]
        error_of(client.get("/api/leaderboard", params={"mode": "chess"}), 400, "bad_message")
        error_of(client.get("/api/leaderboard", params={"limit": 0}), 400, "bad_message")
        error_of(client.get("/api/players/nobody-here"), 404, "not_found")
        error_of(client.get("/api/games/no-such-game/ratings"), 404, "not_found")
        schema = client.get("/openapi.json").json()
        params = schema["paths"]["/api/leaderboard"]["get"]["parameters"]
        assert [p["name"] for p in params] == ["mode", "limit", "offset"]
        assert "/api/games/{game_id}/ratings" in schema["paths"]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_game_left_unsettled_is_settled_by_the_next_server(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url:
        left_unsettled(url, tmp_path)


def left_unsettled(url: str, tmp: Path) -> None:
    with Server(url, tmp, *GENEROUS) as server:
        client, name = account(server)
        game = play_to_end(client, AGAINST_EASY)
        before = settled(client, game)
    # As if the server had stopped between the game's last move and its settling.
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        for table in ("rating_changes", "seat_results", "settled_games"):
            conn.execute(text(f"DELETE FROM {table} WHERE game_id = :g"), {"g": game})
        conn.execute(text("DELETE FROM ratings"))
    engine.dispose()
    with Server(url, tmp, *GENEROUS) as server:
        client = httpx.Client(base_url=server.url, timeout=30)
        assert settled(client, game) == before
        assert client.get(f"/api/players/{name}").json()["ratings"][0]["games"] == 1
