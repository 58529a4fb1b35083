"""The post-game review: of a finished game (started, then polled) or of a record."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ..deps import ERROR_RESPONSES, Authorization, ClientDep, GamesDep, RecordsDep
from ..protocol import RecordBody
from .games import seats_or_watch

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES, tags=["records"])


@router.post("/games/{game_id}/review")
async def start_review(
    game_id: str,
    request: Request,
    client: ClientDep,
    service: GamesDep,
    records: RecordsDep,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Start the post-game review of a finished game (or follow the one under way, or
    get the stored one): ``{"type": "review", "status": "running", "done", "total"}`` or
    ``"status": "done"`` with ``review``. Poll it at least every 30 s, or it stops."""
    await seats_or_watch(service, request, game_id, authorization)
    return await records.review(game_id, client, start=True)


@router.get("/games/{game_id}/review")
async def review(
    game_id: str,
    request: Request,
    client: ClientDep,
    service: GamesDep,
    records: RecordsDep,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """The review's progress (``running``), the stored review (``done``), ``failed`` once
    after a failure, or ``none`` (never started: POST to start it)."""
    await seats_or_watch(service, request, game_id, authorization)
    return await records.review(game_id, client, start=False)


@router.post("/review")
async def review_of_record(body: RecordBody, client: ClientDep, records: RecordsDep) -> dict[str, Any]:
    """Review a record (``"game": null``): starts on the first post, then the same
    replies as a game's review; post the same record again to follow it."""
    return await records.review_of_record(body.record, client)
