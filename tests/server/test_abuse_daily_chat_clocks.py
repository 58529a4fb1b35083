"""Attacks on the daily challenge's secrecy, the table chat's limits and the clocks, each
written as the attacker, against a real server process on SQLite and on PostgreSQL:

- a guest practising to learn the day's deal; a guest, an account that has not played, or one
  still playing, reading the day's ranked games (views, moves, records, analyses, reviews,
  spectating, the leaderboard's links) before playing their own to the end;
- a seat flooding the chat through a reconnect loop, an address through many seats, a line
  of stacked combining marks;
- a player taking and undoing to restart their clock, or to keep an idle game from expiring
  (in process on the real stores, time passing on a manual clock)."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import httpx
import pytest
from server_helpers import Client, Server, bearer, create, error_of, logged_in, play_seats
from service_helpers import hotseat_game, run_on_manual_clock
from sqlalchemy import text
from websockets.sync.client import connect

from quadropolis.server.clock import ManualClock
from quadropolis.server.data import EXPIRED
from quadropolis.server.env import Env
from quadropolis.server.errors import GameOver, ServerError, UndoRefused
from quadropolis.server.game import LiveGame
from quadropolis.server.service import GameService
from quadropolis.server.settings import Limits
from quadropolis.server.social.storage import SocialStore
from quadropolis.server.storage import Store

CSRF = {"X-Quadropolis-Client": "1"}
PASSWORD = "correct horse battery"
#: The clocks' scale: a minute per move lasts 3 seconds.
SCALE = 0.05


@pytest.fixture(scope="module")
def server(daily_server: Server) -> Server:
    """The module's server, on each database kind, its daily challenge classic-2."""
    return daily_server


#: A clock test's body: given the game side, its clock, a game and the token of its seat 0.
ClockedTest = Callable[[Env, ManualClock, LiveGame, str], Awaitable[None]]


class RunClocked(Protocol):
    """What the :func:`run_clocked` fixture gives: runs a clock test, ``move_time`` per move."""

    def __call__(self, test: ClockedTest, move_time: float | None = None) -> None: ...


@pytest.fixture()
def run_clocked(db_url: str, executor: ProcessPoolExecutor) -> RunClocked:
    """Runs a test on the game side of a server on ``db_url`` whose minute per move lasts 3 s
    and whose running games expire after 2 s without a person acting (a clocked one after 3
    times its time per move: 9 s), its time on a manual clock; its sweeper never comes round:
    the tests run the clocks and expiry themselves. The test is given a new game of two whose
    seats Ann holds both (``move_time`` per move) and the token of its seat 0."""

    def run(test: ClockedTest, move_time: float | None = None) -> None:
        async def with_game(env: Env, clock: ManualClock) -> None:
            game, tokens = await hotseat_game(env.service, move_time)
            await test(env, clock, game, tokens[0])

        limits = Limits(games_per_client=1000, clock_scale=SCALE, playing_expiry=2)
        run_on_manual_clock(db_url, with_game, executor, limits)

    return run


# --- helpers ---------------------------------------------------------------------------------


def start_daily(client: httpx.Client) -> tuple[str, str]:
    """Start today's challenge: the game and the token of its seat 0."""
    r = client.post("/api/daily/games", json={"name": "Guest"})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body["game"], body["seats"][0]["token"]


def play_to_end(http: httpx.Client, game: str, token: str) -> dict[str, Any]:
    """Play seat 0's first legal move whenever it is to move (bots play the others)."""
    return play_seats(http, game, {0: token})


def todays_seed(server: Server) -> int:
    """The day's deal as the database keeps it: what the attackers want to learn."""
    store = Store(server.database)
    try:
        challenge = SocialStore(store.engine).challenge(datetime.now(UTC).date().isoformat())
        assert challenge is not None
        return int(challenge.config["seed"])
    finally:
        store.close()


def session_headers(server: Server, client: httpx.Client) -> dict[str, str]:
    """What a browser page of this server sends with its websocket handshake."""
    return {"Origin": server.url, "Cookie": f"quadropolis_session={client.cookies['quadropolis_session']}"}


