"""The lobby: every table in memory by join code, and the operations of the HTTP API on them (create, join,
leave, close) and the restore of the open tables at startup.

What the lobby holds is bounded: a client (an IP address) may create tables only so fast and have only so
many waiting for players at once; a table waiting for players closes after an idle time (a restored one
counts from its last stored change); a finished table stays in memory a short while for the clients watching
it and is then let go — its data and records are served from storage (:class:`~.limits.Limits`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import hashlib
import hmac
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..engine.deal import IllegalAction
from ..engine.seats import SEATS
from .config import parse_table_request, valid_nickname
from .errors import RequestError
from .halls import Hall, Halls, is_hall_row
from .http.connection import token_hash
from .limits import PerClient
from .messages import protocol as P
from .messages.schemas import name_key
from .private import PROCESS_SECRET
from .settings import ServerSettings
from .storage import RecordOp, StatusOp, StoredTable
from .storage.durability import StoreWriter
from .storage.reads import Reader
from .tables.table import Room, new_token

log = logging.getLogger("gouji.server")


def client_key(client: str, secret: bytes | None = None) -> str:
    """Who created a table, as the lobby counts it and stores it with the table (so its caps hold after a
    restart): a pseudonym of the client (:func:`.guard.client_of`), never shown, that no table's data carries —
    an HMAC keyed with the server's secret, kept outside the database (:mod:`.private`), so a copy of the
    database does not tell who created what (without ``secret``, this process's own key)."""
    key = PROCESS_SECRET if secret is None else secret
    return hmac.new(key, client.encode("utf-8", "replace"), hashlib.sha256).hexdigest()[:32]


NOBODY_CAME = "nobody came: the table waited too long for players"
NOBODY_PLAYS = "nobody played: the table's people were away too long"

RestoreHalls = Callable[["Lobby", list[StoredTable]], Awaitable[None]]
"""Restores the halls among the stored rows (:func:`.tournaments.events.restore_halls`)."""


class Lobby:
    """Every table in memory, by join code, and the operations of the HTTP API on them; the halls
    (:attr:`halls`) besides."""

    def __init__(self, writer: StoreWriter, settings: ServerSettings | None = None) -> None:
        self.writer = writer
        self.settings = settings = settings or ServerSettings()
        self.limits = lim = settings.limits
        self.reader = Reader(writer.store, lim)
        """The reads of the HTTP API, on connections of their own (:mod:`.reads`)."""
        self._creates = PerClient(lim.create_rate, lim.create_burst)
        self._seat_moves = PerClient(lim.seat_rate, lim.seat_burst)
        self._creator: dict[str, str] = {}
        """Join code → who created the table (:func:`client_key`), for every table in memory a client created
        (by any door: a table, a match, an event's match), to count its open tables."""
        self._sweeper: asyncio.Task[None] | None = None
        self._letting_go: dict[str, asyncio.TimerHandle] = {}
        """Join code → the timer that lets a finished table go."""
        self.rooms: dict[str, Room] = {}
        """Every table in memory by its join code (a match's two tables too)."""
        self.halls = Halls()
        """The duplicate matches and the events in memory (:mod:`.halls`)."""

    @property
    def max_tables(self) -> int:
        return self.settings.max_tables

    async def restore(self, restore_halls: RestoreHalls | None = None) -> int:
        """Load every open table from the store, and the halls through ``restore_halls``; returns how many
        tables are in play or waiting again.

        A table whose stored moves end its set (or a finished deal without its record — a database written
        before records went into the move's own transaction) gets what is missing rebuilt from its moves and
        stored, and a finished table is marked ``over`` and not kept in memory."""
        shard = self.settings.shard
        mine = shard.letters if shard.count > 1 else None  # (the other shards restore theirs)
        stored = await self.writer.call(self.writer.store.open_tables, mine)
        halls = [st for st in stored if is_hall_row(st.config)]
        for st in stored:
            if is_hall_row(st.config):
                continue
            try:
                room = Room.replay(st, self.writer, self.settings)
            except (IllegalAction, ValueError, KeyError, TypeError):
                log.exception("table %s cannot be restored", st.code)
                continue
            missing = self._missing_records(room, st)
            if missing:
                await self.writer.call(self.writer.store.write_batch, missing)
                log.info("table %s: rebuilt %d writes from its stored moves", room.code, len(missing))
            if room.status == "over":
                continue
            self.restored(room, st)
            self.keep(room)
            room.start_timers()
        if restore_halls is not None:
            await restore_halls(self, halls)
        return len(self.rooms)

    @staticmethod
    def since(st: StoredTable) -> float:
        """When a stored table last changed, on the monotonic clock (now if it says nothing)."""
        now = time.monotonic()
        if st.last_change is None:
            return now
        return now - max(0.0, (dt.datetime.now(dt.UTC) - st.last_change).total_seconds())

    def restored(self, room: Room, st: StoredTable) -> None:
        """What the lobby knows again of a restored table: when it last changed (its idle time counts from
        its last stored change) and who created it."""
        room.last_change = self.since(st)
        if st.creator is not None:
            self._creator[room.code] = st.creator

    @staticmethod
    def _missing_records(room: Room, st: StoredTable) -> list[RecordOp | StatusOp]:
        out: list[RecordOp | StatusOp] = [
            RecordOp(room.id, kind, index, players, body)
            for kind, index, body, players in room.replayed_records
            if (kind, index) not in st.records
        ]
        if room.status in ("over", "closed"):
            out.append(StatusOp(room.id, room.status))
        room.replayed_records = []
        return out

    def keep(self, room: Room, creator: str | None = None, let_go_when_over: bool = True) -> None:
        """Hold a table in memory (``creator``: who created it, :func:`client_key`, counted among its open
        tables); once the end of its set is stored and sent, it is let go later — unless its hall lets it go
        (``let_go_when_over=False``: a match's table, :meth:`hall_finished`)."""
        self.rooms[room.code] = room
        if creator is not None:
            self._creator[room.code] = creator
        if let_go_when_over:
            room.on_over = self._finished

    def hall_finished(self, hall: Hall) -> None:
        """A hall (a match) ended: later its tables leave memory like a finished table, and its page is read
        from storage."""

        def go() -> None:
            for room in hall.tables:
                self.let_go(room)
            self.halls.remove(hall)

        asyncio.get_running_loop().call_later(self.limits.over_seconds, go)

    def _finished(self, room: Room) -> None:
        self._letting_go[room.code] = asyncio.get_running_loop().call_later(self.limits.over_seconds, self.let_go, room)

    def let_go(self, room: Room) -> None:
        """A finished table leaves memory: its connections are closed, storage serves it from now on."""
        handle = self._letting_go.pop(room.code, None)
        if handle is not None:
            handle.cancel()
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            room.shut("the set is over")
        self._forget(room.code)

    def _forget(self, code: str) -> None:
        """What the lobby keeps about a table that left memory."""
        self._creator.pop(code, None)
        for seat in range(SEATS):
            self._seat_moves.forget((code, seat))

    def start(self) -> None:
        """Start closing waiting tables that stay idle too long (a task of the running loop)."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        every = max(0.05, min(5.0, self.limits.waiting_seconds / 4))
        while True:
            await asyncio.sleep(every)
            self.expire_idle()

    def expire_idle(self) -> list[str]:
        """Close every waiting table without a change for :attr:`Limits.waiting_seconds`, and every table in
        play whose people have all been away that long (:meth:`.table.Room.abandoned`; its finished deals'
        records stay) — a match is closed whole, when a table of it waits that long or both are abandoned;
        their codes."""
        cutoff = time.monotonic() - self.limits.waiting_seconds
        idle = [r for r in self.rooms.values() if r.status == "waiting" and r.last_change < cutoff]
        left = [r for r in self.rooms.values() if r.abandoned(cutoff)]
        gone: list[Room] = []
        closing = [(r, "idle", NOBODY_CAME) for r in idle] + [(r, "abandoned", NOBODY_PLAYS) for r in left]
        for room, by, reason in closing:
            if room.expires_when_idle:
                room.commit("close", None, {"by": by})
                room.shut(reason)
                del self.rooms[room.code]
                self._forget(room.code)
                gone.append(room)
        halls: dict[str, tuple[Hall, str, str]] = {}
        for r in idle:
            hall = self.halls.owning(r.code)  # (a table of a match)
            if hall is not None:
                halls[hall.code] = (hall, "idle", "nobody came: the match waited too long for players")
        for r in left:
            hall = self.halls.owning(r.code)
            if hall is not None and all(t.abandoned(cutoff) for t in hall.tables if t.status == "playing"):
                halls[hall.code] = (hall, "abandoned", "nobody played: the match's people were away too long")
        for h in self.halls:
            if h.expired(cutoff):
                halls[h.code] = (h, "idle", "nothing was started: the event waited too long")
        for hall, by, reason in halls.values():
            if self.halls.holds(hall):
                self.close_hall(hall, by, reason)
        if gone or halls:
            log.info("closed %d idle or abandoned tables and %d matches", len(gone), len(halls))
        return [r.code for r in gone] + [r.code for h, _, _ in halls.values() for r in h.tables]

    def close_hall(self, hall: Hall, by: str, reason: str) -> None:
        """Close a hall that has not ended (its organiser's wish, or a match waited too long for players):
        its tables and its row (:meth:`.halls.Hall.close_ops`: in its event, a match's fixture may be started
        again)."""
        for room in hall.tables:
            if self.rooms.get(room.code) is room:
                if room.status in ("waiting", "playing"):
                    room.commit("close", None, {"by": by})
                room.shut(reason)
                del self.rooms[room.code]
            self._forget(room.code)
        self.writer.commit(hall.close_ops(), lambda: None)
        self.halls.remove(hall)

    def open_tables(self, key: str) -> tuple[int, int]:
        """How many tables created by ``key`` (:func:`client_key`) wait for players, and how many are open
        (waiting or in play)."""
        waiting = open_ = 0
        for code, k in self._creator.items():
            room = self.rooms.get(code) if k == key else None
            if room is not None and room.status in ("waiting", "playing"):
                open_ += 1
                waiting += room.status == "waiting"
        return waiting, open_

    def admit(self, client: str, tables: int, event: tuple[str, int] | None = None) -> str:
        """A creation by ``client`` (its address) of ``tables`` tables, by any door — a table, a match, an
        event's match (``event``: the event's code and how many tables of its matches are open now), or none
        (an event, a match of bots played at once): refused (429) when the client has too many tables waiting
        or open, the event too many open, or the client creates too fast; (503) when the server holds as many
        tables as it can.  Returns the client's :func:`client_key`."""
        key = client_key(client, self.settings.secret)
        lim = self.limits
        waiting, open_ = self.open_tables(key) if tables else (0, 0)
        if tables and waiting + tables > lim.waiting_per_client:
            raise RequestError(
                429, f"you have {waiting} tables waiting for players: start or close one before creating another"
            )
        if open_ + tables > lim.tables_per_client:
            raise RequestError(
                429, f"you have {open_} open tables (at most {lim.tables_per_client}): finish or close one first"
            )
        if event is not None and tables:
            event_code, in_play = event
            if in_play + tables > lim.tables_per_event:
                raise RequestError(
                    429,
                    f"event {event_code} has {in_play} tables open (at most {lim.tables_per_event}): "
                    "finish or close one of its matches first",
                )
        if not self._creates.take(client):
            raise RequestError(429, "too many tables, matches or events created: wait a little before creating another")
        if len(self.rooms) + tables > self.max_tables:
            raise RequestError(503, "the server has as many tables as it can hold")
        return key

    def find(self, code: str, open_only: bool = False) -> Room | None:
        """The table held under ``code`` (in any case), or None — also for a closed one with ``open_only``."""
        room = self.rooms.get(code.upper())
        if room is None or (open_only and room.status == "closed"):
            return None
        return room

    def room(self, code: str) -> Room:
        """The open table under ``code``, or a 404 :class:`RequestError`."""
        room = self.find(code, open_only=True)
        if room is None:
            raise RequestError(404, f"no open table {code!r}")
        return room

    async def new_code(self) -> str:
        """A join code no table, match or event has (in memory or stored)."""
        for _ in range(20):
            code = self.settings.shard.new_code()  # (a code of this shard's: its first character names it)
            if code not in self.rooms and not await self.writer.call(self.writer.store.code_taken, code):
                return code
        raise RequestError(503, "no free join code; try again")  # pragma: no cover

    async def create(self, data: Any, client: str = "", account: str | None = None) -> dict[str, Any]:
        """``POST /api/tables``: a new table; with ``nickname`` (and ``seat``) the creator takes a seat.
        ``client`` (its address) is limited in how fast it creates tables and how many may wait at once."""
        st = self.settings
        config = parse_table_request(data, st.turn_seconds, st.bot_delay, st.ready_seconds)
        config = dataclasses.replace(config, seed=st.seeds())
        nickname = valid_nickname(data["nickname"]) if data.get("nickname") is not None else None
        key = self.admit(client, 1)
        code = await self.new_code()
        owner = new_token()
        store = self.writer.store
        table_id = await self.writer.call(store.create_table, code, config.to_dict(), token_hash(owner), key)
        room = Room(table_id, code, config, token_hash(owner), self.writer, st)
        self.keep(room, key)
        out: dict[str, Any] = {"code": code, "owner_token": owner}
        if nickname is not None:
            out.update(await self.join(code, nickname, data.get("seat"), client, account=account))
        self._start_if_full(room)
        table = room.public()
        await self.writer.drain()
        out["table"] = table
        return out

    def _start_if_full(self, room: Room) -> None:
        if room.status == "waiting" and not any(s.bot is None and s.nickname is None for s in room.seats):
            room.commit("start")

    def _seat_move(self, client: str, room: Room, seat: int) -> None:
        """A join or leave by ``client`` at ``seat``: refused (429) when either moves too often."""
        if not self._seat_moves.take(client) or not self._seat_moves.take((room.code, seat)):
            raise RequestError(429, "seats are taken and left too often: wait a little")

    async def join(
        self,
        code: str,
        nickname: str,
        want: int | None = None,
        client: str = "",
        by_team: bool = False,
        account: str | None = None,
    ) -> dict[str, Any]:
        """``POST /api/tables/{code}/join``: take a seat (``want``, else the first free one) by nickname (one
        the request's schema checked: :class:`.schemas.JoinTable`); returns the seat and its secret token.
        A match's table is sat at only with a team's join code (``by_team``: :func:`.tournaments.duplicate.join_team`).
        ``account``: the name of the account the request is signed in as — the seat is the account's when the
        nickname is that name (:func:`.schemas.name_key`), a guest's otherwise."""
        room = self.room(code)
        if room.seated_by_team and not by_team:
            raise RequestError(403, "a seat at a match's table is taken with its team's join code")
        if room.status == "over":
            raise RequestError(409, "the set at this table is over")
        if any(s.nickname == nickname for s in room.seats):
            raise RequestError(409, f"{nickname!r} already sits at this table")
        if want is not None:
            s = room.seats[want]
            if s.bot is not None:
                raise RequestError(409, f"seat {want} is a bot's")
            if s.nickname is not None:
                raise RequestError(409, f"seat {want} is taken")
            seat = want
        else:
            free = [s.index for s in room.seats if s.bot is None and s.nickname is None]
            if not free:
                raise RequestError(409, "every seat is taken")
            seat = free[0]
        self._seat_move(client, room, seat)
        token = new_token()
        data = {"nickname": nickname, "token_hash": token_hash(token)}
        if account is not None and name_key(account) == name_key(nickname):
            data["account"] = account
        room.commit("join", seat, data)
        self._start_if_full(room)
        await self.writer.drain()
        return {"code": room.code, "seat": seat, "token": token}

    async def leave(self, code: str, data: Any, client: str = "") -> dict[str, Any]:
        """``POST /api/tables/{code}/leave``: give up the seat the token holds."""
        room = self.room(code)
        token = data.get("token") if isinstance(data, dict) else None
        if not isinstance(token, str) or (seat := room.seat_of_token(token)) is None:
            raise RequestError(403, "this token holds no seat at this table")
        self._seat_move(client, room, seat)
        room.commit("leave", seat)
        for conn in [c for c in room.conns if c.seat == seat]:
            conn.send(P.closed_frame(room.code, "left"))
            conn.end()
            room.detach(conn)
        await self.writer.drain()
        return {"code": room.code, "seat": seat, "left": True}

    async def close(self, code: str, data: Any) -> dict[str, Any]:
        """``POST /api/tables/{code}/close``: the creator closes the table."""
        room = self.room(code)
        token = data.get("owner_token") if isinstance(data, dict) else None
        if not isinstance(token, str) or not hmac.compare_digest(token_hash(token), room.owner_hash):
            raise RequestError(403, "only the table's creator can close it")
        room.commit("close")
        room.shut("closed by its creator")
        del self.rooms[room.code]
        self._forget(room.code)
        await self.writer.drain()
        return {"code": room.code, "closed": True}

    def account_seats(self, account: str) -> list[dict[str, Any]]:
        """The seats the account holds at the open tables in this server's memory (to go back to)."""
        return [
            {"code": r.code, "seat": s.index, "status": r.status, "preset": r.config.preset}
            for r in self.rooms.values()
            if r.status in ("waiting", "playing")
            for s in r.seats
            if s.account == account
        ]

    def shutdown(self) -> None:
        """Stop every timer and close every connection (the tables stay stored)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for room in self.rooms.values():
            room.shut("server restart")
        self.reader.close()
