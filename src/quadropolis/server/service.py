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

**Bots** (bot seats, seats under takeover or out of time) are played by one task per game:
the decision is computed in a worker process (:class:`~quadropolis.server.bot_pool.BotPool`)
from the observation with the seed hidden, then committed like a player's move at the
version it was computed for, or dropped if anything changed meanwhile. **Restart**: nothing
is replayed at start-up; a game is loaded on first use, replayed in a database thread, and
its bot resumes if it is a bot's turn.

**Life cycle** (times in :class:`~quadropolis.server.settings.Limits`): the creator's seat
token may cancel a game still waiting for players (``cancelled``); a player of a waiting
game may leave (the seat opens again); a player of a running game may resign, which is a
forfeit: the resigner is placed below every seat that did not forfeit. A game of 2 players,
or one where no person holds a seat any more, ends at once (``over``, the cities scored as
they stand); otherwise a bot plays the seat to the end — the game's ``takeover_level`` if
the table allows takeover, else the weakest level. Only live games count towards the
per-address quota.

**Takeover**: when a game allows it, a human seat whose player has had no connection for
``takeover_after`` seconds is played by a bot of ``takeover_level`` until the player connects
again (who is present, and when a bot takes over: :mod:`~quadropolis.server.presence`).

**Above the service**, knowing it while it knows nothing of them, wired in one root
(:mod:`~quadropolis.server.env`): the sweeper, expiry and the clocks
(:mod:`~quadropolis.server.timers`), the records side — records, summaries, replays,
analyses and reviews (:mod:`~quadropolis.server.records`) — and the connections and presence
(:mod:`~quadropolis.server.audience`). Time is read from one injected clock
(:mod:`~quadropolis.server.clock`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Final, TypeVar

from ..config import GameConfig
from ..errors import QuadropolisError
from ..outcome import outcome
from ..record import result_json
from ..rules import explain_illegal
from .bot_pool import BotPool, decision_key
from .broker import EVERY_GAME, Broker, LocalBroker, Notice
from .clock import Clock, SystemClock
from .clocks import CLOCK_ACTOR, deadline_after
from .creation import (
    WEAKEST_LEVEL,
    NewGame,
    check_quota,
    costly_seats,
    game_config,
    new_game_data,
    new_token,
    seat_plan,
)
from .data import CANCELLED, ENDED, OVER, PLAYING, WAITING, AccountProof, ActionData, Credential
from .database import Database
from .errors import Forbidden, GameStarted, NotFound, SeatTaken, Stale, Unavailable
from .game import BOT, HUMAN, LiveGame, effects, hash_token, proof, still_held
from .presence import Presence
from .protocol import CreateGame
from .settings import Limits
from .storage import StorageError, Store, VersionTaken
from .views import SeatPresence, ViewCache, view, view_text

__all__ = ["GameService", "NewGame", "Viewer", "hash_token", "seat_plan", "still_held"]

log = logging.getLogger("quadropolis.server")

T = TypeVar("T")
Listener = Callable[[str], None]
#: Who asks to see a game without holding a seat of it: called (only if needed) for their
#: account's id, ``None`` for a guest.
Viewer = Callable[[], Awaitable[int | None]]

_GAME_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: Seats of a game are re-read for an unknown token at most this often (seconds).
SEAT_REREAD_SECONDS: Final = 1.0


class GameService:
    """The game authority of one server process (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        broker: Broker | None = None,
        bots: BotPool | None = None,
        limits: Limits | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.store = store
        self.broker = broker or LocalBroker()
        self.bots = bots
        self.limits = limits or Limits()
        self.clock: Clock = clock or SystemClock()
        #: The store's calls off the event loop, and its group commits.
        self.db = Database(store, self.clock)
        self._games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        self._views: dict[str, ViewCache] = {}
        self._listeners: list[Listener] = []
        #: Who is present at each game, and whose seat a bot has taken over.
        self.attendance = Presence(self.clock.time)
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        #: When each game last changed (monotonic clock), to spot stalled bot turns.
        self._changed: dict[str, float] = {}
        self._create_locks: dict[str, asyncio.Lock] = {}
        #: Set when a deadline may have come nearer (an action here, a notice from elsewhere):
        #: whoever runs the clocks waits on it.
        self.deadline_moved = asyncio.Event()
        self._closing = False
        #: When each finished game in memory was last asked for (monotonic clock).
        self._used: dict[str, float] = {}
        #: When each game's seats were last re-read for an unknown token (monotonic clock).
        self._seats_read: dict[str, float] = {}
        #: Whether a client of this process watches a game (set by whoever counts them:
        #: :mod:`.audience`); a watched finished game stays in memory.
        self.watched: Callable[[str], bool] = lambda _game_id: False
        #: How many games this process has loaded from the database (``/api/health``).
        self.loads = 0
        #: A storage call telling whether a game's open seats are kept for named players (a
        #: rematch's: :mod:`.rematch` sets it); ``None``: no game keeps its seats.
        self.keeps_seats: Callable[[str], bool] | None = None
        #: Raises :class:`Forbidden` if a viewer holding no seat of a game may not see it
        #: (the daily challenge hides its day's games: :mod:`.daily` sets it); ``None``:
        #: whoever knows a game's id may watch it.
        self.watch_rule: Callable[[str, Viewer], Awaitable[None]] | None = None

    async def start(self) -> None:
        """Start the broker. No game is loaded: each is on first use."""
        await self.db.open()
        await self.broker.start(self._on_notice)

    async def close(self) -> None:
        """Stop the bot turns, then the broker and storage."""
        self._closing = True
        tasks = list(self._bot_tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.broker.close()
        await self.db.close()

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(game_id)`` whenever a game's clients should get a new view (an
        action, here or in another process; a seat claimed; a player arriving or leaving)."""
        self._listeners.append(listener)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call in the database threads (:meth:`.database.Database.run`)."""
        return await self.db.run(fn, *args)

    def loaded(self, game_id: str) -> LiveGame | None:
        """The game if this process holds it in memory (no database access)."""
        return self._games.get(game_id)

    def games(self) -> list[LiveGame]:
        """The games this process holds in memory."""
        return list(self._games.values())

    def changed_at(self, game_id: str) -> float:
        """When ``game_id`` last changed here (monotonic clock; 0 if never seen to)."""
        return self._changed.get(game_id, 0.0)

    async def game(self, game_id: str) -> LiveGame:
        """The game, loaded from the database on first use (replayed in a database thread, and
        its bot started if it is a bot's turn); :class:`NotFound` if none."""
        game = self._games.get(game_id)
        if game is not None:
            if game.status in ENDED:
                self._used[game_id] = self.clock.monotonic()
            return game
        if not _GAME_ID.fullmatch(game_id):
            raise NotFound("no such game")
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[game_id] = pending
            try:
                rebuilt = await self.run(_load, self.store, game_id)
                loaded = None if rebuilt is None else self._games.setdefault(game_id, rebuilt)
                if loaded is rebuilt and loaded is not None:
                    self.loads += 1
                    self._used[game_id] = self.clock.monotonic()
                    self.kick(loaded)
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
        config = config or game_config(spec)
        lock = self._create_locks.setdefault(client, asyncio.Lock())
        async with lock:
            now = self.clock.time()
            await check_quota(self.run, self.store, self.limits, client, now, costly_seats(spec, seats))
            tokens = {seat: new_token() for seat in take}
            data = new_game_data(spec, client, config, tokens, holders or {}, now, self.limits.clock_scale)
            await self.run(self.store.insert_game, data)
        game = self._games.setdefault(data.id, LiveGame.rebuild(data))
        self.kick(game)
        if data.deadline is not None:  # the clocks' next look may be later than this deadline
            self.deadline_moved.set()
        return NewGame(data.id, tokens, game.open_seats())

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
        if not kept and self.keeps_seats is not None and await self.run(self.keeps_seats, game_id):
            raise Forbidden(
                "this seat is kept for its player of the previous game (they join from its end screen)"
            )
        token = new_token()
        async with game.lock:
            game.check_not_ended()
            if game.seats[seat].kind != HUMAN or game.seats[seat].token_hash is not None:
                raise SeatTaken(f"seat {seat} is not open")
            now = self.clock.time()
            deadline = self._deadline(game.move_seconds, now)
            claim = (game_id, seat, name, hash_token(token), now, deadline, account)
            claimed = await self.run(self.store.claim_seat, *claim)
            await self.catch_up_locked(game)
            if not claimed:
                raise SeatTaken(f"seat {seat} is not open")
            await self.publish(game)
        self.kick(game)
        if game.deadline is not None:  # the game may have just started, with a clock
            self.deadline_moved.set()
        return token

    # --- the life cycle ------------------------------------------------------------------

    async def cancel(self, game_id: str, token: str) -> None:
        """Cancel a game still waiting for players, for the holder of a seat its creator took
        (:class:`Forbidden` for anyone else). :class:`GameStarted` once it has started (its
        players resign instead), :class:`GameOver` once it has ended."""
        game = await self.game(game_id)
        async with game.lock:
            await self.catch_up_locked(game)
            game.check_not_ended()
            seat = game.seat_of_token(hash_token(token))
            if seat is None or not game.seats[seat].host:
                raise Forbidden("only the seat of the player who created the game may cancel it")
            if game.status != WAITING or not await self.run(self.store.cancel, game_id):
                await self.catch_up_locked(game)
                raise GameStarted(f"game {game_id} has started: a player resigns instead of cancelling")
            await self._cancelled(game)

    async def cancel_waiting(self, game_id: str) -> bool:
        """Cancel a game still waiting for players on the server's own decision (a declined
        rematch); ``False`` if it was not waiting any more."""
        game = await self.game(game_id)
        async with game.lock:
            cancelled = game.status == WAITING and await self.run(self.store.cancel, game_id)
            await self.catch_up_locked(game)
            if cancelled:
                await self._cancelled(game)
            return cancelled

    async def _cancelled(self, game: LiveGame) -> None:
        game.status = CANCELLED
        game.presence += 1
        await self.publish(game)

    async def leave(self, game_id: str, seat: int, token: str) -> None:
        """Give back ``seat`` of a game still waiting for players: it is open again."""
        game = await self.game(game_id)
        async with game.lock:
            await self._authorize(game, seat, token)
            game.check_not_ended()
            left = game.status == WAITING and await self.run(
                self.store.leave, game_id, seat, hash_token(token), self.clock.time()
            )
            await self.catch_up_locked(game)
            if not left:
                raise GameStarted(f"game {game_id} has started: resign instead of leaving")
            await self.publish(game)

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
            await self.catch_up_locked(game)  # the forfeits so far, as stored
            game.check_playing()
            level = game.takeover_level if game.takeover_after is not None else WEAKEST_LEVEL
            result = result_json(outcome(game.state, (*game.forfeits, seat)))
            now = self.clock.time()
            status = await self.run(self.store.resign, game_id, seat, hash_token(token), level, now, result)
            await self.catch_up_locked(game, now)
            if status is None:
                raise Stale(f"seat {seat} of game {game_id} could not be resigned: it changed meanwhile")
            await self.publish(game)
        self.kick(game)
        return status

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
            now = self.clock.time()
            action = ActionData(game.version + 1, seat, "move", str(checked), None, "player", now)
            await self._commit(game, action)
        self.kick(game)
        return action

    async def undo(self, game_id: str, seat: int, token: Credential, version: int) -> ActionData:
        """Take back ``seat``'s last action (the rule of :mod:`quadropolis.undo`), stored as an
        ``undo`` entry: the undone moves stay in the history."""
        game = await self.game(game_id)
        async with game.lock:
            await self._authorize(game, seat, token)
            await self._check_version(game, version)
            undone = game.check_undo(seat)
            action = ActionData(game.version + 1, seat, "undo", None, undone, "player", self.clock.time())
            await self._commit(game, action)
        self.kick(game)
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
        now = self.clock.monotonic()
        last = self._seats_read.get(game.id, -SEAT_REREAD_SECONDS)
        if not game.open_seats() or now - last < SEAT_REREAD_SECONDS:
            return
        self._seats_read[game.id] = now
        game.set_seats(await self.run(self.store.seats, game.id))

    async def _authorize(self, game: LiveGame, seat: int, credential: Credential) -> None:
        """:class:`Forbidden` unless ``credential`` holds ``seat`` now (:meth:`LiveGame.held_by`:
        the seat is a person's and the credential is its token or its account). Seats reach
        this process through the broker; only an open seat is read again (it may have been
        claimed in another process just now), so wrong credentials cost no database read."""
        held_by = proof(credential)
        if game.held_by(seat, held_by):
            return
        if 0 <= seat < len(game.seats) and game.seats[seat].token_hash is None:
            await self.catch_up_locked(game)
            if game.held_by(seat, held_by):
                return
        held = "your account does not" if isinstance(credential, AccountProof) else "this token does not"
        raise Forbidden(f"{held} hold seat {seat}")

    async def _check_version(self, game: LiveGame, version: int) -> None:
        if version > game.version:  # another process may be ahead of this one
            await self.catch_up_locked(game)
        if version != game.version:
            raise Stale(f"version {version} is not the game's current version {game.version}")

    async def _commit(self, game: LiveGame, action: ActionData) -> None:
        """Store ``action`` (committed) with the deadline of the turn after it and the game's
        activity, then apply it in memory and publish it."""
        result, turn_start, activity = effects(game, action)
        deadline = None if result is not None else self._deadline(game.move_seconds, turn_start)
        try:
            await self.db.append(game.id, action, result, deadline, activity)
        except VersionTaken:
            await self.catch_up_locked(game)
            raise Stale(
                f"version {action.version} was taken by another action; the game is at {game.version}"
            ) from None
        except StorageError as e:
            raise Unavailable(str(e)) from None
        game.record(action)
        game.deadline = deadline
        self._changed[game.id] = self.clock.monotonic()
        if deadline is not None:
            self.deadline_moved.set()
        await self.publish(game)

    def _deadline(self, move_seconds: float | None, start: float) -> float | None:
        return deadline_after(move_seconds, start, self.limits.clock_scale)

    async def publish(self, game: LiveGame) -> None:
        """Announce ``game``'s new version (or status, or seats) to every process."""
        await self.broker.publish(game.id, game.version)

    # --- keeping up with other processes ------------------------------------------------

    async def _on_notice(self, notice: Notice) -> None:
        if notice.remote:
            self.deadline_moved.set()  # another process may have set a nearer deadline
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
            self.notify(game_id)

    def notify(self, game_id: str) -> None:
        for listener in self._listeners:
            try:
                listener(game_id)
            except Exception:
                log.exception("a state listener failed")

    async def catch_up(self, game: LiveGame) -> None:
        """Read from the database what other processes added to ``game``."""
        async with game.lock:
            await self.catch_up_locked(game)

    async def catch_up_locked(self, game: LiveGame, now: float | None = None) -> None:
        """Read back ``game`` as stored (``now``: when this process ended it, if it did)."""
        status, seats, actions, deadline, started = await self.run(
            self.store.refresh_clocked, game.id, game.version
        )
        game.set_seats(seats)
        game.deadline = deadline
        game.started_at = started if started is not None or status == WAITING else game.created_at
        if actions:
            game.extend(actions)
            self._changed[game.id] = self.clock.monotonic()
        if status != game.status and (status == PLAYING or status in ENDED) and game.status != OVER:
            game.set_status(status, self.clock.time() if now is None else now)
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

    async def check_watch(self, game_id: str, viewer: Viewer) -> None:
        """:class:`Forbidden` if ``viewer``, holding no seat of ``game_id``, may not see it
        (its view, moves, record, analyses, review, or watch it): :attr:`watch_rule`."""
        if self.watch_rule is not None:
            await self.watch_rule(game_id, viewer)

    def presence(self, game: LiveGame) -> tuple[SeatPresence, ...]:
        """Each seat's presence and takeover now (:meth:`.presence.Presence.of`)."""
        return self.attendance.of(game)

    def evict_if_idle(self, game_id: str, now: float | None = None) -> None:
        """Forget an ended game no client here watches and no one asked for in the last
        ``finished_cache`` seconds (it is read again if asked for): memory then holds running
        games, watched ones and recently asked for ones."""
        game = self._games.get(game_id)
        if game is None or game.status not in ENDED or self.watched(game_id) or game_id in self._bot_tasks:
            return
        if now is not None and now - self._used.setdefault(game_id, now) < self.limits.finished_cache:
            return  # (a game just ended counts as asked for now)
        del self._games[game_id]
        for table in (self._views, self._changed, self._used, self._seats_read):
            table.pop(game_id, None)
        self.attendance.forget(game_id)

    # --- bots --------------------------------------------------------------------------

    def _bot_for(self, game: LiveGame) -> tuple[str, str] | None:
        """(level, actor) of the bot to play now, if the seat to move is a bot's or taken over."""
        seat = game.to_move
        if seat is None:
            return None
        info = game.seats[seat]
        if info.kind == BOT and info.level is not None:
            return info.level, "bot"
        now = self.clock.time()
        if self.attendance.taken_over(game, seat, now):
            return game.takeover_level, "takeover"
        if game.deadline is not None and now >= game.deadline:
            return game.takeover_level, CLOCK_ACTOR
        return None

    def kick(self, game: LiveGame) -> None:
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
                action = ActionData(version + 1, seat, "move", str(move), None, actor, self.clock.time())
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
            self.kick(game)

    async def idle(self) -> None:
        """Wait until no bot decision is under way (tests and benchmarks use it)."""
        while self._bot_tasks:
            await asyncio.gather(*self._bot_tasks.values(), return_exceptions=True)


def _load(store: Store, game_id: str) -> LiveGame | None:
    """The game replayed from the database (in a database thread: replaying a long game
    would hold the event loop for tens of milliseconds), or ``None`` if there is none."""
    data = store.load(game_id)
    return None if data is None else LiveGame.rebuild(data)
