"""The websocket side of one server process: its connections by game, each with its own send
queue, and the handling of every inbound message type.

A connection starts as a spectator (it receives ``welcome`` and a ``state`` push at once);
``auth`` with seat tokens makes it act for those seats. Inbound messages go through the size
limit, the per-connection rate limit and the decoder table of
:mod:`~quadropolis.server.protocol`, then to the handler of their type, which calls the game
service. Whatever goes wrong is answered with a typed ``error`` on this connection only: no
input can close another client's connection or reach a game unchecked.

Sending never blocks the server on one client: each connection has a bounded queue drained
by its own writer task; a client too slow to keep up with it is disconnected (it reconnects
and gets the latest state)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from .errors import Forbidden, InternalError, LimitReached, NotFound, RateLimited, ServerError
from .game import LiveGame
from .protocol import (
    Accepted,
    Auth,
    ErrorReply,
    Message,
    MoveMessage,
    PingMessage,
    Pong,
    SyncMessage,
    UndoMessage,
    Welcome,
    decode,
    message_id,
)
from .service import GameService
from .settings import Limits

log = logging.getLogger("quadropolis.server")

#: Messages waiting to be sent to one client before it counts as too slow.
SEND_QUEUE: Final = 256
#: Close codes (4000-4999 are the application's).
CLOSE_NOT_FOUND: Final = 4404
CLOSE_TOO_SLOW: Final = 4408
CLOSE_FULL: Final = 4429


class TokenBucket:
    """``rate`` messages per second on average, ``burst`` at once."""

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._tokens = float(burst)
        self._last = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class Connection:
    """One websocket client of one game: the seats it holds (seat -> token) and its queue."""

    def __init__(self, ws: WebSocket, game_id: str, limits: Limits) -> None:
        self.ws = ws
        self.game_id = game_id
        self.seats: dict[int, str] = {}
        self.bucket = TokenBucket(limits.messages_per_second, limits.message_burst)
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(SEND_QUEUE)
        self._writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write(), name=f"ws-writer-{self.game_id}")

    def send(self, message: Message) -> None:
        self.send_text(message.model_dump_json())

    def send_text(self, text: str) -> None:
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("closing a client of game %s: too slow to keep up", self.game_id)
            self._drop_and_close()

    def _drop_and_close(self) -> None:
        while not self._queue.empty():
            self._queue.get_nowait()
        self._queue.put_nowait(None)

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    await self.ws.close(CLOSE_TOO_SLOW)
                    return
                await self.ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return  # the reader notices the disconnection and cleans up

    async def stop(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer


Handler = Callable[[Connection, Any], Awaitable[None]]


class Hub:
    """The connections of this process, by game; pushes a fresh view to each connection of
    a game whenever the service says it changed."""

    def __init__(self, service: GameService, limits: Limits) -> None:
        self.service = service
        self.limits = limits
        self._games: dict[str, set[Connection]] = {}
        self._handlers: dict[type[Message], Handler] = {
            Auth: self._on_auth,
            MoveMessage: self._on_move,
            UndoMessage: self._on_undo,
            SyncMessage: self._on_sync,
            PingMessage: self._on_ping,
        }
        service.subscribe(self.push)

    def connections(self, game_id: str) -> int:
        return len(self._games.get(game_id, ()))

    def push(self, game_id: str) -> None:
        """Queue the current view of ``game_id`` for each of its connections."""
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
        view = self.service.view_text(game, conn.seats)
        conn.send_text(
            f'{{"type":"state","game":{json.dumps(game.id)},"version":{game.version},"view":{view}}}'
        )

    # --- a connection's life -----------------------------------------------------------

    async def serve(self, ws: WebSocket, game_id: str) -> None:
        """Run one websocket connection to its end."""
        await ws.accept()
        conn = Connection(ws, game_id, self.limits)
        conn.start()
        try:
            game = await self.service.game(game_id)
        except ServerError as e:
            conn.send(ErrorReply(code=e.code, message=str(e)))
            await self._close_after_send(conn, CLOSE_NOT_FOUND if isinstance(e, NotFound) else 1011)
            return
        if self.connections(game_id) >= self.limits.connections_per_game:
            conn.send(ErrorReply(code=LimitReached.code, message="too many connections to this game"))
            await self._close_after_send(conn, CLOSE_FULL)
            return
        self._games.setdefault(game_id, set()).add(conn)
        self.service.opened(game_id)
        try:
            conn.send(Welcome(game=game_id, you=[]))
            self._push_to(conn, game)
            await self._read(conn)
        finally:
            self._games[game_id].discard(conn)
            if not self._games[game_id]:
                del self._games[game_id]
            await conn.stop()
            if conn.seats:
                await self.service.disconnected(game_id, list(conn.seats))
            self.service.closed(game_id)

    async def _close_after_send(self, conn: Connection, code: int) -> None:
        await asyncio.sleep(0)  # let the writer send the error first
        await conn.stop()
        with contextlib.suppress(Exception):
            await conn.ws.close(code)

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
            conn.send(ErrorReply(code=e.code, message=str(e), id=ident))
        except Exception:
            log.exception("handling a message of game %s", conn.game_id)
            conn.send(ErrorReply(code=InternalError.code, message="internal error", id=ident))

    # --- handlers, one per inbound type ---------------------------------------------------

    async def _on_auth(self, conn: Connection, message: Auth) -> None:
        held = await self.service.authenticate(conn.game_id, message.tokens)
        new = [seat for seat in held if seat not in conn.seats]
        conn.seats.update(held)
        conn.send(Welcome(game=conn.game_id, you=sorted(conn.seats), id=message.id))
        if new:  # the other clients are told the player arrived (debounced: .presence)
            await self.service.connected(conn.game_id, new)
        await self._on_sync(conn, None)

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
        self._push_to(conn, await self.service.game(conn.game_id))

    async def _on_ping(self, conn: Connection, message: PingMessage) -> None:
        conn.send(Pong(id=message.id))

    @staticmethod
    def _token(conn: Connection, seat: int) -> str:
        token = conn.seats.get(seat)
        if token is None:
            raise Forbidden(f"this connection does not hold seat {seat} (send auth with its token)")
        return token

    async def close(self) -> None:
        for connections in list(self._games.values()):
            for conn in list(connections):
                await conn.stop()
                with contextlib.suppress(Exception):
                    await conn.ws.close(1001)
