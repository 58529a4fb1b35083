"""The server's plain values: a game, its seats and its actions as the storage hands them to
the service and the service to :mod:`.game` — detached from any database session, with the
status names they carry.

Pure: standard library only. :mod:`.storage` maps these to and from its SQLAlchemy rows;
:mod:`.game` (the game in memory, also pure) builds on them without importing the
persistence layer (``tests/project/test_layout.py`` checks it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

#: A game's status: waiting for players, being played, finished.
WAITING: Final = "waiting"
PLAYING: Final = "playing"
OVER: Final = "over"
#: The ends of a game that has no result: cancelled by its creator while waiting, expired
#: (no one acted for too long: :mod:`.lifecycle`), abandoned (every person resigned).
CANCELLED: Final = "cancelled"
EXPIRED: Final = "expired"
ABANDONED: Final = "abandoned"
#: Every status after which nothing more happens in a game.
ENDED: Final = frozenset({OVER, CANCELLED, EXPIRED, ABANDONED})


@dataclass(frozen=True, slots=True)
class SeatData:
    """A seat: ``human`` or ``bot`` (with its level), its player's name, the SHA-256 of its
    token (``None`` while a human seat is open), when its player was last seen, and whether
    the game's creator took it (``host``: its token may cancel the game while it waits; kept
    when the creator resigns it to a bot)."""

    seat: int
    kind: str
    level: str | None
    name: str
    token_hash: bytes | None
    last_seen: float | None
    host: bool = False


@dataclass(frozen=True, slots=True)
class ActionData:
    """An accepted action at ``version``: a ``move`` (in notation) or an ``undo`` (of
    ``undone`` moves), by ``seat``, chosen by ``actor`` (``player``, ``bot`` or ``takeover``)."""

    version: int
    seat: int
    kind: str
    move: str | None
    undone: int | None
    actor: str
    created_at: float


#: An action waiting to be stored: (game, action, its result if it ends the game, the next
#: move's deadline if the game has a clock, the game's last activity after it if it changes
#: it). A group commit stores a sequence of them.
PendingAction = tuple[str, ActionData, dict[str, Any] | None, float | None, float | None]


@dataclass(frozen=True, slots=True)
class GameData:
    """A game as stored: its configuration (seed included), status, table settings, seats,
    and (when loaded whole) every action in version order."""

    id: str
    config: dict[str, Any]
    status: str
    public: bool
    creator: str
    takeover_after: float | None
    takeover_level: str
    created_at: float
    finished_at: float | None
    result: dict[str, Any] | None
    seats: tuple[SeatData, ...]
    actions: tuple[ActionData, ...] = ()
    analysis: bool = False
    #: When a person last acted in the game (created, joined, left, moved); ``None``: at
    #: creation. Expiry counts from it.
    last_activity: float | None = None
    #: The table's time per move in seconds (its clock: :mod:`.clocks`); ``None``: no clock.
    move_seconds: float | None = None
    #: When the time of the move being played runs out (seconds since the epoch); ``None``
    #: without a clock, or while no move is due.
    deadline: float | None = None
    #: When the game started (``None`` while waiting for players).
    started_at: float | None = None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A lobby or replay-list entry (no seed, no tokens)."""

    id: str
    config: dict[str, Any]
    status: str
    created_at: float
    finished_at: float | None
    result: dict[str, Any] | None
    seats: tuple[SeatData, ...]
