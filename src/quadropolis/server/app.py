"""The HTTP and websocket transport (FastAPI): a thin layer over the game service.

HTTP (JSON; the OpenAPI description is served at ``/openapi.json``; no Swagger UI is served,
so no third-party script ever runs on this origin, where the client keeps its seat tokens):

======  =====================================  ==============================================
GET     ``/api/health``                        liveness, and the storage backend
GET     ``/api/levels``                        the bot levels and what each is
GET     ``/api/tiles``                         the tile manifest (ids of ``state.site``)
POST    ``/api/games``                         create a game (body :class:`CreateGame`)
GET     ``/api/games?status=waiting|playing|over``  the lobby (default), running or finished games
GET     ``/api/games/{id}``                    the game's view (a seat's with a Bearer token)
DELETE  ``/api/games/{id}``                    cancel a waiting game (Bearer token of the creator's seat)
POST    ``/api/games/{id}/seats/{seat}``       join an open seat: returns its token
POST    ``/api/games/{id}/leave``              leave a waiting game (Bearer token of the seat)
POST    ``/api/games/{id}/resign``             resign a running game (Bearer token of the seat)
POST    ``/api/games/{id}/moves``              play a move (Bearer token of the seat)
POST    ``/api/games/{id}/undo``               undo (Bearer token of the seat)
GET     ``/api/games/{id}/moves``              moves so far and the whole history, no seed
GET     ``/api/games/{id}/record``             the ``quadropolis-game/1`` record, once over
GET     ``/api/games/{id}/analysis?at=N``      hints: the ``hard`` level's search of a position
POST    ``/api/replay``                        the view of a record after N moves
POST    ``/api/analysis``                      hints for a position of a record
POST    ``/api/games/{id}/review``             start the post-game review of a finished game
GET     ``/api/games/{id}/review``             its progress, or the stored review (poll)
POST    ``/api/review``                        review a record (post it again to poll)
WS      ``/ws/games/{id}``                     live play and watching (:mod:`.hub`)
GET     ``/rules``                             the rules page (HTML; ``/rules#r8``: ruling R8)
======  =====================================  ==============================================

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
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..bots import LEVELS
from .accounts.routes import router as accounts_router
from .accounts.service import AccountService, SignupLimits
from .accounts.storage import AccountStore
from .bot_pool import BotPool
from .broker import make_broker
from .data import OVER, PLAYING, WAITING, Credential, GameSummary
from .edges import RateLimits, SecurityHeaders, client_key
from .errors import (
    BadMessage,
    Forbidden,
    InternalError,
    NotFound,
    RateLimited,
    ServerError,
    TooLarge,
)
from .hub import Hub
from .manifest import TILE_TABLE
from .protocol import (
    ActionDone,
    ActRequest,
    Created,
    CreateGame,
    ErrorBody,
    GameList,
    GameListEntry,
    GameStatus,
    Invite,
    JoinSeat,
    MovesSoFar,
    RecordAt,
    RecordBody,
    SeatPass,
    SeatRequest,
    SeatSummary,
    UndoRequest,
)
from .ratings.routes import router as ratings_router
from .ratings.service import RatingService
from .ratings.storage import RatingStore
from .service import GameService, Viewer
from .settings import Limits, Settings
from .social.daily import DailyService
from .social.rematch import RematchService
from .social.routes import Social, maybe_account
from .social.routes import router as social_router
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
#: rare, and the collector's time shrinks to a third (README, Server figures).
GC_THRESHOLDS = (5_000, 50, 10)


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 403, 404, 409, 413, 422, 429, 500, 503)
}


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


@dataclass
class Runtime:
    """What the lifespan builds and the endpoints use."""

    service: GameService
    hub: Hub
    rates: RateLimits


async def _start_ratings(
    store: Store, service: GameService, accounts: AccountStore, limits: Limits
) -> RatingService:
    """The ratings, settling finished games from now on (and the backlog)."""
    ratings = RatingService(RatingStore(store.engine, limits.rated_history), service, accounts)
    await ratings.start()
    return ratings


def create_app(settings: Settings) -> FastAPI:
    """The server application: storage migrated, games resumed and bots started during its
    lifespan (so a restart resumes every unfinished game before serving)."""
    holder: dict[str, Runtime] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database, sqlite_sync=settings.sqlite_sync)
        await asyncio.to_thread(store.upgrade)
        bots = BotPool(settings.limits.bot_workers, settings.limits.bot_queue)
        await bots.start()
        service = GameService(
            store, make_broker(settings.redis), bots, settings.limits, sweep_seconds=settings.sweep_seconds
        )
        account_store = AccountStore(store.engine)
        signups = SignupLimits(settings.limits.signups_per_hour, settings.limits.signups_per_day)
        accounts = AccountService(account_store, service, signups=signups)  # issue 23
        social = SocialStore(store.engine)
        hub = Hub(service, settings.limits, social, accounts)
        await service.start()
        holder["runtime"] = Runtime(service, hub, RateLimits(settings.limits))
        _app.state.accounts = accounts
        _app.state.rates = holder["runtime"].rates  # the account routes' per-address limits
        _app.state.social = Social(  # the daily challenge and rematches (issue 23 items 6-7)
            DailyService(social, service, account_store, settings.daily_formats),
            RematchService(social, service, hub.offer_rematch),
            holder["runtime"].rates,
        )
        _app.state.ratings = ratings = await _start_ratings(store, service, account_store, settings.limits)
        # Everything built so far (modules, schemas, resumed games) lives as long as the
        # server: keep it out of the collector's full scans, which would otherwise pause
        # every game for tens of milliseconds.
        gc.freeze()
        thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        log.info("serving with %s storage%s", store.backend, " and redis" if settings.redis else "")
        try:
            yield
        finally:
            gc.set_threshold(*thresholds)  # an embedding process gets its own back
            await hub.close()
            await ratings.close()
            await service.close()
            _app.state.accounts.close()
            bots.close()
            store.close()

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

    def runtime() -> Runtime:
        return holder["runtime"]

    _routes(app, runtime)
    app.include_router(accounts_router)  # accounts and "My games" (issue 23): .accounts_routes
    app.include_router(social_router)  # the daily challenge and rematches: .social_routes
    app.include_router(ratings_router)  # ratings, leaderboards, profiles (issue 23): .ratings_routes

    @app.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str) -> None:
        await runtime().hub.serve(websocket, game_id)

    static = settings.static or STATIC
    _rules_route(app, static)
    if static.is_dir():
        app.mount("/", StaticFiles(directory=static, html=True), name="static")
    return app


def _rules_route(app: FastAPI, static: Path) -> None:
    """``GET /rules``: the rules page of the client's build (docs/rules.md and docs/tiles.md
    rendered by web/build/rules.ts), one anchor per ruling (``/rules#r8``)."""

    @app.get("/rules", include_in_schema=False)
    async def rules() -> FileResponse:
        page = static / "rules.html"
        if not page.is_file():
            raise NotFound("this server has no browser client, so no rules page: see docs/rules.md")
        return FileResponse(page, media_type="text/html; charset=utf-8")


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


def _bearer(authorization: str | None) -> str:
    if authorization is None:
        raise Forbidden("this needs the seat's token: Authorization: Bearer TOKEN")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Forbidden("this needs the seat's token: Authorization: Bearer TOKEN")
    return token.strip()


def _client(request: Request) -> str:
    """The client's key (its address; an IPv6 one's /64): the quota and limits count on it."""
    return client_key(request.client.host if request.client is not None else None)


def _entry(s: GameSummary) -> GameListEntry:
    config = {k: v for k, v in s.config.items() if k != "seed"}
    return GameListEntry(
        game=s.id,
        status=s.status,
        config=config,
        seats=[
            SeatSummary(
                seat=x.seat,
                kind=x.kind,
                level=x.level,
                name=x.name,
                open=x.kind == "human" and x.token_hash is None,
            )
            for x in s.seats
        ],
        created_at=s.created_at,
        finished_at=s.finished_at,
        result=s.result,
    )


def _viewer(request: Request) -> Viewer:
    """The id of the account of the request's session (``None``: a guest), looked up only if
    asked for."""

    async def account() -> int | None:
        found = await maybe_account(request)
        return None if found is None else found.id

    return account


async def _seats_or_watch(
    service: GameService, request: Request, game_id: str, authorization: str | None
) -> dict[int, Credential]:
    """The seats of ``game_id`` the Bearer token holds (``forbidden`` if it holds none);
    without one, the caller must be allowed to watch the game (the daily challenge hides its
    day's games: :meth:`GameService.check_watch`). ``not_found`` if there is no such game."""
    await service.game(game_id)
    if authorization is not None:
        return dict(await service.authenticate(game_id, [_bearer(authorization)]))
    await service.check_watch(game_id, _viewer(request))
    return {}


def seat_link(game_id: str, seat: int, token: str) -> str:
    """The private link of a seat (the token in the fragment: browsers never send it)."""
    return f"/?game={game_id}&seat={seat}#token={token}"


def _routes(app: FastAPI, runtime: Callable[[], Runtime]) -> None:
    _server_routes(app, runtime)
    _game_routes(app, runtime)
    _play_routes(app, runtime)
    _lifecycle_routes(app, runtime)
    _record_routes(app, runtime)
    _review_routes(app, runtime)


def _server_routes(app: FastAPI, runtime: Callable[[], Runtime]) -> None:
    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, str | int]:
        """Liveness, the storage backend, and how many games this process has loaded from
        the database since it started (games load on first use, none at start-up)."""
        service = runtime().service
        return {
            "status": "ok",
            "version": __version__,
            "storage": service.store.backend,
            "loaded": service.loads,
        }

    @app.get("/api/levels", tags=["server"])
    async def levels() -> dict[str, str]:
        """The bot levels a seat may have (the definitions of the terminal game)."""
        return dict(LEVELS)

    @app.get("/api/tiles", tags=["server"])
    async def tiles() -> list[dict[str, Any]]:
        """The tile manifest: what each tile id of a view's ``state.site`` is, its name and
        its explanation in the players' words (what it is, scores, where it may go)."""
        return TILE_TABLE


