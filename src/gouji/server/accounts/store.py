"""The accounts' rows: functions of the :class:`~gouji.server.storage.Store`, each one transaction, run on the
writer (changes) or on a reader's thread (reads) — never on the event loop.

Nothing here sees a password or a session token: only the password's Argon2id hash and the token's SHA-256."""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...competition.records import RecordError
from ...competition.stats import credit, merge, preset_of, record_stats
from ..storage import AccountRow, AccountSessionRow, AccountStatsRow, Store

log = logging.getLogger("gouji.server")

SESSION_DAYS = 30
"""A session expires after this many days unused."""
NAME_HELD_DAYS = 30
"""A deleted account's name is held this many days (nobody else takes it at once), then freed."""
TOUCH_EVERY = dt.timedelta(hours=1)
"""A session's last use is written at most this often."""


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _aware(at: dt.datetime) -> dt.datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class Account:
    """An account as the server knows it (never its password's hash)."""

    id: int
    name: str
    since: dt.datetime
    disabled: bool = False


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, _aware(row.created_at), row.disabled)


def create_account(store: Store, name: str, key: str, password_hash: str) -> Account | None:
    """A new account, or None when the name (``key``, folded) is taken — by an account, or by one deleted less
    than :data:`NAME_HELD_DAYS` ago (after that, the deleted one gives it up)."""
    try:
        with store.sessions.begin() as s:
            row = s.scalar(select(AccountRow).where(AccountRow.name_key == key))
            if row is not None:
                if row.deleted_at is None or _aware(row.deleted_at) > _now() - dt.timedelta(days=NAME_HELD_DAYS):
                    return None
                row.name_key = f"\x01freed {row.id}"  # (no name holds a control character: no name folds to it)
                s.flush()
            new = AccountRow(name=name, name_key=key, password_hash=password_hash, created_at=_now())
            s.add(new)
            s.flush()
            return _account(new)
    except IntegrityError:  # the same name, at the same moment, on another shard
        return None


def signing_in(store: Store, key: str) -> tuple[Account, str] | None:
    """The account a name (folded) is, with its password's hash — None for a name nobody holds now."""
    with store.sessions() as s:
        row = s.scalar(select(AccountRow).where(AccountRow.name_key == key, AccountRow.deleted_at.is_(None)))
        return None if row is None else (_account(row), row.password_hash)


def password_hash(store: Store, account_id: int) -> str | None:
    with store.sessions() as s:
        row = s.get(AccountRow, account_id)
        return None if row is None or row.deleted_at is not None else row.password_hash


def set_password(store: Store, account_id: int, hashed: str) -> None:
    with store.sessions.begin() as s:
        s.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=hashed))


def add_session(store: Store, account_id: int, token_hash: str) -> None:
    with store.sessions.begin() as s:
        now = _now()
        s.add(AccountSessionRow(token_hash=token_hash, account_id=account_id, created_at=now, used_at=now))


def session_account(store: Store, token_hash: str) -> tuple[Account, bool] | None:
    """The account a session is (and whether its last use should be written again), or None: no such
    session, expired, or its account disabled or deleted."""
    with store.sessions() as s:
        found = s.execute(
            select(AccountRow, AccountSessionRow.used_at)
            .join(AccountSessionRow, AccountSessionRow.account_id == AccountRow.id)
            .where(AccountSessionRow.token_hash == token_hash)
        ).first()
    if found is None:
        return None
    row, used = found
    used = _aware(used)
    if row.deleted_at is not None or row.disabled or used < _now() - dt.timedelta(days=SESSION_DAYS):
        return None
    return _account(row), used < _now() - TOUCH_EVERY


def touch_session(store: Store, token_hash: str) -> None:
    with store.sessions.begin() as s:
        s.execute(update(AccountSessionRow).where(AccountSessionRow.token_hash == token_hash).values(used_at=_now()))


def end_session(store: Store, token_hash: str) -> None:
    with store.sessions.begin() as s:
        s.execute(delete(AccountSessionRow).where(AccountSessionRow.token_hash == token_hash))


