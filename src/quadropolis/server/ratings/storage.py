"""Storage of ratings and results: the tables and the repository of
:mod:`.service`. Like :mod:`..storage`, it hands out plain values and is synchronous
(called from worker threads). Created by migration ``0006``:

- ``settled_games``: one row per finished game once its results are kept (and, if it is
  rated, its ratings updated): whether it was rated. Its primary key is what makes settling
  happen once: a second attempt (a retry after a crash, another server process) fails to
  insert it and changes nothing.
- ``seat_results``: every seat of every settled game: its R13 place, its score and its VP by
  score-sheet category (for the profiles' statistics without replaying games).
- ``ratings``: one row per rated player per mode: an account or a bot level, μ, σ, the
  ordinal μ − 3σ (indexed: the leaderboard's order), and how many rated games it counts
  (which doubles as the row's version: see :meth:`RatingStore.settle`). An account's rows go
  with it when it is deleted.
- ``rating_changes``: each seat of each rated game: who (account or bot level; the account
  is cleared when it is deleted, so its seats read as a former player's), the place, and the
  rating before and after."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import (
    func,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ...outcome import Outcome
from ..data import OVER, ActionData, SeatData, moves_in_effect
from ..schema import (
    AccountRow,
    ActionRow,
    GameRow,
    RatingChangeRow,
    RatingRow,
    ReviewRow,
    SeatResultRow,
    SeatRow,
    SettledGameRow,
)
from ..storage import SYNC_NEW_GAME
from .rules import (
    HISTORY_GAMES,
    AccountFacts,
    Entrant,
    Rating,
    SeatPlay,
    entrants,
    rate,
    rated_places,
    seat_plays,
)

#: Attempts at settling a game whose players' ratings another process changed meanwhile.
ATTEMPTS: Final = 8


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A seat's rating change in one rated game."""

    seat: int
    account: int | None
    bot: str | None
    place: int
    before: Rating
    after: Rating


@dataclass(frozen=True, slots=True)
class Standing:
    """A leaderboard line: the player (username or bot level) and the rating."""

    username: str | None
    bot: str | None
    rating: Rating


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game an account played: its seat, place, score, VP by category, the
    game's seats and settings, whether it has a review, and the rating change if rated."""

    game: str
    seat: int
    mode: str
    players: int
    finished_at: float
    place: int
    score: int
    breakdown: dict[str, int]
    #: Each seat's name and, for a bot's seat, its level.
    seats: tuple[tuple[str, str | None], ...]
    reviewed: bool
    change: SeatChange | None


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """An account's rating in ``mode`` right after ``game``."""

    game: str
    mode: str
    at: float
    rating: Rating


class _Moved(Exception):
    """A player's rating changed since it was read (another process settled a game)."""


