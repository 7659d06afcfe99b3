"""``POST /api/tables/{code}/deals/{n}/replay`` — body ``{"token": …}``: a finished deal of a table's set in
progress, step by step (as ``GET /api/records/{id}/deals/{n}`` gives it once the set is over), for the
table's own players right after the deal ends.

The stored record of a set in progress is not served (it holds the set's seed, from which the deals to come
follow); this answer holds one finished deal's events and nothing of the deals to come.  Only a token that
holds a seat at the table gets it (403 otherwise); a deal not finished yet is 404."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from . import schemas as S
from .errors import RequestError
from .limits import read_json
from .replay_api import deal_steps

MAX_BODY = 1024


async def _token(request: Request) -> str:
    data = await read_json(request, MAX_BODY)  # the one reader of JSON bodies: 413, 415 and 400 as everywhere
    return S.body(S.SeatToken, data).token


async def _replay(request: Request) -> Response:
    try:
        token = await _token(request)
        room = request.app.state.lobby.find(str(request.path_params["code"]), open_only=True)
        if room is None:
            raise RequestError(404, "no open table with this code")
        if room.seat_of_token(token) is None:
            raise RequestError(403, "this token holds no seat at this table")
        index = int(request.path_params["deal"])
        match = room.match
        if not 0 <= index < len(match.deals) or not match.deals[index].is_over:
            raise RequestError(404, f"the table has no finished deal {index}")
        deal = match.deals[index]
        events = list(deal.events)  # taken here, on the table's loop; the deal is over and changes no more
        out: dict[str, Any] = {
            "deal": index,
            "deals": sum(1 for d in match.deals if d.is_over),
            "set_length": getattr(match, "set_length", len(match.deals)),
            "rules": match.rules.name,
            "rule_options": match.rules.to_dict(),
            "places": deal.result()["places"],
            "points": list(match.points[index]) if index < len(match.points) else None,
            "totals": list(match.totals),
            "players": room.players(),
            "table": room.code,
        }
        try:
            out["steps"] = await asyncio.to_thread(deal_steps, events)
        except ValueError as e:
            raise RequestError(422, f"the deal does not replay: {e}") from None
    except RequestError as e:
        return JSONResponse({"error": e.message}, status_code=e.status, headers=e.headers())
    return JSONResponse(out)


def table_replay_routes() -> list[BaseRoute]:
    return [Route("/api/tables/{code}/deals/{deal:int}/replay", _replay, methods=["POST"])]
