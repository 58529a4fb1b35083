"""``quadropolis serve``: the command line of the game server.

Importing this module needs only the standard library, so the command line works without
the ``web`` extra; running the server imports FastAPI, uvicorn and SQLAlchemy, and says how
to install them if they are missing."""

from __future__ import annotations

import argparse
import logging
import socket
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from ..bots import LEVELS
from ..errors import ConfigError
from .settings import (
    DAILY_FORMATS,
    DEFAULT_HOST,
    DEFAULT_PORT,
    EXPIRY_CHECK,
    HEADER_TIMEOUT,
    SQLITE_SYNCS,
    STALLED_SECONDS,
    Limits,
    Settings,
    default_database,
    parse_daily_format,
)

WEB_HINT = "pip install 'quadropolis[web]'"

_DESCRIPTION = f"""\
Run the authoritative game server: lobby, games between humans and bots, live play over
websockets, records of finished games. The protocol is described at /openapi.json (HTTP)
and in docs/protocol.md (websocket messages); the rules at /rules.

Bot seats: {", ".join(LEVELS)} (the levels of the terminal game, quadropolis.bots.LEVELS).

Storage: SQLite in the user's data directory unless --database is given; the schema is
created and upgraded by migrations at startup. Several server processes can serve the same
games with --database postgresql://... and --redis redis://... (state pushes fan out
between processes through Redis pub/sub)."""


def add_serve_options(p: argparse.ArgumentParser) -> None:
    """The options of ``serve`` (shared with ``python -m quadropolis.server``)."""
    p.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="sqlite:///PATH or postgresql://USER@HOST/DB (default: SQLite in the user data directory)",
    )
    p.add_argument(
        "--sqlite-sync",
        choices=SQLITE_SYNCS,
        default="normal",
        help="normal: an acknowledged move survives a crash of the server process; full: a power "
        "cut too, with a disk sync in every move's latency (default normal)",
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        default=None,
        help="redis://HOST:PORT: share state pushes with other server processes (needs PostgreSQL)",
    )
    limits = Limits()
    p.add_argument(
        "--bot-workers",
        type=int,
        default=limits.bot_workers,
        metavar="N",
        help=f"worker processes choosing bot moves: the bot budget (default {limits.bot_workers})",
    )
    p.add_argument(
        "--games-per-client",
        type=int,
        default=limits.games_per_client,
        metavar="N",
        help=f"unfinished games one client address may create (default {limits.games_per_client})",
    )
    _add_abuse_options(p, limits)
    _add_account_options(p, limits)
    p.add_argument(
        "--review-budget",
        type=int,
        default=limits.review_budget,
        metavar="N",
        help=f"search simulations per take of a post-game review (default {limits.review_budget:,})",
    )
    p.add_argument(
        "--costly-bots-per-client",
        type=int,
        default=limits.costly_bots_per_client,
        metavar="N",
        help="hard or expert bot seats (takeover included) one client address may have in "
        f"unfinished games at once (default {limits.costly_bots_per_client})",
    )
    p.add_argument(
        "--daily-formats",
        default=",".join(DAILY_FORMATS),
        metavar="LIST",
        help="the daily challenge's formats, cycled through day by day: comma-separated "
        f"classic-N or expert-N, N from 2 to 4 (default {','.join(DAILY_FORMATS)})",
    )
    p.add_argument(
        "--log-level", choices=["debug", "info", "warning", "error"], default="info", help="default info"
    )
    p.add_argument("--no-access-log", action="store_true", help="do not log every HTTP request")
    p.add_argument(
        "--ws-compression",
        action="store_true",
        help="offer permessage-deflate on websockets (less bandwidth, much more CPU per push)",
    )


def _add_account_options(p: argparse.ArgumentParser, limits: Limits) -> None:
    """The options bounding sign-ups and who is rated against whom (documented in docs/server.md)."""
    p.add_argument(
        "--signups-per-hour",
        type=int,
        default=limits.signups_per_hour,
        metavar="N",
        help=f"accounts one client address may create in any hour (default {limits.signups_per_hour})",
    )
    p.add_argument(
        "--signups-per-day",
        type=int,
        default=limits.signups_per_day,
        metavar="N",
        help=f"accounts one client address may create in any day (default {limits.signups_per_day})",
    )
    p.add_argument(
        "--rated-history",
        type=int,
        default=limits.rated_history,
        metavar="N",
        help="rated games an account needs before its games against other accounts are rated "
        f"(default {limits.rated_history}; accounts signed up from one address are never rated "
        "against each other)",
    )