class RatingStore:
    """Every read and write of results and ratings, on the games' engine. ``history``: the
    rated games each account needs before its games against other accounts are rated
    (:func:`~.rules.may_rate_each_other`)."""

    def __init__(self, engine: Engine, history: int = HISTORY_GAMES) -> None:
        self._engine = engine
        self.rated_history = history
        self._session = sessionmaker(engine, expire_on_commit=False)

    def unsettled(self, limit: int) -> list[str]:
        """Finished games whose results are not kept yet, oldest first (the first
        ``limit``): those a crash interrupted, and those finished before ratings existed."""
        with self._session() as s:
            settled = select(SettledGameRow.game_id).where(SettledGameRow.game_id == GameRow.id)
            return list(
                s.scalars(
                    select(GameRow.id)
                    .where(GameRow.status == OVER, ~settled.exists())
                    .order_by(GameRow.finished_at, GameRow.id)
                    .limit(limit)
                )
            )

    def settle(self, game_id: str, result: Outcome, now: float) -> bool:
        """Keep the results of finished ``game_id`` and, if it is rated
        (:func:`~.rules.entrants`), update its players' ratings — all in one transaction,
        once: ``False`` if the game was settled already (by this or another process).

        The row of ``settled_games`` is inserted first: on SQLite that takes the write lock
        before anything is read, so no other writer can change a rating in between. On
        PostgreSQL another process may: each rating is updated only if its game count is
        still the one read, else the transaction is rolled back and tried again.

        On SQLite the commit is not synced to disk on its own (:data:`~..storage.SYNC_NEW_GAME`,
        as for a new game): the next move's commit syncs it, and a settling lost to a power
        cut is redone from the stored game at the next start (nothing else depends on it).
        So a game's end costs the games' single writer no extra sync."""
        for _ in range(ATTEMPTS):
            try:
                with self._unsynced() as conn, Session(conn, expire_on_commit=False) as s, s.begin():
                    return self._settle(s, game_id, result, now)
            except _Moved:
                continue
            except IntegrityError:
                if self.is_settled(game_id):
                    return False
        raise _Moved(f"game {game_id}: ratings kept changing while it was settled")

    @contextlib.contextmanager
    def _unsynced(self) -> Iterator[Connection]:
        """A connection whose commits SQLite does not sync (back to the connection's own sync
        level after: the server's ``--sqlite-sync``); any connection elsewhere."""
        sqlite = self._engine.dialect.name == "sqlite"
        with self._engine.connect() as conn:
            level = 0
            if sqlite:
                level = int(conn.exec_driver_sql("PRAGMA synchronous").scalar_one())
                conn.exec_driver_sql(f"PRAGMA synchronous={SYNC_NEW_GAME}")
                conn.commit()
            try:
                yield conn
            finally:
                if sqlite:
                    conn.exec_driver_sql(f"PRAGMA synchronous={level}")
                    conn.commit()

    def is_settled(self, game_id: str) -> bool:
        with self._session() as s:
            return s.get(SettledGameRow, game_id) is not None

    def _settle(self, s: Session, game_id: str, result: Outcome, now: float) -> bool:
        s.add(SettledGameRow(game_id=game_id, rated=False, settled_at=now))
        s.flush()
        game = s.get(GameRow, game_id)
        if game is None or game.status != OVER:
            raise ValueError(f"game {game_id} is not finished")
        ranks = result.ranks
        s.add_all(
            SeatResultRow(
                game_id=game_id, seat=i, place=ranks[i], score=sc.total, breakdown=dict(sc.breakdown)
            )
            for i, sc in enumerate(result.scores)
        )
        plays = _plays(s, game)
        who = _entrants(s, game, plays, self.rated_history)
        if who is not None:
            _rate(s, game_id, str(game.config["mode"]), who, rated_places(result, plays), now)
            s.execute(update(SettledGameRow).where(SettledGameRow.game_id == game_id).values(rated=True))
        return True

    # --- reads -------------------------------------------------------------------------

    def changes(self, game_id: str) -> list[SeatChange]:
        """The rating change of each seat of ``game_id`` (``[]`` if unrated or not settled)."""
        with self._session() as s:
            rows = s.scalars(
                select(RatingChangeRow)
                .where(RatingChangeRow.game_id == game_id)
                .order_by(RatingChangeRow.seat)
            )
            return [_change(r) for r in rows]

    def leaderboard(self, mode: str, limit: int, offset: int = 0) -> list[Standing]:
        """The rated players of ``mode``, best ordinal first (accounts and bot levels)."""
        with self._session() as s:
            rows = s.execute(
                select(RatingRow, AccountRow.username)
                .outerjoin(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.mode == mode)
                .order_by(RatingRow.ordinal.desc(), RatingRow.id)
                .limit(limit)
                .offset(offset)
            ).all()
            return [Standing(name, r.bot, Rating(r.mu, r.sigma, r.games)) for r, name in rows]

    def ratings_of(self, account_id: int) -> dict[str, Rating]:
        """The account's rating in each mode it has played rated games in."""
        with self._session() as s:
            rows = s.scalars(select(RatingRow).where(RatingRow.account_id == account_id))
            return {r.mode: Rating(r.mu, r.sigma, r.games) for r in rows}

    def history(self, account_id: int) -> list[HistoryPoint]:
        """The account's rating after each of its rated games, oldest first."""
        with self._session() as s:
            rows = s.scalars(
                select(RatingChangeRow)
                .where(RatingChangeRow.account_id == account_id)
                .order_by(RatingChangeRow.created_at, RatingChangeRow.game_id)
            )
            out, games = [], dict.fromkeys(("classic", "expert"), 0)
            for r in rows:
                games[r.mode] = games.get(r.mode, 0) + 1
                out.append(
                    HistoryPoint(
                        r.game_id, r.mode, r.created_at, Rating(r.mu_after, r.sigma_after, games[r.mode])
                    )
                )
            return out

    def played(self, account_id: int, limit: int) -> list[PlayedGame]:
        """The settled games the account played, newest first (at most ``limit``)."""
        with self._session() as s:
            rows = s.execute(
                select(GameRow, SeatResultRow)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .join(
                    SeatResultRow,
                    (SeatResultRow.game_id == SeatRow.game_id) & (SeatResultRow.seat == SeatRow.seat),
                )
                .where(SeatRow.account_id == account_id)
                .order_by(GameRow.finished_at.desc(), GameRow.id, SeatResultRow.seat)
                .limit(limit)
            ).all()
            ids = sorted({g.id for g, _ in rows})
            names = _names(s, ids)
            reviewed = set(s.scalars(select(ReviewRow.game_id).where(ReviewRow.game_id.in_(ids))))
            changes = {
                (c.game_id, c.seat): _change(c)
                for c in s.scalars(select(RatingChangeRow).where(RatingChangeRow.game_id.in_(ids)))
            }
            return [
                PlayedGame(
                    g.id,
                    r.seat,
                    str(g.config["mode"]),
                    int(g.config["players"]),
                    g.finished_at or 0.0,
                    r.place,
                    r.score,
                    dict(r.breakdown),
                    names[g.id],
                    g.id in reviewed,
                    changes.get((g.id, r.seat)),
                )
                for g, r in rows
            ]


