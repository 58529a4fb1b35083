"""The table chat: the lines a game's players write to each other, kept with the game
(:mod:`.storage`: its last lines) and limited per seat and per client address across
connections and reconnections (``Limits.chat_per_minute`` and ``chat_burst``,
``address_chat_per_minute`` and ``address_chat_burst``), so reconnecting, or holding a seat on
several connections, gives no new lines. Who may write is the websocket hub's to decide (a
connection still holding a seat, as the game says); the hub also sends each line to the
game's connections (:mod:`..hub`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any, Final

from ..clock import Clock
from ..data import ChatLine
from ..edges import TokenBucket
from ..errors import RateLimited, Unavailable
from ..ports import ChatStore
from ..settings import Limits

log = logging.getLogger("quadropolis.server")

#: Chat rate buckets (per seat, per address) the table chat holds before forgetting the full ones.
BUCKETS_KEPT: Final = 10_000


class Buckets:
    """A :class:`TokenBucket` per key (a seat, an address), made on first use, whichever
    connection uses it; the full ones are forgotten whenever the table has grown past
    twice its size after the last clean-up (and :data:`BUCKETS_KEPT`)."""

    def __init__(self, per_minute: float, burst: int, clock: Callable[[], float]) -> None:
        self.per_minute = per_minute
        self.burst = burst
        self.clock = clock
        self._buckets: dict[Any, TokenBucket] = {}
        self._clean_at = BUCKETS_KEPT

    def get(self, key: Any) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self._clean_at:
                self._buckets = {k: b for k, b in self._buckets.items() if not b.full()}
                self._clean_at = max(BUCKETS_KEPT, 2 * len(self._buckets))
            bucket = self._buckets[key] = TokenBucket(self.per_minute / 60, self.burst, self.clock)
        return bucket


class TableChat:
    """The chat of every table, kept in ``store``, within ``limits``, on ``clock``."""

    def __init__(self, store: ChatStore, limits: Limits, clock: Clock) -> None:
        self.store = store
        self.limits = limits
        self.clock = clock
        #: Lines per seat (game, seat) and per client address, across connections.
        self._seats = Buckets(limits.chat_per_minute, limits.chat_burst, clock.monotonic)
        self._addresses = Buckets(limits.address_chat_per_minute, limits.address_chat_burst, clock.monotonic)

    async def history(self, game_id: str) -> list[ChatLine]:
        """The lines kept of ``game_id``, oldest first; none if they cannot be read (the chat
        is not worth refusing a connection for)."""
        try:
            return await asyncio.to_thread(self.store.chat, game_id)
        except Exception:
            log.exception("reading the chat of game %s", game_id)
            return []

    async def say(
        self, game_id: str, held: Iterable[int], address: str, seat: int, name: str, text: str
    ) -> ChatLine:
        """Keep ``text`` as said at ``seat`` (shown as ``name``) by a connection from client
        key ``address`` holding the seats ``held``: ``rate_limited`` naming the limit if a
        bucket of those seats or of the address is empty (then none is taken),
        ``unavailable`` if it cannot be stored. The line kept."""
        self._count(game_id, held, address)
        line = ChatLine(seat, name, text, self.clock.time())
        try:
            await asyncio.to_thread(self.store.add_chat, game_id, line)
        except Exception:
            log.exception("storing a chat line of game %s", game_id)
            raise Unavailable("the chat could not be stored; try again") from None
        return line

    def _count(self, game_id: str, held: Iterable[int], address: str) -> None:
        """Take a line from the bucket of every seat held and of the address, all or none."""
        seats = [self._seats.get((game_id, seat)) for seat in sorted(held)]
        by_address = self._addresses.get(address)
        limits = self.limits
        if not all(bucket.ready() for bucket in seats):
            raise RateLimited(
                f"at most {limits.chat_per_minute:g} chat lines a minute per seat "
                f"(bursts of {limits.chat_burst}), however many connections hold it"
            )
        if not by_address.ready():
            raise RateLimited(
                f"at most {limits.address_chat_per_minute:g} chat lines a minute from one "
                f"address (bursts of {limits.address_chat_burst}), over all its seats and games"
            )
        for bucket in (*seats, by_address):
            bucket.take()
