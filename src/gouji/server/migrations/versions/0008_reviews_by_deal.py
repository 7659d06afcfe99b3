"""The 复盘 reviews kept by the deal they review, ``deal:{stored table}:{deal}:{match's table}:{seat}``, not by
where they were asked (``record:{id}:{deal}:{table}:{seat}``, ``table:{id}:{deal}:{seat}``): a deal reviewed
at its table while the set is played is found again in the set's records once it is over
(:func:`gouji.server.review.stored.deal_key`).  The reviews kept under the old keys get the new ones; of two
kept for the same deal one stays, and one whose record or table is gone is dropped (a review is worked out
again when asked).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

REVIEWS = sa.table("reviews", sa.column("key", sa.String), sa.column("body", sa.JSON))
RECORDS = sa.table("records", sa.column("id", sa.Integer), sa.column("table_id", sa.Integer), sa.column("kind"))
TABLES = sa.table("tables", sa.column("id", sa.Integer), sa.column("code", sa.String), sa.column("config", sa.JSON))


def _number(text: str) -> int | None:
    return None if text == "None" else int(text)


def _new_key(conn: sa.Connection, old: str) -> tuple[str, int | None] | None:
    """The new key of a review kept under ``old`` and its match's table, or None when its record or table
    is gone."""
    parts = old.split(":")
    if parts[0] == "record" and len(parts) == 5:
        _, record_id, deal, table, seat = parts
        row = conn.execute(sa.select(RECORDS.c.table_id, RECORDS.c.kind).where(RECORDS.c.id == int(record_id))).first()
        if row is None:
            return None
        at = _number(table)
        if row[1] == "match":
            at = at or 0  # (the review read table 0 of a match's record asked without one)
        return f"deal:{row[0]}:{deal}:{at}:{seat}", at
    if parts[0] == "table" and len(parts) == 4:
        _, table_id, deal, seat = parts
        config = conn.execute(sa.select(TABLES.c.config).where(TABLES.c.id == int(table_id))).scalar_one_or_none()
        if isinstance(config, str):
            config = json.loads(config)
        if config is None:
            return None
        duplicate = config.get("duplicate") if isinstance(config, dict) else None
        if not isinstance(duplicate, dict):
            return f"deal:{table_id}:{deal}:None:{seat}", None
        hall = conn.execute(sa.select(TABLES.c.id).where(TABLES.c.code == str(duplicate["match"]))).scalar_one_or_none()
        if hall is None:
            return None
        at = int(duplicate["table"])
        return f"deal:{hall}:{deal}:{at}:{seat}", at
    return None


def upgrade() -> None:
    conn = op.get_bind()
    kept = conn.execute(sa.select(REVIEWS.c.key, REVIEWS.c.body).order_by(REVIEWS.c.key)).all()
    taken = {key for key, _ in kept if key.startswith("deal:")}
    for old, body in kept:
        if old.startswith("deal:"):
            continue
        found = _new_key(conn, old)
        if found is None or found[0] in taken:
            conn.execute(sa.delete(REVIEWS).where(REVIEWS.c.key == old))
            continue
        new, at = found
        review: dict[str, Any] = json.loads(body) if isinstance(body, str) else dict(body)
        if at is not None:
            review["table"] = at  # (a match's table asked at the table did not say it)
        conn.execute(sa.update(REVIEWS).where(REVIEWS.c.key == old).values(key=new, body=review))
        taken.add(new)


def downgrade() -> None:
    # the old keys named where a review was asked: a review kept by its deal is dropped (worked out again)
    op.execute(sa.delete(REVIEWS).where(REVIEWS.c.key.like("deal:%")))