def _entrants(
    s: Session, game: GameRow, plays: Sequence[SeatPlay], history: int
) -> tuple[Entrant, ...] | None:
    """Who is rated at each seat of ``game`` as stored (:func:`~.rules.entrants`)."""
    rows = s.scalars(select(SeatRow).where(SeatRow.game_id == game.id).order_by(SeatRow.seat)).all()
    seats = [SeatData(r.seat, r.kind, r.level, r.name, None, None, account=r.account_id) for r in rows]
    moved = s.scalars(
        select(ActionRow.seat).where(ActionRow.game_id == game.id, ActionRow.actor == "player").distinct()
    )
    accounts = [seat.account for seat in seats if seat.account is not None]
    return entrants(game.config, game.status, seats, set(moved), plays, _facts(s, accounts), history)


def _facts(s: Session, accounts: Sequence[int]) -> dict[int, AccountFacts]:
    """What the Sybil rule reads of ``accounts``: sign-up address and rated games so far."""
    signed = select(AccountRow.id, AccountRow.signup_key).where(AccountRow.id.in_(accounts))
    keys = {account: key for account, key in s.execute(signed)}
    counted = (
        select(RatingRow.account_id, func.sum(RatingRow.games))
        .where(RatingRow.account_id.in_(accounts))
        .group_by(RatingRow.account_id)
    )
    played = {account: games for account, games in s.execute(counted)}
    return {a: AccountFacts(keys.get(a, f"unknown:{a}"), int(played.get(a) or 0)) for a in accounts}


