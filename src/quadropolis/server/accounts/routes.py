"""The HTTP transport of accounts (issue 23), an ``APIRouter`` mounted by :mod:`..app`:

======  ===================================  ==================================================
POST    ``/api/accounts``                    register, and log in (sets the session cookie)
POST    ``/api/session``                     log in (sets the session cookie)
DELETE  ``/api/session``                     log out
GET     ``/api/me``                          the logged-in account
PUT     ``/api/me/password``                 change the password
DELETE  ``/api/me``                          delete the account (its games stay)
GET     ``/api/players/{username}``          a player's public profile (:mod:`..ratings.routes`)
GET     ``/api/me/games``                    "My games": your turn, waiting, playing, finished
POST    ``/api/me/games``                    create a game whose taken seats are the account's
POST    ``/api/me/games/{id}/seats/{seat}``  take an open seat for the account
GET     ``/api/me/games/{id}``               the game as the account's seats see it
POST    ``/api/me/games/{id}/moves``         play a move in one of the account's seats
POST    ``/api/me/games/{id}/undo``          undo in one of the account's seats
======  ===================================  ==================================================

**Session cookie** ``quadropolis_session``: HttpOnly (no script reads it), SameSite=Lax,
Secure when the request came over https, Path=/, lasting :data:`~.accounts.SESSION_SECONDS`.

**CSRF**: every state-changing request of this router (POST, PUT, DELETE) must carry the
header ``X-Quadropolis-Client`` (any value) and, when the browser sends ``Origin`` or
``Sec-Fetch-Site``, come from this server's own origin. A cross-site page cannot send the
header: an HTML form has no custom headers, and a cross-site ``fetch`` with one needs a CORS
preflight this server never approves. SameSite=Lax also keeps the cookie off cross-site POSTs.
So no token has to be kept in sync between page and server. Seat-token (Bearer) requests
elsewhere are unchanged: a cross-site page does not hold the token."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Cookie, Depends, Request, Response
from pydantic import Field

from ..data import OVER, WAITING, AccountData
from ..edges import RateLimits, client_key
from ..errors import Forbidden
from ..protocol import (
    COOKIE,
    ActionDone,
    ActRequest,
    Body,
    Created,
    CreateGame,
    ErrorBody,
    Invite,
    SeatPass,
    UndoRequest,
)
from .service import SESSION_SECONDS, AccountService, Login
from .storage import HeldGame

CSRF_HEADER = "X-Quadropolis-Client"
#: A password field accepts this much text at most before its own length check answers.
_TEXT = Annotated[str, Field(max_length=1024)]

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 403, 404, 409, 413, 422, 429, 503)
}


class Credentials(Body):
    """A username and password (3–20 letters, digits, ``_`` or ``-``; 8–256 characters)."""

    username: Annotated[str, Field(max_length=64)]
    password: _TEXT


class PasswordChange(Body):
    current: _TEXT
    new: _TEXT


class Confirm(Body):
    """The account's password, asked again before deleting it."""

    password: _TEXT


class Me(Body):
    username: str
    joined: float


class MyGame(Body):
    """A game where the account holds ``seats``; ``your_turn`` when one of them is to move."""

    game: str
    status: str
    seats: list[int]
    your_turn: bool
    names: list[str]
    mode: str
    players: int
    created_at: float
    finished_at: float | None = None
    result: dict[str, Any] | None = None
    link: str


class MyGames(Body):
    """ "My games": where it is your turn, waiting for players, running (others' turn), over."""

    your_turn: list[MyGame]
    waiting: list[MyGame]
    playing: list[MyGame]
    finished: list[MyGame]


def accounts(request: Request) -> AccountService:
    service: AccountService = request.app.state.accounts
    return service


def address(request: Request) -> str:
    """The client's key (:func:`..edges.client_key`: an IPv6 address's /64), which every limit
    of accounts counts on, as the guests' limits do."""
    return client_key(request.client.host if request.client is not None else None)


def rates(request: Request) -> RateLimits:
    """The per-address HTTP limits the guests' routes apply (:class:`..edges.RateLimits`)."""
    limits: RateLimits = request.app.state.rates
    return limits


def same_site(request: Request) -> None:
    """The CSRF check of the module doc: ``forbidden`` for a request a cross-site page made."""
    headers = request.headers
    if CSRF_HEADER.lower() not in headers:
        raise Forbidden(f"this request needs the header {CSRF_HEADER} (sent by the browser client)")
    if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        raise Forbidden("cross-site requests are refused")
    origin = headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != headers.get("host"):
        raise Forbidden("cross-site requests are refused")


Service = Annotated[AccountService, Depends(accounts)]
SessionId = Annotated[str | None, Cookie(alias=COOKIE, include_in_schema=False)]


async def current(service: Service, session: SessionId = None) -> AccountData:
    """The logged-in account (``not_logged_in`` without a live session)."""
    return await service.account_of(session)


Account = Annotated[AccountData, Depends(current)]
router = APIRouter(responses=ERRORS)
changes = APIRouter(responses=ERRORS, dependencies=[Depends(same_site)])


