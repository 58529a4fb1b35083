"""Server figures (``quadropolis bench server``): N concurrent games played on loopback against
a real server process, on SQLite and (when a PostgreSQL server is given) on PostgreSQL.

Each game has one ``easy`` bot seat and 1-3 human seats; every human seat is its own
websocket client, which waits for its turn, thinks (a random pause, 1 s on average), plays a
uniformly random legal move against the version it saw, and times the move from sending it
to receiving the state push of that version — what a player feels (bot thinking is never
inside a measurement: only human moves are timed). A push is timed as its frame arrives,
before the client decodes it. Reported per database: games finished, moves stored per
second (humans and bots), p50 / p99 / max latency, errors (error replies and failed
connections), and, checked afterwards from the server's own records: moves acknowledged but
missing (lost), moves applied without being acknowledged once (duplicated), and games whose
``quadropolis-game/1`` record does not replay to the final state the clients saw.

Each database is measured in each of :data:`MODES`: ``plain``; ``abuse``, with
:func:`.server_loads.abuse` (the attacks of the abuse tests) running beside the games in a
process of its own; ``logins``, with :func:`.server_loads.log_in` (registrations, then logins
at :data:`.server_loads.LOGINS_PER_SECOND`, a tenth of them with a wrong password) in a
process of its own, also reporting the logins' own latency.

The server runs in its own process (``python -m quadropolis.server``, one bot worker), and
the clients run in :data:`CLIENT_PROCESSES` processes of their own (one was itself a
bottleneck). All share the machine, so the latency includes the scheduling of the clients,
and the clients' own loop lag is reported. ``repeat`` is not used: each run's percentiles
are already over thousands of moves, and a run takes two or three minutes.

Environment: ``QUADROPOLIS_BENCH_GAMES`` (default 200, quick 6),
``QUADROPOLIS_BENCH_THINK`` (mean think time in seconds, default 1.0, quick 0.05),
``QUADROPOLIS_BENCH_POSTGRES_URL`` (or ``QUADROPOLIS_TEST_POSTGRES_URL``, as exported by
``scripts/services.sh``): a PostgreSQL server on which a throwaway database is created.
Needs the ``web`` extra (uvicorn brings ``websockets``). Run alone with
``python -m quadropolis.bench.server --help``."""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..record import GameRecord, replay
from ..site import square_name
from .report import QUICK, Report, Workload
from .server_loads import LOGINS_PER_SECOND, Logins, abusing, http_json, logging_in, run_fast
from .services import free_port, throwaway_database

GAMES_ENV = "QUADROPOLIS_BENCH_GAMES"
THINK_ENV = "QUADROPOLIS_BENCH_THINK"
POSTGRES_ENVS = ("QUADROPOLIS_BENCH_POSTGRES_URL", "QUADROPOLIS_TEST_POSTGRES_URL")
#: Client processes the games' websockets are spread over.
CLIENT_PROCESSES = 2


