"""Post-game reviews: the table ``reviews``, one row per reviewed finished game.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("iterations", sa.Integer(), nullable=False),
        sa.Column("review", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_reviews_game_id_games"),
        sa.PrimaryKeyConstraint("game_id", name="pk_reviews"),
    )


def downgrade() -> None:
    op.drop_table("reviews")
