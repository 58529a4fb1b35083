"""Rematches: a finished game's players play again at the same seats, with
the same settings and a new deal. Knows nothing of HTTP (:mod:`.routes`).

**Asking.** A player of a finished game asks with their seats' tokens (several for hotseat).
The first ask creates the rematch: a private game with the same mode, players, variants,
first player, takeover and analysis settings and a new seed; each bot seat is the same bot;
the asker's seats are theirs at once, under the same names (and the same account, if one held
them); every other human seat stays open and is **kept** for its player: only the holder of
that seat's token in the finished game can claim it (by asking for the rematch in turn), never
an invitation link. The database keeps one rematch per game (``rematches``), so two players
asking at once end up at the same table. The players still at the finished game's table get a
``rematch`` message on their websocket (the offer).

**Declining, or not coming.** A player who declines cancels the rematch (the table would no
longer be the same): the others see it cancelled. A player who neither joins nor declines
leaves it waiting; it expires like any game waiting for players (``waiting_expiry``, 30
minutes by default), and the asker may cancel it before (as any creator). A seat resigned
to a bot in the finished game is a bot's in the rematch too."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..data import OVER
from ..errors import NotFound, NotOver, SeatTaken
from ..game import BOT, LiveGame
from ..protocol import CreateGame, SeatSpec, Variants
from ..service import GameService
from .storage import SocialStore

T = TypeVar("T")
#: Tell the players of the finished game (its id, the rematch's id, the asking seats).
Offer = Callable[[str, str, list[int]], None]


@dataclass(frozen=True, slots=True)
class Rematch:
    """The rematch of a game and the tokens of the seats the asker holds in it now (seats
    already theirs from an earlier ask are not given again)."""

    game: str
    tokens: dict[int, str]


class RematchService:
    """Rematches over :class:`SocialStore` and the game service (module doc)."""

    def __init__(self, store: SocialStore, games: GameService, offer: Offer | None = None) -> None:
        self.store = store
        self.games = games
        self.offer = offer
        self._locks: dict[str, asyncio.Lock] = {}
        games.keeps_seats = store.is_rematch

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    async def current(self, game_id: str) -> str | None:
        """The rematch of ``game_id``, if one was asked for."""
        await self.games.game(game_id)
        return await self._run(self.store.rematch_of, game_id)

    async def ask(self, game_id: str, tokens: Iterable[str], client: str) -> Rematch:
        """Create the rematch, or take the asker's kept seats in the existing one."""
        old = await self.games.game(game_id)
        if old.status != OVER:
            raise NotOver("a rematch is for a finished game")
        held = sorted(await self.games.authenticate(game_id, tokens))
        # One ask at a time per game in this process; the database's primary key settles a
        # race between processes (the loser cancels its table and joins the winner's).
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        try:
            return await self._ask_locked(lock, old, held, client)
        finally:
            if not lock.locked():
                self._locks.pop(game_id, None)

    async def _ask_locked(self, lock: asyncio.Lock, old: LiveGame, held: list[int], client: str) -> Rematch:
        game_id = old.id
        async with lock:
            existing = await self._run(self.store.rematch_of, game_id)
            if existing is None:
                new = await self.games.create(_same_table(old, held), client, holders=_accounts(old, held))
                now = self.games.clock.time()
                if await self._run(self.store.insert_rematch, game_id, new.game, now):
                    if self.offer is not None:
                        self.offer(game_id, new.game, held)
                    return Rematch(new.game, new.tokens)
                await self.games.cancel_waiting(new.game)
                existing = await self._run(self.store.rematch_of, game_id)
                assert existing is not None
            return await self._join(old, existing, held)

    async def _join(self, old: LiveGame, rematch: str, seats: list[int]) -> Rematch:
        tokens: dict[int, str] = {}
        for seat in seats:
            try:
                before = old.seats[seat]
                tokens[seat] = await self.games.join(
                    rematch, seat, before.name, kept=True, account=before.account
                )
            except SeatTaken:
                continue  # theirs already (an earlier ask), or a bot's
        return Rematch(rematch, tokens)

    async def decline(self, game_id: str, tokens: Iterable[str]) -> str:
        """Decline the rematch of ``game_id`` for a player of it: the rematch is cancelled if it
        still waits for players. Returns its status after."""
        await self.games.authenticate(game_id, tokens)
        rematch = await self._run(self.store.rematch_of, game_id)
        if rematch is None:
            raise NotFound("no rematch of this game was asked for")
        await self.games.cancel_waiting(rematch)
        return (await self.games.game(rematch)).status


def _accounts(old: LiveGame, seats: list[int]) -> dict[int, int]:
    """The accounts that held ``seats`` of the old game (the rematch's seats are theirs too)."""
    return {s: account for s in seats if (account := old.seats[s].account) is not None}


def _same_table(old: LiveGame, take: list[int]) -> CreateGame:
    """The spec of the old game's table, the asker taking ``take`` under their names."""
    seats = [
        SeatSpec(type="bot", level=s.level)
        if s.kind == BOT
        else SeatSpec(name=s.name or None)
        if s.seat in take
        else SeatSpec()
        for s in old.seats
    ]
    config = old.config
    return CreateGame(
        mode=config.mode.value,
        players=config.players,
        variants=Variants.model_validate(
            {"urbanist_blocks": config.urbanist_blocks, "all_parks_absorb": config.all_parks_absorb}
        ),
        first_player=config.first_player,
        seats=seats,
        take=take,
        public=False,
        takeover_after=old.takeover_after,
        takeover_level=old.takeover_level,
        analysis=old.analysis,
    )
