"""Storage: the repository the game service uses (the tables are :mod:`.schema`'s).
It hands out and takes in the plain values of :mod:`.data`, never a row or a session.

The repository is synchronous (SQLAlchemy sessions); the service calls it from worker threads
so the event loop never waits on the database. SQLite runs in WAL mode with
``synchronous=NORMAL`` by default: a commit has reached the operating system when it returns,
so an acknowledged move survives ``kill -9`` of the server (the log is in the kernel's page
cache, read back by the next open), but a power cut or a kernel crash may lose the moves
acknowledged since the last checkpoint. ``sqlite_sync="full"`` syncs the log to the disk at
every commit (survives power cuts too), at the price of a disk sync in every move's latency
(4 ms typical, beyond 100 ms at the tail on a busy virtual disk)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Final

from sqlalchemy import (
    and_,
    create_engine,
    event,
    exists,
    func,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

from ..errors import QuadropolisError
from .appends import action_row, game_changes, insert_ignoring_conflicts, update_games
from .clock import Clock, SystemClock
from .data import (
    CANCELLED,
    EXPIRED,
    OVER,
    PLAYING,
    WAITING,
    ActionData,
    GameData,
    GameSummary,
    PendingAction,
    SeatData,
)
from .schema import ActionRow, GameRow, ReviewRow, SeatRow
from .settings import SQLITE_SYNCS


class VersionTaken(QuadropolisError):
    """Another action was stored at that version first (by this or another process)."""

    @classmethod
    def of(cls, game_id: str, version: int) -> VersionTaken:
        """The refusal of an action at ``version`` of ``game_id``."""
        return cls(f"game {game_id}: version {version} is taken")


class StorageError(QuadropolisError):
    """The database refused an operation for a reason other than a version conflict."""


def normalise_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` URLs use psycopg 3 (the driver the ``web`` extra
    installs); anything else is passed to SQLAlchemy as it is."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


#: New games are committed at SQLite's ``NORMAL`` sync level whatever the level of actions
#: (:data:`.settings.SQLITE_SYNCS`): in WAL mode the log is written in order, so the next
#: action's synced commit syncs them; a power cut may lose a game created just before it,
#: never a synced move.
SYNC_NEW_GAME: Final = "NORMAL"


def _sqlite_pragmas(sync: str, dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run while a move commits; the busy timeout rides out another
    # process's write.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={sync.upper()}")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(
    url: str, pool_size: int = 8, sqlite_sync: str = "normal", clock: Clock | None = None
) -> Engine:
    """An engine for ``url`` with the settings this server relies on (see the module doc);
    ``sqlite_sync``: one of :data:`SQLITE_SYNCS` (ignored for PostgreSQL); ``clock``: the
    pool's, for pinging idle connections (default: the system's)."""
    if sqlite_sync not in SQLITE_SYNCS:
        raise QuadropolisError(f"unknown SQLite sync level {sqlite_sync!r}: one of {', '.join(SQLITE_SYNCS)}")
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", partial(_sqlite_pragmas, sqlite_sync))
        return engine
    engine = create_engine(url, pool_size=pool_size, max_overflow=pool_size)
    ping_when_idle(engine, clock or SystemClock())
    return engine


#: A pooled PostgreSQL connection unused for longer than this is pinged before use (a round
#: trip); one used more recently is trusted. ``pool_pre_ping`` pinged at every checkout: on a
#: busy server that was a second round trip for each read and write, each one a wait for the
#: database process and then for the interpreter (at the start of ``quadropolis bench
#: server``, 200 games created and 500 websockets opened in a few seconds, every create and
#: every connection paid it). A database restarted during a quiet spell still costs no
#: failed call; one restarted under load fails the calls on the connections it closed, once
#: each.
PING_AFTER_IDLE: Final = 5.0


def idle_too_long(last_used: float, now: float) -> bool:
    """Whether a connection last used (or made) at ``last_used`` must be pinged before use at
    ``now`` (both monotonic): the rule of both pools, the threads' and the group commit's."""
    return now - last_used > PING_AFTER_IDLE


def ping_when_idle(engine: Engine, clock: Clock) -> None:
    """Have ``engine``'s pool ping a connection at checkout only if it has been idle for
    over :data:`PING_AFTER_IDLE` on ``clock``; if the ping fails the pool replaces the
    connection (``DisconnectionError``) and the caller gets the new one."""
    event.listen(engine, "checkout", partial(_ping_if_idle, clock))
    event.listen(engine, "checkin", partial(_note_use, clock))


def _ping_if_idle(clock: Clock, dbapi_connection: Any, record: ConnectionPoolEntry, _proxy: Any) -> None:
    if not idle_too_long(record.info.get("used", 0.0), clock.monotonic()):
        return
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("SELECT 1")
    except Exception as e:
        raise DisconnectionError(f"the pooled connection is dead: {e}") from e
    finally:
        cursor.close()


def _note_use(clock: Clock, _dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
    record.info["used"] = clock.monotonic()


class Store:
    """The repository: every read and write of games, seats and actions. Synchronous; safe to
    call from several threads (one session per call)."""

    def __init__(
        self, url: str, pool_size: int = 8, sqlite_sync: str = "normal", clock: Clock | None = None
    ) -> None:
        self.url = normalise_url(url)
        self.engine = make_engine(self.url, pool_size, sqlite_sync, clock)
        self._sync = sqlite_sync.upper()
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self._insert_action = insert_ignoring_conflicts(self.engine.dialect.name)

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    def upgrade(self) -> None:
        """Create or upgrade the schema to the newest migration (Alembic)."""
        from .migrations import upgrade

        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # --- writes ------------------------------------------------------------------------

    def insert_game(self, game: GameData) -> None:
        """Store a new game and its seats in one transaction (on SQLite without a sync of its
        own: :data:`SYNC_NEW_GAME`; the connection is back at its sync level after)."""
        sqlite = self.backend == "sqlite" and self._sync != SYNC_NEW_GAME
        with self.engine.connect() as conn:
            if sqlite:
                conn.exec_driver_sql(f"PRAGMA synchronous={SYNC_NEW_GAME}")
                conn.commit()
            try:
                with Session(conn) as s, s.begin():
                    s.add(_game_row(game))
                    s.flush()  # the game before its seats: PostgreSQL checks the foreign key at once
                    s.add_all(_seat_row(game.id, seat) for seat in game.seats)
            finally:
                if sqlite:
                    conn.exec_driver_sql(f"PRAGMA synchronous={self._sync}")
                    conn.commit()

    def claim_seat(
        self,
        game_id: str,
        seat: int,
        name: str,
        token_hash: bytes,
        now: float,
        deadline: float | None = None,
        account: int | None = None,
    ) -> bool:
        """Give an open human seat to a player (with their ``account``, if any: the same
        update); ``False`` if it is not open (taken already, by this or another process: the
        update is conditional), or if the game is not waiting for players any more. When it
        was the last open seat,
        the game starts (status ``playing``, with ``deadline`` for its first move) in the
        same transaction."""
        with self._session.begin() as s:
            waiting = select(GameRow.id).where(GameRow.id == game_id, GameRow.status == WAITING)
            claimed = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.token_hash.is_(None),
                    SeatRow.game_id.in_(waiting.scalar_subquery()),
                )
                .values(name=name, token_hash=token_hash, last_seen=now, account_id=account)
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return False
            still_open = s.scalar(
                select(func.count())
                .select_from(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.kind == "human", SeatRow.token_hash.is_(None))
            )
            started: dict[str, Any] = (
                {} if still_open else {"status": PLAYING, "deadline": deadline, "started_at": now}
            )
            s.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == WAITING)
                .values(last_activity=now, **started)
            )
            return True

    def leave(self, game_id: str, seat: int, token_hash: bytes, now: float) -> bool:
        """Open again ``seat`` of a game still waiting for players, if ``token_hash`` holds it
        (conditional: ``False`` if not, or if the game has started meanwhile): its token and
        its account are cleared together, so the leaver holds it no more in any way."""
        with self._session.begin() as s:
            waiting = select(GameRow.id).where(GameRow.id == game_id, GameRow.status == WAITING)
            freed = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.seat == seat,
                    SeatRow.token_hash == token_hash,
                    SeatRow.game_id.in_(waiting.scalar_subquery()),
                )
                .values(name="", token_hash=None, last_seen=None, host=False, account_id=None)
            )
            if freed.rowcount != 1:  # type: ignore[attr-defined]
                return False
            s.execute(update(GameRow).where(GameRow.id == game_id).values(last_activity=now))
            return True

    def cancel(self, game_id: str) -> bool:
        """Mark a waiting game ``cancelled``; ``False`` if it was not waiting any more."""
        with self._session.begin() as s:
            done = s.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == WAITING)
                .values(status=CANCELLED)
            )
            return bool(done.rowcount == 1)  # type: ignore[attr-defined]

    def resign(
        self, game_id: str, seat: int, token_hash: bytes, level: str, now: float, result: dict[str, Any]
    ) -> str | None:
        """Record that the player of a running game's ``seat`` held by ``token_hash`` forfeits
        at ``now``. A game of 2 players, or one where no other person plays a seat, ends there:
        ``over`` with ``result`` (the service's, with this forfeit), the seat still the
        person's (their name on the end screen, their view of it). Otherwise a bot of
        ``level`` plays the seat from now on. Returns the game's status after, or ``None`` if
        the token did not hold the seat of a running game."""
        with self._session.begin() as s:
            running = select(GameRow.id).where(GameRow.id == game_id, GameRow.status == PLAYING)
            theirs = and_(
                SeatRow.game_id == game_id,
                SeatRow.seat == seat,
                SeatRow.token_hash == token_hash,
                SeatRow.forfeited_at.is_(None),
                SeatRow.game_id.in_(running.scalar_subquery()),
            )
            done = s.execute(update(SeatRow).where(theirs).values(forfeited_at=now))
            if done.rowcount != 1:  # type: ignore[attr-defined]
                return None
            ends = _nobody_plays_on(s, game_id)
            values: dict[str, Any] = {"last_activity": now}
            if ends:
                values.update(status=OVER, result=result, finished_at=now, deadline=None)
            else:
                bot = {"kind": "bot", "level": level, "name": f"Bot ({level})", "token_hash": None}
                s.execute(
                    update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat).values(**bot)
                )
            s.execute(update(GameRow).where(GameRow.id == game_id).values(**values))
            return OVER if ends else PLAYING

    def expire(
        self, waiting_before: float, playing_before: float, now: float | None = None, clock_idle: float = 0.0
    ) -> list[str]:
        """Mark ``expired`` the games waiting with no activity since ``waiting_before`` and the
        running ones with none since ``playing_before``; their ids. A game with a clock
        expires only once it has also been idle for ``clock_idle`` times its time per move
        (counted from ``now``): a correspondence game lives as long as its clock allows."""
        stale = _stale(waiting_before, playing_before, now, clock_idle)
        with self._session.begin() as s:
            ids = list(s.scalars(select(GameRow.id).where(stale)))
            if ids:
                s.execute(update(GameRow).where(GameRow.id.in_(ids), stale).values(status=EXPIRED))
            return ids

    def idle_running(self, playing_before: float, now: float, clock_idle: float) -> list[str]:
        """The running games :meth:`expire` would expire now (same arguments)."""
        stale = and_(GameRow.status == PLAYING, _stale(playing_before, playing_before, now, clock_idle))
        with self._session() as s:
            return list(s.scalars(select(GameRow.id).where(stale)))

    def forfeit_idle(
        self,
        game_id: str,
        seat: int,
        result: dict[str, Any],
        now: float,
        idle: tuple[float, float],
    ) -> bool:
        """End running ``game_id`` ``over`` with ``result``, ``seat`` forfeiting at ``now``
        (its player timed out), if it is still idle as :meth:`idle_running` found it
        (``idle``: its ``playing_before`` and ``clock_idle``); ``False`` if not (a move came
        in meanwhile, or another process ended it)."""
        stale = and_(GameRow.id == game_id, GameRow.status == PLAYING, _stale(idle[0], idle[0], now, idle[1]))
        with self._session.begin() as s:
            done = s.execute(
                update(GameRow)
                .where(stale)
                .values(status=OVER, result=result, finished_at=now, deadline=None)
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                return False
            s.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(forfeited_at=now)
            )
            return True

    def append(
        self,
        game_id: str,
        action: ActionData,
        result: dict[str, Any] | None = None,
        deadline: float | None = None,
        activity: float | None = None,
    ) -> None:
        """Append ``action`` to the history, committed when this returns. With ``result`` the
        game is marked over in the same transaction (its deadline cleared); with
        ``deadline`` that is the next move's; with ``activity`` the game's last activity
        becomes that. Raises :class:`VersionTaken` if an action is already stored at
        ``action.version``."""
        failure = self.append_batch([(game_id, action, result, deadline, activity)])[0]
        if failure is not None:
            raise failure

    def append_batch(self, items: Sequence[PendingAction]) -> list[QuadropolisError | None]:
        """Append several games' actions in one transaction — one commit, one sync to disk
        for all (group commit). An action whose version is already stored is skipped (``INSERT
        ... ON CONFLICT DO NOTHING``), so it fails alone and the others are stored. Returns, per
        item, ``None`` if stored or the :class:`VersionTaken` that refused it; everything
        stored is committed on return."""
        # Core statements, not the ORM: this is the hot path of every move. A fixed number of
        # statements per batch, whatever its size (one INSERT of every row, one UPDATE per
        # kind of change): each round trip to PostgreSQL from the database thread waits for
        # the interpreter's lock again, up to its switch interval (5 ms) while the event loop
        # is busy, so round trips per move were the commit's cost under load.
        with self.engine.begin() as conn:
            rows = [action_row(game_id, action) for game_id, action, *_ in items]
            stored = {(r.game_id, r.version) for r in conn.execute(self._insert_action, rows)}
            outcomes: list[QuadropolisError | None] = []
            changes: dict[str, dict[str, Any]] = {}  # per game, its rows' changes in order
            for game_id, action, result, deadline, activity in items:
                if (game_id, action.version) not in stored:  # already there, or earlier in the batch
                    outcomes.append(VersionTaken.of(game_id, action.version))
                    continue
                stored.discard((game_id, action.version))
                changes.setdefault(game_id, {}).update(game_changes(action, result, deadline, activity))
                outcomes.append(None)
            update_games(conn, changes)
        return outcomes

    def touch(self, game_id: str, seats: Iterable[int], now: float) -> None:
        """Record that the players of ``seats`` are present now."""
        seats = list(seats)
        if not seats:
            return
        with self._session.begin() as s:
            s.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat.in_(seats))
                .values(last_seen=now)
            )

    def save_review(self, game_id: str, iterations: int, review: dict[str, Any], now: float) -> None:
        """Store the review of finished game ``game_id``; a review stored first (by another
        server process) is kept: both come from the same record and budget."""
        with self._session.begin() as s:
            if s.get(ReviewRow, game_id) is None:
                s.add(ReviewRow(game_id=game_id, iterations=iterations, review=review, created_at=now))

    def load_review(self, game_id: str) -> dict[str, Any] | None:
        """The stored review of ``game_id``, or ``None``."""
        with self._session() as s:
            row = s.get(ReviewRow, game_id)
            return None if row is None else row.review

    # --- reads -------------------------------------------------------------------------

    def _exists(self, game_id: str) -> bool:
        with self._session() as s:
            return s.get(GameRow, game_id) is not None

    def load(self, game_id: str) -> GameData | None:
        """The game with its seats and whole history, or ``None``."""
        with self._session() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            actions = s.scalars(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.version)
            ).all()
            return _game_data(row, self._seats(s, [game_id])[game_id], actions)

    def refresh(self, game_id: str, after: int) -> tuple[str, tuple[SeatData, ...], tuple[ActionData, ...]]:
        """What changed since version ``after``: the status, every seat, the actions after it."""
        status, seats, actions, _, _ = self.refresh_clocked(game_id, after)
        return status, seats, actions

    def refresh_clocked(
        self, game_id: str, after: int
    ) -> tuple[str, tuple[SeatData, ...], tuple[ActionData, ...], float | None, float | None]:
        """:meth:`refresh`, the game's deadline as stored now and when it started."""
        with self._session() as s:
            row = s.execute(
                select(GameRow.status, GameRow.deadline, GameRow.started_at).where(GameRow.id == game_id)
            ).first()
            status, deadline, started = (row[0], row[1], row[2]) if row is not None else (WAITING, None, None)
            actions = s.scalars(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.version > after)
                .order_by(ActionRow.version)
            ).all()
            seats = self._seats(s, [game_id])[game_id]
            return status, seats, tuple(_action(a) for a in actions), deadline, started

    def seats(self, game_id: str) -> tuple[SeatData, ...]:
        """The seats of a game as stored now."""
        with self._session() as s:
            return self._seats(s, [game_id])[game_id]

    def active_games_of(self, creator: str, waiting_since: float, playing_since: float) -> int:
        """How many live games ``creator`` has created and still plays in: waiting ones with
        activity since ``waiting_since``, running ones with activity since ``playing_since``.
        A game whose creator resigned every seat they took counts no more (others may go on
        playing it): someone who joins a creator's games and never moves cannot hold them at
        their quota."""
        creators_seat = and_(SeatRow.game_id == GameRow.id, SeatRow.host)
        resigned = exists().where(creators_seat, SeatRow.kind == "bot")
        still_plays = exists().where(creators_seat, SeatRow.kind == "human")
        with self._session() as s:
            return int(
                s.scalar(
                    select(func.count())
                    .select_from(GameRow)
                    .where(
                        GameRow.creator == creator,
                        or_(
                            and_(GameRow.status == WAITING, GameRow.last_activity >= waiting_since),
                            and_(GameRow.status == PLAYING, GameRow.last_activity >= playing_since),
                            # a game with a clock is live until it ends or expires (see expire)
                            and_(GameRow.status.in_((WAITING, PLAYING)), GameRow.move_seconds.is_not(None)),
                        ),
                        or_(~resigned, still_plays),
                    )
                )
                or 0
            )

    def costly_seats_of(self, creator: str, levels: Collection[str]) -> int:
        """How many seats of ``creator``'s live games (waiting or running) a bot of one of ``levels`` may
        play: bot seats of those levels, and human seats of games whose takeover bot is."""
        with self._session() as s:
            rows = s.execute(
                select(SeatRow.kind, SeatRow.level, GameRow.takeover_after, GameRow.takeover_level)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(GameRow.creator == creator, GameRow.status.in_((WAITING, PLAYING)))
            ).all()
        wanted = set(levels)
        return sum(
            1
            for kind, level, after, takeover in rows
            if (kind == "bot" and level in wanted)
            or (kind == "human" and after is not None and takeover in wanted)
        )

    def summaries(
        self, status: str, limit: int, offset: int = 0, active_since: float | None = None
    ) -> list[GameSummary]:
        """Public games with ``status``: waiting ones oldest first (the lobby), running ones
        newest first (to watch), finished ones newest first (the replay list); with
        ``active_since``, only those with activity since then."""
        fresh = (
            true()
            if active_since is None
            else or_(GameRow.last_activity >= active_since, GameRow.move_seconds.is_not(None))
        )
        order = {
            WAITING: GameRow.created_at.asc(),
            PLAYING: GameRow.created_at.desc(),
        }.get(status, GameRow.finished_at.desc())
        with self._session() as s:
            rows = s.scalars(
                select(GameRow)
                .where(GameRow.status == status, GameRow.public.is_(True), fresh)
                .order_by(order, GameRow.id)
                .limit(limit)
                .offset(offset)
            ).all()
            seats = self._seats(s, [r.id for r in rows])
            return [
                GameSummary(r.id, r.config, r.status, r.created_at, r.finished_at, r.result, seats[r.id])
                for r in rows
            ]

    def due_clocks(self, now: float, limit: int = 100) -> tuple[list[str], float | None]:
        """Running games whose move's time ran out by ``now`` (earliest first, at most
        ``limit``), and the earliest deadline after ``now`` (``None`` if none)."""
        with self._session() as s:
            running = and_(GameRow.status == PLAYING, GameRow.deadline.is_not(None))
            due = list(
                s.scalars(
                    select(GameRow.id)
                    .where(running, GameRow.deadline <= now)
                    .order_by(GameRow.deadline)
                    .limit(limit)
                )
            )
            upcoming = s.scalar(select(func.min(GameRow.deadline)).where(running, GameRow.deadline > now))
            return due, upcoming

    def takeover_candidates(self) -> list[tuple[str, SeatData]]:
        """Human seats of running games that allow takeover, with when each was last seen."""
        with self._session() as s:
            rows = s.execute(
                select(SeatRow)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(
                    GameRow.status == PLAYING, GameRow.takeover_after.is_not(None), SeatRow.kind == "human"
                )
            ).scalars()
            return [(r.game_id, _seat(r)) for r in rows]

    @staticmethod
    def _seats(s: Session, game_ids: Sequence[str]) -> dict[str, tuple[SeatData, ...]]:
        found: dict[str, list[SeatData]] = {g: [] for g in game_ids}
        if game_ids:
            rows = s.scalars(
                select(SeatRow).where(SeatRow.game_id.in_(game_ids)).order_by(SeatRow.game_id, SeatRow.seat)
            )
            for r in rows:
                found[r.game_id].append(_seat(r))
        return {g: tuple(v) for g, v in found.items()}


