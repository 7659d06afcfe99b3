"""Reviews worked out in a bounded pool of worker processes, their decisions kept as they are found, the
finished ones cached.

A review is CPU-heavy pure Python (1.8 s of CPU a seat and deal, median, and some deals take far longer): on
the event loop, or on a thread of the server's interpreter, it would hold up every table.  So it runs in a
:class:`concurrent.futures.ProcessPoolExecutor` of ``workers`` processes (``gouji serve --review-workers``),
started at the first review asked for; each worker sends every decision back as it is found on a queue that a
thread of the server reads, so a page polling the review sees the first mistakes while the rest are worked
out.  At most ``workers + waiting`` reviews are in the works at once; one more is refused (503) rather than
queued, so no flood of requests grows memory or the wait.  A review is the same every time for the same deal
and seat (the heuristic draws no random number): the finished ones are kept, the most recently asked
``kept`` of them, and served from there."""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import itertools
import logging
import multiprocessing
import threading
from collections.abc import Callable, Hashable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ...lab.review import ReviewError
from ..errors import RequestError
from .worker import review_events, start_worker

log = logging.getLogger("gouji.server.review")

KEPT = 256
"""Finished reviews kept (each a few to some tens of KB of decisions)."""


@dataclass
class Job:
    """A review in the works: the decisions found so far and, once known, how many there will be."""

    id: int
    found: list[dict[str, Any]] = field(default_factory=list)
    total: int | None = None


class ReviewPool:
    """The server's reviews: in the works (:class:`Job`), or finished and kept (see the module docstring)."""

    def __init__(self, workers: int = 1, waiting: int = 4, kept: int = KEPT) -> None:
        self.workers = workers
        self.capacity = workers + waiting
        self.kept = kept
        self._done: collections.OrderedDict[Hashable, dict[str, Any]] = collections.OrderedDict()
        self._jobs: dict[Hashable, Job] = {}
        self._by_id: dict[int, Job] = {}
        self._ids = itertools.count(1)
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._queue: Any = None
        self._reader: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.started = 0
        """Reviews started so far (each worked out once: the others were served from the cache or joined)."""
        self.finished: Callable[[Hashable, dict[str, Any]], None] | None = None
        """Called with each review worked out (its key, the review): the server keeps it in the database."""

    def state(self, key: Hashable) -> dict[str, Any] | None:
        """The review of ``key`` as the page polls it: finished (``{"state": "done", "review": …}``), in the works
        (``{"state": "pending", "found": […], "total": n or None}``), or None when not asked yet."""
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        job = self._jobs.get(key)
        if job is not None:
            return {"state": "pending", "found": list(job.found), "total": job.total}
        return None

    def start(
        self, key: Hashable, events: list[dict[str, Any]], seat: int, deal: int, table: int | None
    ) -> dict[str, Any]:
        """Start the review of ``key`` (the deal of ``events``, ``seat``) unless it is kept or in the works;
        :class:`RequestError` 503 when the pool has as many as it takes.  Returns :meth:`state`."""
        found = self.state(key)
        if found is not None:
            return found
        if len(self._jobs) >= self.capacity:
            raise RequestError(
                503, f"the server is busy with {len(self._jobs)} reviews: ask again in a minute", retry_after=30
            )
        executor = self._ensure()
        job = Job(next(self._ids))
        fut = executor.submit(review_events, job.id, events, seat, deal, table)
        self._jobs[key] = job
        self._by_id[job.id] = job
        self.started += 1
        asyncio.wrap_future(fut).add_done_callback(lambda f: self._finish(key, job, f))
        return {"state": "pending", "found": [], "total": None}

    def _ensure(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._executor is None:
            ctx = multiprocessing.get_context("spawn")  # (not fork: the server has threads of its own)
            self._loop = asyncio.get_running_loop()
            self._queue = ctx.Queue()
            self._executor = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=ctx, initializer=start_worker, initargs=(self._queue,)
            )
            self._reader = threading.Thread(target=self._read, args=(self._queue,), name="gouji-reviews", daemon=True)
            self._reader.start()
        return self._executor

    def _read(self, queue: Any) -> None:
        """The progress queue's reader (a thread): each message handed to the event loop, until a None; then it
        closes the queue (closed by another thread, the read under way would fail)."""
        loop = self._loop
        assert loop is not None
        try:
            while True:
                try:
                    msg = queue.get()
                except (EOFError, OSError):
                    return
                if msg is None:
                    return
                try:
                    loop.call_soon_threadsafe(self._progress, *msg)
                except RuntimeError:  # the loop is closed
                    return
        finally:
            queue.close()

    def _progress(self, job_id: int, kind: str, payload: Any) -> None:
        job = self._by_id.get(job_id)
        if job is None:
            return
        if kind == "total":
            job.total = int(payload)
        elif kind == "decision":
            job.found.append(payload)

    def _finish(self, key: Hashable, job: Job, fut: asyncio.Future[dict[str, Any]]) -> None:
        self._jobs.pop(key, None)
        self._by_id.pop(job.id, None)
        if fut.cancelled():
            return
        e = fut.exception()
        if e is None:
            self.keep(key, fut.result())
            if self.finished is not None:
                self.finished(key, fut.result())
        elif isinstance(e, ReviewError):
            self._keep(key, {"state": "refused", "error": str(e)})
        else:
            log.error("a review failed: %r", e)
            if isinstance(e, BrokenProcessPool):
                self._drop_executor()

    def keep(self, key: Hashable, review: dict[str, Any]) -> None:
        """Keep a finished review (worked out here, or read from the database)."""
        self._keep(key, {"state": "done", "review": review})

    def _keep(self, key: Hashable, value: dict[str, Any]) -> None:
        self._done[key] = value
        while len(self._done) > self.kept:
            self._done.popitem(last=False)

    def _drop_executor(self) -> None:
        executor, queue = self._executor, self._queue
        self._executor = self._queue = None
        if executor is not None:
            procs = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for p in procs:  # a review under way is of no more use: its answer has nowhere to go
                if p.is_alive():
                    p.terminate()
        if queue is not None:
            queue.put(None)  # the reader thread ends, and closes the queue

    def close(self) -> None:
        """Stop the workers (at the server's shutdown)."""
        self._drop_executor()
        if self._reader is not None:
            self._reader.join(timeout=5)
            self._reader = None


__all__ = ["Job", "ReviewPool"]