def _set_cookie(response: Response, request: Request, login: Login) -> Me:
    response.set_cookie(
        COOKIE,
        login.session_id,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return Me(username=login.account.username, joined=login.account.created_at)


@changes.post("/api/accounts", status_code=201, tags=["accounts"])
async def register(body: Credentials, request: Request, response: Response, service: Service) -> Me:
    """Register an account and log it in (the reply sets the session cookie);
    ``rate_limited`` over the address's sign-up quota."""
    new = await service.register(body.username, body.password, address(request))
    return _set_cookie(response, request, new)


@changes.post("/api/session", tags=["accounts"])
async def login(body: Credentials, request: Request, response: Response, service: Service) -> Me:
    """Log in (sets the session cookie); ``rate_limited`` after repeated failures."""
    found = await service.login(body.username, body.password, address(request))
    return _set_cookie(response, request, found)


@changes.delete("/api/session", status_code=204, tags=["accounts"])
async def logout(response: Response, service: Service, session: SessionId = None) -> None:
    """Log out: the session ends here and in the browser."""
    if session:
        await service.logout(session)
    response.delete_cookie(COOKIE, path="/")


@router.get("/api/me", tags=["accounts"])
async def me(account: Account) -> Me:
    """The logged-in account."""
    return Me(username=account.username, joined=account.created_at)


@changes.put("/api/me/password", status_code=204, tags=["accounts"])
async def change_password(
    body: PasswordChange, request: Request, account: Account, service: Service, session: SessionId = None
) -> None:
    """Change the password (the current one asked again, throttled as logins are); other
    sessions are logged out."""
    await service.change_password(account, session or "", body.current, body.new, address(request))


@changes.delete("/api/me", status_code=204, tags=["accounts"])
async def delete_me(
    body: Confirm, request: Request, response: Response, account: Account, service: Service
) -> None:
    """Delete the account (the password asked again, throttled as logins are). Its games
    stay; its seats are shown as "Former player"."""
    await service.delete(account, body.password, address(request))
    response.delete_cookie(COOKIE, path="/")


# --- seats of the account --------------------------------------------------------------


@router.get("/api/me/games", tags=["my games"])
async def my_games(account: Account, service: Service) -> MyGames:
    """The account's games, newest first: where it is your turn, waiting for players,
    running while others move, and finished."""
    lists: dict[str, list[MyGame]] = {"your_turn": [], "waiting": [], "playing": [], "finished": []}
    for held in await service.games_of(account):
        entry = await _my_game(service, held, account.id)
        if entry.status == OVER:
            lists["finished"].append(entry)
        elif entry.status == WAITING:
            lists["waiting"].append(entry)
        else:
            lists["your_turn" if entry.your_turn else "playing"].append(entry)
    return MyGames(**lists)


async def _my_game(service: AccountService, held: HeldGame, account_id: int) -> MyGame:
    game = await service.games.game(held.game)
    return MyGame(
        game=held.game,
        status=game.status,
        seats=list(held.seats),
        your_turn=game.to_move in game.seats_of_account(account_id),
        names=[s.name or "(open)" for s in game.seats],
        mode=game.config.mode.value,
        players=game.config.players,
        created_at=held.created_at,
        finished_at=held.finished_at,
        result=game.result_json() if game.status == OVER else None,
        link=f"/?game={held.game}",
    )


@changes.post("/api/me/games", status_code=201, tags=["my games"])
async def create_game(spec: CreateGame, request: Request, account: Account, service: Service) -> Created:
    """Create a game (as ``POST /api/games``) whose taken seats are the account's, named after
    it. The reply's seat tokens still work for the websocket and other browsers."""
    from ..app import seat_link  # the app imports this module: import its helper late

    client = address(request)
    rates(request).create(client)
    new = await service.create(account, spec, client)
    return Created(
        game=new.game,
        seats=[
            SeatPass(seat=s, token=t, link=seat_link(new.game, s, t)) for s, t in sorted(new.tokens.items())
        ],
        invites=[Invite(seat=s, link=f"/?game={new.game}&join={s}") for s in new.invites],
        watch=f"/?game={new.game}",
        websocket=f"/ws/games/{new.game}",
    )


@changes.post("/api/me/games/{game_id}/seats/{seat}", tags=["my games"])
async def join(game_id: str, seat: int, request: Request, account: Account, service: Service) -> SeatPass:
    """Take an open seat for the account (named after it)."""
    from ..app import seat_link

    rates(request).create(address(request))
    token = await service.join(account, game_id, seat)
    return SeatPass(seat=seat, token=token, link=seat_link(game_id, seat, token))


@router.get("/api/me/games/{game_id}", tags=["my games"])
async def game_view(game_id: str, account: Account, service: Service) -> dict[str, Any]:
    """The game as the account's seats see it (a spectator's view if it holds none)."""
    game = await service.games.game(game_id)
    seats = game.seats_of_account(account.id)
    if not seats:  # a spectator's view: only of a game the account may watch (.daily)
        await service.games.check_watch(game_id, partial(_id_of, account))
    return service.games.view(game, dict.fromkeys(seats, service.proof(account)))


async def _id_of(account: AccountData) -> int | None:
    return account.id


@changes.post("/api/me/games/{game_id}/moves", tags=["my games"])
async def move(
    game_id: str, body: ActRequest, request: Request, account: Account, service: Service
) -> ActionDone:
    """Play a move in a seat the account holds, against the game at ``version``."""
    rates(request).action(address(request))
    action = await service.games.act(game_id, body.seat, service.proof(account), body.version, body.move)
    return ActionDone(game=game_id, version=action.version, seat=action.seat, kind="move", move=action.move)


@changes.post("/api/me/games/{game_id}/undo", tags=["my games"])
async def undo(
    game_id: str, body: UndoRequest, request: Request, account: Account, service: Service
) -> ActionDone:
    """Take back the last action of a seat the account holds."""
    rates(request).action(address(request))
    action = await service.games.undo(game_id, body.seat, service.proof(account), body.version)
    return ActionDone(game=game_id, version=action.version, seat=action.seat, kind="undo")


router.include_router(changes)