def _plays(s: Session, game: GameRow) -> tuple[SeatPlay, ...]:
    """How each seat of ``game`` was played (:func:`~.rules.seat_plays`), from its log."""
    log = s.scalars(select(ActionRow).where(ActionRow.game_id == game.id).order_by(ActionRow.version))
    moves = moves_in_effect(
        ActionData(a.version, a.seat, a.kind, a.move, a.undone, a.actor, a.created_at) for a in log
    )
    return seat_plays([(m.seat, m.actor) for m in moves], int(game.config["players"]))


def _rate(
    s: Session, game_id: str, mode: str, who: tuple[Entrant, ...], ranks: tuple[int, ...], now: float
) -> None:
    """Update the ratings of ``who`` (one per seat) by their rated places, and keep each seat's
    change. Rows are written in one fixed order (accounts by id, then bot levels), so two
    games settled at once on PostgreSQL wait for each other instead of deadlocking."""
    order = sorted(set(who), key=lambda e: (e.account is None, e.account or 0, e.bot or ""))
    before = {e: _rating(s, mode, e) for e in order}
    per_seat, after = rate(who, ranks, {e: r for e, (r, _) in before.items()})
    for entrant in order:
        _store_rating(s, mode, entrant, before[entrant], after[entrant], now)
    s.add_all(
        RatingChangeRow(
            game_id=game_id,
            seat=i,
            mode=mode,
            account_id=e.account,
            bot=e.bot,
            place=ranks[i],
            mu_before=before[e][0].mu,
            sigma_before=before[e][0].sigma,
            mu_after=per_seat[i].mu,
            sigma_after=per_seat[i].sigma,
            created_at=now,
        )
        for i, e in enumerate(who)
    )


def _names(s: Session, game_ids: Sequence[str]) -> Mapping[str, tuple[tuple[str, str | None], ...]]:
    """Each game's seats: the name, and the bot level of a bot's seat (else ``None``)."""
    found: dict[str, list[tuple[str, str | None]]] = {g: [] for g in game_ids}
    for game_id, name, kind, level in s.execute(
        select(SeatRow.game_id, SeatRow.name, SeatRow.kind, SeatRow.level)
        .where(SeatRow.game_id.in_(game_ids))
        .order_by(SeatRow.seat)
    ).all():
        found[game_id].append((name, level if kind == "bot" else None))
    return {g: tuple(v) for g, v in found.items()}


def _key(mode: str, entrant: Entrant) -> Any:
    if entrant.account is not None:
        return (RatingRow.mode == mode) & (RatingRow.account_id == entrant.account)
    return (RatingRow.mode == mode) & (RatingRow.bot == entrant.bot)


def _rating(s: Session, mode: str, entrant: Entrant) -> tuple[Rating, bool]:
    """The entrant's rating in ``mode`` (a new player's if none) and whether it is stored."""
    row = s.scalar(select(RatingRow).where(_key(mode, entrant)))
    return (Rating(), False) if row is None else (Rating(row.mu, row.sigma, row.games), True)


def _store_rating(
    s: Session, mode: str, entrant: Entrant, before: tuple[Rating, bool], new: Rating, now: float
) -> None:
    """Write ``new`` over ``before`` (:class:`_Moved` if the stored row changed since read;
    an ``IntegrityError`` if another process inserted the player's first rating meanwhile)."""
    values = {"mu": new.mu, "sigma": new.sigma, "ordinal": new.ordinal, "games": new.games, "updated_at": now}
    old, stored = before
    if not stored:
        s.add(RatingRow(mode=mode, account_id=entrant.account, bot=entrant.bot, **values))
        s.flush()
        return
    done = s.execute(
        update(RatingRow).where(_key(mode, entrant), RatingRow.games == old.games).values(**values)
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise _Moved(mode)


def _change(r: RatingChangeRow) -> SeatChange:
    return SeatChange(
        r.seat,
        r.account_id,
        r.bot,
        r.place,
        Rating(r.mu_before, r.sigma_before),
        Rating(r.mu_after, r.sigma_after),
    )
