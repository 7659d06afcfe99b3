"""The direct way in (:class:`~gouji.server.http.play_socket.PlaySocket`, the protocol ``gouji serve`` runs): once a
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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from gouji.server import Limits, create_app
from gouji.server.http.play_socket import PlaySocket
from gouji.server.messages import protocol as P

from .conftest import ROOMY, choose

BOTS5 = [None, "random", "random", "random", "random", "random"]


class Live:
    """The app served by Uvicorn on :class:`PlaySocket`, in a thread of the test process."""

    def __init__(self, database: Path, limits: Limits, seeds: Callable[[], int]) -> None:
        app = create_app(f"sqlite:///{database}", turn_seconds=None, bot_delay=0.0, limits=limits, seeds=seeds)
        self.app = app
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

    def writer(self) -> Any:
        """The app's database writer."""
        return self.app.state.lobby.writer

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
def live(tmp_path: Path, seeds: Callable[[], int]) -> Iterator[Any]:
    servers: list[Live] = []

    def make(limits: Limits = ROOMY) -> Live:
        servers.append(Live(tmp_path / f"g{len(servers)}.db", limits, seeds))
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
        # and after each read it took messages of, the frames of the changes stored by now go out (the writer's)
        after = [s.after_text for s in server.sockets()]
        assert [(type(getattr(f, "__self__", None)), getattr(f, "__name__", None)) for f in after] == [
            (type(server.writer()), "poll")
        ]
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


class _Transport(asyncio.Transport):
    """What the protocol writes, and whether it stopped reading or closed."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 4321), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: Any) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


_HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nhost: 127.0.0.1:8000\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
    b"sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n"
)


def _client_frames(rng: Any, limit: int) -> list[bytes]:
    """A client's frames of every kind the framing must take or hand on: text of each length encoding,
    invalid UTF-8, pings, binary, a fragmented text (and a text where a continuation was due), an unmasked
    frame or one over the limit (each fails the connection), and a close."""
    from websockets.frames import Frame, Opcode

    def frame(opcode: Opcode, data: bytes, fin: bool = True, mask: bool = True) -> bytes:
        return Frame(opcode, data, fin).serialize(mask=mask, extensions=[])

    def text(n: int) -> bytes:
        return ("够" * n)[: max(1, n // 3)].encode()[:n]

    out = [frame(Opcode.TEXT, json.dumps({"first": i}).encode()) for i in range(rng.randrange(1, 5))]
    for _ in range(rng.randrange(1, 12)):
        kind = rng.choice(["text", "text", "long", "ping", "binary", "fragments", "bad utf8", "text in fragments"])
        if kind == "text":
            out.append(frame(Opcode.TEXT, json.dumps({"n": rng.randrange(10**6)}).encode()))
        elif kind == "long":
            out.append(frame(Opcode.TEXT, text(rng.choice([126, 300, 70_000 if limit > 70_000 else 3000]))))
        elif kind == "ping":
            out.append(frame(Opcode.PING, b"p%d" % rng.randrange(100)))
        elif kind == "binary":
            out.append(frame(Opcode.BINARY, b"\x00\x01"))
        elif kind == "text in fragments":  # a protocol error (a continuation was due): the library's to fail
            out += [frame(Opcode.TEXT, b'{"a":', fin=False), frame(Opcode.TEXT, b"{}")]
        elif kind == "fragments":
            out += [frame(Opcode.TEXT, b'{"a":', fin=False), frame(Opcode.CONT, b"1}")]
        else:
            out.append(frame(Opcode.TEXT, b"\xff\xfe"))
    end = rng.choice(["close", "close", "unmasked", "too large", "none"])
    if end == "close":
        out.append(frame(Opcode.CLOSE, (1000).to_bytes(2, "big") + b"bye"))
    elif end == "unmasked":
        out.append(frame(Opcode.TEXT, b"{}", mask=False))
    elif end == "too large":
        out.append(frame(Opcode.TEXT, b"x" * (limit + 1)))
    out.append(frame(Opcode.TEXT, b'{"after":1}'))  # (after an end: the library discards it)
    return out


def _feed(
    stream: bytes, cuts: list[int], framing: bool, limit: int
) -> tuple[list[str], list[Any], list[tuple[int, int, str]], bytes, bool]:
    """Feed a client's stream after the handshake to a PlaySocket, cut at ``cuts``; what it handed the
    direct handler and the app, what raised, what it wrote and whether it closed.  Without ``framing`` every byte goes
    to the library's parser, as before the protocol cut frames itself."""
    from uvicorn.server import ServerState

    direct: list[str] = []
    asgi: list[Any] = []
    raised: list[tuple[int, int, str]] = []
    result: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            asgi.append(message)
            if message["type"] == "websocket.disconnect":
                return

    async def main() -> None:
        config = uvicorn.Config(app, ws=PlaySocket, ws_max_size=limit, lifespan="off", log_level="critical")
        config.load()
        sock = PlaySocket(config=config, server_state=ServerState(), app_state={}, _loop=asyncio.get_running_loop())
        transport = _Transport()
        sock.connection_made(transport)
        sock.data_received(_HANDSHAKE)
        for _ in range(50):
            await asyncio.sleep(0)
        assert bytes(transport.written).startswith(b"HTTP/1.1 101"), bytes(transport.written)[:200]
        assert sock._framing
        if not framing:
            sock._framing = False
        sock.on_text = direct.append
        afters: list[int] = []
        sock.after_text = lambda: afters.append(len(direct))
        reads: list[tuple[int, int]] = []
        at = 0
        for cut in [*cuts, len(stream)]:
            before = len(direct)
            try:
                sock.data_received(stream[at:cut])
            except Exception as e:  # (Uvicorn's: a second bad UTF-8 text once closing; the same both ways)
                raised.append((len(direct), len(asgi), type(e).__name__))
            reads.append((before, len(direct)))
            at = cut  # (and no turn of the loop: the app takes nothing from the queue while the bytes come)
        # after_text once for each read the direct handler took messages of, after them (and only then)
        assert afters == [n for before, n in reads if n > before]
        sock.connection_lost(None)
        for _ in range(20):
            await asyncio.sleep(0)
        result.extend([bytes(transport.written), transport.closed])
        if sock.close_timer is not None:
            sock.close_timer.cancel()

    from .test_frames import run_async

    run_async(main)
    return direct, asgi, raised, result[0], result[1]