@dataclass
class Totals:
    """What the clients saw, over every game."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    #: Per game: the acknowledged (version, seat, move) of its human seats.
    acked: dict[str, list[tuple[int, int, str]]] = field(default_factory=dict)
    #: Per game: the last view the clients received.
    final: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: How late the clients' event loop woke up, sampled every 10 ms.
    client_lags: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    games: int
    finished: int
    moves: int
    seconds: float
    latencies: list[float]
    errors: int
    lost: int
    duplicated: int
    replay_failures: int
    #: CPU seconds of the server process and of its bot workers over the run.
    server_cpu: float
    bot_cpu: float
    client_lags: list[float] = field(default_factory=list)
    #: The logins made beside the games, if any.
    logins: Logins | None = None

    def percentile(self, q: float) -> float:
        return _quantile(self.latencies, q)


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


# --- the server process -------------------------------------------------------------------


@dataclass
class Process:
    """A running server: its base URL and process id."""

    url: str
    pid: int


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds used so far by process ``pid`` and by its children (its bot workers), read
    from ``/proc`` (Linux); ``(nan, nan)`` elsewhere."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def used(stat: Path) -> tuple[int, float]:
        fields = stat.read_text().rpartition(")")[2].split()
        return int(fields[1]), (int(fields[11]) + int(fields[12])) / tick  # ppid, utime + stime

    try:
        own = used(Path(f"/proc/{pid}/stat"))[1]
    except OSError:
        return float("nan"), float("nan")
    children = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parent, seconds = used(stat)
            if parent == pid:
                children += seconds
    return own, children


@contextlib.contextmanager
def server_process(database: str, log: Path) -> Iterator[Process]:
    """A server on a free loopback port; stopped (SIGTERM) afterwards."""
    port = free_port()
    cmd = [sys.executable, "-m", "quadropolis.server", "--port", str(port), "--database", database]
    cmd += [
        "--no-access-log",
        "--log-level",
        "warning",
        "--games-per-client",
        "1000000",
        "--creates-per-minute",
        "1000000",
        "--bot-workers",
        "1",
    ]
    with open(log, "ab") as out:
        # Its own process group (to stop it with its bot workers) but this session: a tool
        # that sets the priority of whole sessions gives the server the clients' priority.
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, process_group=0)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{url}/api/health", timeout=1).read()
                break
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        yield Process(url, proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)


# --- the clients --------------------------------------------------------------------------


class Seat:
    """One human seat: a websocket connection, the latest view, and waiters on it."""

    def __init__(self, ws: Any, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.view: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.arrived: dict[int, float] = {}

    async def read(self) -> None:
        async for text in self.ws:
            # Timed as it arrives, before this process decodes it: a player's browser decodes
            # its own pushes, not the other 400 clients' that share this process.
            received = time.perf_counter()
            message = json.loads(text)
            kind = message["type"]
            if kind == "state":
                version = message["version"]
                self.arrived.setdefault(version, received)
                if version >= self.view.get("version", -1):
                    self.view = message["view"]
                    self.changed.set()
            elif kind in ("accepted", "error"):
                await self.replies.put(message)

    async def turn(self) -> dict[str, Any]:
        """The view once it is this seat's turn or the game is over."""
        while not (self.view and (self.view["status"] == "over" or self.view["to_move"] == self.seat)):
            await self._change()
        return self.view

    async def version(self, n: int) -> dict[str, Any]:
        """The view once it is at version ``n`` or later (or the game is over)."""
        while not (self.view and (self.view["version"] >= n or self.view["status"] == "over")):
            await self._change()
        return self.view

    async def _change(self) -> None:
        self.changed.clear()
        await self.changed.wait()


async def _play_seat(seat: Seat, rng: random.Random, think: float, totals: Totals, game: str) -> None:
    acked = totals.acked.setdefault(game, [])
    while True:
        view = await seat.turn()
        if view["status"] == "over":
            return
        await asyncio.sleep(rng.uniform(0, 2 * think))
        version = view["version"]
        move = rng.choice(view["legal_moves"])
        sent = time.perf_counter()
        await seat.ws.send(json.dumps({"type": "move", "seat": seat.seat, "version": version, "move": move}))
        reply = await seat.replies.get()
        if reply["type"] != "accepted":
            totals.errors += 1
            await seat.version(version + 1)
            continue
        done = int(reply["version"])
        await seat.version(done)
        totals.latencies.append(seat.arrived[done] - sent)
        acked.append((reply["version"], seat.seat, move))


