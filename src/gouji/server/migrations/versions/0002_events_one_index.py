"""Events keep one index: the unique (table_id, state) one, which also finds a table's events in order.

The index on ``table_events.table_id`` alone was a prefix of it: every stored event wrote both, and at a
group commit of events from many tables the second index's pages were a third of what SQLite wrote to its
log (``benchmarks/bench_server.py``).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_table_events_table_id", table_name="table_events")


def downgrade() -> None:
    op.create_index("ix_table_events_table_id", "table_events", ["table_id"])
