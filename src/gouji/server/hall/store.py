"""The hall's rows (issue 43): functions of the :class:`~gouji.server.storage.Store`, each one transaction, run
on the writer or a reader's thread.  The database is where the shards meet: each writes the rows of its own
public tables and its online count, and reads everyone's; the quick play queue is rows every shard's matcher
takes with ``FOR UPDATE SKIP LOCKED`` (PostgreSQL; SQLite has one writer), so two people queueing on two
shards meet at one table."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, func, or_, select, update

from ...competition.ratings import NEW, shown, title
from ..storage import (
    AccountRow,
    BlockRow,
    HallOnlineRow,
    HallTableRow,
    QuickplayRow,
    RatingRow,
    Store,
)

ONLINE_FRESH = dt.timedelta(seconds=15)
"""A shard's online count counts while it is this recent (a shard that stopped drops out)."""
FORMING_STALE = dt.timedelta(seconds=60)
"""A group taken by a matcher that did not seat it in this time (its shard died) waits again."""


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


# ------------------------------------------------------------------------------------------ ratings


def ratings_of(store: Store, names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The shown rating and title of each account named (a new account's when it has played no rated game)."""
    if not names:
        return {}
    with store.sessions() as s:
        rows = s.execute(
            select(AccountRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.games)
            .outerjoin(RatingRow, RatingRow.account_id == AccountRow.id)
            .where(AccountRow.name.in_(list(names)), AccountRow.deleted_at.is_(None))
        ).all()
    out = {}
    for name, mu, sigma, games in rows:
        rating = shown(mu, sigma) if mu is not None else shown(*NEW)
        out[name] = {"rating": rating, "title": title(rating), "games": games or 0}
    return out


def leaderboard(store: Store, limit: int, me: str | None) -> dict[str, Any]:
    """The listed accounts (enough rated games) by rating, best first, and ``me``'s place (or None).  Equal
    ratings share a place, the next place counting everyone above it (1, 2, 2, 4), as ``me``'s does."""
    with store.sessions() as s:
        rows = s.execute(
            select(AccountRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.games, RatingRow.ordinal)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(RatingRow.listed.is_(True), AccountRow.deleted_at.is_(None))
            .order_by(RatingRow.ordinal.desc(), RatingRow.account_id)
            .limit(limit)
        ).all()
        mine = None
        if me is not None:
            found = s.execute(
                select(RatingRow.ordinal, RatingRow.mu, RatingRow.sigma, RatingRow.games, RatingRow.listed)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(AccountRow.name == me)
            ).first()
            if found is not None and found.listed:
                above = s.scalar(
                    select(func.count())
                    .select_from(RatingRow)
                    .where(RatingRow.listed.is_(True), RatingRow.ordinal > found.ordinal)
                )
                rating = shown(found.mu, found.sigma)
                mine = {
                    "name": me,
                    "place": int(above or 0) + 1,
                    "rating": rating,
                    "title": title(rating),
                    "games": found.games,
                }
    players = []
    place, before = 0, None
    for i, (name, mu, sigma, games, ordinal) in enumerate(rows, 1):
        if ordinal != before:
            place, before = i, ordinal
        rating = shown(mu, sigma)
        players.append({"place": place, "name": name, "rating": rating, "title": title(rating), "games": games})
    return {"players": players, "me": mine}


# ------------------------------------------------------------------------------------------ the public tables


def sync_hall(
    store: Store, shard: str, online: int, upserts: Sequence[dict[str, Any]], deletes: Sequence[str], mine: str | None
) -> None:
    """Write a shard's public tables as they are now (``upserts``: code, preset, status, seats), remove those
    gone (``deletes``; with ``mine``, also every row of a code beginning with one of ``mine``'s letters that is
    not among ``upserts`` — what the shard left when it stopped), and its online count.  Each seat held by an
    account gets its title."""
    now = _now()
    names = sorted({str(seat["nickname"]) for t in upserts for seat in t["seats"] if seat.get("account")})
    with store.sessions.begin() as s:
        titles = _titles(s, names)
        if deletes:
            s.execute(delete(HallTableRow).where(HallTableRow.code.in_(list(deletes))))
        if mine is not None:
            keep = [t["code"] for t in upserts]
            gone = [c for c in s.scalars(select(HallTableRow.code)).all() if c[:1] in mine and c not in keep]
            if gone:
                s.execute(delete(HallTableRow).where(HallTableRow.code.in_(gone)))
        for t in upserts:
            seats = [
                {
                    **seat,
                    **(
                        {"title": titles[seat["nickname"]]}
                        if seat.get("nickname") in titles and seat.get("account")
                        else {}
                    ),
                }
                for seat in t["seats"]
            ]
            row = s.get(HallTableRow, t["code"])
            if row is None:
                s.add(HallTableRow(code=t["code"], preset=t["preset"], status=t["status"], seats=seats, updated_at=now))
            else:
                row.preset, row.status, row.seats, row.updated_at = t["preset"], t["status"], seats, now
        count = s.get(HallOnlineRow, shard)
        if count is None:
            s.add(HallOnlineRow(shard=shard, online=online, updated_at=now))
        else:
            count.online, count.updated_at = online, now


def _titles(s: Any, names: Sequence[str]) -> dict[str, dict[str, Any]]:
    if not names:
        return {}
    rows = s.execute(
        select(AccountRow.name, RatingRow.mu, RatingRow.sigma)
        .outerjoin(RatingRow, RatingRow.account_id == AccountRow.id)
        .where(AccountRow.name.in_(list(names)))
    ).all()
    return {n: title(shown(mu, sigma) if mu is not None else shown(*NEW)) for n, mu, sigma in rows}


def hall_view(store: Store) -> dict[str, Any]:
    """The public tables of every shard (waiting first, then in play; newest first) and who is online."""
    with store.sessions() as s:
        rows = s.scalars(select(HallTableRow).order_by(HallTableRow.updated_at.desc()).limit(500)).all()
        online = s.scalar(
            select(func.sum(HallOnlineRow.online)).where(HallOnlineRow.updated_at > _now() - ONLINE_FRESH)
        )
    tables = [
        {
            "code": r.code,
            "preset": r.preset,
            "status": r.status,
            "seats": r.seats,
            "free": sum(1 for seat in r.seats if not seat.get("held")),
        }
        for r in rows
    ]
    tables.sort(key=lambda t: (t["status"] != "waiting",))
    return {"tables": tables, "online": int(online or 0)}


# ------------------------------------------------------------------------------------------ quick play


def queue(store: Store, ticket_hash: str, account_id: int, name: str, preset: str, bots: bool, shard: str) -> bool:
    """Put an account in the queue of a preset; False when it waits in a queue already (one at a time)."""
    with store.sessions.begin() as s:
        waiting = s.scalar(
            select(func.count())
            .select_from(QuickplayRow)
            .where(QuickplayRow.account_id == account_id, QuickplayRow.status.in_(("waiting", "forming")))
        )
        if waiting:
            return False
        rating = s.get(RatingRow, account_id)
        ordinal = rating.ordinal if rating is not None else NEW[0] - 3 * NEW[1]
        s.add(
            QuickplayRow(
                ticket_hash=ticket_hash,
                account_id=account_id,
                name=name,
                ordinal=ordinal,
                preset=preset,
                bots=bots,
                status="waiting",
                shard=shard,
                created_at=_now(),
            )
        )
        return True


def ticket(store: Store, ticket_hash: str) -> dict[str, Any] | None:
    with store.sessions() as s:
        row = s.get(QuickplayRow, ticket_hash)
        if row is None:
            return None
        return {
            "account_id": row.account_id,
            "status": "seated" if row.status == "seated" else "waiting",
            "table": row.table_code,
            "seat": row.seat,
            "preset": row.preset,
            "since": _aware(row.created_at).isoformat(timespec="seconds"),
        }


def leave_queue(store: Store, ticket_hash: str, account_id: int) -> bool:
    with store.sessions.begin() as s:
        done = s.execute(
            delete(QuickplayRow).where(
                QuickplayRow.ticket_hash == ticket_hash,
                QuickplayRow.account_id == account_id,
                QuickplayRow.status.in_(("waiting", "seated")),
            )
        )
        return bool(done.rowcount)  # type: ignore[attr-defined]


def empty_queue(store: Store, shard: str) -> None:
    """What the shard took before a restart: gone (the queue survives no restart; the pages queue again)."""
    with store.sessions.begin() as s:
        s.execute(delete(QuickplayRow).where(QuickplayRow.shard == shard))


def take_group(store: Store, fill_seconds: float) -> list[dict[str, Any]] | None:
    """One group to seat, taken from the queue (marked ``forming``) — or None.

    For each preset, the person who has waited longest is seated with the five waiting nearest in rating
    (none blocked by or blocking another of the group); with fewer than six, once they have waited
    ``fill_seconds`` and allow bots, with those who also allow bots, and 高手 fill the rest."""
    now = _now()
    with store.sessions.begin() as s:
        s.execute(
            update(QuickplayRow)
            .where(QuickplayRow.status == "forming", QuickplayRow.created_at < now - FORMING_STALE)
            .values(status="waiting")
        )
        q = select(QuickplayRow).where(QuickplayRow.status == "waiting").order_by(QuickplayRow.created_at)
        if s.get_bind().dialect.name == "postgresql":
            q = q.with_for_update(skip_locked=True)
        rows = s.scalars(q.limit(2000)).all()
        by_preset: dict[str, list[QuickplayRow]] = {}
        for r in rows:
            by_preset.setdefault(r.preset, []).append(r)
        ids = {r.account_id for r in rows}
        blocked = s.execute(
            select(BlockRow.account_id, BlockRow.blocked_id).where(
                or_(BlockRow.account_id.in_(ids), BlockRow.blocked_id.in_(ids))
            )
        ).all()
        apart = {(a, b) for a, b in blocked} | {(b, a) for a, b in blocked}
        for waiting in by_preset.values():
            group = _group(waiting, apart, now, fill_seconds)
            if group:
                for r in group:
                    r.status = "forming"
                return [
                    {"ticket_hash": r.ticket_hash, "account_id": r.account_id, "name": r.name, "preset": r.preset}
                    for r in group
                ]
    return None


def _group(
    waiting: list[QuickplayRow], apart: set[tuple[int, int]], now: dt.datetime, fill_seconds: float
) -> list[QuickplayRow]:
    """The group of the person waiting longest (``waiting[0]``): with the five nearest in rating, or — once it
    has waited ``fill_seconds`` and allows bots — with those nearest who allow bots too (bots fill the rest)."""
    first = waiting[0]
    others = sorted(waiting[1:], key=lambda r: abs(r.ordinal - first.ordinal))

    def gather(pool: list[QuickplayRow]) -> list[QuickplayRow]:
        group = [first]
        for r in pool:
            if len(group) == 6:
                break
            if all(r.account_id != g.account_id and (r.account_id, g.account_id) not in apart for g in group):
                group.append(r)
        return group

    group = gather(others)
    if len(group) == 6:
        return group
    if first.bots and now - _aware(first.created_at) >= dt.timedelta(seconds=fill_seconds):
        return gather([r for r in others if r.bots])
    return []


def seated(store: Store, seats: Sequence[tuple[str, str, int]]) -> None:
    """The group's tickets are seated: (ticket hash, table code, seat)."""
    with store.sessions.begin() as s:
        for h, code, seat in seats:
            s.execute(
                update(QuickplayRow)
                .where(QuickplayRow.ticket_hash == h)
                .values(status="seated", table_code=code, seat=seat)
            )


def _aware(at: dt.datetime) -> dt.datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=dt.UTC)
