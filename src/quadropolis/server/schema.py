"""The database schema: every table of the server as SQLAlchemy models, in one metadata
(:data:`Base.metadata`). Below every store: the games' repository (:mod:`.storage`) and the
features' (:mod:`.accounts.storage`, :mod:`.ratings.storage`, :mod:`.social.storage`) import
their rows from here, and the Alembic environment (``migrations/env.py``) and the test that
compares models with migrations read this metadata. Imports nothing of the server.

The games' four tables (the features' are described by their stores' modules):

- ``games``: one row per game: its configuration *including the seed* (never sent to a
  client before the end), status (``waiting`` for players, ``playing``, ``over``), the
  creator's client key (for the per-client quota), the takeover settings, whether the table
  allows analysis (hints), the clock (time per move and the deadline of the move being
  played: :mod:`.clocks`) and, once over, the result.
- ``seats``: one row per seat: ``human`` or ``bot`` (with its level), the player's name, the
  SHA-256 of the seat token (``NULL`` while the seat is open; the token itself is never
  stored), the player's account (``NULL`` for a guest), when the player was last seen (for
  takeover) and when they forfeited. Who holds a seat is decided by this row alone.
- ``actions``: the append-only history. Each accepted action is a row ``(game_id, version)``
  with ``version`` = 1, 2, 3... in order; the pair is the primary key, so the database itself
  refuses a second action at the same version, even from another server process: that is how
  a move is never applied twice (optimistic concurrency). An undo is a row of kind ``undo``
  (nothing is ever deleted), so the history keeps the undone moves.
- ``reviews``: the post-game review of a finished game (one row per game, written once when
  the review is done: ``Review.to_json()`` of :mod:`quadropolis.bots`, with the search budget
  it was made with).

The schema is created and upgraded only by the Alembic migrations in ``migrations/``
(:meth:`.storage.Store.upgrade`), never by ``create_all``; a test checks models and migrations agree.

The accounts' ``accounts`` and ``account_sessions``; the ratings' ``settled_games``,
``seat_results``, ``ratings`` and ``rating_changes``; the social features' ``daily_challenges``,
``daily_entries``, ``rematches`` and ``chat_lines``."""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: The width of ``accounts.username_skeleton``: the longest skeleton of a valid username
#: (:data:`.accounts.names.SKELETON_MAX`, which a test checks fits).
SKELETON_WIDTH: Final = 40

#: Constraint names fixed by convention, so migrations name them the same on every backend.
NAMING: Final = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: ``GameConfig.to_json()``, seed included.
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    public: Mapped[bool] = mapped_column(Boolean)
    creator: Mapped[str] = mapped_column(String(64))
    #: Seconds a human seat may be gone before a bot plays it; ``None``: never.
    takeover_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    takeover_level: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: Whether the players may ask for the analysis (hints) of the running game.
    analysis: Mapped[bool] = mapped_column(Boolean, server_default=false())
    #: When a person last acted (created, joined, left, moved, resigned): expiry counts from it.
    last_activity: Mapped[float] = mapped_column(Float)
    #: The table's time per move (seconds, as chosen: the clock scale is not applied);
    #: ``None``: no clock.
    move_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: When the time of the move being played runs out; ``None`` without a clock or a move due.
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: When the game started (created full, or its last open seat taken): the first turn's
    #: time counts from it (:mod:`.clocks`); ``None`` while waiting, and for games started
    #: before revision ``0012`` (their ``created_at`` stands in).
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (
        Index(None, "status", "public", "created_at"),
        Index(None, "creator", "status"),
        Index(None, "status", "last_activity"),
        Index(None, "status", "deadline"),
    )


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human | bot
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    #: SHA-256 of the seat token; ``None`` while a human seat is open.
    token_hash: Mapped[bytes | None] = mapped_column(LargeBinary(32), nullable=True)
    last_seen: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: Taken by the game's creator when creating it: its token may cancel the waiting game. It
    #: stays set when the creator resigns the seat to a bot (the game then leaves their quota).
    host: Mapped[bool] = mapped_column(Boolean, server_default=false())
    #: When the seat's player forfeited (resigned, or timed out when the game expired);
    #: ``None`` if not. The game's result ranks forfeits in this order.
    forfeited_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: The account of the seat's player (``None``: a guest, or open). Who holds a seat is this
    #: row alone (:class:`~.data.SeatData`): it is set with the token when an account takes the
    #: seat, cleared with it when they leave, and kept when they resign (the seat's result is
    #: theirs). Deleting an account clears it (and names the seat "Former player").
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (Index(None, "account_id", "game_id"),)


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    #: 1, 2, 3... in the order accepted; (game_id, version) is unique (the primary key).
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))  # move | undo
    #: The move in the engine's notation (kind ``move``).
    move: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: How many moves an undo took back (kind ``undo``).
    undone: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Who chose it: ``player``, ``bot`` (a bot seat) or ``takeover`` (a bot for an absent player).
    actor: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)


