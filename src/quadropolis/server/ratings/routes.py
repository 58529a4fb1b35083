"""The HTTP transport of ratings and profiles, an ``APIRouter`` included by :mod:`..app`:

======  ============================  ===============================================
GET     ``/api/leaderboard``          the rated players of a mode, best rating first
GET     ``/api/games/{id}/ratings``   each seat's rating change in a finished game
GET     ``/api/players/{username}``   a player's public profile
======  ============================  ===============================================

Every rating is sent as its ``rating`` (the ordinal μ − 3σ, what the leaderboard sorts by),
``mu`` and ``sigma`` (rules: :mod:`.rules`). A deleted account's seats carry no
``username`` (the client names them as the game does: "Former player")."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from ..deps import ERRORS, RatingsDep
from ..protocol import Body
from .rules import Rating
from .service import Profile, Statistics, statistics
from .storage import HistoryPoint, PlayedGame, SeatChange

#: Leaderboard lines per page at most.
PAGE_MAX = 100


class RatingOut(Body):
    """A rating: ``rating`` = ``mu`` − 3 ``sigma`` (shown), with ``mu`` ± ``sigma``."""

    rating: float
    mu: float
    sigma: float


class RatedPlayer(RatingOut):
    """A leaderboard line: an account (``username``) or a bot level (``bot``)."""

    place: int
    username: str | None
    bot: str | None
    games: int


class Leaderboard(Body):
    mode: str
    players: list[RatedPlayer]


class SeatRating(Body):
    """One seat's rating change: before and after the game, and the change of ``rating``."""

    seat: int
    place: int
    bot: str | None
    before: RatingOut
    after: RatingOut
    change: float


class GameRatings(Body):
    """``settled``: the results are kept (a game just finished may take a moment);
    ``rated``: whether the game changed ratings (rules: ``docs/server.md``)."""

    game: str
    settled: bool
    rated: bool
    seats: list[SeatRating]


class ModeRating(RatingOut):
    mode: str
    games: int


class HistoryEntry(RatingOut):
    """The rating in ``mode`` after ``game`` (finished at ``at``, Unix seconds)."""

    game: str
    mode: str
    at: float


class PlayedSeat(Body):
    """A seat of a played game: its name, and the bot level if a bot finished it."""

    name: str
    bot: str | None


class PlayedEntry(Body):
    """A finished game on a profile: the player's seat, place (1 = won) and score, the
    seats, the link to its replay, whether it has a review (shown by the replay page) and
    the rating change (``null``: unrated)."""

    game: str
    seat: int
    mode: str
    players: int
    finished_at: float
    place: int
    score: int
    seats: list[PlayedSeat]
    replay: str
    reviewed: bool
    rating: SeatRating | None


class StatisticsEntry(Body):
    """Games of one mode and player count: wins, average and best VP, average VP by
    score-sheet category (keys of ``CityScore.breakdown``)."""

    mode: str
    players: int
    games: int
    wins: int
    average: float
    best: int
    categories: dict[str, float]


class PlayerProfile(Body):
    """A player's public profile."""

    username: str
    joined: float
    games_played: int
    ratings: list[ModeRating]
    history: list[HistoryEntry]
    games: list[PlayedEntry]
    statistics: list[StatisticsEntry]


router = APIRouter(prefix="/api", responses=ERRORS)


def _rating(r: Rating) -> dict[str, float]:
    return {"rating": round(r.ordinal, 2), "mu": round(r.mu, 2), "sigma": round(r.sigma, 2)}


@router.get("/leaderboard", tags=["ratings"])
async def leaderboard(
    service: RatingsDep,
    mode: Literal["classic", "expert"] = "classic",
    limit: Annotated[int, Query(ge=1, le=PAGE_MAX)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> Leaderboard:
    """The rated players of ``mode`` — accounts and bot levels — best rating (μ − 3σ) first."""
    lines = await service.leaderboard(mode, limit, offset)
    return Leaderboard(
        mode=mode,
        players=[
            RatedPlayer(
                place=offset + i + 1,
                username=s.username,
                bot=s.bot,
                games=s.rating.games,
                **_rating(s.rating),
            )
            for i, s in enumerate(lines)
        ],
    )


def _seat_rating(c: SeatChange) -> SeatRating:
    return SeatRating(
        seat=c.seat,
        place=c.place,
        bot=c.bot,
        before=RatingOut(**_rating(c.before)),
        after=RatingOut(**_rating(c.after)),
        change=round(c.after.ordinal - c.before.ordinal, 2),
    )


@router.get("/games/{game_id}/ratings", tags=["ratings"])
async def game_ratings(game_id: str, service: RatingsDep) -> GameRatings:
    """Each seat's rating change in finished game ``game_id`` (none if it is unrated, or not
    finished or settled yet)."""
    settled, changes = await service.changes(game_id)
    return GameRatings(
        game=game_id, settled=settled, rated=bool(changes), seats=[_seat_rating(c) for c in changes]
    )


@router.get("/players/{username}", tags=["accounts"])
async def profile(username: str, service: RatingsDep) -> PlayerProfile:
    """A player's public profile: ratings by mode with their history, the newest finished
    games (links to their replays, which show their reviews), and statistics by mode and player count."""
    found = await service.profile(username)
    return _profile(found)


def _profile(p: Profile) -> PlayerProfile:
    return PlayerProfile(
        username=p.username,
        joined=p.joined,
        games_played=p.games_played,
        ratings=[ModeRating(mode=mode, games=r.games, **_rating(r)) for mode, r in sorted(p.ratings.items())],
        history=[_history(h) for h in p.history],
        games=[_played(g) for g in p.games],
        statistics=[_statistics(s) for s in statistics(p.statistics)],
    )


def _history(h: HistoryPoint) -> HistoryEntry:
    return HistoryEntry(game=h.game, mode=h.mode, at=h.at, **_rating(h.rating))


def _played(g: PlayedGame) -> PlayedEntry:
    return PlayedEntry(
        game=g.game,
        seat=g.seat,
        mode=g.mode,
        players=g.players,
        finished_at=g.finished_at,
        place=g.place,
        score=g.score,
        seats=[PlayedSeat(name=name, bot=bot) for name, bot in g.seats],
        replay=f"/?replay={g.game}",
        reviewed=g.reviewed,
        rating=None if g.change is None else _seat_rating(g.change),
    )


def _statistics(s: Statistics) -> StatisticsEntry:
    fields: dict[str, Any] = {
        "mode": s.mode,
        "players": s.players,
        "games": s.games,
        "wins": s.wins,
        "average": round(s.average, 2),
        "best": s.best,
        "categories": {k: round(v, 2) for k, v in s.categories.items()},
    }
    return StatisticsEntry(**fields)
