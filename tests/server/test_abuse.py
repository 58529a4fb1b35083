"""What one visitor must not be able to spoil for the others: each test runs the
attack against a real server process over real sockets on loopback, in bounded loops, and
asserts the victim's experience. Several visitors are told apart by their source address:
the whole of 127.0.0.0/8 is this machine, so a client bound to 127.0.0.2 is another address
to the server listening on 127.0.0.1."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import socket
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import GENEROUS, Client, Server, bearer, create, error_of, hotseat, my_turn, play_http
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from quadropolis import GameConfig, GameRecord, Mode
from quadropolis.server.bot_pool import decision_key
from quadropolis.server.edges import HANDSHAKE_PAUSE
from quadropolis.server.hub import CLOSE_FULL
from quadropolis.server.protocol import CreateGame
from quadropolis.server.service import GameService
from quadropolis.server.storage import Store


def http_from(server: Server, address: str) -> httpx.Client:
    """An HTTP client of ``server`` whose requests come from ``address`` (127.x.y.z)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=server.url, timeout=30, transport=transport)


def ws_from(server: Server, game: str, address: str) -> ClientConnection:
    """A websocket connection to ``game`` from ``address``, nothing read yet."""
    return connect(server.ws_url(game), open_timeout=10, source_address=(address, 0)).__enter__()


