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
page asks again until it is done.  A review worked out is kept in memory and in the database (:mod:`.stored`),
by the deal it reviews (:func:`.stored.deal_key`): a restart does not work it out again, nor does the set's
end (the deal reviewed at the table is the same deal in the records).  Bad input is refused in words before
anything is computed: a record that fails its checksum or schema (422), a deal (404) or seat (400) out of
range, a table named for a set (400); a request past what the pool takes, 503."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable
from typing import Any

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...competition.duplicate import Tournament
from ...competition.loading import load_record
from ...competition.records import RecordError
from ..errors import RequestError
from ..halls import MATCH_KIND
from ..http.guard import client_of
from ..limits import MAX_RECORD_ID, read_json
from ..messages import schemas as S
from ..replays.table import shown_deal
from ..storage import Store
from ..storage.models import RecordRow, TableRow
from .pool import ReviewPool
from .stored import deal_key, key_text, store_review, stored_review

log = logging.getLogger("gouji.server.review")

MAX_BODY = 1024
CHECKS_AT_ONCE = 2
"""Records checked at once (on threads) before their review starts; more wait their turn."""
RECORDS_KNOWN = 4096
"""Records whose table the server remembers (a record never changes it), so that a page polling a review in
the works reads nothing from the database."""

RecordTable = tuple[int, str, int | None]
"""A record's stored table, kind (``set``, ``deal``, ``match``) and last deal (None: the whole set)."""


def reviews(request: Request) -> ReviewPool:
    """The server's reviews (made at the first one asked, with the settings' pool size); each one worked out
    is kept in the database too (:mod:`.stored`)."""
    state = request.app.state
    pool: ReviewPool | None = getattr(state, "reviews", None)
    if pool is None:
        settings = state.settings
        pool = state.reviews = ReviewPool(settings.review_workers, settings.review_waiting)
        state.review_checks = asyncio.Semaphore(CHECKS_AT_ONCE)
        state.review_records = {}
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


def _record_key(at: RecordTable, deal: int, table: int | None, seat: int) -> tuple[str, int, int, int | None, int]:
    """The key of a record's review: a match's table 0 unless another is named (as :func:`deal_events` reads);
    404 for a deal after the record's last (the table's later records hold it, not this one)."""
    table_id, kind, last = at
    if last is not None and deal > last:
        raise RequestError(404, f"the record has no finished deal {deal}")
    return deal_key(table_id, deal, (table or 0) if kind == MATCH_KIND else table, seat)


def _load_with_review(
    store: Store, record_id: int, deal: int, table: int | None, seat: int
) -> tuple[tuple[Any, str, RecordTable] | None, dict[str, Any] | None]:
    """A record's document, its table's status, its stored table and kind; and the review kept of its deal."""
    with store.sessions() as s:
        row = s.execute(
            select(RecordRow.body, TableRow.status, RecordRow.table_id, RecordRow.kind, RecordRow.deal_index)
            .join(TableRow, TableRow.id == RecordRow.table_id)
            .where(RecordRow.id == record_id)
        ).first()
    if row is None:
        return None, None
    at = (int(row[2]), str(row[3]), None if row[4] is None else int(row[4]))
    if str(row[1]) == "open" or (at[2] is not None and deal > at[2]):
        return (row[0], str(row[1]), at), None  # (refused by the caller)
    return (row[0], str(row[1]), at), stored_review(store, key_text(_record_key(at, deal, table, seat)))


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
        known: dict[int, RecordTable] = request.app.state.review_records
        at = known.get(record_id)  # (only a record of a set that is over)
        key = None if at is None else _record_key(at, index, q.table, q.seat)
        state = None if key is None else pool.state(key)
        if state is None:
            lobby = request.app.state.lobby
            found, kept = await lobby.reader.call(
                client_of(request.scope), _load_with_review, lobby.writer.store, record_id, index, q.table, q.seat
            )
            if found is None:
                raise RequestError(404, "no such record")
            body, status, at = found
            if status == "open":
                raise RequestError(
                    403,
                    "the records of a set in progress are reviewed once the set is over (its players review "
                    "each finished deal at the table)",
                )
            if len(known) >= RECORDS_KNOWN:
                known.pop(next(iter(known)))
            known[record_id] = at
            key = _record_key(at, index, q.table, q.seat)
            if kept is not None:
                pool.keep(key, kept)
            state = pool.state(key)
            if state is None:
                async with request.app.state.review_checks:
                    events = await asyncio.to_thread(deal_events, body, index, q.table)
                state = pool.state(key) or pool.start(key, events, q.seat, index, key[3])
    except RequestError as e:
        return JSONResponse({"error": e.message}, status_code=e.status, headers=e.headers())
    return answer(state)


async def _table_review(request: Request) -> Response:
    try:
        token = S.body(S.SeatToken, await read_json(request, MAX_BODY)).token
        q = S.query(S.ReviewQuery, dict(request.query_params))
        if q.table is not None:
            raise RequestError(400, "a table reviews its own deals: ask without ?table")
        room, mine, index = shown_deal(request, token)  # the live replay's own check
        lobby, match = request.app.state.lobby, room.match
        seat = mine if q.seat is None else q.seat
        pool = reviews(request)
        table_id, at_match = room.records_at()
        key = deal_key(table_id, index, at_match, seat)
        state = pool.state(key)
        if state is None:
            events = list(match.deals[index].events)  # taken here, on the table's loop
            kept = await lobby.reader.call(None, stored_review, lobby.writer.store, key_text(key))  # (read counted)
            if kept is not None:
                pool.keep(key, kept)
            state = pool.state(key) or pool.start(key, events, seat, index, at_match)
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
