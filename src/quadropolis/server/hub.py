"""The websocket side of one server process: its connections by game, each with its own
sender, and the handling of every inbound message type.

A connection starts as a spectator (it receives ``welcome`` and a ``state`` push at once);
``auth`` with seat tokens makes it act for those seats; ``auth`` with ``account: true`` makes
it act for the seats of the logged-in account whose session cookie came with the handshake
(a player's seats on any device). A browser sends cookies with a websocket opened
by any site, so that cookie counts only when the handshake's ``Origin`` is this server's own
(the ``Host`` it was sent to), as for the accounts' other state-changing requests.

Inbound messages go through the size limit, the per-connection rate limit and the decoder table of
:mod:`~quadropolis.server.protocol`, then to the handler of their type, which calls the game
service. Whatever goes wrong is answered with a typed ``error`` on this connection only: no
input can close another client's connection or reach a game unchecked.

**Who gets in.** A connection counts against a cap only once it is known for what it is.
Spectators (connections holding no seat) are capped per game and per address
(``Limits.spectators_per_game``, ``spectators_per_address``). A connection arriving over
those caps gets ``welcome`` only (no ``state``, chat or ``sync`` answer: a crowd of them
costs no views), then has ``auth_grace_seconds`` to authenticate: with a seat's token it is
a player and stays, whatever the crowd (a seat's holder is never refused); otherwise it
gets ``limit_reached`` and close code :data:`CLOSE_FULL`. At most
``spectators_per_address`` such connections of one address wait at once (a newer one closes
the oldest). Connections holding one seat are capped too (``connections_per_seat``): a
newer one closes the oldest with :data:`CLOSE_REPLACED`.

**Table chat and rematch offers**: a ``chat`` line from a connection that still holds a seat
is checked (protocol), handed to the table chat (:mod:`.social.chat`: rate-limited per seat
and per client address across connections and reconnections, stored with the game) and sent
to every connection of the game in this process; a connection gets the lines kept when it
opens. A rematch asked for a finished
game is offered to the connections holding its seats (:meth:`Hub.offer_rematch`).

**Sending never blocks the server on one client.** Each connection has its own writer task.
State pushes are conflated: a connection holds at most one unsent state, the latest (a
client that reads slowly skips versions, never gets a backlog). Other messages (replies)
queue, at most :data:`REPLY_QUEUE`; a client with more waiting, or whose socket accepts
nothing for :data:`SEND_TIMEOUT` seconds, is closed with :data:`CLOSE_TOO_SLOW` (it may
reconnect and gets the latest state)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect

from .audience import Audience
from .clock import Clock
from .data import ChatLine, Credential
from .edges import TokenBucket, client_key
from .errors import (
    Forbidden,
    InternalError,
    LimitReached,
    NotFound,
    NotLoggedIn,
    RateLimited,
    ServerError,
    Unavailable,
)
from .game import LiveGame, still_held
from .ports import SessionAccounts, TableChat
from .protocol import (
    COOKIE,
    Accepted,
    Auth,
    ChatEntry,
    ChatMessage,
    ChatPush,
    ErrorReply,
    Message,
    MoveMessage,
    PingMessage,
    Pong,
    RematchOffer,
    SyncMessage,
    UndoMessage,
    Welcome,
    decode,
    message_id,
)
from .service import GameService
from .settings import Limits

log = logging.getLogger("quadropolis.server")

#: Replies (not state pushes) waiting to be sent to one client before it counts as too slow.
REPLY_QUEUE: Final = 256
#: Seconds one message may take to be accepted by a client's socket before it counts as too slow.
SEND_TIMEOUT: Final = 10.0
#: Close codes (4000-4999 are the application's).
CLOSE_FORBIDDEN: Final = 4403
CLOSE_NOT_FOUND: Final = 4404
CLOSE_TOO_SLOW: Final = 4408
CLOSE_REPLACED: Final = 4409
CLOSE_FULL: Final = 4429


class Connection:
    """One websocket client of one game: its address, the seats it holds (seat -> token),
    whether it is a counted spectator, and its sender (see the module docstring)."""

    def __init__(self, ws: WebSocket, game_id: str, limits: Limits, clock: Clock) -> None:
        self.ws = ws
        self.game_id = game_id
        self.address = ws.client.host if ws.client is not None else "unknown"
        #: Seat -> its token, or the account's proof for a seat held by the account.
        self.seats: dict[int, Credential] = {}
        self.spectator = False
        #: Why this connection may not watch the game (``None``: it may): it sees nothing
        #: before a seat's ``auth`` (the daily challenge's hidden games).
        self.hidden: str | None = None
        self.opened = clock.monotonic()
        self.bucket = TokenBucket(limits.messages_per_second, limits.message_burst, clock.monotonic)
        self.grace: asyncio.TimerHandle | None = None
        #: Replies in order; ``None`` marks where the latest state goes out.
        self._queue: deque[str | None] = deque()
        self._state: str | None = None
        self._close: int | None = None
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write(), name=f"ws-writer-{self.game_id}")

    def send(self, message: Message) -> None:
        self.send_text(message.model_dump_json())

    def send_text(self, text: str) -> None:
        """Queue a reply (never dropped: a client with too many waiting is closed)."""
        if self._close is not None:
            return
        if len(self._queue) >= REPLY_QUEUE:
            log.warning("closing a client of game %s: too slow to keep up", self.game_id)
            self._queue.clear()
            self._state = None
            self.close(CLOSE_TOO_SLOW)
            return
        self._queue.append(text)
        self._wake.set()

    def send_state(self, text: str) -> None:
        """Make ``text`` the state to send next; an unsent older one is replaced. A state
        never goes out before a reply queued after it: a client that ignores the states
        before its ``auth`` reply (the browser's) would otherwise miss the one it waits for."""
        if self._close is not None:
            return
        if self._state is not None and self._queue[-1] is not None:
            self._queue.remove(None)  # replies came after the unsent state: it moves after them
            self._state = None
        if self._state is None:
            self._queue.append(None)
        self._state = text
        self._wake.set()

    def close(self, code: int) -> None:
        """Close after the replies and state already queued (the first code given wins)."""
        if self._close is None:
            self._close = code
            self._wake.set()

    async def _write(self) -> None:
        try:
            while True:
                while not self._queue and self._close is None:
                    self._wake.clear()
                    await self._wake.wait()
                if not self._queue:
                    break
                text = self._queue.popleft()
                if text is None:
                    text, self._state = self._state or "", None
                # asyncio.timeout, not wait_for: in 3.11 wait_for wraps the send in a task of
                # its own, one more task and one more turn of the event loop per message.
                async with asyncio.timeout(SEND_TIMEOUT):
                    await self.ws.send_text(text)
            await self.ws.close(self._close or 1000)
        except TimeoutError:
            log.warning("closing a client of game %s: its socket took nothing for a while", self.game_id)
            # Not cut short: the websocket layer gives the close frame its own timeout, then
            # drops the connection, and the kernel's buffers with it.
            with contextlib.suppress(Exception):
                await self.ws.close(CLOSE_TOO_SLOW)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return  # the reader notices the disconnection and cleans up

    async def finish(self, timeout: float) -> None:
        """Wait (up to ``timeout`` seconds) for the writer to send what is queued and close."""
        if self._writer is not None:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self._writer), timeout)
        await self.stop()

    async def stop(self) -> None:
        if self.grace is not None:
            self.grace.cancel()
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer


