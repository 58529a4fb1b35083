"""The daily challenge, rematches and table chat:
``daily_challenges``, ``daily_entries``, ``rematches`` and ``chat_lines``. Existing games are
untouched: none is a daily game or a rematch, and none has chat lines yet.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_challenges",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("levels", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("day", name=op.f("pk_daily_challenges")),
    )
    op.create_table(
        "daily_entries",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_daily_entries_account_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["day"], ["daily_challenges.day"], name=op.f("fk_daily_entries_day_daily_challenges")
        ),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_daily_entries_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_daily_entries")),
        sa.UniqueConstraint("day", "account_id", name=op.f("uq_daily_entries_day_account_id")),
        sa.UniqueConstraint("game_id", name=op.f("uq_daily_entries_game_id")),
    )
    op.create_index(op.f("ix_daily_entries_day"), "daily_entries", ["day"])
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("rematch_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_rematches_game_id_games")),
        sa.ForeignKeyConstraint(["rematch_id"], ["games.id"], name=op.f("fk_rematches_rematch_id_games")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_rematches")),
        sa.UniqueConstraint("rematch_id", name=op.f("uq_rematches_rematch_id")),
    )
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("text", sa.String(length=200), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_chat_lines_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_lines")),
    )
    op.create_index(op.f("ix_chat_lines_game_id_id"), "chat_lines", ["game_id", "id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_chat_lines_game_id_id"), table_name="chat_lines")
    op.drop_table("chat_lines")
    op.drop_table("rematches")
    op.drop_index(op.f("ix_daily_entries_day"), table_name="daily_entries")
    op.drop_table("daily_entries")
    op.drop_table("daily_challenges")
