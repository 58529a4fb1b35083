"""Security against a real server process: only a seat's token acts for the seat; tokens are
random, hashed at rest and never shown to anyone else; spectators cannot act; stale versions
are refused and nothing is applied twice; the seed leaks through no endpoint and no message
before the end of the game."""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Client, Server, create, database, error_of, find_key

from quadropolis import GameRecord, replay


def two_players(http: httpx.Client) -> tuple[str, str, str]:
    data = create(http, players=2, name="Ann")
    game = data["game"]
    bob = http.post(f"/api/games/{game}/seats/1", json={"name": "Bob"}).json()["token"]
    return game, data["seats"][0]["token"], bob


def db_path(server: Server) -> Path:
    return Path(server.database.removeprefix("sqlite:///"))


def test_a_token_acts_only_for_its_own_seat_and_game(http: httpx.Client, server: Server) -> None:
    game, _, bob = two_players(http)
    other, other_ann, _ = two_players(http)
    c = Client(server.ws_url(game), [bob])
    move = c.view["legal_moves"][0]
    assert c.move(0, move)["code"] == "forbidden"  # Bob's token, Ann's seat (Ann to move)
    c.send(type="undo", seat=0, version=0)
    assert c.expect("error")["code"] == "forbidden"
    c.send(type="auth", tokens=[other_ann])  # a seat of another game
    assert c.expect("error")["code"] == "forbidden"
    r = http.post(
        f"/api/games/{game}/moves",
        json={"seat": 0, "version": 0, "move": move},
        headers={"Authorization": f"Bearer {other_ann}"},
    )
    assert r.status_code == 403
    assert http.get(f"/api/games/{game}/moves").json()["history"] == []
    c.close()
    assert other != game


def test_forged_and_absent_tokens_are_refused(http: httpx.Client, server: Server) -> None:
    game, ann, _ = two_players(http)
    forged = [
        ann[:-1] + ("A" if ann[-1] != "A" else "B"),
        ann[:-1],
        ann + "x",
        "",
        " ",
        "Bearer",
        "\u00e9" * 22,
    ]
    for token in forged:
        c = Client(server.ws_url(game))
        c.send(type="auth", tokens=[token, ann] if token else [token])
        assert c.expect("error")["code"] in ("forbidden", "bad_message")
        c.send(type="move", seat=0, version=0, move="1T1")
        assert c.expect("error")["code"] == "forbidden"  # nothing was granted, not even Ann's seat
        c.close()
        value = f"Bearer {token}".encode()  # raw bytes: a header need not be ASCII
        headers = {"Authorization": value} if token.strip() else {}
        r = http.post(
            f"/api/games/{game}/moves", json={"seat": 0, "version": 0, "move": "1T1"}, headers=headers
        )
        assert r.status_code == 403 and r.json()["code"] == "forbidden"
    r = http.post(
        f"/api/games/{game}/moves",
        json={"seat": 0, "version": 0, "move": "1T1"},
        headers={"Authorization": f"Basic {ann}"},
    )
    assert r.status_code == 403
    assert http.get(f"/api/games/{game}").json()["version"] == 0


def test_spectators_cannot_act(http: httpx.Client, server: Server) -> None:
    game, _, _ = two_players(http)
    c = Client(server.ws_url(game))
    for message in (
        {"type": "move", "seat": 0, "version": 0, "move": c.view["legal_moves"][0]},
        {"type": "undo", "seat": 0, "version": 0},
        {"type": "move", "seat": 1, "version": 0, "move": "1T1"},
    ):
        c.send(**message)
        assert c.expect("error")["code"] == "forbidden"
    assert c.view["version"] == 0 and http.get(f"/api/games/{game}").json()["version"] == 0
    c.close()