def queued_kib(port: int) -> int:
    """The bytes the kernel holds in the send queues of the server's sockets on ``port`` (KiB),
    from ``ss`` (iproute2)."""
    out = subprocess.run(
        ["ss", "-tmnH", "state", "established", f"sport = :{port}"], capture_output=True, text=True
    )
    return sum(int(w) for w in re.findall(r"\bw(\d+)", out.stdout)) // 1024


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` (KiB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


# --- 1. spectators cannot lock the players out ----------------------------------------------


def test_a_spectator_flood_never_locks_a_seat_holder_out(server: Server, http: httpx.Client) -> None:
    game, tokens = hotseat(http, players=2, takeover_after=60)
    flood: list[ClientConnection] = []
    first: list[str] = []
    try:
        for i in range(72):  # more than the cap of a whole game, from one address and others
            ws = ws_from(server, game, "127.0.0.1" if i < 40 else f"127.0.3.{i}")
            flood.append(ws)
            first.append(str(ws.recv(timeout=10)))
        # The seat holder, from the flooding address too, gets in and plays.
        ann = Client(server.ws_url(game), [tokens[0], tokens[1]])
        assert ann.received[-2] == {"type": "welcome", "game": game, "you": [0, 1], "id": None}
        ann.until(my_turn(0))
        for _ in range(4):
            seat = ann.view["to_move"]
            assert ann.move(seat, ann.view["legal_moves"][0])["type"] == "accepted"
        assert all('"welcome"' in m for m in first)  # everyone gets a first look
        # The spectators over the caps are told why, then closed with 4429.
        refused = 0
        deadline = time.monotonic() + 15
        for ws in flood:
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                while time.monotonic() < deadline:
                    ws.recv(timeout=max(0.01, deadline - time.monotonic()))
            if ws.close_code == CLOSE_FULL:
                refused += 1
        admitted = len(flood) - refused
        assert 0 < admitted <= 64 and refused >= 72 - 8 - 32  # 8 from 127.0.0.1, 1 each other
        history = http.get(f"/api/games/{game}/moves").json()["history"]
        assert len(history) == 4 and all(h["by"] == "player" for h in history)
        ann.close()
    finally:
        for ws in flood:
            ws.close()


def test_a_connection_over_the_caps_sees_nothing_until_a_seat_authenticates_it(
    server: Server, http: httpx.Client
) -> None:
    game, tokens = hotseat(http, players=2)
    crowd = [ws_from(server, game, "127.0.0.1") for _ in range(8)]  # the address's cap
    try:
        for ws in crowd:
            assert '"welcome"' in str(ws.recv(timeout=10)) and '"state"' in str(ws.recv(timeout=10))
        extra = ws_from(server, game, "127.0.0.1")
        crowd.append(extra)
        assert json.loads(extra.recv(timeout=10))["type"] == "welcome"
        extra.send(json.dumps({"type": "sync", "id": "s"}))  # costs the server no view
        reply = json.loads(extra.recv(timeout=10))
        assert (reply["type"], reply["code"], reply["id"]) == ("error", "limit_reached", "s")
        extra.send(json.dumps({"type": "auth", "tokens": [tokens[0]], "id": "a"}))
        welcome, state = json.loads(extra.recv(timeout=10)), json.loads(extra.recv(timeout=10))
        assert (welcome["type"], welcome["you"], state["type"]) == ("welcome", [0], "state")
    finally:
        for ws in crowd:
            ws.close()


def test_connections_of_one_seat_are_capped_newest_first(server: Server, http: httpx.Client) -> None:
    game, tokens = hotseat(http, players=2)
    clients = [Client(server.ws_url(game), [tokens[0]]) for _ in range(9)]
    old = clients[0]
    with pytest.raises(ConnectionClosed):
        for _ in range(20):
            old.recv(timeout=5)
    assert old.ws.close_code == 4409
    latest = clients[-1]
    assert latest.move(0, latest.view["legal_moves"][0])["type"] == "accepted"
    for c in clients:
        c.close()


@pytest.fixture()
def handshake_server(tmp_path: Path) -> Iterator[Server]:
    """A server taking at most 10 websocket handshakes per address in 10 s."""
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with Server(database, tmp_path, "--handshakes-per-address", "10", *GENEROUS) as s:
        yield s


def test_handshakes_over_an_address_limit_are_refused_before_any_session(handshake_server: Server) -> None:
    """An address reconnecting in a loop gets 429 at the handshake once over its limit; its
    open connections, its HTTP requests and every other address are not affected."""
    server = handshake_server
    with server.http() as http:
        game, tokens = hotseat(http, players=2)
    crowd = [ws_from(server, game, "127.0.5.1") for _ in range(10)]
    try:
        start = time.monotonic()
        with pytest.raises(InvalidStatus) as refused:
            ws_from(server, game, "127.0.5.1")
        assert time.monotonic() - start >= HANDSHAKE_PAUSE * 0.9  # a reconnecting loop is slowed
        reply = refused.value.response
        assert (reply.status_code, reply.headers["Retry-After"]) == (429, "10")
        assert json.loads(reply.body or b"{}")["code"] == "rate_limited"
        assert reply.headers["X-Content-Type-Options"] == "nosniff"
        ann = Client(server.ws_url(game), [tokens[0]])  # another address: in at once
        assert ann.received[-2]["you"] == [0]
        crowd[0].send(json.dumps({"type": "ping", "id": "p"}))
        assert any(json.loads(m)["type"] == "pong" for m in _drain(crowd[0]))
        with http_from(server, "127.0.5.1") as same:
            assert same.get(f"/api/games/{game}").status_code == 200
        ann.close()
    finally:
        for ws in crowd:
            ws.close()


def _drain(ws: ClientConnection) -> list[str]:
    """The messages ``ws`` receives until it is quiet for half a second."""
    seen = []
    with contextlib.suppress(TimeoutError):
        while True:
            seen.append(str(ws.recv(timeout=0.5)))
    return seen


# --- 2. one address cannot starve the others' bots ------------------------------------------

EXPERTS = {"players": 4, "seats": [{"type": "bot", "level": "expert"}] * 4, "public": False}


def test_costly_bot_seats_are_capped_per_address(server: Server) -> None:
    with http_from(server, "127.0.4.1") as attacker, http_from(server, "127.0.4.2") as other:
        assert attacker.post("/api/games", json=EXPERTS).status_code == 201
        assert attacker.post("/api/games", json=EXPERTS).status_code == 201
        message = error_of(attacker.post("/api/games", json=EXPERTS), 429, "limit_reached")
        assert "8 hard or expert bot seats" in message and "the limit is 8" in message
        takeover = {"players": 2, "name": "Eve", "takeover_after": 5, "takeover_level": "hard"}
        error_of(attacker.post("/api/games", json=takeover), 429, "limit_reached")
        cheap = {"players": 2, "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}]}
        assert attacker.post("/api/games", json={**cheap, "name": "Eve"}).status_code == 201
        assert other.post("/api/games", json=EXPERTS).status_code == 201  # another address


def _loop_analyses(server: Server, address: str, stop: threading.Event, done: list[int]) -> None:
    """Ask for hints on ever new positions (fresh seeds: never cached) until ``stop``."""
    with http_from(server, address) as http:
        seed = 0
        while not stop.is_set():
            seed += 1
            config = GameConfig(mode=Mode.EXPERT, players=4, seed=seed * 7919 + len(address))
            record = GameRecord(config, ()).to_json()
            r = http.post("/api/analysis", json={"record": record, "at": 0})
            if r.status_code == 200:
                done.append(1)


def _victim_bot_replies(server: Server, replies: int) -> list[float]:
    """A victim's game against one ``easy`` bot: seconds from sending each move that ends its
    turn to the bot's answer pushed."""
    with http_from(server, "127.0.5.1") as http:
        seats = [{"type": "human"}, {"type": "bot", "level": "easy"}]
        data = create(http, players=2, seats=seats, name="Vic", public=False)
    client = Client(server.ws_url(data["game"]), [data["seats"][0]["token"]])
    waits: list[float] = []
    try:
        while len(waits) < replies:
            view = client.until(my_turn(0), timeout=60)
            if view["status"] == "over":
                break
            moves = [m for m in view["legal_moves"] if m != "discard"] or view["legal_moves"]
            start = time.monotonic()
            reply = client.move(0, moves[0])
            assert reply["type"] == "accepted", reply
            after = client.until(lambda v, n=reply["version"]: v["version"] >= n, 60)
            if after["status"] == "playing" and after["to_move"] != 0:  # the bot's turn
                client.until(my_turn(0), timeout=60)
                waits.append(time.monotonic() - start)
    finally:
        client.close()
    return waits


@pytest.fixture()
def quota_server(tmp_path: Path) -> Iterator[Server]:
    """A server with the default quotas, bots' cap raised: twenty expert games from one address
    (its whole games quota) as the costly lane's load."""
    with Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path, "--costly-bots-per-client", "80") as s:
        yield s


def test_an_easy_bot_answers_in_time_beside_expert_games_and_analyses(quota_server: Server) -> None:
    server = quota_server
    with http_from(server, "127.0.6.1") as attacker:
        created = 0
        while created < 30:
            r = attacker.post("/api/games", json=EXPERTS)
            if r.status_code != 201:
                error_of(r, 429, "limit_reached")
                break
            created += 1
    assert created == 20  # the address's maximum of unfinished games, all expert bots
    stop = threading.Event()
    analyses: list[int] = []
    loopers = [
        threading.Thread(target=_loop_analyses, args=(server, f"127.0.7.{i}", stop, analyses))
        for i in range(1, 5)
    ]
    for t in loopers:
        t.start()
    try:
        time.sleep(1.0)  # the attack is under way
        waits = _victim_bot_replies(server, replies=6)
    finally:
        stop.set()
        for t in loopers:
            t.join(60)
    # Every reply came while the expert games and analyses ran (how long each took is not
    # asserted: the lanes' order is tested in process, test_bot_pool.py).
    assert len(waits) >= 5, waits
    assert analyses  # the analyses were served too, after the bots' moves


# --- 3. clients that never read ------------------------------------------------------------


def _never_reading(server: Server, game: str, address: str) -> socket.socket:
    """A websocket handshake done by hand on a socket with a tiny receive buffer, then never
    a byte read again."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", server.port))
    request = (
        f"GET /ws/games/{game} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    )
    sock.sendall(request.encode())
    return sock


SYNC_FRAME = bytes([0x81, 0x80 | 16, 0, 0, 0, 0]) + b'{"type":"sync"} '  # masked with zeros


def _ask_for_states(stuck: list[socket.socket], stop: threading.Event) -> None:
    """Each stuck client asks for the whole state twenty times a second, its rate limit (and
    reads none)."""
    while not stop.wait(0.05):
        for sock in stuck:
            with contextlib.suppress(OSError):
                sock.send(SYNC_FRAME)


def _dropped(sock: socket.socket, deadline: float) -> bool:
    """Whether the server closes ``sock`` before ``deadline`` (what it sent is read and
    thrown away meanwhile)."""
    sock.settimeout(1.0)
    while time.monotonic() < deadline:
        try:
            if not sock.recv(1 << 20):
                return True
        except TimeoutError:
            continue
        except OSError:
            return True  # reset
    return False


def test_clients_that_never_read_keep_memory_bounded(server: Server, http: httpx.Client) -> None:
    assert server.proc is not None
    game, tokens = hotseat(http, players=4)
    reader = Client(server.ws_url(game))
    before = rss_kib(server.proc.pid)
    stuck = [_never_reading(server, game, f"127.0.8.{i}") for i in range(1, 61)]
    stop = threading.Event()
    asking = threading.Thread(target=_ask_for_states, args=(stuck, stop))
    asking.start()
    try:
        peak = before
        kernel = 0
        for _ in range(40):  # the game to its end, memory sampled as it goes
            version = http.get(f"/api/games/{game}").json()["version"]
            final = play_http(http, game, tokens, until=lambda v, n=version + 5: v["version"] >= n)
            peak = max(peak, rss_kib(server.proc.pid))
            kernel = max(kernel, queued_kib(server.port))
            if final["status"] == "over":
                break
        latest = http.get(f"/api/games/{game}").json()
        seen = reader.until(lambda v: v["version"] == latest["version"], timeout=15)
        assert seen["state"] == latest["state"] and latest["version"] >= 60
        assert peak - before < 40 * 1024, f"{(peak - before) / 1024:.0f} MiB more"
        assert 0 < kernel < 60 * 1024, f"{kernel / 1024:.0f} MiB in the kernel's send queues"
        stop.set()
        asking.join()
        deadline = time.monotonic() + 60  # the send timeout, then TCP_USER_TIMEOUT (30 s)
        assert all(_dropped(s, deadline) for s in stuck)
    finally:
        stop.set()
        reader.close()
        for s in stuck:
            s.close()


# --- 5. lobby squatting cannot block a creator ----------------------------------------------


def _squat(server: Server, address: str, seconds: float) -> Counter[str]:
    """From ``address``, for ``seconds``, join every open seat the lobby lists as fast as the
    server answers: how the joins ended (``joined`` or the error code)."""
    ended: Counter[str] = Counter()
    with http_from(server, address) as squatter:
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            for game in squatter.get("/api/games", params={"limit": 200}).json()["games"]:
                for seat in (s["seat"] for s in game["seats"] if s["open"]):
                    r = squatter.post(f"/api/games/{game['game']}/seats/{seat}", json={"name": "Squat"})
                    ended["joined" if r.status_code == 200 else r.json()["code"]] += 1
    return ended


def test_lobby_squatting_cannot_block_a_creator(tmp_path: Path) -> None:
    options = ("--games-per-client", "2", "--creates-per-minute", "4")
    with (
        Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path, *options) as server,
        http_from(server, "127.0.6.1") as ann,
        http_from(server, "127.0.6.2") as bob,
        http_from(server, "127.0.6.3") as squatter,
        http_from(server, "127.0.6.5") as carol,
    ):
        games = [create(ann, players=2, name="Ann") for _ in range(2)]
        for data in games:  # both of Ann's games joined by someone who never moves
            assert (
                squatter.post(f"/api/games/{data['game']}/seats/1", json={"name": "Squat"}).status_code == 200
            )
        assert "resign" in error_of(ann.post("/api/games", json={"players": 2}), 429, "limit_reached")
        first = games[0]
        r = ann.post(
            f"/api/games/{first['game']}/resign", json={"seat": 0}, headers=bearer(first["seats"][0]["token"])
        )
        assert r.json()["status"] == "over"  # a game of two ends at once: the squatter wins it
        create(ann, players=2, name="Ann")  # the resigned game left Ann's quota at once

        for client in (bob, bob, carol):
            create(client, players=4, name="Bob")  # 3 x 3 open seats, and Ann's new game's one
        ended = _squat(server, "127.0.6.4", 2.0)
        assert ended["joined"] == 4 and ended["rate_limited"] >= 10, ended  # 4 a minute (joins and creates)
        listed = squatter.get("/api/games", params={"limit": 200}).json()["games"]
        assert sum(s["open"] for g in listed for s in g["seats"]) == 10 - 4


# --- 9. face-down tiles stay face down ------------------------------------------------------


def test_no_view_of_a_running_game_shows_a_face_down_tile(server: Server, http: httpx.Client) -> None:
    hidden = {t["id"] for t in http.get("/api/tiles").json() if t["min_players"] > 2}
    game, tokens = hotseat(http, players=2)
    client = Client(server.ws_url(game), [tokens[0]])
    spectator = Client(server.ws_url(game))
    seen_down = 0
    for _ in range(30):
        view = http.get(f"/api/games/{game}", headers=bearer(tokens[0])).json()
        for v in (view, client.view, spectator.view, http.get(f"/api/games/{game}").json()):
            state = v["state"]
            assert not hidden & {t for t in state["site"] if t is not None}
            for square in state["face_down"]:  # r1c1 ... r5c5
                row, col = int(square[1]), int(square[3])
                assert state["site"][(row - 1) * 5 + col - 1] is None
                seen_down += 1
        play_http(http, game, tokens, until=lambda v, n=view["version"] + 1: v["version"] >= n)
        client.until(lambda v, n=view["version"] + 1: v["version"] >= n)
    assert seen_down  # a 2-player game has face-down tiles
    client.close()
    spectator.close()


# --- 10. bot moves cannot be predicted from public data --------------------------------------


def test_the_bots_key_needs_the_secret_seed() -> None:
    key = decision_key(123456789, "IW4ry2gLM5Nj", 7)
    assert key == decision_key(123456789, "IW4ry2gLM5Nj", 7)  # reproducible
    assert key != decision_key(123456790, "IW4ry2gLM5Nj", 7)  # another seed, another key
    assert "IW4ry2gLM5Nj" not in key and key != "IW4ry2gLM5Nj/7"


async def _paused_game(url: str) -> str:
    """A game whose two seats are taken, stored with no bot pool: once its players have been
    away a second, a ``medium`` bot plays both seats (takeover) in whichever server runs it."""
    store = Store(url)
    store.upgrade()
    service = GameService(store)
    spec = CreateGame(players=2, name="Ann", take=[0, 1], takeover_after=1, takeover_level="medium")
    new = await service.create(spec, "127.0.9.1")
    await service.close()
    store.close()
    return new.game


def test_a_restarted_server_makes_the_same_bot_decisions(tmp_path: Path) -> None:
    import asyncio

    first = tmp_path / "first.sqlite3"
    game = asyncio.run(_paused_game(f"sqlite:///{first}"))
    second = tmp_path / "second.sqlite3"
    shutil.copy(first, second)
    histories: list[Any] = []
    for path in (first, second):
        with Server(f"sqlite:///{path}", tmp_path) as s, s.http() as http:
            deadline = time.monotonic() + 120
            while http.get(f"/api/games/{game}").json()["status"] != "over":
                assert time.monotonic() < deadline
                time.sleep(0.2)
            moves = http.get(f"/api/games/{game}/moves").json()
            assert all(h["by"] == "takeover" for h in moves["history"])
            histories.append(moves["moves"])
    assert histories[0] == histories[1] and len(histories[0]) > 20
