"""The server's tables as SQLAlchemy 2 models (the schema itself is made by the Alembic migrations in
``server/migrations``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Base(DeclarativeBase):
    """The declarative base of the server's models."""


class TableRow(Base):
    """A table: its join code, configuration and status."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    owner_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    creator: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """Who created it: an HMAC of the client (:func:`.lobby.client_key`), for its caps after a restart."""


class EventRow(Base):
    """One change of a table, numbered by the state number it produced."""

    __tablename__ = "table_events"
    __table_args__ = (UniqueConstraint("table_id", "state", name="uq_table_events_state"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))  # (found through uq_table_events_state)
    state: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RecordRow(Base):
    """A finished deal or set, as its record document."""

    __tablename__ = "records"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    kind: Mapped[str] = mapped_column(String(8))
    deal_index: Mapped[int | None] = mapped_column(Integer, nullable=True)
    players: Mapped[list[Any]] = mapped_column(JSON)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RecordSummaryRow(Base):
    """What a list of games shows of a record, in a narrow table of its own (migration 0004): a list reads
    these rows and never a record's body — which SQLite stores in the record's row, where reading any column
    after it walks the body's pages (a list of 40 large records took 110 ms for its totals)."""

    __tablename__ = "record_summaries"

    record_id: Mapped[int] = mapped_column(ForeignKey("records.id"), primary_key=True)
    table_id: Mapped[int] = mapped_column(Integer, index=True)
    kind: Mapped[str] = mapped_column(String(8))
    deal_index: Mapped[int | None] = mapped_column(Integer, nullable=True)
    players: Mapped[list[Any]] = mapped_column(JSON)
    totals: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RecordPlayerRow(Base):
    """A nickname at a seat of a stored record."""

    __tablename__ = "record_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    record_id: Mapped[int] = mapped_column(ForeignKey("records.id"), index=True)
    nickname: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)


class AccountRow(Base):
    """An account (issue 42): its name as tables show it, the same name folded (NFKC, case folded: unique),
    its password's Argon2id hash; disabled by the operator, or deleted (its name held a while, then freed)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    deleted_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AccountSessionRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie's token (never the token), its account, when it
    was made and last used (it expires unused)."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    used_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class AccountStatsRow(Base):
    """An account's statistics in one preset (:mod:`gouji.competition.stats`' counters), added to in the
    transaction that stores each record it played in."""

    __tablename__ = "account_stats"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    preset: Mapped[str] = mapped_column(String(32), primary_key=True)
    counters: Mapped[dict[str, Any]] = mapped_column(JSON)


class RatingRow(Base):
    """An account's rating (:mod:`gouji.competition.ratings`): ``mu ± sigma``, the ordinal ``mu − 3 sigma`` the
    leaderboard sorts by, its rated games, and whether it has played enough to be listed."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "listed", "ordinal"),)

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    listed: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RatingHistoryRow(Base):
    """One rated result of an account: its shown rating after it."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    rating: Mapped[int] = mapped_column(Integer)
    table_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class HallTableRow(Base):
    """A public table as the hall lists it (the database is where the shards meet): written by the shard that
    holds the table at each change of its seats or status, removed when it ends."""

    __tablename__ = "hall_tables"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    preset: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    seats: Mapped[list[Any]] = mapped_column(JSON)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now, index=True)


class HallOnlineRow(Base):
    """How many connections a shard has open (the hall's "online"), written every few seconds."""

    __tablename__ = "hall_online"

    shard: Mapped[str] = mapped_column(String(32), primary_key=True)
    online: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class QuickplayRow(Base):
    """A signed-in person waiting for a table of a preset (快速开始): its ticket (the SHA-256 of the secret the
    person holds), rating, whether bots may fill; once seated, the table and the seat."""

    __tablename__ = "quickplay"
    __table_args__ = (Index("ix_quickplay_waiting", "status", "preset", "created_at"),)

    ticket_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    ordinal: Mapped[float] = mapped_column(Float)
    preset: Mapped[str] = mapped_column(String(32))
    bots: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16))
    table_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    shard: Mapped[str] = mapped_column(String(32))
    """The shard that took the ticket: its restart empties what it took (the queue survives no restart)."""
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class BlockRow(Base):
    """An account blocked another: quick play never seats them together, and its page hides their phrases."""

    __tablename__ = "blocks"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)


class ReportRow(Base):
    """A report of a player at a table, for the operator (``gouji accounts reports``)."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    reported: Mapped[str] = mapped_column(String(64))
    table_code: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(300))
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ReviewRow(Base):
    """A finished 复盘 review (issue 44), kept so that a restart does not work it out again: by the deal it
    reviews (the stored table whose records hold the deal, the deal, a match's table, the seat:
    :func:`gouji.server.review.stored.deal_key`, migration 0008), the review as the server answers it."""

    __tablename__ = "reviews"

    key: Mapped[str] = mapped_column(String(96), primary_key=True)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
