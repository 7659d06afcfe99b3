"""The direct way in (:class:`~gouji.server.play_socket.PlaySocket`, the protocol ``gouji serve`` runs): once a
connection's ``hello`` is accepted, its text messages are handled as they arrive, not through the ASGI
queue and the connection's task — with the same answers, limits and refusals as the task gives (the
in-process tests, on Starlette's test client, take the task's way)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from gouji.server import Limits, create_app
from gouji.server import protocol as P
from gouji.server.play_socket import PlaySocket

from .conftest import ROOMY, choose

BOTS5 = [None, "random", "random", "random", "random", "random"]


class Live:
    """The app served by Uvicorn on :class:`PlaySocket`, in a thread of the test process."""

    def __init__(self, database: Path, limits: Limits) -> None:
        app = create_app(f"sqlite:///{database}", turn_seconds=None, bot_delay=0.0, limits=limits)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", lifespan="on", ws=PlaySocket, access_log=False)
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < end, "the server did not start"
            time.sleep(0.02)

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve(sockets=[self.sock]))

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()

    def sockets(self) -> list[PlaySocket]:
        """The server's WebSocket connections (read on its loop)."""

        async def get() -> list[PlaySocket]:
            return [c for c in self.server.server_state.connections if isinstance(c, PlaySocket)]

        return asyncio.run_coroutine_threadsafe(get(), self.loop).result(10)

    def table(self) -> tuple[str, str]:
        body = {"nickname": "ann", "bots": BOTS5}
        out = httpx.post(f"http://127.0.0.1:{self.port}/api/tables", json=body, timeout=10).json()
        return out["code"], out["token"]

    @contextlib.contextmanager
    def connect(self, code: str, token: str | None) -> Iterator[ClientConnection]:
        with connect(f"ws://127.0.0.1:{self.port}/ws/tables/{code}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            yield ws


def _until(ws: ClientConnection, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, end - time.monotonic())))
        if frame["type"] == kind:
            return frame


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Any]:
    servers: list[Live] = []

    def make(limits: Limits = ROOMY) -> Live:
        servers.append(Live(tmp_path / f"g{len(servers)}.db", limits))
        return servers[-1]

    yield make
    for s in servers:
        s.stop()


def test_after_hello_messages_come_the_direct_way_and_play_goes_on(live: Any) -> None:
    server = live()
    code, token = server.table()
    with server.connect(code, token) as ws:
        ws.send(json.dumps({"type": "ping", "id": "one"}))
        assert _until(ws, "pong")["id"] == "one"
        assert [s.on_text is not None for s in server.sockets()] == [True]  # hello accepted: the direct way
        ws.send(json.dumps({"type": "sync"}))  # the view again (the frames before the pong were skipped)
        moved = 0
        end = time.monotonic() + 30
        while moved < 3:
            assert time.monotonic() < end, "seat 0 was not asked three times"
            frame = _until(ws, "state")
            turn = frame["turn"]
            if frame["table"]["ready"] is not None and not frame["table"]["ready"]["seats"][0]:
                ws.send(json.dumps({"type": "ready", "token": token}))
            elif turn["seat"] == 0 and "legal_count" in turn:
                action = choose(turn)
                intent = {"type": "act", "action": action, "decision": turn["decision"], "token": token}
                ws.send(json.dumps(intent))
                after = _until(ws, "state")
                assert after["state"] > frame["state"]
                # the answer was taken (in a window of several seats it may lose to another's: then a pass)
                mine = [e["action"] for e in after["events"] if e.get("seat") == 0 and e["type"] == "act"]
                assert mine in ([action], ["pass"]), (action, after["events"])
                moved += 1
        ws.send(json.dumps({"type": "act", "action": "nonsense", "decision": 0, "token": token}))
        assert _until(ws, "error")["code"] in (P.ILLEGAL, P.STALE, P.NOT_YOUR_TURN, P.NOT_READY, P.BAD_MESSAGE)
        # a binary message takes the ASGI way, with the same answer
        ws.send(json.dumps({"type": "ping", "id": "bytes"}).encode())
        assert _until(ws, "pong")["id"] == "bytes"


def test_the_direct_way_refuses_a_flood_and_closes_the_connection_as_the_task_does(live: Any) -> None:
    server = live()
    code, token = server.table()
    with server.connect(code, token) as ann, server.connect(code, None) as watcher:
        for _ in range(200):
            try:
                ann.send("{not json")
            except ConnectionClosed:
                break
        errors = []
        with pytest.raises(ConnectionClosed):
            while True:
                errors.append(json.loads(ann.recv(timeout=5)))
        assert ann.close_code == 1008
        codes = {e["code"] for e in errors if e["type"] == "error"}
        assert P.BAD_JSON in codes and codes <= {P.BAD_JSON, P.RATE_LIMITED}
        assert errors[-1]["message"] == "too many refused messages: closing"
        assert len(errors) < 60  # refused quickly, not answered 200 times
        # the table's other connection is still served
        watcher.send(json.dumps({"type": "ping", "id": "still-there"}))
        assert _until(watcher, "pong")["id"] == "still-there"
        end = time.monotonic() + 10
        while len(server.sockets()) != 1:
            assert time.monotonic() < end, "the refused connection was not closed on the server"
            time.sleep(0.02)


def test_the_direct_way_limits_the_rate_of_valid_messages(live: Any) -> None:
    server = live(Limits(rate=1, burst=10, bad_burst=100))
    code, token = server.table()
    with server.connect(code, token) as ann:
        start = time.monotonic()
        for i in range(30):
            ann.send(json.dumps({"type": "ping", "id": str(i)}))
        frames = []
        while len(frames) < 30:
            frame = json.loads(ann.recv(timeout=10))
            if frame["type"] in ("pong", "error"):
                frames.append(frame)
        refilled = int(time.monotonic() - start) + 1
        pongs = [f for f in frames if f["type"] == "pong"]
        limited = [f for f in frames if f["type"] == "error" and f["code"] == P.RATE_LIMITED]
        assert 9 <= len(pongs) <= 9 + refilled and len(limited) == 30 - len(pongs)  # hello took one
        assert [f["id"] for f in pongs][:9] == [str(i) for i in range(9)]
