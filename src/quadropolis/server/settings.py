"""The server's settings and limits, with their defaults, and where the default database lives
(SQLite in the user's data directory, so ``quadropolis serve`` needs no setup). Standard
library only: the command line imports it without the ``web`` extra."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8000
#: Longest inbound websocket message (bytes of UTF-8); the longest valid one is ~200.
MAX_MESSAGE_BYTES: Final = 4096
#: Longest period of the expiry check (seconds); shorter for short expiry times.
EXPIRY_CHECK: Final = 60.0
#: Seconds a connection may take to send a request's headers.
HEADER_TIMEOUT: Final = 10.0
#: A connection whose peer accepts no data for this long is reset by TCP (``TCP_USER_TIMEOUT``,
#: Linux): the only way to let go of a client that never reads, which no close frame reaches.
STALLED_SECONDS: Final = 30.0
#: SQLite's sync levels (``--sqlite-sync``): ``normal`` (the default) keeps every acknowledged
#: move through a crash of the server process, ``full`` through a power cut too, at the cost
#: of a disk sync in every move's latency (see :mod:`.storage`).
SQLITE_SYNCS: Final = ("normal", "full")


#: The daily challenge's formats, cycled through day by day (:mod:`.social.daily`).
DAILY_FORMATS: Final = ("classic-2", "classic-3", "expert-2", "classic-4", "expert-3", "expert-4")


def parse_daily_format(text: str) -> tuple[str, int]:
    """A daily format, ``classic-2`` … ``expert-4``, as (mode, players); ``ValueError`` saying
    what is expected otherwise."""
    mode, _, players = text.partition("-")
    if mode not in ("classic", "expert") or players not in ("2", "3", "4"):
        raise ValueError(f"a daily format is classic-N or expert-N with N from 2 to 4, got {text[:20]!r}")
    return mode, int(players)


#: Rated games an account must have (against bots, or people) before its games against other
#: accounts are rated: a new account cannot be made only to feed another one rating points.
RATED_HISTORY: Final = 5


@dataclass(frozen=True, slots=True)
class Limits:
    """What one client may use.

    - ``max_message_bytes``: longest websocket message accepted (longer: ``too_large``);
      ``max_frame_bytes``: a frame over this closes that connection at the websocket layer
      (code 1009) before it is even read whole;
    - ``max_body_bytes``: longest HTTP request body;
    - ``messages_per_second`` / ``message_burst``: a token bucket per connection (over it:
      ``rate_limited``, the message is dropped);
    - ``games_per_client``: unfinished games one client address may have created;
    - reviews: ``review_budget`` search simulations per take of a post-game review (the
      review's default, :data:`quadropolis.bots.REVIEW_ITERATIONS`; a smaller one makes
      quicker, rougher reviews), at most ``reviews_per_client`` running per client address
      and ``reviews_running`` on the whole server;
    - HTTP rate limits per client address (over them: ``rate_limited``, 429 with
      ``Retry-After``): ``actions_per_second`` moves, undos, resignations, leaves and
      cancellations; ``creates_per_minute`` games created and seats joined;
    - life cycle: a game waiting for players with no activity for ``waiting_expiry``
      seconds, or a running one where no person has acted for ``playing_expiry`` seconds,
      expires (status ``expired``; checked every ``expiry_check`` seconds); only the others
      count towards ``games_per_client``;
    - ``presence_delay``: a seat's arrivals and departures within this many seconds are
      written and pushed once (a reconnecting loop costs a bounded number of writes);
    - ``finished_cache``: seconds a finished game no one watches stays in memory after its
      last request;
    - ``spectators_per_game`` / ``spectators_per_address``: websocket connections holding no
      seat that one process serves per game, in all and from one address (a connection over
      them must authenticate within ``auth_grace_seconds`` or is closed; a seat's holder is
      never refused); ``connections_per_seat``: connections holding one seat (a newer one
      closes the oldest); ``handshakes_per_address``: websocket handshakes one address may
      open in any ``handshake_seconds`` (over it: 429 ``rate_limited`` at the handshake, before
      any websocket session; applied only when no proxy is trusted, see :mod:`.edges`);
    - ``send_buffer_bytes``: each socket's kernel send buffer (``SO_SNDBUF``, which Linux
      doubles), so a client that never reads holds that much until it is dropped as too slow;
    - ``clock_scale``: multiplies every table's time per move (:mod:`.clocks`); 1 in
      service, small in tests to see a correspondence clock run out;
    - bot budget: ``bot_workers`` worker processes search hard and expert decisions and
      analyses (one more plays easy and medium), at most ``bot_queue`` analyses wait;
      ``costly_bots_per_client``: hard or expert bot seats (takeover included) one address
      may have in unfinished games at once; the levels' budgets are fixed
      (:data:`quadropolis.bots.LEVELS`);
    - table chat: ``chat_per_minute`` lines per seat of a game on average, ``chat_burst`` at
      once, across all the connections holding it, and ``address_chat_per_minute`` /
      ``address_chat_burst`` from one client address over all its seats and games (over
      either: ``rate_limited``, the line is dropped);
    - accounts: ``signups_per_hour`` and ``signups_per_day`` accounts created from one client
      address (counted in the database, across server processes; over it: ``rate_limited``,
      429 with ``Retry-After``);
    - ratings: ``rated_history`` rated games each account needs before its games against
      other accounts are rated (:func:`~.ratings.rules.may_rate_each_other`).
    """

    max_message_bytes: int = MAX_MESSAGE_BYTES
    max_frame_bytes: int = 64 * 1024
    max_body_bytes: int = 16 * 1024
    messages_per_second: float = 20.0
    message_burst: int = 40
    games_per_client: int = 20
    spectators_per_game: int = 64
    spectators_per_address: int = 8
    auth_grace_seconds: float = 5.0
    connections_per_seat: int = 8
    handshakes_per_address: int = 120
    handshake_seconds: int = 10
    send_buffer_bytes: int = 256 * 1024
    bot_workers: int = 1
    bot_queue: int = 256
    review_budget: int = 30_000
    reviews_per_client: int = 2
    reviews_running: int = 8
    actions_per_second: int = 10
    creates_per_minute: int = 30
    waiting_expiry: float = 30 * 60.0
    playing_expiry: float = 60 * 60.0
    expiry_check: float = EXPIRY_CHECK
    presence_delay: float = 0.25
    finished_cache: float = 120.0
    costly_bots_per_client: int = 8
    chat_per_minute: float = 20.0
    chat_burst: int = 5
    address_chat_per_minute: float = 40.0
    address_chat_burst: int = 10
    clock_scale: float = 1.0
    signups_per_hour: int = 3
    signups_per_day: int = 10
    rated_history: int = RATED_HISTORY


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything ``create_app`` needs. ``database``: an SQLAlchemy URL (``sqlite:///PATH``
    or ``postgresql://...``); ``redis``: a Redis URL to share state pushes between several
    server processes (``None``: this process only); ``static``: the directory served at
    ``/`` (``None``: the one shipped with the package, if present)."""

    database: str
    redis: str | None = None
    limits: Limits = field(default_factory=Limits)
    static: Path | None = None
    #: Seconds between sweeps (takeover checks, presence heartbeats, stalled bots).
    sweep_seconds: float = 0.5
    #: Offer permessage-deflate on websockets: a view shrinks about fourfold, but compressing
    #: every push was the largest single CPU cost in the server's profile; off by default.
    ws_compression: bool = False
    #: Client addresses (comma-separated IPs or networks, ``*`` for any) of the reverse proxies
    #: whose ``X-Forwarded-For`` / ``X-Forwarded-Proto`` headers are trusted; ``None``: no one's.
    forwarded_allow_ips: str | None = None
    #: Seconds a connection may take to send a request's headers (slow senders are closed).
    header_timeout: float = HEADER_TIMEOUT
    #: The daily challenge's formats (``classic-2`` … ``expert-4``), cycled through by day.
    daily_formats: tuple[str, ...] = DAILY_FORMATS
    #: SQLite's sync level, one of :data:`SQLITE_SYNCS` (ignored for PostgreSQL).
    sqlite_sync: str = "normal"


def default_database() -> str:
    """SQLite in the user's data directory (created if missing)."""
    import platformdirs

    directory = Path(platformdirs.user_data_dir("quadropolis", appauthor=False))
    return f"sqlite:///{directory / 'server.sqlite3'}"
