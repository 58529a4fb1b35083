"""The server's edges under abuse, against a real server process:
whose address a request counts on (no proxy header trusted unless configured; IPv6 by /64),
the security headers of every response and no third-party script on the origin, per-address
HTTP rate limits, slow header senders cut off, and cheap requests kept cheap (wrong tokens
and finished games read nothing from the database again)."""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
from server_helpers import GENEROUS, Server, bearer, create, database, error_of, hotseat, play_http

from quadropolis.server.edges import client_key


def create_from(http: httpx.Client, forwarded: str) -> httpx.Response:
    return http.post("/api/games", json={"players": 2, "name": "Ann"}, headers={"X-Forwarded-For": forwarded})


def test_forwarded_for_is_ignored_unless_the_proxy_is_trusted(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    with Server(url, tmp_path, "--games-per-client", "1", *GENEROUS) as server, server.http() as http:
        assert create_from(http, "203.0.113.1").status_code == 201
        # Another claimed address, but the same real one: the quota is the real one's.
        error_of(create_from(http, "203.0.113.2"), 429, "limit_reached")
    url = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    options = ("--games-per-client", "1", "--forwarded-allow-ips", "127.0.0.1", *GENEROUS)
    with Server(url, tmp_path, *options) as server, server.http() as http:
        assert create_from(http, "203.0.113.1").status_code == 201
        assert create_from(http, "203.0.113.2").status_code == 201  # the proxy's word is taken
        error_of(create_from(http, "203.0.113.2"), 429, "limit_reached")


def test_ipv6_clients_count_by_their_64_network(tmp_path: Path) -> None:
    options = ("--games-per-client", "1", "--forwarded-allow-ips", "127.0.0.1", *GENEROUS)
    with Server(f"sqlite:///{tmp_path / 'a.sqlite3'}", tmp_path, *options) as server, server.http() as http:
        assert create_from(http, "2001:db8:1:2::1").status_code == 201
        error_of(create_from(http, "2001:db8:1:2:ffff::7"), 429, "limit_reached")  # same /64
        assert create_from(http, "2001:db8:1:3::1").status_code == 201  # another /64
    assert client_key("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key("192.0.2.7") == "192.0.2.7"


SECURITY = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


def test_every_response_carries_the_security_headers(http: httpx.Client) -> None:
    responses = [
        http.get("/"),
        http.get("/api/health"),
        http.get("/api/games/nosuchgame"),
        http.post("/api/games", content=b"x" * 20_000, headers={"content-type": "application/json"}),
        http.post("/api/games", json={"players": "2"}),
    ]
    assert [r.status_code for r in responses] == [200, 200, 404, 413, 400]
    for r in responses:
        for name, value in SECURITY.items():
            assert r.headers[name] == value, (r.request.url, name)
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp


def test_no_script_from_another_origin_and_no_inline_script(http: httpx.Client) -> None:
    error_of(http.get("/docs"), 404, "not_found")  # no Swagger UI (it came from a CDN)
    error_of(http.get("/redoc"), 404, "not_found")
    assert http.get("/openapi.json").status_code == 200
    page = http.get("/").text
    scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", page, re.S)
    assert scripts and all(body.strip() == "" for body in scripts)  # every script is a file
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # all from this origin


def test_http_actions_are_rate_limited_per_address(tmp_path: Path) -> None:
    options = ("--actions-per-second", "5", "--creates-per-minute", "3")
    with Server(f"sqlite:///{tmp_path / 'a.sqlite3'}", tmp_path, *options) as server, server.http() as http:
        game, tokens = hotseat(http)
        body = {"seat": 0, "version": 0}
        codes = [
            http.post(f"/api/games/{game}/undo", json=body, headers=bearer(tokens[0])).status_code
            for _ in range(12)
        ]
        assert codes.count(409) == 5 and codes.count(429) == 7  # 5 undo_refused, then limited
        r = http.post(f"/api/games/{game}/undo", json=body, headers=bearer(tokens[0]))
        message = error_of(r, 429, "rate_limited")
        assert 1 <= int(r.headers["retry-after"]) <= 2 and "try again" in message
        time.sleep(1.1)
        error_of(
            http.post(f"/api/games/{game}/undo", json=body, headers=bearer(tokens[0])), 409, "undo_refused"
        )
        for _ in range(2):  # three creates a minute: the hotseat was the first
            create(http, players=2)
        r = http.post("/api/games", json={"players": 2})
        error_of(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) > 30


def drip(sockets: list[socket.socket], stop: threading.Event) -> None:
    """Send each socket one more byte of an endless header every 0.2 s (slowloris)."""
    while not stop.is_set():
        for s in sockets:
            with contextlib.suppress(OSError):
                s.send(b"a")
        time.sleep(0.2)


def closed_by_server(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        return s.recv(1024) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_400_dripping_connections_do_not_starve_a_client_and_are_cut_off(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    with Server(url, tmp_path, "--header-timeout", "2", *GENEROUS) as server, server.http() as http:
        sockets = []
        for _ in range(400):
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            sockets.append(s)
        stop = threading.Event()
        dripper = threading.Thread(target=drip, args=(sockets, stop), daemon=True)
        dripper.start()
        try:
            started = time.monotonic()
            while time.monotonic() - started < 3.5:  # the client is answered all along
                assert http.get("/api/health").status_code == 200
                time.sleep(0.05)
            end = time.monotonic() + 30
            while sum(closed_by_server(s) for s in sockets) < 400:  # cut off after 2 s
                assert time.monotonic() < end, "the dripping connections were not cut off"
                time.sleep(0.2)
        finally:
            stop.set()
            dripper.join()
            for s in sockets:
                s.close()


@pytest.mark.parametrize("kind", ["postgresql"])
def test_wrong_tokens_and_finished_games_read_nothing_again(kind: str, tmp_path: Path) -> None:
    import psycopg

    with (
        database(kind, tmp_path) as url,
        Server(url, tmp_path, *GENEROUS) as server,
        server.http() as http,
        psycopg.connect(url, autocommit=True) as db,
    ):

        def seat_reads() -> int:
            time.sleep(1.2)  # the server's statistics reach the collector within a second
            db.execute("SELECT pg_stat_clear_snapshot()")
            row = db.execute(
                "SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_user_tables "
                "WHERE relname = 'seats'"
            ).fetchone()
            assert row is not None
            return int(row[0])

        game, tokens = hotseat(http)
        before = seat_reads()
        for i in range(100):
            error_of(http.get(f"/api/games/{game}", headers=bearer(f"wrong{i:017d}")), 403, "forbidden")
        assert seat_reads() - before <= 2  # a full table: no seat can have been claimed elsewhere
        play_http(http, game, tokens)
        loaded = http.get("/api/health").json()["loaded"]
        for _ in range(4):  # (how long it stays in memory: the service's tests, on a manual clock)
            assert http.get(f"/api/games/{game}").json()["status"] == "over"
        assert http.get("/api/health").json()["loaded"] == loaded
