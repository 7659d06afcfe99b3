"""Backups of a server's database, taken while it plays, and their restore (``gouji backup``, ``gouji restore``).

A backup is a consistent copy: the database as one transaction saw it, at one moment, while the server goes
on storing moves.

- **SQLite**: the library's online backup (:meth:`sqlite3.Connection.backup`) copies every page in one step,
  inside one read transaction; in WAL mode (the server's) a reader never blocks the writer, so play goes on.
  The copy is an ordinary SQLite file (its journal mode set back to ``DELETE``), written beside the target
  and renamed over it once complete and checked (``PRAGMA quick_check``).  Either kind of backup file is
  readable by its owner only, and so is a restored SQLite file (:mod:`.private`).
- **PostgreSQL**: ``pg_dump --format=custom``, which reads the whole database in one snapshot (a repeatable
  read transaction) without locking out any write.  The password, if the URL has one, goes to it in
  ``PGPASSWORD``, never on its command line.

A restore goes into an **empty** database only (no tables at all: a new SQLite file, or a database just
made with ``createdb``): a backup merged into live data would mix two histories.  A backup of SQLite restores
into SQLite and one of PostgreSQL into PostgreSQL (``pg_restore`` in one transaction); the file's first bytes
say which it is.  The restored database is then brought up to date with the migrations, as a server's start
would, and a server started on it serves every record the backup holds and resumes every open table at the
last change the backup saw.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from ..private import owner_only_database
from . import StorageError, describe_url, make_engine, normalize_url, open_store

SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file."""

PGDUMP_MAGIC = b"PGDMP"
"""The first bytes of an archive of ``pg_dump --format=custom``."""

GOUJI_TABLES = ("alembic_version", "tables", "table_events", "records")
"""Tables every gouji database has (a backup without them is not a gouji server's)."""


class BackupError(RuntimeError):
    """A backup or a restore cannot be made: the message says which and why (no password in it)."""


@dataclass(frozen=True)
class BackupInfo:
    """What :func:`backup` wrote."""

    kind: str
    """``sqlite`` or ``postgresql``."""
    path: Path
    size: int
    """Bytes of the backup file."""
    seconds: float


@dataclass(frozen=True)
class Contents:
    """What a gouji database holds, in counts."""

    tables: int
    open_tables: int
    events: int
    records: int


def _url(url: str) -> URL:
    try:
        return make_url(normalize_url(url))
    except ArgumentError as e:
        raise BackupError(
            f"{url!r} is not a database URL ({e}): use sqlite:///FILE or postgresql://USER@HOST/DB"
        ) from None


def _kind(url: URL) -> str:
    backend = url.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise BackupError(
            f"{describe_url(str(url))} is not a database this server knows: use sqlite:///FILE or "
            "postgresql://USER@HOST/DB"
        )
    return backend


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
        raise BackupError(f"{describe_url(str(url))} names no SQLite file: use sqlite:///FILE")
    return Path(url.database)


def _sqlite_connect(path: Path) -> sqlite3.Connection:
    # a busy timeout as the server's own connections have: a read waits out a checkpoint's moment of lock
    return sqlite3.connect(path, timeout=30)


def _sqlite_tables(conn: sqlite3.Connection, name: Path, unreadable: str, gouji: str | None = None) -> list[str]:
    """The tables of the SQLite file ``name`` open on ``conn``.  A :class:`BackupError` when the file is no
    SQLite database (``"{name} {unreadable}: {why}"``), or when ``gouji`` is given and a table of a gouji
    server's database is missing (``"{name} {gouji} (it has no …)"``)."""
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{name} {unreadable}: {e}") from None
    tables = [str(r[0]) for r in rows]
    missing = [t for t in GOUJI_TABLES if t not in tables]
    if gouji is not None and missing:
        raise BackupError(f"{name} {gouji} (it has no {', '.join(missing)})")
    return tables


