"""Storage: a repository over the models (:mod:`.models`), on SQLite or PostgreSQL alike.

What is stored, all append-only but for a table's status:

- ``tables``: one row per table — its join code, its configuration (rules, seed, set length, timers, which
  seats are bots), the hash of its creator's token, its status (``open``, ``over``, ``closed``);
- ``table_events``: every change of a table, in order, numbered by the table's state number — seats taken
  and left (with the hash of the seat token, never the token), auto-play switched, actions taken (with
  whether auto-play took them).  Replaying them on ``Match(rules, seed, set_length)`` restores a table in
  progress after a restart;
- ``records``: every finished deal (the set's record up to and including that deal) and every finished set,
  as the record documents of :mod:`gouji.match`, with the nicknames at the seats when it was stored;
- ``record_players``: which nickname played which seat of which record, to list a player's games.

:class:`Store` is synchronous; the server runs it on one writer of its own — a process (:mod:`.writer_process`)
or a thread (:mod:`.durability`) — so writes keep the order in which the game made them and the event loop
never waits on the database.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import orjson
from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import ArgumentError, DBAPIError, InterfaceError, NoSuchModuleError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from .engine import StorageError, describe_url, dumps_json, make_engine, migrate, normalize_url
from .models import EventRow, RecordPlayerRow, RecordRow, RecordSummaryRow, TableRow, _now
from .results import add_stats

EVENTS_PER_INSERT = 100
"""Rows per multi-row insert of events (6 parameters a row: well inside SQLite's oldest limit of 999)."""

KEEP_WRITING_CONNECTION = 10.0
"""Seconds a group of events alone goes on being written on the driver connection of the group before it
(:meth:`Store._write_events`); a group after a longer pause takes one from the pool, which checks it first."""


@dataclass
class StoredTable:
    """A table as loaded at startup: its row's data and its events in order."""

    id: int
    code: str
    config: dict[str, Any]
    owner_hash: str
    status: str
    events: list[dict[str, Any]]
    last_change: dt.datetime | None = None
    """When its last event (or, with none, the table) was stored."""
    records: frozenset[tuple[str, int | None]] = frozenset()
    """The ``(kind, deal index)`` of the records stored for it."""
    creator: str | None = None
    """Who created it (:attr:`TableRow.creator`)."""


class EventOp(NamedTuple):
    """A write of a commit: one event of a table."""

    table_id: int
    state: int
    kind: str
    seat: int | None
    data: dict[str, Any]


RecordBody = dict[str, Any] | bytes
"""A record document, or its JSON text (UTF-8): the tables send the text, which the writer parses."""


class RecordOp(NamedTuple):
    """A write of a commit: a finished deal's or set's record, with who sat where."""

    table_id: int
    kind: str
    deal_index: int | None
    players: list[dict[str, Any]]
    body: RecordBody


class StatusOp(NamedTuple):
    """A write of a commit: a table's new status (``over``, ``closed``)."""

    table_id: int
    status: str


Op = EventOp | RecordOp | StatusOp
"""One write of a group commit (:meth:`Store.write_batch`)."""


def open_store(url: str) -> Store:
    """A :class:`Store` on ``url`` with its schema up to date; :class:`StorageError` if the URL is not a
    database URL, its driver is missing, or the database cannot be reached or migrated."""
    shown = describe_url(url)
    try:
        store = Store(url)
    except NoSuchModuleError:
        raise StorageError(
            f"{shown} is not a database this server knows: use sqlite:///FILE or postgresql://USER@HOST/DB"
        ) from None
    except ArgumentError as e:
        raise StorageError(
            f"{shown} is not a database URL ({e}): use sqlite:///FILE or postgresql://USER@HOST/DB"
        ) from None
    except ImportError as e:
        raise StorageError(f"the driver for {shown} is not installed: {e}") from None
    try:
        store.migrate()
    except (OperationalError, InterfaceError) as e:
        store.close()
        reason = str(e.orig).strip().splitlines()[0] if e.orig is not None else str(e)
        raise StorageError(f"cannot reach the database {shown}: {reason}") from None
    except DBAPIError as e:
        store.close()
        raise StorageError(f"cannot set up the database {shown}: {str(e.orig).strip()}") from None
    return store


def _aware(at: dt.datetime | None) -> dt.datetime | None:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return at if at is None or at.tzinfo is not None else at.replace(tzinfo=dt.UTC)


class Store:
    """The repository: every query the server makes, synchronous."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.engine = make_engine(self.url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        dialect = self.engine.dialect
        if dialect.paramstyle not in ("qmark", "format", "pyformat"):  # pragma: no cover - SQLite and psycopg
            raise ValueError(f"unsupported database driver parameter style {dialect.paramstyle!r}")
        self._mark = "?" if dialect.paramstyle == "qmark" else "%s"
        self._sqlite = dialect.name == "sqlite"
        columns = EventRow.__table__.c
        # SQLite's JSON type serialises in Python; psycopg's leaves it to the driver, which takes a JSON text too
        self._bind_data = columns.data.type.bind_processor(dialect) or dumps_json
        self._bind_at = columns.at.type.bind_processor(dialect)
        self._event_sql: dict[int, str] = {}
        self._writing: Any = None
        """The pool's connection the last group of events alone was written on, kept for the next one."""
        self._written_at = 0.0
        """When that group was written (``time.monotonic``)."""

    def migrate(self) -> None:
        """Run the migrations (idempotent)."""
        migrate(self.engine)

    def close(self) -> None:
        """Release the connections."""
        writing, self._writing = self._writing, None
        if writing is not None:
            writing.close()
        self.engine.dispose()

    # ---------------------------------------------------------------------------------- tables

    def create_table(self, code: str, config: dict[str, Any], owner_hash: str, creator: str | None = None) -> int:
        """Store a new table (``creator``: who created it, :attr:`TableRow.creator`); returns its id."""
        with self.sessions.begin() as s:
            row = TableRow(code=code, config=config, owner_hash=owner_hash, status="open", creator=creator)
            s.add(row)
            s.flush()
            return row.id

    def code_taken(self, code: str) -> bool:
        """Whether a table (of any status) already has this join code."""
        with self.sessions() as s:
            return s.scalar(select(TableRow.id).where(TableRow.code == code)) is not None

    def set_status(self, table_id: int, status: str) -> None:
        """Mark a table ``over`` or ``closed``."""
        self.write_batch([StatusOp(table_id, status)])

    def table_info(self, code: str) -> dict[str, Any] | None:
        """A stored table's public data (for a table no longer in memory), or None."""
        with self.sessions() as s:
            row = s.scalar(select(TableRow).where(TableRow.code == code))
            if row is None:
                return None
            return {"code": row.code, "status": row.status, "config": row.config, "id": row.id}

    def open_tables(self, first: str | None = None) -> list[StoredTable]:
        """Every open table with its events in order, to restore; only codes starting with one of ``first``."""
        with self.sessions() as s:
            query = select(TableRow).where(TableRow.status == "open")
            if first is not None:
                query = query.where(func.substr(TableRow.code, 1, 1).in_(list(first)))
            rows = s.scalars(query.order_by(TableRow.id)).all()
            return [self._stored(s, row) for row in rows]

    def stored_table(self, code: str) -> StoredTable | None:
        """One table of any status with its events in order (a finished table of a match still in progress)."""
        with self.sessions() as s:
            row = s.scalar(select(TableRow).where(TableRow.code == code))
            return None if row is None else self._stored(s, row)

    @staticmethod
    def _stored(s: Session, row: TableRow) -> StoredTable:
        evs = s.scalars(select(EventRow).where(EventRow.table_id == row.id).order_by(EventRow.state)).all()
        kept = s.execute(select(RecordRow.kind, RecordRow.deal_index).where(RecordRow.table_id == row.id))
        return StoredTable(
            id=row.id,
            code=row.code,
            config=row.config,
            owner_hash=row.owner_hash,
            status=row.status,
            events=[{"state": e.state, "kind": e.kind, "seat": e.seat, "data": e.data} for e in evs],
            last_change=_aware(evs[-1].at if evs else row.created_at),
            records=frozenset((k, i) for k, i in kept),
            creator=row.creator,
        )

    # ---------------------------------------------------------------------------------- writes

    def write_batch(self, ops: Sequence[Op]) -> None:
        """Store the writes of a group of commits in one transaction: events, records and statuses."""
        if not ops:
            return
        events = [op for op in ops if isinstance(op, EventOp)]
        if len(events) == len(ops):
            self._write_events(events)
            return
        with self.sessions.begin() as s:
            if events:
                self._insert_events(s.connection(), events)
            for op in ops:
                if isinstance(op, RecordOp):
                    self._add_record(s, op)
                elif isinstance(op, StatusOp):
                    s.execute(update(TableRow).where(TableRow.id == op.table_id).values(status=op.status))

    def append_events(self, batch: Sequence[tuple[int, int, str, int | None, dict[str, Any]]]) -> None:
        """Append ``(table_id, state, kind, seat, data)`` events in one transaction."""
        self.write_batch([EventOp(*e) for e in batch])

    def _write_events(self, batch: Sequence[EventOp]) -> None:
        """A group of events alone (most groups: records and statuses come with a deal's end) in one
        transaction on the driver's connection itself: the same statements as :meth:`_insert_events`, without
        the session's and the engine's bookkeeping, which held the interpreter lock for longer than the
        statements.

        The connection is kept for the next group that comes within :data:`KEEP_WRITING_CONNECTION` seconds
        (on a busy server, all of them): a connection taken from the pool is checked first, which on
        PostgreSQL is a round trip to the server (94 µs of the writer's time a group, here) before every
        acknowledgement.  A connection whose transaction failed is discarded, so the next try takes a checked
        one from the pool (a kept connection the database dropped costs one failed try, which the writer
        retries); so is one kept over a longer pause, which a database or a proxy may have closed as idle."""
        now = time.monotonic()
        dbapi, self._writing = self._writing, None  # (kept again once its transaction has committed)
        if dbapi is not None and now - self._written_at > KEEP_WRITING_CONNECTION:
            dbapi.close()
            dbapi = None
        if dbapi is None:
            dbapi = self.engine.raw_connection()
        sql: str | None = None
        try:
            cur = dbapi.cursor()
            try:
                for sql, params in self._event_statements(batch):
                    cur.execute(sql, params)
            finally:
                cur.close()
            dbapi.commit()
        except BaseException as e:
            dbapi.invalidate()
            dbapi.close()
            base = self.engine.dialect.loaded_dbapi.Error
            if isinstance(e, base):  # the driver's error as SQLAlchemy's (IntegrityError, OperationalError, …)
                raise DBAPIError.instance(sql, None, e, base, hide_parameters=True, dialect=self.engine.dialect) from e
            raise
        self._writing, self._written_at = dbapi, now

    def _event_statements(self, batch: Sequence[EventOp]) -> list[tuple[str, tuple[Any, ...]]]:
        at: Any = self._bind_at(_now()) if self._bind_at is not None else _now()
        if self._sqlite and isinstance(at, dt.datetime):
            at = at.isoformat(" ")  # what the sqlite3 module's adapter writes, once a group rather than a row
        bind_data = self._bind_data
        params: list[Any] = []
        for t, n, k, seat, d in batch:
            params += (t, n, k, seat, bind_data(d), at)
        out = []
        for i in range(0, len(batch), EVENTS_PER_INSERT):
            rows = min(EVENTS_PER_INSERT, len(batch) - i)
            out.append((self._events_insert(rows), tuple(params[6 * i : 6 * (i + rows)])))
        return out

    def _insert_events(self, conn: Connection, batch: Sequence[EventOp]) -> None:
        """Insert events (in the caller's transaction).

        The rows go in as multi-row ``INSERT … VALUES (…), (…)`` statements (prepared once per row count,
        the values put through the dialect's bind processors for the columns) rather than ``executemany``:
        SQLite's driver lets go of the interpreter lock for every row it steps, and on a busy server each row
        then waits for its turn to take the lock back — the writer fell tens of thousands of events behind
        under load (``benchmarks/bench_server.py`` reports how many are not yet written)."""
        for sql, params in self._event_statements(batch):
            conn.exec_driver_sql(sql, params)

    def _events_insert(self, rows: int) -> str:
        sql = self._event_sql.get(rows)
        if sql is None:
            one = "(" + ", ".join([self._mark] * 6) + ")"
            sql = self._event_sql[rows] = (
                f"INSERT INTO {EventRow.__tablename__} (table_id, state, kind, seat, data, at) VALUES "
                + ", ".join([one] * rows)
            )
        return sql

    # ---------------------------------------------------------------------------------- records

    def add_record(
        self, table_id: int, kind: str, deal_index: int | None, players: list[dict[str, Any]], body: RecordBody
    ) -> int:
        """Store a record with who sat where; returns its id."""
        with self.sessions.begin() as s:
            return self._add_record(s, RecordOp(table_id, kind, deal_index, players, body))

    def _add_record(self, s: Session, op: RecordOp) -> int:
        body = orjson.loads(op.body) if isinstance(op.body, bytes) else op.body
        at = _now()
        row = RecordRow(
            table_id=op.table_id, kind=op.kind, deal_index=op.deal_index, players=op.players, body=body, created_at=at
        )
        s.add(row)
        s.flush()
        s.add(
            RecordSummaryRow(
                record_id=row.id,
                table_id=op.table_id,
                kind=op.kind,
                deal_index=op.deal_index,
                players=op.players,
                totals=body.get("totals"),
                created_at=at,
            )
        )
        for p in op.players:
            if p.get("nickname"):
                s.add(RecordPlayerRow(record_id=row.id, nickname=p["nickname"], seat=p["seat"], bot=False))
        if any(p.get("account") for p in op.players):
            add_stats(
                s, op.deal_index, op.players, body, op.table_id
            )  # in the record's own transaction: once, or not at all
        return row.id

    def record(self, record_id: int) -> dict[str, Any] | None:
        """A stored record document, or None."""
        with self.sessions() as s:
            row = s.get(RecordRow, record_id)
            return None if row is None else row.body

    def record_with_status(self, record_id: int) -> tuple[dict[str, Any], str] | None:
        """A stored record document and the status of its table, or None."""
        with self.sessions() as s:
            row = s.execute(
                select(RecordRow.body, TableRow.status)
                .join(TableRow, TableRow.id == RecordRow.table_id)
                .where(RecordRow.id == record_id)
            ).first()
            return None if row is None else (row[0], row[1])

    _SUMMARY = (
        RecordSummaryRow.record_id,
        TableRow.code,
        RecordSummaryRow.kind,
        RecordSummaryRow.deal_index,
        RecordSummaryRow.players,
        RecordSummaryRow.totals,
        RecordSummaryRow.created_at,
        TableRow.status,
    )
    """What a list of games shows of a record: its summary columns, never its body."""

    @staticmethod
    def _summaries(rows: Sequence[Any], name_open_tables: bool = True) -> list[dict[str, Any]]:
        """``name_open_tables=False``: a table still open is not named (its code would seat a stranger who
        found a player's games; it is named once its set is over)."""
        return [
            {
                "id": r[0],
                "table": r[1] if name_open_tables or r[7] != "open" else None,
                "kind": r[2],
                "deal": r[3],
                "players": r[4],
                "totals": r[5],
                "created_at": r[6].isoformat() if r[6] else None,
            }
            for r in rows
        ]

    def table_games(self, code: str) -> list[dict[str, Any]] | None:
        """The records stored for a table, oldest first; None when there is no such table."""
        with self.sessions() as s:
            table_id = s.scalar(select(TableRow.id).where(TableRow.code == code))
            if table_id is None:
                return None
            rows = s.execute(
                select(*self._SUMMARY)
                .join(TableRow, TableRow.id == RecordSummaryRow.table_id)
                .where(RecordSummaryRow.table_id == table_id)
                .order_by(RecordSummaryRow.record_id)
            ).all()
            return self._summaries(rows)

    def player_games(self, nickname: str, limit: int = 200) -> list[dict[str, Any]]:
        """The records a nickname played in, newest first."""
        with self.sessions() as s:
            ids = select(RecordPlayerRow.record_id).where(RecordPlayerRow.nickname == nickname)
            rows = s.execute(
                select(*self._SUMMARY)
                .join(TableRow, TableRow.id == RecordSummaryRow.table_id)
                .where(RecordSummaryRow.record_id.in_(ids))
                .order_by(RecordSummaryRow.record_id.desc())
                .limit(limit)
            ).all()
            return self._summaries(rows, name_open_tables=False)
