"""The authority: creates games, seats players, and accepts actions — checked with the engine,
stored, then published — plays the bots' turns and takes over for absent players. Knows
nothing of HTTP or websockets (the app is a thin transport over it), so it is tested without
a network.

**Accepting an action** (:meth:`GameService.act`, :meth:`GameService.undo`), under the game's
lock: the token must hash to the seat's stored SHA-256 (constant-time compare), the version
must be the game's current one (else ``stale``), the game must be running, the seat must be
the one to move, and the move must be legal (:func:`~quadropolis.rules.explain_illegal`, whose
reason is the reply). The action is then inserted at version + 1 and committed; only then is
it applied in memory, published, and acknowledged (actions of different games arriving
together are committed together: :mod:`~quadropolis.server.writer`). The database's UNIQUE
(game, version) refuses a second action at the same version, from this process or another:
the loser gets ``stale`` and catches up from the database. So an acknowledged action is on
disk, and no action is ever applied twice.

**Bots** (bot seats, and human seats under takeover) are played by one task per game: the
decision is computed in a worker process (:class:`~quadropolis.server.bot_pool.BotPool`) from the
observation with the seed hidden, then committed like a player's move at the version it was
computed for (if anything changed meanwhile — the player came back, someone else acted — it is
dropped and the next decision starts).

**Restart**: nothing is replayed at start-up. A game is loaded on first use (a request or a
connection): its stored history is replayed with the engine in a database thread, off the
event loop, and its bot resumes if it is a bot's turn.

**Life cycle** (times in :class:`~quadropolis.server.settings.Limits`): the creator's seat
token may cancel a game still waiting for players (``cancelled``); a player of a waiting
game may leave (the seat opens again); a player of a running game may resign, which is a
forfeit: the resigner is placed below every seat that did not forfeit. A game of 2 players,
or one where no person holds a seat any more, ends at once (``over``, the cities scored as
they stand); otherwise a bot plays the seat to the end — the game's ``takeover_level`` if
the table allows takeover, else the weakest level. The sweeper expires waiting games with
no activity for ``waiting_expiry`` seconds; a running one where no person acted for
``playing_expiry`` is lost by the person to move (``over``, a forfeit) once every person has
played :data:`~.data.MIN_OWN_MOVES` moves of their own, else aborted (``expired``). Only
live games count towards the per-address quota.

**Takeover**: when a game allows it, a human seat whose player has had no connection for
``takeover_after`` seconds is played by a bot of ``takeover_level`` until the player connects
again (who is present, and when a bot takes over: :mod:`~quadropolis.server.presence`).

**Clocks** (:mod:`~quadropolis.server.clocks`): a table with a time per move stores the
deadline of the turn being played with each action (counted from when the turn became the
seat's: a take or an undo does not restart it); when it passes, the bot of
``takeover_level`` plays the turn (actor ``clock``). The clock task wakes at the earliest
deadline in the database (loading that game if this process has not yet), so deadlines
pass after a restart without any game being replayed at start-up.

**Analyses** (hints) are computed and cached by :mod:`~quadropolis.server.analysis_cache`; the
service decides who may ask for which position. **Reviews** of finished games and posted
records run as jobs of :mod:`~quadropolis.server.reviews`; a game's is stored with it in the
database, a record's kept in memory (the last :data:`~quadropolis.server.reviews.RECORD_REVIEWS`)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Final, TypeVar

from ..bots import LEVELS
from ..config import GameConfig
from ..errors import QuadropolisError
from ..moves import Move
from ..outcome import outcome
from ..phases import PLACE
from ..record import GameRecord, replay, result_json
from ..rules import apply_unchecked, explain_illegal, new_game
from ..tiles import Mode
from .analysis_cache import AnalysisCache, game_key, record_digest, record_key
from .bot_pool import COSTLY_LEVELS, BotPool, decision_key
from .broker import EVERY_GAME, Broker, LocalBroker, Notice
from .clocks import CLOCK_ACTOR, CLOCK_POLL, IDLE_MOVES, deadline_after
from .data import (
    CANCELLED,
    ENDED,
    EXPIRED,
    GUIDED_SEED,
    MIN_OWN_MOVES,
    OVER,
    PLAYING,
    WAITING,
    AccountProof,
    ActionData,
    Credential,
    GameData,
    GameSummary,
    SeatData,
)
from .errors import (
    BadMessage,
    BadRecord,
    Forbidden,
    GameStarted,
    LimitReached,
    NotFound,
    NotOver,
    SeatTaken,
    Stale,
    Unavailable,
)
from .game import BOT, HUMAN, LiveGame
from .postgres_commit import PostgresAppender
from .presence import Presence
from .protocol import CreateGame, SeatSpec
from .rated import rated_table
from .reviews import RECORD_REVIEWS, ReviewJobs
from .settings import Limits
from .storage import StorageError, Store, VersionTaken
from .views import SeatPresence, ViewCache, replay_view, view, view_text
from .writer import Writer

log = logging.getLogger("quadropolis.server")

T = TypeVar("T")
Listener = Callable[[str], None]
#: Who asks to see a game without holding a seat of it: called (only if needed) for their
#: account's id, ``None`` for a guest.
Viewer = Callable[[], Awaitable[int | None]]

_GAME_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: A running game unchanged this long is checked for a bot turn to start by every process.
STALL_SECONDS: Final = 1.0
#: Seats of a game are re-read for an unknown token at most this often (seconds).
SEAT_REREAD_SECONDS: Final = 1.0
#: Group commits in flight at once on PostgreSQL (:class:`.writer.Writer`; SQLite: one).
POSTGRES_BATCHES: Final = 2
#: Who plays a resigned seat at a table without takeover: the weakest level.
WEAKEST_LEVEL: Final = next(iter(LEVELS))


def hash_token(token: str) -> bytes:
    """What the database keeps of a seat token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def new_token() -> str:
    """A seat token: 128 random bits, URL-safe text."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True, slots=True)
class NewGame:
    """What creating a game gives its creator: the game id, a token for each seat taken (to
    keep private) and the open seats to invite players to."""

    game: str
    tokens: dict[int, str]
    invites: list[int]


class GameService:
    """The game authority of one server process (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        broker: Broker | None = None,
        bots: BotPool | None = None,
        limits: Limits | None = None,
        sweep_seconds: float = 0.5,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.broker = broker or LocalBroker()
        self.bots = bots
        self.limits = limits or Limits()
        self.sweep_seconds = sweep_seconds
        self.clock = clock
        # SQLite admits one writer at a time: one thread avoids lock waits; PostgreSQL
        # takes several (its pool is as large).
        self._db = ThreadPoolExecutor(1 if store.backend == "sqlite" else 8, thread_name_prefix="db")
        # PostgreSQL's commits go from the event loop (:mod:`.postgres_commit`), SQLite's
        # from its database thread.
        appender = PostgresAppender(store.url, POSTGRES_BATCHES) if store.backend == "postgresql" else None
        self._appender = appender
        self._writer = Writer(
            partial(self._run, self.store.append_batch)
            if appender is None
            else lambda batch: self._stored(appender.append_batch(batch)),
            concurrency=1 if store.backend == "sqlite" else POSTGRES_BATCHES,
        )
        self._games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        self._views: dict[str, ViewCache] = {}
        self._listeners: list[Listener] = []
        self._presence = Presence(clock)
        #: Open connections (players and spectators) per game, to know when to evict it.
        self._watchers: Counter[str] = Counter()
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        #: When each game last changed (monotonic clock), to spot stalled bot turns.
        self._changed: dict[str, float] = {}
        self._create_locks: dict[str, asyncio.Lock] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._clock_task: asyncio.Task[None] | None = None
        #: Set when a deadline may have come nearer (an action here, a notice from elsewhere).
        self._clock_wake = asyncio.Event()
        self._closing = False
        self._analyses = AnalysisCache()
        self._reviews = ReviewJobs(self.limits.reviews_per_client, self.limits.reviews_running)
        self._record_reviews: dict[str, dict[str, Any]] = {}
        #: Games whose presence changed and is not yet written and pushed (debounced).
        self._presence_due: dict[str, set[int]] = {}
        #: When each finished game in memory was last asked for (monotonic clock).
        self._used: dict[str, float] = {}
        #: When each game's seats were last re-read for an unknown token (monotonic clock).
        self._seats_read: dict[str, float] = {}
        self._flushes: set[asyncio.Task[None]] = set()
        self._next_expiry = 0.0
        #: How many games this process has loaded from the database (``/api/health``).
        self.loads = 0
        #: A storage call telling whether a game's open seats are kept for named players (a
        #: rematch's: :mod:`.rematch` sets it); ``None``: no game keeps its seats.
        self.keeps_seats: Callable[[str], bool] | None = None
        #: Raises :class:`Forbidden` if a viewer holding no seat of a game may not see it
        #: (the daily challenge hides its day's games: :mod:`.daily` sets it); ``None``:
        #: whoever knows a game's id may watch it.
        self.watch_rule: Callable[[str, Viewer], Awaitable[None]] | None = None

    # --- life cycle --------------------------------------------------------------------

    async def start(self) -> None:
        """Start the broker and the sweeper. No game is loaded: each is on first use."""
        if self._appender is not None:
            await self._appender.open()
        await self.broker.start(self._on_notice)
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="sweeper")
        self._clock_task = asyncio.create_task(self._clocks_forever(), name="clocks")

    async def close(self) -> None:
        self._closing = True
        running = (self._sweeper, self._clock_task, *self._bot_tasks.values(), *self._flushes)
        tasks = [t for t in running if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._reviews.close()
        await self.broker.close()
        if self._appender is not None:
            await self._appender.close()
        self._db.shutdown(wait=True)

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(game_id)`` whenever a game's clients should get a new view (an
        action, here or in another process; a seat claimed; a player arriving or leaving)."""
        self._listeners.append(listener)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call in the database threads."""
        loop = asyncio.get_running_loop()
        return await self._stored(loop.run_in_executor(self._db, partial(fn, *args)))

    async def _stored(self, call: Awaitable[T]) -> T:
        """Await a storage call (in a database thread, or on the event loop): a failure
        other than the storage's own errors is logged and becomes :class:`Unavailable`."""
        try:
            return await call
        except QuadropolisError:  # VersionTaken, StorageError: the caller's to handle
            raise
        except Exception as e:
            log.exception("storage failure")
            raise Unavailable(f"storage unavailable: {type(e).__name__}") from None

    # --- games -------------------------------------------------------------------------

    def loaded(self, game_id: str) -> LiveGame | None:
        """The game if this process holds it in memory (no database access)."""
        return self._games.get(game_id)

    async def game(self, game_id: str) -> LiveGame:
        """The game, loaded from the database on first use (replayed in a database thread, and
        its bot started if it is a bot's turn); :class:`NotFound` if none."""
        game = self._games.get(game_id)
        if game is not None:
            if game.status in ENDED:
                self._used[game_id] = time.monotonic()
            return game
        if not _GAME_ID.fullmatch(game_id):
            raise NotFound("no such game")
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[game_id] = pending
            try:
                rebuilt = await self._run(_load, self.store, game_id)
                loaded = None if rebuilt is None else self._games.setdefault(game_id, rebuilt)
                if loaded is rebuilt and loaded is not None:
                    self.loads += 1
                    self._used[game_id] = time.monotonic()
                    self._kick(loaded)
                pending.set_result(loaded)  # type: ignore[arg-type]
            except BaseException as e:
                pending.set_exception(e)
            finally:
                del self._loading[game_id]
        result = await asyncio.shield(pending)
        if result is None:
            raise NotFound("no such game")
        return result

    async def create(
        self,
        spec: CreateGame,
        client: str,
        config: GameConfig | None = None,
        holders: Mapping[int, int] | None = None,
    ) -> NewGame:
        """Create a game for ``client`` (its address: the per-client quota is counted on it).
        Raises :class:`BadMessage` for an inconsistent spec, :class:`LimitReached` over quota.
        ``config``: the deal to play instead of one drawn from ``spec`` (the daily challenge's
        seeded deal, whose mode and players ``spec`` repeats). ``holders``: the account that
        holds each of the seats taken (none: guests), stored with the seats."""
        seats, take = seat_plan(spec)
        config = config or _config(spec)
        lock = self._create_locks.setdefault(client, asyncio.Lock())
        async with lock:
            now = self.clock()
            await self._check_quota(client, now, _costly_seats(spec, seats))
            tokens = {seat: new_token() for seat in take}
            held = holders or {}
            rows = tuple(
                _seat_row(i, s.type, s.level, s.name or spec.name, take, tokens, now, named=bool(s.name))
                for i, s in enumerate(seats)
            )
            rows = tuple(replace(r, account=held.get(r.seat)) if r.seat in take else r for r in rows)
            status = WAITING if any(r.kind == HUMAN and r.token_hash is None for r in rows) else PLAYING
            due = self._deadline(spec.move_time, now) if status == PLAYING else None
            data = GameData(
                id=secrets.token_urlsafe(9),
                config=config.to_json(),
                status=status,
                public=spec.public,
                creator=client[:64],
                takeover_after=spec.takeover_after,
                takeover_level=spec.takeover_level,
                created_at=now,
                finished_at=None,
                result=None,
                seats=rows,
                analysis=_analysis_allowed(spec, rows),
                last_activity=now,
                move_seconds=spec.move_time,
                deadline=due,
                started_at=now if status == PLAYING else None,
            )
            await self._run(self.store.insert_game, data)
        game = self._games.setdefault(data.id, LiveGame.rebuild(data))
        self._kick(game)
        if due is not None:  # the clocks' next look may be later than this deadline
            self._clock_wake.set()
        return NewGame(data.id, tokens, game.open_seats())

    async def _check_quota(self, client: str, now: float, costly: int) -> None:
        """:class:`LimitReached` if ``client`` has created its quota of live games, or if
        ``costly`` more costly bot seats would put it over its limit of those."""
        limits = self.limits
        since = (now - limits.waiting_expiry, now - limits.playing_expiry)
        active = await self._run(self.store.active_games_of, client, *since)
        if active >= limits.games_per_client:
            raise LimitReached(
                f"You have {active} open game{'s' if active != 1 else ''} from this address, the "
                "limit: finish, resign or "
                "cancel one of them to start another (a game waiting for players expires after "
                f"{_duration(limits.waiting_expiry)} without activity, a running one after "
                f"{_duration(limits.playing_expiry)} without a move)"
            )
        if not costly:
            return
        held = await self._run(self.store.costly_seats_of, client, COSTLY_LEVELS)
        cap = limits.costly_bots_per_client
        if held + costly > cap:
            raise LimitReached(
                f"this address has {held} hard or expert bot seats in unfinished games and asks for "
                f"{costly} more; the limit is {cap} at once (finish a game, or choose easy or medium)"
            )

    async def join(
        self, game_id: str, seat: int, name: str, *, kept: bool = False, account: int | None = None
    ) -> str:
        """Claim open ``seat`` for a player called ``name`` (and their ``account``, stored with
        the seat in the same transaction); returns the seat's token. :class:`SeatTaken` if it
        is not open (a bot's, or claimed by someone else); :class:`Forbidden` if the game's
        open seats are kept for named players (a rematch: :attr:`keeps_seats`) unless the
        caller is the one that checked who (``kept``)."""
        game = await self.game(game_id)
        if not 0 <= seat < len(game.seats):
            raise NotFound(f"game {game_id} has no seat {seat}")
        if not kept and self.keeps_seats is not None and await self._run(self.keeps_seats, game_id):
            raise Forbidden(
                "this seat is kept for its player of the previous game (they join from its end screen)"
            )
        token = new_token()
        async with game.lock:
            game.check_not_ended()
            if game.seats[seat].kind != HUMAN or game.seats[seat].token_hash is not None:
                raise SeatTaken(f"seat {seat} is not open")
            now = self.clock()
            claimed = await self._run(
                self.store.claim_seat,
                game_id,
                seat,
                name,
                hash_token(token),
                now,
                self._deadline(game.move_seconds, now),
                account,
            )
            await self._catch_up_locked(game)
            if not claimed:
                raise SeatTaken(f"seat {seat} is not open")
            await self._publish(game)
        self._kick(game)
        if game.deadline is not None:  # the game may have just started, with a clock
            self._clock_wake.set()
        return token

    # --- the life cycle ------------------------------------------------------------------

    async def cancel(self, game_id: str, token: str) -> None:
        """Cancel a game still waiting for players, for the holder of a seat its creator took
        (:class:`Forbidden` for anyone else). :class:`GameStarted` once it has started (its
        players resign instead), :class:`GameOver` once it has ended."""
        game = await self.game(game_id)
        async with game.lock:
            await self._catch_up_locked(game)
            game.check_not_ended()
            seat = game.seat_of_token(hash_token(token))
            if seat is None or not game.seats[seat].host:
                raise Forbidden("only the seat of the player who created the game may cancel it")
            if game.status != WAITING or not await self._run(self.store.cancel, game_id):
                await self._catch_up_locked(game)
                raise GameStarted(f"game {game_id} has started: a player resigns instead of cancelling")
            game.status = CANCELLED
            game.presence += 1
            await self._publish(game)

    async def cancel_waiting(self, game_id: str) -> bool:
        """Cancel a game still waiting for players on the server's own decision (a declined
        rematch); ``False`` if it was not waiting any more."""
        game = await self.game(game_id)
        async with game.lock:
            cancelled = game.status == WAITING and await self._run(self.store.cancel, game_id)
            await self._catch_up_locked(game)
            if cancelled:
                game.status = CANCELLED
                game.presence += 1
                await self._publish(game)
            return cancelled

    async def leave(self, game_id: str, seat: int, token: str) -> None:
        """Give back ``seat`` of a game still waiting for players: it is open again."""
        game = await self.game(game_id)
        async with game.lock:
            await self._authorize(game, seat, token)
            game.check_not_ended()
            left = game.status == WAITING and await self._run(
                self.store.leave, game_id, seat, hash_token(token), self.clock()
            )
            await self._catch_up_locked(game)
            if not left:
                raise GameStarted(f"game {game_id} has started: resign instead of leaving")
            await self._publish(game)

    async def resign(self, game_id: str, seat: int, token: str) -> str:
        """Resign ``seat`` of a running game: its player forfeits (placed below every seat
        that did not forfeit: :func:`~quadropolis.outcome.places`). A game of 2 players, or
        one where no person holds a seat any more, ends at once (``over``, its cities scored
        as they stand); otherwise a bot plays the seat to the end (the table's takeover
        level if it allows takeover, else the weakest level) and the others play on.
        Returns the game's status after."""
        game = await self.game(game_id)
        async with game.lock:
            await self._authorize(game, seat, token)
            await self._catch_up_locked(game)  # the forfeits so far, as stored
            game.check_playing()
            level = game.takeover_level if game.takeover_after is not None else WEAKEST_LEVEL
            result = result_json(outcome(game.state, (*game.forfeits, seat)))
            now = self.clock()
            status = await self._run(self.store.resign, game_id, seat, hash_token(token), level, now, result)
            await self._catch_up_locked(game, now)
            if status is None:
                raise Stale(f"seat {seat} of game {game_id} could not be resigned: it changed meanwhile")
            await self._publish(game)
        self._kick(game)
        return status

    async def expire(self) -> list[str]:
        """End the games idle too long (see :class:`~.settings.Limits`); their ids. A running
        one whose persons have each played :data:`~.data.MIN_OWN_MOVES` moves of their own
        is lost by the person to move (``over``: :meth:`_forfeit_idle`); any other is
        ``expired`` (aborted, without a result). Each is announced, so the other processes
        holding one read its new status."""
        now = self.clock()
        since = (now - self.limits.waiting_expiry, now - self.limits.playing_expiry)
        clock_idle = IDLE_MOVES * self.limits.clock_scale
        forfeited = []
        for game_id in await self._run(self.store.idle_running, since[1], now, clock_idle):
            if await self._forfeit_idle(game_id, now, (since[1], clock_idle)):
                forfeited.append(game_id)
        expired = await self._run(self.store.expire, *since, now, clock_idle)
        for game_id in expired:
            game = self._games.get(game_id)
            if game is not None and game.status not in ENDED:
                game.status = EXPIRED
                game.presence += 1
            await self.broker.publish(game_id, game.version if game is not None else 0)
        return forfeited + expired

    async def _forfeit_idle(self, game_id: str, now: float, idle: tuple[float, float]) -> bool:
        """End idle running ``game_id`` as lost by the seat to move, if a person holds it and
        every seat a person holds has played :data:`~.data.MIN_OWN_MOVES` moves of its own;
        whether it did (else :meth:`expire` aborts it)."""
        game = await self.game(game_id)
        async with game.lock:
            await self._catch_up_locked(game)
            seat = game.to_move
            people = [s.seat for s in game.seats if s.kind == HUMAN and s.token_hash is not None]
            if seat is None or seat not in people or any(game.own_moves(p) < MIN_OWN_MOVES for p in people):
                return False
            result = result_json(outcome(game.state, (*game.forfeits, seat)))
            if not await self._run(self.store.forfeit_idle, game_id, seat, result, now, idle):
                return False
            await self._catch_up_locked(game, now)
            await self._publish(game)
        return True

    # --- acting ------------------------------------------------------------------------

    async def act(self, game_id: str, seat: int, token: Credential, version: int, move: str) -> ActionData:
        """Play ``move`` for ``seat`` against the game at ``version`` (see the module doc for
        the checks, in order: ``forbidden``, ``stale``, ``not_started``/``game_over``,
        ``not_your_turn``, ``illegal_move``). Returns the stored action."""
        game = await self.game(game_id)
        async with game.lock:
            await self._authorize(game, seat, token)
            await self._check_version(game, version)
            checked = game.check_move(seat, move)
            action = ActionData(game.version + 1, seat, "move", str(checked), None, "player", self.clock())
            await self._commit(game, action)
        self._kick(game)
        return action

    async def undo(self, game_id: str, seat: int, token: Credential, version: int) -> ActionData:
        """Take back ``seat``'s last action (the rule of :mod:`quadropolis.undo`), stored as an
        ``undo`` entry: the undone moves stay in the history."""
        game = await self.game(game_id)
        async with game.lock:
            await self._authorize(game, seat, token)
            await self._check_version(game, version)
            undone = game.check_undo(seat)
            action = ActionData(game.version + 1, seat, "undo", None, undone, "player", self.clock())
            await self._commit(game, action)
        self._kick(game)
        return action

    async def authenticate(self, game_id: str, tokens: Iterable[str]) -> dict[int, str]:
        """The seats held by ``tokens`` (seat -> token). Raises :class:`Forbidden` if any token
        holds no seat of the game (after re-reading the seats: another process may have just
        given it)."""
        game = await self.game(game_id)
        hashes = [(t, hash_token(t)) for t in tokens]
        if any(game.seat_of_token(h) is None for _, h in hashes):
            await self._reread_seats(game)
        held: dict[int, str] = {}
        for token, h in hashes:
            seat = game.seat_of_token(h)
            if seat is None:
                raise Forbidden("a token does not hold any seat of this game")
            held[seat] = token
        return held

    async def _reread_seats(self, game: LiveGame) -> None:
        """Re-read the seats for a token unknown here: only while a seat is open (it may have
        just been claimed in another process; other seat changes reach this process through
        the broker), at most once per :data:`SEAT_REREAD_SECONDS` per game, and outside the
        game's lock — so a flood of wrong tokens costs no database read under the lock."""
        now = time.monotonic()
        if (
            not game.open_seats()
            or now - self._seats_read.get(game.id, -SEAT_REREAD_SECONDS) < SEAT_REREAD_SECONDS
        ):
            return
        self._seats_read[game.id] = now
        game.set_seats(await self._run(self.store.seats, game.id))

    async def _authorize(self, game: LiveGame, seat: int, credential: Credential) -> None:
        """:class:`Forbidden` unless ``credential`` holds ``seat`` now (:meth:`LiveGame.held_by`:
        the seat is a person's and the credential is its token or its account). Seats reach
        this process through the broker; only an open seat is read again (it may have been
        claimed in another process just now), so wrong credentials cost no database read."""
        proof = _proof(credential)
        if game.held_by(seat, proof):
            return
        if 0 <= seat < len(game.seats) and game.seats[seat].token_hash is None:
            await self._catch_up_locked(game)
            if game.held_by(seat, proof):
                return
        held = "your account does not" if isinstance(credential, AccountProof) else "this token does not"
        raise Forbidden(f"{held} hold seat {seat}")

    async def _check_version(self, game: LiveGame, version: int) -> None:
        if version > game.version:  # another process may be ahead of this one
            await self._catch_up_locked(game)
        if version != game.version:
            raise Stale(f"version {version} is not the game's current version {game.version}")

    async def _commit(self, game: LiveGame, action: ActionData) -> None:
        """Store ``action`` (committed) with the deadline of the turn after it and the game's
        activity, then apply it in memory and publish it."""
        result, turn_start, activity = _effects(game, action)
        deadline = None if result is not None else self._deadline(game.move_seconds, turn_start)
        try:
            await self._writer.append(game.id, action, result, deadline, activity)
        except VersionTaken:
            await self._catch_up_locked(game)
            raise Stale(
                f"version {action.version} was taken by another action; the game is at {game.version}"
            ) from None
        except StorageError as e:
            raise Unavailable(str(e)) from None
        game.record(action)
        game.deadline = deadline
        self._changed[game.id] = time.monotonic()
        if deadline is not None:
            self._clock_wake.set()
        await self._publish(game)

    async def _publish(self, game: LiveGame) -> None:
        await self.broker.publish(game.id, game.version)

    # --- keeping up with other processes ------------------------------------------------

    async def _on_notice(self, notice: Notice) -> None:
        if notice.remote:
            self._clock_wake.set()  # another process may have set a nearer deadline
            # Seats change without a new version, so a remote notice is always read back.
            every = notice.game == EVERY_GAME
            for game in list(self._games.values()) if every else [self._games.get(notice.game)]:
                if game is not None:
                    await self.catch_up(game)
        # One game's notice looks that game up, not every loaded game (hundreds, every move).
        if notice.game == EVERY_GAME:
            targets = list(self._games)
        else:
            targets = [notice.game] if notice.game in self._games else []
        for game_id in targets:
            self._notify(game_id)

    def _notify(self, game_id: str) -> None:
        for listener in self._listeners:
            try:
                listener(game_id)
            except Exception:
                log.exception("a state listener failed")

    async def catch_up(self, game: LiveGame) -> None:
        """Read from the database what other processes added to ``game``."""
        async with game.lock:
            await self._catch_up_locked(game)

    async def _catch_up_locked(self, game: LiveGame, now: float | None = None) -> None:
        """Read back ``game`` as stored (``now``: when this process ended it, if it did)."""
        status, seats, actions, deadline, started = await self._run(
            self.store.refresh_clocked, game.id, game.version
        )
        game.set_seats(seats)
        game.deadline = deadline
        game.started_at = started if started is not None or status == WAITING else game.created_at
        if actions:
            game.extend(actions)
            self._changed[game.id] = time.monotonic()
        if status != game.status and (status == PLAYING or status in ENDED) and game.status != OVER:
            game.set_status(status, self.clock() if now is None else now)
            game.presence += 1

    # --- views and presence ------------------------------------------------------------

    def view(self, game: LiveGame, you: Mapping[int, Credential] | None = None) -> dict[str, Any]:
        """The view of a client that proved ``you`` (seat -> its credential; none: a
        spectator): seats it no longer holds are viewed as a spectator's."""
        cache = self._views.setdefault(game.id, ViewCache())
        return view(game, still_held(game, you or {}), self.presence(game), cache)

    def view_text(self, game: LiveGame, you: Mapping[int, Credential] | None = None) -> str:
        """:meth:`view` as JSON text (the public part serialised once for every client)."""
        cache = self._views.setdefault(game.id, ViewCache())
        return view_text(game, still_held(game, you or {}), self.presence(game), cache)

    def presence(self, game: LiveGame) -> tuple[SeatPresence, ...]:
        """Each seat's presence and takeover now (:meth:`.presence.Presence.of`)."""
        return self._presence.of(game)

    def opened(self, game_id: str) -> None:
        """A client (player or spectator) connected to ``game_id`` in this process."""
        self._watchers[game_id] += 1

    def closed(self, game_id: str) -> None:
        """A client of ``game_id`` left. A finished game nobody watches leaves memory once no
        one has asked for it for ``finished_cache`` seconds (the sweeper's), not at once: a
        spectator reconnecting in a loop to a finished game would have it read again from
        the database and replayed at every connection."""
        self._watchers[game_id] -= 1
        if self._watchers[game_id] <= 0:
            del self._watchers[game_id]
        self._evict_if_idle(game_id, time.monotonic())

    def _evict_if_idle(self, game_id: str, now: float | None = None) -> None:
        """Forget an ended game no client here watches and no one asked for in the last
        ``finished_cache`` seconds (it is read again if asked for): memory then holds running
        games, watched ones and recently asked for ones."""
        game = self._games.get(game_id)
        if game is None or game.status not in ENDED or self._watchers[game_id] or game_id in self._bot_tasks:
            return
        if now is not None and now - self._used.setdefault(game_id, now) < self.limits.finished_cache:
            return  # (a game just ended counts as asked for now)
        del self._games[game_id]
        for table in (self._views, self._changed, self._used, self._seats_read):
            table.pop(game_id, None)
        self._presence.forget(game_id)

    async def connected(self, game_id: str, seats: Iterable[int]) -> None:
        """A client holding ``seats`` connected to this process."""
        await self._presence_change(game_id, list(seats), +1)

    async def disconnected(self, game_id: str, seats: Iterable[int]) -> None:
        """A client holding ``seats`` went away (the takeover clock starts now)."""
        await self._presence_change(game_id, list(seats), -1)

    async def _presence_change(self, game_id: str, seats: list[int], delta: int) -> None:
        """Count the change at once (takeover reads it), but write it and push it only after
        ``presence_delay``, once for every change in between: a seat holder's connect/close
        loop costs a bounded number of database writes and pushes, not two per cycle."""
        if not seats:
            return
        game = await self.game(game_id)
        self._presence.change(game, seats, delta, self.clock())
        due = self._presence_due.get(game_id)
        if due is not None:
            due.update(seats)
            return
        self._presence_due[game_id] = set(seats)
        task = asyncio.create_task(self._flush_presence(game), name=f"presence-{game_id}")
        self._flushes.add(task)  # held until done: the loop keeps only weak references
        task.add_done_callback(self._flushes.discard)

    async def _flush_presence(self, game: LiveGame) -> None:
        """After ``presence_delay``, write the presence of ``game`` changed meanwhile, and push
        it if what clients see changed."""
        await asyncio.sleep(self.limits.presence_delay)
        seats = sorted(self._presence_due.pop(game.id, ()))
        if self._closing or not seats:
            return
        now = self.clock()
        with contextlib.suppress(Unavailable):  # presence is advisory; the next heartbeat retries
            await self._run(self.store.touch, game.id, seats, now)
        self._presence.touched(game.id, now)
        if self._presence.shown_changed(game):
            self._notify(game.id)

    # --- bots --------------------------------------------------------------------------

    def _bot_for(self, game: LiveGame) -> tuple[str, str] | None:
        """(level, actor) of the bot to play now, if the seat to move is a bot's or taken over."""
        seat = game.to_move
        if seat is None:
            return None
        info = game.seats[seat]
        if info.kind == BOT and info.level is not None:
            return info.level, "bot"
        now = self.clock()
        if self._presence.taken_over(game, seat, now):
            return game.takeover_level, "takeover"
        if game.deadline is not None and now >= game.deadline:
            return game.takeover_level, CLOCK_ACTOR
        return None

    def _kick(self, game: LiveGame) -> None:
        """Start the bot's decision if it is a bot's turn and none is under way."""
        if self._closing or self.bots is None or game.id in self._bot_tasks:
            return
        who = self._bot_for(game)
        if who is None:
            return
        task = asyncio.create_task(self._bot_turn(game, game.version, *who), name=f"bot-{game.id}")
        self._bot_tasks[game.id] = task

    async def _bot_turn(self, game: LiveGame, version: int, level: str, actor: str) -> None:
        assert self.bots is not None
        again = True
        try:
            key = decision_key(game.config.seed, game.id, version)
            move = await self.bots.choose(level, game.state, key, owner=game.creator or game.id)
            async with game.lock:
                if game.version != version or self._bot_for(game) != (level, actor):
                    return  # someone acted meanwhile, or the player is back
                seat = game.state.current_player
                reason = explain_illegal(game.state, move)
                if reason is not None:
                    raise QuadropolisError(f"bot {level} played {move}: {reason}")
                action = ActionData(version + 1, seat, "move", str(move), None, actor, self.clock())
                await self._commit(game, action)
        except Stale:
            pass
        except asyncio.CancelledError:
            raise
        except Exception:
            # The sweeper retries later; retrying at once could spin on a broken pool.
            again = False
            log.exception("bot turn failed in game %s", game.id)
        finally:
            self._bot_tasks.pop(game.id, None)
        if again:
            self._kick(game)

    async def idle(self) -> None:
        """Wait until no bot decision is under way (tests and benchmarks use it)."""
        while self._bot_tasks:
            await asyncio.gather(*self._bot_tasks.values(), return_exceptions=True)

    # --- the sweeper -------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sweep failed")

    async def sweep(self) -> None:
        """Heartbeats for present players of takeover games, others' heartbeats read back,
        takeovers started or ended (pushed to clients), stalled bot turns restarted."""
        now = self.clock()
        watched = [g for g in self._games.values() if g.status == PLAYING and g.takeover_after is not None]
        for game in watched:
            here = self._presence.heartbeat_due(game, now)
            if here:
                await self._run(self.store.touch, game.id, here, now)
                self._presence.touched(game.id, now)
        if watched:
            for game_id, seat in await self._run(self.store.takeover_candidates):
                held = self._games.get(game_id)
                if held is not None and seat.last_seen is not None:
                    known = held.seats[seat.seat].last_seen
                    if known is None or seat.last_seen > known:
                        held.seen(seat.seat, seat.last_seen)
        for game in watched:
            if self._presence.shown_changed(game):
                self._notify(game.id)
        # A bot turn is started by the process that made the move before it; others step in
        # only when a game has stalled (that process died, or takeover time has come).
        stalled = time.monotonic() - STALL_SECONDS
        for game in list(self._games.values()):
            if game.status == PLAYING and self._changed.get(game.id, 0.0) <= stalled:
                self._kick(game)
            elif game.status in ENDED:
                self._evict_if_idle(game.id, time.monotonic())
        if now >= self._next_expiry:
            self._next_expiry = now + self.limits.expiry_check
            await self.expire()

    # --- clocks ------------------------------------------------------------------------

    def _deadline(self, move_seconds: float | None, start: float) -> float | None:
        return deadline_after(move_seconds, start, self.limits.clock_scale)

    async def _clocks_forever(self) -> None:
        """Wake at the next deadline (or a nearer one set meanwhile, or every
        :data:`CLOCK_POLL` seconds) and start the bot's move of each game whose time ran out."""
        while not self._closing:
            try:
                wait = await self.run_clocks()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock check failed")
                wait = CLOCK_POLL
            # asyncio.timeout, not wait_for: wait_for (3.11) loses a cancellation that
            # arrives as the event is set, and close() would wait on this loop forever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._clock_wake.wait()
            self._clock_wake.clear()

    async def run_clocks(self) -> float:
        """Start the bot's move in every running game whose time per move ran out (loading
        the game if needed); the seconds until the next check is due."""
        now = self.clock()
        due, upcoming = await self._run(self.store.due_clocks, now)
        for game_id in due:
            game = await self.game(game_id)
            if game.deadline is None or game.deadline > now:
                await self.catch_up(game)  # another process moved it on meanwhile
            self._kick(game)
        wait = CLOCK_POLL if upcoming is None else min(CLOCK_POLL, upcoming - now)
        # A due move under way is retried by the sweeper; do not spin on it meanwhile.
        return max(wait, STALL_SECONDS if due else 0.01)

    # --- reading -----------------------------------------------------------------------

    async def check_watch(self, game_id: str, viewer: Viewer) -> None:
        """:class:`Forbidden` if ``viewer``, holding no seat of ``game_id``, may not see it
        (its view, moves, record, analyses, review, or watch it): :attr:`watch_rule`."""
        if self.watch_rule is not None:
            await self.watch_rule(game_id, viewer)

    async def record(self, game_id: str) -> dict[str, Any]:
        """The ``quadropolis-game/1`` record of a finished game (seed included; replays with
        ``quadropolis replay``). :class:`NotOver` while the game runs: its seed is secret."""
        game = await self.game(game_id)
        if game.status != OVER:
            raise NotOver(f"game {game_id} is not over: its moves so far are at /api/games/{game_id}/moves")
        return game.record_json()

    async def summaries(self, status: str, limit: int, offset: int = 0) -> list[GameSummary]:
        """Public games waiting for players (the lobby: not those about to expire), running
        (to watch) or finished (the replay list)."""
        since = self.clock() - self.limits.waiting_expiry if status == WAITING else None
        return await self._run(self.store.summaries, status, limit, offset, since)

    async def replay(self, record: Any, at: int) -> dict[str, Any]:
        """The ``replay`` reply: the spectator's view of ``record`` after ``at`` moves, the
        number of moves, and where each round starts. :class:`BadRecord` with the engine's
        reason if the record does not replay; :class:`BadMessage` if ``at`` is out of range."""
        checked = await asyncio.to_thread(_checked_record, record)
        _check_at(at, len(checked.moves))
        view, rounds = await asyncio.to_thread(_replay, checked, at)
        return {"type": "replay", "at": at, "moves": len(checked.moves), "rounds": rounds, "view": view}

    async def analysis(self, game_id: str, at: int | None, token: str | None, client: str) -> dict[str, Any]:
        """The ``analysis`` reply for a game: while it runs, never if it is rated
        (:func:`~.ratings.rated_table`), else only for a seat's token, only if the table
        allows analysis and only at the current position; once over, for anyone at any
        position before the end."""
        game = await self.game(game_id)
        moves = game.moves()
        if game.status != OVER:
            if rated_table(game.config.to_json(), game.seats):
                raise Forbidden(
                    "no analysis (hints) of a rated game while it runs: it is open to everyone once it ends"
                )
            if not game.analysis:
                raise Forbidden("this table does not allow analysis (hints) while the game runs")
            if token is None:
                raise Forbidden(
                    "analysis of a running game needs a seat's token: Authorization: Bearer TOKEN"
                )
            await self.authenticate(game_id, [token])
            game.check_playing()
            if at is not None and at != len(moves):
                raise BadMessage(
                    f"at: a running game is analysed at its current position only ({len(moves)} moves)"
                )
        n = len(moves) if at is None else at
        _check_at(n, len(moves))
        record = GameRecord(game.config, tuple(moves[:n]))
        return await self._analyses.analyse(self.bots, game_id, game_key(game_id, moves, n), record, client)

    async def analysis_of_record(self, record: Any, at: int, client: str) -> dict[str, Any]:
        """The ``analysis`` reply for the position of ``record`` after ``at`` moves."""
        checked = await asyncio.to_thread(_checked_record, record)
        _check_at(at, len(checked.moves))
        prefix = GameRecord(checked.config, checked.moves[:at])
        return await self._analyses.analyse(self.bots, None, record_key(prefix, at), prefix, client)

    async def review(self, game_id: str, client: str, start: bool) -> dict[str, Any]:
        """The ``review`` reply of a finished game: ``done`` with the stored review, else the
        progress of the one under way (``running``, ``done`` of ``total`` moves), ``failed``
        once after a failure, or ``none``; with ``start`` a review starts when none is stored
        or running (bounds: :mod:`~quadropolis.server.reviews`). :class:`NotOver` while the
        game runs."""
        game = await self.game(game_id)
        if game.status != OVER:
            raise NotOver(f"game {game_id} is not over: only a finished game is reviewed")
        base = {"type": "review", "game": game_id}
        # The job's progress before the stored review, not after: a job stores its review,
        # then ends, so one ending during the read is seen running or read done; in the
        # other order it could end between the two looks and be reported as none at all.
        running = self._reviews.progress(game_id)
        stored = await self._run(self.store.load_review, game_id)
        if stored is not None:
            return {**base, "status": "done", "review": stored}
        if running is None and start:
            record = GameRecord.from_json(game.record_json())
            running = self._reviews.start(
                game_id,
                self.bots,
                record,
                self.limits.review_budget,
                client,
                partial(self._save_review, game_id),
            )
        return {**base, **(running or {"status": "none"})}

    async def _save_review(self, game_id: str, review: dict[str, Any]) -> None:
        await self._run(self.store.save_review, game_id, self.limits.review_budget, review, self.clock())

    async def review_of_record(self, record: Any, client: str) -> dict[str, Any]:
        """The ``review`` reply of a posted record (any position, finished or not), started on
        the first ask; ask again with the same record to follow it. :class:`BadRecord` if it
        does not replay or has no move."""
        checked = await asyncio.to_thread(_checked_record, record)
        if not checked.moves:
            raise BadRecord("the record has no move to review")
        key = "record:" + record_digest(checked)
        base: dict[str, Any] = {"type": "review", "game": None}
        done = self._record_reviews.get(key)
        if done is not None:
            return {**base, "status": "done", "review": done}
        running = self._reviews.progress(key)
        if running is None:
            running = self._reviews.start(
                key, self.bots, checked, self.limits.review_budget, client, partial(self._keep_review, key)
            )
        return {**base, **running}

    async def _keep_review(self, key: str, review: dict[str, Any]) -> None:
        self._record_reviews[key] = review
        while len(self._record_reviews) > RECORD_REVIEWS:
            del self._record_reviews[next(iter(self._record_reviews))]


