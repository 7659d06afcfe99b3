"""The real server (Uvicorn, real sockets): a client that stops reading is dropped without holding its table
back, and comes back with its token."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.sync.client import connect
from websockets.uri import parse_uri

from gouji.server import Limits, create_app

from ..browser.conftest import LiveServer


@pytest.fixture
def live(tmp_path: Path, seeds: Callable[[], int]) -> Iterator[LiveServer]:
    app = create_app(
        f"sqlite:///{tmp_path / 'live.db'}",
        seeds=seeds,
        turn_seconds=None,
        bot_delay=0.0,
        limits=Limits(queue=8, create_burst=1000, waiting_per_client=1000, tables_per_client=1000, seat_burst=1000),
    )
    server = LiveServer(app, tmp_path / "live.db")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _connect(live: LiveServer, code: str) -> Any:
    return connect(f"ws://127.0.0.1:{live.port}/ws/tables/{code}", open_timeout=10)


class StillClient:
    """A WebSocket client that sends what it is told and reads nothing after the handshake (a small receive
    buffer, so that the frames pile up on the server's side): the websockets library's sans-I/O protocol on
    a plain socket."""

    def __init__(self, live: LiveServer, code: str) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", live.port))
        self.ws = ClientProtocol(parse_uri(f"ws://127.0.0.1:{live.port}/ws/tables/{code}"))
        self.ws.send_request(self.ws.connect())
        self._flush()
        head = b""
        while b"\r\n\r\n" not in head:  # the handshake's answer, and not a byte more
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.ws.receive_data(head)
        assert self.ws.events_received() and self.ws.handshake_exc is None

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(message).encode())
        self._flush()

    def _flush(self) -> None:
        for data in self.ws.data_to_send():
            self.sock.sendall(data)

    def close(self) -> None:
        self.sock.close()


def test_a_client_that_stops_reading_is_dropped_and_the_table_plays_on(live: LiveServer) -> None:
    bots = [None, "random", "random", "random", "random", "random"]
    made = live.create(bots=bots, nickname="slow", seat=0, set_length=20, turn_seconds=None, bot_delay=0)
    code, token = made["code"], made["token"]
    still = StillClient(live, code)
    still.send({"type": "hello", "v": 1, "token": token})
    still.send({"type": "auto", "on": True, "token": token})  # 托管: the bots play the whole set
    # ... and from here on the client reads nothing: the socket's buffers fill, then the server's writes wait,
    # then the connection's queue (8 frames here) fills and the server drops it.
    room = live.room(code)
    live.wait(lambda: room.status == "playing" and room.seats[0].auto, what="auto-play")
    conn = next(c for c in list(room.conns) if c.seat == 0)
    live.wait(lambda: conn.dropped, timeout=60, what="the connection being dropped")
    at_drop = room.state
    live.wait(lambda: room.state > at_drop + 200 or room.status == "over", timeout=60, what="play going on")
    still.close()

    # the player comes back with the token and gets the whole current view (断线重连)
    with _connect(live, code) as again:
        again.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        assert json.loads(again.recv(timeout=10))["type"] == "welcome"
        first = json.loads(again.recv(timeout=10))
        assert first["type"] == "state" and first["full"] is True and first["state"] >= at_drop
        assert first["view"]["seat"] == 0 and "hand" in first["view"]
    live.wait(lambda: conn not in room.conns, timeout=10, what="the dropped connection being let go of")


@pytest.mark.parametrize("servers", [1, 2])
def test_the_load_benchmark_runs_and_reports(servers: int) -> None:
    """The load benchmark plays, kills and counts; with ``--servers 2`` over two servers (a table on each),
    the moves lost counted against both databases."""
    import subprocess
    import sys

    bench = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_server.py"
    args = ["--tables", "2", "--seconds", "2", "--think", "0", "--kill", "--json", "--servers", str(servers)]
    out = subprocess.run([sys.executable, str(bench), *args], capture_output=True, text=True, timeout=120, check=True)
    (result,) = json.loads(out.stdout)["runs"]
    assert result["servers"] == servers and result["server_cpu_ms_per_move"] > 0
    assert result["connections"] == 12 and result["moves"] > 0 and result["moves_per_second"] > 0
    assert result["errors"] == {} and result["failed_connections"] == 0
    assert result["latency_ms"]["p50"] <= result["latency_ms"]["p95"] <= result["latency_ms"]["p99"]
    assert result["killed"] and result["states_seen"] > 0 and result["states_seen_not_stored"] == 0
    assert 0 <= result["cpu_steal_percent"] <= 100


def test_the_load_benchmark_measures_the_floor_of_the_transport() -> None:
    """``--floor``: after the run at saturation, the same clients play against the stand-in that does the
    server's transport alone (``benchmarks/floor_server.py``): its frames are read, answered and timed as the
    server's are, and no lost moves are counted against a database it does not have."""
    import subprocess
    import sys

    bench = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_server.py"
    args = ["--tables", "2", "--seconds", "2", "--think", "0", "--floor", "--json"]
    out = subprocess.run([sys.executable, str(bench), *args], capture_output=True, text=True, timeout=120, check=True)
    server, floor = json.loads(out.stdout)["runs"]
    assert server["database"] == "sqlite" and floor["database"] == "floor"
    assert floor["connections"] == 12 and floor["moves"] > 100 and floor["errors"] == {}
    assert floor["failed_connections"] == 0 and floor["server_cpu_ms_per_move"] > 0
    assert floor["states_seen"] > 0 and floor["states_seen_not_stored"] is None
    assert floor["latency_ms"]["p50"] <= floor["latency_ms"]["p95"]
    assert server["states_seen_not_stored"] == 0
