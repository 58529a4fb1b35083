"""The loads that :mod:`.server` measures the games beside, each run in a process of its own:
:func:`abuse` (the attacks a busy public server meets: bot-heavy games, spectator floods,
clients that never read, hint requests, presence flapping) and :func:`log_in`
(registrations, then logins at a Poisson rate from many addresses, some with a wrong
password); and the small HTTP helpers both sides use."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import multiprocessing
import random
import secrets
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .. import GameConfig, Mode
from ..record import GameRecord

T = TypeVar("T")


@dataclass
class Logins:
    """What the login load saw: each login's time from request to reply, and the replies'
    HTTP statuses (0: no reply)."""

    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    #: Accounts registered before the logins (of :data:`LOGIN_ACCOUNTS`).
    registered: int = 0


def http_json(method: str, url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as reply:
        return json.loads(reply.read())


def run_fast(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on uvloop when installed (uvicorn's standard extra brings it)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


# --- the abuse load beside it --------------------------------------------------------------

#: The abuse load: games flooded with spectators and how many each, clients that never read,
#: and how often the expert games are topped up (one address: its cap of costly bot seats),
#: loops asking for hints on fresh positions (each from its own address), and a seat holder
#: connecting and leaving in a loop. The spectators and the clients that never read come
#: from :data:`ABUSER`, the seat holder from :data:`FLAPPER` (not the players' addresses: an
#: attacker is not at every player's address).
FLOODED_GAMES = 10
SPECTATORS_PER_GAME = 40
NEVER_READING = 60
ANALYSIS_LOOPS = 3
EXPERT_GAMES = {"players": 4, "seats": [{"type": "bot", "level": "expert"}] * 4, "public": False}
ABUSER = "127.0.3.1"
FLAPPER = "127.0.3.2"
SYNC_FRAME = bytes([0x81, 0x80 | 16, 0, 0, 0, 0]) + b'{"type":"sync"} '  # masked with zeros


def abuse(base: str, seconds: float) -> None:
    """In its own process, for ``seconds``, the abuse tests' attacks on a busy server: one
    address keeps its maximum of all-expert bot games running; spectators flood the first
    running public games (reconnecting when refused); clients that never read ask for the
    whole state 20 times a second; :data:`ANALYSIS_LOOPS` clients ask for hints on ever new
    positions; a seat holder connects and leaves in a loop (presence flapping). On uvloop
    when installed: the attack shares the machine with the server, and the default loop
    spent about half of a core on its own reconnections."""
    run_fast(_abuse(base, seconds))


async def _abuse(base: str, seconds: float) -> None:
    stop = time.monotonic() + seconds
    ws_base = base.replace("http://", "ws://") + "/ws/games/"
    games: list[str] = []
    while len(games) < FLOODED_GAMES and time.monotonic() < stop:
        listed = await asyncio.to_thread(http_json, "GET", f"{base}/api/games?status=playing&limit=200")
        games = [g["game"] for g in listed["games"]]
        await asyncio.sleep(0.5)
    tasks = [asyncio.create_task(_experts(base, stop))]
    for game in games[:FLOODED_GAMES]:
        tasks += [asyncio.create_task(_spectate(ws_base + game, stop)) for _ in range(SPECTATORS_PER_GAME)]
    tasks.append(asyncio.create_task(_never_read(base, [g for g in games[:FLOODED_GAMES]], stop)))
    tasks += [asyncio.create_task(_analyses(base, i, stop)) for i in range(ANALYSIS_LOOPS)]
    tasks.append(asyncio.create_task(_flap(base, stop)))
    # An attack that fails is a bench fault (the figures would omit it): let it stop this
    # process, which the bench checks.
    await asyncio.gather(*tasks)


async def _experts(base: str, stop: float) -> None:
    """Create all-expert games until the address's cap refuses one; try again every second."""
    while time.monotonic() < stop:
        with contextlib.suppress(urllib.error.URLError, OSError):
            await asyncio.to_thread(http_json, "POST", f"{base}/api/games", EXPERT_GAMES)
            continue
        await asyncio.sleep(1.0)


async def _analyses(base: str, loop: int, stop: float) -> None:
    """Hints on the opening of ever new Expert deals (never cached), from address
    127.0.2.``loop``, until ``stop``."""
    seed = loop
    while time.monotonic() < stop:
        seed += ANALYSIS_LOOPS
        record = GameRecord(GameConfig(mode=Mode.EXPERT, players=4, seed=seed), ()).to_json()
        body = {"record": record, "at": 0}
        status = await asyncio.to_thread(_post_from, base, "/api/analysis", body, f"127.0.2.{loop + 1}")
        if status != 200:
            await asyncio.sleep(0.5)  # refused (queue full, rate limited): try again soon


async def _flap(base: str, stop: float) -> None:
    """A seat holder of its own game (against an easy bot) connecting, authenticating and
    leaving in a loop, as fast as the server lets it."""
    import websockets
    from websockets.exceptions import WebSocketException

    seats = [{"type": "human"}, {"type": "bot", "level": "easy"}]
    created = await asyncio.to_thread(http_json, "POST", f"{base}/api/games", {"players": 2, "seats": seats})
    url = base.replace("http://", "ws://") + created["websocket"]
    auth = json.dumps({"type": "auth", "tokens": [created["seats"][0]["token"]]})
    while time.monotonic() < stop:
        with contextlib.suppress(OSError, TimeoutError, WebSocketException):
            async with websockets.connect(
                url, max_size=2**22, open_timeout=30, proxy=None, local_addr=(FLAPPER, 0)
            ) as ws:
                await ws.send(auth)
                await ws.recv()
        await asyncio.sleep(0.01)


