"""Storage of the daily challenge, rematches and table chat, in the
same database as the games (created by migration ``0006``). Like :mod:`..storage` it hands out
plain values and is synchronous (the services call it from worker threads).

- ``daily_challenges``: one row per UTC day that someone asked for: the day (``YYYY-MM-DD``),
  the game configuration (seed included: never sent before a game of it is over) and the bot
  levels of the opponents. The first request of a day inserts it; a concurrent one finds it
  (the day is the primary key), so everyone plays the same deal.
- ``daily_entries``: one row per game of a challenge: the day, the game, the human seat, the
  account that played it (``NULL`` for a guest), and whether it is a guest's practice game
  (the day's format, a deal of its own). ``(day, account_id)`` is unique, so an account plays
  each day's challenge once even when two requests race; guests (``NULL``, which a unique
  constraint never compares equal) practise as often as they like, unranked.
- ``rematches``: the rematch of a finished game (the old game is the primary key: a game has
  at most one rematch, however many players ask at once).
- ``chat_lines``: the table chat of a game, the last :data:`CHAT_HISTORY` lines of each game
  (older ones are deleted when a new one is stored)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import (
    delete,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from ..data import OVER, ChatLine
from ..schema import AccountRow, ChatLineRow, DailyChallengeRow, DailyEntryRow, GameRow, RematchRow, SeatRow

#: Chat lines kept per game (the newest).
CHAT_HISTORY: Final = 50
#: Entries a day's leaderboard lists at most.
BOARD_SIZE: Final = 100


@dataclass(frozen=True, slots=True)
class Challenge:
    """A day's challenge as stored."""

    day: str
    config: dict[str, Any]
    levels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DailyGame:
    """A game of a day's challenge: its status and result (once over), the player's seat and
    name, whether an account played it (ranked), and when it ended."""

    game: str
    day: str
    seat: int
    ranked: bool
    username: str | None
    status: str
    result: dict[str, Any] | None
    finished_at: float | None
    #: Whether the seat is still a person's (a resigned seat is a bot's: not ranked).
    person: bool
    #: A guest's practice game (a deal of its own).
    practice: bool = False


class AlreadyPlayed(Exception):
    """The account has a game of that day's challenge already."""


