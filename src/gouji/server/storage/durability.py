"""Durability: group commit of every change to the database, and nothing sent before it is stored.

The promise: **a change is sent to anyone only after it is durably stored**, so a move any client saw is a
move that happened, whatever kills the server.  A table applies a change in memory and hands the change's
writes (its event, and for the move that ends a deal that deal's record, and for the move that ends the set
the set's record and the table's status) to :meth:`Writer.commit` with what to do once they are stored —
release the frames made for it.  The writer keeps one transaction in flight on its own thread: the
changes that arrive while it runs wait and go together into the next one (group commit), so a busy server
writes a few large transactions rather than many small ones, and each change still reaches its clients one
commit after it was made.  The writes of one change are always in one transaction.

The thread takes what waits as soon as a transaction ends, so on a busy server it never sleeps and the
event loop never has to wake it: the loop only appends to the queue (and, when the thread is idle, wakes it
once at the end of the loop's turn, so the changes of one turn share a transaction); the thread hands each
transaction's callbacks back to the loop in one call.  (A thread pool's worker slept after every
transaction and was woken for the next, once the loop had seen the last one land: a wake-up and a turn of
the loop between two commits, which cost the loop a twelfth of its time under load.)

Reads (:meth:`Writer.call`) run on the same thread, in order with the commits.

:class:`StoreWriter` is what the tables and the lobby use; :class:`Writer` keeps the transaction on a thread
of the server's process, :class:`~gouji.server.storage.writer_process.ProcessWriter` (``gouji serve``'s default on
Linux) in a process of its own, where it never waits for the interpreter lock the event loop holds.

A transaction that fails (the database is gone, the disk is full) is retried, with a growing pause, until it
succeeds; the changes in it and after it are not sent until then, and every failure is logged.
"""

from __future__ import annotations

import abc
import asyncio
import concurrent.futures
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from . import Op, Store

T = TypeVar("T")

log = logging.getLogger("gouji.server")

RETRY_FIRST = 0.05
RETRY_MAX = 2.0
"""Seconds between two tries of a failed transaction: doubling from the first to the last."""


def write_retrying(store: Store, ops: list[Op], failed: Callable[[Exception, float], bool]) -> bool:
    """Store ``ops`` in one transaction, tried again after a pause doubling from :data:`RETRY_FIRST` to
    :data:`RETRY_MAX` until it succeeds (True); ``failed(exception, pause)`` hears of each failure before the
    pause, and gives up (False) by returning False."""
    pause = RETRY_FIRST
    while True:
        try:
            store.write_batch(ops)
            return True
        except Exception as exc:
            if not failed(exc, pause):
                return False
            time.sleep(pause)
            pause = min(RETRY_MAX, pause * 2)


class _Commit:
    """One change's writes and what to run on its loop once they are stored."""

    __slots__ = ("done", "loop", "ops")

    def __init__(self, ops: list[Op], done: Callable[[], None], loop: asyncio.AbstractEventLoop) -> None:
        self.ops, self.done, self.loop = ops, done, loop


class _Call:
    """A call to run on the writer's thread, in order with the commits; its result goes to ``future``."""

    __slots__ = ("args", "fn", "future")

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.fn, self.args = fn, args
        self.future: concurrent.futures.Future[Any] = concurrent.futures.Future()


