"""Finished reviews kept in the database (table ``reviews``, migrations 0007 and 0008), so that a restart does
not work one out again: read on a read thread, written by the database's writer (:meth:`.StoreWriter.call`)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..storage import Store
from ..storage.models import ReviewRow


def deal_key(table_id: int, deal: int, table: int | None, seat: int) -> tuple[str, int, int, int | None, int]:
    """A review's key: the deal it reviews, wherever it is asked — the stored table whose records hold the deal
    (a set's table, or a duplicate match's), the deal's number (from 0), the match's table (None for a set) and
    the seat.  So a deal reviewed at its table while the set is played is the review of each of the table's
    records that holds the deal (the deal's own and the whole set's) once the set is over: worked out once."""
    return ("deal", table_id, deal, table, seat)


def key_text(key: Hashable) -> str:
    """A review's key as the database keeps it: ``deal:17:1:None:3`` (:func:`deal_key`)."""
    parts = key if isinstance(key, tuple) else (key,)
    return ":".join(str(p) for p in parts)


def stored_review(store: Store, key: str) -> dict[str, Any] | None:
    """The review kept under ``key``, or None."""
    with store.sessions() as s:
        body = s.execute(select(ReviewRow.body).where(ReviewRow.key == key)).scalar_one_or_none()
        return dict(body) if body is not None else None


def store_review(store: Store, key: str, review: dict[str, Any]) -> None:
    """Keep ``review`` under ``key`` (one already kept there, by another server on the same database, stays)."""
    try:
        with store.sessions.begin() as s:
            if s.get(ReviewRow, key) is None:
                s.add(ReviewRow(key=key, body=review))
    except IntegrityError:  # (kept meanwhile by another server)
        pass


__all__ = ["deal_key", "key_text", "store_review", "stored_review"]
