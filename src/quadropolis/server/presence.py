"""Who is here, and who plays for whom: the connections to each seat in this process, a
seat's presence as the views show it, takeover (a bot playing for a player gone
``takeover_after`` seconds) and the heartbeats that tell other processes a player is here.

Presence is known locally from connections and, across processes, from the ``last_seen``
heartbeats in the database (every ``min(2 s, takeover_after / 3)`` while connected).

A one-way helper of :class:`~quadropolis.server.service.GameService` (which holds it and asks
it who is taken over) and of the collaborators above the service that count connections
(:mod:`.audience`) and send heartbeats (:mod:`.timers`): it reads a
:class:`~quadropolis.server.game.LiveGame` and the clock and keeps its own counts; it never
calls the service, the storage or the broker (they do the I/O it asks for)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Final

from .data import PLAYING, SeatData
from .game import HUMAN, LiveGame
from .views import SeatPresence

#: Longest heartbeat period while a player of a takeover game is connected.
HEARTBEAT_SECONDS: Final = 2.0


def heartbeat(game: LiveGame) -> float:
    """Seconds between two heartbeats of ``game``'s connected players."""
    return min(HEARTBEAT_SECONDS, (game.takeover_after or HEARTBEAT_SECONDS * 3) / 3)


class Presence:
    """The connections of one server process to each seat, and what follows from them."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        #: Open connections per (game, seat) in this process.
        self._local: Counter[tuple[str, int]] = Counter()
        #: When each game's present players were last written to the database.
        self._touched: dict[str, float] = {}
        #: The presence each game's clients were last shown.
        self._shown: dict[str, tuple[SeatPresence, ...]] = {}

    def change(self, game: LiveGame, seats: list[int], delta: int, now: float) -> None:
        """``delta`` connections (+1 or -1) to ``seats`` of ``game``; those seats seen ``now``."""
        for seat in seats:
            self._local[(game.id, seat)] += delta
            if self._local[(game.id, seat)] <= 0:
                del self._local[(game.id, seat)]
            game.seen(seat, now)
        game.presence += 1

    def touched(self, game_id: str, now: float) -> None:
        """The game's present players were written to the database ``now``."""
        self._touched[game_id] = now

    def heartbeat_due(self, game: LiveGame, now: float) -> list[int]:
        """The seats of ``game`` connected here if their heartbeat is due, else none."""
        here = [s.seat for s in game.seats if self._local[(game.id, s.seat)] > 0]
        if here and now - self._touched.get(game.id, 0.0) >= heartbeat(game):
            return here
        return []

    def of(self, game: LiveGame) -> tuple[SeatPresence, ...]:
        """Each seat's presence and takeover now, as the views show them."""
        now = self.clock()
        return tuple(
            SeatPresence(self._present(game, s, now), self.taken_over(game, s.seat, now)) for s in game.seats
        )

    def shown_changed(self, game: LiveGame) -> bool:
        """Whether the presence differs from what ``game``'s clients were last shown (it is
        then remembered as shown)."""
        shown = self.of(game)
        if self._shown.get(game.id) == shown:
            return False
        self._shown[game.id] = shown
        return True

    def _present(self, game: LiveGame, seat: SeatData, now: float) -> bool:
        if seat.kind != HUMAN or seat.token_hash is None:
            return False
        if self._local[(game.id, seat.seat)] > 0:
            return True
        # Connected to another process: its heartbeats keep last_seen recent.
        return (
            game.takeover_after is not None
            and seat.last_seen is not None
            and now - seat.last_seen < 2.5 * heartbeat(game)
        )

    def taken_over(self, game: LiveGame, seat: int, now: float) -> bool:
        """Whether a bot plays ``seat`` for its absent player: the game allows takeover and
        the player has had no connection for ``takeover_after`` seconds."""
        info = game.seats[seat]
        if game.takeover_after is None or info.kind != HUMAN or game.status != PLAYING:
            return False
        if self._local[(game.id, seat)] > 0:
            return False
        last = info.last_seen if info.last_seen is not None else game.created_at
        return now - last >= game.takeover_after

    def forget(self, game_id: str) -> None:
        """Drop what is kept of a game that leaves memory (no connection holds it)."""
        self._touched.pop(game_id, None)
        self._shown.pop(game_id, None)
