"""Storing accepted actions in batches: the statements and parameters shared by
:meth:`.storage.Store.append_batch` (any backend, in a worker thread) and the PostgreSQL group
commit (:mod:`.postgres_commit`, one round trip on an asynchronous connection). An action at
a version already taken is skipped (the database's primary key decides), and its game's
columns change only if the action was stored."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from sqlalchemy import bindparam, update
from sqlalchemy.engine import Connection

from .data import OVER, ActionData, PendingAction
from .schema import ActionRow, GameRow


def insert_ignoring_conflicts(dialect: str) -> Any:
    """``INSERT INTO actions ... ON CONFLICT (game_id, version) DO NOTHING RETURNING game_id,
    version`` for the dialect (SQLite 3.35 or newer); executed with many rows, SQLAlchemy
    sends them in one statement ("insertmanyvalues") and returns the rows stored."""
    from sqlalchemy.dialects import postgresql, sqlite

    insert_for = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return (
        insert_for(ActionRow)
        .on_conflict_do_nothing(index_elements=["game_id", "version"])
        .returning(ActionRow.game_id, ActionRow.version)
    )


def game_changes(
    action: ActionData, result: dict[str, Any] | None, deadline: float | None, activity: float | None
) -> dict[str, Any]:
    """The columns of its game that storing ``action`` changes. ``activity``: the game's last
    activity after it, as the service reckons it (an undo sets it back: :mod:`.clocks`);
    ``None``: a person's action is activity, a bot's is not."""
    changes: dict[str, Any] = {}
    if activity is not None:
        changes["last_activity"] = activity
    elif action.actor == "player":
        changes["last_activity"] = action.created_at
    if deadline is not None:
        changes["deadline"] = deadline
    if result is not None:
        changes.update(status=OVER, result=result, finished_at=action.created_at, deadline=None)
    return changes


#: PostgreSQL: :meth:`.storage.Store.append_batch` as one statement, for batches with at most one
#: action per game (:func:`one_action_per_game`); parameters from :func:`append_parameters`.
#: Its data-modifying ``WITH`` clauses insert the actions (``unnest`` of one array per
#: column), skipping taken versions, and update each game whose action was stored and
#: changes it (a ``NULL`` change keeps the column, except that a finished game's deadline is
#: cleared); it returns the (game, version) pairs stored. The text never changes with the
#: batch, so it is prepared once per connection; in autocommit it is its own transaction:
#: one round trip to the database.
APPEND_STATEMENT: Final = """
WITH stored AS (
    INSERT INTO actions (game_id, version, seat, kind, move, undone, actor, created_at)
    SELECT * FROM unnest(
        %(game)s::varchar[], %(version)s::integer[], %(seat)s::integer[], %(kind)s::varchar[],
        %(move)s::varchar[], %(undone)s::integer[], %(actor)s::varchar[], %(created_at)s::float8[])
    ON CONFLICT (game_id, version) DO NOTHING
    RETURNING game_id, version
), changed AS (
    SELECT * FROM unnest(
        %(changed_game)s::varchar[], %(changed_version)s::integer[], %(last_activity)s::float8[],
        %(deadline)s::float8[], %(status)s::varchar[], %(result)s::text[], %(finished_at)s::float8[])
        AS c (game, version, last_activity, deadline, status, result, finished_at)
), updated AS (
    UPDATE games SET
        last_activity = coalesce(changed.last_activity, games.last_activity),
        deadline = CASE WHEN changed.status IS NULL THEN coalesce(changed.deadline, games.deadline) END,
        status = coalesce(changed.status, games.status),
        result = coalesce(changed.result::json, games.result),
        finished_at = coalesce(changed.finished_at, games.finished_at)
    FROM changed JOIN stored ON stored.game_id = changed.game AND stored.version = changed.version
    WHERE games.id = changed.game
)
SELECT game_id, version FROM stored
"""

#: The columns of ``games`` :data:`APPEND_STATEMENT` may change (those of :func:`game_changes`).
_CHANGED_COLUMNS: Final = ("last_activity", "deadline", "status", "result", "finished_at")


def append_parameters(
    items: Sequence[PendingAction],
) -> dict[str, list[Any]]:
    """The parameters of :data:`APPEND_STATEMENT` for ``items`` (one action per game)."""
    rows = [action_row(game_id, action) for game_id, action, *_ in items]
    parameters: dict[str, list[Any]] = {
        "game": [r["game_id"] for r in rows],
        **{c: [r[c] for r in rows] for c in ("version", "seat", "kind", "move", "undone", "actor")},
        "created_at": [r["created_at"] for r in rows],
    }
    changes = [(g, a.version, game_changes(a, r, d, t)) for g, a, r, d, t in items]
    changes = [c for c in changes if c[2]]
    parameters["changed_game"] = [game_id for game_id, _, _ in changes]
    parameters["changed_version"] = [version for _, version, _ in changes]
    for column_name in _CHANGED_COLUMNS:
        parameters[column_name] = [change.get(column_name) for _, _, change in changes]
    parameters["result"] = [None if r is None else json.dumps(r) for r in parameters["result"]]
    return parameters


def one_action_per_game(
    items: Sequence[PendingAction],
) -> list[list[PendingAction]]:
    """``items`` cut, in order, into runs holding at most one action per game (the service
    never puts two of a game in one batch: a game's actions are stored under its lock)."""
    runs: list[list[PendingAction]] = [[]]
    games: set[str] = set()
    for item in items:
        if item[0] in games:
            runs.append([])
            games.clear()
        runs[-1].append(item)
        games.add(item[0])
    return runs


def update_games(conn: Connection, changes: dict[str, dict[str, Any]]) -> None:
    """Apply each game's ``changes``: one UPDATE (executed for many games) per set of columns."""
    by_columns: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for game_id, values in changes.items():
        if values:
            by_columns.setdefault(tuple(sorted(values)), []).append({"game": game_id, **values})
    for columns, params in by_columns.items():
        statement = (
            update(GameRow).where(GameRow.id == bindparam("game")).values({c: bindparam(c) for c in columns})
        )
        conn.execute(statement, params)


def action_row(game_id: str, action: ActionData) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "version": action.version,
        "seat": action.seat,
        "kind": action.kind,
        "move": action.move,
        "undone": action.undone,
        "actor": action.actor,
        "created_at": action.created_at,
    }
