"""``POST /api/tables/{code}/deals/{n}/replay`` — body ``{"token": …}``: a finished deal of a table's set in
progress, step by step (as ``GET /api/records/{id}/deals/{n}`` gives it once the set is over), for the
table's own players right after the deal ends.

The stored record of a set in progress is not served (it holds the set's seed, from which the deals to come
follow); this answer holds one finished deal's events and nothing of the deals to come.  Only a token that
holds a seat at the table gets it (403 otherwise); a deal not finished yet is 404 — at a duplicate match's
table, a deal the other table still plays too (its hands are in play there: :meth:`.table.Room.deals_shown`).

Each request is one of the seat's reads (the read limits, 429 past them); the replay is worked out once per
deal and state of the set, on a thread, a few at a time, and served from the replays' cache after
(:class:`.api.ReplayCache`): an 8-deck deal is ~500 KB of JSON."""

from __future__ import annotations

import functools
import gzip
from typing import TYPE_CHECKING, Any

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..errors import RequestError
from ..http.guard import client_of
from ..limits import read_json
from ..messages import schemas as S
from .api import GZIP_OVER, Replay, deal_steps, replays, send_replay

if TYPE_CHECKING:
    from ..tables.table import Room

MAX_BODY = 1024


async def _token(request: Request) -> str:
    data = await read_json(request, MAX_BODY)  # the one reader of JSON bodies: 413, 415 and 400 as everywhere
    return S.body(S.SeatToken, data).token


def _replay_bytes(out: dict[str, Any], events: list[dict[str, Any]]) -> Replay:
    """The replay as it is sent (on a thread): the deal's steps, as JSON, gzipped when large."""
    try:
        steps = deal_steps(events)
    except ValueError as e:
        raise RequestError(422, f"the deal does not replay: {e}") from None
    data = orjson.dumps({**out, "steps": steps}, option=orjson.OPT_NON_STR_KEYS)
    return Replay(data, gzip.compress(data, 6) if len(data) > GZIP_OVER else None)


def shown_deal(request: Request, token: str) -> tuple[Room, int, int]:
    """The open table of the request's ``{code}``, the seat ``token`` holds there and the request's ``{deal}``,
    once that deal may be shown to the table's players: the one check of a live replay and of a live 复盘.
    A table not open is 404, a token that holds no seat 403, then the request counts as one of the client's
    reads (429 past them), and a deal not over — or still played at the match's other table — is 404."""
    lobby = request.app.state.lobby
    room: Room | None = lobby.find(str(request.path_params["code"]), open_only=True)
    if room is None:
        raise RequestError(404, "no open table with this code")
    seat = room.seat_of_token(token)
    if seat is None:
        raise RequestError(403, "this token holds no seat at this table")
    lobby.reader.admit(client_of(request.scope))
    index = int(request.path_params["deal"])
    match = room.match
    if not 0 <= index < len(match.deals) or not match.deals[index].is_over:
        raise RequestError(404, f"the table has no finished deal {index}")
    if index >= room.deals_shown():
        raise RequestError(404, f"deal {index} is still played at the match's other table: wait until it ends")
    return room, seat, index


async def _replay(request: Request) -> Response:
    try:
        room, _, index = shown_deal(request, await _token(request))
        match = room.match
        deal = match.deals[index]
        players = room.players()
        out: dict[str, Any] = {
            "deal": index,
            "deals": sum(1 for d in match.deals if d.is_over),
            "set_length": getattr(match, "set_length", len(match.deals)),
            "rules": match.rules.name,
            "rule_options": match.rules.to_dict(),
            "places": deal.result()["places"],
            "points": list(match.points[index]) if index < len(match.points) else None,
            "totals": list(match.totals),
            "players": players,
            "table": room.code,
        }
        # what the answer depends on: the deal (over: it changes no more), how far the set is, who sits where
        key = ("table", room.id, index, len(match.points), orjson.dumps(players))
        cache = replays(request)
        replay = cache.get(key)
        if replay is None:
            events = list(deal.events)  # taken here, on the table's loop
            replay = await cache.make(key, functools.partial(_replay_bytes, out, events), keep=True)
    except RequestError as e:
        return JSONResponse({"error": e.message}, status_code=e.status, headers=e.headers())
    return send_replay(request, replay)


def table_replay_routes() -> list[BaseRoute]:
    return [Route("/api/tables/{code}/deals/{deal:int}/replay", _replay, methods=["POST"])]
