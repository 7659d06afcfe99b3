"""The 复盘 review's endpoints: one seat of one finished deal, reviewed off the event loop (:mod:`.pool`).

- ``GET /api/records/{id}/deals/{n}/review?seat=S`` (``&table=T`` for a duplicate match's record) — deal
  ``n`` (from 0, as the replay numbers it) of a stored record, for anyone once the set is over: exactly where
  ``GET /api/records/{id}/deals/{n}`` serves the deal with its hands open (403 for a set in progress).
- ``POST /api/tables/{code}/deals/{n}/review`` — body ``{"token": …}``, ``?seat=S`` (default the token's
  seat): a finished deal of a table's set in progress, for the table's own players, exactly where
  ``POST /api/tables/{code}/deals/{n}/replay`` serves it (403 for a token that holds no seat, 404 for a deal
  not over or still played at the match's other table).

Either answers the review's state: ``{"state": "pending", "found": [decisions so far], "total": n or null}``
while it is worked out (the first call starts it), then ``{"state": "done", "review": …}`` — the review of
:func:`gouji.lab.review.review_deal`, each mistake with its ``reason`` (:mod:`gouji.lab.review_reason`).  The
page asks again until it is done.  A review worked out is kept in memory and in the database (:mod:`.stored`):
a restart does not work it out again.  Bad input is refused in words before anything is computed: a record that
fails its checksum or schema (422), a deal (404) or seat (400) out of range, a table named for a set (400);
a request past what the pool takes, 503."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...competition.duplicate import Tournament
from ...competition.loading import load_record
from ...competition.records import RecordError
from ..errors import RequestError
from ..http.guard import client_of
from ..limits import MAX_RECORD_ID, read_json
from ..messages import schemas as S
from ..replays.api import _load
from ..storage import Store
from .pool import ReviewPool
from .stored import key_text, store_review, stored_review

log = logging.getLogger("gouji.server.review")

MAX_BODY = 1024
CHECKS_AT_ONCE = 2
"""Records checked at once (on threads) before their review starts; more wait their turn."""


def reviews(request: Request) -> ReviewPool:
    """The server's reviews (made at the first one asked, with the settings' pool size); each one worked out
    is kept in the database too (:mod:`.stored`)."""
    state = request.app.state
    pool: ReviewPool | None = getattr(state, "reviews", None)
    if pool is None:
        settings = state.settings
        pool = state.reviews = ReviewPool(settings.review_workers, settings.review_waiting)
        state.review_checks = asyncio.Semaphore(CHECKS_AT_ONCE)
        writer, saving = state.lobby.writer, set()

        def finished(key: Hashable, review: dict[str, Any]) -> None:
            task = asyncio.ensure_future(writer.call(store_review, writer.store, key_text(key), review))
            saving.add(task)
            task.add_done_callback(_saved(saving))

        pool.finished = finished
    return pool


def _saved(saving: set[asyncio.Future[None]]) -> Callable[[asyncio.Future[None]], None]:
    def done(task: asyncio.Future[None]) -> None:
        saving.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a review was not kept in the database: %r", task.exception())

    return done


def _load_with_review(store: Store, record_id: int, key: str) -> tuple[Any, dict[str, Any] | None]:
    """A record's document and status (as the replay reads them) and the review kept under ``key``."""
    return _load(store, record_id), stored_review(store, key)


def close_reviews(state: Any) -> None:
    """Stop the reviews' workers, if any were started (at the server's shutdown)."""
    pool: ReviewPool | None = getattr(state, "reviews", None)
    if pool is not None:
        pool.close()


def deal_events(body: dict[str, Any], index: int, table: int | None) -> list[dict[str, Any]]:
    """The events of finished deal ``index`` (from 0) of a stored record, at ``table`` (0 or 1) of a duplicate
    match; :class:`RequestError` saying what is wrong (on a thread: the record is checked and replayed)."""
    try:
        played = load_record(body)
    except RecordError as e:
        raise RequestError(422, f"the record is refused: {e}") from None
    if isinstance(played, Tournament):
        if not 0 <= index < len(played.tables) or not all(d.is_over for d in played.tables[index]):
            raise RequestError(404, f"the record has no deal {index} finished at both tables")
        return list(played.tables[index][table or 0].events)
    if table is not None:
        raise RequestError(400, "a set's record has one table: ask without ?table")
    if not 0 <= index < len(played.deals) or not played.deals[index].is_over:
        raise RequestError(404, f"the record has no finished deal {index}")
    return list(played.deals[index].events)