def end_sessions(store: Store, account_id: int, but: str | None = None) -> None:
    """End every session of an account (but ``but``'s)."""
    with store.sessions.begin() as s:
        q = delete(AccountSessionRow).where(AccountSessionRow.account_id == account_id)
        if but is not None:
            q = q.where(AccountSessionRow.token_hash != but)
        s.execute(q)
        s.execute(delete(AccountSessionRow).where(AccountSessionRow.used_at < _now() - dt.timedelta(days=SESSION_DAYS)))


def delete_account(store: Store, account_id: int) -> None:
    """Delete an account: its sessions end, its password is gone, its name is held a while then freed; its
    games stay (the records name it as they did)."""
    with store.sessions.begin() as s:
        s.execute(delete(AccountSessionRow).where(AccountSessionRow.account_id == account_id))
        s.execute(update(AccountRow).where(AccountRow.id == account_id).values(deleted_at=_now(), password_hash=""))


def profile_row(store: Store, key: str) -> tuple[Account, dict[str, dict[str, Any]]] | None:
    """An account (not deleted) by its folded name, with its statistics by preset."""
    with store.sessions() as s:
        row = s.scalar(select(AccountRow).where(AccountRow.name_key == key, AccountRow.deleted_at.is_(None)))
        if row is None:
            return None
        stats = s.execute(select(AccountStatsRow).where(AccountStatsRow.account_id == row.id)).scalars()
        return _account(row), {st.preset: dict(st.counters) for st in stats}


def list_accounts(store: Store) -> list[dict[str, Any]]:
    """Every account, for the operator (``gouji accounts list``)."""
    with store.sessions() as s:
        rows = s.scalars(select(AccountRow).order_by(AccountRow.id)).all()
        return [
            {
                "name": r.name,
                "since": _aware(r.created_at).isoformat(timespec="seconds"),
                "disabled": r.disabled,
                "deleted": r.deleted_at is not None,
            }
            for r in rows
        ]


def set_disabled(store: Store, key: str, disabled: bool) -> bool:
    """Disable (or enable) an account by its folded name; a disabled account's sessions end.  False: no such
    account."""
    with store.sessions.begin() as s:
        row = s.scalar(select(AccountRow).where(AccountRow.name_key == key, AccountRow.deleted_at.is_(None)))
        if row is None:
            return False
        row.disabled = disabled
        if disabled:
            s.execute(delete(AccountSessionRow).where(AccountSessionRow.account_id == row.id))
        return True


def reset_password(store: Store, key: str, hashed: str) -> bool:
    """Set an account's password (the operator's reset) and end its sessions.  False: no such account."""
    with store.sessions.begin() as s:
        row = s.scalar(select(AccountRow).where(AccountRow.name_key == key, AccountRow.deleted_at.is_(None)))
        if row is None:
            return False
        row.password_hash = hashed
        s.execute(delete(AccountSessionRow).where(AccountSessionRow.account_id == row.id))
        return True


def add_stats(s: Session, deal_index: int | None, players: list[dict[str, Any]], body: dict[str, Any]) -> None:
    """Add what a record just stored brings to the statistics of the accounts that played in it (its players'
    ``account``), in the record's transaction: a record is stored with its statistics or not at all, so no
    restart, crash or shard counts one twice or never.  A record whose statistics cannot be worked out (one
    that does not replay) is stored all the same, and said in the log."""
    try:
        increments = record_stats(body, deal_index)
    except (RecordError, ValueError) as e:
        log.error("a record's statistics could not be worked out: %s", e)
        return
    seats = {(int(p.get("table", 0)), int(p["seat"])): p.get("account") for p in players}
    by_name = credit(increments, seats)
    if not by_name:
        return
    preset = preset_of(body)
    live = AccountRow.deleted_at.is_(None)
    rows = s.execute(select(AccountRow.id, AccountRow.name).where(AccountRow.name.in_(list(by_name)), live)).all()
    for account_id, name in rows:
        row = select(AccountStatsRow).where(AccountStatsRow.account_id == account_id, AccountStatsRow.preset == preset)
        stats = s.execute(row.with_for_update()).scalar_one_or_none()  # (two shards adding at once: one waits)
        if stats is None:
            s.add(AccountStatsRow(account_id=account_id, preset=preset, counters=merge({}, by_name[name])))
        else:
            stats.counters = merge(stats.counters, by_name[name])