def test_stale_versions_are_refused_and_nothing_applies_twice(http: httpx.Client, server: Server) -> None:
    game, ann, _ = two_players(http)
    # Two connections of the same player send the same move at the same version at once.
    a, b = Client(server.ws_url(game), [ann]), Client(server.ws_url(game), [ann])
    move = a.view["legal_moves"][0]
    replies: list[dict[str, Any]] = []
    threads = [
        threading.Thread(target=lambda c=c: replies.append(c.move(0, move, version=0))) for c in (a, b)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r["type"] for r in replies) == ["accepted", "error"]
    assert next(r for r in replies if r["type"] == "error")["code"] == "stale"
    # A resend after the ack (a retry after a reconnect) is stale too.
    assert a.move(0, move, version=0)["code"] == "stale"
    history = http.get(f"/api/games/{game}/moves").json()["history"]
    assert [(h["version"], h["move"]) for h in history] == [(1, move)]
    a.close()
    b.close()


def test_tokens_are_random_128_bit_and_stored_only_as_hashes(http: httpx.Client, server: Server) -> None:
    tokens = [create(http, players=4, take=[0, 1, 2, 3])["seats"] for _ in range(10)]
    flat = [s["token"] for seats in tokens for s in seats]
    assert len(set(flat)) == len(flat) == 40
    for token in flat:
        assert len(base64.urlsafe_b64decode(token + "==")) == 16
    with sqlite3.connect(db_path(server)) as db:
        hashes = {
            bytes(h) for (h,) in db.execute("SELECT token_hash FROM seats WHERE token_hash IS NOT NULL")
        }
        dump = "\n".join(db.iterdump())
    assert {hashlib.sha256(t.encode()).digest() for t in flat} <= hashes
    raw = db_path(server).read_bytes() + Path(str(db_path(server)) + "-wal").read_bytes()
    assert not any(t.encode() in raw or t in dump for t in flat)


def test_tokens_and_seed_never_reach_anyone_before_the_end(http: httpx.Client, server: Server) -> None:
    """A whole game (two humans on websockets, a bot, a spectator), with every HTTP endpoint
    read along the way: before the end no text sent by the server holds the seed's digits or
    a ``seed`` key, and no client sees another seat's token."""
    spec = {
        "players": 3,
        "name": "Ann",
        "seats": [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "easy"}],
    }
    data = create(http, **spec)
    game, ann = data["game"], data["seats"][0]["token"]
    texts: list[str] = [json.dumps(data["invites"]), json.dumps(data["watch"])]
    join = http.post(f"/api/games/{game}/seats/1", json={"name": "Bob"})
    bob = join.json()["token"]
    ann_c, bob_c, watcher = (
        Client(server.ws_url(game), [ann]),
        Client(server.ws_url(game), [bob]),
        Client(server.ws_url(game)),
    )

    def read_endpoints() -> dict[str, str]:
        """Every endpoint's text; the record only while it is refused (a record served means
        the game was over: checked by reading the view after it)."""
        paths = (
            "/api/games",
            "/api/games?status=over",
            f"/api/games/{game}",
            f"/api/games/{game}/moves",
            "/openapi.json",
            "/api/levels",
            "/",
        )
        got = {path: http.get(path).text for path in paths}
        got["as Ann"] = http.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {ann}"}).text
        record = http.get(f"/api/games/{game}/record")
        if record.status_code == 200:
            assert http.get(f"/api/games/{game}").json()["status"] == "over"
            got["released record"] = record.text
        else:
            got["record"] = record.text
        return got

    players = {0: ann_c, 1: bob_c}
    done = 0  # the version of the last move accepted
    while True:
        ann_c.until(
            lambda v, n=done: v["version"] >= n and (v["status"] == "over" or v["to_move"] in players)
        )
        if ann_c.view["status"] == "over":
            break
        seat, version = ann_c.view["to_move"], ann_c.view["version"]
        c = players[seat]
        c.until(lambda v, n=version: v["version"] >= n)
        legal = c.view["legal_moves"]
        reply = c.move(seat, legal[version % len(legal)])
        assert reply["type"] == "accepted", reply
        done = reply["version"]
        if done % 10 == 0:
            texts.extend(t for k, t in read_endpoints().items() if k != "released record")
    record_text = read_endpoints()["released record"]  # over now: the record has the seed
    assert '"seed"' in record_text
    for c in (ann_c, bob_c, watcher):
        c.until(lambda v: v["status"] == "over")
        texts.extend(c.raw)
        c.close()
    with sqlite3.connect(db_path(server)) as db:
        (config,) = db.execute("SELECT config FROM games WHERE id = ?", (game,)).fetchone()
    seed = str(json.loads(config)["seed"])
    assert len(seed) >= 6
    for text in texts:
        assert seed not in text
        assert '"seed"' not in text and not find_key(json.loads(text) if text.startswith("{") else {}, "seed")
    # Each player sees only their own token; the spectator none.
    assert not any(ann in t for t in bob_c.raw + watcher.raw)
    assert not any(bob in t for t in ann_c.raw + watcher.raw)
    # After the end the seed is released, in the record only.
    assert replay(GameRecord.from_json(json.loads(record_text))).is_over