def _proof(credential: Credential) -> bytes | AccountProof:
    """What :meth:`LiveGame.held_by` compares: a token's SHA-256, or the account itself."""
    return credential if isinstance(credential, AccountProof) else hash_token(credential)


def still_held(game: LiveGame, credentials: Mapping[int, Credential]) -> frozenset[int]:
    """Of the seats a client proved (seat -> token or account), those its credential still
    holds (:meth:`LiveGame.held_by`): a seat left (open again, or taken by someone else since)
    or resigned (now a bot's) is no longer the client's to play or to see as its own."""
    return frozenset(
        seat for seat, credential in credentials.items() if game.held_by(seat, _proof(credential))
    )


def _load(store: Store, game_id: str) -> LiveGame | None:
    """The game replayed from the database (in a database thread: replaying a long game
    would hold the event loop for tens of milliseconds), or ``None`` if there is none."""
    data = store.load(game_id)
    return None if data is None else LiveGame.rebuild(data)


def _duration(seconds: float) -> str:
    """``seconds`` in players' words: "30 minutes", "1 hour", "45 seconds"."""
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds:g} seconds"


def _checked_record(data: Any) -> GameRecord:
    """``data`` as a record whose every move replays (and whose result, if given, agrees);
    :class:`BadRecord` with the engine's reason otherwise."""
    try:
        record = GameRecord.from_json(data)
        replay(record)
    except QuadropolisError as e:
        raise BadRecord(str(e)) from None
    return record