def answer(state: dict[str, Any]) -> Response:
    if state["state"] == "refused":
        return JSONResponse({"error": state["error"]}, status_code=422)
    return JSONResponse(state)


async def _record_review(request: Request) -> Response:
    try:
        record_id = int(request.path_params["record_id"])
        index = int(request.path_params["deal"])
        q = S.query(S.ReviewQuery, dict(request.query_params))
        if q.seat is None:
            raise RequestError(400, "name the seat to review: ?seat=0 to 5")
        if not 1 <= record_id <= MAX_RECORD_ID:
            raise RequestError(404, "no such record")
        pool = reviews(request)
        key = ("record", record_id, index, q.table, q.seat)
        state = pool.state(key)
        if state is None:
            lobby = request.app.state.lobby
            found, kept = await lobby.reader.call(
                client_of(request.scope), _load_with_review, lobby.writer.store, record_id, key_text(key)
            )
            if found is None:
                raise RequestError(404, "no such record")
            body, status = found[0], found[1]
            if status == "open":
                raise RequestError(
                    403,
                    "the records of a set in progress are reviewed once the set is over (its players review "
                    "each finished deal at the table)",
                )
            if kept is not None:
                pool.keep(key, kept)
            state = pool.state(key)
            if state is None:
                async with request.app.state.review_checks:
                    events = await asyncio.to_thread(deal_events, body, index, q.table)
                state = pool.state(key) or pool.start(key, events, q.seat, index, q.table)
    except RequestError as e:
        return JSONResponse({"error": e.message}, status_code=e.status, headers=e.headers())
    return answer(state)


async def _table_review(request: Request) -> Response:
    try:
        token = S.body(S.SeatToken, await read_json(request, MAX_BODY)).token
        q = S.query(S.ReviewQuery, dict(request.query_params))
        if q.table is not None:
            raise RequestError(400, "a table reviews its own deals: ask without ?table")
        lobby = request.app.state.lobby
        room = lobby.find(str(request.path_params["code"]), open_only=True)
        if room is None:
            raise RequestError(404, "no open table with this code")
        mine = room.seat_of_token(token)
        if mine is None:
            raise RequestError(403, "this token holds no seat at this table")
        lobby.reader.admit(client_of(request.scope))
        index = int(request.path_params["deal"])
        match = room.match
        if not 0 <= index < len(match.deals) or not match.deals[index].is_over:
            raise RequestError(404, f"the table has no finished deal {index}")
        if index >= room.deals_shown():
            raise RequestError(404, f"deal {index} is still played at the match's other table: wait until it ends")
        seat = mine if q.seat is None else q.seat
        pool = reviews(request)
        key = ("table", room.id, index, seat)
        state = pool.state(key)
        if state is None:
            events = list(match.deals[index].events)  # taken here, on the table's loop
            kept = await lobby.reader.call(None, stored_review, lobby.writer.store, key_text(key))  # (read counted)
            if kept is not None:
                pool.keep(key, kept)
            state = pool.state(key) or pool.start(key, events, seat, index, None)
    except RequestError as e:
        return JSONResponse({"error": e.message}, status_code=e.status, headers=e.headers())
    return answer(state)


def review_routes() -> list[BaseRoute]:
    """The review's routes, to list in the app's routes ahead of the static files."""
    return [
        Route("/api/records/{record_id:int}/deals/{deal:int}/review", _record_review, methods=["GET"]),
        Route("/api/tables/{code}/deals/{deal:int}/review", _table_review, methods=["POST"]),
    ]


__all__ = ["close_reviews", "deal_events", "review_routes", "reviews"]
