"""What the server's tests share: real databases (a fresh SQLite file, or a fresh database on
the PostgreSQL server started by ``scripts/services.sh``), the Redis URL, a real server
process, and small websocket/HTTP client helpers.

PostgreSQL and Redis come from ``QUADROPOLIS_TEST_POSTGRES_URL`` / ``QUADROPOLIS_TEST_REDIS_URL``
(exported by ``bash scripts/services.sh exec ...``). Without them a test needing them FAILS
when ``CI`` is set, and is skipped locally with the reason."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from quadropolis.bench.services import free_port as shared_free_port
from quadropolis.bench.services import throwaway_database
from quadropolis.server.protocol import OUTBOUND

POSTGRES_ENV = "QUADROPOLIS_TEST_POSTGRES_URL"
REDIS_ENV = "QUADROPOLIS_TEST_REDIS_URL"
HINT = "run the tests through `bash scripts/services.sh exec ...` (scripts/test.sh does)"


#: Options lifting the sign-up quota, for tests that register many accounts from one address
#: (the quota itself is tested with its defaults: tests/server/test_abuse_signup_login.py).
MANY_SIGNUPS = ("--signups-per-hour", "100000", "--signups-per-day", "100000")
#: Options lifting the per-address HTTP rate limits and the sign-up quota, for tests that play
#: fast from one address (the limits themselves are tested with their defaults or smaller ones).
GENEROUS = ("--actions-per-second", "100000", "--creates-per-minute", "100000", *MANY_SIGNUPS)


def _service_url(env: str, what: str) -> str:
    url = os.environ.get(env)
    if url:
        return url
    message = f"{what} is needed: {env} is not set; {HINT}"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def postgres_url() -> str:
    return _service_url(POSTGRES_ENV, "PostgreSQL")


def redis_url() -> str:
    """The test Redis, on a database number of this test process's own (pytest-xdist's
    worker index). Pub/sub channels span the numbers: the servers of two workers hear each
    other's notices, which name games they do not hold and so are ignored."""
    base = _service_url(REDIS_ENV, "Redis")
    return f"{base.rsplit('/', 1)[0]}/{worker_index() % REDIS_DATABASES}"


@contextlib.contextmanager
def fresh_postgres() -> Iterator[str]:
    """A new, empty database on the test PostgreSQL server (named after this test process:
    ``qtest_gw1_…``); dropped afterwards."""
    with throwaway_database(postgres_url(), f"qtest_{worker()}") as url:
        yield url


@contextlib.contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    """A fresh database URL of ``kind`` (``sqlite`` or ``postgresql``)."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
    else:
        with fresh_postgres() as url:
            yield url


def worker() -> str:
    """This test process's name among pytest-xdist's workers (``gw0``, ``gw1``…), ``main``
    without them."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def worker_index() -> int:
    name = worker()
    return int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0


#: Servers' ports: a band of its own for each test process, below the range the system draws
#: the ports of outgoing connections from (32768 and up on Linux), so that neither another
#: worker's server nor a client's connection can take a port between its pick and its use.
PORTS_FROM = 20000
PORTS_PER_WORKER = 400
#: Bands before they repeat (workers 30 and up share the bands of 0 and up).
WORKER_BANDS = 30
#: Redis's default number of databases.
REDIS_DATABASES = 16
_next_port = itertools.count()


def free_port() -> int:
    """A loopback port free now, from this test process's band (the next ones first, round
    the band), else one the system picks."""
    band = PORTS_FROM + (worker_index() % WORKER_BANDS) * PORTS_PER_WORKER
    start = next(_next_port)
    ours = (band + (start + k) % PORTS_PER_WORKER for k in range(PORTS_PER_WORKER))
    return shared_free_port(itertools.chain(ours, [0]))