def _add_abuse_options(p: argparse.ArgumentParser, limits: Limits) -> None:
    """The options bounding what one client may cost (documented in docs/server.md)."""
    p.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        default=None,
        help="comma-separated addresses or networks of reverse proxies whose X-Forwarded-For is "
        "trusted for the client's address ('*': any); default: trust no one's",
    )
    p.add_argument(
        "--actions-per-second",
        type=int,
        default=limits.actions_per_second,
        metavar="N",
        help="HTTP moves, undos, resignations, leaves, cancellations per second per client address "
        f"(default {limits.actions_per_second})",
    )
    p.add_argument(
        "--creates-per-minute",
        type=int,
        default=limits.creates_per_minute,
        metavar="N",
        help="games created and seats joined per minute per client address "
        f"(default {limits.creates_per_minute})",
    )
    p.add_argument(
        "--waiting-expiry",
        type=float,
        default=limits.waiting_expiry,
        metavar="SECONDS",
        help=f"a waiting game with no activity this long expires (default {limits.waiting_expiry:g})",
    )
    p.add_argument(
        "--playing-expiry",
        type=float,
        default=limits.playing_expiry,
        metavar="SECONDS",
        help=f"a running game where no person acted this long expires (default {limits.playing_expiry:g})",
    )
    p.add_argument(
        "--clock-scale",
        type=float,
        default=limits.clock_scale,
        metavar="FACTOR",
        help="multiply every table's time per move: for tests, e.g. 0.0001 makes a day 8.6 s (default 1)",
    )
    p.add_argument(
        "--header-timeout",
        type=float,
        default=HEADER_TIMEOUT,
        metavar="SECONDS",
        help=f"close a connection whose request headers take longer (default {HEADER_TIMEOUT:g})",
    )
    p.add_argument(
        "--handshakes-per-address",
        type=int,
        default=limits.handshakes_per_address,
        metavar="N",
        help=f"websocket connections one client address may open in any {limits.handshake_seconds} s; "
        f"more are refused with 429 before any session starts (default {limits.handshakes_per_address}; "
        "not applied with --forwarded-allow-ips: limit them at the proxy)",
    )
    p.add_argument(
        "--limit-concurrency",
        type=int,
        default=None,
        metavar="N",
        help="answer 503 once N connections and requests are open (default: no limit)",
    )