def _check_at(at: int, moves: int) -> None:
    if not 0 <= at <= moves:
        raise BadMessage(f"at: {at} is not a position of the game: from 0 to {moves} moves")


def _replay(record: GameRecord, at: int) -> tuple[dict[str, Any], list[dict[str, int]]]:
    """The view after ``at`` moves, and where each round starts (moves played before it)."""
    rounds = [{"round": 1, "at": 0}]
    state = new_game(record.config)
    for i, text in enumerate(record.moves, 1):
        apply_unchecked(state, Move.parse(text))
        if not state.is_over and state.round != rounds[-1]["round"]:
            rounds.append({"round": state.round, "at": i})
    return replay_view(record, at), rounds


def _analysis_allowed(spec: CreateGame, rows: tuple[SeatData, ...]) -> bool:
    """The table option ``analysis``: as asked, or by default on iff at most one person plays
    — the creator (if they take seats) counts as one, each human seat left open as one
    more. So a game against bots, a hotseat game of one creator, or bots watched with one
    open seat allow hints; two different people at the table do not."""
    if spec.analysis is not None:
        return spec.analysis
    creator = 1 if any(r.kind == HUMAN and r.token_hash is not None for r in rows) else 0
    others = sum(1 for r in rows if r.kind == HUMAN and r.token_hash is None)
    return creator + others <= 1