class SocialStore:
    """Every read and write of challenges, daily entries, rematches and chat lines."""

    def __init__(self, engine: Engine) -> None:
        self._session = sessionmaker(engine, expire_on_commit=False)

    # --- the daily challenge -------------------------------------------------------------

    def challenge(self, day: str) -> Challenge | None:
        with self._session() as s:
            row = s.get(DailyChallengeRow, day)
            return None if row is None else Challenge(row.day, row.config, tuple(row.levels))

    def insert_challenge(self, challenge: Challenge, now: float) -> Challenge:
        """Store the day's challenge unless another request stored it first: the stored one."""
        row = DailyChallengeRow(
            day=challenge.day, config=challenge.config, levels=list(challenge.levels), created_at=now
        )
        try:
            with self._session.begin() as s:
                s.add(row)
        except IntegrityError:
            pass
        stored = self.challenge(challenge.day)
        assert stored is not None  # inserted, by this request or the one that won the race
        return stored

    def reserve(self, day: str, account_id: int, seat: int, now: float) -> int:
        """Reserve the account's entry of ``day`` before its game is created: the entry's id.
        :class:`AlreadyPlayed` if it has one (the unique ``(day, account_id)`` decides, so two
        racing requests cannot both win)."""
        row = DailyEntryRow(game_id=None, day=day, seat=seat, account_id=account_id, created_at=now)
        try:
            with self._session.begin() as s:
                s.add(row)
                s.flush()
                return row.id
        except IntegrityError:
            raise AlreadyPlayed(day) from None

    def fill(self, entry: int, game_id: str) -> None:
        """Give a reserved entry its game, once created."""
        with self._session.begin() as s:
            s.execute(update(DailyEntryRow).where(DailyEntryRow.id == entry).values(game_id=game_id))

    def unreserve(self, entry: int) -> None:
        """Drop a reservation whose game could not be created (the account may try again)."""
        with self._session.begin() as s:
            s.execute(delete(DailyEntryRow).where(DailyEntryRow.id == entry, DailyEntryRow.game_id.is_(None)))

    def add_practice(self, day: str, game_id: str, seat: int, now: float) -> None:
        """Record a guest's practice game of ``day``."""
        with self._session.begin() as s:
            s.add(
                DailyEntryRow(
                    game_id=game_id, day=day, seat=seat, account_id=None, created_at=now, practice=True
                )
            )

    def deal_day(self, game_id: str) -> str | None:
        """The day whose deal ``game_id`` plays (``None``: not a game of a day's deal; a
        practice game is not)."""
        with self._session() as s:
            return s.scalar(
                select(DailyEntryRow.day).where(
                    DailyEntryRow.game_id == game_id, DailyEntryRow.practice.is_(False)
                )
            )

    def finished_attempt(self, day: str, account_id: int) -> bool:
        """Whether the account has played its game of ``day`` to the end (``over``)."""
        with self._session() as s:
            found = s.scalar(
                select(GameRow.status)
                .join(DailyEntryRow, DailyEntryRow.game_id == GameRow.id)
                .where(DailyEntryRow.day == day, DailyEntryRow.account_id == account_id)
            )
        return found == OVER

    def entry_of(self, day: str, account_id: int) -> str | None:
        """The account's game of ``day``, if any."""
        with self._session() as s:
            return s.scalar(
                select(DailyEntryRow.game_id).where(
                    DailyEntryRow.day == day, DailyEntryRow.account_id == account_id
                )
            )

    def daily_game(self, game_id: str) -> DailyGame | None:
        """The daily entry of ``game_id``, if it is a game of a challenge."""
        rows = self._daily_games(DailyEntryRow.game_id == game_id)
        return rows[0] if rows else None

    def finished_entries(self, day: str) -> list[DailyGame]:
        """The ranked games of ``day`` that are over, their seat still a person's."""
        return [
            g
            for g in self._daily_games(
                DailyEntryRow.day == day, DailyEntryRow.account_id.is_not(None), GameRow.status == OVER
            )
            if g.person and g.result is not None
        ]

    def _daily_games(self, *where: Any) -> list[DailyGame]:
        with self._session() as s:
            rows = s.execute(
                select(DailyEntryRow, GameRow.status, GameRow.result, GameRow.finished_at, SeatRow.kind)
                .add_columns(AccountRow.username)
                .join(GameRow, GameRow.id == DailyEntryRow.game_id)
                .join(
                    SeatRow, (SeatRow.game_id == DailyEntryRow.game_id) & (SeatRow.seat == DailyEntryRow.seat)
                )
                .outerjoin(AccountRow, AccountRow.id == DailyEntryRow.account_id)
                .where(*where)
            ).all()
        return [
            DailyGame(
                e.game_id or "",
                e.day,
                e.seat,
                e.account_id is not None,
                user,
                status,
                result,
                finished,
                kind == "human",
                bool(e.practice),
            )
            for e, status, result, finished, kind, user in rows
        ]

    # --- rematches -------------------------------------------------------------------------

    def rematch_of(self, game_id: str) -> str | None:
        with self._session() as s:
            return s.scalar(select(RematchRow.rematch_id).where(RematchRow.game_id == game_id))

    def is_rematch(self, game_id: str) -> bool:
        """Whether ``game_id`` is the rematch of another game (its open seats are kept)."""
        with self._session() as s:
            return s.scalar(select(RematchRow.game_id).where(RematchRow.rematch_id == game_id)) is not None

    def insert_rematch(self, game_id: str, rematch_id: str, now: float) -> bool:
        """Record ``rematch_id`` as the rematch of ``game_id`` (``False`` if it has one already).
        Its seats were created with the accounts that held them in the old game."""
        try:
            with self._session.begin() as s:
                s.add(RematchRow(game_id=game_id, rematch_id=rematch_id, created_at=now))
        except IntegrityError:
            return False
        return True

    # --- chat ------------------------------------------------------------------------------

    def chat(self, game_id: str) -> list[ChatLine]:
        """The chat lines kept of ``game_id``, oldest first."""
        with self._session() as s:
            rows = s.scalars(
                select(ChatLineRow)
                .where(ChatLineRow.game_id == game_id)
                .order_by(ChatLineRow.id.desc())
                .limit(CHAT_HISTORY)
            ).all()
        return [ChatLine(r.seat, r.name, r.text, r.at) for r in reversed(rows)]

    def add_chat(self, game_id: str, line: ChatLine) -> None:
        """Store a line and delete the game's lines older than the newest :data:`CHAT_HISTORY`."""
        with self._session.begin() as s:
            s.add(ChatLineRow(game_id=game_id, seat=line.seat, name=line.name, text=line.text, at=line.at))
            s.flush()
            cutoff = s.scalar(
                select(ChatLineRow.id)
                .where(ChatLineRow.game_id == game_id)
                .order_by(ChatLineRow.id.desc())
                .offset(CHAT_HISTORY)
                .limit(1)
            )
            if cutoff is not None:
                s.execute(delete(ChatLineRow).where(ChatLineRow.game_id == game_id, ChatLineRow.id <= cutoff))
