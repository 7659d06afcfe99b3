"""What the server keeps from every other user of its machine: the SQLite database's files and the server's
secret, each readable and writable by its owner only (``0600``).

- **The database** (:func:`owner_only_sqlite`): it holds every open set's seed (the hands still to come),
  the teams' join codes and the hashes of the seat tokens.  An SQLite file is made ``0600`` before SQLite
  first opens it; SQLite gives its ``-wal`` and ``-shm`` files the database file's mode.  An existing file
  that others may read is made owner-only, and the log says so.  (Backups are written ``0600`` by
  :mod:`.backup`, and a restore's new file is made as the live one is.)
- **The secret** (:func:`load_secret`): the key of the pseudonyms the tables store of who created them
  (:func:`gouji.server.lobby.client_key`), kept outside the database so that a copy of the database does not
  tell who created what.  It lives in a file: ``--secret-file`` (or ``GOUJI_SECRET_FILE``), else beside an
  SQLite database (``gouji.db`` → ``gouji.secret``), else ``gouji.secret`` in the working directory
  (:func:`secret_path`).  Made on first start (32 random bytes, hex), ``0600``.  Game servers sharing one
  PostgreSQL database (``--shard``) are given the same file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import stat
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

log = logging.getLogger("gouji.server")

OWNER_ONLY = 0o600
SECRET_ENV = "GOUJI_SECRET_FILE"
"""The environment variable naming the secret's file (``--secret-file``'s default)."""
SECRET_NAME = "gouji.secret"
MIN_SECRET_BYTES = 16
"""A secret file holds at least this many bytes (a made one holds 64 hex digits)."""

PROCESS_SECRET = secrets.token_bytes(32)
"""The key of a server given no secret (an app built in a test, a benchmark's lobby): this process's own, so
its pseudonyms do not outlive it."""


class SecretError(ValueError):
    """The secret's file cannot be made or read: the message says which file and why."""


def tighten(path: Path) -> None:
    """Make the existing file ``path`` readable and writable by its owner only, if others may read it (the
    log says so); a file this user cannot change is left as it is, with a warning."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return
    if not mode & 0o077:
        return
    try:
        os.chmod(path, mode & 0o700)
    except OSError as e:
        log.warning("%s is readable by other users (%o) and cannot be made private: %s", path, mode, e)
        return
    log.warning("%s was readable by other users (%o): now by its owner only", path, mode)


def owner_only(path: Path) -> None:
    """Make ``path`` an empty file readable and writable by its owner only unless it exists; an existing one
    is :func:`tighten`-ed."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY))
    except FileExistsError:
        tighten(path)


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite database URL (None: not SQLite, in memory, or a ``file:`` URI)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def owner_only_sqlite(url: str) -> None:
    """The file of the SQLite database at ``url`` (:func:`sqlite_file`; nothing for another database) and its
    companions (``-wal``, ``-shm``, ``-journal``, if they exist) readable and writable by their owner only;
    the database made empty so if it does not exist (SQLite then makes its companions with its mode).  A
    missing directory is left for SQLite to refuse."""
    path = sqlite_file(url)
    if path is not None:
        owner_only_database(path)


def owner_only_database(path: Path) -> None:
    """:func:`owner_only_sqlite` of the SQLite file ``path``."""
    if not path.parent.is_dir():
        return
    with contextlib.suppress(IsADirectoryError):
        owner_only(path)
    for suffix in ("-wal", "-shm", "-journal"):
        tighten(path.with_name(path.name + suffix))


def secret_path(database_url: str, given: str | Path | None = None) -> Path | None:
    """Where the server's secret lives: ``given`` (``--secret-file``); beside an SQLite database file, with
    its name and the suffix ``.secret``; for any other database ``gouji.secret`` in the working directory;
    None for an SQLite database in memory (nothing outlives the process)."""
    if given:
        return Path(given)
    if database_url.startswith("sqlite"):
        db = sqlite_file(database_url)
        return None if db is None else db.with_name(db.stem + ".secret")
    return Path(SECRET_NAME)


def load_secret(path: Path | None) -> bytes:
    """The server's secret, read from ``path`` (its text, stripped) — made first if there is no such file:
    32 random bytes in hex, written whole to a new file readable by its owner only (two servers starting at
    once on one path make one).  :data:`PROCESS_SECRET` for None.  :class:`SecretError` if the file cannot
    be made or read, or holds fewer than :data:`MIN_SECRET_BYTES` bytes."""
    if path is None:
        return PROCESS_SECRET
    try:
        if not path.exists():
            _make_secret(path)
        tighten(path)
        secret = path.read_bytes().strip()
    except OSError as e:
        raise SecretError(f"cannot make or read the server's secret file {path}: {e.strerror or e}") from None
    if len(secret) < MIN_SECRET_BYTES:
        raise SecretError(
            f"the server's secret file {path} holds {len(secret)} bytes: it needs at least {MIN_SECRET_BYTES} "
            "(remove it and one is made)"
        )
    return secret


def _make_secret(path: Path) -> None:
    partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, OWNER_ONLY)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32) + "\n")
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(FileExistsError):  # (another server made it first: that one is the secret)
            os.link(partial, path)
            log.info("made the server's secret in %s (keep it: it keys the stored pseudonyms of creators)", path)
    finally:
        partial.unlink(missing_ok=True)
