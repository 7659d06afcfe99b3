"""The database engine: URLs, SQLite's and PostgreSQL's settings for durable commits, and the migrations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError

from ..private import owner_only_sqlite


class StorageError(RuntimeError):
    """The database cannot be used: the message says which (its password left out) and why."""


def describe_url(url: str) -> str:
    """A database URL as it may be shown: without its password."""
    try:
        return make_url(normalize_url(url)).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` URLs use psycopg 3; everything else is left as given."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


SQLITE_SYNCHRONOUS = "FULL"
"""SQLite's ``synchronous`` setting: ``FULL`` syncs the write-ahead log to the disk at every commit, so a
committed change survives a power cut as well as a killed process.  (``NORMAL`` syncs the log only at
checkpoints: a commit survives a killed process but not a power cut, and the server's promise — a change is
sent only once it is durably stored — would not hold.)"""


def dumps_json(value: Any) -> str:
    """JSON columns' text: compact, UTF-8, keys that are not strings written as strings (as ``json.dumps``
    writes them) — encoded by orjson, in C, on the writer (which, on a thread of the server, shares the
    interpreter with the game)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")


def make_engine(url: str) -> Engine:
    """An engine for ``url``.  SQLite gets WAL, :data:`SQLITE_SYNCHRONOUS`, a busy timeout and files only their
    owner reads (:func:`.private.owner_only_sqlite`); PostgreSQL gets ``synchronous_commit = on`` whatever the
    server's default, so every commit is durable before it returns.  JSON columns go through orjson both ways."""
    url = normalize_url(url)
    json_args: dict[str, Any] = {"json_serializer": dumps_json, "json_deserializer": orjson.loads}
    owner_only_sqlite(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **json_args)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    engine = create_engine(url, pool_pre_ping=True, **json_args)
    if engine.dialect.name == "postgresql":

        @event.listens_for(engine, "connect")
        def _durable(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("SET synchronous_commit TO on")
            cur.close()
            dbapi_conn.commit()

    return engine


MIGRATION_LOCK = 0x60D7_1000
"""PostgreSQL's advisory lock key that serialises migrations of game servers sharing a database."""


def migrate(engine: Engine) -> None:
    """Bring the database's schema up to date with the Alembic migrations shipped in the package."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent.parent / "migrations"))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # shards starting together on one database: one migrates, the others wait and find it done
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
