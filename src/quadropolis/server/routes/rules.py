"""``GET /rules``: the rules page of the client's build (docs/rules.md and docs/tiles.md
rendered by web/build/rules.ts), one anchor per ruling (``/rules#r8``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ..errors import NotFound


def rules_router(static: Path) -> APIRouter:
    """The router of the rules page of the client's build in ``static``."""
    router = APIRouter(prefix="/rules", include_in_schema=False)

    @router.get("")
    async def rules() -> FileResponse:
        page = static / "rules.html"
        if not page.is_file():
            raise NotFound("this server has no browser client, so no rules page: see docs/rules.md")
        return FileResponse(page, media_type="text/html; charset=utf-8")

    return router
