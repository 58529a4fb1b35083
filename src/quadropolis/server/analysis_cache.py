"""Analyses (hints) as the server gives them: computed by the bot pool from a position, kept
in a bounded cache keyed by the position, one under way at a time per client.

A one-way helper of :class:`~quadropolis.server.records.Records`: the records side decides
who may ask (a seat's token, the table's option) and names the position; this module
computes or recalls the reply and never calls back into it."""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any, Final

from ..bots import analysis_seed
from ..moves import Move
from ..record import GameRecord
from ..rules import apply_unchecked, new_game
from ..state import GameState
from .bot_pool import BotPool
from .errors import BadMessage, RateLimited, Unavailable

#: How many analyses (per game and position, or per record position) are kept.
ANALYSIS_CACHE: Final = 512
#: Candidates an analysis lists.
ANALYSIS_TOP: Final = 5

#: A cache key: the game id or "record", with a digest of the moves; the moves in effect.
Key = tuple[str, int]


def game_key(game_id: str, moves: list[str], at: int) -> Key:
    """The key of game ``game_id`` after the first ``at`` of its ``moves``. Keyed by the moves
    too: after an undo the same number of moves is another position."""
    return (game_id + "/" + _digest(" ".join(moves[:at])), at)


def record_key(prefix: GameRecord, at: int) -> Key:
    """The key of a record's position after its ``at`` moves (``prefix``: the record cut there)."""
    return ("record:" + record_digest(prefix), at)


def record_digest(record: GameRecord) -> str:
    """A digest of a whole record (configuration, moves, seats, result)."""
    return _digest(json.dumps(record.to_json(), sort_keys=True))


class AnalysisCache:
    """Analyses done, oldest first, at most :data:`ANALYSIS_CACHE`; and the clients (by
    address) with one under way."""

    def __init__(self) -> None:
        self._done: dict[Key, dict[str, Any]] = {}
        self._busy: set[str] = set()

    async def analyse(
        self, bots: BotPool | None, game_id: str | None, key: Key, record: GameRecord, client: str
    ) -> dict[str, Any]:
        """The ``analysis`` reply for the position after ``record``'s moves (legal: checked
        already). :class:`Unavailable` without bot workers, :class:`RateLimited` while the
        client has another one under way, :class:`BadMessage` if the game is over there."""
        at = len(record.moves)
        done = self._done.get(key)
        if done is None:
            if bots is None:
                raise Unavailable("this server runs no bot workers: analysis is off")
            if client in self._busy:
                raise RateLimited("one analysis at a time per client: wait for the one under way")
            self._busy.add(client)
            try:
                state = await asyncio.to_thread(_position, record)
                if state.is_over:
                    raise BadMessage(f"at: the game is over after {at} moves: there is no move to analyse")
                seed = analysis_seed(at, game_id or "record")
                done = await bots.analyse(state, seed, ANALYSIS_TOP, owner=client)
            finally:
                self._busy.discard(client)
            self._done[key] = done
            while len(self._done) > ANALYSIS_CACHE:
                del self._done[next(iter(self._done))]
        return {"type": "analysis", "game": game_id, "at": at, **done}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _position(record: GameRecord) -> GameState:
    """The state after every move of ``record`` (legal: checked already)."""
    state = new_game(record.config)
    for text in record.moves:
        apply_unchecked(state, Move.parse(text))
    return state
