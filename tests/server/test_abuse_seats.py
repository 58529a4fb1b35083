"""Who holds a seat, attacked (against a real server process, on SQLite and PostgreSQL): a
seat's holder is one fact stored with the seat, and every action, on every transport, is
authorised against it alone. Each test plays the attacker: an account that left a seat and
wants to keep playing it, an account that resigned a seat and wants it back, a player of a
rated game who wants the engine's help."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import GENEROUS, Client, Server, bearer, database, error_of, fresh_postgres, redis_url

CSRF = {"X-Quadropolis-Client": "1"}
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"abuse-seats-{request.param}")
    with database(request.param, tmp) as url, Server(url, tmp, "--games-per-client", "1000", *GENEROUS) as s:
        yield s


def browser(server: Server) -> tuple[httpx.Client, str]:
    """A browser logged in as a new account: the client and the username."""
    name = f"u{secrets.token_hex(4)}"
    client = httpx.Client(base_url=server.url, timeout=30, headers=CSRF)
    r = client.post("/api/accounts", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client, name


def handshake(server: Server, client: httpx.Client) -> dict[str, str]:
    """The websocket headers of the server's own page with ``client``'s session."""
    return {"Origin": server.url, "Cookie": f"quadropolis_session={client.cookies['quadropolis_session']}"}


def no_traceback(server: Server) -> None:
    """No request path logs a traceback for a client's action."""
    assert "Traceback" not in server.log.read_text(errors="replace")


def test_an_account_that_left_a_seat_cannot_play_it_once_another_account_took_it(server: Server) -> None:
    with (
        closing(httpx.Client(base_url=server.url, timeout=30, headers=CSRF)) as host,
        closing(browser(server)[0]) as leaver,
        closing(browser(server)[0]) as taker,
    ):
        created = host.post("/api/games", json={"players": 3, "name": "Host"})
        game = created.json()["game"]
        host_seat = created.json()["seats"][0]["token"]
        joined = leaver.post(f"/api/me/games/{game}/seats/1")
        assert joined.status_code == 200, joined.text
        old_token = joined.json()["token"]
        left = leaver.post(f"/api/games/{game}/leave", json={"seat": 1}, headers=bearer(old_token))
        assert left.status_code == 200, left.text
        assert leaver.get("/api/me/games").json()["waiting"] == []
        # The next account takes the seat: a plain success, the seat named after it.
        taken = taker.post(f"/api/me/games/{game}/seats/1")
        assert taken.status_code == 200, taken.text
        third = httpx.post(f"{server.url}/api/games/{game}/seats/2", json={"name": "Third"}, timeout=15)
        third_seat = third.json()["token"]
        view = taker.get(f"/api/me/games/{game}").json()
        assert view["status"] == "playing" and view["you"] == [1]
        # Play until it is seat 1's turn, then the leaver tries every way in.
        while view["to_move"] != 1:
            seat = view["to_move"]
            move = {"seat": seat, "version": view["version"], "move": view["legal_moves"][0]}
            mover = bearer(host_seat if seat == 0 else third_seat)
            assert host.post(f"/api/games/{game}/moves", json=move, headers=mover).status_code == 200
            view = taker.get(f"/api/me/games/{game}").json()
        body = {"seat": 1, "version": view["version"], "move": view["legal_moves"][0]}
        undo = {"seat": 1, "version": view["version"]}
        error_of(leaver.post(f"/api/me/games/{game}/moves", json=body), 403, "forbidden")
        error_of(leaver.post(f"/api/me/games/{game}/undo", json=undo), 403, "forbidden")
        by_token = leaver.post(f"/api/games/{game}/moves", json=body, headers=bearer(old_token))
        error_of(by_token, 403, "forbidden")
        mine = leaver.get(f"/api/me/games/{game}").json()
        assert mine.get("you", []) == [] and "hand" not in mine
        lists = leaver.get("/api/me/games").json()
        assert all(g["game"] != game for entries in lists.values() for g in entries)
        ws = Client(server.ws_url(game), headers=handshake(server, leaver))
        ws.send(type="auth", account=True, id="a")
        assert ws.expect("error")["code"] == "forbidden"
        assert ws.move(1, body["move"])["code"] == "forbidden"
        ws.close()
        # The seat's player moves, under their own name.
        assert taker.post(f"/api/me/games/{game}/moves", json=body).status_code == 200
        names = [s["name"] for s in taker.get(f"/api/me/games/{game}").json()["seats"]]
        assert names[1] == taker.get("/api/me").json()["username"]
    no_traceback(server)


