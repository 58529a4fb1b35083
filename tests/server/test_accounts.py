"""Accounts and "My games" against a real server process, on SQLite and on
PostgreSQL: registration, sessions, CSRF, throttling, username rules, seats held by accounts,
and deleting an account without losing its games."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import GENEROUS, Server, bearer, database, error_of

CSRF = {"X-Quadropolis-Client": "1"}
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"accounts-{request.param}")
    with (
        database(request.param, tmp) as url,
        Server(url, tmp, "--games-per-client", "1000", *GENEROUS) as s,
    ):
        yield s


def browser(server: Server) -> httpx.Client:
    """A client as the browser page is: its own cookie jar, the client header on every request."""
    return httpx.Client(base_url=server.url, timeout=30, headers=CSRF)


def fresh_name() -> str:
    return f"u{secrets.token_hex(4)}"


def register(client: httpx.Client, name: str, password: str = PASSWORD) -> dict[str, Any]:
    r = client.post("/api/accounts", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def login(client: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/session", json={"username": name, "password": password})


def play_to_end(client: httpx.Client, game: str) -> dict[str, Any]:
    """Play the first legal move of the seat to move, through the account, until the end."""
    while True:
        view: dict[str, Any] = client.get(f"/api/me/games/{game}").json()
        if view["status"] == "over":
            return view
        body = {"seat": view["to_move"], "version": view["version"], "move": view["legal_moves"][0]}
        r = client.post(f"/api/me/games/{game}/moves", json=body)
        assert r.status_code == 200, r.text


def test_register_log_in_log_out_and_me(server: Server) -> None:
    name = fresh_name()
    with browser(server) as a, browser(server) as b:
        r = a.post("/api/accounts", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201 and r.json()["username"] == name
        cookie = r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "max-age=2592000" in cookie
        assert "secure" not in cookie  # plain http here; https requests get Secure
        assert a.get("/api/me").json()["username"] == name
        error_of(b.get("/api/me"), 401, "not_logged_in")
        assert login(b, name.upper()).json()["username"] == name  # usernames ignore case
        assert a.delete("/api/session").status_code == 204
        error_of(a.get("/api/me"), 401, "not_logged_in")
        assert b.get("/api/me").json()["username"] == name  # the other session lives on


def test_a_wrong_password_and_an_unknown_name_get_the_same_refusal(server: Server) -> None:
    name = fresh_name()
    with browser(server) as a:
        register(a, name)
        a.cookies.clear()
        wrong = error_of(login(a, name, "not the password"), 403, "forbidden")
        unknown = error_of(login(a, fresh_name(), PASSWORD), 403, "forbidden")
        assert wrong == unknown == "wrong username or password"
        error_of(a.get("/api/me"), 401, "not_logged_in")


def test_changing_the_password_ends_other_sessions(server: Server) -> None:
    name = fresh_name()
    with browser(server) as a, browser(server) as b:
        register(a, name)
        assert login(b, name).status_code == 200
        change = {"current": PASSWORD, "new": "a new password"}
        error_of(a.put("/api/me/password", json={**change, "current": "wrong guess"}), 403, "forbidden")
        assert a.put("/api/me/password", json=change).status_code == 204
        assert a.get("/api/me").status_code == 200
        error_of(b.get("/api/me"), 401, "not_logged_in")
        error_of(login(b, name), 403, "forbidden")
        assert login(b, name, "a new password").status_code == 200


@pytest.mark.parametrize(
    ("username", "why"),
    [
        ("ali\x1bce", "control or invisible characters (U+001B)"),
        ("ali\u200bce", "control or invisible characters (U+200B)"),
        ("аlice", "only the letters A-Z"),  # the first letter is Cyrillic
        ("al ice", "only the letters A-Z"),
        ("al", "3 to 20 characters"),
        ("a" * 21, "3 to 20 characters"),
        ("Admin", "reserved"),
        ("Former_Player", "reserved"),
        ("hard", "reserved"),  # a bot level
        ("Bot_7", "reserved"),
    ],
)
def test_usernames_are_refused_with_the_reason(server: Server, username: str, why: str) -> None:
    with browser(server) as a:
        r = a.post("/api/accounts", json={"username": username, "password": PASSWORD})
        assert why in error_of(r, 422, "bad_account")


def test_usernames_are_unique_ignoring_case_and_lookalike_forms(server: Server) -> None:
    name = fresh_name()
    with browser(server) as a:
        register(a, name)
        for other in (name.upper(), "".join(chr(ord(c) + 0xFEE0) for c in name)):  # fullwidth forms
            r = a.post("/api/accounts", json={"username": other, "password": PASSWORD})
            assert name in error_of(r, 409, "username_taken").lower()


def test_password_lengths_are_bounded(server: Server) -> None:
    with browser(server) as a:
        short = a.post("/api/accounts", json={"username": fresh_name(), "password": "short"})
        assert "at least 8" in error_of(short, 422, "bad_account")
        long = a.post("/api/accounts", json={"username": fresh_name(), "password": "x" * 300})
        assert "at most 256" in error_of(long, 422, "bad_account")


def test_cross_site_requests_are_refused(server: Server) -> None:
    name = fresh_name()
    with browser(server) as a:
        register(a, name)
        session = dict(a.cookies)
        with httpx.Client(base_url=server.url, cookies=session) as forged:
            # A cross-site form: the cookie, no custom header.
            r = forged.request("DELETE", "/api/me", json={"password": PASSWORD})
            assert "X-Quadropolis-Client" in error_of(r, 403, "forbidden")
            evil = {**CSRF, "Origin": "https://evil.example"}
            r = forged.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=evil)
            assert "cross-site" in error_of(r, 403, "forbidden")
            fetched = {**CSRF, "Sec-Fetch-Site": "cross-site"}
            error_of(forged.post("/api/me/games", json={}, headers=fetched), 403, "forbidden")
            same = {**CSRF, "Origin": server.url, "Sec-Fetch-Site": "same-origin"}
            assert forged.post("/api/me/games", json={"take": []}, headers=same).status_code == 201
        assert a.get("/api/me").json()["username"] == name  # still there


def test_seats_are_the_accounts_on_any_device_and_no_one_elses(server: Server) -> None:
    alice, bob = fresh_name(), fresh_name()
    with browser(server) as a, browser(server) as phone, browser(server) as b:
        register(a, alice)
        register(b, bob)
        created = a.post("/api/me/games", json={"players": 2, "take": [0]}).json()
        game = created["game"]
        assert b.get("/api/me/games").json()["waiting"] == []
        assert [g["game"] for g in a.get("/api/me/games").json()["waiting"]] == [game]
        assert b.post(f"/api/me/games/{game}/seats/1").status_code == 200
        assert login(phone, alice).status_code == 200  # a second browser, no seat token
        view = phone.get(f"/api/me/games/{game}").json()
        assert view["you"] == [0] and view["to_move"] == 0
        mine = phone.get("/api/me/games").json()
        assert [g["game"] for g in mine["your_turn"]] == [game] and mine["your_turn"][0]["seats"] == [0]
        move = {"seat": 0, "version": view["version"], "move": view["legal_moves"][0]}
        error_of(b.post(f"/api/me/games/{game}/moves", json=move), 403, "forbidden")
        error_of(b.post(f"/api/me/games/{game}/undo", json={"seat": 0, "version": 0}), 403, "forbidden")
        assert b.get(f"/api/me/games/{game}").json()["you"] == [1]
        assert phone.post(f"/api/me/games/{game}/moves", json=move).status_code == 200
        to_move = a.get(f"/api/me/games/{game}").json()["to_move"]
        mover, waiter = (a, b) if to_move == 0 else (b, a)
        assert [g["game"] for g in mover.get("/api/me/games").json()["your_turn"]] == [game]
        assert [g["game"] for g in waiter.get("/api/me/games").json()["playing"]] == [game]
        # The seat token of the creating browser still acts for the seat (as for guests).
        token = created["seats"][0]["token"]
        r = httpx.post(
            f"{server.url}/api/games/{game}/undo", json={"seat": 0, "version": 1}, headers=bearer(token)
        )
        assert r.status_code == 200, r.text
        # Bob's session is his alone: his replies never carry Alice's session or her seats.
        assert b.get("/api/me").json()["username"] == bob
        assert a.cookies["quadropolis_session"] not in b.get("/api/me/games").text


def test_acting_needs_a_session(server: Server) -> None:
    with browser(server) as anonymous:
        r = anonymous.post("/api/me/games/whatever/moves", json={"seat": 0, "version": 0, "move": "x"})
        error_of(r, 401, "not_logged_in")
        error_of(anonymous.get("/api/me/games"), 401, "not_logged_in")


def test_deleting_an_account_keeps_its_games(server: Server) -> None:
    name = fresh_name()
    with browser(server) as a:
        register(a, name)
        game = a.post("/api/me/games", json={"players": 2, "take": [0, 1]}).json()["game"]
        play_to_end(a, game)
        finished = a.get("/api/me/games").json()["finished"]
        assert [g["game"] for g in finished] == [game] and finished[0]["result"] is not None
        assert a.get(f"/api/players/{name}").json()["games_played"] == 1
        error_of(a.request("DELETE", "/api/me", json={"password": "wrong guess"}), 403, "forbidden")
        assert a.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
        error_of(a.get("/api/me"), 401, "not_logged_in")
        error_of(a.get(f"/api/players/{name}"), 404, "not_found")
        view = a.get(f"/api/games/{game}").json()
        assert view["status"] == "over"
        assert [s["name"] for s in view["seats"]] == ["Former player", "Former player"]
        assert name not in a.get(f"/api/games/{game}/record").text


def test_the_openapi_schema_documents_the_account_endpoints(server: Server) -> None:
    paths = httpx.get(f"{server.url}/openapi.json").json()["paths"]
    assert {"post", "delete"} <= set(paths["/api/session"])
    assert {"get", "delete"} <= set(paths["/api/me"])
    for path in ("/api/accounts", "/api/me/password", "/api/players/{username}", "/api/me/games"):
        assert path in paths


def test_brute_force_is_throttled_per_account_and_per_address(tmp_path: Path) -> None:
    with Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path) as server, browser(server) as a:
        victim, other = fresh_name(), fresh_name()
        register(a, victim)
        register(a, other)
        a.cookies.clear()
        for _ in range(5):
            error_of(login(a, victim, "guess guess"), 403, "forbidden")
        r = login(a, victim)
        assert "too many failed logins" in error_of(r, 429, "rate_limited")
        assert int(r.headers["Retry-After"]) >= 1
        assert login(a, other).status_code == 200  # another account is not locked
        for _ in range(5):  # 10 failures from this address in all
            error_of(login(a, fresh_name(), "guess guess"), 403, "forbidden")
        assert "from this address" in error_of(login(a, other), 429, "rate_limited")


def test_passwords_are_never_logged_or_returned(tmp_path: Path) -> None:
    first, second, wrong = "first-secret-Pw1", "second-secret-Pw2", "wrong-secret-Pw3"
    replies: list[str] = []
    db = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with Server(db, tmp_path, "--log-level", "debug") as server, browser(server) as a:
        name = fresh_name()
        for r in (
            a.post("/api/accounts", json={"username": name, "password": first}),
            a.post("/api/accounts", json={"username": name, "password": first}),
            a.post("/api/accounts", json={"username": "x\x00y", "password": first}),
            login(a, name, wrong),
            login(a, name, first),
            a.put("/api/me/password", json={"current": wrong, "new": second}),
            a.put("/api/me/password", json={"current": first, "new": second}),
            a.post("/api/session", json={"username": name, "password": 5}),
            a.get("/api/me"),
            a.get(f"/api/players/{name}"),
        ):
            replies.append(r.text + str(r.headers))
        log = server.log.read_text()
    assert name in "".join(replies)
    for secret in (first, second, wrong):
        assert secret not in log
        assert all(secret not in reply for reply in replies)


def test_guesses_sent_at_once_are_throttled_too(tmp_path: Path) -> None:
    with Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path) as server, browser(server) as a:
        victim = fresh_name()
        register(a, victim)

        def guess(i: int) -> int:
            with browser(server) as b:
                return login(b, victim, f"guess number {i}").status_code

        with ThreadPoolExecutor(16) as pool:
            codes = list(pool.map(guess, range(32)))
        # Five free guesses, then one more each time the backoff (1 s, 2 s, ...) has passed.
        assert 5 <= codes.count(403) <= 8 and codes.count(403) + codes.count(429) == 32