async def _play_game(base: str, index: int, think: float, totals: Totals) -> None:
    import websockets
    from websockets.exceptions import WebSocketException

    rng = random.Random(index)
    players = (2, 3, 4)[index % 3]
    bot = index % players
    seats = [{"type": "bot", "level": "easy"} if s == bot else {"type": "human"} for s in range(players)]
    humans = [s for s in range(players) if s != bot]
    created = await asyncio.to_thread(
        http_json,
        "POST",
        f"{base}/api/games",
        {"players": players, "seats": seats, "take": humans, "public": True},
    )
    game = created["game"]
    ws_base = base.replace("http://", "ws://") + created["websocket"]
    clients: list[Seat] = []
    readers: list[asyncio.Task[None]] = []
    try:
        for p in created["seats"]:
            ws = await websockets.connect(
                ws_base, max_size=2**22, open_timeout=60, proxy=None, local_addr=(_player_address(index), 0)
            )
            client = Seat(ws, p["seat"])
            clients.append(client)
            readers.append(asyncio.create_task(client.read()))
            await ws.send(json.dumps({"type": "auth", "tokens": [p["token"]]}))
        await asyncio.gather(
            *(_play_seat(c, random.Random(rng.random()), think, totals, game) for c in clients)
        )
        totals.final[game] = clients[0].view
    except (TimeoutError, OSError, WebSocketException):
        totals.errors += 1
    finally:
        for client in clients:
            await client.ws.close()
        for task in readers:
            task.cancel()


def _player_address(game: int) -> str:
    """The loopback address the websockets of game ``game`` come from: each game's players
    share one (a household), the games do not (200 households, not one address opening 400
    websockets in a second, over a server's per-address limits)."""
    return f"127.0.6.{game % 250 + 1}"


async def _play_all(base: str, indices: list[int], games: int, think: float, totals: Totals) -> float:
    """Play the games ``indices`` (of ``games``) at once, their start spread over a second;
    the play's wall time."""
    start = time.perf_counter()

    async def staggered(i: int) -> None:
        await asyncio.sleep(i / max(1, games))
        await _play_game(base, i, think, totals)

    lag = asyncio.create_task(_watch_lag(totals.client_lags))
    await asyncio.gather(*(staggered(i) for i in indices))
    lag.cancel()
    return time.perf_counter() - start


def _client_process(base: str, indices: list[int], games: int, think: float) -> tuple[Totals, float]:
    """One client process's share of the games: what its clients saw, and its wall time."""
    totals = Totals()
    seconds = run_fast(_play_all(base, indices, games, think, totals))
    return totals, seconds


def play(base: str, games: int, think: float, processes: int = CLIENT_PROCESSES) -> tuple[Totals, float]:
    """Play ``games`` games from ``processes`` client processes (game ``i`` in process ``i %
    processes``): every client's totals merged, and the longest wall time. One process for
    the 400-odd websockets of 200 games was itself a bottleneck: its event loop decoding every
    push delayed the others' (p99 of its own lag 30-40 ms on a quiet machine)."""
    if processes <= 1:
        return _client_process(base, list(range(games)), games, think)
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(processes, mp_context=context) as pool:
        shares = [list(range(p, games, processes)) for p in range(processes)]
        parts = [pool.submit(_client_process, base, share, games, think) for share in shares]
        results = [part.result() for part in parts]
    totals = Totals()
    for part, _ in results:
        totals.latencies += part.latencies
        totals.errors += part.errors
        totals.acked.update(part.acked)
        totals.final.update(part.final)
        totals.client_lags += part.client_lags
    return totals, max(seconds for _, seconds in results)


