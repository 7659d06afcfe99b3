"""The accounts' rows: functions of the :class:`~gouji.server.storage.Store`, each one transaction, run on the
writer (changes) or on a reader's thread (reads) — never on the event loop.

Nothing here sees a password or a session token: only the password's Argon2id hash and the token's SHA-256."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from ...competition.ratings import NEW, shown, title
from ..storage import (
    AccountRow,
    AccountSessionRow,
    AccountStatsRow,
    BlockRow,
    RatingHistoryRow,
    RatingRow,
    ReportRow,
    Store,
)

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


def rating_profile(store: Store, account_id: int) -> dict[str, Any]:
    """An account's rating, title, rated games and the history of its shown rating (oldest first)."""
    with store.sessions() as s:
        row = s.get(RatingRow, account_id)
        history = s.execute(
            select(RatingHistoryRow.rating, RatingHistoryRow.at)
            .where(RatingHistoryRow.account_id == account_id)
            .order_by(RatingHistoryRow.id.desc())
            .limit(200)
        ).all()
    rating = shown(row.mu, row.sigma) if row is not None else shown(*NEW)
    return {
        "rating": rating,
        "title": title(rating),
        "rated_games": row.games if row is not None else 0,
        "history": [{"rating": r, "at": _aware(at).isoformat(timespec="seconds")} for r, at in reversed(history)],
    }


# ------------------------------------------------------------------------------------------ safety


def block(store: Store, account_id: int, name: str, on: bool) -> bool:
    """Block (or unblock) the account ``name``; False: no such account."""
    with store.sessions.begin() as s:
        other = s.scalar(select(AccountRow.id).where(AccountRow.name == name, AccountRow.deleted_at.is_(None)))
        if other is None or other == account_id:
            return False
        found = s.get(BlockRow, (account_id, other))
        if on and found is None:
            s.add(BlockRow(account_id=account_id, blocked_id=other))
        elif not on and found is not None:
            s.delete(found)
        return True


def blocked_names(store: Store, account_id: int) -> list[str]:
    with store.sessions() as s:
        return list(
            s.scalars(
                select(AccountRow.name)
                .join(BlockRow, BlockRow.blocked_id == AccountRow.id)
                .where(BlockRow.account_id == account_id)
                .order_by(AccountRow.name)
            ).all()
        )


def report(store: Store, reporter_id: int, reported: str, table: str, reason: str) -> None:
    with store.sessions.begin() as s:
        s.add(ReportRow(reporter_id=reporter_id, reported=reported, table_code=table, reason=reason, at=_now()))


def reports(store: Store) -> list[dict[str, Any]]:
    """Every report, newest first (the operator's ``gouji accounts reports``)."""
    with store.sessions() as s:
        rows = s.execute(
            select(ReportRow, AccountRow.name)
            .join(AccountRow, AccountRow.id == ReportRow.reporter_id)
            .order_by(ReportRow.id.desc())
        ).all()
        return [
            {
                "at": _aware(r.at).isoformat(timespec="seconds"),
                "by": by,
                "reported": r.reported,
                "table": r.table_code,
                "reason": r.reason,
            }
            for r, by in rows
        ]
