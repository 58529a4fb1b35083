"""Attacks on accounts, each run as the attacker against a real server process on SQLite and
on PostgreSQL: a Sybil making accounts from one address, guessers hammering an account from
one address and from many, a thief holding a session guessing the current password, weak and
look-alike credentials, and a logged-in client flooding the account routes. The server trusts
the loopback proxy, so each request names its client address in ``X-Forwarded-For``."""

from __future__ import annotations

import itertools
import json
import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from server_helpers import Server, database, error_of

from quadropolis.server.accounts.service import SignupLimits
from quadropolis.server.accounts.storage import AccountStore, SignupsFull
from quadropolis.server.storage import Store

CSRF = {"X-Quadropolis-Client": "1"}
PASSWORD = "correct horse battery"
PROXY = ("--forwarded-allow-ips", "127.0.0.1", "--games-per-client", "1000")
_hosts = itertools.count(1)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"abuse-accounts-{request.param}")
    with database(request.param, tmp) as url, Server(url, tmp, *PROXY) as s:
        yield s
    assert "Traceback" not in s.log.read_text()


def fresh_address() -> str:
    """An IPv4 address no other request of the module has used (198.18.0.0/15, for tests)."""
    n = next(_hosts)
    return f"198.18.{n // 250}.{n % 250 + 1}"


def fresh_name() -> str:
    return f"u{secrets.token_hex(4)}"


def client_at(server: Server, address: str) -> httpx.Client:
    """A browser-like client whose requests the trusted proxy says come from ``address``."""
    return httpx.Client(base_url=server.url, timeout=60, headers={**CSRF, "X-Forwarded-For": address})


def register(server: Server, name: str, address: str, password: str = PASSWORD) -> httpx.Response:
    with client_at(server, address) as c:
        return c.post("/api/accounts", json={"username": name, "password": password})


def login(c: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return c.post("/api/session", json={"username": name, "password": password})


def test_a_sybil_gets_three_accounts_an_hour_from_one_address(server: Server) -> None:
    sybil = fresh_address()
    for _ in range(3):
        assert register(server, fresh_name(), sybil).status_code == 201
    refused = register(server, fresh_name(), sybil)
    assert "at most 3 accounts per hour" in error_of(refused, 429, "rate_limited")
    assert 3500 <= int(refused.headers["Retry-After"]) <= 3600
    assert register(server, fresh_name(), fresh_address()).status_code == 201  # others are not held
    # An IPv6 client is its /64: new addresses inside it are the same client.
    for host in ("2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6:ffff::3"):
        assert register(server, fresh_name(), host).status_code == 201
    error_of(register(server, fresh_name(), "2001:db8:5:6:abcd::9"), 429, "rate_limited")
    assert register(server, fresh_name(), "2001:db8:5:7::1").status_code == 201


def test_a_sybil_sending_sign_ups_at_once_still_gets_three(server: Server) -> None:
    sybil = fresh_address()
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: register(server, fresh_name(), sybil).status_code, range(8)))
    assert codes.count(201) == 3 and codes.count(429) == 5


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_sign_up_quota_holds_across_server_processes(tmp_path: Path, kind: str) -> None:
    with (
        database(kind, tmp_path) as url,
        Server(url, tmp_path, *PROXY) as one,
        Server(url, tmp_path, *PROXY) as two,
    ):
        sybil = fresh_address()
        assert register(one, fresh_name(), sybil).status_code == 201
        assert register(two, fresh_name(), sybil).status_code == 201
        assert register(one, fresh_name(), sybil).status_code == 201
        error_of(register(two, fresh_name(), sybil), 429, "rate_limited")


def test_the_owner_logs_in_from_a_clean_address_while_guessers_hammer_the_account(server: Server) -> None:
    victim = fresh_name()
    assert register(server, victim, fresh_address()).status_code == 201
    guessed: dict[str, int] = {}
    for attacker in [fresh_address() for _ in range(10)]:
        with client_at(server, attacker) as c:
            guessed[attacker] = 0
            while (r := login(c, victim, f"guess {secrets.token_hex(4)}")).status_code == 403:
                guessed[attacker] += 1
            assert "too many failed logins" in error_of(r, 429, "rate_limited")
            assert int(r.headers["Retry-After"]) >= 1
            error_of(login(c, victim), 429, "rate_limited")  # the right password too: no oracle
    counts = list(guessed.values())
    # Five guesses for each of the first four addresses; the account then refuses every
    # address that has failed recently, so each new one gets a single guess.
    assert counts == [5, 5, 5, 5] + [1] * 6, counts
    with client_at(server, fresh_address()) as owner:
        assert login(owner, victim).status_code == 200
        assert owner.get("/api/me").json()["username"] == victim


