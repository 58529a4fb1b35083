"""The HTTP transport of the daily challenge and rematches, an
``APIRouter`` included by :mod:`..app` (the table chat is a websocket message: :mod:`..hub`):

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
(:func:`~..deps.same_site`): it acts for the session cookie. The rematch routes
act for the seat tokens in their body, which a cross-site page does not hold."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import Field

from ..deps import (
    ERRORS,
    ClientDep,
    DailyDep,
    MaybeAccountDep,
    RatesDep,
    RematchesDep,
    same_site,
    seat_passes,
)
from ..protocol import Body, Created, GameStatus, Name, SeatPass, Token
from .daily import parse_day

router = APIRouter(prefix="/api", responses=ERRORS)


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


@router.get("/daily", tags=["daily"])
async def daily_today(daily: DailyDep, viewer: MaybeAccountDep) -> dict[str, Any]:
    """Today's challenge (UTC): its format, leaderboard, best cities, and your game of it."""
    return await daily.board(daily.today(), viewer)


@router.get("/daily/{day}", tags=["daily"])
async def daily_of(day: str, daily: DailyDep, viewer: MaybeAccountDep) -> dict[str, Any]:
    """The challenge of a past day (``YYYY-MM-DD``): ``not_found`` if no one played it."""
    return await daily.board(parse_day(day), viewer)


@router.post("/daily/games", status_code=201, tags=["daily"], dependencies=[Depends(same_site)])
async def daily_start(
    body: DailyStart, client: ClientDep, daily: DailyDep, viewer: MaybeAccountDep, rates: RatesDep
) -> DailyGameCreated:
    """Start today's challenge. Ranked for a logged-in account, which plays it once
    (``already_played`` after); a guest practises (the day's format, a deal of its own,
    never ranked), under ``name``."""
    rates.create(client)
    new, ranked = await daily.start(viewer, body.name, client)
    return DailyGameCreated(
        game=new.game,
        seats=seat_passes(new.game, new.tokens),
        invites=[],
        watch=f"/?game={new.game}",
        websocket=f"/ws/games/{new.game}",
        ranked=ranked,
        practice=not ranked,
    )


@router.get("/games/{game_id}/daily", tags=["daily"])
async def game_daily(game_id: str, daily: DailyDep, viewer: MaybeAccountDep) -> dict[str, Any]:
    """The challenge ``game_id`` was a game of (``not_found`` if none): the day's
    leaderboard and best cities (as for ``/api/daily``), and this game's result (``game``:
    ranked or practice, place, VP)."""
    return await daily.of_game(game_id, viewer)


@router.get("/games/{game_id}/rematch", tags=["games"])
async def rematch_of(game_id: str, rematches: RematchesDep) -> RematchOf:
    """The rematch of a game, if one was asked for."""
    return RematchOf(game=game_id, rematch=await rematches.current(game_id))


@router.post("/games/{game_id}/rematch", tags=["games"])
async def rematch(
    game_id: str, body: SeatTokens, client: ClientDep, rematches: RematchesDep, rates: RatesDep
) -> RematchReply:
    """Ask for a rematch of a finished game with its seats' tokens: the first ask creates it
    (same seats and settings, new deal), a later one takes the asker's kept seats in it."""
    rates.create(client)
    found = await rematches.ask(game_id, body.tokens, client)
    return RematchReply(game=found.game, seats=seat_passes(found.game, found.tokens))


@router.post("/games/{game_id}/rematch/decline", tags=["games"])
async def decline(
    game_id: str, body: SeatTokens, client: ClientDep, rematches: RematchesDep, rates: RatesDep
) -> GameStatus:
    """Decline the rematch of ``game_id`` (a player of it, by their seat's token): it is
    cancelled while it waits for players. Returns the rematch's status."""
    rates.action(client)
    rematch = await rematches.current(game_id)
    status = await rematches.decline(game_id, body.tokens)
    return GameStatus(game=rematch or game_id, status=status)
