"""The first schema: tables, their events, records and the players of records.

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
        "tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("owner_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tables_code", "tables", ["code"], unique=True)
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "table_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("state", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "state", name="uq_table_events_state"),
    )
    op.create_index("ix_table_events_table_id", "table_events", ["table_id"])
    op.create_table(
        "records",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("deal_index", sa.Integer, nullable=True),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("body", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_records_table_id", "records", ["table_id"])
    op.create_table(
        "record_players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("record_id", sa.Integer, sa.ForeignKey("records.id"), nullable=False),
        sa.Column("nickname", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False),
    )
    op.create_index("ix_record_players_record_id", "record_players", ["record_id"])
    op.create_index("ix_record_players_nickname", "record_players", ["nickname"])


def downgrade() -> None:
    op.drop_table("record_players")
    op.drop_table("records")
    op.drop_table("table_events")
    op.drop_table("tables")
