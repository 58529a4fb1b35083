"""Who holds a seat is one fact, stored with the seat: ``seats.account_id`` (the account of the
seat's player, ``NULL`` for a guest or an open seat) replaces the ``account_seats`` table,
whose rows it takes over. Join, leave, resign and account linking then change the seat's
token and account in one update; a separate table could be forgotten (a leaver kept their
link, and the next account to take the seat collided with it).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
    op.create_index(op.f("ix_seats_account_id_game_id"), "seats", ["account_id", "game_id"])
    # A link left behind on a seat that is open again (its player left a waiting game) is
    # the fault this revision removes: it is not carried over.
    op.execute(
        "UPDATE seats SET account_id = (SELECT a.account_id FROM account_seats a"
        " WHERE a.game_id = seats.game_id AND a.seat = seats.seat)"
        " WHERE NOT (seats.kind = 'human' AND seats.token_hash IS NULL"
        " AND seats.game_id IN (SELECT g.id FROM games g WHERE g.status = 'waiting'))"
    )
    op.drop_index(op.f("ix_account_seats_account_id_game_id"), table_name="account_seats")
    op.drop_table("account_seats")


def downgrade() -> None:
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
    op.execute(
        "INSERT INTO account_seats (game_id, seat, account_id)"
        " SELECT game_id, seat, account_id FROM seats WHERE account_id IS NOT NULL"
    )
    op.drop_index(op.f("ix_seats_account_id_game_id"), table_name="seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
