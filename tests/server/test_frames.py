"""The outgoing side of the server: connections that write frames in place or through their queue, the event
lists the seats share, and the writer's batches of events."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import time
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from gouji import Deal
from gouji.engine.rules import PRESETS, resolve
from gouji.engine.tribute import Payment
from gouji.server.config import TableConfig
from gouji.server.http.connection import Connection
from gouji.server.storage import EventOp, StatusOp, Store
from gouji.server.storage.durability import Writer
from gouji.server.tables.table import token_hash

from ..helpers import random_playout


def run_async(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``main()`` on a new event loop in its own thread (the browser tests leave a running loop behind in
    the test process's main thread, where ``asyncio.run`` would refuse)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result(timeout=60)


class FakeSocket:
    """``send_text`` of a socket that takes data at once, or — while ``blocked`` is cleared — waits."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.open = asyncio.Event()
        self.open.set()
        self.fail: Exception | None = None

    async def send_text(self, text: str) -> None:
        if self.fail is not None:
            raise self.fail
        await self.open.wait()
        self.sent.append(text)


def test_a_frame_is_written_in_place_when_nothing_waits() -> None:
    async def main() -> None:
        sock = FakeSocket()
        conn = Connection(limit=4, send=sock.send_text)
        writer = asyncio.create_task(conn.run_writer())
        conn.push("a")
        conn.push("b")
        assert sock.sent == ["a", "b"]  # before any await: no task was woken to write them
        assert conn.queue.empty()
        conn.end()
        await asyncio.wait_for(writer, 1)
        assert not conn.dropped

    run_async(main)


def test_the_direct_write_takes_a_frame_at_once_and_hands_it_to_the_socket_when_it_cannot() -> None:
    """``write_now`` (the server's direct way out) writes when the socket takes data; when it says no, the
    frame and every frame after it go through the socket's ``send_text``, in order; when it raises, the
    connection is dropped."""

    async def main() -> None:
        sock = FakeSocket()
        direct: list[str] = []
        takes = [True]

        def write_now(text: str) -> bool:
            if takes[0]:
                direct.append(text)
            return takes[0]

        conn = Connection(limit=8, send=sock.send_text, write_now=write_now)
        writer = asyncio.create_task(conn.run_writer())
        conn.push("a")
        assert direct == ["a"] and sock.sent == [] and conn.queue.empty()
        takes[0] = False
        sock.open.clear()  # and the slow way waits too
        conn.push("b")
        takes[0] = True
        conn.push("c")  # queued behind b, though the socket takes data again
        assert direct == ["a"]
        sock.open.set()
        for _ in range(50):
            await asyncio.sleep(0)
        assert sock.sent == ["b", "c"]
        conn.push("d")  # nothing waits: the direct way again
        assert direct == ["a", "d"]

        def gone(text: str) -> bool:
            raise OSError("the socket is gone")

        conn._write_now = gone
        conn.push("e")
        assert conn.dropped
        await asyncio.wait_for(writer, 1)

    run_async(main)


def test_a_connection_hashes_a_token_again_only_when_it_changes() -> None:
    conn = Connection()
    assert conn.hash_of("secret") == token_hash("secret")
    assert conn.hash_of("secret") == token_hash("secret")
    assert conn.hash_of("other") == token_hash("other") != token_hash("secret")
    assert conn.hash_of("secret") == token_hash("secret")


def test_a_write_that_waits_keeps_the_order_and_the_writer_finishes_it() -> None:
    async def main() -> None:
        sock = FakeSocket()
        conn = Connection(limit=8, send=sock.send_text)
        writer = asyncio.create_task(conn.run_writer())
        sock.open.clear()  # the client stops reading
        conn.push("a")  # starts, and waits
        conn.push("b")
        conn.push("c")
        await asyncio.sleep(0.01)
        assert sock.sent == []
        sock.open.set()
        for _ in range(50):
            await asyncio.sleep(0)
        assert sock.sent == ["a", "b", "c"]
        conn.push("d")  # nothing waits any more: in place again
        assert sock.sent == ["a", "b", "c", "d"]
        conn.push("e")
        conn.end()
        conn.push("f")  # after the end: not sent
        await asyncio.wait_for(writer, 1)
        assert sock.sent == ["a", "b", "c", "d", "e"] and not conn.dropped

    run_async(main)


