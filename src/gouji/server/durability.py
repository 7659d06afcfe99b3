"""Durability: group commit of every change to the database, and nothing sent before it is stored.

The promise: **a change is sent to anyone only after it is durably stored**, so a move any client saw is a
move that happened, whatever kills the server.  A table applies a change in memory and hands the change's
writes (its event, and for the move that ends a deal that deal's record, and for the move that ends the set
the set's record and the table's status) to :meth:`Writer.commit` with what to do once they are stored —
release the frames made for it.  The writer keeps one transaction in flight on its worker thread: the
changes that arrive while it runs wait and go together into the next one (group commit), so a busy server
writes a few large transactions rather than many small ones, and each change still reaches its clients one
commit after it was made.  The writes of one change are always in one transaction.

Reads (:meth:`Writer.call`) run on the same thread, in order with the commits.

A transaction that fails (the database is gone, the disk is full) is retried, with a growing pause, until it
succeeds; the changes in it and after it are not sent until then, and every failure is logged.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from .storage import Op, Store

T = TypeVar("T")

log = logging.getLogger("gouji.server")

RETRY_FIRST = 0.05
RETRY_MAX = 2.0
"""Seconds between two tries of a failed transaction: doubling from the first to the last."""


class Writer:
    """Runs the store's calls on one worker thread, in order: group commits of the tables' writes, and reads.

    :meth:`commit` queues a change's writes with a callback run (on the event loop) once they are stored;
    :meth:`call` awaits a read (or any call) run after the transaction in flight; :meth:`drain` waits until
    everything committed so far is stored."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="gouji-db")
        self._ops: list[Op] = []
        self._done: list[Callable[[], None]] = []
        self._in_flight = False
        self._scheduled = False
        self._retry = RETRY_FIRST
        self.errors: list[BaseException] = []
        """Every failed transaction's exception (each was retried)."""
        self.transactions = 0
        """Transactions committed (one per group)."""

    @property
    def backlog(self) -> int:
        """Writes waiting for the next transaction."""
        return len(self._ops)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the writer thread (after the transaction in flight); await the result."""
        return await asyncio.wrap_future(self._pool.submit(fn, *args))

    def commit(self, ops: list[Op], done: Callable[[], None]) -> None:
        """Queue one change's writes; ``done()`` runs on the event loop once they are stored (in one
        transaction with the changes queued with them)."""
        self._ops.extend(ops)
        self._done.append(done)
        if not self._in_flight and not self._scheduled:
            # call_soon, not at once: the changes the same turn of the loop makes go into one transaction
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._start)

    def _start(self) -> None:
        self._scheduled = False
        if self._in_flight or not self._done:
            return
        ops, done = self._ops, self._done
        self._ops, self._done = [], []
        self._in_flight = True
        loop = asyncio.get_running_loop()
        fut = self._pool.submit(self.store.write_batch, ops)
        fut.add_done_callback(lambda f: loop.call_soon_threadsafe(self._landed, f, ops, done))

    def _landed(self, fut: concurrent.futures.Future[None], ops: list[Op], done: list[Callable[[], None]]) -> None:
        self._in_flight = False
        exc = fut.exception()
        if exc is not None:
            self.errors.append(exc)
            log.error("storing %d changes failed (retrying in %.2f s): %r", len(done), self._retry, exc)
            self._ops, self._done = ops + self._ops, done + self._done
            self._scheduled = True
            asyncio.get_running_loop().call_later(self._retry, self._start)
            self._retry = min(RETRY_MAX, self._retry * 2)
            return
        self._retry = RETRY_FIRST
        self.transactions += 1
        for fn in done:
            try:
                fn()
            except Exception:  # one table's failure to send must not keep the others' frames back
                log.exception("sending a stored change failed")
        if self._done and not self._scheduled:
            self._start()

    async def drain(self) -> None:
        """Wait until everything committed so far is stored."""
        if not self._done and not self._in_flight:
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def landed() -> None:
            if not fut.done():
                fut.set_result(None)

        self.commit([], landed)
        await fut

    def close(self) -> None:
        """Store what is queued (on this thread, after the transaction in flight) and stop the thread."""
        if self._ops:
            ops, self._ops, self._done = self._ops, [], []
            try:
                self._pool.submit(self.store.write_batch, ops).result()
            except Exception:
                log.exception("storing the last %d writes at shutdown failed", len(ops))
        self._pool.shutdown(wait=True)
