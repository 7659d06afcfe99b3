"""A client's faults, on a real server process, are answered and said in one line of the server's log: no
error and no traceback, which any client could otherwise write into it at will.

- A text message that is not UTF-8 fails its connection with 1007 (RFC 6455 8.1); Uvicorn logged an error
  with the traceback of the decoding.  The table plays on.
- A request whose client hangs up before its body is in; Starlette raises ``ClientDisconnect`` as the body
  is read, which the server took for a failure of its own."""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from websockets.frames import Frame, Opcode

from .conftest import wait_serving


@contextmanager
def serving(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A server process on 127.0.0.1 (its log at the level ``info``, where the line is written)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path / "server.log"
    cmd = [sys.executable, "-m", "gouji.server.serve", "--port", str(port), "--log-level", "info"]
    cmd += ["--database-url", f"sqlite:///{tmp_path / 'g.db'}", "--no-access-log", "--bot-delay", "0"]
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_serving(proc, base, log)
        yield base, log
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _frame(opcode: Opcode, data: bytes, fin: bool = True) -> bytes:
    return Frame(opcode, data, fin).serialize(mask=True, extensions=[])


class RawClient:
    """A WebSocket client on a plain socket, to send what no client library sends: text that is not UTF-8."""

    def __init__(self, base: str, code: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /ws/tables/{code} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self.buf += self._recv()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        assert data, "the server closed the connection without a close frame"
        return data

    def send(self, *frames: bytes) -> None:
        self.sock.sendall(b"".join(frames))

    def frame(self) -> tuple[int, bytes]:
        """The server's next frame (unmasked): its opcode and payload."""
        while True:
            if len(self.buf) >= 10 or (len(self.buf) >= 2 and self.buf[1] & 0x7F < 126):
                n, at = self.buf[1] & 0x7F, 2
                if n == 126:
                    n, at = int.from_bytes(self.buf[2:4], "big"), 4
                elif n == 127:
                    n, at = int.from_bytes(self.buf[2:10], "big"), 10
                if len(self.buf) >= at + n:
                    opcode, payload = self.buf[0] & 0x0F, self.buf[at : at + n]
                    self.buf = self.buf[at + n :]
                    return opcode, payload
            self.buf += self._recv()

    def text(self) -> dict[str, object]:
        opcode, payload = self.frame()
        assert opcode == Opcode.TEXT.value, (opcode, payload)
        message: dict[str, object] = json.loads(payload)
        return message

    def close_code(self) -> int:
        """The code of the server's close frame, skipping the frames before it."""
        while True:
            opcode, payload = self.frame()
            if opcode == Opcode.CLOSE.value:
                return int.from_bytes(payload[:2], "big")


def test_text_that_is_not_utf8_fails_the_connection_with_1007_in_one_line_of_log(tmp_path: Path) -> None:
    with serving(tmp_path) as (base, log):
        code = httpx.post(f"{base}/api/tables", json={"bots": [None] + ["random"] * 5}).json()["code"]
        token = httpx.post(f"{base}/api/tables/{code}/join", json={"nickname": "ann", "seat": 0}).json()["token"]
        hello = json.dumps({"type": "hello", "v": 1, "token": token}).encode()

        before_hello = RawClient(base, code)
        before_hello.send(_frame(Opcode.TEXT, b'{"type":"hello","v":1,"token":"\xff"}'))
        assert before_hello.close_code() == 1007

        twice = RawClient(base, code)  # two in one write: the second is dropped with the connection
        twice.send(_frame(Opcode.TEXT, b"\xff\xfe"), _frame(Opcode.TEXT, b"\xc3\x28"))
        assert twice.close_code() == 1007

        seated = RawClient(base, code)  # past hello, where a seat's messages go straight to its table
        seated.send(_frame(Opcode.TEXT, hello))
        assert seated.text()["type"] == "welcome"
        seated.send(_frame(Opcode.TEXT, b'{"type":"ping","id":"\xed\xa0\x80"}'))  # (a lone surrogate)
        assert seated.close_code() == 1007

        in_fragments = RawClient(base, code)
        in_fragments.send(_frame(Opcode.TEXT, hello))
        assert in_fragments.text()["type"] == "welcome"
        in_fragments.send(_frame(Opcode.TEXT, b'{"type":"ping","id":"\xe5', fin=False), _frame(Opcode.CONT, b'"}'))
        assert in_fragments.close_code() == 1007

        # and the seat plays on: its player reconnects and is welcomed back to the table
        again = RawClient(base, code)
        again.send(_frame(Opcode.TEXT, hello))
        welcome = again.text()
        assert welcome["type"] == "welcome" and welcome["seat"] == 0 and welcome["role"] == "player"
        assert again.text()["type"] == "state"
        assert httpx.get(f"{base}/api/tables/{code}").json()["status"] == "playing"
    text = log.read_text()
    assert text.count("sent a text message that is not UTF-8: connection closed (1007)") == 4, text
    assert "Traceback" not in text and "ERROR" not in text, text


def test_a_client_hanging_up_before_its_body_is_in_is_no_error_of_the_server(tmp_path: Path) -> None:
    with serving(tmp_path) as (base, log):
        host, port = base.removeprefix("http://").split(":")
        for path in ("/api/tables", "/api/events", "/api/matches"):
            with socket.create_connection((host, int(port)), timeout=10) as s:
                s.sendall(
                    f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                    'Content-Length: 100\r\n\r\n{"bots":'.encode()
                )
                time_to_read = httpx.get(f"{base}/api/tables/NONE")  # (the server has read the head meanwhile)
                assert time_to_read.status_code == 404
        # the server answers on, and a whole request still makes a table
        assert httpx.post(f"{base}/api/tables", json={"bots": ["random"] * 6}).status_code == 201
    text = log.read_text()
    for path in ("/api/tables", "/api/events", "/api/matches"):
        assert f"POST {path}: the client hung up before its request's body was in" in text, text
    assert "Traceback" not in text and "ERROR" not in text, text
