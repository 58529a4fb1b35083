"""The websocket of live play and watching (the protocol: :mod:`..hub`, docs/protocol.md)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from ..deps import RuntimeDep

router = APIRouter(prefix="/ws")


@router.websocket("/games/{game_id}")
async def play(websocket: WebSocket, game_id: str, rt: RuntimeDep) -> None:
    await rt.hub.serve(websocket, game_id)
