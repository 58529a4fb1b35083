"""The post-game review: of a finished game (started, then polled) or of a record."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from ..deps import ERROR_RESPONSES, ClientDep, RecordsDep, watched_seats
from ..protocol import RecordBody

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES, tags=["records"])


@router.post("/games/{game_id}/review", dependencies=[Depends(watched_seats)])
async def start_review(game_id: str, client: ClientDep, records: RecordsDep) -> dict[str, Any]:
    """Start the post-game review of a finished game (or follow the one under way, or
    get the stored one): ``{"type": "review", "status": "running", "done", "total"}`` or
    ``"status": "done"`` with ``review``. Poll it at least every 30 s, or it stops."""
    return await records.review(game_id, client, start=True)


@router.get("/games/{game_id}/review", dependencies=[Depends(watched_seats)])
async def review(game_id: str, client: ClientDep, records: RecordsDep) -> dict[str, Any]:
    """The review's progress (``running``), the stored review (``done``), ``failed`` once
    after a failure, or ``none`` (never started: POST to start it)."""
    return await records.review(game_id, client, start=False)


@router.post("/review")
async def review_of_record(body: RecordBody, client: ClientDep, records: RecordsDep) -> dict[str, Any]:
    """Review a record (``"game": null``): starts on the first post, then the same
    replies as a game's review; post the same record again to follow it."""
    return await records.review_of_record(body.record, client)
