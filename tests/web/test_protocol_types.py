"""The browser client's protocol types agree with what the server sends.

A real server plays games in both modes and several states (waiting, running with a clock,
over with placements, replayed, analysed, reviewed, rated, the daily challenge, a rematch, a
chat) and every payload it sends (HTTP bodies and websocket messages) is collected, then:

* written into a TypeScript module as object literals typed with the client's own types
  (``web/src/types.ts`` and the feature modules' ``account.ts``, ``ratings.ts``,
  ``social.ts``) and checked by ``tsc`` (strict): an object literal may hold no key its type
  does not declare, and every value must fit its declared type;
* every property declared by the types of those modules is sent by the server in one of
  them, so that the client declares no field the server never sends."""

from __future__ import annotations

import json
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import GOOD_PASSWORD, Client, Server, bearer, play_seats
from web_helpers import need, running_server

WEB = Path(__file__).resolve().parents[2] / "web"
TSC = WEB / "node_modules" / ".bin" / "tsc"
CLIENT = {"X-Quadropolis-Client": "1"}

#: The client's modules declaring the types named by the payloads, and those names.
IMPORTS = {
    "types": [
        "AnalysisReply",
        "Created",
        "GameListEntry",
        "GameRecord",
        "MovesSoFar",
        "ReplayReply",
        "ReviewReply",
        "SeatPass",
        "ServerMessage",
        "GameStatus",
        "TileInfo",
        "View",
    ],
    "account": ["Me", "MyGames"],
    "ratings": ["GameRatings", "PlayerProfile", "RatedPlayer"],
    "social": ["Daily", "DailyStart", "RematchReply"],
}

Payload = tuple[str, Any]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(
        tmp_path_factory.mktemp("web-protocol"), "--daily-formats", "classic-2", "--review-budget", "300"
    ) as s:
        yield s


def got(r: httpx.Response) -> Any:
    assert r.is_success, r.text
    return r.json()


def next_of(ws: Client, kind: str) -> dict[str, Any]:
    """The next message of ``kind``, past any other."""
    while (message := ws.recv())["type"] != kind:
        pass
    return message


def tokens_of(created: dict[str, Any]) -> dict[int, str]:
    return {p["seat"]: p["token"] for p in created["seats"]}


def finished_game_payloads(http: httpx.Client) -> list[Payload]:
    """A Classic hotseat game with a clock, from its creation to its end, its lists, record,
    replay, analysis and review."""
    spec = {"players": 2, "take": [0, 1], "name": "Ann", "move_time": 300, "first_player": "random"}
    created = got(http.post("/api/games", json=spec))
    game, tokens = created["game"], tokens_of(created)
    out: list[Payload] = [("Created", created), ("View", got(http.get(f"/api/games/{game}")))]
    out.append(("View", play_seats(http, game, tokens, until=lambda v: v["phase"] == "place")))
    out.append(("View", play_seats(http, game, tokens, until=lambda v: v["round"] == 2)))
    out.append(("MovesSoFar", got(http.get(f"/api/games/{game}/moves"))))
    out.append(("AnalysisReply", got(http.get(f"/api/games/{game}/analysis", headers=bearer(tokens[0])))))
    out.append(("{ games: GameListEntry[] }", got(http.get("/api/games?status=playing"))))
    out.append(("View", play_seats(http, game, tokens)))
    record = got(http.get(f"/api/games/{game}/record"))
    out.append(("GameRecord", record))
    out.append(("{ games: GameListEntry[] }", got(http.get("/api/games?status=over"))))
    out.append(("ReplayReply", got(http.post("/api/replay", json={"record": record, "at": 5}))))
    out.append(
        ("ReplayReply", got(http.post("/api/replay", json={"record": record, "at": len(record["moves"])})))
    )
    out.append(("AnalysisReply", got(http.post("/api/analysis", json={"record": record, "at": 3}))))
    out.append(("ReviewReply", got(http.get(f"/api/games/{game}/review"))))
    out.append(("ReviewReply", got(http.post(f"/api/games/{game}/review"))))
    deadline = time.monotonic() + 300
    while (review := got(http.get(f"/api/games/{game}/review")))["status"] != "done":
        assert review["status"] == "running" and time.monotonic() < deadline, review
        out.append(("ReviewReply", review))
        time.sleep(0.5)
    out.append(("ReviewReply", review))
    return out