def _effects(game: LiveGame, action: ActionData) -> tuple[dict[str, Any] | None, float, float | None]:
    """What storing ``action`` does to its game besides the history (:mod:`.clocks`): the
    result if that move ends the game; when the turn to play after it became its seat's (a
    move handing the turn over starts a new one; a take, whose build is due, keeps the
    turn's; an undo goes back to the start of the undoer's turn, whose time it does not
    restart); the game's last activity after an undo (``None``: the storage's rule)."""
    if action.kind == "undo":
        kept = len(game.steps) - (action.undone or 0)
        return None, game.turn_start(kept, mid_turn=False), game.activity_after_undo(kept)
    after = game.state.copy()
    apply_unchecked(after, Move.parse(action.move or ""))
    result = result_json(outcome(after, game.forfeits)) if after.is_over else None
    if after.phase == PLACE:
        return result, game.turn_start(len(game.steps) + 1, mid_turn=True), None
    return result, action.created_at, None


def _costly_seats(spec: CreateGame, seats: list[SeatSpec]) -> int:
    """The seats of a new game a costly bot may play: bots of a costly level, and every
    human seat when a costly bot takes over absent players."""
    bots = sum(1 for s in seats if s.type == "bot" and s.level in COSTLY_LEVELS)
    takeover = spec.takeover_after is not None and spec.takeover_level in COSTLY_LEVELS
    return bots + (sum(1 for s in seats if s.type == "human") if takeover else 0)