class StoreWriter(abc.ABC):
    """The queue of database writes and reads the tables and the lobby use, in order.

    :meth:`commit` queues a change's writes with a callback run (on the event loop) once they are stored;
    :meth:`call` awaits a read (or any call of the store) run after the transaction in flight; :meth:`drain`
    waits until everything committed so far is stored.  ``store`` is the :class:`Store` whose methods
    :meth:`call` takes."""

    store: Store
    errors: list[BaseException]
    """Every failed transaction's exception (each was retried)."""
    transactions: int
    """Transactions committed (one per group)."""

    @property
    @abc.abstractmethod
    def backlog(self) -> int:
        """Writes waiting to be stored."""

    @abc.abstractmethod
    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` after the transaction in flight; await the result."""

    @abc.abstractmethod
    def commit(self, ops: list[Op], done: Callable[[], None]) -> None:
        """Queue one change's writes; ``done()`` runs on the event loop once they are stored."""

    async def drain(self) -> None:
        """Wait until everything committed so far is stored (an empty change, committed after it)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def landed() -> None:
            if not fut.done():
                fut.set_result(None)

        self.commit([], landed)
        await fut

    @abc.abstractmethod
    def poll(self) -> None:
        """Run now the callbacks of the changes stored by now, rather than at the event loop's next turn."""

    @abc.abstractmethod
    def close(self) -> None:
        """Store what is queued and stop."""


class Writer(StoreWriter):
    """Runs the store's calls on one thread of its own, in order: group commits of the tables' writes, and
    reads.

    :meth:`commit` queues a change's writes with a callback run (on the event loop) once they are stored;
    :meth:`call` awaits a read (or any call) run after the transaction in flight; :meth:`drain` waits until
    everything committed so far is stored."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._queue: list[_Commit | _Call] = []
        self._idle = False
        """Whether the thread waits for work (it must be woken); else it takes the queue when it is done."""
        self._waking = False
        """Whether a wake-up is scheduled for the end of the loop's turn."""
        self._stopping = False
        self.errors: list[BaseException] = []
        """Every failed transaction's exception (each was retried)."""
        self.transactions = 0
        """Transactions committed (one per group)."""
        self._thread = threading.Thread(target=self._run, name="gouji-db", daemon=True)
        self._thread.start()

    @property
    def backlog(self) -> int:
        """Writes waiting for the next transaction."""
        with self._lock:
            return sum(len(item.ops) for item in self._queue if isinstance(item, _Commit))

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the writer thread (after the transaction in flight); await the result."""
        item = _Call(fn, args)
        with self._lock:
            if self._stopping:
                raise RuntimeError("the writer is closed")
            self._queue.append(item)
            if self._idle:
                self._wake.notify()
        result: T = await asyncio.wrap_future(item.future)
        return result

    def commit(self, ops: list[Op], done: Callable[[], None]) -> None:
        """Queue one change's writes; ``done()`` runs on the event loop once they are stored (in one
        transaction with the changes queued with them)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            self._queue.append(_Commit(ops, done, loop))
            if not self._idle or self._waking:
                return  # the thread takes it when its transaction ends, or at the wake-up scheduled already
            self._waking = True
        # call_soon, not at once: the changes the same turn of the loop makes go into one transaction
        loop.call_soon(self._wake_up)

    def _wake_up(self) -> None:
        with self._lock:
            self._waking = False
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._queue and not self._stopping:
                    self._idle = True
                    self._wake.wait()
                self._idle = False
                if not self._queue:
                    return  # stopping, and everything is stored
                items, self._queue = self._queue, []
            group: list[_Commit] = []
            for item in items:
                if isinstance(item, _Commit):
                    group.append(item)
                    continue
                self._store(group)  # what was committed before the call, then the call
                group = []
                if not item.future.set_running_or_notify_cancel():
                    continue  # its caller was cancelled (and stopped waiting): setting a result would raise here
                try:
                    item.future.set_result(item.fn(*item.args))
                except BaseException as e:
                    item.future.set_exception(e)
            self._store(group)

    def _store(self, group: list[_Commit]) -> None:
        """Store a group's writes in one transaction, retried until it succeeds (once at shutdown); then
        hand its callbacks to their loop."""
        if not group:
            return
        ops = [op for item in group for op in item.ops]

        def failed(exc: Exception, pause: float) -> bool:
            self.errors.append(exc)
            if self._stopping:
                log.error("storing the last %d changes at shutdown failed: %r", len(group), exc)
                return False
            log.error("storing %d changes failed (retrying in %.2f s): %r", len(group), pause, exc)
            return True

        if not write_retrying(self.store, ops, failed):
            return
        if ops:
            self.transactions += 1
        by_loop: dict[asyncio.AbstractEventLoop, list[Callable[[], None]]] = {}
        for item in group:
            by_loop.setdefault(item.loop, []).append(item.done)
        for loop, done in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a closed loop (shutdown): nobody is left to send to
                loop.call_soon_threadsafe(_landed, done)

    def poll(self) -> None:
        """Nothing to do: the thread hands each stored change's callback to the loop as it lands."""

    def close(self) -> None:
        """Store what is queued (on the writer's thread, after the transaction in flight) and stop it."""
        with self._lock:
            self._stopping = True
            self._wake.notify()
        self._thread.join()


def _landed(done: list[Callable[[], None]]) -> None:
    """A transaction is stored: run its changes' callbacks (on their loop), in order."""
    for fn in done:
        try:
            fn()
        except Exception:  # one table's failure to send must not keep the others' frames back
            log.exception("sending a stored change failed")
