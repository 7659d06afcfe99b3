"""The HTTP API of duplicate matches and events (:mod:`.duplicate`, :mod:`.events`).

- ``POST /api/matches`` — a duplicate match: ``teams`` (two names, default X, Y), ``deals`` (default 4),
  ``preset`` (default ``tournament``) and ``options``, the timers, ``bots`` (two lists of six, table 1 and
  table 2 by seat, or an object team → bot standing in for the team).  Answers the match's ``code`` (its
  scorekeeper's page), the organiser's ``owner_token``, ``team_codes`` and ``table_codes``.  A team's join
  code is a random secret; no public view holds one, and a match's table takes no one by its own code.
- ``POST /api/matches/{code}/codes`` — ``owner_token`` (and ``rotate``: 0 or 1): the organiser reads the
  join codes, after replacing that team's (the old one stops working).
- ``GET /api/matches/{code}`` — the scorekeeper's view (记分员): both tables, the places and small points of
  every deal both have finished, the totals, the result and 3/1/0 once it is over, the duplicate comparison.
- ``POST /api/teams/{code}/join`` — ``nickname`` (and ``table``, ``seat``): a free seat of that team; answers
  the table's ``code``, the ``seat`` and its ``token`` (then play as at any table).
- ``POST /api/events`` — an event: ``teams`` (2-16), ``deals``, ``bots`` (team → bot), the tables' settings;
  answers its ``code`` and ``owner_token``.
- ``GET /api/events/{code}`` — the schedule, each match's code, status and result, and the standings.
- ``POST /api/events/{code}/start`` — ``owner_token``, ``fixture`` (``"r1m2"``): start that match.
- ``POST /api/matches/{code}/close``, ``POST /api/events/{code}/close`` — ``owner_token``: the organiser
  closes a match that has not ended (an event's match: the event's organiser), or the event.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..accounts.api import account_name
from ..http.guard import client_of
from ..lobby import Lobby
from ..messages import schemas as S
from ..replays.api import Replay, replays, send_replay
from .duplicate import close_match, create_match, join_team, match_view, team_codes
from .events import create_event, event_of

Handler = Callable[[Request], Awaitable[Any]]


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def tournament_routes(
    wrap: Callable[[Handler], Callable[[Request], Awaitable[Response]]], read_body: Handler
) -> list[BaseRoute]:
    """The routes of matches and events, each endpoint wrapped by the app's JSON error handling and reading
    bodies with the app's reader (with its size limit)."""

    async def create_match_(request: Request) -> Any:
        _, out = await create_match(_lobby(request), await read_body(request), client=client_of(request.scope))
        return out

    async def match_(request: Request) -> Any:
        out = await match_view(_lobby(request), request.path_params["code"], client_of(request.scope), replays(request))
        return send_replay(request, out) if isinstance(out, Replay) else out

    async def join_team_(request: Request) -> Any:
        code = request.path_params["code"]
        req = S.body(S.JoinTeam, await read_body(request))
        name = await account_name(request)
        return await join_team(_lobby(request), code, req, client_of(request.scope), name)

    async def create_event_(request: Request) -> Any:
        return await create_event(_lobby(request), await read_body(request), client_of(request.scope))

    async def event_(request: Request) -> Any:
        lobby = _lobby(request)
        return event_of(lobby, request.path_params["code"]).public(lobby)

    async def start_(request: Request) -> Any:
        lobby = _lobby(request)
        req = S.body(S.StartMatch, await read_body(request))
        hall = event_of(lobby, request.path_params["code"])
        return await hall.start(lobby, req, client_of(request.scope))

    async def close_match_(request: Request) -> Any:
        data = await read_body(request)
        S.body(S.OwnerTokenBody, data)
        return await close_match(_lobby(request), request.path_params["code"], data)

    async def codes_(request: Request) -> Any:
        data = await read_body(request)
        S.body(S.TeamCodes, data)
        return await team_codes(_lobby(request), request.path_params["code"], data)

    async def close_event_(request: Request) -> Any:
        lobby = _lobby(request)
        req = S.body(S.OwnerTokenBody, await read_body(request))
        return await event_of(lobby, request.path_params["code"]).close(lobby, req.owner_token)

    create_match_.creates = True  # type: ignore[attr-defined]  # answered with 201 Created
    create_event_.creates = True  # type: ignore[attr-defined]
    return [
        Route("/api/matches", wrap(create_match_), methods=["POST"]),
        Route("/api/matches/{code}", wrap(match_), methods=["GET"]),
        Route("/api/matches/{code}/close", wrap(close_match_), methods=["POST"]),
        Route("/api/matches/{code}/codes", wrap(codes_), methods=["POST"]),
        Route("/api/teams/{code}/join", wrap(join_team_), methods=["POST"]),
        Route("/api/events", wrap(create_event_), methods=["POST"]),
        Route("/api/events/{code}", wrap(event_), methods=["GET"]),
        Route("/api/events/{code}/start", wrap(start_), methods=["POST"]),
        Route("/api/events/{code}/close", wrap(close_event_), methods=["POST"]),
    ]
