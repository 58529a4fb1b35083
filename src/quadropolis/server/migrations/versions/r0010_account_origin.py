"""Where an account comes from, and what its name looks like: ``accounts.signup_key`` (the
client key of the address that created it, which the sign-up quota counts on; indexed with
``created_at``) and ``accounts.username_skeleton`` (the confusable skeleton of the username,
unique, :mod:`quadropolis.server.accounts.names`).

Existing accounts get ``signup_key`` ``unknown:ID`` (equal to no other account's: nothing
is known of their addresses) and their skeleton; when two existing accounts share one (say
``alice`` and ``a1ice``), both are kept, and the newer one's skeleton stays ``NULL``: its name
is still refused to anyone new, through the older one's.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from quadropolis.server.accounts.names import SKELETON_MAX, skeleton

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("username_skeleton", sa.String(length=SKELETON_MAX), nullable=True))
        batch.add_column(sa.Column("signup_key", sa.String(length=64), nullable=True))
    _backfill()
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("signup_key", existing_type=sa.String(length=64), nullable=False)
        batch.create_unique_constraint(op.f("uq_accounts_username_skeleton"), ["username_skeleton"])
    op.create_index(op.f("ix_accounts_signup_key_created_at"), "accounts", ["signup_key", "created_at"])


def _backfill() -> None:
    accounts = sa.table(
        "accounts",
        sa.column("id", sa.Integer()),
        sa.column("username", sa.String()),
        sa.column("username_skeleton", sa.String()),
        sa.column("signup_key", sa.String()),
    )
    conn = op.get_bind()
    seen: set[str] = set()
    for account_id, username in conn.execute(
        sa.select(accounts.c.id, accounts.c.username).order_by(accounts.c.id)
    ).all():
        shape = skeleton(username)
        kept = None if shape in seen else shape  # the older account keeps a shared skeleton
        seen.add(shape)
        conn.execute(
            accounts.update()
            .where(accounts.c.id == account_id)
            .values(username_skeleton=kept, signup_key=f"unknown:{account_id}")
        )


def downgrade() -> None:
    op.drop_index(op.f("ix_accounts_signup_key_created_at"), table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint(op.f("uq_accounts_username_skeleton"), type_="unique")
        batch.drop_column("signup_key")
        batch.drop_column("username_skeleton")
