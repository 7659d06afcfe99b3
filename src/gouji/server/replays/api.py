"""What the browser table needs beyond the core API: a finished deal step by step, and a hint.

- ``GET /api/records/{id}/deals/{n}`` — deal ``n`` (0-based) of a stored record, replayed by the engine
  into **steps**: step 0 is the deal after everything that happens before the first decision (dealing,
  tribute, buying 3s and 4s), and step ``i`` the deal after decision ``i``.  Each step holds the public
  view (:meth:`gouji.Deal.view` with ``None``, without the log and the rule options), every seat's hand
  (``hands``: a finished deal is shown with its hands open) and the events since the step before.  The
  record is read as ``GET /api/records/{id}`` serves it: a set still in progress answers 403.  For the
  record of a duplicate match, ``?table=0`` or ``?table=1`` names the table (default 0), and the answer adds
  ``match`` (the team in each seat, the deal's small points).
- ``POST /api/tables/{code}/hint`` — body ``{"token": …}``: :func:`gouji.hint` for the seat the token
  holds, when that seat is to act: ``{"state", "seat", "action", "reason", "code", "params"}`` (``reason``
  in English; ``code`` and ``params`` the same reason for the page to word in its language, see
  :mod:`gouji.reasons`); 403 for a token that holds no seat, 409 when it is not that seat's turn (or no
  longer is once the hint is worked out).  The hint is thought out off the event
  loop (on a thread of its own): one seat has at most one hint in the works (429 past it), the server
  :data:`HINTS_AT_ONCE` (503 past it).

The server includes them with ``*replay_routes()`` in its route list, ahead of the static files at ``/``.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import gzip
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, NamedTuple

import orjson
from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...bots.hints import hint_from
from ...competition.duplicate import Tournament
from ...competition.loading import load_record
from ...competition.records import RecordError
from ...engine.deal import Deal
from ...engine.scoring import TOURNAMENT_POINTS
from ..errors import RequestError
from ..http.guard import client_of
from ..limits import MAX_RECORD_ID, read_json
from ..messages import schemas as S
from ..storage import RecordRow, Store, TableRow
from ..tables.table import Room, one_thread

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
"""The browser table (plain HTML, CSS and JavaScript modules), served at ``/``."""

MAX_HINT_BODY = 1024
HINTS_AT_ONCE = 4
"""Hints being worked out (or waiting for the hints' thread) at once, server-wide, one seat at most one: a
request past it is refused (503) rather than queued, so a flood of hint requests holds nothing up."""

GZIP_OVER = 4096
"""Answers larger than this many bytes are sent gzipped to clients that accept it."""


def _load(store: Store, record_id: int) -> tuple[dict[str, Any], str, list[Any], str] | None:
    """A record's document, its table's status, who sat where and the table's code (on the store's thread)."""
    with store.sessions() as s:
        row = s.execute(
            select(RecordRow.body, TableRow.status, RecordRow.players, TableRow.code)
            .join(TableRow, TableRow.id == RecordRow.table_id)
            .where(RecordRow.id == record_id)
        ).first()
        if row is None:
            return None
        return row[0], row[1], list(row[2] or []), row[3]


def _step_view(deal: Deal) -> dict[str, Any]:
    view = deal.view(None, log=False)
    view.pop("rule_options", None)
    view["hands"] = [deal.hand(s) for s in range(6)]
    return view


def _clean(event: dict[str, Any]) -> dict[str, Any]:
    """An event as a replay shows it: everything, the seed aside."""
    return {k: v for k, v in event.items() if k != "seed"}


def deal_steps(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The steps of a finished deal from its :attr:`gouji.Deal.events`: the deal rebuilt decision by decision.

    Raises ``ValueError`` if the events do not replay."""
    if not events:
        raise ValueError("a deal's events start with its 'deal' event")
    deal = Deal.from_deal_event(events[0])
    seen = len(deal.events)
    steps = [{"events": [_clean(e) for e in deal.events], "view": _step_view(deal)}]
    for e in events[seen:]:
        if e.get("type") != "act":
            continue
        deal.act(e["action"], seat=e["seat"])
        steps.append({"events": [_clean(x) for x in deal.events[seen:]], "view": _step_view(deal)})
        seen = len(deal.events)
    if deal.events != events:
        raise ValueError("the deal's events do not replay")
    return steps