# --- hostile text --------------------------------------------------------------------------


def test_a_lone_surrogate_gets_a_typed_reply_and_the_connection_stays(
    http: httpx.Client, server: Server
) -> None:
    """Lone surrogates (valid JSON escapes, not encodable as UTF-8) in an ``id`` or any other
    string field: each message gets a ``bad_message`` reply without an id, the connection
    keeps working, and the server logs no traceback."""
    game, ann, _ = two_players(http)
    c = Client(server.ws_url(game))
    for text in (
        r'{"type": "ping", "id": "\ud800"}',  # used to get no reply and drop the connection
        r'{"type": "ping", "id": "a\udfffb"}',
        r'{"type": "sync", "id": "\ud800", "extra": 1}',
        r'{"type": "teleport", "id": "\udc00"}',
        r'{"type": "move", "seat": 0, "version": 0, "move": "\ud800", "id": "\ud800"}',
        r'{"type": "auth", "tokens": ["\ud800"], "id": "\ud800"}',
    ):
        c.ws.send(text)
        reply = c.expect("error")
        assert reply["code"] == "bad_message" and reply["id"] is None, reply
        c.send(type="ping", id="still-here")
        assert c.expect("pong")["id"] == "still-here"
    c.send(type="auth", tokens=[ann])
    assert c.expect("welcome")["you"] == [0]
    c.close()
    assert "Traceback" not in server.log.read_text()


#: Names that would forge or hide what other players see: NUL, an ANSI colour sequence, a
#: newline, a tab, a bidi override, zero-width characters, a line separator, a lone surrogate.
HOSTILE_NAMES = [
    "Ann\x00",
    "\x1b[31mAnn",
    "Ann\nBob",
    "A\tnn",
    "\u202eAnn",
    "A\u200bnn",
    "Ann\ufeff",
    "A\u2028nn",
    "A\u2029nn",
    "Ann\ud800",
]


def post_json(http: httpx.Client, path: str, body: Any) -> httpx.Response:
    """POST ``body`` as ASCII JSON (``\\u`` escapes): httpx cannot encode a lone surrogate."""
    return http.post(path, content=json.dumps(body), headers={"content-type": "application/json"})


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_names_with_control_or_invisible_characters_are_refused(kind: str, tmp_path: Path) -> None:
    """Over HTTP (create and join) each hostile name is ``bad_message`` naming the field (on
    PostgreSQL a NUL used to be 503 ``unavailable`` with a traceback); printable Unicode is
    kept; the websocket views carry only the names accepted."""
    with database(kind, tmp_path) as url, Server(url, tmp_path) as server, server.http() as http:
        for name in HOSTILE_NAMES:
            message = error_of(
                post_json(http, "/api/games", {"players": 2, "name": name}), 400, "bad_message"
            )
            # A lone surrogate is refused by the decoder itself: not Unicode text.
            assert "name" in message and ("control or invisible" in message or "unicode" in message)
        data = create(http, players=2, name="Zoë 🙂 李")
        game = data["game"]
        for name in HOSTILE_NAMES:
            r = post_json(http, f"/api/games/{game}/seats/1", {"name": name})
            assert "name" in error_of(r, 400, "bad_message")
        c = Client(server.ws_url(game))
        assert c.view["seats"][0]["name"] == "Zoë 🙂 李" and c.view["seats"][1]["open"]
        assert http.post(f"/api/games/{game}/seats/1", json={"name": " Bob "}).status_code == 200
        assert [s["name"] for s in c.until(lambda v: v["status"] == "playing")["seats"]] == [
            "Zoë 🙂 李",
            "Bob",
        ]
        c.send(type="ping", id="p")
        assert c.expect("pong")["id"] == "p"
        c.close()
        assert "Traceback" not in server.log.read_text()