def _pg_program(name: str) -> str:
    """The path of ``pg_dump`` or ``pg_restore``: on the PATH, else the newest of Debian's versioned ones."""
    found = shutil.which(name)
    if found is None:
        versioned = sorted(
            Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
            key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0,
        )
        if versioned:
            found = str(versioned[-1])
    if found is None:
        raise BackupError(
            f"{name} is not installed: it comes with PostgreSQL's client (apt-get install postgresql-client)"
        )
    return found


def _pg_conninfo(url: URL) -> tuple[str, dict[str, str]]:
    """libpq's connection string for ``url`` (its host, port, user, database and query parameters) and the
    environment that carries its password (``PGPASSWORD``), so the password is never on a command line."""
    from psycopg.conninfo import make_conninfo

    params: dict[str, Any] = {}
    if url.host:
        params["host"] = url.host
    if url.port:
        params["port"] = url.port
    if url.username:
        params["user"] = url.username
    if url.database:
        params["dbname"] = url.database
    for key, value in url.query.items():
        params[key] = value[-1] if isinstance(value, tuple) else value
    env = dict(os.environ)
    if url.password is not None:
        env["PGPASSWORD"] = str(url.password)
    return make_conninfo(**params), env


def _run(cmd: list[str], env: dict[str, str], what: str) -> None:
    try:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    except OSError as e:
        raise BackupError(f"{what}: cannot run {cmd[0]}: {e}") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        raise BackupError(
            f"{what}: {Path(cmd[0]).name} failed: " + (" / ".join(lines[:5]) or f"status {done.returncode}")
        )


# ------------------------------------------------------------------------------------------------ backup


def backup(url: str, to: Path) -> BackupInfo:
    """Copy the database at ``url`` (a server may be playing on it) to the file ``to``, consistently; the
    file is replaced only once the new copy is complete.  :class:`BackupError` says why not."""
    parsed = _url(url)
    kind = _kind(parsed)
    to = Path(to)
    if to.is_dir():
        raise BackupError(f"{to} is a directory: --to names the backup file")
    if not to.parent.is_dir():
        raise BackupError(f"{to.parent} is no directory: cannot write {to}")
    partial = to.with_name(f".{to.name}.partial-{os.getpid()}")
    start = time.perf_counter()
    try:
        # readable by its owner only: it holds who played what, and the hashes of the seat tokens
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
        if kind == "sqlite":
            _backup_sqlite(_sqlite_path(parsed), partial)
        else:
            _backup_postgresql(parsed, partial)
        os.replace(partial, to)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return BackupInfo(kind, to, to.stat().st_size, time.perf_counter() - start)


def _backup_sqlite(source: Path, partial: Path) -> None:
    if not source.is_file():
        raise BackupError(f"no database at {source}: there is nothing to back up")
    with contextlib.closing(_sqlite_connect(source)) as src:
        _sqlite_tables(src, source, "is not an SQLite database", gouji="is not a gouji server's database")
        with contextlib.closing(sqlite3.connect(partial)) as dst:
            try:
                # one step (pages=-1): every page read in one read transaction, so the copy is the database
                # at one moment; the server's writer goes on meanwhile (WAL: readers never block it)
                src.backup(dst, pages=-1)
            except sqlite3.Error as e:
                raise BackupError(f"cannot back up {source}: {e}") from None
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
            check = dst.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise BackupError(f"the copy of {source} fails SQLite's check: {check}")


