"""Storage: the SQLAlchemy 2 models (:mod:`.models`), the engine and migrations (:mod:`.engine`) and the
repository the server writes and reads through (:mod:`.store`), on SQLite or PostgreSQL alike."""

from __future__ import annotations

from .engine import (
    MIGRATION_LOCK,
    SQLITE_SYNCHRONOUS,
    StorageError,
    describe_url,
    dumps_json,
    make_engine,
    migrate,
    normalize_url,
)
from .models import (
    AccountRow,
    AccountSessionRow,
    AccountStatsRow,
    Base,
    EventRow,
    RecordPlayerRow,
    RecordRow,
    RecordSummaryRow,
    TableRow,
)
from .store import (
    EVENTS_PER_INSERT,
    KEEP_WRITING_CONNECTION,
    EventOp,
    Op,
    RecordBody,
    RecordOp,
    StatusOp,
    Store,
    StoredTable,
    open_store,
)

__all__ = [
    "EVENTS_PER_INSERT",
    "KEEP_WRITING_CONNECTION",
    "MIGRATION_LOCK",
    "SQLITE_SYNCHRONOUS",
    "AccountRow",
    "AccountSessionRow",
    "AccountStatsRow",
    "Base",
    "EventOp",
    "EventRow",
    "Op",
    "RecordBody",
    "RecordOp",
    "RecordPlayerRow",
    "RecordRow",
    "RecordSummaryRow",
    "StatusOp",
    "StorageError",
    "Store",
    "StoredTable",
    "TableRow",
    "describe_url",
    "dumps_json",
    "make_engine",
    "migrate",
    "normalize_url",
    "open_store",
]
