"""The HTTP and websocket transport (FastAPI): a thin layer over the game service. This module
builds the application: the lifespan (storage migrated, services and bots started, wired in
one :class:`~.deps.Runtime` on ``app.state``), the middleware and the error handlers; the
routes are ``APIRouter`` modules, the core's in :mod:`.routes` (their table is its module
doc) and each feature's in its folder (:mod:`.accounts.routes`, :mod:`.social.routes`,
:mod:`.ratings.routes`), with what they depend on in :mod:`.deps`. The OpenAPI description
is served at ``/openapi.json``; no Swagger UI is served, so no third-party script ever runs
on this origin, where the client keeps its seat tokens.

Every error is ``{"type": "error", "code", "message"}`` with the status of its code. The
static directory (the browser client) is served at ``/`` when present. Request bodies are
limited in size (:class:`BodyLimit`); every response carries strict security headers, and
actions are rate-limited per client address (:mod:`.edges`)."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from .accounts import routes as accounts_routes
from .accounts.service import AccountService, SignupLimits
from .accounts.storage import AccountStore
from .bot_pool import BotPool
from .broker import make_broker
from .deps import Runtime
from .edges import RateLimits, SecurityHeaders
from .env import Env
from .errors import BadMessage, InternalError, RateLimited, ServerError, TooLarge
from .hub import Hub
from .protocol import ErrorBody
from .ratings import routes as ratings_routes
from .ratings.service import RatingService
from .ratings.storage import RatingStore
from .routes import games, info, live, play, records, review
from .routes.rules import rules_router
from .service import GameService
from .settings import Limits, Settings
from .social import routes as social_routes
from .social.chat import TableChat
from .social.daily import DailyService
from .social.rematch import RematchService
from .social.storage import SocialStore
from .storage import Store

log = logging.getLogger("quadropolis.server")

STATIC = Path(__file__).resolve().parent / "static"

#: The cyclic garbage collector's thresholds while serving (CPython's: 700, 10, 10). A busy
#: server keeps its connections' objects (coroutines, futures, timers, parsers: a thousand
#: connections under the bench's abuse load) and each game's next state alive for seconds.
#: With the default thresholds those reached the oldest generation within a second, so it
#: filled up and was collected whole about every 10 s: about 140,000 objects, a pause of
#: 120-160 ms for every game. Young collections every 5,000 new objects (about 12 ms each)
#: and middle ones every 50 of those let most of them die first: full collections become
#: rare, and the collector's time shrinks to a third (docs/server.md, Server figures).
GC_THRESHOLDS = (5_000, 50, 10)


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """ASGI middleware refusing HTTP request bodies over ``limit`` bytes (``too_large``),
    whether announced by Content-Length or streamed (chunked).

    A streamed body is read here, before the application sees it, and handed on whole: an
    error raised while FastAPI reads the body would be turned into its own 400. The limit
    is small, so holding the body costs no more than the application would."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _send_error(send, TooLarge(f"request body over {self.limit} bytes"))
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before sending its whole body: no one to answer
            chunk: bytes = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await _send_error(send, TooLarge(f"request body over {self.limit} bytes"))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        given = False

        async def replay() -> MutableMapping[str, Any]:
            """The whole body once, then the client's own events (its disconnection)."""
            nonlocal given
            if given:
                return await receive()
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def _send_error(send: Send, error: ServerError) -> None:
    body = ErrorBody.of(error).model_dump_json(exclude_none=True).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _start_ratings(
    store: Store, service: GameService, accounts: AccountStore, limits: Limits
) -> RatingService:
    """The ratings, settling finished games from now on (and the backlog)."""
    ratings = RatingService(RatingStore(store.engine, limits.rated_history), service, accounts)
    await ratings.start()
    return ratings


