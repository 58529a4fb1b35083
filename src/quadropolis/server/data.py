"""The server's plain values: a game, its seats and its actions as the storage hands them to
the service and the service to :mod:`.game` — detached from any database session, with the
status names they carry.

Pure: standard library only. :mod:`.storage` maps these to and from its SQLAlchemy rows;
:mod:`.game` (the game in memory, also pure) builds on them without importing the
persistence layer (``tests/project/test_layout.py`` checks it)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

#: A game's status: waiting for players, being played, finished.
WAITING: Final = "waiting"
PLAYING: Final = "playing"
OVER: Final = "over"
#: The ends of a game that has no result: cancelled by its creator while waiting, expired
#: (no one acted for too long before its players made their first moves), abandoned (every
#: person resigned: games of earlier versions only; a resignation now ends a game ``over``).
CANCELLED: Final = "cancelled"
EXPIRED: Final = "expired"
ABANDONED: Final = "abandoned"
#: Every status after which nothing more happens in a game.
ENDED: Final = frozenset({OVER, CANCELLED, EXPIRED, ABANDONED})
#: The guided first game's deal (Classic, 2 players): round 1 shows every Classic building
#: type face up, at least twice each, so that each lesson of the client's guide
#: (web/src/lessons.ts) meets its building early. Never rated: its deal is known.
GUIDED_SEED: Final = 1
#: The moves of its own (played by its person, in effect) a seat needs before its game
#: counts: with fewer, a game idle too long is aborted (``expired``, unrated) rather than
#: lost by the seat to move, and a game where an account seat has fewer is unrated (two
#: turns of take and build: lichess aborts a game before each side has moved).
MIN_OWN_MOVES: Final = 4


@dataclass(frozen=True, slots=True)
class SeatData:
    """A seat: ``human`` or ``bot`` (with its level), its player's name, the SHA-256 of its
    token (``None`` while a human seat is open), when its player was last seen, whether the
    game's creator took it (``host``: its token may cancel the game while it waits; kept when
    the creator resigns it to a bot), the account of its player (``account``: ``None`` for a
    guest or an open seat), and when its player forfeited (resigned, or timed out: ``None``
    if not).

    Who holds a seat is this one fact, changed in one transaction by joining, leaving,
    resigning and creating: a person holds a seat while it is ``human`` and they prove either
    its token or its account (:meth:`.game.LiveGame.held_by`). A resigned seat (now ``bot``)
    keeps its ``account``, which answers for the seat's result, but no one may act in it."""

    seat: int
    kind: str
    level: str | None
    name: str
    token_hash: bytes | None
    last_seen: float | None
    host: bool = False
    account: int | None = None
    forfeited_at: float | None = None


@dataclass(frozen=True, slots=True)
class AccountProof:
    """A logged-in account's claim to act (the session was checked by the account service):
    it holds the seats whose ``account`` is :attr:`account` and that a person still plays."""

    account: int


@dataclass(frozen=True, slots=True)
class AccountData:
    """An account as stored (the password hash only for the service to verify against)."""

    id: int
    username: str
    password_hash: str
    created_at: float
    #: The client key of the address that created it (``unknown:ID`` if not known: never
    #: equal to another account's).
    signup_key: str


#: What a client proves to act for a seat: the seat's token (as sent) or its account.
Credential = str | AccountProof


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


def moves_in_effect(actions: Iterable[ActionData]) -> list[ActionData]:
    """The moves of a game's log (in version order) that are in effect: each undo takes
    back the last ``undone`` moves."""
    moves: list[ActionData] = []
    for action in actions:
        if action.kind == "move":
            moves.append(action)
        elif action.kind == "undo" and action.undone:
            del moves[len(moves) - action.undone :]
    return moves


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


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line of a game's table chat: the seat that wrote it, its name then, the text and
    when (:mod:`.social.storage` keeps the last lines of each game)."""

    seat: int
    name: str
    text: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "text": self.text, "at": self.at}
