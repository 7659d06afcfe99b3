"""Reads of storage, off the writer: :class:`Reader`.

The database writer (:mod:`.durability`, :mod:`.writer_process`) runs every commit of every table in order,
and each frame of a change waits for its commit; a read run there too waits in the same queue and holds up
every table's frames while it runs (a player's game list of 63 records took 105 ms there, and 25 at once
raised another table's frame gaps from 102 ms to 977 ms at the 95th percentile).  So the reads of the HTTP
API run here instead: on a few threads of their own, each with its own connection from the store's pool —
never queued behind a commit — and a client may read only so fast (:attr:`.limits.Limits.read_rate`,
``read_burst``; 429 with ``Retry-After`` past it).  What they read was committed before anyone was told of
it, so a new connection sees it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import RequestError
from ..limits import Limits, PerClient
from . import Store

T = TypeVar("T")

READ_THREADS = 2
"""Threads (each with its own database connection) that run reads at once."""
READS_AT_ONCE = 16
"""Reads running or queued for a thread at once; more wait on the event loop (a coroutine each)."""


class Reader:
    """Runs reads of the store on threads of their own (:meth:`call`), a client's at most so fast."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self._pool = concurrent.futures.ThreadPoolExecutor(READ_THREADS, thread_name_prefix="gouji-read")
        self._slots = asyncio.Semaphore(READS_AT_ONCE)
        self._per_client = PerClient(limits.read_rate, limits.read_burst)

    def admit(self, client: str) -> None:
        """Spend one of ``client``'s reads; :class:`RequestError` (429, with the wait) when it has none."""
        if not self._per_client.take(client):
            wait = self._per_client.wait(client)
            raise RequestError(429, "too many reads: wait a little", retry_after=wait)

    async def call(self, client: str | None, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on a read thread (``client``'s read, limited; None: the server's own)."""
        if client is not None:
            self.admit(client)
        async with self._slots:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