class Server:
    """A real server process (``python -m quadropolis.server``) on a free loopback port."""

    def __init__(self, database: str, tmp_path: Path, *args: str, redis: str | None = None) -> None:
        self.database = database
        self.tmp_path = tmp_path
        self.args = list(args)
        self.redis = redis
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tmp_path / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, game: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/games/{game}"

    def start(self, timeout: float = 30.0) -> Server:
        return self.launch().wait_ready(timeout)

    def launch(self) -> Server:
        """Start the process without waiting for it to serve."""
        cmd = [sys.executable, "-m", "quadropolis.server", "--port", str(self.port)]
        cmd += ["--database", self.database, "--no-access-log", "--log-level", "warning", *self.args]
        if self.redis:
            cmd += ["--redis", self.redis]
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def wait_ready(self, timeout: float = 30.0) -> Server:
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return self
            time.sleep(0.05)
        raise RuntimeError(f"server did not start:\n{self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL the server process (its bot workers notice and exit on their own)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def group_alive(self) -> bool:
        """Whether any process of the server's process group (bot workers) is still running."""
        assert self.proc is not None
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError):
                fields = stat.read_text().rpartition(")")[2].split()
                if int(fields[2]) == self.proc.pid and fields[0] != "Z":  # same group, not a zombie
                    return True
        return False

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        # Nothing of the server may outlive the test (bot workers included).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=15)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def create(client: httpx.Client, **spec: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=spec)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def bearer(token: str) -> dict[str, str]:
    """The header that acts for a seat."""
    return {"Authorization": f"Bearer {token}"}


def error_of(r: httpx.Response, status: int, code: str) -> str:
    """The message of the error reply ``r``, checked to be ``code`` with HTTP ``status``."""
    assert r.status_code == status, r.text
    body = r.json()
    assert body["type"] == "error" and body["code"] == code, body
    return str(body["message"])


def hotseat(http: httpx.Client, players: int = 2, **spec: Any) -> tuple[str, dict[int, str]]:
    """A new game whose seats are all taken by this client: its id and the token of each seat."""
    data = create(http, players=players, take=list(range(players)), **{"name": "Ann", **spec})
    return data["game"], {p["seat"]: p["token"] for p in data["seats"]}


def play_http(http: httpx.Client, game: str, tokens: dict[int, str], until: Any = None) -> dict[str, Any]:
    """Play the first legal move of the seat to move over HTTP until ``until(view)`` or the end."""
    while True:
        view = http.get(f"/api/games/{game}").json()
        if view["status"] == "over" or (until is not None and until(view)):
            return view
        seat = view["to_move"]
        body = {"seat": seat, "version": view["version"], "move": view["legal_moves"][0]}
        r = http.post(f"/api/games/{game}/moves", json=body, headers=bearer(tokens[seat]))
        assert r.status_code == 200, r.text


def play_seats(http: httpx.Client, game: str, tokens: dict[int, str], until: Any = None) -> dict[str, Any]:
    """Play the first legal move of each seat of ``tokens`` to move (bots play the others)
    until ``until(view)`` or the end, within 120 s; the last view (seen by the first token)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        r = http.get(f"/api/games/{game}", headers=bearer(next(iter(tokens.values()))))
        assert r.is_success, r.text
        view: dict[str, Any] = r.json()
        if view["status"] == "over" or (until is not None and until(view)):
            return view
        seat = view["to_move"]
        if seat not in tokens:
            time.sleep(0.02)
            continue
        body = {"seat": seat, "version": view["version"], "move": view["legal_moves"][0]}
        r = http.post(f"/api/games/{game}/moves", json=body, headers=bearer(tokens[seat]))
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not end")


class Client:
    """A synchronous websocket client of one game that keeps every message it receives."""

    def __init__(
        self, url: str, tokens: list[str] | None = None, headers: dict[str, str] | None = None
    ) -> None:
        # Entered by hand: the connection lives as long as this object, not a with block.
        self.ws: ClientConnection = connect(
            url, open_timeout=10, max_size=2**22, additional_headers=headers
        ).__enter__()
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.view: dict[str, Any] = {}
        self.expect("welcome")
        if tokens:  # at once, as the browser does: over the spectator caps no state comes before
            self.send(type="auth", tokens=tokens)
            self.expect("welcome")
        self.expect("state")

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, timeout: float = 15) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        message: dict[str, Any] = json.loads(text)
        OUTBOUND[message["type"]].model_validate(message)  # every message is a documented type
        self.received.append(message)
        if message["type"] == "state" and message["version"] >= self.view.get("version", -1):
            self.view = message["view"]
        return message

    def expect(self, kind: str, timeout: float = 15) -> dict[str, Any]:
        """The next message of ``kind`` (state pushes before it are absorbed)."""
        while True:
            message = self.recv(timeout)
            if message["type"] == kind:
                return message
            if message["type"] != "state":
                raise AssertionError(f"expected {kind}, got {message}")

    def until(self, predicate: Any, timeout: float = 30) -> dict[str, Any]:
        """Read until the latest view satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        while not predicate(self.view):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out; last view version {self.view.get('version')}")
            self.recv(left)
        return self.view

    def move(
        self, seat: int, move: str, version: int | None = None, ident: str | None = None
    ) -> dict[str, Any]:
        """Send a move; returns the reply (``accepted`` or ``error``)."""
        v = self.view["version"] if version is None else version
        self.send(type="move", seat=seat, version=v, move=move, id=ident or secrets.token_hex(4))
        while True:
            message = self.recv()
            if message["type"] in ("accepted", "error"):
                return message

    def close(self) -> None:
        self.ws.close()


