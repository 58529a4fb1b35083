"""The HTTP transport of accounts, an ``APIRouter`` included by :mod:`..app`:

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

The session cookie and the CSRF check of every state-changing request here (POST, PUT,
DELETE) are :mod:`..deps`'s (its module doc says how they protect the account)."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import Field

from ..data import OVER, WAITING, AccountData, AccountProof
from ..deps import (
    ERRORS,
    AccountDep,
    AccountsDep,
    ClientDep,
    RatesDep,
    SessionId,
    created,
    same_site,
    seat_link,
)
from ..protocol import COOKIE, ActionDone, ActRequest, Body, Created, CreateGame, SeatPass, UndoRequest
from .service import SESSION_SECONDS, AccountService, Login
from .storage import HeldGame

#: A password field accepts this much text at most before its own length check answers.
_TEXT = Annotated[str, Field(max_length=1024)]


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


router = APIRouter(prefix="/api", responses=ERRORS)
changes = APIRouter(dependencies=[Depends(same_site)])


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


@changes.post("/accounts", status_code=201, tags=["accounts"])
async def register(
    body: Credentials, request: Request, response: Response, client: ClientDep, service: AccountsDep
) -> Me:
    """Register an account and log it in (the reply sets the session cookie);
    ``rate_limited`` over the address's sign-up quota."""
    new = await service.register(body.username, body.password, client)
    return _set_cookie(response, request, new)


@changes.post("/session", tags=["accounts"])
async def login(
    body: Credentials, request: Request, response: Response, client: ClientDep, service: AccountsDep
) -> Me:
    """Log in (sets the session cookie); ``rate_limited`` after repeated failures."""
    found = await service.login(body.username, body.password, client)
    return _set_cookie(response, request, found)


@changes.delete("/session", status_code=204, tags=["accounts"])
async def logout(response: Response, service: AccountsDep, session: SessionId = None) -> None:
    """Log out: the session ends here and in the browser."""
    if session:
        await service.logout(session)
    response.delete_cookie(COOKIE, path="/")


@router.get("/me", tags=["accounts"])
async def me(account: AccountDep) -> Me:
    """The logged-in account."""
    return Me(username=account.username, joined=account.created_at)


@changes.put("/me/password", status_code=204, tags=["accounts"])
async def change_password(
    body: PasswordChange,
    client: ClientDep,
    account: AccountDep,
    service: AccountsDep,
    session: SessionId = None,
) -> None:
    """Change the password (the current one asked again, throttled as logins are); other
    sessions are logged out."""
    await service.change_password(account, session or "", body.current, body.new, client)


@changes.delete("/me", status_code=204, tags=["accounts"])
async def delete_me(
    body: Confirm, client: ClientDep, response: Response, account: AccountDep, service: AccountsDep
) -> None:
    """Delete the account (the password asked again, throttled as logins are). Its games
    stay; its seats are shown as "Former player"."""
    await service.delete(account, body.password, client)
    response.delete_cookie(COOKIE, path="/")


# --- seats of the account --------------------------------------------------------------


@router.get("/me/games", tags=["my games"])
async def my_games(account: AccountDep, service: AccountsDep) -> MyGames:
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


@changes.post("/me/games", status_code=201, tags=["my games"])
async def create_game(
    spec: CreateGame, client: ClientDep, account: AccountDep, service: AccountsDep, rates: RatesDep
) -> Created:
    """Create a game (as ``POST /api/games``) whose taken seats are the account's, named after
    it. The reply's seat tokens still work for the websocket and other browsers."""
    rates.create(client)
    return created(await service.create(account, spec, client))


@changes.post("/me/games/{game_id}/seats/{seat}", tags=["my games"])
async def join(
    game_id: str, seat: int, client: ClientDep, account: AccountDep, service: AccountsDep, rates: RatesDep
) -> SeatPass:
    """Take an open seat for the account (named after it)."""
    rates.create(client)
    token = await service.join(account, game_id, seat)
    return SeatPass(seat=seat, token=token, link=seat_link(game_id, seat, token))


@router.get("/me/games/{game_id}", tags=["my games"])
async def game_view(game_id: str, account: AccountDep, service: AccountsDep) -> dict[str, Any]:
    """The game as the account's seats see it (a spectator's view if it holds none)."""
    game = await service.games.game(game_id)
    seats = game.seats_of_account(account.id)
    if not seats:  # a spectator's view: only of a game the account may watch (.daily)
        await service.games.check_watch(game_id, partial(_id_of, account))
    return service.games.view(game, dict.fromkeys(seats, service.proof(account)))


async def _id_of(account: AccountData) -> int | None:
    return account.id


def account_action(
    client: ClientDep, account: AccountDep, service: AccountsDep, rates: RatesDep
) -> AccountProof:
    """What the logged-in account acts with (a move, an undo), once the client's action rate
    allows one more (``rate_limited``); the game service checks it against the seat."""
    rates.action(client)
    return service.proof(account)


AccountActionDep = Annotated[AccountProof, Depends(account_action)]


@changes.post("/me/games/{game_id}/moves", tags=["my games"])
async def move(game_id: str, body: ActRequest, proof: AccountActionDep, service: AccountsDep) -> ActionDone:
    """Play a move in a seat the account holds, against the game at ``version``."""
    action = await service.games.act(game_id, body.seat, proof, body.version, body.move)
    return ActionDone(game=game_id, version=action.version, seat=action.seat, kind="move", move=action.move)


@changes.post("/me/games/{game_id}/undo", tags=["my games"])
async def undo(game_id: str, body: UndoRequest, proof: AccountActionDep, service: AccountsDep) -> ActionDone:
    """Take back the last action of a seat the account holds."""
    action = await service.games.undo(game_id, body.seat, proof, body.version)
    return ActionDone(game=game_id, version=action.version, seat=action.seat, kind="undo")


router.include_router(changes)