def test_a_connection_of_a_leaver_loses_the_seat_when_a_guest_takes_it(server: Server) -> None:
    with (
        closing(httpx.Client(base_url=server.url, timeout=30, headers=CSRF)) as host,
        closing(browser(server)[0]) as leaver,
    ):
        game = host.post("/api/games", json={"players": 3, "name": "Host"}).json()["game"]
        token = leaver.post(f"/api/me/games/{game}/seats/1").json()["token"]
        # Connected as the seat's player (by account and by token) before leaving.
        by_account = Client(server.ws_url(game), headers=handshake(server, leaver))
        by_account.send(type="auth", account=True)
        assert by_account.expect("welcome")["you"] == [1]
        by_token = Client(server.ws_url(game), [token])
        left = leaver.post(f"/api/games/{game}/leave", json={"seat": 1}, headers=bearer(token))
        assert left.status_code == 200, left.text
        guest = httpx.post(f"{server.url}/api/games/{game}/seats/1", json={"name": "Guest"}, timeout=15)
        assert guest.status_code == 200, guest.text
        third = httpx.post(f"{server.url}/api/games/{game}/seats/2", json={"name": "Third"}, timeout=15)
        assert third.status_code == 200, third.text
        guest_token = guest.json()["token"]
        for ws in (by_account, by_token):
            view = ws.until(lambda v: v["status"] == "playing")
            assert view.get("you", []) == [] and "hand" not in view
            assert ws.move(1, "1T1")["code"] == "forbidden"
        # The leaver's open connections do not count as the new player being there (they
        # would keep the bot from taking over an absent player's seat).
        view = by_token.until(lambda v: not v["seats"][1]["present"])
        assert view["status"] == "playing"
        for ws in (by_account, by_token):
            ws.close()
        # The guest holds the seat alone: their token acts, the account is no longer linked.
        assert httpx.get(f"{server.url}/api/games/{game}", headers=bearer(guest_token)).json()["you"] == [1]
        assert leaver.get("/api/me/games").json() == {
            "your_turn": [],
            "waiting": [],
            "playing": [],
            "finished": [],
        }
    no_traceback(server)


def test_an_account_that_resigned_cannot_move_its_seat_over_any_transport(server: Server) -> None:
    resigner, _ = browser(server)
    with closing(resigner), closing(httpx.Client(base_url=server.url, timeout=30)) as other:
        spec = {"players": 3, "seats": [{}, {}, {"type": "bot", "level": "easy"}]}
        created = resigner.post("/api/me/games", json=spec).json()
        game, token = created["game"], created["seats"][0]["token"]
        other_token = other.post(f"/api/games/{game}/seats/1", json={"name": "Other"}).json()["token"]
        r = resigner.post(f"/api/games/{game}/resign", json={"seat": 0}, headers=bearer(token))
        assert r.status_code == 200, r.text
        view = resigner.get(f"/api/me/games/{game}").json()
        assert view.get("you", []) == []
        body = {"seat": 0, "version": view["version"], "move": "1T1"}
        error_of(resigner.post(f"/api/me/games/{game}/moves", json=body), 403, "forbidden")
        error_of(
            resigner.post(f"/api/me/games/{game}/undo", json={"seat": 0, "version": view["version"]}),
            403,
            "forbidden",
        )
        error_of(
            resigner.post(f"/api/games/{game}/moves", json=body, headers=bearer(token)), 403, "forbidden"
        )
        ws = Client(server.ws_url(game), headers=handshake(server, resigner))
        ws.send(type="auth", account=True)
        assert ws.expect("error")["code"] == "forbidden"
        ws.close()
        # The game is still listed as the account's (its result is theirs), never as their turn.
        lists = resigner.get("/api/me/games").json()
        assert all(g["game"] != game for g in lists["your_turn"])
        assert other_token
    no_traceback(server)


def rated_game_against_a_bot(client: httpx.Client) -> tuple[str, str]:
    created = client.post(
        "/api/me/games",
        json={"players": 2, "seats": [{}, {"type": "bot", "level": "easy"}], "analysis": True},
    )
    assert created.status_code == 201, created.text
    return created.json()["game"], created.json()["seats"][0]["token"]


