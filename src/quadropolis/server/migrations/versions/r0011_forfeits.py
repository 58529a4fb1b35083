"""Forfeits: ``seats.forfeited_at``, when a seat's player resigned or timed out (``NULL`` if
not). A game's result ranks its forfeits in this order, below the seats that played on; every
seat stored before this revision has none, so their results are unchanged.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("forfeited_at", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("forfeited_at")
