"""The hall (issue 43): ratings and their history, the public tables and the shards' online counts, the quick
play queue, blocks and reports.

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

NOW = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("listed", sa.Boolean, nullable=False),
        sa.Column("updated_at", NOW, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["listed", "ordinal"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("table_id", sa.Integer, nullable=True),
        sa.Column("at", NOW, nullable=False),
    )
    op.create_index("ix_rating_history_account_id", "rating_history", ["account_id"])
    op.create_table(
        "hall_tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("updated_at", NOW, nullable=False),
    )
    op.create_index("ix_hall_tables_updated_at", "hall_tables", ["updated_at"])
    op.create_table(
        "hall_online",
        sa.Column("shard", sa.String(32), primary_key=True),
        sa.Column("online", sa.Integer, nullable=False),
        sa.Column("updated_at", NOW, nullable=False),
    )
    op.create_table(
        "quickplay",
        sa.Column("ticket_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("table_code", sa.String(16), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("shard", sa.String(32), nullable=False),
        sa.Column("created_at", NOW, nullable=False),
    )
    op.create_index("ix_quickplay_waiting", "quickplay", ["status", "preset", "created_at"])
    op.create_index("ix_quickplay_account_id", "quickplay", ["account_id"])
    op.create_table(
        "blocks",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("reported", sa.String(64), nullable=False),
        sa.Column("table_code", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(300), nullable=False),
        sa.Column("at", NOW, nullable=False),
    )


def downgrade() -> None:
    for name in ("reports", "blocks", "quickplay", "hall_online", "hall_tables", "rating_history", "ratings"):
        op.drop_table(name)