def hidden_everywhere(server: Server, client: httpx.Client, game: str, headers: dict[str, str]) -> None:
    """Every way to see ``game`` without holding its seat is refused to ``client``."""
    for path in ("", "/moves", "/record", "/analysis", "/review"):
        message = error_of(client.get(f"/api/games/{game}{path}"), 403, "forbidden")
        assert "today's daily challenge" in message, path
    error_of(client.post(f"/api/games/{game}/review"), 403, "forbidden")
    if "quadropolis_session" in client.cookies:
        error_of(client.get(f"/api/me/games/{game}"), 403, "forbidden")
    with connect(server.ws_url(game), open_timeout=10, additional_headers=headers) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        ws.send(json.dumps({"type": "sync", "id": "s"}))
        reply = json.loads(ws.recv(timeout=10))  # no state before it: the spectator sees nothing
        assert (reply["type"], reply["code"]) == ("error", "forbidden"), reply
    board = client.get("/api/daily").json()
    assert board["games_shown"] is False and board["top"] == []
    assert all(line["game"] is None for line in board["leaderboard"])
    assert game not in json.dumps(board)


def shown(server: Server, client: httpx.Client, game: str, headers: dict[str, str]) -> dict[str, Any]:
    """``game`` seen by ``client`` without its seat: its record (and its view, moves, socket)."""
    for path in ("", "/moves"):
        assert client.get(f"/api/games/{game}{path}").status_code == 200, path
    watcher = Client(server.ws_url(game), headers=headers)
    try:
        assert watcher.view["status"] == "over"
    finally:
        watcher.close()
    r = client.get(f"/api/games/{game}/record")
    assert r.status_code == 200, r.text
    record: dict[str, Any] = r.json()
    return record


# --- the daily challenge -----------------------------------------------------------------------


def test_a_guest_practising_never_sees_the_days_seed(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=30, headers=CSRF) as guest:
        board = guest.get("/api/daily").json()
        seed = todays_seed(server)
        for _ in range(2):
            r = guest.post("/api/daily/games", json={"name": "Guest"})
            assert r.status_code == 201 and r.json()["ranked"] is False
            game, token = r.json()["game"], r.json()["seats"][0]["token"]
            play_to_end(guest, game, token)
            record = guest.get(f"/api/games/{game}/record").json()
            # A deal of its own, of the day's format, labelled practice.
            assert record["config"]["seed"] != seed
            assert (record["config"]["mode"], record["config"]["players"]) == (
                board["mode"],
                board["players"],
            )
            assert r.json()["practice"] is True
            practice = guest.get(f"/api/games/{game}/daily").json()["game"]
            assert practice["practice"] is True and practice["ranked"] is False


def test_the_days_games_stay_hidden_until_ones_own_is_over_or_the_day_ends(server: Server) -> None:
    with (
        logged_in(server) as alice,
        logged_in(server) as bob,
        logged_in(server) as mallory,
        httpx.Client(base_url=server.url, timeout=30, headers=CSRF) as guest,
    ):
        alices, alice_token = start_daily(alice)
        play_to_end(alice, alices, alice_token)
        bobs, bob_token = start_daily(bob)
        # Bob's own running game is his to play, and no one else's to watch.
        assert bob.get(f"/api/games/{bobs}", headers=bearer(bob_token)).json()["you"] == [0]
        hidden_everywhere(server, guest, bobs, {"Origin": server.url})
        # A guest, an account that has not played, and one still playing see nothing of Alice's.
        hidden_everywhere(server, guest, alices, {"Origin": server.url})
        hidden_everywhere(server, mallory, alices, session_headers(server, mallory))
        hidden_everywhere(server, bob, alices, session_headers(server, bob))
        # A token of Bob's own game does not open Alice's either.
        error_of(alice.get(f"/api/games/{alices}/record", headers=bearer(bob_token)), 403, "forbidden")
        play_to_end(bob, bobs, bob_token)
        # Bob has played his to the end: he sees the day's games, and the board's links.
        record = shown(server, bob, alices, session_headers(server, bob))
        assert record["config"]["seed"] == todays_seed(server)
        board = bob.get("/api/daily").json()
        assert board["games_shown"] is True and alices in [line["game"] for line in board["leaderboard"]]
        hidden_everywhere(server, mallory, alices, session_headers(server, mallory))
        # A page of another site cannot watch with Bob's session.
        foreign = {**session_headers(server, bob), "Origin": "http://evil.example"}
        with connect(server.ws_url(alices), open_timeout=10, additional_headers=foreign) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            ws.send(json.dumps({"type": "sync"}))
            assert json.loads(ws.recv(timeout=10))["code"] == "forbidden"
        # Once the day is over, its games are everyone's.
        yesterday = move_to_yesterday(server, alices)
        assert (
            shown(server, guest, alices, {"Origin": server.url})["config"]["seed"] == record["config"]["seed"]
        )
        past = guest.get(f"/api/daily/{yesterday}").json()
        assert past["games_shown"] is True and alices in [line["game"] for line in past["leaderboard"]]