def table_payloads(server: Server, http: httpx.Client) -> list[Payload]:
    """An Expert table for three (two bots, the urbanist's square variant) waiting for a
    player who joins, then played over the websocket: every message type it sends."""
    spec = {
        "mode": "expert",
        "players": 3,
        "take": [0],
        "name": "Ann",
        "seats": [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "easy"}],
        "variants": {"urbanist_blocks": "square", "all_parks_absorb": True},
        "takeover_after": 60,
        "takeover_level": "easy",
    }
    created = got(http.post("/api/games", json=spec))
    game, tokens = created["game"], tokens_of(created)
    out: list[Payload] = [
        ("Created", created),
        ("View", got(http.get(f"/api/games/{game}", headers=bearer(tokens[0])))),
    ]
    out.append(("{ games: GameListEntry[] }", got(http.get("/api/games?status=waiting"))))
    joined = got(http.post(f"/api/games/{game}/seats/1", json={"name": "Ben"}))
    out.append(("SeatPass", joined))
    tokens[1] = joined["token"]
    ws = Client(server.ws_url(game), tokens=[tokens[0], tokens[1]])
    try:
        ws.send(type="ping", id="p1")
        next_of(ws, "pong")
        ws.until(lambda v: v["status"] == "playing" and v["to_move"] in (0, 1))
        seat = ws.view["to_move"]
        ws.move(seat, "discard")  # not legal while taking: an error with the engine's reason
        ws.move(seat, ws.view["legal_moves"][0])
        ws.send(type="undo", seat=seat, version=ws.view["version"], id="u1")
        next_of(ws, "accepted")
        ws.send(type="chat", text="good luck")
        next_of(ws, "chat")
        play_seats(http, game, tokens, until=lambda v: v["phase"] == "place" and v["to_move"] in (0, 1))
        ws.until(lambda v: v["phase"] == "place")
        out.append(
            (
                "GameStatus",
                got(http.post(f"/api/games/{game}/resign", json={"seat": 1}, headers=bearer(tokens[1]))),
            )
        )
        ws.until(lambda v: v["seats"][1]["forfeited"])
        out.append(("View", play_seats(http, game, {0: tokens[0]})))  # a result with a forfeit
    finally:
        ws.close()
    out += [("ServerMessage", m) for m in ws.received]
    return out


def account_payloads(server: Server) -> list[Payload]:
    """An account plays a rated game against a bot and the day's challenge, then asks the
    winner of the first for a rematch: its account, games, ratings, profile, the
    leaderboard, the daily challenge and the rematch."""
    name = f"u{secrets.token_hex(4)}"
    with httpx.Client(base_url=server.url, timeout=30, headers=CLIENT) as me:
        out: list[Payload] = [
            ("Me", got(me.post("/api/accounts", json={"username": name, "password": GOOD_PASSWORD})))
        ]
        spec = {
            "players": 2,
            "take": [0],
            "name": name,
            "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}],
        }
        created = got(me.post("/api/me/games", json=spec))
        game = created["game"]
        out += [("Created", created), ("MyGames", got(me.get("/api/me/games")))]
        out.append(("View", play_seats(me, game, tokens_of(created))))
        out.append(("GameRatings", got(me.get(f"/api/games/{game}/ratings"))))
        out.append(
            (
                "{ mode: string; players: RatedPlayer[] }",
                got(me.get("/api/leaderboard?mode=classic&limit=20")),
            )
        )
        out.append(("PlayerProfile", got(me.get(f"/api/players/{name}"))))
        out.append(("{ game: string; rematch: string | null }", got(me.get(f"/api/games/{game}/rematch"))))
        token = tokens_of(created)[0]
        ws = Client(server.ws_url(game), tokens=[token])
        try:
            out.append(("RematchReply", got(me.post(f"/api/games/{game}/rematch", json={"tokens": [token]}))))
            next_of(ws, "rematch")
        finally:
            ws.close()
        out += [("ServerMessage", m) for m in ws.received]
        out.append(("{ game: string; rematch: string | null }", got(me.get(f"/api/games/{game}/rematch"))))
        out.append(("Daily", got(me.get("/api/daily"))))
        daily = got(me.post("/api/daily/games", json={"name": name}))
        out.append(("DailyStart", daily))
        out.append(("View", play_seats(me, daily["game"], tokens_of(daily))))
        out += [
            ("Daily", got(me.get("/api/daily"))),
            ("Daily", got(me.get(f"/api/games/{daily['game']}/daily"))),
        ]
        out += [
            ("MyGames", got(me.get("/api/me/games"))),
            ("PlayerProfile", got(me.get(f"/api/players/{name}"))),
        ]
        out.append(("Me", got(me.get("/api/me"))))
    return out


