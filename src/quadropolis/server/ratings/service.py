"""Results and ratings as the server keeps them: settles every finished game once
— its seats' results kept, its players' ratings updated if it is rated (the rules:
:mod:`.rules`) — and answers the leaderboard, a game's rating changes and the profiles.
Knows nothing of HTTP (:mod:`.routes` is the transport).

**When a game is settled.** As soon as this process sees it finished (the game service's
listener: a move here, or one in another process announced through the broker), in a worker
thread; the places kept are the core's (:attr:`quadropolis.outcome.Outcome.ranks` of the game's
result, forfeits last), the places rated those of :func:`~.rules.rated_places`. **Once**,
whatever happens: the database's primary key on ``settled_games`` refuses a
second settling of a game, in the same transaction as the ratings it would change
(:meth:`~.storage.RatingStore.settle`). **Never lost**: a game the server finished but
did not settle (it stopped in between) is settled when a server starts — with the games
finished before ratings existed, oldest first — and every :data:`BACKLOG_SECONDS` after."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from ...scoring import CATEGORIES
from ..accounts.storage import AccountStore
from ..data import OVER
from ..errors import NotFound
from ..game import LiveGame
from ..service import GameService
from ..storage import Store
from .rules import Rating
from .storage import HistoryPoint, PlayedGame, RatingStore, SeatChange, Standing

log = logging.getLogger("quadropolis.server")
T = TypeVar("T")

#: How often the backlog of unsettled finished games is looked for (seconds).
BACKLOG_SECONDS: Final = 60.0
#: Games settled per backlog batch (each replayed from its history first).
BACKLOG_BATCH: Final = 50
#: Games listed on a profile, and games its statistics count (the newest).
PROFILE_GAMES: Final = 50
STATISTICS_GAMES: Final = 2000
#: Finished games this process remembers having settled (so a game is tried once here).
_REMEMBERED: Final = 10_000


@dataclass(frozen=True, slots=True)
class Profile:
    """A player's public profile (see :meth:`RatingService.profile`)."""

    username: str
    joined: float
    games_played: int
    ratings: dict[str, Rating]
    history: list[HistoryPoint]
    games: list[PlayedGame]
    statistics: list[PlayedGame]


class RatingService:
    """Settles finished games and reads ratings (see the module doc)."""

    def __init__(
        self,
        store: RatingStore,
        games: GameService,
        accounts: AccountStore,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.store = store
        self.games = games
        self.accounts = accounts
        #: Wall time: the game service's clock unless one is given.
        self.clock = clock or games.clock.time
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._backlog: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Listen for finished games and start settling the backlog."""
        self.games.subscribe(self._changed)
        self._backlog = asyncio.create_task(self._backlog_forever(), name="ratings-backlog")

    async def close(self) -> None:
        tasks = [t for t in (self._backlog, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    # --- settling ----------------------------------------------------------------------

    def _changed(self, game_id: str) -> None:
        game = self.games.loaded(game_id)
        if game is None or game.status != OVER or game.result is None or game_id in self._seen:
            return
        self._remember(game_id)
        task = asyncio.create_task(self._settle(game), name=f"settle-{game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _remember(self, game_id: str) -> None:
        self._seen[game_id] = None
        while len(self._seen) > _REMEMBERED:
            self._seen.popitem(last=False)

    async def _settle(self, game: LiveGame) -> None:
        assert game.result is not None
        try:
            await self._run(self.store.settle, game.id, game.result, self.clock())
        except Exception:  # the backlog settles it later
            log.exception("settling game %s failed", game.id)
            self._seen.pop(game.id, None)

    async def settle_backlog(self) -> int:
        """Settle the finished games not settled yet (oldest first); how many were."""
        done = 0
        while True:
            ids = await self._run(self.store.unsettled, BACKLOG_BATCH)
            progress = False
            for game_id in ids:
                game = await self._run(_replayed, self.games.store, game_id)
                if game is None or game.result is None:
                    log.warning("finished game %s does not replay to its end: not settled", game_id)
                    continue
                done += await self._run(self.store.settle, game_id, game.result, self.clock())
                self._remember(game_id)
                progress = True
            if not progress:  # none left (or only games that cannot be settled)
                return done

    async def _backlog_forever(self) -> None:
        while True:
            try:
                await self.settle_backlog()
            except Exception:
                log.exception("settling the backlog of finished games failed")
            await asyncio.sleep(BACKLOG_SECONDS)

    # --- reads -------------------------------------------------------------------------

    async def leaderboard(self, mode: str, limit: int, offset: int) -> list[Standing]:
        return await self._run(self.store.leaderboard, mode, limit, offset)

    async def changes(self, game_id: str) -> tuple[bool, list[SeatChange]]:
        """Whether finished ``game_id`` is settled yet, and its seats' rating changes (none
        if unrated). ``not_found`` if no such game."""
        await self.games.game(game_id)
        # Settled first: a game's changes are committed with its settling, so once it reads
        # as settled its changes are there (the other order could miss both in between).
        if not await self._run(self.store.is_settled, game_id):
            return False, []
        return True, await self._run(self.store.changes, game_id)

    async def profile(self, username: str) -> Profile:
        """The public profile of ``username``: ratings by mode, their history, the newest
        games played and the games its statistics count. ``not_found`` if no such player."""
        account = await self._run(self.accounts.by_username, username) if len(username) <= 64 else None
        if account is None:
            raise NotFound("no such player")
        played = await self._run(self.store.played, account.id, STATISTICS_GAMES)
        return Profile(
            username=account.username,
            joined=account.created_at,
            games_played=await self._run(self.accounts.finished_games, account.id),
            ratings=await self._run(self.store.ratings_of, account.id),
            history=await self._run(self.store.history, account.id),
            games=played[:PROFILE_GAMES],
            statistics=played,
        )


def _replayed(store: Store, game_id: str) -> LiveGame | None:
    """The game rebuilt from its stored history (in a worker thread: replaying takes time)."""
    data = store.load(game_id)
    return None if data is None else LiveGame.rebuild(data)


@dataclass(frozen=True, slots=True)
class Statistics:
    """A player's games of one mode and player count: how many, wins (first place, shared
    or not), average and best VP, and average VP by score-sheet category."""

    mode: str
    players: int
    games: int
    wins: int
    average: float
    best: int
    categories: dict[str, float]


def statistics(played: list[PlayedGame]) -> list[Statistics]:
    """``played`` grouped by mode and player count (Classic first, then by player count)."""
    groups: dict[tuple[str, int], list[PlayedGame]] = {}
    for game in played:
        groups.setdefault((game.mode, game.players), []).append(game)
    out = []
    for (mode, players), games in sorted(groups.items()):
        n = len(games)
        keys = sorted({k for g in games for k in g.breakdown}, key=_category_order)
        out.append(
            Statistics(
                mode=mode,
                players=players,
                games=n,
                wins=sum(1 for g in games if g.place == 1),
                average=sum(g.score for g in games) / n,
                best=max(g.score for g in games),
                categories={k: sum(g.breakdown.get(k, 0) for g in games) / n for k in keys},
            )
        )
    return out


def _category_order(key: str) -> int:
    return CATEGORIES.index(key) if key in CATEGORIES else len(CATEGORIES)