def add_serve_command(sub: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    """Register ``quadropolis serve`` on the command line's subparsers."""
    p: argparse.ArgumentParser = sub.add_parser(
        "serve",
        help="run the game server (HTTP + websockets; needs the web extra)",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_serve_options(p)
    p.set_defaults(func=cmd_serve)
    return p


def settings_from(args: argparse.Namespace) -> Settings:
    if not 0 <= args.port <= 65535:
        raise ConfigError(f"--port must be between 0 and 65535, got {args.port}")
    counts = (
        args.bot_workers,
        args.games_per_client,
        args.actions_per_second,
        args.creates_per_minute,
        args.review_budget,
        args.handshakes_per_address,
        args.signups_per_hour,
        args.signups_per_day,
    )
    if args.rated_history < 0:
        raise ConfigError(f"--rated-history must be 0 or more, got {args.rated_history}")
    if min(counts) < 1:
        raise ConfigError(
            "--bot-workers, --games-per-client, --actions-per-second, --creates-per-minute, "
            "--review-budget, --handshakes-per-address, --signups-per-hour and --signups-per-day "
            "must be at least 1"
        )
    if min(args.waiting_expiry, args.playing_expiry, args.header_timeout) <= 0:
        raise ConfigError("--waiting-expiry, --playing-expiry and --header-timeout must be positive")
    if not 0 < args.clock_scale <= 1000:
        raise ConfigError("--clock-scale must be above 0 and at most 1000")
    if args.limit_concurrency is not None and args.limit_concurrency < 1:
        raise ConfigError("--limit-concurrency must be at least 1")
    if args.costly_bots_per_client < 0:
        raise ConfigError("--costly-bots-per-client must be at least 0")
    formats = tuple(f.strip() for f in args.daily_formats.split(",") if f.strip())
    for text in formats:
        try:
            parse_daily_format(text)
        except ValueError as e:
            raise ConfigError(f"--daily-formats: {e}") from None
    if not formats:
        raise ConfigError("--daily-formats: give at least one format, e.g. classic-2")
    database = args.database or default_database()
    if args.redis and database.startswith("sqlite"):
        raise ConfigError("--redis shares games between processes: it needs --database postgresql://...")
    limits = Limits(
        bot_workers=args.bot_workers,
        games_per_client=args.games_per_client,
        review_budget=args.review_budget,
        costly_bots_per_client=args.costly_bots_per_client,
        actions_per_second=args.actions_per_second,
        creates_per_minute=args.creates_per_minute,
        waiting_expiry=args.waiting_expiry,
        playing_expiry=args.playing_expiry,
        # Checked often enough that a game outlives its expiry by a tenth of it at most.
        expiry_check=min(EXPIRY_CHECK, args.waiting_expiry / 10, args.playing_expiry / 10),
        clock_scale=args.clock_scale,
        handshakes_per_address=args.handshakes_per_address,
        signups_per_hour=args.signups_per_hour,
        signups_per_day=args.signups_per_day,
        rated_history=args.rated_history,
    )
    return Settings(
        database=database,
        redis=args.redis,
        limits=limits,
        ws_compression=args.ws_compression,
        forwarded_allow_ips=args.forwarded_allow_ips,
        header_timeout=args.header_timeout,
        daily_formats=formats,
        sqlite_sync=args.sqlite_sync,
    )


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Migrate the database, then serve until interrupted. Ctrl-C or SIGTERM stop it cleanly
    (connections closed, bot workers stopped), after which uvicorn re-raises the signal, as
    its default handler would: exit status 130 for Ctrl-C, death by SIGTERM otherwise."""
    settings = settings_from(args)
    try:
        import uvicorn

        from .app import create_app
        from .edges import HandshakeLimit, edge_protocol
    except ImportError as e:
        raise ConfigError(
            f"quadropolis serve needs the web extra ({e.name} is missing): {WEB_HINT}"
        ) from None
    shown = _prepare_database(settings.database)
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    out.write(f"quadropolis server on http://{args.host}:{args.port} (database {shown})\n")
    out.flush()
    limits = settings.limits
    # Keyed by the socket's peer: behind a trusted proxy every client would share its address.
    handshakes = (
        HandshakeLimit(limits.handshakes_per_address, limits.handshake_seconds)
        if settings.forwarded_allow_ips is None
        else None
    )
    config = uvicorn.Config(
        create_app(settings),
        host=args.host,
        port=args.port,
        http=edge_protocol(settings.header_timeout, handshakes),
        ws_max_size=settings.limits.max_frame_bytes,
        ws_per_message_deflate=settings.ws_compression,
        log_level=args.log_level,
        access_log=not args.no_access_log,
        lifespan="on",
        # X-Forwarded-For is trusted only from the proxies named (uvicorn would trust loopback).
        proxy_headers=settings.forwarded_allow_ips is not None,
        forwarded_allow_ips=settings.forwarded_allow_ips or "",
        timeout_keep_alive=5,
        timeout_graceful_shutdown=10,
        h11_max_incomplete_event_size=16 * 1024,
        limit_concurrency=args.limit_concurrency,
    )
    server = uvicorn.Server(config)
    listener = config.bind_socket()
    # Accepted sockets inherit this: a client that never reads holds at most this much of
    # the kernel's memory (instead of the few MiB the kernel's autotuning would give it).
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, settings.limits.send_buffer_bytes)
    if hasattr(socket, "TCP_USER_TIMEOUT"):  # Linux: a peer that takes nothing for this long is reset
        listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, int(STALLED_SECONDS * 1000))
    server.run(sockets=[listener])
    return 0 if server.started else 1


def _prepare_database(database: str) -> str:
    """Check the URL and migrate the database before serving, so a bad database is one line
    of error rather than a traceback; returns the URL as shown (password hidden)."""
    from sqlalchemy.engine import make_url

    from .storage import Store, normalise_url

    try:
        url = make_url(normalise_url(database))
    except Exception:
        raise ConfigError(f"--database: not a database URL: {database[:80]!r}") from None
    shown = url.render_as_string(hide_password=True)
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise ConfigError(f"--database {shown}: use sqlite:///PATH or postgresql://USER@HOST/DB")
    try:
        store = Store(database)
        try:
            store.upgrade()
        finally:
            store.close()
    except Exception as e:
        raise ConfigError(f"database {shown}: {type(e).__name__}: {str(e).splitlines()[0]}") from None
    return shown


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m quadropolis.server [options]``: the same as ``quadropolis serve``."""
    parser = argparse.ArgumentParser(prog="python -m quadropolis.server", description=_DESCRIPTION)
    add_serve_options(parser)
    args = parser.parse_args(argv)
    try:
        return cmd_serve(args, sys.stdout)
    except ConfigError as e:
        print(f"quadropolis serve: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