def _replay_deal(body: dict[str, Any], index: int, table: int | None = None) -> dict[str, Any]:
    try:
        played = load_record(body)
    except RecordError as e:
        raise RequestError(422, f"the record does not replay: {e}") from None
    if isinstance(played, Tournament):
        return _replay_match_deal(played, index, 0 if table is None else table)
    if table is not None:
        raise RequestError(400, "a set record has one table: ask without ?table")
    if not 0 <= index < len(played.deals) or not played.deals[index].is_over:
        raise RequestError(404, f"the record has no finished deal {index}")
    deal = played.deals[index]
    return {
        "deal": index,
        "deals": sum(1 for d in played.deals if d.is_over),
        "set_length": played.set_length,
        "rules": played.rules.name,
        "rule_options": played.rules.to_dict(),
        "places": deal.result()["places"],
        "points": list(played.points[index]),
        "totals": list(played.totals),
        "steps": deal_steps(deal.events),
    }


def _replay_match_deal(played: Tournament, index: int, table: int) -> dict[str, Any]:
    """Deal ``index`` of a duplicate match at ``table`` (0 or 1): its steps, with the team of each seat, the
    small points of both sides at this table, and the match's small points so far."""
    if table not in (0, 1):
        raise RequestError(400, "a match has tables 0 and 1")
    if not 0 <= index < len(played.tables) or not all(d.is_over for d in played.tables[index]):
        raise RequestError(404, f"the record has no deal {index} finished at both tables")
    deal = played.tables[index][table]
    places = deal.result()["places"]
    sides = [0, 0]
    for place, seat in enumerate(places):
        sides[seat % 2] += TOURNAMENT_POINTS[place]
    return {
        "deal": index,
        "deals": len(played.small_points()),
        "set_length": played.n_deals,
        "rules": played.rules.name,
        "rule_options": played.rules.to_dict(),
        "places": places,
        "points": sides,
        "totals": list(played.totals),
        "match": {
            "table": table,
            "teams": list(played.teams),
            "seat_teams": played.seat_teams(table),
            "small_points": list(played.small_points()[index]),
        },
        "steps": deal_steps(deal.events),
    }


REPLAY_CACHE_BYTES = 48 * 1024 * 1024
"""The most bytes of finished replays kept (each as JSON and gzipped: ~450 KB and ~45 KB a deal)."""
REPLAYS_AT_ONCE = 2
"""Replays worked out at once (each on a thread of its own); more wait for their turn."""


class Replay(NamedTuple):
    """A deal's replay as it is sent: its JSON and, when it is large, the same gzipped."""

    body: bytes
    packed: bytes | None


class ReplayCache:
    """Finished deals' replays (a record of a finished set never changes), the most recently asked kept up to
    :data:`REPLAY_CACHE_BYTES`; a replay being worked out is worked out once for everyone asking for it, and
    at most :data:`REPLAYS_AT_ONCE` at a time, off the event loop (the engine's replay, the JSON and the
    gzip: 255 ms of a 20-deal, 8-deck set's loop before)."""

    def __init__(self, size: int = REPLAY_CACHE_BYTES, at_once: int = REPLAYS_AT_ONCE) -> None:
        self.size = size
        self.bytes = 0
        self._kept: collections.OrderedDict[Hashable, Replay] = collections.OrderedDict()
        self._making: dict[Hashable, asyncio.Future[Replay]] = {}
        self._slots = asyncio.Semaphore(at_once)
        self.made = 0
        """Replays worked out so far (the others were served from the cache)."""

    def get(self, key: Hashable) -> Replay | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    async def make(self, key: Hashable, work: Callable[[], Replay], keep: bool) -> Replay:
        """The replay of ``key``: from the cache, or the one being worked out, or worked out now by ``work``
        (on a thread) and kept when ``keep``."""
        found = self.get(key)
        if found is not None:
            return found
        making = self._making.get(key)
        if making is not None:
            return await asyncio.shield(making)
        fut: asyncio.Future[Replay] = asyncio.get_running_loop().create_future()
        self._making[key] = fut
        try:
            async with self._slots:
                replay = await asyncio.to_thread(work)
            self.made += 1
            if keep:
                self._keep(key, replay)
            fut.set_result(replay)
            return replay
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # (retrieved: nobody else may be waiting for it)
            raise
        finally:
            del self._making[key]

    def _keep(self, key: Hashable, replay: Replay) -> None:
        size = len(replay.body) + len(replay.packed or b"")
        if size > self.size:
            return
        self._kept[key] = replay
        self.bytes += size
        while self.bytes > self.size:
            _, old = self._kept.popitem(last=False)
            self.bytes -= len(old.body) + len(old.packed or b"")


