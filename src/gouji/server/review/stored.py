"""Finished reviews kept in the database (table ``reviews``, migration 0007), so that a restart does not work
one out again: read on a read thread, written by the database's writer (:meth:`.StoreWriter.call`)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..storage import Store
from ..storage.models import ReviewRow


def key_text(key: Hashable) -> str:
    """A review's key as the database keeps it: ``record:5:1:None:3``, ``table:17:0:2``."""
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


__all__ = ["key_text", "store_review", "stored_review"]