def test_no_hints_in_a_rated_game_while_it_runs_for_anyone(server: Server) -> None:
    player, _ = browser(server)
    with closing(player):
        game, token = rated_game_against_a_bot(player)
        view = player.get(f"/api/me/games/{game}").json()
        assert view["rated"] and not view["analysis"]  # the client shows no Hint button
        for headers in (bearer(token), {}):
            r = player.get(f"/api/games/{game}/analysis", headers=headers)
            message = error_of(r, 403, "forbidden")
            assert "rated" in message or "token" in message
        assert "rated" in error_of(
            player.get(f"/api/games/{game}/analysis", headers=bearer(token)), 403, "forbidden"
        )
        error_of(player.post(f"/api/games/{game}/review"), 409, "not_over")
        # Once over, everything: the analysis of any position, for anyone.
        play_to_end(player, game)
        r = httpx.get(f"{server.url}/api/games/{game}/analysis?at=0", timeout=120)
        assert r.status_code == 200 and r.json()["type"] == "analysis", r.text


def test_hints_still_help_a_guest_against_bots(server: Server) -> None:
    with closing(httpx.Client(base_url=server.url, timeout=120)) as guest:
        spec = {"players": 2, "seats": [{}, {"type": "bot", "level": "easy"}], "name": "Guest"}
        created = guest.post("/api/games", json=spec).json()
        game, token = created["game"], created["seats"][0]["token"]
        view = guest.get(f"/api/games/{game}", headers=bearer(token)).json()
        assert not view["rated"] and view["analysis"]
        r = guest.get(f"/api/games/{game}/analysis", headers=bearer(token))
        assert r.status_code == 200 and r.json()["type"] == "analysis", r.text


def play_to_end(client: httpx.Client, game: str) -> dict[str, Any]:
    """Play the first legal move of the account's seat to move until the end."""
    while True:
        view: dict[str, Any] = client.get(f"/api/me/games/{game}").json()
        if view["status"] == "over":
            return view
        if view["to_move"] not in view.get("you", []):
            continue  # the bot's turn
        body = {"seat": view["to_move"], "version": view["version"], "move": view["legal_moves"][0]}
        r = client.post(f"/api/me/games/{game}/moves", json=body)
        assert r.status_code in (200, 409), r.text


def refused_everywhere(server: Server, cookies: httpx.Cookies, game: str, token: str) -> None:
    """The leaver of seat 1 (its session ``cookies``, its old ``token``) through ``server``:
    a spectator's view, and moves refused by session and by token."""
    with httpx.Client(base_url=server.url, timeout=30, headers=CSRF, cookies=cookies) as c:
        view = c.get(f"/api/me/games/{game}").json()
        assert view["status"] == "playing" and view.get("you", []) == []
        body = {"seat": 1, "version": view["version"], "move": "1T1"}
        error_of(c.post(f"/api/me/games/{game}/moves", json=body), 403, "forbidden")
        error_of(c.post(f"/api/games/{game}/moves", json=body, headers=bearer(token)), 403, "forbidden")


def test_a_leaver_cannot_play_the_seat_through_another_server_process(tmp_path: Path) -> None:
    # Two processes share the games (PostgreSQL, Redis): the leaver leaves through one and
    # tries the seat, once another account took it, through both.
    with fresh_postgres() as url:
        one = Server(url, tmp_path, *GENEROUS, redis=redis_url()).launch()
        two = Server(url, tmp_path, *GENEROUS, redis=redis_url()).launch()
        try:
            one.wait_ready()
            two.wait_ready()
            leaver, taker = browser(one)[0], browser(two)[0]
            host = httpx.Client(base_url=one.url, timeout=30, headers=CSRF)
            with closing(leaver), closing(taker), closing(host):
                game = host.post("/api/games", json={"players": 3, "name": "Host"}).json()["game"]
                token = leaver.post(f"/api/me/games/{game}/seats/1").json()["token"]
                assert leaver.post(
                    f"/api/games/{game}/leave", json={"seat": 1}, headers=bearer(token)
                ).is_success
                assert taker.post(f"/api/me/games/{game}/seats/1").status_code == 200
                third = httpx.post(f"{two.url}/api/games/{game}/seats/2", json={"name": "Third"}, timeout=15)
                assert third.status_code == 200, third.text
                for server in (one, two):
                    with httpx.Client(
                        base_url=server.url, timeout=30, headers=CSRF, cookies=leaver.cookies
                    ) as c:
                        view = c.get(f"/api/me/games/{game}").json()
                        assert view["status"] == "playing" and view.get("you", []) == []
                        body = {"seat": 1, "version": view["version"], "move": "1T1"}
                        error_of(c.post(f"/api/me/games/{game}/moves", json=body), 403, "forbidden")
                        error_of(
                            c.post(f"/api/games/{game}/moves", json=body, headers=bearer(token)),
                            403,
                            "forbidden",
                        )
                assert taker.get(f"/api/me/games/{game}").json()["you"] == [1]
        finally:
            one.stop()
            two.stop()
    for server in (one, two):
        no_traceback(server)