def test_one_address_guessing_many_accounts_is_slowed_down(server: Server) -> None:
    names = [fresh_name() for _ in range(3)]
    for name in names:
        assert register(server, name, fresh_address()).status_code == 201
    with client_at(server, fresh_address()) as sprayer:
        for name in names:
            for _ in range(3):
                error_of(login(sprayer, name, "Summer2026!"), 403, "forbidden")
        error_of(login(sprayer, fresh_name(), "Summer2026!"), 403, "forbidden")  # 10 failures
        refused = login(sprayer, names[0])
        assert "from this address" in error_of(refused, 429, "rate_limited")
    with client_at(server, fresh_address()) as owner:
        assert login(owner, names[0]).status_code == 200


def test_a_session_thief_cannot_guess_the_current_password_without_limit(server: Server) -> None:
    owner_at, thief_at = fresh_address(), fresh_address()
    name = fresh_name()
    with client_at(server, owner_at) as owner:
        assert owner.post("/api/accounts", json={"username": name, "password": PASSWORD}).status_code == 201
        stolen = dict(owner.cookies)
    with client_at(server, thief_at) as thief:
        thief.cookies.update(stolen)
        for i in range(5):
            change = {"current": f"guess number {i}", "new": "the thief's own secret"}
            error_of(thief.put("/api/me/password", json=change), 403, "forbidden")
        change = {"current": PASSWORD, "new": "the thief's own secret"}
        error_of(thief.put("/api/me/password", json=change), 429, "rate_limited")
        error_of(thief.request("DELETE", "/api/me", json={"password": PASSWORD}), 429, "rate_limited")
    with client_at(server, owner_at) as owner:
        owner.cookies.update(stolen)
        change = {"current": PASSWORD, "new": "a brand new secret"}
        assert owner.put("/api/me/password", json=change).status_code == 204


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("password1", "too easy to guess (this is a very common password)"),
        ("iloveyou2", "too easy to guess (this is a very common password)"),
        ("qwertyuiop", "too easy to guess"),
        ("aaaaaaaaaaaa", "too easy to guess (repeats like"),
        ("{name}-rules!", "may not contain the username"),
        ("xx{NAME}xx", "may not contain the username"),
    ],
)
def test_common_passwords_and_the_username_are_refused(server: Server, password: str, why: str) -> None:
    name = fresh_name()
    secret = password.format(name=name, NAME=name.upper())
    r = register(server, name, fresh_address(), secret)
    message = error_of(r, 422, "bad_account")
    assert why in message and secret not in r.text
    with client_at(server, fresh_address()) as c:
        assert c.post("/api/accounts", json={"username": name, "password": PASSWORD}).status_code == 201
        r = c.put("/api/me/password", json={"current": PASSWORD, "new": secret})
        assert why in error_of(r, 422, "bad_account") and secret not in r.text


@pytest.mark.parametrize(
    ("first", "look_alikes"),
    [
        ("alice", ["aIice", "ALICE", "a1ice", "AL1CE", "aiice"]),
        ("mary", ["rnary", "RNARY"]),
        ("wendy", ["vvendy"]),
        ("otto", ["0tto", "OTT0"]),
    ],
)
def test_look_alike_usernames_are_taken(server: Server, first: str, look_alikes: list[str]) -> None:
    assert register(server, first, fresh_address()).status_code == 201
    for name in look_alikes:
        message = error_of(register(server, name, fresh_address()), 409, "username_taken")
        assert "looks like it" in message


def test_look_alikes_of_reserved_names_are_refused(server: Server) -> None:
    for name in ("adrnin", "ADM1N", "r00t", "b0t_smith"):
        assert "reserved" in error_of(register(server, name, fresh_address()), 422, "bad_account")


