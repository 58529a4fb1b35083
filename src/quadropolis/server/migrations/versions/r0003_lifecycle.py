"""A game's life cycle: ``games.last_activity`` (when a person last did something in the
game: created it, joined, left, moved; expiry counts from it) and ``seats.host`` (the seat
was taken by the game's creator: its token may cancel the game while it waits).

Existing games keep every row: ``last_activity`` is their newest action's time, else their
creation time; ``host`` is true for the seats claimed when the game was created (their
``last_seen`` is still the creation time: players not seen since) and false for the others.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMNs (no table rebuild, which SQLite's foreign keys would refuse), filled in
    # just after; the placeholder default is never read.
    op.add_column(
        "games", sa.Column("last_activity", sa.Float(), server_default=sa.text("0"), nullable=False)
    )
    op.add_column("seats", sa.Column("host", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.execute(
        "UPDATE games SET last_activity = COALESCE("
        "(SELECT MAX(actions.created_at) FROM actions WHERE actions.game_id = games.id), created_at)"
    )
    op.execute(
        "UPDATE seats SET host = CASE WHEN token_hash IS NOT NULL AND last_seen = "
        "(SELECT games.created_at FROM games WHERE games.id = seats.game_id) THEN TRUE ELSE FALSE END"
    )
    op.create_index("ix_games_status_last_activity", "games", ["status", "last_activity"])


def downgrade() -> None:
    op.drop_index("ix_games_status_last_activity", "games")
    op.drop_column("games", "last_activity")
    op.drop_column("seats", "host")
