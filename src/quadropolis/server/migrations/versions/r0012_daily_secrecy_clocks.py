"""The daily challenge's practice games and clocks that an undo cannot restart.

- ``daily_entries.practice``: a guest's practice game of a day (the day's format, a deal of
  its own, never ranked) as opposed to a game of the day's deal; ``false`` for every entry
  stored before this revision (they played the day's deal).
- ``games.started_at``: when the game started (created full, or its last open seat taken).
  A turn's time counts from when the turn became the seat's; the first turn's from the
  start. ``NULL`` for games that started before this revision (``created_at`` stands in)
  and while a game waits for players.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("daily_entries") as batch:
        batch.add_column(sa.Column("practice", sa.Boolean(), server_default=sa.false(), nullable=False))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("started_at", sa.Float(), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35 or newer), not a batch copy: copying ``games``
    # drops the table its seats and actions refer to, which SQLite's foreign keys refuse.
    op.drop_column("games", "started_at")
    op.drop_column("daily_entries", "practice")