# --- strict HTTP bodies --------------------------------------------------------------------


def test_http_bodies_are_as_strict_as_websocket_messages(http: httpx.Client, server: Server) -> None:
    """A mistyped field of an HTTP body is ``bad_message``, as in a websocket message: no
    ``"2"`` for 2, no ``true`` for seat 1, no ``1`` for ``true`` (these were all accepted)."""
    for spec in (
        {"players": "2"},
        {"players": 2.0},
        {"players": True},
        {"first_player": "0"},
        {"take": ["0"]},
        {"take": [True]},
        {"public": 1},
        {"public": "true"},
        {"analysis": 0},
        {"variants": {"all_parks_absorb": "false"}},
        {"takeover_after": "60"},
        {"name": 7},
    ):
        assert "body." in error_of(http.post("/api/games", json=spec), 400, "bad_message"), spec
    game, ann, _ = two_players(http)
    for body in (
        {"seat": True, "version": 0, "move": "1T1"},
        {"seat": "0", "version": 0, "move": "1T1"},
        {"seat": 0, "version": "0", "move": "1T1"},
        {"seat": 0, "version": 0.0, "move": "1T1"},
        {"seat": 0, "version": 0, "move": 11},
    ):
        r = http.post(f"/api/games/{game}/moves", json=body, headers={"Authorization": f"Bearer {ann}"})
        error_of(r, 400, "bad_message")
    r = http.post(
        f"/api/games/{game}/undo",
        json={"seat": False, "version": 0},
        headers={"Authorization": f"Bearer {ann}"},
    )
    error_of(r, 400, "bad_message")
    error_of(http.post(f"/api/games/{game}/seats/1", json={"name": ["Bob"]}), 400, "bad_message")
    error_of(http.post("/api/replay", json={"record": {}, "at": "0"}), 400, "bad_message")
    assert http.get(f"/api/games/{game}").json()["version"] == 0
    # The well-typed bodies still work, floats where a float is meant included.
    assert create(http, players=2, take=[0, 1], takeover_after=60, public=False)["game"]
    assert create(http, players=3, takeover_after=90.5, variants={"all_parks_absorb": True})["game"]


def chunked(data: bytes, size: int = 1000) -> Iterator[bytes]:
    """``data`` in pieces: httpx streams an iterator with ``Transfer-Encoding: chunked``
    (no Content-Length to refuse it by)."""
    for i in range(0, len(data), size):
        yield data[i : i + size]


def test_an_oversize_chunked_body_is_too_large(http: httpx.Client) -> None:
    """Over the 16 KiB limit without a Content-Length: 413 ``too_large`` (it was 400
    ``bad_message``), as with one; a chunked body under the limit is served as usual."""
    big = json.dumps({"players": 2, "name": "Ann", "pad": "x" * 40_000}).encode()
    headers = {"content-type": "application/json"}
    for path in ("/api/games", "/api/replay", "/api/analysis"):
        r = http.post(path, content=chunked(big), headers=headers)
        assert r.request.headers.get("transfer-encoding") == "chunked"
        error_of(r, 413, "too_large")
    error_of(http.post("/api/games", content=big, headers=headers), 413, "too_large")
    small = json.dumps({"players": 2, "name": "Ann"}).encode()
    r = http.post("/api/games", content=chunked(small, 7), headers=headers)
    assert r.status_code == 201, r.text
    error_of(http.post("/api/games", content=chunked(b"{not json"), headers=headers), 400, "bad_message")
