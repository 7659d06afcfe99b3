"""The database writer in a process of its own (:class:`~gouji.server.storage.writer_process.ProcessWriter`): the
same promise as the thread writer — a change's callback runs only once it is stored, in order, the changes
of one turn of the loop in one transaction, calls in order with the commits — and its life bound to the
server's: it dies with the server (``kill -9`` included), and the server knows when it is gone.

(The real server runs it by default on Linux, so every test of a server process — the crash test's
``kill -9`` above all — runs on it too.)"""

from __future__ import annotations

import asyncio
import gc
import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from gouji import resolve
from gouji.server.config import TableConfig
from gouji.server.replays.api import _load
from gouji.server.storage import EventOp, StatusOp, Store, open_store
from gouji.server.storage.writer_process import ProcessWriter, WriterDied

from .test_frames import run_async

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the writer process is for Linux")


def _table(store: Store, code: str = "ABCDEF") -> int:
    config = TableConfig("qingdao", resolve("qingdao").to_dict(), 1, 1, None, 0.0, (None,) * 6)
    return store.create_table(code, config.to_dict(), "owner")


def _states(store: Store, table_id: int) -> list[int]:
    return [e["state"] for t in store.open_tables() if t.id == table_id for e in t.events]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def _soon(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


def test_commits_are_stored_before_their_callbacks_in_order_a_turns_commits_in_one_transaction(
    db_url: str,
) -> None:
    store = open_store(db_url)
    table_id = _table(store)

    async def main() -> None:
        writer = await ProcessWriter.start(store, db_url, stop_on_death=False)
        seen: list[tuple[int, list[int]]] = []

        def change(n: int) -> None:
            ops: list[Any] = [EventOp(table_id, n, "auto", 0, {"on": n % 2 == 0, "text": "够级 " * n})]
            writer.commit(ops, lambda: seen.append((n, _states(store, table_id))))

        for n in (1, 2, 3):  # one turn of the loop: one message, one transaction
            change(n)
        assert writer.backlog == 3
        await writer.drain()
        assert [n for n, _ in seen] == [1, 2, 3]
        for n, stored in seen:
            assert n in stored  # stored (by the other process) before its callback ran
        assert writer.transactions == 1 and writer.backlog == 0
        change(4)
        await writer.drain()
        assert writer.transactions == 2
        assert writer.errors == []
        pid = writer.pid
        assert pid is not None and _alive(pid)
        writer.close()
        assert not _alive(pid)  # it ended at the end of its socket

    run_async(main)
    assert _states(store, table_id) == [1, 2, 3, 4]
    events = store.open_tables()[0].events
    assert events[2]["data"] == {"on": False, "text": "够级 够级 够级 "}  # the data went through as it was
    store.close()


def test_calls_run_in_order_with_the_commits_and_give_back_results_and_exceptions(db_url: str) -> None:
    store = open_store(db_url)
    table_id = _table(store)

    async def main() -> None:
        writer = await ProcessWriter.start(store, db_url, stop_on_death=False)
        writer.commit([EventOp(table_id, 1, "start", None, {})], lambda: None)
        # no drain: the call goes after the commit made before it
        tables = await writer.call(store.open_tables)
        assert [[e["state"] for e in t.events] for t in tables] == [[1]]
        assert (await writer.call(store.table_info, "ABCDEF"))["status"] == "open"  # type: ignore[index]
        assert await writer.call(store.table_info, "NOSUCH") is None
        # a module's function given the store: the writer's own store takes its place
        assert await writer.call(_load, store, 123456) is None
        with pytest.raises(IntegrityError):  # the database's error, as the thread writer gives it
            await writer.call(store.create_table, "ABCDEF", {}, "again")
        writer.commit([EventOp(table_id, 2, "act", 0, {}), StatusOp(table_id, "over")], lambda: None)
        assert (await writer.call(store.table_info, "ABCDEF"))["status"] == "over"  # type: ignore[index]
        writer.close()

    run_async(main)
    store.close()


def test_poll_runs_the_callbacks_of_what_is_stored_without_waiting_for_the_loops_next_turn(db_url: str) -> None:
    """The server's event loop reads the writer's acknowledgements once a turn; ``poll`` (called after each
    player's message) takes those that have come by now, so their frames go out within the turn.  Its reads
    and the loop's are of one stream: with an acknowledgement cut between them, every callback runs once, in
    order, and only once its change is stored."""
    store = open_store(db_url)
    table_id = _table(store)

    def waiting(reader: Any) -> bool:
        return bool(select.select([reader], [], [], 0)[0])

    async def main() -> None:
        writer = await ProcessWriter.start(store, db_url, stop_on_death=False)
        seen: list[int] = []

        def change(n: int) -> None:
            ops: list[Any] = [EventOp(table_id, n, "auto", 0, {"on": n % 2 == 0})]
            writer.commit(ops, lambda: seen.append(n) or stored.append(_states(store, table_id)[-1]))

        stored: list[int] = []
        writer.poll()  # nothing waits to be stored: nothing to read
        change(1)
        await asyncio.sleep(0)  # the end of the turn: the commit goes to the writer
        end = time.monotonic() + 10
        while not waiting(writer._reader):  # the loop does not turn while this waits (time.sleep)
            assert time.monotonic() < end, "no acknowledgement came"
            time.sleep(0.005)
        assert seen == []  # the loop has not read it
        writer.poll()
        assert seen == [1] and stored == [1]  # now, with no turn of the loop

        writer.POLL_BYTES = 3  # acknowledgements cut between poll's reads and the loop's
        for n in range(2, 30):
            change(n)
            if n % 3:
                await asyncio.sleep(0)
            time.sleep(0.002)
            writer.poll()
        await asyncio.wait_for(writer.drain(), 10)
        assert seen == list(range(1, 30))
        assert all(last >= n for n, last in zip(seen, stored, strict=True))  # each ran once its change was stored
        writer.close()
        writer.poll()  # after the close: nothing, no error

    run_async(main)
    store.close()


def test_the_writer_keeps_what_it_opened_out_of_its_collectors_sight(tmp_path: Path) -> None:
    """What exists once the database is open (modules, the engine) is frozen in the writer process, so its
    full collections walk only what came later (each of them holds back every change in flight)."""
    url = f"sqlite:///{tmp_path / 'w.db'}"
    store = open_store(url)

    async def main() -> None:
        writer = await ProcessWriter.start(store, url, stop_on_death=False)
        frozen = await writer.call(gc.get_freeze_count)
        young = await writer.call(gc.get_count)
        writer.close()
        assert frozen > 10_000, frozen
        assert sum(young) < frozen

    run_async(main)
    store.close()


def test_a_failed_transaction_is_retried_and_nothing_is_answered_before_it_succeeds(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.db'}"
    store = open_store(url)
    table_id = _table(store)
    store.append_events([(table_id, 1, "start", None, {})])  # the state the next commit will repeat

    async def main() -> None:
        writer = await ProcessWriter.start(store, url, stop_on_death=False)
        done: list[int] = []
        writer.commit([EventOp(table_id, 1, "start", None, {"again": True})], lambda: done.append(1))
        await _soon(lambda: bool(writer.errors), "the failure reported")
        assert done == [] and "IntegrityError" in str(writer.errors[0])
        with store.engine.begin() as c:  # the conflict goes away: the retry succeeds
            c.execute(sa.text("DELETE FROM table_events WHERE table_id = :t"), {"t": table_id})
        await asyncio.wait_for(writer.drain(), 10)
        assert done == [1]
        writer.close()

    run_async(main)
    assert [e["data"] for e in store.open_tables()[0].events] == [{"again": True}]
    store.close()


def test_a_database_the_writer_cannot_open_is_a_storage_error(tmp_path: Path) -> None:
    """A writer that cannot open the database: ``start`` raises StorageError (what ``gouji serve`` reports),
    and the server's process does not stop as it would if a running writer died (in a process of its own,
    so that a stop would show)."""
    url = f"sqlite:///{tmp_path / 'w.db'}"
    open_store(url).close()
    program = textwrap.dedent(
        f"""
        import asyncio
        from gouji.server.storage import StorageError, open_store
        from gouji.server.storage.writer_process import ProcessWriter

        async def main():
            try:
                await ProcessWriter.start(open_store({url!r}), "bogus://x")
            except StorageError as e:
                await asyncio.sleep(0.3)  # (the writer's end of the socket has closed by now)
                print("refused:", e)

        asyncio.run(main())
        """
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "refused: the database writer cannot open the database" in out.stdout


def test_when_the_writer_dies_nothing_more_is_promised(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.db'}"
    store = open_store(url)
    table_id = _table(store)

    async def main() -> None:
        writer = await ProcessWriter.start(store, url, stop_on_death=False)
        await writer.drain()
        pid = writer.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        await _soon(lambda: writer._dead is not None, "the server noticing its writer died")
        with pytest.raises(WriterDied):
            writer.commit([EventOp(table_id, 1, "start", None, {})], lambda: pytest.fail("never stored"))
        with pytest.raises(WriterDied):
            await writer.call(store.open_tables)
        with pytest.raises(WriterDied):
            await writer.drain()
        writer.close()

    run_async(main)
    assert _states(store, table_id) == []
    store.close()


def test_the_writer_dies_with_the_server(tmp_path: Path) -> None:
    """``kill -9`` of the server kills its writer too (the kernel does it): no writer of a dead server is
    left storing while a new server restores from the same database."""
    url = f"sqlite:///{tmp_path / 'w.db'}"
    open_store(url).close()
    program = textwrap.dedent(
        f"""
        import asyncio, sys
        from gouji.server.storage import open_store
        from gouji.server.storage.writer_process import ProcessWriter

        async def main():
            writer = await ProcessWriter.start(open_store({url!r}), {url!r})
            print(writer.pid, flush=True)
            await asyncio.sleep(60)

        asyncio.run(main())
        """
    )
    server = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE)
    try:
        assert server.stdout is not None
        pid = int(server.stdout.readline())
        assert _alive(pid)
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        end = time.monotonic() + 10
        while _alive(pid):
            assert time.monotonic() < end, "the writer outlived its server"
            time.sleep(0.01)
    finally:
        if server.poll() is None:
            server.kill()


def test_the_writer_takes_a_reset_socket_as_the_servers_end() -> None:
    """A server killed with acknowledgements it had not read resets the socket (ECONNRESET, not an end of
    file): the writer stops as at the end of the socket, without a traceback."""
    import socket

    from gouji.server.storage.writer_process import _Child, _pack

    server, writer = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    writer.sendall(_pack(("a", 1)) * 50)  # acknowledgements the server never read
    server.sendall(_pack(("c", [])))
    server.close()
    child = _Child(writer)
    first = child.read(block=True)
    assert first in ([], [("c", [])])  # what came before the reset, if the kernel kept it
    assert child.read(block=True) == [] and child.eof
    writer.close()


def test_a_commits_writes_cross_to_the_writer_as_they_were() -> None:
    """Events cross the socket as plain tuples (cheaper to pickle than named tuples) and come out as events
    again; records and statuses cross as themselves; order and contents are kept."""
    import pickle

    from gouji.server.storage import RecordOp
    from gouji.server.storage.writer_process import _from_wire, _to_wire

    ops: list[Any] = [
        EventOp(3, 10, "act", 2, {"action": "3 3", "seat": 2}),
        RecordOp(3, "deal", 0, [{"seat": 0, "nickname": "a"}], b'{"a":1}'),
        EventOp(3, 11, "start", None, {}),
        StatusOp(3, "over"),
    ]
    wire = _to_wire(ops)
    assert [type(op) for op in wire] == [tuple, RecordOp, tuple, StatusOp]
    back = _from_wire(pickle.loads(pickle.dumps(wire, protocol=pickle.HIGHEST_PROTOCOL)))
    assert back == ops and [type(op) for op in back] == [type(op) for op in ops]
