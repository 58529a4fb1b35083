"""The database migrations (Alembic): ``env.py`` and ``versions/``, run programmatically by
:func:`upgrade` when the server starts, so a database is created or upgraded without any setup.

To add a migration after changing the models in :mod:`quadropolis.server.storage`, write a
new file in ``versions/`` whose ``down_revision`` is the newest one (``alembic revision
--autogenerate`` with ``script_location`` pointing here drafts it); the test
``tests/server/test_storage.py::test_migrations_create_the_schema_of_the_models`` fails until models and
migrations agree."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

HERE = Path(__file__).resolve().parent


def config(engine: Engine | None = None) -> Config:
    """An Alembic configuration pointing at these migrations (no ``alembic.ini`` needed)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    if engine is not None:
        cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database behind ``engine`` to ``revision`` (default: the newest). On
    PostgreSQL several servers may start at once: the migration runs under an advisory lock
    (see ``env.py``), so only the first one migrates."""
    cfg = config(engine)
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)


def current(engine: Engine) -> str | None:
    """The revision the database is at (``None`` if it has no schema yet)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
