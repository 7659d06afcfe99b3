"""The hall's HTTP routes (issue 43; ``docs/protocol.md``, *The hall*).

- ``GET /api/hall`` → ``{tables: [{code, preset, seats, status, free}], online}``: the public tables of every
  shard (each seat ``{seat, nickname, bot, account, held, title?}``), a read of the client's, the same answer
  for everyone for :data:`HALL_CACHE` seconds;
- ``POST /api/quickplay {preset, bots}`` (signed in) → 202 ``{ticket}``; 401 a guest, 409 a ticket already;
- ``GET /api/quickplay/{ticket}`` → ``{status: "waiting"|"seated", table, seat, token}``; 404 a ticket that is
  not the account's (or gone: the queue survives no restart — queue again);
- ``DELETE /api/quickplay/{ticket}`` → 204 (out of the queue);
- ``GET /api/leaderboard`` (``?limit=`` up to 200) → ``{players: [{place, name, rating, title, games}], me}``;
- ``POST /api/me/blocks {name}``, ``DELETE /api/me/blocks/{name}``, ``GET /api/me/blocks`` → blocks;
- ``POST /api/reports {table, name, reason}`` → 201: a report for the operator (``gouji accounts reports``)."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...engine.rules import PRESETS
from ..accounts.api import services
from ..accounts.store import block, blocked_names, report
from ..errors import RequestError
from ..http.guard import client_of
from ..messages import schemas as S
from .service import seat_token, secret_of
from .store import hall_view, leaderboard, leave_queue, queue, ticket

Handler = Callable[[Request], Awaitable[Any]]
HALL_CACHE = 1.0
BOARD_CACHE = 5.0
MAX_TICKET = 64


class _Cached:
    """One answer for everyone for a while (each ask is still a read of its client's)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._kept: dict[Any, tuple[float, Any]] = {}

    async def get(self, key: Any, make: Callable[[], Awaitable[Any]]) -> Any:
        found = self._kept.get(key)
        if found is not None and time.monotonic() - found[0] < self.seconds:
            return found[1]
        value = await make()
        if len(self._kept) > 100:
            self._kept.clear()
        self._kept[key] = (time.monotonic(), value)
        return value


def _hash(ticket_text: str) -> str:
    return hashlib.sha256(ticket_text.encode()).hexdigest()


def hall_routes(
    wrap: Callable[[Handler], Callable[[Request], Awaitable[Response]]], read_body: Handler
) -> list[BaseRoute]:
    """The hall's routes, wrapped by the app's JSON error handling, reading bodies with the app's reader."""
    hall_cache, board_cache = _Cached(HALL_CACHE), _Cached(BOARD_CACHE)

    async def hall(request: Request) -> Any:
        lobby = request.app.state.lobby
        lobby.reader.admit(client_of(request.scope))
        store = lobby.writer.store
        return await hall_cache.get("hall", lambda: lobby.reader.call(None, hall_view, store))

    async def quickplay(request: Request) -> Response:
        lobby, sessions, _ = services(request)
        req = S.body(S.QuickPlay, await read_body(request))  # (a body refused first: 400 whoever asks)
        account = await sessions.require(request, lobby)
        if req.preset not in PRESETS:  # pragma: no cover - the schema lists them
            raise RequestError(400, f"preset: no preset {req.preset!r}")
        secret_ticket = secrets.token_urlsafe(24)
        shard = str(lobby.settings.shard)
        store = lobby.writer.store
        if not await lobby.writer.call(
            queue, store, _hash(secret_ticket), account.id, account.name, req.preset, req.bots, shard
        ):
            raise RequestError(409, "you are in a quick play queue already: leave it first")
        return JSONResponse({"ticket": secret_ticket, "preset": req.preset, "bots": req.bots}, status_code=202)

    async def _mine(request: Request) -> tuple[Any, Any, str, dict[str, Any]]:
        lobby, sessions, _ = services(request)
        account = await sessions.require(request, lobby)
        text = str(request.path_params["ticket"])
        h = _hash(text) if len(text) <= MAX_TICKET else ""
        found = await lobby.reader.call(client_of(request.scope), ticket, lobby.writer.store, h) if h else None
        if found is None or found["account_id"] != account.id:
            raise RequestError(404, "no such ticket (the queue may have restarted: queue again)")
        return lobby, account, h, found

    async def ticket_status(request: Request) -> Any:
        lobby, _, h, found = await _mine(request)
        out = {k: found[k] for k in ("status", "table", "seat", "preset", "since")}
        if found["status"] == "seated":
            out["token"] = seat_token(secret_of(lobby.settings), h)
        return out

    async def leave(request: Request) -> Response:
        lobby, account, h, _ = await _mine(request)
        await lobby.writer.call(leave_queue, lobby.writer.store, h, account.id)
        return Response(status_code=204)

    async def board(request: Request) -> Any:
        lobby, sessions, _ = services(request)
        lobby.reader.admit(client_of(request.scope))
        raw = request.query_params.get("limit", "50")
        limit = int(raw) if raw.isdigit() else 50
        limit = max(1, min(200, limit))
        account = await sessions.account(request, lobby)
        me = account.name if account is not None else None
        store = lobby.writer.store
        return await board_cache.get((limit, me), lambda: lobby.reader.call(None, leaderboard, store, limit, me))

    async def blocks(request: Request) -> Any:
        lobby, sessions, _ = services(request)
        if request.method == "POST":
            name, on = S.body(S.BlockBody, await read_body(request)).name, True
        else:
            name, on = str(request.path_params.get("name", "")), False
        account = await sessions.require(request, lobby)
        if request.method == "GET":
            names = await lobby.reader.call(None, blocked_names, lobby.writer.store, account.id)
            return {"blocks": names}
        if not await lobby.writer.call(block, lobby.writer.store, account.id, name, on):
            raise RequestError(404, f"no account {name!r} to block")
        return {"blocks": await lobby.reader.call(None, blocked_names, lobby.writer.store, account.id)}

    async def report_(request: Request) -> Any:
        lobby, sessions, _ = services(request)
        req = S.body(S.ReportBody, await read_body(request))
        account = await sessions.require(request, lobby)
        room = lobby.find(req.table)
        if room is None or not any(s.nickname == req.name for s in room.seats):
            raise RequestError(404, f"nobody called {req.name!r} sits at table {req.table!r}")
        sessions.throttle(sessions.reports, account.id, "reports")
        await lobby.writer.call(report, lobby.writer.store, account.id, req.name, room.code, req.reason.strip())
        return {"reported": req.name, "table": room.code}

    report_.creates = True  # type: ignore[attr-defined]
    return [
        Route("/api/hall", wrap(hall), methods=["GET"]),
        Route("/api/quickplay", wrap(quickplay), methods=["POST"]),
        Route("/api/quickplay/{ticket}", wrap(ticket_status), methods=["GET"]),
        Route("/api/quickplay/{ticket}", wrap(leave), methods=["DELETE"]),
        Route("/api/leaderboard", wrap(board), methods=["GET"]),
        Route("/api/me/blocks", wrap(blocks), methods=["GET", "POST"]),
        Route("/api/me/blocks/{name}", wrap(blocks), methods=["DELETE"]),
        Route("/api/reports", wrap(report_), methods=["POST"]),
    ]