def test_unpaired_surrogates_get_typed_refusals_not_tracebacks(server: Server) -> None:
    """JSON can carry ``\\ud800``, which is no Unicode text (neither the hasher nor the
    database could take it): every account route refuses it as a malformed body (the
    module's server log is checked for tracebacks at its end)."""
    name = fresh_name()
    bad = "\ud800 a long secret"
    with client_at(server, fresh_address()) as c:

        def send(method: str, path: str, body: dict[str, str]) -> httpx.Response:
            escaped = json.dumps(body)  # ASCII, with the surrogate as an escape
            return c.request(method, path, content=escaped, headers={"Content-Type": "application/json"})

        assert send("POST", "/api/accounts", {"username": name, "password": PASSWORD}).status_code == 201
        for method, path, body in [
            ("POST", "/api/accounts", {"username": fresh_name(), "password": bad}),
            ("POST", "/api/accounts", {"username": "x\udfffy", "password": PASSWORD}),
            ("POST", "/api/session", {"username": name, "password": bad}),
            ("POST", "/api/session", {"username": "\ud800abc", "password": PASSWORD}),
            ("PUT", "/api/me/password", {"current": bad, "new": PASSWORD + "!"}),
            ("PUT", "/api/me/password", {"current": PASSWORD, "new": bad}),
            ("DELETE", "/api/me", {"password": bad}),
        ]:
            assert "unicode" in error_of(send(method, path, body), 400, "bad_message")
        assert c.get("/api/me").json()["username"] == name


def test_a_logged_in_client_flooding_the_account_routes_is_rate_limited(server: Server) -> None:
    address = fresh_address()
    with client_at(server, address) as c:
        assert (
            c.post("/api/accounts", json={"username": fresh_name(), "password": PASSWORD}).status_code == 201
        )
        game = c.post("/api/me/games", json={"players": 2, "take": [0, 1]}).json()["game"]
        move = {"seat": 0, "version": 99, "move": "1T1"}  # stale: refused after the limit's count

        def flood(path: str, body: object) -> list[int]:
            with ThreadPoolExecutor(8) as pool:
                return list(pool.map(lambda _: c.post(path, json=body).status_code, range(40)))

        assert 429 in flood(f"/api/me/games/{game}/moves", move)
        assert 429 in flood(f"/api/me/games/{game}/undo", {"seat": 0, "version": 99})
        # 30 games created or seats joined a minute: the game above, then 29 joins.
        joins = [c.post(f"/api/me/games/nosuchgame/seats/{i % 4}").status_code for i in range(30)]
        assert joins[:29] == [404] * 29 and joins[29] == 429
        r = c.post("/api/me/games", json={"players": 2, "take": [0]})
        assert "games created or seats joined" in error_of(r, 429, "rate_limited")
        assert int(r.headers["Retry-After"]) >= 1
    with client_at(server, fresh_address()) as other:  # another address is not held back
        assert login(other, "nobody-here", PASSWORD).status_code == 403


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_daily_sign_up_quota_counts_a_whole_day(tmp_path: Path, kind: str) -> None:
    with database(kind, tmp_path) as url:
        store = Store(url)
        try:
            store.upgrade()
            accounts = AccountStore(store.engine)
            quotas = SignupLimits().quotas()
            made = 0
            for hour in range(4):
                for i in range(3):
                    now = hour * 3600.0 + i
                    if made == 10:
                        with pytest.raises(SignupsFull) as full:
                            accounts.insert_account(f"n{hour}x{i}", "h", now, "198.51.100.9", quotas)
                        assert full.value.amount == 10 and full.value.retry_after == 86400 - now
                        continue
                    accounts.insert_account(f"n{hour}x{i}", "h", now, "198.51.100.9", quotas)
                    made += 1
                with pytest.raises(SignupsFull) as full:
                    accounts.insert_account(f"extra{hour}", "h", hour * 3600.0 + 5, "198.51.100.9", quotas)
                assert full.value.amount in (3, 10)
            assert made == 10
            accounts.insert_account("later", "h", 86400.0 + 1, "198.51.100.9", quotas)
        finally:
            store.close()
