"""Clocks: a game's time per move and the durable deadline of the move
being played. ``games.move_seconds`` is ``NULL`` for a game without a clock (every game
created before this revision), so existing games keep playing exactly as before;
``games.deadline`` is when the current move's time runs out (``NULL`` without a clock or
when no move is due). The index lets every server process find the next deadline at once.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("move_seconds", sa.Float(), nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float(), nullable=True))
    op.create_index(op.f("ix_games_status_deadline"), "games", ["status", "deadline"])


def downgrade() -> None:
    op.drop_index(op.f("ix_games_status_deadline"), table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deadline")
        batch.drop_column("move_seconds")
