"""Accounts: ``accounts``, ``account_sessions`` and ``account_seats`` (which
account holds which seat). Games created before it have no account seats: their seat tokens
keep working as before.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("username", sa.String(length=20), nullable=False),
        sa.Column("username_key", sa.String(length=20), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("username_key", name=op.f("uq_accounts_username_key")),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id_hash", sa.LargeBinary(length=32), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_sessions_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id_hash", name=op.f("pk_account_sessions")),
    )
    op.create_index(op.f("ix_account_sessions_account_id"), "account_sessions", ["account_id"])
    op.create_index(op.f("ix_account_sessions_expires_at"), "account_sessions", ["expires_at"])
    op.create_table(
        "account_seats",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_seats_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_account_seats_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_account_seats")),
    )
    op.create_index(op.f("ix_account_seats_account_id_game_id"), "account_seats", ["account_id", "game_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_account_seats_account_id_game_id"), table_name="account_seats")
    op.drop_table("account_seats")
    op.drop_index(op.f("ix_account_sessions_expires_at"), table_name="account_sessions")
    op.drop_index(op.f("ix_account_sessions_account_id"), table_name="account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
