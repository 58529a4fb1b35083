"""Alembic's environment: migrations always run on the connection handed over by
:func:`quadropolis.server.migrations.upgrade` (``config.attributes["connection"]``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from quadropolis.server.schema import Base

#: Arbitrary key of the PostgreSQL advisory lock serialising concurrent migrations.
MIGRATION_LOCK = 0x51_4D_49_47


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Held until the transaction ends: a second server starting at the same moment
            # waits here, then finds the schema current and does nothing.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through quadropolis.server.migrations.upgrade()")
run(connection)
