"""The server itself: liveness, the bot levels, the tile manifest."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ... import __version__
from ...bots import LEVELS
from ..deps import GamesDep
from ..manifest import TILE_TABLE

router = APIRouter(prefix="/api", tags=["server"])


@router.get("/health")
async def health(service: GamesDep) -> dict[str, str | int]:
    """Liveness, the storage backend, and how many games this process has loaded from
    the database since it started (games load on first use, none at start-up)."""
    return {
        "status": "ok",
        "version": __version__,
        "storage": service.store.backend,
        "loaded": service.loads,
    }


@router.get("/levels")
async def levels() -> dict[str, str]:
    """The bot levels a seat may have (the definitions of the terminal game)."""
    return dict(LEVELS)


@router.get("/tiles")
async def tiles() -> list[dict[str, Any]]:
    """The tile manifest: what each tile id of a view's ``state.site`` is, its name and
    its explanation in the players' words (what it is, scores, where it may go)."""
    return TILE_TABLE
