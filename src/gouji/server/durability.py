"""Durability: the queue of database writes.  :class:`Writer` runs the store's calls on one worker thread,
in the order the game made them, so the event loop never waits on the database."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from .storage import Store

T = TypeVar("T")


class Writer:
    """Runs the store's calls on one worker thread, in the order they were made.

    :meth:`call` awaits a call's result; :meth:`post_event` queues an event and writes the events queued
    together in one transaction, without the caller waiting.  Both go through the same single thread, so a
    later :meth:`call` sees every event posted before it.
    """

    flush_seconds = 0.02
    """At most this long passes between an event's commit and its write being queued to the thread."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="gouji-db")
        self._pending: list[tuple[int, int, str, int | None, dict[str, Any]]] = []
        self._flush_handle: asyncio.TimerHandle | None = None
        self._last: concurrent.futures.Future[Any] | None = None
        self.errors: list[BaseException] = []

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the writer thread after everything queued before it; await the result."""
        self._flush_now()
        fut = self._pool.submit(fn, *args)
        return await asyncio.wrap_future(fut)

    def post_event(self, table_id: int, state: int, kind: str, seat: int | None, data: dict[str, Any]) -> None:
        """Queue one event, to be written with the others queued within :attr:`flush_seconds` (or sooner, by
        any other call) in one transaction: a busy server writes a few large transactions rather than many
        small ones, each of which would hold the interpreter for its fixed cost."""
        self._pending.append((table_id, state, kind, seat, data))
        if self._flush_handle is None:
            self._flush_handle = asyncio.get_running_loop().call_later(self.flush_seconds, self._flush_now)

    def post(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the writer thread, in order, without waiting."""
        self._flush_now()
        self._track(self._pool.submit(fn, *args))

    def _flush_now(self) -> None:
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        if self._pending:
            batch, self._pending = self._pending, []
            self._track(self._pool.submit(self.store.append_events, batch))

    def _track(self, fut: concurrent.futures.Future[Any]) -> None:
        self._last = fut
        fut.add_done_callback(self._done)

    def _done(self, fut: concurrent.futures.Future[Any]) -> None:
        exc = fut.exception()
        if exc is not None:
            self.errors.append(exc)
            logging.getLogger("gouji.server").error("a database write failed: %r", exc)

    async def drain(self) -> None:
        """Wait until everything queued so far is written."""
        self._flush_now()
        await asyncio.wrap_future(self._pool.submit(lambda: None))

    def close(self) -> None:
        """Write what is queued and stop the thread."""
        self._flush_now()
        self._pool.shutdown(wait=True)
