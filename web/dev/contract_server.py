"""A development server for the browser client: the real ``quadropolis serve`` plus a
reference implementation of the server features the client asks for and the server does
not have yet (see the client's report / web/README.md, "Server contracts"):

* view fields: ``analysis`` (bool), ``build_options`` ([{"move", "score"}]), ``slots``
  ({slot: {"seat", "architect"}}), ``scores[i].placement`` (CityScore.placement JSON) and, once
  over, ``result.placements`` and ``result.decided_by``;
* ``POST /api/replay`` {"record", "at"} -> {"type": "replay", "at", "moves", "rounds", "view"};
* ``GET /api/games/{id}/analysis?at=N`` and ``POST /api/analysis`` {"record", "at"}.

It monkeypatches the server at import time; it is for developing and checking the client
only, never for production, and never used by the test suite (the tests run the real server).

    .venv/bin/python web/dev/contract_server.py --port 8000 --database sqlite:////tmp/dev.sqlite3
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import JSONResponse

from quadropolis.bots import make_bot
from quadropolis.bots.analysis import analyse, analysis_seed
from quadropolis.config import GameConfig
from quadropolis.moves import Move
from quadropolis.outcome import outcome, projected_score
from quadropolis.record import GameRecord, result_json, seat_label
from quadropolis.rules import apply_unchecked, describe_move, explain_illegal, legal_moves, new_game
from quadropolis.server import app as app_module
from quadropolis.server import views
from quadropolis.state import GameState

_original_public = views._public


def _slots(steps: list[tuple[int, Move]], used: list[str]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    wanted = set(used)
    for seat, move in reversed(steps):
        text = str(move)
        if len(text) == 3 and text[0].isdigit() and text[1:] in wanted and text[1:] not in out:
            out[text[1:]] = {"seat": seat, "architect": int(text[0])}
    return out


def _decided_by(result: dict[str, Any]) -> str:
    scores, inh, empty = result["scores"], result["inhabitants_placed"], result["empty_squares"]
    top = max(scores)
    tied = [i for i, s in enumerate(scores) if s == top]
    if len(tied) == 1:
        return "score"
    if len(result["winners"]) > 1:
        return "shared"
    best = max(inh[i] for i in tied)
    return "inhabitants_placed" if sum(1 for i in tied if inh[i] == best) == 1 else "empty_squares"


def extras(state: GameState, steps: list[tuple[int, Move]], body: dict[str, Any]) -> dict[str, Any]:
    geo = state.geometry
    body["analysis"] = True
    body["slots"] = _slots(steps, body["state"]["slots_used"])
    for p, score in enumerate(body["scores"]):
        score["placement"] = projected_score(state, p).placement.to_json(geo)
    options = []
    if not state.is_over and body["phase"] == "place":
        for m in legal_moves(state):
            if str(m) == "discard":
                continue
            after = state.copy()
            apply_unchecked(after, m)
            options.append({"move": str(m), "score": projected_score(after, state.current_player).total})
    body["build_options"] = options
    if body.get("result"):
        body["result"] = {**body["result"], "placements": [s["placement"] for s in body["scores"]]}
        body["result"]["decided_by"] = _decided_by(body["result"])
    return body


def _public(game: Any, presence: Any, score: Any) -> dict[str, Any]:
    body = dict(_original_public(game, presence, score))
    body["scores"] = [dict(s) for s in body["scores"]]
    return extras(game.state, [(s.seat, s.move) for s in game.steps], body)


views._public = _public


def replay_view(record: GameRecord, at: int) -> dict[str, Any]:
    state = new_game(record.config)
    steps: list[tuple[int, Move]] = []
    texts: list[dict[str, Any]] = []
    rounds: list[dict[str, int]] = [{"round": 1, "at": 0}]
    for i, text in enumerate(record.moves[:at]):
        move = Move.parse(text)
        reason = explain_illegal(state, move)
        if reason is not None:
            raise ValueError(f"move {i + 1} ({text}): illegal: {reason}")
        seat = state.current_player
        words = describe_move(state, move).partition(": ")[2].replace("_", " ")
        apply_unchecked(state, move)
        steps.append((seat, move))
        texts.append({"version": i + 1, "seat": seat, "kind": "move", "move": text, "text": words,
                      "by": "player", "undone": False})
    # Where each round starts (replayed to the end, for the round buttons).
    probe = new_game(record.config)
    for i, text in enumerate(record.moves):
        apply_unchecked(probe, Move.parse(text))
        if not probe.is_over and probe.round != rounds[-1]["round"]:
            rounds.append({"round": probe.round, "at": i + 1})
    body = state.to_json()
    del body["config"], body["format"]
    seats = record.seats or tuple("human" for _ in range(record.config.players))
    config = record.config.to_json()
    del config["seed"]
    over = state.is_over
    result = outcome(state)
    view = {
        "game": None, "version": at, "status": "over" if over else "playing", "config": config,
        "seats": [{"seat": i, "kind": "human" if s.startswith("human") else "bot",
                   "level": None if s.startswith("human") else s, "name": seat_label(s), "open": False,
                   "present": False, "bot_playing": False} for i, s in enumerate(seats)],
        "to_move": None if over else state.current_player, "phase": body["phase"], "round": state.round,
        "turn": state.turn, "state": body, "legal_moves": [] if over else [str(m) for m in legal_moves(state)],
        "scores": [views._score(s) for s in (result.scores if over else
                                            [projected_score(state, p) for p in range(record.config.players)])],
        "last_actions": texts[-12:], "result": result_json(result) if over else None,
    }
    return {"type": "replay", "at": at, "moves": len(record.moves), "rounds": rounds,
            "view": extras(state, steps, view)}


def _analysis(record: GameRecord, at: int, game: str | None) -> dict[str, Any]:
    state = new_game(record.config)
    for text in record.moves[:at]:
        apply_unchecked(state, Move.parse(text))
    bot = make_bot("hard", workers=1)
    result = analyse(state, bot, analysis_seed(at, game or ""), top=5)  # type: ignore[arg-type]
    return {"type": "analysis", "game": game, "at": at, **result.to_json()}


router = APIRouter()


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


@router.post("/api/replay")
async def replay(body: dict[str, Any]) -> Any:
    try:
        record = GameRecord.from_json(body.get("record"))
        at = body.get("at", len(record.moves))
        if not isinstance(at, int) or not 0 <= at <= len(record.moves):
            return _error(400, "bad_message", f"at must be between 0 and {len(record.moves)}")
        return await asyncio.to_thread(replay_view, record, at)
    except Exception as e:  # noqa: BLE001 - a development tool
        return _error(422, "bad_record", str(e))


@router.post("/api/analysis")
async def analysis_of_record(body: dict[str, Any]) -> Any:
    try:
        record = GameRecord.from_json(body.get("record"))
        at = body.get("at", len(record.moves))
        return await asyncio.to_thread(_analysis, record, at, None)
    except Exception as e:  # noqa: BLE001
        return _error(422, "bad_record", str(e))


def install(app: Any) -> None:
    runtime_service = None

    @router.get("/api/games/{game_id}/analysis")
    async def analysis(game_id: str, at: int | None = Query(default=None),
                       authorization: str | None = Header(default=None)) -> Any:
        nonlocal runtime_service
        service = app.state.quadropolis_service
        game = await service.game(game_id)
        if game.status != "over":
            if authorization is None:
                return _error(403, "forbidden", "this needs the seat's token")
            await service.authenticate(game_id, [authorization.partition(" ")[2]])
        record = GameRecord(game.config, tuple(game.moves()))
        n = len(record.moves) if at is None else at
        if not 0 <= n <= len(record.moves):
            return _error(400, "bad_message", "at out of range")
        return await asyncio.to_thread(_analysis, record, n, game_id)

    app.router.routes[0:0] = router.routes


_original_create_app = app_module.create_app


def create_app(settings: Any) -> Any:
    app = _original_create_app(settings)
    original_lifespan = app.router.lifespan_context

    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(a: Any) -> Any:
        async with original_lifespan(a) as value:
            # The service lives in the app's closure: find it through a route's endpoint.
            for route in a.router.routes:
                endpoint = getattr(route, "endpoint", None)
                cells = getattr(endpoint, "__closure__", None) or ()
                for cell in cells:
                    holder = cell.cell_contents
                    if callable(holder) and getattr(holder, "__name__", "") == "runtime":
                        a.state.quadropolis_service = holder().service
                        break
            yield value

    app.router.lifespan_context = lifespan
    install(app)
    return app


app_module.create_app = create_app

if __name__ == "__main__":
    from quadropolis.server.command import main

    sys.exit(main(sys.argv[1:]))
