"""Playing a seat with its Bearer token: a move, an undo."""

from __future__ import annotations

from fastapi import APIRouter

from ..deps import ERROR_RESPONSES, Authorization, ClientDep, GamesDep, RatesDep, bearer
from ..protocol import ActionDone, ActRequest, UndoRequest

router = APIRouter(prefix="/api/games", responses=ERROR_RESPONSES, tags=["play"])


@router.post("/{game_id}/moves")
async def move(
    game_id: str,
    body: ActRequest,
    client: ClientDep,
    service: GamesDep,
    rates: RatesDep,
    authorization: Authorization = None,
) -> ActionDone:
    """Play a move for a seat (its token as Bearer), against the game at ``version``."""
    rates.action(client)
    action = await service.act(game_id, body.seat, bearer(authorization), body.version, body.move)
    return ActionDone(game=game_id, version=action.version, seat=action.seat, kind="move", move=action.move)


@router.post("/{game_id}/undo")
async def undo(
    game_id: str,
    body: UndoRequest,
    client: ClientDep,
    service: GamesDep,
    rates: RatesDep,
    authorization: Authorization = None,
) -> ActionDone:
    """Take back the seat's last action, while no one else has acted since."""
    rates.action(client)
    action = await service.undo(game_id, body.seat, bearer(authorization), body.version)
    return ActionDone(game=game_id, version=action.version, seat=action.seat, kind="undo")
