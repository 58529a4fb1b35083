"""The daily challenge: each UTC day one deal that everyone plays against the
same bots; each account plays it once and is ranked on the day's leaderboard; guests practise
the day's format on deals of their own, unranked. Knows nothing of HTTP (:mod:`.routes`
is the transport).

**The day's challenge.** Its *format* follows from the date alone (public: players may know
tomorrow's): with ``n = date.toordinal()``, the mode and player count are
``formats[n % len(formats)]`` (the server's ``daily_formats``, by default every mode with 2 to
4 players), and opponent ``i`` (seats 1, 2, 3; the player is seat 0) is the bot level
``DAILY_LEVELS[(n + i) % 3]``. Its *deal* — the seed and the first player — is drawn at random
by the server when the day's first player asks for the challenge, and stored
(``daily_challenges``): everyone gets the same, and no one can know it before the day.

**Once per account.** Starting the challenge as an account reserves the account's entry of
the day before the game is created; the database's unique ``(day, account)`` refuses a second
one, even from two requests at once (``already_played``).

**Guests practise.** A guest gets a *practice* game: the day's format and opponents, a deal
drawn for that game alone, never ranked (recorded, so its end screen shows the day's board).
Were guests dealt the day's deal, a finished guest game's record (its seed) would tell every
round of it before the ranked attempt.

**The day's deal stays hidden** until the day ends (UTC) from everyone who has not played
their own ranked game of it to the end: the games of the day's deal (their views, moves,
records, analyses, reviews, spectating: :meth:`DailyService.check_watch`, the service's
``watch_rule``) and the leaderboard's links to them. Their own players see their own games.

**The leaderboard** of a day lists the accounts' finished games (a seat resigned to a bot
is not ranked), by place at their table (R13, :func:`~quadropolis.outcome.result_places`),
then VP (more first), then who finished first."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any, Final, TypeVar

from ...config import GameConfig
from ...outcome import result_places
from ...tiles import Mode
from ..accounts.storage import AccountStore
from ..data import AccountData
from ..errors import AlreadyPlayed, BadMessage, Forbidden, NotFound
from ..protocol import CreateGame, SeatSpec
from ..service import GameService, NewGame, Viewer
from ..settings import DAILY_FORMATS, parse_daily_format
from .storage import BOARD_SIZE, Challenge, DailyGame, SocialStore
from .storage import AlreadyPlayed as EntryTaken

T = TypeVar("T")

#: The opponents' levels the days cycle through: the quick ones (no costly search).
DAILY_LEVELS: Final = ("easy", "medium", "neural")
#: How many of the best cities the client draws after a game.
TOP_CITIES: Final = 3
#: Games known not to play a day's deal, kept at most (the oldest forgotten first).
NOT_DEALT_CACHE: Final = 100_000
_DAY: Final = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_day(text: str) -> date:
    """A ``YYYY-MM-DD`` date; :class:`BadMessage` otherwise."""
    try:
        if _DAY.fullmatch(text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise BadMessage(f"not a day: {text[:20]!r} (expected YYYY-MM-DD)")


def day_format(day: date, formats: tuple[str, ...] = DAILY_FORMATS) -> tuple[str, int, tuple[str, ...]]:
    """The mode, player count and opponents' levels of ``day`` (the module doc's scheme)."""
    n = day.toordinal()
    mode, players = parse_daily_format(formats[n % len(formats)])
    return mode, players, tuple(DAILY_LEVELS[(n + i) % len(DAILY_LEVELS)] for i in range(1, players))


class DailyService:
    """The daily challenge over :class:`SocialStore` and the game service (module doc)."""

    def __init__(
        self,
        store: SocialStore,
        games: GameService,
        accounts: AccountStore,
        formats: tuple[str, ...] = DAILY_FORMATS,
        clock: Callable[[], float] | None = None,
    ) -> None:
        for text in formats:
            parse_daily_format(text)
        if not formats:
            raise ValueError("the daily challenge needs at least one format")
        self.store = store
        self.games = games
        self.accounts = accounts
        self.formats = formats
        #: Wall time: the game service's clock unless one is given.
        self.clock = clock or games.clock.time
        #: Games known not to play a day's deal: their entry, if any, is stored before the
        #: game's id is handed out, so a game found without one never gets one.
        self._not_dealt: dict[str, None] = {}
        games.watch_rule = self.check_watch

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    def today(self) -> date:
        return datetime.fromtimestamp(self.clock(), UTC).date()

    async def challenge(self, day: date) -> Challenge:
        """The challenge of ``day``: stored, or drawn now if ``day`` is today (``not_found``
        for a day no one played, and for days to come)."""
        stored = await self._run(self.store.challenge, day.isoformat())
        if stored is not None:
            return stored
        if day != self.today():
            raise NotFound(f"there is no daily challenge of {day.isoformat()}")
        mode, players, levels = day_format(day, self.formats)
        config = GameConfig(
            mode=Mode.parse(mode),
            players=players,
            seed=secrets.randbits(62),
            first_player=secrets.randbelow(players),
        )
        drawn = Challenge(day.isoformat(), config.to_json(), levels)
        return await self._run(self.store.insert_challenge, drawn, self.clock())

    async def start(self, account: AccountData | None, name: str, client: str) -> tuple[NewGame, bool]:
        """Start today's challenge: the new game (seat 0 taken) and whether it is ranked (an
        account's, on the day's deal; a guest's is practice). ``already_played`` if the
        account has played today's."""
        today = await self.challenge(self.today())
        config = GameConfig.from_json(today.config)
        spec = CreateGame(
            mode=config.mode.value,
            players=config.players,
            first_player=config.first_player,
            seats=[SeatSpec(), *(SeatSpec(type="bot", level=level) for level in today.levels)],
            name=account.username if account is not None else name,
            take=[0],
            public=False,
            analysis=False,
        )
        if account is None:
            new = await self.games.create(spec, client, _practice_deal(config))
            await self._run(self.store.add_practice, today.day, new.game, 0, self.clock())
            return new, False
        try:
            entry = await self._run(self.store.reserve, today.day, account.id, 0, self.clock())
        except EntryTaken:
            raise AlreadyPlayed("you have played today's challenge already: come back tomorrow") from None
        try:
            new = await self.games.create(spec, client, config, holders={0: account.id})
        except BaseException:
            await self._run(self.store.unreserve, entry)
            raise
        await self._run(self.store.fill, entry, new.game)
        return new, True

    async def check_watch(self, game_id: str, viewer: Viewer) -> None:
        """:class:`Forbidden` if ``game_id`` plays today's deal and the viewer (who holds no
        seat of it: ``viewer()`` is their account's id, ``None`` for a guest) has not played
        their own ranked game of today to the end."""
        day = await self._dealt_today(game_id)
        if day is None:
            return
        account = await viewer()
        if account is not None and await self._run(self.store.finished_attempt, day, account):
            return
        raise Forbidden(
            "this game plays today's daily challenge: its deal stays hidden until you have "
            "played your own ranked game of today to the end, or until the day ends (UTC)"
        )

    async def _dealt_today(self, game_id: str) -> str | None:
        """Today if ``game_id`` plays today's deal, else ``None``."""
        if game_id in self._not_dealt:
            return None
        day = await self._run(self.store.deal_day, game_id)
        today = self.today().isoformat()
        if day is None or day < today:  # a past day's deal is everyone's to see
            self._not_dealt[game_id] = None
            while len(self._not_dealt) > NOT_DEALT_CACHE:
                del self._not_dealt[next(iter(self._not_dealt))]
            return None
        return day

    async def _sees_games(self, day: str, account: AccountData | None) -> bool:
        """Whether the viewer may see the games of ``day``'s deal (see the module doc)."""
        if day != self.today().isoformat():
            return True
        return account is not None and await self._run(self.store.finished_attempt, day, account.id)

    async def board(self, day: date, account: AccountData | None) -> dict[str, Any]:
        """The ``daily`` reply: the day's format, its leaderboard, the best cities to draw,
        and the account's game of the day (``you``: ``null`` for a guest or if not played).
        ``games_shown``: whether the leaderboard names its games (``game``) and ``top`` lists
        them: today, only to an account that has played its own game of the day to the end."""
        challenge = await self.challenge(day)
        lines = await self._leaderboard(challenge.day)
        mine = None if account is None else await self._run(self.store.entry_of, challenge.day, account.id)
        shown = await self._sees_games(challenge.day, account)
        config = GameConfig.from_json(challenge.config)
        return {
            "type": "daily",
            "day": challenge.day,
            "today": challenge.day == self.today().isoformat(),
            "mode": config.mode.value,
            "players": config.players,
            "opponents": list(challenge.levels),
            "games_shown": shown,
            "leaderboard": lines if shown else [{**line, "game": None} for line in lines],
            "top": [{"game": line["game"], "seat": line["seat"]} for line in lines[:TOP_CITIES]]
            if shown
            else [],
            "you": None if mine is None else {"game": mine, "line": _line_of(lines, mine)},
        }

    async def of_game(self, game_id: str, account: AccountData | None) -> dict[str, Any]:
        """The ``daily`` reply of the day of ``game_id`` as ``account`` sees it (:meth:`board`),
        with this game as ``you`` and its result (``game``: ranked or practice, place at the
        table, VP). ``not_found`` if it is not a game of a daily challenge."""
        entry = await self._run(self.store.daily_game, game_id)
        if entry is None:
            raise NotFound("this game is not a daily challenge")
        reply = await self.board(parse_day(entry.day), account)
        lines = await self._leaderboard(entry.day)
        reply["you"] = {"game": game_id, "line": _line_of(lines, game_id)}
        reply["game"] = {
            "ranked": entry.ranked,
            "practice": entry.practice,
            "seat": entry.seat,
            **_table_result(entry),
        }
        return reply

    async def _leaderboard(self, day: str) -> list[dict[str, Any]]:
        games = await self._run(self.store.finished_entries, day)
        rows = sorted(
            ((_table_result(g), g) for g in games),
            key=lambda r: (r[0]["place"], -r[0]["vp"], r[1].finished_at or 0.0, r[1].game),
        )
        return [
            {"rank": i, "username": g.username, "game": g.game, "seat": g.seat, **result}
            for i, (result, g) in enumerate(rows[:BOARD_SIZE], 1)
        ]


def _practice_deal(day: GameConfig) -> GameConfig:
    """A deal of the day's format drawn for one practice game (never the day's own)."""
    while True:
        seed = secrets.randbits(62)
        if seed != day.seed:
            return GameConfig(
                mode=day.mode, players=day.players, seed=seed, first_player=secrets.randbelow(day.players)
            )


def _table_result(entry: DailyGame) -> dict[str, Any]:
    """The place at its table (R13), the player count and the VP of a daily game's player
    (``None`` each while the game runs)."""
    if entry.result is None:
        return {"place": None, "of": None, "vp": None}
    places = result_places(entry.result)
    return {"place": places[entry.seat], "of": len(places), "vp": entry.result["scores"][entry.seat]}


def _line_of(lines: list[dict[str, Any]], game_id: str) -> dict[str, Any] | None:
    return next((line for line in lines if line["game"] == game_id), None)