def typescript(payloads: list[Payload]) -> str:
    """A module assigning each payload, as an object literal, to a constant of its type."""
    lines = [
        f"import type {{ {', '.join(names)} }} from {json.dumps(str(WEB / 'src' / module))};"
        for module, names in IMPORTS.items()
    ]
    lines += [f"export const p{i}: {kind} = {json.dumps(value)};" for i, (kind, value) in enumerate(payloads)]
    return "\n".join(lines) + "\n"


def keys(value: Any) -> set[str]:
    """Every object key anywhere in a JSON value."""
    if isinstance(value, dict):
        return set(value).union(*(keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(keys(v) for v in value))
    return set()


#: The properties of an interface or object type in TypeScript source: ``name?:`` at the
#: start of a line or after ``{``/``;``, comments removed.
_PROPERTY = re.compile(r"(?:^|[{;])\s*(\w+)\??:", re.M)
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


#: An interface (to its closing brace at the start of a line) or a type alias (to its ``;``).
_TYPES = re.compile(r"^export (?:interface \w+[^{]*\{.*?^\}|type \w+ =.*?;$)", re.S | re.M)


def declared(source: str) -> set[str]:
    """The property names declared by the interfaces and type aliases of a TypeScript module."""
    code = _COMMENTS.sub("", source)
    return {name for block in _TYPES.findall(code) for name in _PROPERTY.findall(block)}


#: A tsc error: line, column and message.
_ERROR = re.compile(r"\((\d+),(\d+)\): error (TS\d+: .*)")


def where(lines: list[str], row: int, col: int) -> str:
    """Where a tsc error points: the payload's constant and type, and the text around it."""
    line = lines[row - 1]
    return f"{line.split(' = ')[0]} …{line[max(0, col - 100) : col + 30]}…: "


@pytest.fixture(scope="module")
def payloads(server: Server) -> list[Payload]:
    with httpx.Client(base_url=server.url, timeout=60, headers=CLIENT) as http:
        out: list[Payload] = [("TileInfo[]", got(http.get("/api/tiles")))]
        out += finished_game_payloads(http)
        out += table_payloads(server, http)
    return out + account_payloads(server)


def test_every_served_payload_fits_the_clients_types(payloads: list[Payload], tmp_path: Path) -> None:
    need(TSC.is_file() and shutil.which("node") is not None, "node and web/node_modules are needed")
    kinds = {kind for kind, _ in payloads}
    assert {"View", "ServerMessage", "ReviewReply", "Daily", "GameRatings"} <= kinds
    sent = {m["type"] for kind, m in payloads if kind == "ServerMessage"}
    assert sent == {"welcome", "state", "accepted", "error", "pong", "chat", "rematch"}, sent
    check = tmp_path / "payloads.ts"
    check.write_text(typescript(payloads), encoding="utf-8")
    config = {"extends": str(WEB / "tsconfig.json"), "compilerOptions": {"types": []}, "files": [str(check)]}
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    run = subprocess.run(
        [str(TSC), "--noEmit", "-p", str(tmp_path / "tsconfig.json")],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = check.read_text(encoding="utf-8").splitlines()
    errors = [where(lines, int(row), int(col)) + text for row, col, text in _ERROR.findall(run.stdout)]
    assert run.returncode == 0 and not errors, "\n".join(errors[:40]) or run.stdout + run.stderr


def test_the_client_declares_no_field_the_server_never_sends(payloads: list[Payload]) -> None:
    sent = set().union(*(keys(value) for _, value in payloads))
    for module in IMPORTS:
        never = declared((WEB / "src" / f"{module}.ts").read_text(encoding="utf-8")) - sent
        assert never == set(), f"web/src/{module}.ts declares fields no payload holds: {sorted(never)}"


def test_the_declared_properties_are_found() -> None:
    sample = (
        "export interface A {\n  /** doc: with colon */\n  b?: number;\n  c: { d: string; e?: X };\n}\n"
        'export type F = { g: number } | { h: "x" };\n'
        "export const api = {\n  load: (i: number) => get(i),\n};\n"
    )
    assert declared(sample) == {"b", "c", "d", "e", "g", "h"}
