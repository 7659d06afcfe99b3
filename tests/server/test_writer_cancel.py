"""A caller that stops waiting for the database writer does not stop the writer (found by the hall's task,
cancelled at shutdown while a call of its was queued: the writer thread set a result on the cancelled future,
raised, and died — every later commit and the shutdown's drain then waited for ever)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from pathlib import Path

from gouji.server.storage import open_store
from gouji.server.storage.durability import Writer


def _slow(_store: object, seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_a_cancelled_call_leaves_the_writer_working(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'w.db'}")

    async def run() -> None:
        writer = Writer(store)
        try:
            first = asyncio.ensure_future(writer.call(_slow, store, 0.3))
            queued = asyncio.ensure_future(writer.call(_slow, store, 0.0))  # waits behind the first
            await asyncio.sleep(0.05)
            queued.cancel()
            assert await first == 0.3
            assert await asyncio.wait_for(writer.call(_slow, store, 0.0), 5) == 0.0
            await asyncio.wait_for(writer.drain(), 5)
        finally:
            writer.close()

    try:  # (on a thread of its own: the test's thread may hold another test's running loop)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, run()).result(30)
    finally:
        store.close()
