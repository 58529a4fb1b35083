"""The HTTP transport of the daily challenge and rematches (issue 23 items 6-7), an
``APIRouter`` mounted by :mod:`..app` (the table chat is a websocket message: :mod:`..hub`):

======  ==================================  ===================================================
GET     ``/api/daily``                      today's challenge and leaderboard (``you``: the
                                            logged-in account's game of the day)
GET     ``/api/daily/{day}``                a past day's (``YYYY-MM-DD``)
POST    ``/api/daily/games``                start today's challenge: ranked for a logged-in
                                            account (once a day), practice for a guest
GET     ``/api/games/{id}/daily``           the challenge a game belongs to, and its result
GET     ``/api/games/{id}/rematch``         the rematch of a finished game, if asked for
POST    ``/api/games/{id}/rematch``         ask for it, or take one's kept seats in it
POST    ``/api/games/{id}/rematch/decline`` decline it (it is cancelled)
======  ==================================  ===================================================

Starting the challenge is protected against cross-site requests as the account routes are
(:func:`~..accounts.routes.same_site`): it acts for the session cookie. The rematch routes
act for the seat tokens in their body, which a cross-site page does not hold."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field

from ..accounts.routes import ERRORS, accounts, same_site
from ..data import AccountData
from ..edges import RateLimits, client_key
from ..errors import NotLoggedIn
from ..protocol import COOKIE, Body, Created, GameStatus, Name, SeatPass, Token
from .daily import DailyService, parse_day
from .rematch import RematchService

router = APIRouter(responses=ERRORS)


@dataclass
class Social:
    """What these routes use (``app.state.social``)."""

    daily: DailyService
    rematches: RematchService
    rates: RateLimits


class DailyStart(Body):
    """A guest's name at the table (an account plays under its username)."""

    name: Name = "Player"


class DailyGameCreated(Created):
    """The game of the day's challenge: ``ranked`` for an account's (the day's deal),
    ``practice`` for a guest's (the day's format, a deal of its own, never ranked)."""

    ranked: bool
    practice: bool


class SeatTokens(Body):
    """The tokens of the seats one asks or declines for (several for hotseat)."""

    tokens: Annotated[list[Token], Field(min_length=1, max_length=4)]


class RematchReply(Body):
    """The rematch, and the seats (with their tokens) the asker now holds in it."""

    game: str
    seats: list[SeatPass]


class RematchOf(Body):
    game: str
    rematch: str | None


def social(request: Request) -> Social:
    found: Social = request.app.state.social
    return found


Services = Annotated[Social, Depends(social)]


async def maybe_account(request: Request) -> AccountData | None:
    """The logged-in account, or ``None`` for a guest (no session, or an expired one)."""
    session = request.cookies.get(COOKIE)
    if not session:
        return None
    try:
        return await accounts(request).account_of(session)
    except NotLoggedIn:
        return None


Viewer = Annotated[AccountData | None, Depends(maybe_account)]


def _client(request: Request) -> str:
    return client_key(request.client.host if request.client is not None else None)


@router.get("/api/daily", tags=["daily"])
async def daily_today(services: Services, viewer: Viewer) -> dict[str, Any]:
    """Today's challenge (UTC): its format, leaderboard, best cities, and your game of it."""
    daily = services.daily
    return await daily.board(daily.today(), viewer)


@router.get("/api/daily/{day}", tags=["daily"])
async def daily_of(day: str, services: Services, viewer: Viewer) -> dict[str, Any]:
    """The challenge of a past day (``YYYY-MM-DD``): ``not_found`` if no one played it."""
    return await services.daily.board(parse_day(day), viewer)


@router.post("/api/daily/games", status_code=201, tags=["daily"], dependencies=[Depends(same_site)])
async def daily_start(
    body: DailyStart, request: Request, services: Services, viewer: Viewer
) -> DailyGameCreated:
    """Start today's challenge. Ranked for a logged-in account, which plays it once
    (``already_played`` after); a guest practises (the day's format, a deal of its own,
    never ranked), under ``name``."""
    from ..app import seat_link  # the app imports this module: import its helper late

    client = _client(request)
    services.rates.create(client)
    new, ranked = await services.daily.start(viewer, body.name, client)
    return DailyGameCreated(
        game=new.game,
        seats=[
            SeatPass(seat=s, token=t, link=seat_link(new.game, s, t)) for s, t in sorted(new.tokens.items())
        ],
        invites=[],
        watch=f"/?game={new.game}",
        websocket=f"/ws/games/{new.game}",
        ranked=ranked,
        practice=not ranked,
    )


@router.get("/api/games/{game_id}/daily", tags=["daily"])
async def game_daily(game_id: str, services: Services, viewer: Viewer) -> dict[str, Any]:
    """The challenge ``game_id`` was a game of (``not_found`` if none): the day's
    leaderboard and best cities (as for ``/api/daily``), and this game's result (``game``:
    ranked or practice, place, VP)."""
    return await services.daily.of_game(game_id, viewer)


@router.get("/api/games/{game_id}/rematch", tags=["games"])
async def rematch_of(game_id: str, services: Services) -> RematchOf:
    """The rematch of a game, if one was asked for."""
    return RematchOf(game=game_id, rematch=await services.rematches.current(game_id))


@router.post("/api/games/{game_id}/rematch", tags=["games"])
async def rematch(game_id: str, body: SeatTokens, request: Request, services: Services) -> RematchReply:
    """Ask for a rematch of a finished game with its seats' tokens: the first ask creates it
    (same seats and settings, new deal), a later one takes the asker's kept seats in it."""
    from ..app import seat_link

    client = _client(request)
    services.rates.create(client)
    found = await services.rematches.ask(game_id, body.tokens, client)
    seats = [
        SeatPass(seat=s, token=t, link=seat_link(found.game, s, t)) for s, t in sorted(found.tokens.items())
    ]
    return RematchReply(game=found.game, seats=seats)


@router.post("/api/games/{game_id}/rematch/decline", tags=["games"])
async def decline(game_id: str, body: SeatTokens, request: Request, services: Services) -> GameStatus:
    """Decline the rematch of ``game_id`` (a player of it, by their seat's token): it is
    cancelled while it waits for players. Returns the rematch's status."""
    services.rates.action(_client(request))
    rematch = await services.rematches.current(game_id)
    status = await services.rematches.decline(game_id, body.tokens)
    return GameStatus(game=rematch or game_id, status=status)
