"""Storage: the SQLAlchemy 2 models (:mod:`.models`), the engine and migrations (:mod:`.engine`) and the
repository the server writes and reads through (:mod:`.store`), on SQLite or PostgreSQL alike; what a record
adds to its players' rows (:mod:`.results`); the database's writer, in a thread (:mod:`.durability`) or a
process of its own (:mod:`.writer_process`); reads off the writer (:mod:`.reads`); backups and restores
(:mod:`.backup`)."""

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
    BlockRow,
    EventRow,
    HallOnlineRow,
    HallTableRow,
    QuickplayRow,
    RatingHistoryRow,
    RatingRow,
    RecordPlayerRow,
    RecordRow,
    RecordSummaryRow,
    ReportRow,
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
    "BlockRow",
    "EventOp",
    "EventRow",
    "HallOnlineRow",
    "HallTableRow",
    "Op",
    "QuickplayRow",
    "RatingHistoryRow",
    "RatingRow",
    "RecordBody",
    "RecordOp",
    "RecordPlayerRow",
    "RecordRow",
    "RecordSummaryRow",
    "ReportRow",
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