Handler = Callable[[Connection, Any], Awaitable[None]]


class Hub:
    """The connections of this process, by game; pushes a fresh view to each admitted
    connection of a game whenever the service says it changed."""

    def __init__(
        self,
        service: GameService,
        limits: Limits,
        chat: TableChat | None = None,
        accounts: SessionAccounts | None = None,
        audience: Audience | None = None,
    ) -> None:
        self.service = service
        #: Who is connected to each game (:mod:`.audience`): told of each connection here.
        self.audience = audience or Audience(service)
        self.limits = limits
        #: The table chat (:mod:`.social.chat`; ``None``: no chat, ``chat`` is ``unavailable``).
        self.chat = chat
        #: Accounts, for ``auth`` with ``account`` (``None``: refused).
        self.accounts = accounts
        #: Admitted connections (players and counted spectators), which get every push.
        self._games: dict[str, set[Connection]] = {}
        #: Per game, counted spectators per address.
        self._spectators: dict[str, Counter[str]] = {}
        #: Per game and address, connections over the spectator caps waiting to authenticate.
        self._waiting: dict[tuple[str, str], deque[Connection]] = {}
        #: Presence changes under way for seats connections no longer hold.
        self._departures: set[asyncio.Task[None]] = set()
        self._handlers: dict[type[Message], Handler] = {
            Auth: self._on_auth,
            MoveMessage: self._on_move,
            UndoMessage: self._on_undo,
            SyncMessage: self._on_sync,
            PingMessage: self._on_ping,
            ChatMessage: self._on_chat,
        }
        service.subscribe(self.push)

    def connections(self, game_id: str) -> int:
        """Admitted connections of ``game_id`` (players and counted spectators)."""
        return len(self._games.get(game_id, ()))

    def push(self, game_id: str) -> None:
        """Make the current view of ``game_id`` the next state of each admitted connection."""
        connections = self._games.get(game_id)
        if not connections:
            return
        game = self.service.loaded(game_id)
        if game is None:
            return
        for conn in list(connections):
            self._push_to(conn, game)

    def _push_to(self, conn: Connection, game: LiveGame) -> None:
        """A :class:`StatePush` written by hand around the view's text: the public part of a
        view is serialised once per version, not once per client."""
        if conn.seats:
            self._drop_seats_not_held(conn, game)
        view = self.service.view_text(game, conn.seats)
        conn.send_state(
            f'{{"type":"state","game":{json.dumps(game.id)},"version":{game.version},"view":{view}}}'
        )

    def _drop_seats_not_held(self, conn: Connection, game: LiveGame) -> None:
        """Forget the seats ``conn`` proved that its credential holds no more (left, then
        taken by someone else; resigned): it is no longer present at them, so a leaver's open
        connection cannot keep the bot from taking over the seat's new player."""
        held = still_held(game, conn.seats)
        gone = [seat for seat in conn.seats if seat not in held]
        if not gone:
            return
        for seat in gone:
            del conn.seats[seat]
        task = asyncio.create_task(self.audience.disconnected(conn.game_id, gone))
        self._departures.add(task)
        task.add_done_callback(self._departures.discard)

    # --- a connection's life -----------------------------------------------------------

    async def serve(self, ws: WebSocket, game_id: str) -> None:
        """Run one websocket connection to its end."""
        await ws.accept()
        conn = Connection(ws, game_id, self.limits, self.service.clock)
        conn.start()
        try:
            game = await self.service.game(game_id)
        except ServerError as e:
            conn.send(ErrorReply.of(e))
            await self._close_after_send(conn, CLOSE_NOT_FOUND if isinstance(e, NotFound) else 1011)
            return
        self.audience.opened(game_id)
        try:
            conn.send(Welcome(game=game_id, you=[]))
            conn.hidden = await self._watch_refusal(conn)
            if conn.hidden is None and self._room_for_spectator(conn):
                self._admit(conn, spectator=True)
                self._push_to(conn, game)
                await self._send_chat_history(conn)
            else:  # the state and the chat come with a seat's auth: a crowd costs no views
                self._wait_for_auth(conn)
            await self._read(conn)
        finally:
            self._forget(conn)
            await conn.stop()
            if conn.seats:
                await self.audience.disconnected(game_id, list(conn.seats))
            self.audience.closed(game_id)

    def _room_for_spectator(self, conn: Connection) -> bool:
        counts = self._spectators.get(conn.game_id, Counter())
        return (
            counts.total() < self.limits.spectators_per_game
            and counts[conn.address] < self.limits.spectators_per_address
        )

    def _admit(self, conn: Connection, spectator: bool) -> None:
        """Make ``conn`` a receiver of the game's pushes, counted as a spectator or not."""
        self._unwait(conn)
        self._games.setdefault(conn.game_id, set()).add(conn)
        if spectator and not conn.spectator:
            self._spectators.setdefault(conn.game_id, Counter())[conn.address] += 1
        elif not spectator and conn.spectator:
            self._uncount(conn)
        conn.spectator = spectator

    def _uncount(self, conn: Connection) -> None:
        counts = self._spectators.get(conn.game_id)
        if counts is not None:
            counts[conn.address] -= 1
            if counts[conn.address] <= 0:
                del counts[conn.address]
            if not counts:
                del self._spectators[conn.game_id]

    def _wait_for_auth(self, conn: Connection) -> None:
        """Over the spectator caps: ``conn`` may still authenticate, for a while."""
        waiting = self._waiting.setdefault((conn.game_id, conn.address), deque())
        waiting.append(conn)
        while len(waiting) > self.limits.spectators_per_address:
            self._refuse(waiting[0])
        loop = asyncio.get_running_loop()
        conn.grace = loop.call_later(self.limits.auth_grace_seconds, self._refuse, conn)

    def _refuse(self, conn: Connection) -> None:
        """Close a connection that stayed over the spectator caps (or may not watch) without
        authenticating."""
        self._unwait(conn)
        if conn.hidden is not None:
            conn.send(ErrorReply(code=Forbidden.code, message=conn.hidden))
            conn.close(CLOSE_FORBIDDEN)
            return
        limits = self.limits
        message = (
            f"too many spectators of this game ({limits.spectators_per_game}, "
            f"{limits.spectators_per_address} per address): a seat's player gets in with auth"
        )
        conn.send(ErrorReply(code=LimitReached.code, message=message))
        conn.close(CLOSE_FULL)

    def _unwait(self, conn: Connection) -> None:
        if conn.grace is not None:
            conn.grace.cancel()
            conn.grace = None
        key = (conn.game_id, conn.address)
        waiting = self._waiting.get(key)
        if waiting is not None and conn in waiting:
            waiting.remove(conn)
            if not waiting:
                del self._waiting[key]

    def _forget(self, conn: Connection) -> None:
        self._unwait(conn)
        if conn.spectator:
            self._uncount(conn)
            conn.spectator = False
        connections = self._games.get(conn.game_id)
        if connections is not None:
            connections.discard(conn)
            if not connections:
                del self._games[conn.game_id]

    def _limit_seat_connections(self, conn: Connection) -> None:
        """At most ``connections_per_seat`` connections hold one seat: the oldest go."""
        others = [c for c in self._games.get(conn.game_id, ()) if c is not conn and c.seats]
        for seat in conn.seats:
            holders = sorted((c for c in others if seat in c.seats), key=lambda c: c.opened)
            for old in holders[: max(0, len(holders) + 1 - self.limits.connections_per_seat)]:
                old.send(ErrorReply(code=LimitReached.code, message=f"seat {seat} connected elsewhere"))
                old.close(CLOSE_REPLACED)

    async def _close_after_send(self, conn: Connection, code: int) -> None:
        conn.close(code)
        await conn.finish(1.0)

    async def _read(self, conn: Connection) -> None:
        while True:
            try:
                event = await conn.ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if event["type"] == "websocket.disconnect":
                return
            data = event.get("text")
            if data is None:
                data = event.get("bytes") or b""
            await self.handle(conn, data)

    async def handle(self, conn: Connection, data: str | bytes) -> None:
        """One inbound message: limits, decoding, then its handler; errors become replies."""
        ident: str | None = None
        try:
            if not conn.bucket.take():
                raise RateLimited(f"more than {self.limits.messages_per_second:g} messages per second")
            try:
                message = decode(data, self.limits.max_message_bytes)
            except ServerError:
                ident = message_id(data) if len(data) <= self.limits.max_message_bytes else None
                raise
            ident = getattr(message, "id", None)
            await self._handlers[type(message)](conn, message)
        except ServerError as e:
            conn.send(ErrorReply.of(e, ident))
        except Exception:
            log.exception("handling a message of game %s", conn.game_id)
            conn.send(ErrorReply(code=InternalError.code, message="internal error", id=ident))

    # --- handlers, one per inbound type ---------------------------------------------------

    async def _on_auth(self, conn: Connection, message: Auth) -> None:
        held: dict[int, Credential] = {}
        if message.tokens:
            held.update(await self.service.authenticate(conn.game_id, message.tokens))
        if message.account:
            held.update(await self._account_seats(conn, required=not held))
        new = [seat for seat in held if seat not in conn.seats]
        conn.seats.update(held)
        was_waiting = conn.grace is not None
        self._admit(conn, spectator=False)
        self._limit_seat_connections(conn)
        conn.send(Welcome(game=conn.game_id, you=sorted(conn.seats), id=message.id))
        if new:  # the other clients are told the player arrived (debounced: .presence)
            await self.audience.connected(conn.game_id, new)
        await self._on_sync(conn, None)
        if was_waiting:  # admitted over the spectator caps: the chat it has not seen yet
            await self._send_chat_history(conn)

    async def _on_move(self, conn: Connection, message: MoveMessage) -> None:
        token = self._token(conn, message.seat)
        action = await self.service.act(conn.game_id, message.seat, token, message.version, message.move)
        conn.send(
            Accepted(
                game=conn.game_id,
                version=action.version,
                seat=action.seat,
                kind="move",
                move=action.move,
                id=message.id,
            )
        )

    async def _on_undo(self, conn: Connection, message: UndoMessage) -> None:
        token = self._token(conn, message.seat)
        action = await self.service.undo(conn.game_id, message.seat, token, message.version)
        conn.send(
            Accepted(game=conn.game_id, version=action.version, seat=action.seat, kind="undo", id=message.id)
        )

    async def _on_sync(self, conn: Connection, _message: SyncMessage | None) -> None:
        if conn.grace is not None and conn.hidden is not None:
            raise Forbidden(conn.hidden)
        if conn.grace is not None:  # over the spectator caps: nothing to see before auth
            raise LimitReached("this game has all the spectators it takes: a seat's player sends auth")
        self._push_to(conn, await self.service.game(conn.game_id))

    async def _on_ping(self, conn: Connection, message: PingMessage) -> None:
        conn.send(Pong(id=message.id))

    async def _watch_refusal(self, conn: Connection) -> str | None:
        """Why ``conn`` (no seat yet) may not watch its game, or ``None`` if it may
        (:meth:`GameService.check_watch`; its account is the handshake's session's, counted
        only from this server's own origin, as for ``auth``)."""

        async def account() -> int | None:
            if not self._same_origin(conn) or self.accounts is None:
                return None
            try:
                return (await self.accounts.account_of(conn.ws.cookies.get(COOKIE))).id
            except NotLoggedIn:
                return None

        try:
            await self.service.check_watch(conn.game_id, account)
        except Forbidden as e:
            return str(e)
        except Exception:  # closed to spectators while it cannot be told: a seat's auth still works
            log.exception("checking who may watch game %s", conn.game_id)
            return "this game cannot be watched just now (the server could not check who may): try again"
        return None

    @staticmethod
    def _same_origin(conn: Connection) -> bool:
        origin = conn.ws.headers.get("origin")
        return origin is not None and urlsplit(origin).netloc == conn.ws.headers.get("host")

    async def _account_seats(self, conn: Connection, required: bool) -> dict[int, Credential]:
        """The seats of this game the handshake's session's account holds and a person still
        plays: ``forbidden`` from another origin, or if it holds none and ``required`` (no
        token gave a seat either), ``not_logged_in`` without a live session."""
        if not self._same_origin(conn):
            raise Forbidden("a cross-site connection cannot use the account's session: send seat tokens")
        if self.accounts is None:
            raise Forbidden("this server has no accounts")
        account = await self.accounts.account_of(conn.ws.cookies.get(COOKIE))
        seats = await self.accounts.seats(account, conn.game_id)
        if not seats and required:
            raise Forbidden("your account holds no seat of this game")
        return dict.fromkeys(seats, self.accounts.proof(account))

    # --- table chat and rematch offers ----------------------------------------------------

    async def _send_chat_history(self, conn: Connection) -> None:
        """The chat lines kept of the game (only when there are some: a game without chat
        costs its connections one small read, not a message)."""
        if self.chat is None:
            return
        lines = await self.chat.history(conn.game_id)
        if lines:
            conn.send(ChatPush(game=conn.game_id, history=True, lines=[_entry(line) for line in lines]))

    async def _on_chat(self, conn: Connection, message: ChatMessage) -> None:
        """A line of table chat from a seat holder (the seats this connection still holds, as
        the game decides), kept by the table chat, then sent to every connection of the
        game in this process."""
        if self.chat is None:
            raise Unavailable("this server keeps no table chat")
        game = await self.service.game(conn.game_id)
        held = still_held(game, conn.seats)
        if not held:
            raise Forbidden("only the players at the table may chat (spectators read it)")
        seat = min(held)
        line = await self.chat.say(
            conn.game_id, held, client_key(conn.address), seat, game.seats[seat].name, message.text
        )
        push = ChatPush(game=conn.game_id, history=False, lines=[_entry(line)]).model_dump_json()
        for other in list(self._games.get(conn.game_id, ())):
            other.send_text(push)

    def offer_rematch(self, game_id: str, rematch: str, by: list[int]) -> None:
        """Tell the connections holding a seat of finished ``game_id`` that ``rematch`` waits
        for them (spectators are not told: the seats are kept for the players)."""
        offer = RematchOffer(game=game_id, rematch=rematch, by=by).model_dump_json()
        for conn in list(self._games.get(game_id, ())):
            if conn.seats:
                conn.send_text(offer)

    @staticmethod
    def _token(conn: Connection, seat: int) -> Credential:
        token = conn.seats.get(seat)
        if token is None:
            raise Forbidden(f"this connection does not hold seat {seat} (send auth with its token)")
        return token

    async def close(self) -> None:
        """Close every connection (code 1001), all at once and each for at most a second:
        a client that does not answer cannot hold up the shutdown."""
        waiting = [c for q in self._waiting.values() for c in q]
        everyone = [c for cs in self._games.values() for c in cs] + waiting
        await asyncio.gather(*(self._going_away(c) for c in everyone))

    @staticmethod
    async def _going_away(conn: Connection) -> None:
        await conn.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.ws.close(1001), 1.0)


def _entry(line: ChatLine) -> ChatEntry:
    return ChatEntry(seat=line.seat, name=line.name, text=line.text, at=line.at)
