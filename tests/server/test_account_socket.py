"""A logged-in player's seats on any device over the websocket: ``auth``
with ``account`` acts for the seats of the session's account, only from the server's own
origin; against a real server process on SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import closing

import httpx
import pytest
from server_helpers import GENEROUS, Client, Server, database

CSRF = {"X-Quadropolis-Client": "1"}
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"account-socket-{request.param}")
    args = ("--games-per-client", "1000", *GENEROUS)
    with database(request.param, tmp) as url, Server(url, tmp, *args) as s:
        yield s


def browser(server: Server, username: str) -> httpx.Client:
    """A browser logged in as ``username`` (registered if new)."""
    client = httpx.Client(base_url=server.url, timeout=30, headers=CSRF)
    r = client.post("/api/accounts", json={"username": username, "password": PASSWORD})
    if r.status_code == 409:
        r = client.post("/api/session", json={"username": username, "password": PASSWORD})
    assert r.status_code in (200, 201), r.text
    return client


def handshake(server: Server, client: httpx.Client | None, origin: str | None = None) -> dict[str, str]:
    """The headers a browser page of ``origin`` (default: the server's own) sends."""
    headers = {"Origin": origin or server.url}
    if client is not None:
        headers["Cookie"] = f"quadropolis_session={client.cookies['quadropolis_session']}"
    return headers


def test_a_second_browser_plays_the_accounts_seat_by_its_session(server: Server) -> None:
    alice = f"a{secrets.token_hex(4)}"
    with closing(browser(server, alice)) as home, closing(browser(server, alice)) as phone:
        game = home.post(
            "/api/me/games", json={"players": 2, "seats": [{}, {"type": "bot", "level": "easy"}]}
        )
        game_id = game.json()["game"]
        ws = Client(server.ws_url(game_id), headers=handshake(server, phone))
        ws.send(type="auth", account=True, id="a")
        welcome = ws.expect("welcome")
        assert welcome["you"] == [0] and welcome["id"] == "a"
        view = ws.until(lambda v: v.get("you") == [0] and v["to_move"] == 0)
        reply = ws.move(0, view["legal_moves"][0])
        assert reply["type"] == "accepted" and reply["seat"] == 0
        ws.close()


def test_the_session_counts_only_from_the_servers_own_origin_and_for_its_own_seats(server: Server) -> None:
    alice, bob = f"a{secrets.token_hex(4)}", f"b{secrets.token_hex(4)}"
    with closing(browser(server, alice)) as a, closing(browser(server, bob)) as b:
        game_id = a.post("/api/me/games", json={"players": 2}).json()["game"]
        cases = [
            (handshake(server, a, "https://evil.example"), "forbidden", "cross-site"),
            ({"Origin": server.url}, "not_logged_in", "log in"),
            (handshake(server, b), "forbidden", "no seat"),
        ]
        for headers, code, words in cases:
            ws = Client(server.ws_url(game_id), headers=headers)
            ws.send(type="auth", account=True, id="a")
            error = ws.expect("error")
            assert error["code"] == code and words in error["message"] and error["id"] == "a"
            assert ws.move(0, "1T1")["code"] == "forbidden"  # still a spectator
            ws.close()
        ws = Client(server.ws_url(game_id))
        ws.send(type="auth", id="x")
        assert ws.expect("error")["code"] == "bad_message"  # neither tokens nor account
        ws.close()
