"""The initial schema: games, seats and the append-only actions history.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("takeover_after", sa.Float(), nullable=True),
        sa.Column("takeover_level", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_index("ix_games_status_public_created_at", "games", ["status", "public", "created_at"])
    op.create_index("ix_games_creator_status", "games", ["creator", "status"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.LargeBinary(32), nullable=True),
        sa.Column("last_seen", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_seats_game_id_games"),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_seats"),
    )
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("move", sa.String(16), nullable=True),
        sa.Column("undone", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_actions_game_id_games"),
        # The primary key is the UNIQUE (game_id, version) that makes a move impossible to
        # store twice, whatever the number of server processes.
        sa.PrimaryKeyConstraint("game_id", "version", name="pk_actions"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("ix_games_creator_status", table_name="games")
    op.drop_index("ix_games_status_public_created_at", table_name="games")
    op.drop_table("games")
