"""The server's plain values: a game, its seats and its actions as the storage hands them to
the service and the service to :mod:`.game` — detached from any database session, with the
status names they carry.

Pure: standard library only. :mod:`.storage` maps these to and from its SQLAlchemy rows;
:mod:`.game` (the game in memory, also pure) builds on them without importing the
persistence layer (``tests/test_layout.py`` checks it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

#: A game's status: waiting for players, being played, finished.
WAITING: Final = "waiting"
PLAYING: Final = "playing"
OVER: Final = "over"


@dataclass(frozen=True, slots=True)
class SeatData:
    seat: int
    kind: str
    level: str | None
    name: str
    token_hash: bytes | None
    last_seen: float | None


@dataclass(frozen=True, slots=True)
class ActionData:
    version: int
    seat: int
    kind: str
    move: str | None
    undone: int | None
    actor: str
    created_at: float


@dataclass(frozen=True, slots=True)
class GameData:
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