class ReviewRow(Base):
    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    #: Search simulations per take the review was made with.
    iterations: Mapped[int] = mapped_column(Integer)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(20))
    #: ``username.casefold()``: what uniqueness is decided on.
    username_key: Mapped[str] = mapped_column(String(20), unique=True)
    #: :func:`.names.skeleton` of the username; ``NULL`` only for an account made
    #: before skeletons were kept whose skeleton an older account had (both were kept).
    username_skeleton: Mapped[str | None] = mapped_column(String(SKELETON_WIDTH), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[float] = mapped_column(Float)
    #: The client key of the address that created the account (:data:`UNKNOWN_SIGNUP` and the
    #: id if not known).
    signup_key: Mapped[str] = mapped_column(String(64))

    __table_args__ = (Index(None, "signup_key", "created_at"),)


class SessionRow(Base):
    __tablename__ = "account_sessions"

    #: SHA-256 of the session id.
    id_hash: Mapped[bytes] = mapped_column(LargeBinary(32), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"))
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index(None, "account_id"), Index(None, "expires_at"))


class SettledGameRow(Base):
    __tablename__ = "settled_games"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    settled_at: Mapped[float] = mapped_column(Float)


class SeatResultRow(Base):
    __tablename__ = "seat_results"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    place: Mapped[int] = mapped_column(Integer)
    score: Mapped[int] = mapped_column(Integer)
    #: VP by score-sheet category (``CityScore.breakdown``).
    breakdown: Mapped[dict[str, int]] = mapped_column(JSON)


class RatingRow(Base):
    __tablename__ = "ratings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    mode: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True
    )
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        UniqueConstraint("mode", "account_id"),
        UniqueConstraint("mode", "bot"),
        Index(None, "mode", "ordinal"),
    )


class RatingChangeRow(Base):
    __tablename__ = "rating_changes"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    mode: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index(None, "account_id", "mode", "created_at"),)


class DailyChallengeRow(Base):
    __tablename__ = "daily_challenges"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    #: ``GameConfig.to_json()``, seed included.
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: The opponents' bot levels, in seat order after the player's seat 0.
    levels: Mapped[list[str]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class DailyEntryRow(Base):
    __tablename__ = "daily_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: ``None`` only between the reservation of an account's entry and its game's creation.
    game_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("games.id"), nullable=True, unique=True
    )
    day: Mapped[str] = mapped_column(String(10), ForeignKey("daily_challenges.day"))
    seat: Mapped[int] = mapped_column(Integer)
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[float] = mapped_column(Float)
    #: A guest's practice game: the day's format, a deal of its own, never ranked.
    practice: Mapped[bool] = mapped_column(Boolean, server_default=false())

    __table_args__ = (UniqueConstraint("day", "account_id"), Index(None, "day"))


class RematchRow(Base):
    __tablename__ = "rematches"

    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    rematch_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), unique=True)
    created_at: Mapped[float] = mapped_column(Float)


class ChatLineRow(Base):
    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(200))
    at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index(None, "game_id", "id"),)
