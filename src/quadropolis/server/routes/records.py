"""A game's records: its moves so far, its finished record, a record's replay, and hints
(the analysis of a game's or a record's position)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse

from ..deps import ERROR_RESPONSES, Authorization, ClientDep, GamesDep, RecordsDep, bearer, watched_seats
from ..protocol import MovesSoFar, RecordAt

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES, tags=["records"])


@router.get("/games/{game_id}/moves", dependencies=[Depends(watched_seats)])
async def moves(game_id: str, service: GamesDep) -> MovesSoFar:
    """The moves in effect so far and every accepted action (undone ones included); the
    configuration without its seed."""
    game = await service.game(game_id)
    config = game.config.to_json()
    del config["seed"]
    return MovesSoFar(
        game=game.id,
        status=game.status,
        version=game.version,
        config=config,
        seats=game.seat_names(),
        moves=game.moves(),
        history=[
            {
                "version": a.version,
                "seat": a.seat,
                "kind": a.kind,
                "move": a.move,
                "undone": a.undone,
                "by": a.actor,
                "at": a.created_at,
            }
            for a in game.log
        ],
    )


@router.get("/games/{game_id}/record", dependencies=[Depends(watched_seats)])
async def record(game_id: str, records: RecordsDep) -> JSONResponse:
    """The finished game's ``quadropolis-game/1`` record, seed included (``quadropolis
    replay`` accepts it); ``not_over`` while the game runs."""
    data = await records.record(game_id)
    return JSONResponse(
        data,
        headers={"Content-Disposition": f'attachment; filename="quadropolis-{game_id}.json"'},
    )


@router.post("/replay")
async def replay(body: RecordAt, records: RecordsDep) -> dict[str, Any]:
    """The spectator's view of a record's position after ``at`` moves (``"game": null``,
    never the seed), the number of moves and where each round starts; ``bad_record`` with
    the engine's reason if the record does not replay."""
    return await records.replay(body.record, body.at)


@router.get("/games/{game_id}/analysis", dependencies=[Depends(watched_seats)])
async def analysis(
    game_id: str,
    client: ClientDep,
    records: RecordsDep,
    at: Annotated[int | None, Query(ge=0, le=100_000)] = None,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Hints: the ``hard`` level's search of the position after ``at`` moves in effect
    (default: all). While the game runs: a seat's Bearer token, a table that allows
    analysis, and the current position only; once over: anyone, any position."""
    token = None if authorization is None else bearer(authorization)
    return await records.analysis(game_id, at, token, client)


@router.post("/analysis")
async def analysis_of_record(body: RecordAt, client: ClientDep, records: RecordsDep) -> dict[str, Any]:
    """Hints for the position of a record after ``at`` moves (as the endpoint above)."""
    return await records.analysis_of_record(body.record, body.at, client)