def _backup_postgresql(url: URL, partial: Path) -> None:
    conninfo, env = _pg_conninfo(url)
    cmd = [_pg_program("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", "--file", str(partial)]
    _run([*cmd, "--dbname", conninfo], env, f"cannot back up {describe_url(str(url))}")


# ------------------------------------------------------------------------------------------------ restore


def backup_kind(path: Path) -> str:
    """``sqlite`` or ``postgresql``: which database the backup file ``path`` is of (by its first bytes)."""
    try:
        with Path(path).open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as e:
        raise BackupError(f"cannot read {path}: {e.strerror or e}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PGDUMP_MAGIC):
        return "postgresql"
    raise BackupError(f"{path} is not a file written by gouji backup (neither an SQLite file nor a pg_dump archive)")


def restore(path: Path, url: str) -> Contents:
    """Restore the backup file ``path`` into the empty database at ``url`` and bring its schema up to date;
    returns what it holds.  :class:`BackupError` if the database is not empty, the file is no backup, or it
    is a backup of the other kind of database."""
    parsed = _url(url)
    kind = _kind(parsed)
    have = backup_kind(path)
    shown = describe_url(url)
    if have != kind:
        example = "sqlite:///FILE" if have == "sqlite" else "postgresql://USER@HOST/DB"
        raise BackupError(
            f"{path} is a backup of {_NAMES[have]} database: restore it into one ({example}), not {shown}"
        )
    if kind == "sqlite":
        _restore_sqlite(Path(path), _sqlite_path(parsed), shown)
    else:
        _restore_postgresql(Path(path), parsed, shown)
    try:
        open_store(url).close()  # the migrations, as a server's start would run them
    except StorageError as e:
        raise BackupError(f"restored, but the database cannot be used: {e}") from None
    return contents(url)


_NAMES = {"sqlite": "an SQLite", "postgresql": "a PostgreSQL"}


def _not_empty(shown: str, tables: list[str]) -> BackupError:
    names = ", ".join(tables[:6]) + (", …" if len(tables) > 6 else "")
    return BackupError(
        f"{shown} is not empty (it has the tables {names}): a backup is restored into an empty database only "
        "— name a new SQLite file, or a database just made with createdb"
    )


def _restore_sqlite(path: Path, target: Path, shown: str) -> None:
    with contextlib.closing(sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)) as src:
        unreadable = "cannot be read as an SQLite database"
        _sqlite_tables(src, path, unreadable, gouji="is not a backup of a gouji server's database")
        try:
            check = src.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as e:
            raise BackupError(f"{path} {unreadable}: {e}") from None
        if check is None or check[0] != "ok":
            raise BackupError(f"{path} fails SQLite's check: {check}")
        if not target.parent.is_dir():
            raise BackupError(f"{target.parent} is no directory: cannot create {target}")
        owner_only_database(target)  # (readable by its owner only, as the live database is)
        with contextlib.closing(_sqlite_connect(target)) as dst:
            existing = _sqlite_tables(dst, target, "is not an SQLite database")
            if existing:
                raise _not_empty(shown, existing)
            src.backup(dst, pages=-1)


def _restore_postgresql(path: Path, url: URL, shown: str) -> None:
    engine = make_engine(str(url))
    try:
        with engine.connect() as c:
            existing = sorted(sa.inspect(c).get_table_names())
    except DBAPIError as e:
        reason = str(e.orig).strip().splitlines()[0] if e.orig is not None else str(e)
        raise BackupError(f"cannot reach the database {shown}: {reason}") from None
    finally:
        engine.dispose()
    if existing:
        raise _not_empty(shown, existing)
    restore_cmd = _pg_program("pg_restore")
    listed = subprocess.run([restore_cmd, "--list", str(path)], capture_output=True, text=True, check=False)
    if listed.returncode != 0 or "TABLE public alembic_version" not in listed.stdout:
        raise BackupError(
            f"{path} is not a backup of a gouji server's database (pg_restore --list: no alembic_version)"
        )
    conninfo, env = _pg_conninfo(url)
    cmd = [restore_cmd, "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error"]
    _run([*cmd, "--dbname", conninfo, str(path)], env, f"cannot restore {path} into {shown}")


def contents(url: str) -> Contents:
    """How many tables (and open ones), events and records the gouji database at ``url`` holds."""
    engine = make_engine(url)
    try:
        with engine.connect() as c:

            def count(sql: str) -> int:
                return int(c.execute(sa.text(sql)).scalar_one())

            return Contents(
                tables=count("SELECT count(*) FROM tables"),
                open_tables=count("SELECT count(*) FROM tables WHERE status = 'open'"),
                events=count("SELECT count(*) FROM table_events"),
                records=count("SELECT count(*) FROM records"),
            )
    finally:
        engine.dispose()