@pytest.mark.parametrize("limit", [4096, 100_000])
def test_the_protocols_framing_gives_what_the_librarys_parser_gives(limit: int) -> None:
    """PlaySocket cuts the bytes into frames itself and takes whole text frames: for every stream of frames a
    client may send — each kind of frame, cut anywhere across reads, a byte at a time too — the direct
    handler, the app and the client must get exactly what the websockets library's parser alone gave them:
    the same messages in the same order, the same pongs and close frames, the same end.  And after each read
    the direct handler took messages of, and only then, ``after_text`` is called once (the app takes the
    database writer's acknowledgements there).

    (The library is given the same bytes cut between every two frames as well: given several frames in one
    read, it answers a close among them before the data frames ahead of it reach the app — an order the
    framing does not keep, as it hands each frame on in turn.)"""
    import itertools
    import random

    rng = random.Random(limit)
    taken = 0
    for case in range(60):
        frames = _client_frames(rng, limit)
        stream = b"".join(frames)
        if case % 10 == 0:
            cuts = list(range(1, len(stream)))[:400]  # a byte at a time (the first 400)
        else:
            cuts = sorted(rng.sample(range(1, len(stream)), min(len(stream) - 1, rng.randrange(0, 6))))
        between = list(itertools.accumulate(len(f) for f in frames))[:-1]
        want = _feed(stream, sorted(set(cuts) | set(between)), framing=False, limit=limit)
        got = _feed(stream, cuts, framing=True, limit=limit)
        assert got == want, (case, cuts)
        taken += len(got[0])
    assert taken > 150  # the handler took the texts until one had to queue (the rest went the library's way)


def test_a_served_connection_writes_its_frames_straight_to_uvicorns_transport(live: Any) -> None:
    """The fast path (:mod:`gouji.server.http.fast_send`) reads Uvicorn's own attributes of its WebSocket protocol.
    When a release of Uvicorn renames or drops one, this fails naming it, rather than the server quietly
    writing every frame the slow way."""
    from gouji.server.http.fast_send import PROTOCOL_ATTRIBUTES, missing_attributes

    server = live()
    code, token = server.table()
    # (no per-message deflate, as gouji serve runs: a compressed connection takes ASGI's way)
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{code}", open_timeout=10, compression=None) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        ws.send(json.dumps({"type": "ping", "id": "one"}))
        assert _until(ws, "pong")["id"] == "one"
        socks = server.sockets()
        assert len(socks) == 1
        assert missing_attributes(socks[0]) == [], f"Uvicorn's protocol no longer has {missing_attributes(socks[0])}"
        assert missing_attributes(None) == list(PROTOCOL_ATTRIBUTES)
        room = server.app.state.lobby.rooms[code]
        conns = list(room.conns)
        assert len(conns) == 1 and conns[0]._write_now is not None, "the connection was given no direct write"
        written: list[str] = []
        real = conns[0]._write_now

        def spy(text: str) -> bool:
            done: bool = real(text)
            if done:
                written.append(text)
            return done

        conns[0]._write_now = spy
        ws.send(json.dumps({"type": "sync"}))
        assert _until(ws, "state")["full"] is True
        end = time.monotonic() + 5  # (the client may read the frame before the server's thread notes it)
        while not written and time.monotonic() < end:
            time.sleep(0.01)
        assert written and json.loads(written[-1])["type"] == "state", "the frame did not take the fast path"