def move_to_yesterday(server: Server, game: str) -> str:
    """Make ``game`` a game of yesterday's challenge (same deal) in the database: what the
    server finds once the day has ended."""
    today = datetime.now(UTC).date()
    yesterday = (today - timedelta(days=1)).isoformat()
    store = Store(server.database)
    try:
        social = SocialStore(store.engine)
        challenge = social.challenge(today.isoformat())
        assert challenge is not None
        social.insert_challenge(challenge.__class__(yesterday, challenge.config, challenge.levels), 1.0)
        with store.engine.begin() as conn:
            conn.execute(
                text("UPDATE daily_entries SET day = :day WHERE game_id = :game"),
                {"day": yesterday, "game": game},
            )
    finally:
        store.close()
    return yesterday


# --- table chat ------------------------------------------------------------------------------


def next_of(client: Client, kinds: tuple[str, ...]) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = client.recv()
        if message["type"] in kinds:
            return message


def seated(server: Server, game: str, token: str) -> Client:
    """A connection holding the seat of ``token`` (the kept lines may come before its ``auth``
    is answered)."""
    client = Client(server.ws_url(game))
    client.send(type="auth", tokens=[token])
    next_of(client, ("welcome",))
    return client


def say(client: Client, line: str) -> dict[str, Any]:
    """Send a chat line; the reply: the line pushed back, or the error."""
    ident = secrets.token_hex(4)
    client.send(type="chat", text=line, id=ident)
    while True:
        message = client.recv()
        if message["type"] == "chat" and not message["history"] and message["lines"][0]["text"] == line:
            return message
        if message["type"] == "error" and message.get("id") == ident:
            return message


# The chat tests share the server's budget of lines from this test's one address: they run
# in this order, the one needing the fewest lines first.


def test_a_line_stacking_combining_marks_is_refused(server: Server) -> None:
    with server.http() as http:
        made = create(
            http, players=2, seats=[{"type": "human"}, {"type": "bot", "level": "easy"}], name="Ann"
        )
    ann = Client(server.ws_url(made["game"]), [made["seats"][0]["token"]])
    try:
        for line in ("a" + "\u0301" * 199, "x\u0300\u0301\u0302 overflow"):
            reply = say(ann, line)
            assert (reply["type"], reply["code"]) == ("error", "bad_message"), reply
            assert "at most 2 combining marks" in reply["message"] and "character 1" in reply["message"]
        # Scripts that stack two marks, and marks NFC composes, are plain text.
        for line in ("กี่ครั้ง", "Tiếng Việt", "e\u0301\u0302\u0303"):
            assert say(ann, line)["type"] == "chat", line
    finally:
        ann.close()


def test_a_reconnect_loop_cannot_push_the_other_players_lines_out(server: Server) -> None:
    with server.http() as http:
        made = create(http, players=2, name="Ann")
        game, ann_token = made["game"], made["seats"][0]["token"]
        bob_token = http.post(f"/api/games/{game}/seats/1", json={"name": "Bob"}).json()["token"]
    bob = Client(server.ws_url(game), [bob_token])
    try:
        assert say(bob, "good luck, Ann")["type"] == "chat"
        said, refusals = 0, []
        started = time.monotonic()
        for i in range(12):  # the attacker reconnects for a fresh allowance each time
            ann = seated(server, game, ann_token)
            for j in range(5):
                reply = say(ann, f"spam {i}.{j}")
                if reply["type"] == "chat":
                    said += 1
                else:
                    refusals.append(reply)
            ann.close()
        elapsed = time.monotonic() - started
        # The seat's burst, and what its rate allows over the loop (20 lines a minute).
        assert said <= 5 + int(elapsed * 20 / 60) + 1, (said, elapsed)
        assert refusals and all(r["code"] == "rate_limited" for r in refusals)
        assert "per seat" in refusals[0]["message"]
        late = Client(server.ws_url(game))
        history = next_of(late, ("chat",))
        late.close()
        assert "good luck, Ann" in [line["text"] for line in history["lines"]]
    finally:
        bob.close()


def test_many_seats_of_one_address_share_its_chat_limit(server: Server) -> None:
    tables = []
    with server.http() as http:
        for _ in range(6):
            made = create(
                http, players=2, seats=[{"type": "human"}, {"type": "bot", "level": "easy"}], name="Ann"
            )
            tables.append(Client(server.ws_url(made["game"]), [made["seats"][0]["token"]]))
    try:
        said, refusals = 0, []
        started = time.monotonic()
        for i in range(3):  # 3 lines a seat: under each seat's burst of 5
            for table in tables:
                reply = say(table, f"line {i}")
                if reply["type"] == "chat":
                    said += 1
                else:
                    refusals.append(reply)
        elapsed = time.monotonic() - started
        # The address's burst, and what its rate allows over the loop (40 lines a minute).
        assert said <= 10 + int(elapsed * 40 / 60) + 1, (said, elapsed)
        assert refusals and all(r["code"] == "rate_limited" for r in refusals)
        assert "from one address" in refusals[0]["message"]
    finally:
        for table in tables:
            table.close()


