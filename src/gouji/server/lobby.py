"""The lobby: every table in memory by join code, and the operations of the HTTP API on them (create, join,
leave, close) and the restore of the open tables at startup."""

from __future__ import annotations

import hmac
import logging
import secrets
from typing import Any

from ..deal import SEATS, IllegalAction
from . import protocol as P
from .config import parse_table_request, valid_nickname
from .durability import Writer
from .errors import RequestError
from .table import Room, new_token, token_hash

log = logging.getLogger("gouji.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Join codes: no 0/O, 1/I/L, so a code read aloud or copied by hand comes through."""
CODE_LENGTH = 6


class Lobby:
    """Every table in memory, by join code, and the operations of the HTTP API on them."""

    def __init__(
        self,
        writer: Writer,
        default_turn: float | None = 30.0,
        default_bot_delay: float = 0.5,
        max_tables: int = 2000,
        default_ready: float | None = None,
    ) -> None:
        self.writer = writer
        self.rooms: dict[str, Room] = {}
        self.default_turn = default_turn
        self.default_bot_delay = default_bot_delay
        self.default_ready = default_ready
        """The ready timeout between two deals of tables created without one (None: their turn time)."""
        self.max_tables = max_tables

    async def restore(self) -> int:
        """Load every open table from the store; returns how many."""
        stored = await self.writer.call(self.writer.store.open_tables)
        for st in stored:
            try:
                room = Room.replay(st, self.writer)
            except (IllegalAction, ValueError, KeyError, TypeError):
                log.exception("table %s cannot be restored", st.code)
                continue
            self.rooms[room.code] = room
            room.start_timers()
        return len(stored)

    def room(self, code: str) -> Room:
        room = self.rooms.get(code.upper())
        if room is None or room.status == "closed":
            raise RequestError(404, f"no open table {code!r}")
        return room

    async def _new_code(self) -> str:
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and not await self.writer.call(self.writer.store.code_taken, code):
                return code
        raise RequestError(503, "no free join code; try again")  # pragma: no cover

    async def create(self, data: Any) -> dict[str, Any]:
        """``POST /api/tables``: a new table; with ``nickname`` (and ``seat``) the creator takes a seat."""
        config = parse_table_request(data, self.default_turn, self.default_bot_delay, self.default_ready)
        if sum(1 for r in self.rooms.values() if r.status in ("waiting", "playing")) >= self.max_tables:
            raise RequestError(503, "the server has as many tables as it can hold")
        nickname = valid_nickname(data["nickname"]) if data.get("nickname") is not None else None
        code = await self._new_code()
        owner = new_token()
        table_id = await self.writer.call(self.writer.store.create_table, code, config.to_dict(), token_hash(owner))
        room = Room(table_id, code, config, token_hash(owner), self.writer)
        self.rooms[code] = room
        out: dict[str, Any] = {"code": code, "owner_token": owner}
        if nickname is not None:
            out.update(await self.join(code, {"nickname": nickname, "seat": data.get("seat")}))
        if room.status == "waiting" and not any(s.bot is None and s.nickname is None for s in room.seats):
            room.commit("start")
        await self.writer.drain()
        out["table"] = room.public()
        return out

    async def join(self, code: str, data: Any) -> dict[str, Any]:
        """``POST /api/tables/{code}/join``: take a seat by nickname; returns the seat and its secret token."""
        room = self.room(code)
        if not isinstance(data, dict):
            raise RequestError(400, "the request body is a JSON object")
        nickname = valid_nickname(data.get("nickname"))
        if room.status == "over":
            raise RequestError(409, "the set at this table is over")
        if any(s.nickname == nickname for s in room.seats):
            raise RequestError(409, f"{nickname!r} already sits at this table")
        want = data.get("seat")
        if want is not None:
            if isinstance(want, bool) or not isinstance(want, int) or not 0 <= want < SEATS:
                raise RequestError(400, "seat must be 0-5")
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
        token = new_token()
        room.commit("join", seat, {"nickname": nickname, "token_hash": token_hash(token)})
        if room.status == "waiting" and not any(s.bot is None and s.nickname is None for s in room.seats):
            room.commit("start")
        await self.writer.drain()
        return {"code": room.code, "seat": seat, "token": token}

    async def leave(self, code: str, data: Any) -> dict[str, Any]:
        """``POST /api/tables/{code}/leave``: give up the seat the token holds."""
        room = self.room(code)
        token = data.get("token") if isinstance(data, dict) else None
        if not isinstance(token, str) or (seat := room.seat_of_token(token)) is None:
            raise RequestError(403, "this token holds no seat at this table")
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
        await self.writer.drain()
        return {"code": room.code, "closed": True}

    def shutdown(self) -> None:
        """Stop every timer and close every connection (the tables stay stored)."""
        for room in self.rooms.values():
            room.shut("server restart")
