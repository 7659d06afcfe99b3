"""What a shard does for the hall every :data:`TICK` seconds (a task of the event loop, its database work on the
writer): write its public tables as they are now and its online count, and seat one group from the quick play
queue at a new table of its own.

A quick play seat's token is never stored: it is an HMAC of the ticket's hash with the server's secret (every
shard has the same: ``docs/shards.md``), so whichever shard the person asks hands it over
(:func:`seat_token`)."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import hashlib
import hmac
import logging
import random
import time
from typing import Any

from ..config import parse_table_request
from ..http.connection import token_hash
from ..private import PROCESS_SECRET
from ..tables.table import Room, new_token
from .store import empty_queue, seated, sync_hall, take_group

log = logging.getLogger("gouji.server")

TICK = 0.5
ONLINE_EVERY = 5.0
"""Seconds between two writes of the online count when nothing else changed."""
FILL_BOT = "heuristic"
"""Who fills quick play's empty seats: 高手."""


def secret_of(settings: Any) -> bytes:
    """The server's secret (:mod:`..private`; a lobby built without one: this process's)."""
    return settings.secret if settings.secret is not None else PROCESS_SECRET


def seat_token(secret: bytes, ticket_hash: str) -> str:
    """The token of the seat a quick play ticket was given."""
    digest = hmac.new(secret, b"quickplay " + ticket_hash.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


class HallService:
    """A shard's part of the hall: its public tables written, its online count, its matcher."""

    def __init__(self, lobby: Any) -> None:
        self.lobby = lobby
        self.fill_seconds: float = lobby.settings.quickplay_fill_seconds
        self._written: dict[str, tuple[Any, ...]] = {}
        self._online_at = 0.0
        self._online = -1
        self._task: asyncio.Task[None] | None = None
        self._first = True
        self.shard_name = str(lobby.settings.shard)
        self._rng = random.Random()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        await self.lobby.writer.call(empty_queue, self.lobby.writer.store, self.shard_name)
        while True:
            try:
                await self.sync()
                while await self.match():
                    pass
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup: the next tick tries again
                log.exception("the hall's tick failed")
            await asyncio.sleep(TICK)

    async def sync(self) -> None:
        """Write what changed of this shard's public tables, and its online count."""
        lobby = self.lobby
        now: dict[str, tuple[Any, ...]] = {}
        rows = []
        online = 0
        for room in list(lobby.rooms.values()):
            online += len(room.conns)
            if not room.config.in_hall or room.status not in ("waiting", "playing"):
                continue
            seats = [
                {"seat": s.index, "nickname": s.nickname, "bot": s.bot, "account": s.account is not None}
                | {"held": s.bot is not None or s.nickname is not None}
                for s in room.seats
            ]
            sig = (room.status, tuple(tuple(sorted(x.items())) for x in seats))
            now[room.code] = sig
            if self._written.get(room.code) != sig:
                rows.append({"code": room.code, "preset": room.config.preset, "status": room.status, "seats": seats})
        gone = [c for c in self._written if c not in now]
        stale = time.monotonic() - self._online_at > ONLINE_EVERY
        if rows or gone or self._first or online != self._online or stale:
            mine = lobby.settings.shard.letters if self._first else None
            await lobby.writer.call(sync_hall, lobby.writer.store, self.shard_name, online, rows, gone, mine)
            self._written, self._first, self._online, self._online_at = now, False, online, time.monotonic()

    async def match(self) -> bool:
        """Seat one group from the queue, if one is ready; whether one was."""
        lobby = self.lobby
        store = lobby.writer.store
        if len(lobby.rooms) >= lobby.max_tables:
            return False  # (the queue waits for room)
        group = await lobby.writer.call(take_group, store, self.fill_seconds)
        if not group:
            return False
        preset = group[0]["preset"]
        seats = list(range(6))
        self._rng.shuffle(seats)
        people = dict(zip(seats, group, strict=False))
        bots = [None if s in people else FILL_BOT for s in range(6)]
        st = lobby.settings
        request = {"preset": preset, "bots": bots, "public": True}
        config = parse_table_request(request, st.turn_seconds, st.bot_delay, st.ready_seconds)
        config = dataclasses.replace(config, seed=st.seeds())  # (stored with its seed: a restart replays it)
        code = await lobby.new_code()
        owner = token_hash(new_token())  # (nobody closes a table of quick play: it plays to its end)
        table_id = await lobby.writer.call(store.create_table, code, config.to_dict(), owner, None)
        room = Room(table_id, code, config, owner, lobby.writer, st)
        lobby.keep(room)
        for seat, person in people.items():
            token = seat_token(secret_of(st), person["ticket_hash"])
            room.commit(
                "join", seat, {"nickname": person["name"], "token_hash": token_hash(token), "account": person["name"]}
            )
        room.commit("start")
        await lobby.writer.call(seated, store, [(p["ticket_hash"], code, seat) for seat, p in people.items()])
        log.info("quick play seated %d at table %s (%s)", len(people), code, preset)
        return True