def _post_from(base: str, path: str, body: Any, address: str, headers: dict[str, str] | None = None) -> int:
    """POST ``body`` (JSON) to ``path`` from loopback ``address``: the reply's HTTP status (0
    if none came)."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=120, source_address=(address, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"content-type": "application/json", **(headers or {})})
        reply = conn.getresponse()
        reply.read()
        return reply.status
    except OSError:
        return 0
    finally:
        conn.close()


async def _spectate(url: str, stop: float) -> None:
    """A spectator reading every push; reconnecting 0.2 s after it is closed or refused
    (``proxy=None``: no proxy lookup in the environment at each attempt)."""
    import websockets
    from websockets.exceptions import WebSocketException

    while time.monotonic() < stop:
        with contextlib.suppress(OSError, TimeoutError, WebSocketException):
            async with websockets.connect(
                url, max_size=2**22, open_timeout=30, proxy=None, local_addr=(ABUSER, 0)
            ) as ws:
                async for _ in ws:
                    if time.monotonic() > stop:
                        return
        await asyncio.sleep(0.2)


async def _never_read(base: str, games: list[str], stop: float) -> None:
    """Clients that complete the handshake, then only send ``sync`` and read nothing."""
    host, port = base.removeprefix("http://").split(":")
    writers = []
    for i in range(NEVER_READING):
        with contextlib.suppress(OSError):
            # A tiny buffer: the stream stops reading from the socket once it holds 2 KiB.
            _reader, writer = await asyncio.open_connection(
                host, int(port), limit=1024, local_addr=(ABUSER, 0)
            )
            writer.write(
                f"GET /ws/games/{games[i % len(games)]} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            writers.append(writer)
    while time.monotonic() < stop:
        for writer in writers:
            if not writer.is_closing():
                writer.write(SYNC_FRAME)
        await asyncio.sleep(0.05)
    for writer in writers:
        writer.close()


# --- logins beside it ----------------------------------------------------------------------

#: The login load: accounts registered first, then logins at a given rate (Poisson), each
#: from one of many loopback addresses (as from many players), a share of them with a wrong
#: password.
LOGIN_ACCOUNTS = 10
LOGIN_ADDRESSES = 200
WRONG_PASSWORDS = 0.1
LOGINS_PER_SECOND = 2.0
PASSWORD = "a bench password"


def log_in(base: str, rate: float, ready: Any, stop: Any, results: Any) -> None:
    """In its own process: register :data:`LOGIN_ACCOUNTS` accounts, set ``ready`` (an
    event), then until ``stop`` is set log in ``rate`` times a second on average, each login
    in a thread of its own (so they overlap as real ones do); put the :class:`Logins` seen
    on ``results``."""
    results.put(asyncio.run(_log_in(base, rate, ready, stop)))


async def _log_in(base: str, rate: float, ready: Any, stop: Any) -> Logins:
    rng = random.Random(23)
    seen = Logins()
    names = [f"bench-{secrets.token_hex(4)}" for _ in range(LOGIN_ACCOUNTS)]
    for i, name in enumerate(names):
        created = await asyncio.to_thread(_account_call, base, "/api/accounts", name, PASSWORD, i)
        seen.registered += created == 201
    ready.set()
    running: set[asyncio.Task[None]] = set()
    while not stop.is_set():
        await asyncio.sleep(rng.expovariate(rate))
        name = rng.choice(names)
        password = PASSWORD if rng.random() >= WRONG_PASSWORDS else PASSWORD + "?"
        task = asyncio.create_task(_timed_login(base, name, password, rng.randrange(LOGIN_ADDRESSES), seen))
        running.add(task)
        task.add_done_callback(running.discard)
    await asyncio.gather(*running)
    return seen


async def _timed_login(base: str, name: str, password: str, address: int, seen: Logins) -> None:
    start = time.perf_counter()
    status = await asyncio.to_thread(_account_call, base, "/api/session", name, password, address)
    seen.latencies.append(time.perf_counter() - start)
    seen.statuses[status] += 1


def _account_call(base: str, path: str, name: str, password: str, address: int) -> int:
    """POST ``{username, password}`` to ``path`` from loopback address 127.0.1.``address``
    (as the browser client does, with its CSRF header); the reply's HTTP status."""
    body = {"username": name, "password": password}
    return _post_from(base, path, body, f"127.0.1.{address % 250 + 1}", {"X-Quadropolis-Client": "bench"})


@contextlib.contextmanager
def logging_in(base: str, rate: float) -> Iterator[list[Logins]]:
    """:func:`log_in` in a process of its own while the block runs (if ``rate`` > 0); the
    list holds its :class:`Logins` once the block is done."""
    found: list[Logins] = []
    if rate <= 0:
        yield found
        return
    context = multiprocessing.get_context("spawn")
    ready, stop, results = context.Event(), context.Event(), context.Queue()
    process = context.Process(target=log_in, args=(base, rate, ready, stop, results), daemon=True)
    process.start()
    try:
        # The accounts exist before the games start (each is a hash: slow on a loaded machine).
        if not ready.wait(600):
            raise RuntimeError("the login load did not register its accounts within 600 s")
        yield found
    finally:
        stop.set()
        found.append(results.get(timeout=120))
        process.join(30)


@contextlib.contextmanager
def abusing(base: str, on: bool) -> Iterator[None]:
    """:func:`abuse` in a process of its own while the block runs (if ``on``)."""
    if not on:
        yield
        return
    process = multiprocessing.get_context("spawn").Process(target=abuse, args=(base, 3600.0), daemon=True)
    process.start()
    try:
        yield
    finally:
        failed = process.exitcode is not None  # it runs until terminated, unless it failed
        process.terminate()
        process.join(30)
    if failed:
        raise RuntimeError(f"the abuse load stopped by itself (exit code {process.exitcode}): see above")
