"""The server's edges towards the network: who a client is (its address, grouped), how often it
may act over HTTP, the security headers of every response, and how long a connection may
take to send its request's headers.

- **Client key** (:func:`client_key`): the address the quota and the rate limits count on.
  An IPv6 client is its /64 network (one subscriber usually holds a whole /64, so counting
  single addresses would give them unlimited quotas). The address is the socket's peer,
  unless the server trusts a reverse proxy (``quadropolis serve --forwarded-allow-ips``):
  then uvicorn takes it from that proxy's ``X-Forwarded-For``; never otherwise.
- **HTTP rate limits** (:class:`RateLimits`): a moving window per client key, from the
  maintained ``limits`` package (in memory: one server process's count), one for actions
  and one for creating and joining games; over it, :class:`~.errors.RateLimited` with the
  seconds to wait.
- **Security headers** (:class:`SecurityHeaders`): a strict Content-Security-Policy (the
  built client has no inline script or style), ``nosniff``, no framing, no referrer.
- **Header timeout** (:func:`edge_protocol`): uvicorn closes idle keep-alive
  connections but gives a connection that sends its headers one byte at a time forever
  (slowloris); this protocol closes a connection whose headers are not complete in time.
- **Websocket handshakes** (:class:`HandshakeLimit`): at most so many per client key in a
  moving window; one over it is answered ``429 rate_limited`` by the HTTP protocol itself,
  :data:`HANDSHAKE_PAUSE` seconds later, before the websocket layer, the application or the
  game are involved (a crowd that reconnects as soon as it is refused cost a whole
  websocket session per attempt, and was the largest cost in the server's profile under the
  abuse load; the pause bounds how often each of its sockets can try). Keyed by the socket's
  peer, so applied only when no proxy is trusted (behind one, limit handshakes there).
- **Token buckets** (:class:`TokenBucket`): a rate with bursts on an injected clock, for the
  websocket's messages per connection and the table chat's lines per seat and address."""

from __future__ import annotations

import asyncio
import ipaddress
import math
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

from limits import RateLimitItem, RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .errors import RateLimited
from .protocol import ErrorBody
from .settings import Limits

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The prefix length an IPv6 client is counted by.
IPV6_PREFIX: Final = 64

#: Seconds a websocket handshake over its address's limit waits before its 429 reply.
HANDSHAKE_PAUSE: Final = 1.0

#: Every response's security headers. The client is served from this origin only: its
#: script and style files, data: images (the favicon), websockets back to this origin.
SECURITY_HEADERS: Final = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)


def client_key(host: str | None) -> str:
    """The key a client address counts on: the address itself (IPv4, or an IPv4-mapped
    IPv6 address as its IPv4), an IPv6 address's /64 network, ``unknown`` without one."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]  # not an IP (a Unix socket's peer): counted as it is
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


class RateLimits:
    """Per client key: ``actions_per_second`` moves, undos, resignations, leaves and
    cancellations; ``creates_per_minute`` games created and seats joined."""

    def __init__(self, limits: Limits) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self.actions = RateLimitItemPerSecond(limits.actions_per_second)
        self.creates = RateLimitItemPerMinute(limits.creates_per_minute)

    def action(self, client: str) -> None:
        """Count an action of ``client``; :class:`RateLimited` if over its limit."""
        self._hit(self.actions, client, "actions")

    def create(self, client: str) -> None:
        """Count a game created or a seat joined by ``client``; :class:`RateLimited` if over."""
        self._hit(self.creates, client, "games created or seats joined")

    def _hit(self, item: RateLimitItem, client: str, what: str) -> None:
        if self._limiter.hit(item, client):
            return
        reset = self._limiter.get_window_stats(item, client).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise RateLimited(
            f"more than {item.amount} {what} per {item.GRANULARITY.name} from this address: "
            f"try again in {wait} s",
            retry_after=wait,
        )


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response (those the
    application gives and the errors of the middlewares inside it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                given = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in given]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class HandshakeLimit:
    """At most ``amount`` websocket handshakes per client key in any ``seconds`` (a moving
    window from the ``limits`` package: a burst of ``amount``, then ``amount / seconds`` a
    second on average). :attr:`refusal` is the whole HTTP reply to one over it."""

    def __init__(self, amount: int, seconds: int) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self.item = RateLimitItemPerSecond(amount, seconds)
        error = RateLimited(
            f"more than {amount} websocket connections in {seconds} s from this address: "
            f"try again in {seconds} s",
            retry_after=seconds,
        )
        body = ErrorBody.of(error).model_dump_json(exclude_none=True).encode()
        self.refusal = (
            b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
            + f"content-length: {len(body)}\r\nretry-after: {seconds}\r\n".encode()
            + b"".join(k + b": " + v + b"\r\n" for k, v in SECURITY_HEADERS)
            + b"connection: close\r\n\r\n"
            + body
        )

    def allows(self, host: str | None) -> bool:
        """Count a handshake from ``host``: whether it is within the limit."""
        return bool(self._limiter.hit(self.item, client_key(host)))


def edge_protocol(seconds: float, handshakes: HandshakeLimit | None = None) -> type[HttpToolsProtocol]:
    """uvicorn's HTTP protocol (httptools), closing a connection whose request headers are
    not all received ``seconds`` after it opened or after the request's first byte, and
    refusing a websocket handshake over ``handshakes`` (if given) with its refusal, keyed by
    the socket's peer (so give it only when no proxy's forwarded address is trusted)."""

    class EdgeProtocol(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None

        def handle_websocket_upgrade(self) -> None:
            if handshakes is None or handshakes.allows(self.client[0] if self.client else None):
                super().handle_websocket_upgrade()
                return
            # Refused here, before uvicorn builds a websocket session and calls the application,
            # and only after a pause: a client reconnecting as soon as it is refused is slowed
            # down to one attempt per pause (reading nothing meanwhile, not counted as an open
            # request by --limit-concurrency).
            self.transport.pause_reading()
            self.connections.discard(self)
            self._header_timer = self.loop.call_later(HANDSHAKE_PAUSE, self._refuse, handshakes.refusal)

        def _refuse(self, reply: bytes) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.write(reply)
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._header_timer is None:
                self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._header_timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

    return EdgeProtocol


class TokenBucket:
    """``rate`` messages per second on average, ``burst`` at once."""

    __slots__ = ("_last", "_tokens", "burst", "clock", "rate")

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def take(self) -> bool:
        if not self.ready():
            return False
        self._tokens -= 1
        return True

    def ready(self) -> bool:
        """Whether a message may go now (nothing is taken)."""
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        return self._tokens >= 1

    def full(self) -> bool:
        """Whether it holds its whole burst again (it may be forgotten)."""
        return self._tokens + (self.clock() - self._last) * self.rate >= self.burst