# --- clocks ----------------------------------------------------------------------------------


async def take_and_undo(
    service: GameService, game: LiveGame, token: str, hand_over: bool = False
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Seat 0 takes (its first legal take), with ``hand_over`` also builds (handing the turn
    over), and undoes it all: the views after the take and after the undo; ``None`` if it is
    not seat 0's turn or a step is refused."""
    you = {0: token}
    view = service.view(game, you)
    if view["status"] != "playing" or view["to_move"] != 0:
        return None
    try:
        await service.act(game.id, 0, token, game.version, view["legal_moves"][0])
        taken = service.view(game, you)
        if hand_over and taken["to_move"] == 0:
            await service.act(game.id, 0, token, game.version, taken["legal_moves"][0])
            taken = service.view(game, you)
        await service.undo(game.id, 0, token, game.version)
    except ServerError:
        return None
    return taken, service.view(game, you)


async def the_clock_plays_seat_0(env: Env, clock: ManualClock, game: LiveGame, deadline: float) -> None:
    """Once the deadline has passed, the clock plays seat 0's turn, at or after it."""
    await clock.advance(deadline - clock.time() + 0.2)
    await env.timers.run_clocks()
    end = time.monotonic() + 30
    while not any(a.actor == "clock" for a in game.log):
        assert time.monotonic() < end, "the clock did not play"
        await asyncio.sleep(0.02)
    first = next(a for a in game.log if a.actor == "clock")
    assert first.seat == 0 and first.created_at >= deadline


def test_taking_and_undoing_does_not_restart_the_clock(run_clocked: RunClocked) -> None:
    async def go(env: Env, clock: ManualClock, game: LiveGame, token: str) -> None:
        service = env.service
        deadline = game.deadline
        assert deadline is not None and game.to_move == 0
        for _ in range(6):  # a take and its undo, again and again, as the turn's time runs
            after = await take_and_undo(service, game, token)
            assert after is not None
            taken, undone = after
            # The turn's deadline stays where it was while its build is due, and an undo
            # gives it back as it was (a take landing on no building hands the turn over).
            if taken["to_move"] == 0:
                assert taken["clock"]["deadline"] == deadline
            assert undone["clock"]["deadline"] == deadline
            await clock.advance(0.4)
        await the_clock_plays_seat_0(env, clock, game, deadline)
        # The clock's move is not the seat's to take back (the turn would be given back).
        await service.idle()
        with pytest.raises(UndoRefused, match="clock"):
            await service.undo(game.id, 0, token, game.version)

    run_clocked(go, move_time=60)


def test_handing_the_turn_over_and_taking_it_back_does_not_restart_the_clock(run_clocked: RunClocked) -> None:
    async def go(env: Env, clock: ManualClock, game: LiveGame, token: str) -> None:
        deadline = game.deadline
        assert deadline is not None
        handed = 0
        for _ in range(6):  # a hand-over and its undo, again and again, as the turn's time runs
            await clock.advance(0.4)
            after = await take_and_undo(env.service, game, token, hand_over=True)
            assert after is not None
            taken, undone = after
            if taken["to_move"] == 1:  # seat 1's turn, with a time of its own
                handed += 1
                assert taken["clock"]["deadline"] > deadline
            # Taken back, seat 0's turn has its own deadline again, not a later one.
            assert undone["clock"]["deadline"] == deadline
        assert handed > 0
        await the_clock_plays_seat_0(env, clock, game, deadline)

    run_clocked(go, move_time=60)


def test_taking_and_undoing_does_not_keep_an_idle_game_from_expiring(run_clocked: RunClocked) -> None:
    async def go(env: Env, clock: ManualClock, game: LiveGame, token: str) -> None:
        service = env.service
        for _ in range(4):  # 1.5 s of takes and undos: no move in effect, but not yet idle 2 s
            assert await take_and_undo(service, game, token) is not None
            await clock.advance(0.5)
            assert await env.timers.expire() == []
        assert await take_and_undo(service, game, token) is not None
        await clock.advance(0.6)  # 2.1 s after the start, the last move in effect
        assert await env.timers.expire() == [game.id]
        assert game.status == EXPIRED
        with pytest.raises(GameOver):
            await service.undo(game.id, 0, token, game.version)

    run_clocked(go)  # no clock: it expires 2 s after its last move in effect
