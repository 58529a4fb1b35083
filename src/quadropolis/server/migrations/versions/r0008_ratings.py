"""Ratings and results: ``settled_games`` (which finished games had their results
kept and ratings updated), ``seat_results`` (each seat's place, score and VP by category),
``ratings`` (an account's or a bot level's rating per mode) and ``rating_changes`` (each
seat's rating before and after a rated game). Games finished before it are settled by the
server after the upgrade, oldest first (:mod:`quadropolis.server.ratings.service`).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _game_key(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f(f"fk_{table}_game_id_games"))


def upgrade() -> None:
    op.create_table(
        "settled_games",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("settled_at", sa.Float(), nullable=False),
        _game_key("settled_games"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_settled_games")),
    )
    op.create_table(
        "seat_results",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("breakdown", sa.JSON(), nullable=False),
        _game_key("seat_results"),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_seat_results")),
    )
    _ratings()
    _rating_changes()


def _ratings() -> None:
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("bot", sa.String(length=16), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_ratings_account_id_accounts"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ratings")),
        sa.UniqueConstraint("mode", "account_id", name=op.f("uq_ratings_mode_account_id")),
        sa.UniqueConstraint("mode", "bot", name=op.f("uq_ratings_mode_bot")),
    )
    op.create_index(op.f("ix_ratings_mode_ordinal"), "ratings", ["mode", "ordinal"])


def _rating_changes() -> None:
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("bot", sa.String(length=16), nullable=True),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_rating_changes_account_id_accounts"),
            ondelete="SET NULL",
        ),
        _game_key("rating_changes"),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_rating_changes")),
    )
    op.create_index(
        op.f("ix_rating_changes_account_id_mode_created_at"),
        "rating_changes",
        ["account_id", "mode", "created_at"],
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_rating_changes_account_id_mode_created_at"), table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index(op.f("ix_ratings_mode_ordinal"), table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("seat_results")
    op.drop_table("settled_games")
