"""``gouji accounts``: the operator's view of a server's accounts (issue 42) — list them, disable or enable
one, reset one's password (a temporary password printed once, stored only as its Argon2id hash)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from ..server.storage import Store

_URL = click.option(
    "--database-url", default="sqlite:///gouji.db", show_default=True, help="SQLAlchemy URL of the server's database."
)


@contextmanager
def _store(url: str) -> Iterator[Store]:
    from ..server.storage import StorageError, open_store

    try:
        store = open_store(url)
    except StorageError as e:
        raise click.ClickException(str(e)) from None
    try:
        yield store
    finally:
        store.close()


def _key(name: str) -> str:
    from ..server.messages.schemas import name_key

    return name_key(name)


@click.group(short_help="List, disable, enable accounts; reset a password.")
def accounts() -> None:
    """The accounts of a server's database (sign-in accounts of the web table)."""


@accounts.command("list")
@_URL
def list_(database_url: str) -> None:
    """Every account: name, since, disabled, deleted."""
    from ..server.accounts.store import list_accounts

    with _store(database_url) as store:
        rows = list_accounts(store)
    for r in rows:
        flags = " ".join(f for f in ("disabled" if r["disabled"] else "", "deleted" if r["deleted"] else "") if f)
        click.echo(f"{r['name']}\t{r['since']}\t{flags}".rstrip())
    click.echo(f"{len(rows)} accounts")


def _switch(disabled: bool) -> Callable[[str, str], None]:
    def run(name: str, database_url: str) -> None:
        from ..server.accounts.store import set_disabled

        with _store(database_url) as store:
            if not set_disabled(store, _key(name), disabled):
                raise click.ClickException(f"no account {name!r}")
        click.echo(f"{name}: {'disabled (its sessions ended)' if disabled else 'enabled'}")

    return run


accounts.command("disable", help="Disable an account: it cannot sign in, its sessions end.")(
    click.argument("name")(_URL(_switch(True)))
)
accounts.command("enable", help="Enable a disabled account again.")(click.argument("name")(_URL(_switch(False))))


@accounts.command("reset-password")
@click.argument("name")
@_URL
def reset_password(name: str, database_url: str) -> None:
    """Give NAME a new, random password, printed once (its sessions end): hand it to its owner, who changes
    it after signing in."""
    from ..server.accounts.passwords import HASHER
    from ..server.accounts.store import reset_password as reset

    password = secrets.token_urlsafe(12)
    with _store(database_url) as store:
        if not reset(store, _key(name), HASHER.hash(password)):
            raise click.ClickException(f"no account {name!r}")
    click.echo(f"{name}: temporary password {password} (shown once; its sessions ended)")


@accounts.command("reports")
@_URL
def reports_(database_url: str) -> None:
    """The reports of players that people sent from their tables, newest first."""
    from ..server.accounts.store import reports

    with _store(database_url) as store:
        rows = reports(store)
    for r in rows:
        click.echo(f"{r['at']}\t{r['by']} reported {r['reported']} at {r['table']}\t{r['reason']}")
    click.echo(f"{len(rows)} reports")