def _stale(waiting_before: float, playing_before: float, now: float | None, clock_idle: float) -> Any:
    """Games idle too long (:meth:`Store.expire`'s rule): waiting with no activity since
    ``waiting_before``, running with none since ``playing_before``, and, with a clock,
    idle for ``clock_idle`` times its time per move too (counted from ``now``)."""
    stale = or_(
        and_(GameRow.status == WAITING, GameRow.last_activity < waiting_before),
        and_(GameRow.status == PLAYING, GameRow.last_activity < playing_before),
    )
    if now is not None:
        clocked_fresh = and_(
            GameRow.move_seconds.is_not(None),
            GameRow.last_activity + GameRow.move_seconds * clock_idle >= now,
        )
        stale = and_(stale, ~clocked_fresh)
    return stale


def _game_row(game: GameData) -> GameRow:
    return GameRow(
        id=game.id,
        config=game.config,
        status=game.status,
        public=game.public,
        creator=game.creator,
        takeover_after=game.takeover_after,
        takeover_level=game.takeover_level,
        created_at=game.created_at,
        finished_at=None,
        result=None,
        analysis=game.analysis,
        last_activity=game.last_activity if game.last_activity is not None else game.created_at,
        move_seconds=game.move_seconds,
        deadline=game.deadline,
        started_at=game.started_at,
    )


