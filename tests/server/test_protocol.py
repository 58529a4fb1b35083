"""The protocol against a real server process: every HTTP endpoint, every websocket message
type and its reply, every error code, and the guarantee that a bad client disturbs no one
else."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Client, Server, bearer, create, error_of, hotseat, my_turn, play_http
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from quadropolis import ILLEGAL_MESSAGES, GameRecord, replay
from quadropolis.bots import LEVELS
from quadropolis.server.edges import TokenBucket

# --- HTTP ---------------------------------------------------------------------------------


def test_openapi_describes_every_http_endpoint(http: httpx.Client) -> None:
    paths = http.get("/openapi.json").json()["paths"]
    assert {
        "/api/health",
        "/api/levels",
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/seats/{seat}",
        "/api/games/{game_id}/moves",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/record",
    } <= set(paths)
    assert set(paths["/api/games"]) == {"get", "post"}


def test_health_levels_and_the_index_page(http: httpx.Client) -> None:
    assert http.get("/api/health").json()["status"] == "ok"
    assert http.get("/api/levels").json() == LEVELS
    page = http.get("/")  # the static directory (the browser client) is served at /
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")


def test_create_invite_lobby_and_join(http: httpx.Client) -> None:
    spec = {
        "players": 3,
        "name": "Ann",
        "seats": [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "easy"}],
    }
    data = create(http, **spec)
    game = data["game"]
    assert [s["seat"] for s in data["seats"]] == [0] and len(data["seats"][0]["token"]) >= 22
    assert data["seats"][0]["link"].endswith("#token=" + data["seats"][0]["token"])
    assert data["invites"] == [{"seat": 1, "link": f"/?game={game}&join=1"}]
    assert data["websocket"] == f"/ws/games/{game}"
    lobby = {g["game"]: g for g in http.get("/api/games").json()["games"]}
    assert [s["open"] for s in lobby[game]["seats"]] == [False, True, False]
    assert "seed" not in lobby[game]["config"]
    joined = http.post(f"/api/games/{game}/seats/1", json={"name": "Bob"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert game not in {g["game"] for g in http.get("/api/games").json()["games"]}
    view = http.get(f"/api/games/{game}").json()
    assert view["status"] == "playing" and [s["name"] for s in view["seats"]][:2] == ["Ann", "Bob"]
    mine = http.get(f"/api/games/{game}", headers=bearer(joined.json()["token"])).json()
    assert mine["you"] == [1] and view["you"] == []


def test_moves_and_undo_over_http(http: httpx.Client) -> None:
    game, tokens = hotseat(http)
    view = http.get(f"/api/games/{game}").json()
    move = view["legal_moves"][0]
    r = http.post(
        f"/api/games/{game}/moves", json={"seat": 0, "version": 0, "move": move}, headers=bearer(tokens[0])
    )
    assert r.json() == {
        "type": "accepted",
        "game": game,
        "version": 1,
        "seat": 0,
        "kind": "move",
        "move": move,
    }
    r = http.post(f"/api/games/{game}/undo", json={"seat": 0, "version": 1}, headers=bearer(tokens[0]))
    assert r.json()["kind"] == "undo" and r.json()["version"] == 2
    moves = http.get(f"/api/games/{game}/moves").json()
    assert moves["moves"] == [] and [h["kind"] for h in moves["history"]] == ["move", "undo"]
    assert moves["history"][0]["move"] == move and "seed" not in moves["config"]


def test_a_finished_game_is_downloadable_replayable_and_listed(http: httpx.Client, tmp_path: Path) -> None:
    game, tokens = hotseat(http)
    r = http.get(f"/api/games/{game}/record")
    error_of(r, 409, "not_over")
    final = play_http(http, game, tokens)
    assert final["status"] == "over" and final["result"]["winners"]
    r = http.get(f"/api/games/{game}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert record["format"] == "quadropolis-game/1" and isinstance(record["config"]["seed"], int)
    assert record["seats"] == ["human:Ann (1)", "human:Ann (2)"]
    assert replay(GameRecord.from_json(record)).is_over
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "quadropolis", "replay", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    finished = http.get("/api/games", params={"status": "over"}).json()["games"]
    assert game in {g["game"] for g in finished}


def test_every_http_error_is_typed(http: httpx.Client, server: Server, tmp_path: Path) -> None:
    game, tokens = hotseat(http)
    error_of(http.get("/api/games/nosuchgame"), 404, "not_found")
    error_of(http.get("/api/nowhere"), 404, "not_found")
    error_of(
        http.post("/api/games", content=b"{not json", headers={"content-type": "application/json"}),
        400,
        "bad_message",
    )
    error_of(http.post("/api/games", json={"players": 9}), 400, "bad_message")
    error_of(
        http.post("/api/games", json={"seats": [{"type": "bot", "level": "mcts:iterations=99999"}]}),
        400,
        "bad_message",
    )
    error_of(http.post("/api/games", content=b"x" * 40_000), 413, "too_large")
    error_of(http.post(f"/api/games/{game}/seats/0", json={"name": "Eve"}), 409, "seat_taken")
    move = {"seat": 0, "version": 0, "move": "1T1"}
    error_of(http.post(f"/api/games/{game}/moves", json=move), 403, "forbidden")
    error_of(http.post(f"/api/games/{game}/moves", json=move, headers=bearer(tokens[1])), 403, "forbidden")
    error_of(
        http.post(f"/api/games/{game}/moves", json={**move, "seat": 1}, headers=bearer(tokens[1])),
        409,
        "not_your_turn",
    )
    error_of(
        http.post(f"/api/games/{game}/moves", json={**move, "version": 3}, headers=bearer(tokens[0])),
        409,
        "stale",
    )
    reason = error_of(
        http.post(f"/api/games/{game}/moves", json={**move, "move": "r1c1"}, headers=bearer(tokens[0])),
        422,
        "illegal_move",
    )
    assert "r1c1" in reason or "build" in reason
    error_of(
        http.post(f"/api/games/{game}/undo", json={"seat": 0, "version": 0}, headers=bearer(tokens[0])),
        409,
        "undo_refused",
    )
    waiting = create(http, players=2)["game"]
    error_of(http.post(f"/api/games/{waiting}/moves", json=move, headers=bearer("x" * 22)), 403, "forbidden")
    with (
        Server(f"sqlite:///{tmp_path / 'small.sqlite3'}", tmp_path, "--games-per-client", "1") as small,
        small.http() as c,
    ):
        first = create(c, players=2)
        error_of(c.post("/api/games", json={"players": 2}), 429, "limit_reached")
        error_of(
            c.post(
                f"/api/games/{first['game']}/moves", json=move, headers=bearer(first["seats"][0]["token"])
            ),
            409,
            "not_started",
        )


def test_game_over_is_refused(http: httpx.Client) -> None:
    game, tokens = hotseat(http)
    final = play_http(http, game, tokens)
    body = {"seat": 0, "version": final["version"], "move": "1T1"}
    error_of(http.post(f"/api/games/{game}/moves", json=body, headers=bearer(tokens[0])), 409, "game_over")


# --- websocket ----------------------------------------------------------------------------


def test_every_inbound_message_has_its_reply(http: httpx.Client, server: Server) -> None:
    game, tokens = hotseat(http)
    c = Client(server.ws_url(game))  # welcome + state, as a spectator
    assert c.received[0] == {"type": "welcome", "game": game, "you": [], "id": None}
    assert c.received[1]["type"] == "state" and c.received[1]["version"] == 0 and c.view["you"] == []
    c.send(type="ping", id="p1")
    assert c.expect("pong") == {"type": "pong", "id": "p1"}
    c.send(type="auth", tokens=[tokens[0]], id="a1")
    assert c.expect("welcome") == {"type": "welcome", "game": game, "you": [0], "id": "a1"}
    assert c.expect("state")["view"]["you"] == [0]
    c.send(type="sync", id="s1")
    assert c.expect("state")["version"] == 0
    move = c.view["legal_moves"][0]
    reply = c.move(0, move, ident="m1")
    assert reply == {
        "type": "accepted",
        "game": game,
        "version": 1,
        "seat": 0,
        "kind": "move",
        "move": move,
        "id": "m1",
    }
    assert c.view["version"] == 1 and c.view["last_actions"][-1]["move"] == move
    assert c.view["can_undo"] == [0]
    c.send(type="undo", seat=0, version=1, id="u1")
    assert c.expect("accepted") == {
        "type": "accepted",
        "game": game,
        "version": 2,
        "seat": 0,
        "kind": "undo",
        "move": None,
        "id": "u1",
    }
    assert c.view["version"] == 2 and c.view["last_actions"][-2]["undone"] is True
    c.close()


def test_every_push_carries_the_version_and_reaches_every_client(http: httpx.Client, server: Server) -> None:
    data = create(http, players=2, name="Ann")
    game = data["game"]
    bob = http.post(f"/api/games/{game}/seats/1", json={"name": "Bob"}).json()["token"]
    ann_c = Client(server.ws_url(game), [data["seats"][0]["token"]])
    bob_c = Client(server.ws_url(game), [bob])
    watcher = Client(server.ws_url(game))
    for _ in range(8):
        seat = ann_c.view["to_move"]
        mover = ann_c if seat == 0 else bob_c
        version = mover.view["version"]
        assert mover.move(seat, mover.view["legal_moves"][0])["type"] == "accepted"
        for c in (ann_c, bob_c, watcher):
            push = c.until(lambda v, version=version: v["version"] == version + 1)
            assert push["version"] == version + 1
    assert ann_c.view["state"] == watcher.view["state"] == bob_c.view["state"]
    for c in (ann_c, bob_c, watcher):
        c.close()


def test_every_websocket_error_is_typed(http: httpx.Client, server: Server) -> None:
    game, tokens = hotseat(http)
    c = Client(server.ws_url(game))

    def error(code: str, message: Any) -> dict[str, Any]:
        c.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))
        reply = c.expect("error")
        assert reply["code"] == code, reply
        return reply

    error("bad_message", "not json")
    error("bad_message", b"\x00\x01binary")
    error("bad_message", [1, 2])
    error("bad_message", {"type": "teleport"})
    assert error("bad_message", {"type": "ping", "id": "x", "extra": 1})["id"] == "x"
    error("bad_message", {"type": "move", "seat": "0", "version": 0, "move": "1T1"})
    error("too_large", {"type": "ping", "id": "y" * 5000})
    error("forbidden", {"type": "move", "seat": 0, "version": 0, "move": "1T1"})  # a spectator
    error("forbidden", {"type": "auth", "tokens": ["forged-token-forged-tok"]})
    c.send(type="auth", tokens=[tokens[0], tokens[1]])
    assert c.expect("welcome")["you"] == [0, 1]
    error("not_your_turn", {"type": "move", "seat": 1, "version": 0, "move": "1T1"})
    error("stale", {"type": "move", "seat": 0, "version": 9, "move": "1T1"})
    reply = error("illegal_move", {"type": "move", "seat": 0, "version": 0, "move": "9Z9"})
    assert "not a move" in reply["message"] and reply["reason"] is None
    # A move that parses but breaks a rule: the engine's code and values come with the sentence.
    reply = error("illegal_move", {"type": "move", "seat": 0, "version": 0, "move": "r1c1"})
    assert reply["reason"] == "must_take" and reply["params"] == {"player": 0}
    assert reply["message"] == ILLEGAL_MESSAGES["must_take"].format(player=0)
    error("undo_refused", {"type": "undo", "seat": 0, "version": 0})
    c.close()
    waiting = create(http, players=2)
    w = Client(server.ws_url(waiting["game"]), [waiting["seats"][0]["token"]])
    w.send(type="move", seat=0, version=0, move="1T1")
    assert w.expect("error")["code"] == "not_started"
    w.close()
    with connect(server.ws_url("nosuchgame")) as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "not_found"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def test_the_rate_limit_drops_a_flood(http: httpx.Client, server: Server) -> None:
    game, _ = hotseat(http)
    c = Client(server.ws_url(game))
    for i in range(100):
        c.send(type="ping", id=str(i))
    replies = [c.recv() for _ in range(100)]
    codes = [r.get("code") for r in replies if r["type"] == "error"]
    assert codes and set(codes) == {"rate_limited"}
    assert sum(r["type"] == "pong" for r in replies) >= 40  # the burst got through
    # The bucket refills as time passes (its rule on a moved clock: the test below); here,
    # once it has, a ping is answered again.
    end = time.monotonic() + 30
    while (reply := ping(c, "after"))["type"] != "pong":
        assert reply.get("code") == "rate_limited" and time.monotonic() < end, reply
        time.sleep(0.05)
    assert reply["id"] == "after"
    c.close()


def ping(c: Client, ping_id: str) -> dict[str, Any]:
    """The answer to one ping: its ``pong``, or an ``error``."""
    c.send(type="ping", id=ping_id)
    while (reply := c.recv())["type"] not in ("pong", "error"):
        pass
    return reply


def test_a_token_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    now = [100.0]
    bucket = TokenBucket(rate=4.0, burst=3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.25  # one message's worth
    assert bucket.take() and not bucket.take()
    assert not bucket.full()
    now[0] += 0.75
    assert bucket.full() and [bucket.take() for _ in range(4)] == [True, True, True, False]


def test_a_bad_client_disturbs_no_one_else(http: httpx.Client, server: Server) -> None:
    game, tokens = hotseat(http)
    good = Client(server.ws_url(game), [tokens[0], tokens[1]])
    bad = Client(server.ws_url(game))
    for junk in ("{", "[]", '{"type": null}', "x" * 10_000):
        bad.ws.send(junk)
        assert bad.expect("error")["type"] == "error"
    bad.ws.send("y" * 200_000)  # over the frame limit: only this connection is closed (1009)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            bad.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    for _ in range(4):
        seat = good.view["to_move"]
        assert good.move(seat, good.view["legal_moves"][0])["type"] == "accepted"
    assert good.view["version"] == 4
    good.close()


def test_hotseat_and_reconnecting_restore_the_seats(http: httpx.Client, server: Server) -> None:
    game, tokens = hotseat(http, players=3)
    c = Client(server.ws_url(game), list(tokens.values()))
    assert c.view["you"] == [0, 1, 2]
    for _ in range(5):
        seat = c.view["to_move"]
        assert c.move(seat, c.view["legal_moves"][-1])["type"] == "accepted"
    version = c.view["version"]
    c.close()
    again = Client(server.ws_url(game), [tokens[1]])
    assert again.view["you"] == [1] and again.view["version"] == version
    assert again.view["seats"][1]["present"] is True
    again.close()


def test_bots_think_off_the_event_loop(http: httpx.Client, server: Server) -> None:
    """While a ``hard`` bot searches (in a worker process), the server keeps answering: a
    ping sent right after handing the turn to the bot is answered before the bot's move."""
    data = create(http, players=2, name="Ann", seats=[{"type": "human"}, {"type": "bot", "level": "hard"}])
    c = Client(server.ws_url(data["game"]), [data["seats"][0]["token"]])
    c.until(my_turn(0))
    take = next(m for m in c.view["legal_moves"] if m[0].isdigit())
    assert c.move(0, take)["type"] == "accepted"
    if c.view["to_move"] == 0:  # the take took a building: build or discard it
        assert c.move(0, c.view["legal_moves"][-1])["type"] == "accepted"
    assert c.view["to_move"] == 1
    mine = c.view["version"]
    c.send(type="ping", id="while-thinking")
    seen = []
    while True:
        m = c.recv(timeout=30)
        seen.append(m)
        if m["type"] == "pong":
            break
    assert all(m["type"] != "state" or m["version"] == mine for m in seen)
    c.until(lambda v: v["version"] > mine, timeout=60)
    assert c.view["last_actions"][-1]["by"] == "bot"
    c.close()