def _game_routes(app: FastAPI, runtime: Callable[[], Runtime]) -> None:
    @app.post("/api/games", status_code=201, responses=ERROR_RESPONSES, tags=["games"])
    async def create_game(spec: CreateGame, request: Request) -> Created:
        """Create a game. The creator receives a private pass for each seat taken, and an
        invite link for each seat left open."""
        client = _client(request)
        runtime().rates.create(client)
        new = await runtime().service.create(spec, client)
        return Created(
            game=new.game,
            seats=[
                SeatPass(seat=s, token=t, link=seat_link(new.game, s, t))
                for s, t in sorted(new.tokens.items())
            ],
            invites=[Invite(seat=s, link=f"/?game={new.game}&join={s}") for s in new.invites],
            watch=f"/?game={new.game}",
            websocket=f"/ws/games/{new.game}",
        )

    @app.get("/api/games", responses=ERROR_RESPONSES, tags=["games"])
    async def list_games(
        status: Annotated[str, Query(pattern="^(waiting|playing|over)$")] = WAITING,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> GameList:
        """Public games waiting for players (the lobby, oldest first), running ones to watch
        (newest first), or finished ones (newest first)."""
        chosen = {OVER: OVER, PLAYING: PLAYING}.get(status, WAITING)
        found = await runtime().service.summaries(chosen, limit, offset)
        return GameList(games=[_entry(s) for s in found])

    @app.get("/api/games/{game_id}", responses=ERROR_RESPONSES, tags=["games"])
    async def game_view(
        game_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The game as a spectator sees it, or as a seat's player with its Bearer token."""
        service = runtime().service
        game = await service.game(game_id)
        return service.view(game, await _seats_or_watch(service, request, game_id, authorization))

    @app.post("/api/games/{game_id}/seats/{seat}", responses=ERROR_RESPONSES, tags=["games"])
    async def join(game_id: str, seat: int, body: JoinSeat, request: Request) -> SeatPass:
        """Take an open seat: the reply's token is the seat's (keep it private)."""
        runtime().rates.create(_client(request))
        token = await runtime().service.join(game_id, seat, body.name)
        return SeatPass(seat=seat, token=token, link=seat_link(game_id, seat, token))


def _play_routes(app: FastAPI, runtime: Callable[[], Runtime]) -> None:
    @app.post("/api/games/{game_id}/moves", responses=ERROR_RESPONSES, tags=["play"])
    async def move(
        game_id: str,
        body: ActRequest,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> ActionDone:
        """Play a move for a seat (its token as Bearer), against the game at ``version``."""
        runtime().rates.action(_client(request))
        action = await runtime().service.act(
            game_id, body.seat, _bearer(authorization), body.version, body.move
        )
        return ActionDone(
            game=game_id, version=action.version, seat=action.seat, kind="move", move=action.move
        )

    @app.post("/api/games/{game_id}/undo", responses=ERROR_RESPONSES, tags=["play"])
    async def undo(
        game_id: str,
        body: UndoRequest,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> ActionDone:
        """Take back the seat's last action, while no one else has acted since."""
        runtime().rates.action(_client(request))
        action = await runtime().service.undo(game_id, body.seat, _bearer(authorization), body.version)
        return ActionDone(game=game_id, version=action.version, seat=action.seat, kind="undo")


def _lifecycle_routes(app: FastAPI, runtime: Callable[[], Runtime]) -> None:
    @app.delete("/api/games/{game_id}", responses=ERROR_RESPONSES, tags=["games"])
    async def cancel(
        game_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> GameStatus:
        """Cancel a game still waiting for players (the Bearer token of a seat its creator
        took): it leaves the lobby, status ``cancelled``. ``game_started`` once it has started."""
        runtime().rates.action(_client(request))
        await runtime().service.cancel(game_id, _bearer(authorization))
        return GameStatus(game=game_id, status="cancelled")

    @app.post("/api/games/{game_id}/leave", responses=ERROR_RESPONSES, tags=["games"])
    async def leave(
        game_id: str,
        body: SeatRequest,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> GameStatus:
        """Leave a game still waiting for players: the seat (its token as Bearer) is open
        again and the token holds nothing any more."""
        runtime().rates.action(_client(request))
        service = runtime().service
        await service.leave(game_id, body.seat, _bearer(authorization))
        return GameStatus(game=game_id, status=(await service.game(game_id)).status)

    @app.post("/api/games/{game_id}/resign", responses=ERROR_RESPONSES, tags=["games"])
    async def resign(
        game_id: str,
        body: SeatRequest,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> GameStatus:
        """Resign a running game, a forfeit: the resigner is placed last. A game of 2 players,
        or one where no person holds a seat any more, ends at once (``over``); otherwise a bot
        plays the seat to the end (the table's takeover level if it allows takeover, else the
        weakest level) and the others play on."""
        runtime().rates.action(_client(request))
        status = await runtime().service.resign(game_id, body.seat, _bearer(authorization))
        return GameStatus(game=game_id, status=status)


def _record_routes(app: FastAPI, runtime: Callable[[], Runtime]) -> None:
    @app.get("/api/games/{game_id}/moves", responses=ERROR_RESPONSES, tags=["records"])
    async def moves(
        game_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> MovesSoFar:
        """The moves in effect so far and every accepted action (undone ones included); the
        configuration without its seed."""
        game = await runtime().service.game(game_id)
        await _seats_or_watch(runtime().service, request, game_id, authorization)
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

    @app.get("/api/games/{game_id}/record", responses=ERROR_RESPONSES, tags=["records"])
    async def record(
        game_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> JSONResponse:
        """The finished game's ``quadropolis-game/1`` record, seed included (``quadropolis
        replay`` accepts it); ``not_over`` while the game runs."""
        await _seats_or_watch(runtime().service, request, game_id, authorization)
        data = await runtime().service.record(game_id)
        return JSONResponse(
            data,
            headers={"Content-Disposition": f'attachment; filename="quadropolis-{game_id}.json"'},
        )

    @app.post("/api/replay", responses=ERROR_RESPONSES, tags=["records"])
    async def replay(body: RecordAt) -> dict[str, Any]:
        """The spectator's view of a record's position after ``at`` moves (``"game": null``,
        never the seed), the number of moves and where each round starts; ``bad_record`` with
        the engine's reason if the record does not replay."""
        return await runtime().service.replay(body.record, body.at)

    @app.get("/api/games/{game_id}/analysis", responses=ERROR_RESPONSES, tags=["records"])
    async def analysis(
        game_id: str,
        request: Request,
        at: Annotated[int | None, Query(ge=0, le=100_000)] = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Hints: the ``hard`` level's search of the position after ``at`` moves in effect
        (default: all). While the game runs: a seat's Bearer token, a table that allows
        analysis, and the current position only; once over: anyone, any position."""
        token = None if authorization is None else _bearer(authorization)
        await _seats_or_watch(runtime().service, request, game_id, authorization)
        return await runtime().service.analysis(game_id, at, token, _client(request))

    @app.post("/api/analysis", responses=ERROR_RESPONSES, tags=["records"])
    async def analysis_of_record(body: RecordAt, request: Request) -> dict[str, Any]:
        """Hints for the position of a record after ``at`` moves (as the endpoint above)."""
        return await runtime().service.analysis_of_record(body.record, body.at, _client(request))


def _review_routes(app: FastAPI, runtime: Callable[[], Runtime]) -> None:
    @app.post("/api/games/{game_id}/review", responses=ERROR_RESPONSES, tags=["records"])
    async def start_review(
        game_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Start the post-game review of a finished game (or follow the one under way, or
        get the stored one): ``{"type": "review", "status": "running", "done", "total"}`` or
        ``"status": "done"`` with ``review``. Poll it at least every 30 s, or it stops."""
        await _seats_or_watch(runtime().service, request, game_id, authorization)
        return await runtime().service.review(game_id, _client(request), start=True)

    @app.get("/api/games/{game_id}/review", responses=ERROR_RESPONSES, tags=["records"])
    async def review(
        game_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The review's progress (``running``), the stored review (``done``), ``failed`` once
        after a failure, or ``none`` (never started: POST to start it)."""
        await _seats_or_watch(runtime().service, request, game_id, authorization)
        return await runtime().service.review(game_id, _client(request), start=False)

    @app.post("/api/review", responses=ERROR_RESPONSES, tags=["records"])
    async def review_of_record(body: RecordBody, request: Request) -> dict[str, Any]:
        """Review a record (``"game": null``): starts on the first post, then the same
        replies as a game's review; post the same record again to follow it."""
        return await runtime().service.review_of_record(body.record, _client(request))