def test_a_connection_that_does_not_read_is_dropped_when_its_queue_fills() -> None:
    async def main() -> None:
        sock = FakeSocket()
        conn = Connection(limit=3, send=sock.send_text)
        writer = asyncio.create_task(conn.run_writer())
        sock.open.clear()
        for i in range(10):
            conn.push(str(i))
        assert conn.dropped
        await asyncio.wait_for(writer, 1)  # the writer stops (the app then closes the socket with 1008)
        sock.open.set()
        conn.push("late")
        await asyncio.sleep(0.01)
        assert "late" not in sock.sent

    run_async(main)


def test_a_write_to_a_gone_socket_drops_the_connection_and_stops_the_writer() -> None:
    async def main() -> None:
        sock = FakeSocket()
        conn = Connection(limit=4, send=sock.send_text)
        writer = asyncio.create_task(conn.run_writer())
        await asyncio.sleep(0)
        sock.fail = RuntimeError('Cannot call "send" once a close message has been sent.')
        conn.push("a")
        assert conn.dropped
        await asyncio.wait_for(writer, 1)

    run_async(main)


def test_a_cancelled_writer_cancels_the_write_it_waits_on() -> None:
    async def main() -> None:
        sock = FakeSocket()
        conn = Connection(limit=4, send=sock.send_text)
        writer = asyncio.create_task(conn.run_writer())
        sock.open.clear()
        conn.push("a")
        await asyncio.sleep(0.01)
        writer.cancel()
        with pytest.raises(asyncio.CancelledError):
            await writer
        sock.open.set()
        await asyncio.sleep(0.01)
        assert sock.sent == []

    run_async(main)


def _events_of_many_deals() -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    rng = random.Random(5)
    for name in PRESETS:
        for k in range(3):
            d = Deal.new(resolve(name), seed=rng.randrange(10**9), leader=k)
            random_playout(d, rng, eager_revolt=k == 2)
            events.extend(d.events)
    hands = ["AKQ", "AKQ", "DD2QJ9", "AKQ", "AKQ", "9765"]
    rules = resolve("qingdao").replace(bie_san=False)
    d = Deal.from_hands(hands, rules, 0, setup=True, tribute=[Payment("luo", 2, 5, 2, returned=True)])
    d.act("return 65")
    events.extend(d.events)
    void_hands = ["55D", "66", "23T", "23J", "23Q", "23K"]  # seat 0 pays its joker and may revolt
    d = Deal.from_hands(void_hands, rules, 0, setup=True, seed=3, tribute=[Payment("men", 0, 3, 1)])
    d.act("revolt")
    d.act("revolt")
    events.extend(d.events)
    return events


def test_events_said_to_be_the_same_for_every_seat_are() -> None:
    events = _events_of_many_deals()
    kinds = {e["type"] for e in events}
    assert {"deal", "void", "tribute_return", "act"} <= kinds
    differing = set()
    for e in events:
        seen = [Deal.public_event(e, s) for s in (None, *range(6))]
        if Deal.event_same_for_all(e):
            assert all(v == seen[0] for v in seen), e
        else:
            assert any(v != seen[0] for v in seen), e
            differing.add(e["type"] if e["type"] != "act" else "return")
    assert differing == {"deal", "void", "tribute_return", "return"}