def my_turn(seat: int) -> Any:
    return lambda v: v.get("status") == "over" or (v.get("status") == "playing" and v.get("to_move") == seat)


def find_key(value: Any, key: str) -> bool:
    """Whether ``key`` appears as an object key anywhere in a JSON value."""
    if isinstance(value, dict):
        return key in value or any(find_key(v, key) for v in value.values())
    if isinstance(value, list):
        return any(find_key(v, key) for v in value)
    return False


def insert_old_game(engine: Any, game_id: str) -> None:
    """A running two-player game with one move, written in plain SQL with the columns every
    revision since ``0004`` has: what a server of an older version left in its database
    (the models describe the newest schema, so they cannot write an older one)."""
    from sqlalchemy import text

    config = json.dumps({"mode": "classic", "players": 2, "seed": 7})
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, config, status, public, creator, takeover_after, takeover_level,"
                " created_at, finished_at, result, analysis, last_activity) VALUES (:id, :config,"
                " 'playing', :yes, 'c', NULL, 'easy', 1.0, NULL, NULL, :no, 2.0)"
            ),
            {"id": game_id, "config": config, "yes": True, "no": False},
        )
        for seat in range(2):
            conn.execute(
                text(
                    "INSERT INTO seats (game_id, seat, kind, level, name, token_hash, last_seen, host)"
                    " VALUES (:id, :seat, 'human', NULL, :name, :hash, 1.0, :no)"
                ),
                {"id": game_id, "seat": seat, "name": f"P{seat}", "hash": bytes([seat]) * 32, "no": False},
            )
        conn.execute(
            text(
                "INSERT INTO actions (game_id, version, seat, kind, move, undone, actor, created_at)"
                " VALUES (:id, 1, 0, 'move', '1T1', NULL, 'player', 2.0)"
            ),
            {"id": game_id},
        )


#: The header every state-changing account request carries (the browser client sends it).
BROWSER_HEADERS = {"X-Quadropolis-Client": "1"}
#: A password every account rule accepts.
GOOD_PASSWORD = "correct horse battery"


@contextlib.contextmanager
def logged_in(server: Server) -> Iterator[httpx.Client]:
    """A browser (its own cookie jar, the client header) with a fresh account logged in."""
    with httpx.Client(base_url=server.url, timeout=30, headers=BROWSER_HEADERS) as client:
        body = {"username": f"u{secrets.token_hex(4)}", "password": GOOD_PASSWORD}
        r = client.post("/api/accounts", json=body)
        assert r.status_code == 201, r.text
        yield client


def hold_seats(engine: Any, account_id: int, game_id: str, seats: list[int]) -> None:
    """Make ``account_id`` the holder of ``seats`` of a stored game (``seats.account_id``), as
    an account taking them would: storage tests set up finished games this way."""
    from sqlalchemy import text

    with engine.begin() as conn:
        for seat in seats:
            conn.execute(
                text("UPDATE seats SET account_id = :a WHERE game_id = :g AND seat = :s"),
                {"a": account_id, "g": game_id, "s": seat},
            )


def insert_old_account(engine: Any, username: str) -> int:
    """An account written in plain SQL with the columns revisions ``0005`` to ``0009`` have
    (the models describe the newest schema); its id."""
    from sqlalchemy import text

    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO accounts (username, username_key, password_hash, created_at)"
                " VALUES (:name, :key, 'hash', 3.0)"
            ),
            {"name": username, "key": username.casefold()},
        )
        found = conn.execute(
            text("SELECT id FROM accounts WHERE username_key = :key"), {"key": username.casefold()}
        )
        return int(found.scalar_one())


def link_seats_before_0009(engine: Any, account_id: int, game_id: str, seats: list[int]) -> None:
    """Link seats to an account as revisions ``0005`` to ``0008`` did (the ``account_seats``
    table, in plain SQL): what a server of an older version left in its database."""
    from sqlalchemy import text

    with engine.begin() as conn:
        for seat in seats:
            conn.execute(
                text("INSERT INTO account_seats (game_id, seat, account_id) VALUES (:g, :s, :a)"),
                {"a": account_id, "g": game_id, "s": seat},
            )