async def _watch_lag(lags: list[float], period: float = 0.01) -> None:
    """How late this process's event loop wakes up: the part of a measured latency that is
    the clients' own scheduling, not the server."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(period)
        lags.append(time.perf_counter() - t - period)


# --- checking afterwards ------------------------------------------------------------------


def _check(base: str, totals: Totals) -> tuple[int, int, int, int]:
    """(moves stored, lost, duplicated, replay failures) over every game played."""
    moves = lost = duplicated = failures = 0
    for game, acked in totals.acked.items():
        history = http_json("GET", f"{base}/api/games/{game}/moves")["history"]
        moves += len(history)
        stored = {h["version"]: (h["seat"], h["move"]) for h in history if h["by"] == "player"}
        mine = {version: (seat, move) for version, seat, move in acked}
        lost += sum(1 for v, sm in mine.items() if stored.get(v) != sm)
        duplicated += sum(1 for v in stored if v not in mine)
        duplicated += len(acked) - len(mine)
        versions = [h["version"] for h in history]
        if versions != list(range(1, len(versions) + 1)):
            failures += 1
            continue
        try:
            record = http_json("GET", f"{base}/api/games/{game}/record")
            final = replay(GameRecord.from_json(record))
            body = final.to_json()
            del body["config"], body["format"]
            down = set(body["face_down"])  # views hide which tiles those are
            body["site"] = [None if square_name(q) in down else t for q, t in enumerate(body["site"])]
            if body != totals.final.get(game, {}).get("state"):
                failures += 1
        except (urllib.error.URLError, ValueError):
            failures += 1
    return moves, lost, duplicated, failures


def measure(
    database: str,
    games: int,
    think: float,
    log: Path,
    abused: bool = False,
    logins: float = 0.0,
    processes: int = CLIENT_PROCESSES,
) -> Outcome:
    """Run the load on a fresh server over ``database`` and check every game afterwards;
    ``abused``: with :func:`abuse` running beside it, in its own process; ``logins``: with
    that many logins per second beside it (:func:`log_in`, in its own process)."""
    with server_process(database, log) as server, abusing(server.url, abused):
        with logging_in(server.url, logins) as login_results:
            cpu_before = cpu_seconds(server.pid)
            totals, seconds = play(server.url, games, think, processes)
            cpu_after = cpu_seconds(server.pid)
        moves, lost, duplicated, failures = _check(server.url, totals)
    finished = sum(1 for v in totals.final.values() if v.get("status") == "over")
    failures += games - finished
    server_cpu, bot_cpu = (after - before for after, before in zip(cpu_after, cpu_before, strict=True))
    return Outcome(
        games,
        finished,
        moves,
        seconds,
        totals.latencies,
        totals.errors,
        lost,
        duplicated,
        failures,
        server_cpu,
        bot_cpu,
        totals.client_lags,
        login_results[0] if login_results else None,
    )


# --- databases ----------------------------------------------------------------------------


def postgres_server() -> str | None:
    for env in POSTGRES_ENVS:
        if os.environ.get(env):
            return os.environ[env]
    return None


@contextlib.contextmanager
def databases(which: str = "all") -> Iterator[list[tuple[str, str]]]:
    """(name, URL) of each database to measure: SQLite always, PostgreSQL when available."""
    with tempfile.TemporaryDirectory(prefix="quadropolis-bench-") as tmp, contextlib.ExitStack() as stack:
        found = []
        if which in ("all", "sqlite"):
            found.append(("sqlite", f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"))
        server = postgres_server()
        if which in ("all", "postgresql") and server:
            found.append(("postgresql", stack.enter_context(throwaway_database(server, "qbench"))))
        elif which == "postgresql":
            raise RuntimeError(f"no PostgreSQL server: set {POSTGRES_ENVS[0]}")
        yield found


#: The loads measured, each beside the same games: ``plain``, ``abuse`` (:func:`abuse`),
#: ``logins`` (:func:`log_in`).
MODES = ("plain", "abuse", "logins")
_BESIDE = {"plain": "", "abuse": " under abuse", "logins": " with logins"}


def _report(report: Report, name: str, result: Outcome, mode: str = "plain") -> None:
    database = name.partition("_")[0]
    what = f"server on {database}, {result.games} games{_BESIDE[mode]}"
    latency = {
        "p50": result.percentile(0.5),
        "p99": result.percentile(0.99),
        "max": max(result.latencies, default=0),
    }
    figures: list[tuple[str, float, str, str]] = [
        ("games_finished", result.finished, "games", "games finished"),
        ("moves_per_s", result.moves / result.seconds, "moves/s", "moves stored per s"),
        *((f"latency_{k}", v * 1e3, "ms", f"move->push {k}") for k, v in latency.items()),
        ("timed_moves", len(result.latencies), "moves", "human moves timed"),
        ("server_cpu_per_move", result.server_cpu / max(1, result.moves) * 1e3, "ms", "server CPU per move"),
        ("bot_cpu", result.bot_cpu / result.seconds * 100, "% core", "bot workers' CPU"),
        ("client_lag_p99", _quantile(result.client_lags, 0.99) * 1e3, "ms", "clients' own loop lag p99"),
        ("errors", result.errors, "errors", "errors"),
        ("lost", result.lost, "moves", "acknowledged moves lost"),
        ("duplicated", result.duplicated, "moves", "moves applied twice"),
        ("replay_failures", result.replay_failures, "games", "records not replaying"),
    ]
    if result.logins is not None:
        figures += _login_figures(result.logins, result.seconds)
    for key, value, unit, label in figures:
        report(f"server_{name}_{key}", value, unit, f"{what}: {label}")


def _login_figures(logins: Logins, seconds: float) -> list[tuple[str, float, str, str]]:
    replies = logins.statuses
    return [
        ("accounts_registered", logins.registered, "accounts", "accounts registered first"),
        ("logins_per_s", len(logins.latencies) / seconds, "logins/s", "logins per s"),
        ("login_p50", _quantile(logins.latencies, 0.5) * 1e3, "ms", "login p50"),
        ("login_p99", _quantile(logins.latencies, 0.99) * 1e3, "ms", "login p99"),
        ("logins_refused", replies[429], "logins", "logins refused as too many (429)"),
        ("logins_wrong", replies[403], "logins", "logins with a wrong password (403)"),
        (
            "logins_failed",
            sum(n for s, n in replies.items() if s not in (200, 403, 429)),
            "logins",
            "logins failing otherwise",
        ),
    ]


def _settings(quick: bool) -> tuple[int, float]:
    games = int(os.environ.get(GAMES_ENV, "6" if quick else "200"))
    think = float(os.environ.get(THINK_ENV, "0.05" if quick else "1.0"))
    return games, think


def run(report: Report, repeat: int, work: Workload) -> None:
    """The section: every database available, in each of :data:`MODES` (see the module
    docstring)."""
    games, think = _settings(work == QUICK)
    _measure_all(report, "all", games, think)


def _measure_all(
    report: Report, which: str, games: int, think: float, modes: tuple[str, ...] = MODES
) -> None:
    with databases(which) as found, tempfile.TemporaryDirectory() as tmp:
        for name, url in found:
            for mode in modes:
                key = name if mode == "plain" else f"{name}_{'abused' if mode == 'abuse' else mode}"
                log = Path(tmp) / f"{key}.log"
                logins = LOGINS_PER_SECOND if mode == "logins" else 0.0
                result = measure(url, games, think, log, abused=mode == "abuse", logins=logins)
                _report(report, key, result, mode)


def main(argv: list[str] | None = None) -> int:
    """``python -m quadropolis.bench.server``: the section alone, with its settings as options."""
    p = argparse.ArgumentParser(
        prog="python -m quadropolis.bench.server", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--games", type=int, default=None, help=f"concurrent games (default ${GAMES_ENV} or 200)")
    p.add_argument("--think", type=float, default=None, help="mean think time, seconds (default 1.0)")
    p.add_argument("--database", choices=["all", "sqlite", "postgresql"], default="all")
    p.add_argument(
        "--modes",
        default=",".join(MODES),
        help=f"the loads beside the games, comma-separated (default {','.join(MODES)})",
    )
    p.add_argument("--plain", action="store_true", help="the plain run only (--modes plain)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    args = p.parse_args(argv)
    games, think = _settings(False)
    games = args.games if args.games is not None else games
    think = args.think if args.think is not None else think
    figures: dict[str, Any] = {}

    def report(key: str, value: float, unit: str, label: str) -> None:
        figures[key] = {"value": round(value, 4), "unit": unit}
        if not args.json:
            print(f"{label:<58} {value:>10.3f} {unit}", flush=True)

    modes = ("plain",) if args.plain else tuple(m.strip() for m in args.modes.split(",") if m.strip())
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        p.error(f"--modes: one or more of {', '.join(MODES)} (not {', '.join(unknown) or 'nothing'})")
    _measure_all(report, args.database, games, think, modes)
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