def _replay_bytes(
    body: dict[str, Any], index: int, table: int | None, record_id: int, players: list[Any], code: str
) -> Replay:
    """A deal's replay as it is sent (on a thread): replayed, as JSON, and gzipped when large."""
    out = _replay_deal(body, index, table)
    out["id"] = record_id
    if "match" in out:  # who sat where at this table of the match
        players = [p for p in players if isinstance(p, dict) and p.get("table") == out["match"]["table"]]
    out["players"] = players
    out["table"] = code
    data = orjson.dumps(out, option=orjson.OPT_NON_STR_KEYS)
    # a deal is a few hundred steps of the whole table: ~450 KB of JSON, ~10 times less gzipped
    return Replay(data, gzip.compress(data, 6) if len(data) > GZIP_OVER else None)


def replays(request: Request) -> ReplayCache:
    """The server's cache of replays (made at the first one asked)."""
    cache: ReplayCache | None = getattr(request.app.state, "replays", None)
    if cache is None:
        cache = request.app.state.replays = ReplayCache()
    return cache


async def _deal_endpoint(request: Request) -> Response:
    try:
        record_id = int(request.path_params["record_id"])
        index = int(request.path_params["deal"])
        table = S.query(S.DealQuery, dict(request.query_params)).table
        if not 1 <= record_id <= MAX_RECORD_ID:
            raise RequestError(404, "no such record")
        cache = replays(request)
        key = (record_id, index, table)
        replay = cache.get(key)
        if replay is None:
            lobby = request.app.state.lobby
            found = await lobby.reader.call(client_of(request.scope), _load, lobby.writer.store, record_id)
            if found is None:
                raise RequestError(404, "no such record")
            body, status, players, code = found
            if status == "open":
                raise RequestError(403, "the records of a set in progress are served once the set is over")
            replay = await cache.make(
                key, functools.partial(_replay_bytes, body, index, table, record_id, players, code), keep=True
            )
    except RequestError as e:
        return JSONResponse({"error": e.message}, status_code=e.status, headers=e.headers())
    return send_replay(request, replay)


def send_replay(request: Request, replay: Replay) -> Response:
    """A replay as the answer: gzipped to a client that accepts it, when it is large."""
    if replay.packed is not None and "gzip" in request.headers.get("accept-encoding", ""):
        return Response(
            replay.packed,
            media_type="application/json",
            headers={"content-encoding": "gzip", "vary": "accept-encoding"},
        )
    return Response(replay.body, media_type="application/json", headers={"vary": "accept-encoding"})


async def _hint_endpoint(request: Request) -> Response:
    try:
        token = S.body(S.SeatToken, await read_json(request, MAX_HINT_BODY)).token
        room = request.app.state.lobby.find(str(request.path_params["code"]), open_only=True)
        if room is None:
            raise RequestError(404, "no open table with this code")
        seat = room.seat_of_token(token)
        if seat is None:
            raise RequestError(403, "this token holds no seat at this table")
        if not _asked(room, seat):
            raise RequestError(409, "it is not your turn")
        busy: set[tuple[str, int]] = request.app.state.__dict__.setdefault("hints_busy", set())
        key = (room.code, seat)
        if key in busy:
            raise RequestError(429, "a hint for this seat is being worked out: wait for it")
        if len(busy) >= HINTS_AT_ONCE:
            raise RequestError(503, "the server is busy working out hints: try again in a moment")
        # the seat's view and legal actions are made here, where the table lives; the heuristic bot thinks the
        # hint out on a thread of its own (not the bots'), so the event loop goes on serving every table
        deal = room.match.current
        view, legal = deal.view(seat), deal.legal_actions_of(seat)
        state, decision = room.state, room.decision
        busy.add(key)
        try:
            h = await asyncio.get_running_loop().run_in_executor(one_thread("gouji-hints"), hint_from, view, legal)
        finally:
            busy.discard(key)
        if room.decision != decision or not _asked(room, seat):
            raise RequestError(409, "the table moved on while the hint was worked out: it is not your turn now")
    except RequestError as e:
        return JSONResponse({"error": e.message}, status_code=e.status, headers=e.headers())
    await request.app.state.lobby.writer.drain()  # the state number it names is stored before it is shown
    return JSONResponse(
        {"state": state, "seat": seat, "action": h.text, "reason": h.reason, "code": h.code, "params": h.params}
    )


def _asked(room: Room, seat: int) -> bool:
    """Whether the table waits for this seat's decision (its window asks it)."""
    if room.status != "playing" or room.ready is not None:
        return False
    w = room.window
    return seat in w.asked if w is not None else room.match.to_act == seat


def replay_routes() -> list[BaseRoute]:
    """The routes of this module, to list in the app's routes ahead of the static files."""
    return [
        Route("/api/records/{record_id:int}/deals/{deal:int}", _deal_endpoint, methods=["GET"]),
        Route("/api/tables/{code}/hint", _hint_endpoint, methods=["POST"]),
    ]


__all__ = ["STATIC_DIR", "deal_steps", "replay_routes"]
