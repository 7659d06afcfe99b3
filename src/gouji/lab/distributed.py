"""Spreading work over worker processes or a Ray cluster, with the results in order.

The arena's duplicate pairs and training's self-play games are the same kind of work: a picklable
function applied to many independent items (a range of pair indices, a batch of seeds), whose results come
back in the items' order so that the outcome does not depend on how the work was spread.
:func:`workers` gives a pool of one of three kinds, all with the same :meth:`Workers.map`:

- ``workers(1)``: in this process, one item after the other;
- ``workers(n)``: ``n`` processes of a :class:`concurrent.futures.ProcessPoolExecutor` (``--jobs n``);
- ``workers(n, ray=ADDRESS)``: ``n`` Ray actors (``--ray``) — on a local Ray instance started for the pool
  when ``ADDRESS`` is :data:`LOCAL` (or on the instance already running in this process, if any), else on
  the cluster at ``ADDRESS`` (``"auto"``, ``"ray://host:10001"``).  Ray is the optional extra ``rl``
  (``pip install 'gouji[rl]'``); on a cluster, every node needs ``gouji`` installed.

A pool keeps its processes or actors until :meth:`Workers.close` (it is a context manager), so a training
loop can map over it again and again without starting them anew.  :func:`map_chunks` is the one-shot form.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import TracebackType
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"
"""The Ray address that means: a Ray instance on this machine, started for the pool."""
IN_FLIGHT = 2
"""Items handed to each worker ahead of time, so that none waits for the next one."""


class Workers:
    """A pool of workers; :meth:`map` applies a function to items and returns the results in order."""

    kind = "serial"
    size = 1

    def map(
        self, fn: Callable[[T], R], items: Sequence[T], on_result: Callable[[int, R], None] | None = None
    ) -> list[R]:
        """``[fn(item) for item in items]``, spread over the workers.  ``on_result(i, result)`` is called
        in this process as each item's result arrives (in any order).  An exception in ``fn`` is raised
        here, and the items not yet started are dropped."""
        out: list[R] = []
        for i, item in enumerate(items):
            r = fn(item)
            out.append(r)
            if on_result is not None:
                on_result(i, r)
        return out

    def close(self) -> None:
        """Stop the workers (a serial pool has none)."""

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


class ProcessWorkers(Workers):
    """``jobs`` worker processes."""

    kind = "processes"

    def __init__(self, jobs: int) -> None:
        self.size = jobs
        self._pool = ProcessPoolExecutor(max_workers=jobs)

    def map(
        self, fn: Callable[[T], R], items: Sequence[T], on_result: Callable[[int, R], None] | None = None
    ) -> list[R]:
        results: dict[int, R] = {}
        pending: dict[Future[R], int] = {}
        queue = iter(enumerate(items))

        def submit() -> None:
            for i, item in queue:
                pending[self._pool.submit(fn, item)] = i
                return

        try:
            for _ in range(IN_FLIGHT * self.size):
                submit()
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    i = pending.pop(future)
                    results[i] = future.result()
                    if on_result is not None:
                        on_result(i, results[i])
                    submit()
        except BaseException:
            for future in pending:
                future.cancel()
            raise
        return [results[i] for i in range(len(items))]

    def close(self) -> None:
        self._pool.shutdown(cancel_futures=True)


class RayWorkers(Workers):
    """``jobs`` Ray actors on the instance at ``address`` (:data:`LOCAL`: on this machine)."""

    kind = "ray"

    def __init__(self, jobs: int | None, address: str = LOCAL) -> None:
        ray = _ray()
        self._started = False
        if not ray.is_initialized():
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            quiet = {"log_to_driver": False, "logging_level": logging.ERROR}
            if address == LOCAL:
                ray.init(num_cpus=jobs or os.cpu_count() or 1, include_dashboard=False, **quiet)
            else:
                ray.init(address=address, **quiet)
            self._started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.size = max(1, min(jobs or cpus, cpus))  # an actor holds one CPU: more would never start
        actor = ray.remote(num_cpus=1)(_Actor)
        self._actors = [actor.remote() for _ in range(self.size)]

    def map(
        self, fn: Callable[[T], R], items: Sequence[T], on_result: Callable[[int, R], None] | None = None
    ) -> list[R]:
        ray = _ray()
        fn_ref = ray.put(fn)
        results: dict[int, R] = {}
        pending: dict[Any, tuple[int, Any]] = {}
        queue = iter(enumerate(items))

        def submit(actor: Any) -> None:
            for i, item in queue:
                pending[actor.run.remote(fn_ref, item)] = (i, actor)
                return

        try:
            for _ in range(IN_FLIGHT):
                for actor in self._actors:
                    submit(actor)
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    i, actor = pending.pop(ref)
                    results[i] = ray.get(ref)
                    if on_result is not None:
                        on_result(i, results[i])
                    submit(actor)
        except BaseException:
            for ref in pending:
                ray.cancel(ref)
            raise
        return [results[i] for i in range(len(items))]

    def close(self) -> None:
        ray = _ray()
        for actor in self._actors:
            ray.kill(actor)
        self._actors = []
        if self._started:
            ray.shutdown()


class _Actor:
    """A Ray actor that applies the functions it is sent."""

    def run(self, fn: Callable[[Any], Any], item: Any) -> Any:
        return fn(item)


def _ray() -> Any:
    try:
        import ray
    except ImportError:  # pragma: no cover - the rl extra is installed in the tests
        raise RuntimeError("Ray is not installed: pip install 'gouji[rl]' (or pip install ray)") from None
    return ray


def workers(jobs: int | None = 1, ray: str | None = None) -> Workers:
    """A pool of ``jobs`` workers: processes, or Ray actors when ``ray`` is an address (:data:`LOCAL` for
    a local instance; ``jobs=None`` then means one per CPU of the cluster).  Raises ``ValueError`` for
    ``jobs < 1`` and ``RuntimeError`` when Ray is asked for but not installed."""
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if ray is not None:
        return RayWorkers(jobs, ray)
    if jobs is None or jobs == 1:
        return Workers()
    return ProcessWorkers(jobs)


def map_chunks(
    fn: Callable[[T], R],
    items: Sequence[T],
    jobs: int | None = 1,
    ray: str | None = None,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """``[fn(item) for item in items]`` on a pool made for the call (see :func:`workers`)."""
    with workers(jobs, ray) as pool:
        return pool.map(fn, items, on_result)