@asynccontextmanager
async def _runtime(settings: Settings) -> AsyncIterator[Runtime]:
    """Storage migrated, bots and the game service started (resuming every unfinished game),
    the features wired to it: the runtime the routes use, closed when the server stops."""
    store = Store(settings.database, sqlite_sync=settings.sqlite_sync)
    await asyncio.to_thread(store.upgrade)
    bots = BotPool(settings.limits.bot_workers, settings.limits.bot_queue)
    await bots.start()
    env = Env.build(store, make_broker(settings.redis), bots, settings.limits, settings.sweep_seconds)
    service = env.service
    account_store = AccountStore(store.engine)
    signups = SignupLimits(settings.limits.signups_per_hour, settings.limits.signups_per_day)
    accounts = AccountService(account_store, service, signups=signups)
    social = SocialStore(store.engine)
    chat = TableChat(social, settings.limits, service.clock)
    hub = Hub(service, settings.limits, chat, accounts, env.audience)
    await env.start()
    daily = DailyService(social, service, account_store, settings.daily_formats)
    rematches = RematchService(social, service, hub.offer_rematch)
    ratings = await _start_ratings(store, service, account_store, settings.limits)
    log.info("serving with %s storage%s", store.backend, " and redis" if settings.redis else "")
    try:
        yield Runtime(
            service, hub, RateLimits(settings.limits), accounts, daily, rematches, ratings, env.records
        )
    finally:
        await hub.close()
        await ratings.close()
        await env.close()
        accounts.close()
        bots.close()
        store.close()


def create_app(settings: Settings) -> FastAPI:
    """The server application: storage migrated, games resumed and bots started during its
    lifespan (so a restart resumes every unfinished game before serving)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with _runtime(settings) as runtime:
            app.state.runtime = runtime
            # Everything built so far (modules, schemas, resumed games) lives as long as the
            # server: keep it out of the collector's full scans, which would otherwise pause
            # every game for tens of milliseconds.
            gc.freeze()
            thresholds = gc.get_threshold()
            gc.set_threshold(*GC_THRESHOLDS)
            try:
                yield
            finally:
                gc.set_threshold(*thresholds)  # an embedding process gets its own back

    app = FastAPI(
        title="Quadropolis server",
        version=__version__,
        description="The authoritative game server for Quadropolis: lobby, games, moves, records. "
        "Live play uses the websocket /ws/games/{id}; its messages are listed in docs/protocol.md.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.add_middleware(BodyLimit, limit=settings.limits.max_body_bytes)
    app.add_middleware(SecurityHeaders)  # outermost: also on BodyLimit's own errors
    _error_handlers(app)
    _include_routers(app, settings.static or STATIC)
    return app


def _include_routers(app: FastAPI, static: Path) -> None:
    """Every route, by area: the core's (:mod:`.routes`), then the features'; the browser
    client's files at ``/`` last, when there are some."""
    for router in (info.router, games.router, play.router, records.router, review.router):
        app.include_router(router)
    app.include_router(accounts_routes.router)  # accounts and "My games"
    app.include_router(social_routes.router)  # the daily challenge and rematches
    app.include_router(ratings_routes.router)  # ratings, leaderboards, profiles
    app.include_router(live.router)  # the websocket of live play
    app.include_router(rules_router(static))
    if static.is_dir():
        app.mount("/", StaticFiles(directory=static, html=True), name="static")


def _error_handlers(app: FastAPI) -> None:
    def reply(error: ServerError) -> JSONResponse:
        wait = error.retry_after if isinstance(error, RateLimited) else None
        return JSONResponse(
            ErrorBody.of(error).model_dump(exclude_none=True),
            status_code=error.status,
            headers=None if wait is None else {"Retry-After": str(wait)},
        )

    async def on_server_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ServerError)
        return reply(exc)

    async def on_invalid(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return reply(BadMessage(f"{where}: {first.get('msg')}"))

    async def on_http(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = {404: "not_found", 405: "bad_message"}.get(exc.status_code, "bad_message")
        return JSONResponse(
            ErrorBody(code=code, message=str(exc.detail)).model_dump(exclude_none=True),
            status_code=exc.status_code,
        )

    async def on_fault(_request: Request, exc: Exception) -> JSONResponse:
        log.error("internal error", exc_info=exc)
        return reply(InternalError("internal error"))

    app.add_exception_handler(ServerError, on_server_error)
    app.add_exception_handler(Exception, on_fault)
    app.add_exception_handler(RequestValidationError, on_invalid)
    app.add_exception_handler(StarletteHTTPException, on_http)
