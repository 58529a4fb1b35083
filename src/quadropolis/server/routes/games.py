"""A game's life: create it, list the lobby and running or finished games, see it, join it,
cancel it, leave it, resign it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ..data import OVER, PLAYING, WAITING, GameSummary
from ..deps import (
    ERROR_RESPONSES,
    ActionTokenDep,
    ClientDep,
    GamesDep,
    RatesDep,
    RecordsDep,
    SeatsDep,
    created,
    seat_link,
)
from ..protocol import (
    Created,
    CreateGame,
    GameList,
    GameListEntry,
    GameStatus,
    JoinSeat,
    SeatPass,
    SeatRequest,
    SeatSummary,
)

router = APIRouter(prefix="/api/games", responses=ERROR_RESPONSES, tags=["games"])


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


@router.post("", status_code=201)
async def create_game(spec: CreateGame, client: ClientDep, service: GamesDep, rates: RatesDep) -> Created:
    """Create a game. The creator receives a private pass for each seat taken, and an
    invite link for each seat left open."""
    rates.create(client)
    return created(await service.create(spec, client))


@router.get("")
async def list_games(
    records: RecordsDep,
    status: Annotated[str, Query(pattern="^(waiting|playing|over)$")] = WAITING,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> GameList:
    """Public games waiting for players (the lobby, oldest first), running ones to watch
    (newest first), or finished ones (newest first)."""
    chosen = {OVER: OVER, PLAYING: PLAYING}.get(status, WAITING)
    found = await records.summaries(chosen, limit, offset)
    return GameList(games=[_entry(s) for s in found])


@router.get("/{game_id}")
async def game_view(game_id: str, seats: SeatsDep, service: GamesDep) -> dict[str, Any]:
    """The game as a spectator sees it, or as a seat's player with its Bearer token."""
    return service.view(await service.game(game_id), seats)


@router.post("/{game_id}/seats/{seat}")
async def join(
    game_id: str, seat: int, body: JoinSeat, client: ClientDep, service: GamesDep, rates: RatesDep
) -> SeatPass:
    """Take an open seat: the reply's token is the seat's (keep it private)."""
    rates.create(client)
    token = await service.join(game_id, seat, body.name)
    return SeatPass(seat=seat, token=token, link=seat_link(game_id, seat, token))


@router.delete("/{game_id}")
async def cancel(game_id: str, token: ActionTokenDep, service: GamesDep) -> GameStatus:
    """Cancel a game still waiting for players (the Bearer token of a seat its creator
    took): it leaves the lobby, status ``cancelled``. ``game_started`` once it has started."""
    await service.cancel(game_id, token)
    return GameStatus(game=game_id, status="cancelled")


@router.post("/{game_id}/leave")
async def leave(game_id: str, body: SeatRequest, token: ActionTokenDep, service: GamesDep) -> GameStatus:
    """Leave a game still waiting for players: the seat (its token as Bearer) is open
    again and the token holds nothing any more."""
    await service.leave(game_id, body.seat, token)
    return GameStatus(game=game_id, status=(await service.game(game_id)).status)


@router.post("/{game_id}/resign")
async def resign(game_id: str, body: SeatRequest, token: ActionTokenDep, service: GamesDep) -> GameStatus:
    """Resign a running game, a forfeit: the resigner is placed last. A game of 2 players,
    or one where no person holds a seat any more, ends at once (``over``); otherwise a bot
    plays the seat to the end (the table's takeover level if it allows takeover, else the
    weakest level) and the others play on."""
    status = await service.resign(game_id, body.seat, token)
    return GameStatus(game=game_id, status=status)
