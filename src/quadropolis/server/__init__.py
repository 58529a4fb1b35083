"""The authoritative game server (``quadropolis serve``), layered like boardgame.io: the
rules core at the bottom, then the authority, storage and broker, then the transport.

- :mod:`.service` — the authority: create and join games, accept actions (checked with the
  engine, stored, published), undo, leave, resign, cancel, bot turns, catching up with other
  processes; pure of transport. Below it: :mod:`.creation` (a new game's seats, deal and
  quotas), :mod:`.database` (storage calls off the event loop), :mod:`.presence` (who is
  here, takeover) and :mod:`.clock` (the one injected clock). Above it, each taking it in
  its constructor and wired in :mod:`.env`: :mod:`.timers` (sweeper, expiry, clocks),
  :mod:`.records` (records, summaries, replays, analyses with :mod:`.analysis_cache`,
  reviews with :mod:`.reviews`) and :mod:`.audience` (connections and presence writes).
- :mod:`.game` — a game in memory, rebuilt by replaying its stored history with the engine;
  :mod:`.data` — the plain values (game, seats, actions) it and the storage share.
- :mod:`.views` — the one function deciding what a seat holder or spectator sees.
- :mod:`.schema` — every table (SQLAlchemy models, one metadata); :mod:`.storage` — the
  games' repository; :mod:`.writer` — group commit of actions; :mod:`.migrations` — Alembic.
- :mod:`.broker` — "game changed" notices: in-process, or Redis pub/sub across processes.
- :mod:`.bot_pool` — bot decisions in worker processes; :mod:`.protocol` — typed messages;
  :mod:`.errors` — the error codes; :mod:`.settings` — settings and limits.
- :mod:`.hub` (websocket connections), :mod:`.routes` (the core's HTTP routes, one
  ``APIRouter`` per area), :mod:`.deps` (the runtime and what every route depends on) and
  :mod:`.app` (the app factory, lifespan, middleware, error handlers) — the transport;
  :mod:`.command` — ``quadropolis serve``.
- The features, above the core (which imports none of them; :mod:`.ports` says what it asks
  of those handed to it), each a folder with its rules, service, storage and routes:
  :mod:`.accounts`, :mod:`.ratings`, :mod:`.social` (the daily challenge, rematches, the
  table chat).

May import the standard library, the rules core, the public API of :mod:`quadropolis.bots`,
the shared option helpers :mod:`quadropolis.cli.options`, and the ``web`` extra (FastAPI,
Starlette, pydantic, uvicorn, SQLAlchemy, Alembic, psycopg, redis, platformdirs). Importing
this package needs only the standard library: it exposes :func:`add_serve_command`, and
the other modules are imported where they are used."""

from __future__ import annotations

from .command import add_serve_command, cmd_serve

__all__ = ["add_serve_command", "cmd_serve"]
