"""``gouji backup`` and ``gouji restore``: a consistent copy of a server's database, taken while it plays,
and its restore into an empty database (:mod:`gouji.server.storage.backup`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

FC = TypeVar("FC", bound=Callable[..., Any])


def _database_url(help: str) -> Callable[[FC], FC]:
    return click.option("--database-url", default="sqlite:///gouji.db", show_default=True, help=help)


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} bytes"
    size = n / 1024
    for unit in ("KB", "MB"):
        if size < 1024:
            return f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


@click.command(short_help="Copy a server's database, consistently, while it plays.")
@click.option(
    "--to",
    "to",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The backup file to write (replaced once the new copy is complete).",
)
@_database_url("SQLAlchemy URL of the server's database (as given to gouji serve).")
def backup(to: Path, database_url: str) -> None:
    """Copy the database of a server — running or not — to one file: the database as it was at one moment,
    while play goes on.  SQLite: its online backup, to an SQLite file; PostgreSQL: pg_dump's custom format.

    gouji restore FILE puts it back into an empty database."""
    from ..server.storage import describe_url
    from ..server.storage.backup import BackupError
    from ..server.storage.backup import backup as run_backup

    try:
        info = run_backup(database_url, to)
    except BackupError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"backed up {describe_url(database_url)} to {info.path} ({_size(info.size)}, {info.seconds:.2f} s)")


@click.command(short_help="Restore a backup into an empty database.")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_database_url("SQLAlchemy URL of the empty database to restore into.")
def restore(path: Path, database_url: str) -> None:
    """Restore the backup file PATH (written by gouji backup) into an empty database: a new SQLite file, or
    a PostgreSQL database just made with createdb.  A database that has any table is refused.

    Its schema is brought up to date as a server's start would; a server started on it serves every record
    of the backup and resumes every open table where the backup saw it."""
    from ..server.storage import describe_url
    from ..server.storage.backup import BackupError
    from ..server.storage.backup import restore as run_restore

    try:
        held = run_restore(path, database_url)
    except BackupError as e:
        raise click.ClickException(str(e)) from None
    click.echo(
        f"restored {path} into {describe_url(database_url)}: tables {held.tables} ({held.open_tables} open), "
        f"changes {held.events}, records {held.records}"
    )