def _seat_row(game_id: str, seat: SeatData) -> SeatRow:
    return SeatRow(
        game_id=game_id,
        seat=seat.seat,
        kind=seat.kind,
        level=seat.level,
        name=seat.name,
        token_hash=seat.token_hash,
        last_seen=seat.last_seen,
        host=seat.host,
        account_id=seat.account,
        forfeited_at=seat.forfeited_at,
    )


def _nobody_plays_on(s: Session, game_id: str) -> bool:
    """Whether a forfeit ends ``game_id``: a game of 2 players, or no other person playing."""
    seats = s.execute(
        select(SeatRow.kind, SeatRow.token_hash, SeatRow.forfeited_at).where(SeatRow.game_id == game_id)
    ).all()
    people = [kind for kind, held, gone in seats if kind == "human" and held is not None and gone is None]
    return len(seats) == 2 or not people


def _seat(r: SeatRow) -> SeatData:
    return SeatData(
        r.seat, r.kind, r.level, r.name, r.token_hash, r.last_seen, bool(r.host), r.account_id, r.forfeited_at
    )


def _action(a: ActionRow) -> ActionData:
    return ActionData(a.version, a.seat, a.kind, a.move, a.undone, a.actor, a.created_at)


def _game_data(row: GameRow, seats: tuple[SeatData, ...], actions: Sequence[ActionRow]) -> GameData:
    return GameData(
        id=row.id,
        config=row.config,
        status=row.status,
        public=row.public,
        creator=row.creator,
        takeover_after=row.takeover_after,
        takeover_level=row.takeover_level,
        created_at=row.created_at,
        finished_at=row.finished_at,
        result=row.result,
        seats=seats,
        actions=tuple(_action(a) for a in actions),
        analysis=bool(row.analysis),
        last_activity=row.last_activity,
        move_seconds=row.move_seconds,
        deadline=row.deadline,
        started_at=row.started_at if row.started_at is not None or row.status == WAITING else row.created_at,
    )
