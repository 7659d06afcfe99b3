"""A narrow table of the records' summaries (``record_summaries``: table, kind, deal, players, totals, time),
so a list of games reads no record's body; filled for the records stored before it, a batch at a time.

(SQLite stores a record's body in its row: reading any column after it — its time — walks every page of the
body; a list of 40 large records took 110-270 ms there.)

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

BATCH = 200


def upgrade() -> None:
    op.create_table(
        "record_summaries",
        sa.Column("record_id", sa.Integer, sa.ForeignKey("records.id"), primary_key=True),
        sa.Column("table_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("deal_index", sa.Integer, nullable=True),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("totals", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_record_summaries_table_id", "record_summaries", ["table_id"])
    records = sa.table(
        "records",
        sa.column("id", sa.Integer),
        sa.column("table_id", sa.Integer),
        sa.column("kind", sa.String),
        sa.column("deal_index", sa.Integer),
        sa.column("players", sa.JSON),
        sa.column("body", sa.JSON),
        sa.column("created_at", sa.DateTime(timezone=True)),
    )
    summaries = sa.table(
        "record_summaries",
        sa.column("record_id", sa.Integer),
        sa.column("table_id", sa.Integer),
        sa.column("kind", sa.String),
        sa.column("deal_index", sa.Integer),
        sa.column("players", sa.JSON),
        sa.column("totals", sa.JSON),
        sa.column("created_at", sa.DateTime(timezone=True)),
    )
    conn = op.get_bind()
    last = 0
    while True:
        rows = (
            conn.execute(sa.select(records).where(records.c.id > last).order_by(records.c.id).limit(BATCH))
            .mappings()
            .all()
        )
        if not rows:
            return
        conn.execute(
            sa.insert(summaries),
            [
                {
                    "record_id": r["id"],
                    "table_id": r["table_id"],
                    "kind": r["kind"],
                    "deal_index": r["deal_index"],
                    "players": r["players"],
                    "totals": _totals(r["body"]),
                    "created_at": r["created_at"],
                }
                for r in rows
            ],
        )
        last = rows[-1]["id"]


def _totals(body: Any) -> Any:
    if isinstance(body, str | bytes):  # (a driver that hands JSON back as text)
        body = json.loads(body)
    return body.get("totals") if isinstance(body, dict) else None


def downgrade() -> None:
    op.drop_table("record_summaries")