def _config(spec: CreateGame) -> GameConfig:
    first = secrets.randbelow(spec.players) if spec.first_player == "random" else spec.first_player
    if first >= spec.players:
        raise BadMessage(f"first_player must be a seat from 0 to {spec.players - 1}")
    if spec.guided and (spec.mode != "classic" or spec.players != 2):
        raise BadMessage("guided: the guided first game is a Classic game for 2 players")
    return GameConfig(
        mode=Mode(spec.mode),
        players=spec.players,
        seed=GUIDED_SEED if spec.guided else secrets.randbits(62),
        first_player=first,
        urbanist_blocks=spec.variants.urbanist_blocks,
        all_parks_absorb=spec.variants.all_parks_absorb,
    )


def seat_plan(spec: CreateGame) -> tuple[list[SeatSpec], list[int]]:
    """The seats (default: all open for humans) and the ones the creator takes;
    :class:`BadMessage` for an inconsistent spec."""
    seats = list(spec.seats) if spec.seats is not None else [SeatSpec() for _ in range(spec.players)]
    if len(seats) != spec.players:
        raise BadMessage(f"{spec.players} players need {spec.players} seats, got {len(seats)}")
    for i, s in enumerate(seats):
        if (s.type == "bot") != (s.level is not None):
            raise BadMessage(f"seat {i}: a bot seat needs a level, a human seat none")
    humans = [i for i, s in enumerate(seats) if s.type == "human"]
    take = list(spec.take) if spec.take is not None else humans[:1]
    if len(set(take)) != len(take) or any(t not in humans for t in take):
        raise BadMessage(f"take: seats to take must be distinct human seats among {humans}")
    return seats, take


def _seat_row(
    seat: int,
    kind: str,
    level: str | None,
    name: str,
    take: list[int],
    tokens: dict[int, str],
    now: float,
    *,
    named: bool = False,
) -> SeatData:
    """A seat as created; a taken seat is ``name`` as given for it (``named``), else the
    creator's name, numbered when the creator takes several seats (hotseat)."""
    if kind == "bot":
        return SeatData(seat, BOT, level, f"Bot ({level})", None, None)
    if seat in take:
        shown = name if named or len(take) == 1 else f"{name} ({seat + 1})"
        return SeatData(seat, HUMAN, None, shown, hash_token(tokens[seat]), now, host=True)
    return SeatData(seat, HUMAN, None, "", None, None)