def test_group_commit_stores_before_it_answers_and_batches_what_arrives_meanwhile(tmp_path: Any) -> None:
    """Each change's callback runs only once the change is in the database; the changes made while a
    transaction is in flight go together into the next one; a change's writes share one transaction."""
    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    store.migrate()
    config = TableConfig("qingdao", resolve("qingdao").to_dict(), 1, 1, None, 0.0, (None,) * 6)
    table_id = store.create_table("ABCDEF", config.to_dict(), "owner")
    batches: list[int] = []
    real = store.write_batch

    def slow_write(ops: Any) -> None:
        batches.append(len(ops))
        time.sleep(0.05)
        real(ops)

    store.write_batch = slow_write  # type: ignore[method-assign]

    def events() -> list[int]:
        return [e["state"] for t in store.open_tables() if t.id == table_id for e in t.events]

    async def main() -> None:
        writer = Writer(store)
        seen: list[tuple[int, list[int]]] = []

        def change(n: int) -> None:
            writer.commit([EventOp(table_id, n, "auto", 0, {"on": n % 2 == 0})], lambda: seen.append((n, events())))

        change(1)  # goes alone: nothing is in flight
        await asyncio.sleep(0.01)
        change(2)
        change(3)
        change(4)  # these three arrive while the first is in flight
        await writer.drain()
        assert batches == [1, 3]
        assert [n for n, _ in seen] == [1, 2, 3, 4]
        for n, stored in seen:
            assert n in stored  # stored before its callback ran
        assert seen[0][1] == [1]
        writer.commit(
            [EventOp(table_id, 5, "act", 0, {}), StatusOp(table_id, "over")],
            lambda: seen.append((5, events())),
        )
        await writer.drain()
        assert batches[-1] == 2 and writer.transactions == 3
        writer.close()

    run_async(main)
    assert events() == []  # the table is over: no longer an open table
    assert store.table_info("ABCDEF")["status"] == "over"  # type: ignore[index]
    store.close()


def test_a_failed_transaction_is_retried_and_nothing_is_answered_before_it_succeeds(tmp_path: Any) -> None:
    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    store.migrate()
    config = TableConfig("qingdao", resolve("qingdao").to_dict(), 1, 1, None, 0.0, (None,) * 6)
    table_id = store.create_table("ABCDEF", config.to_dict(), "owner")
    real = store.write_batch
    fails = [2]

    def flaky(ops: Any) -> None:
        if fails[0]:
            fails[0] -= 1
            raise OSError("disk on fire")
        real(ops)

    store.write_batch = flaky  # type: ignore[method-assign]

    async def main() -> None:
        writer = Writer(store)
        done: list[int] = []
        writer.commit([EventOp(table_id, 1, "start", None, {})], lambda: done.append(1))
        await asyncio.sleep(0.03)
        assert done == [] and len(writer.errors) == 1
        await writer.drain()
        assert done == [1] and len(writer.errors) == 2
        writer.close()

    run_async(main)
    assert [e["state"] for e in store.open_tables()[0].events] == [1]
    store.close()


def test_the_websocket_of_play_bypasses_the_middleware_and_other_paths_do_not(make_server: Any) -> None:
    from starlette.websockets import WebSocketDisconnect

    with make_server() as server:
        client = server.client
        code = client.post("/api/tables", json={}).json()["code"]
        with client.websocket_connect(f"/ws/tables/{code.lower()}") as ws:  # codes are case-insensitive
            ws.send_json({"type": "hello", "v": 1})
            assert ws.receive_json()["type"] == "welcome"
            assert ws.receive_json()["type"] == "state"
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/tables/") as ws:
            ws.receive_json()
        assert client.get(f"/api/tables/{code}").json()["code"] == code  # HTTP goes through Starlette


def test_the_server_process_tunes_the_interpreter() -> None:
    import subprocess
    import sys

    code = (
        "import gc, sys; from gouji.server.serve import tune_interpreter, GC_THRESHOLDS, SWITCH_INTERVAL; "
        "tune_interpreter(); "
        "assert gc.get_threshold() == GC_THRESHOLDS, gc.get_threshold(); "
        "assert sys.getswitchinterval() == SWITCH_INTERVAL; assert gc.get_freeze_count() > 1000"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
