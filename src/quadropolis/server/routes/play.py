"""Playing a seat with its Bearer token: a move, an undo."""

from __future__ import annotations

from fastapi import APIRouter

from ..deps import ERROR_RESPONSES, ActionTokenDep, GamesDep
from ..protocol import ActionDone, ActRequest, UndoRequest

router = APIRouter(prefix="/api/games", responses=ERROR_RESPONSES, tags=["play"])


@router.post("/{game_id}/moves")
async def move(game_id: str, body: ActRequest, token: ActionTokenDep, service: GamesDep) -> ActionDone:
    """Play a move for a seat (its token as Bearer), against the game at ``version``."""
    action = await service.act(game_id, body.seat, token, body.version, body.move)
    return ActionDone(game=game_id, version=action.version, seat=action.seat, kind="move", move=action.move)


@router.post("/{game_id}/undo")
async def undo(game_id: str, body: UndoRequest, token: ActionTokenDep, service: GamesDep) -> ActionDone:
    """Take back the seat's last action, while no one else has acted since."""
    action = await service.undo(game_id, body.seat, token, body.version)
    return ActionDone(game=game_id, version=action.version, seat=action.seat, kind="undo")
