"""Load benchmark of the game server: many tables of six client bots over real WebSocket connections.

Starts ``gouji.server.serve`` in a subprocess on 127.0.0.1 (a fresh SQLite database in a temporary folder),
creates ``--tables`` tables with six people's seats and no turn timer, joins six players per table, and
connects each over its own WebSocket.  Each player answers its own turns with an action the view offers
(from ``turn.choices``, or ``turn.sample`` when a lead has too many actions to list) — at once, or after a
random think time with ``--think`` — and measures the time from sending the intent to receiving the next view;
in the pause between two deals of the set it says ``ready`` at once (the tables have no ready timeout, so
without it every table would stop after its first deal).
With no think time the loop is closed and saturated: every table always has a move in flight, so by Little's
law the latency is about tables / throughput; a think time makes it a load test at a given rate.
Counting starts once every connection is open; it stops after ``--seconds`` or ``--moves``, whichever
comes first, and prints moves per second, the 50th/95th/99th percentile latency, the CPU time per move of the
server and of the clients, and how many committed events the server had not yet stored at the end.

    .venv/bin/python benchmarks/bench_server.py [--tables 100] [--seconds 30] [--moves 200000] [--think 0]

Loopback only; bounded in time and count.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
import orjson
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.frames = 0
        self.deals_over = 0
        self.table_state: dict[str, int] = {}
        """The latest state number of each table (as seat 0 saw it): the table's events committed so far."""


class Player(asyncio.Protocol):
    """One seat's client bot: a WebSocket connection driven by the websockets library's sans-I/O protocol on
    an asyncio transport.  Frames are handled as they arrive, without a task, queue or timeout per frame, so
    the load generator costs the machine (whose two cores it shares with the server) as little as a Python
    client can, and the figures measure the server rather than its clients."""

    def __init__(self, url: str, token: str, seat: int, stats: Stats, rng: random.Random, think: float) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=2**20)
        self.token, self.seat, self.stats, self.rng, self.think = token, seat, stats, rng, think
        self.code = url.rsplit("/", 1)[1]
        self.transport: asyncio.Transport | None = None
        self.open = asyncio.get_running_loop().create_future()
        self.closed = asyncio.get_running_loop().create_future()
        self.sent_at: float | None = None
        self.acted_state = -1
        self.ready_sent = -1
        self.stopping = False

    # transport callbacks
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if self.ws.handshake_exc is not None:
                    self.open.set_exception(self.ws.handshake_exc)
                    return
                self.open.set_result(None)
                self._send({"type": "hello", "v": 1, "token": self.token})
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                assert event.fin, "the server sends every frame whole"
                self.on_frame(orjson.loads(event.data))
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.open.done():
            self.open.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(self.stopping)

    def _send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(orjson.dumps(message))
        self._flush()

    def _flush(self) -> None:
        out = self.ws.data_to_send()
        if out and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(out))

    def close(self) -> None:
        self.stopping = True
        if self.transport is not None and not self.transport.is_closing():
            self.ws.send_close()
            self._flush()
            self.transport.close()

    # the bot
    def on_frame(self, frame: dict[str, Any]) -> None:
        stats, seat = self.stats, self.seat
        stats.frames += 1
        kind = frame["type"]
        if kind == "error":
            stats.errors[frame["code"]] = stats.errors.get(frame["code"], 0) + 1
            self.sent_at = None
            return
        if kind != "state" or self.stopping:
            return
        if self.sent_at is not None and frame["state"] > self.acted_state:
            stats.latencies.append(time.perf_counter() - self.sent_at)
            self.sent_at = None
        turn = frame["turn"]
        table = frame["table"]
        if seat == 0:
            stats.deals_over = max(stats.deals_over, table["deals_over"])
            stats.table_state[self.code] = frame["state"]
        pause = table["ready"]
        if pause is not None and not pause["seats"][seat] and self.ready_sent != table["deals_over"]:
            # between two deals the table waits for every seat's ``ready`` (the tables have no timeout)
            self.ready_sent = table["deals_over"]
            self._send({"type": "ready", "token": self.token})
            return
        if turn["seat"] == seat and "legal_count" in turn and frame["state"] != self.acted_state:
            options = turn.get("choices") or turn.get("sample") or []
            plays = [a for a in options if a not in ("pass", "yield")]
            action = self.rng.choice(plays) if plays and self.rng.random() < 0.7 else options[0]
            self.acted_state = state = frame["state"]
            intent = {"type": "act", "action": action, "state": state, "token": self.token}
            if self.think:
                asyncio.get_running_loop().call_later(self.think * self.rng.random() * 2, self._act, intent)
            else:
                self._act(intent)

    def _act(self, intent: dict[str, Any]) -> None:
        if self.stopping:
            return
        self.sent_at = time.perf_counter()
        self._send(intent)


async def run(
    tables: int, seconds: float, max_moves: int, port: int, think: float, pid: int, db: str
) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        seats: list[tuple[str, str, int]] = []
        for t in range(tables):
            # no masking time (it is the bot delay): the benchmark measures the server, not the table's pace
            body = {"turn_seconds": None, "set_length": 20, "bot_delay": 0}
            code = (await http.post("/api/tables", json=body)).json()["code"]
            for s in range(6):
                r = await http.post(f"/api/tables/{code}/join", json={"nickname": f"p{t}-{s}", "seat": s})
                seats.append((code, r.json()["token"], s))
    stats = Stats()
    loop = asyncio.get_running_loop()
    players = [
        Player(f"ws://127.0.0.1:{port}/ws/tables/{code}", token, seat, stats, random.Random(i), think)
        for i, (code, token, seat) in enumerate(seats)
    ]
    for p in players:
        await loop.create_connection(lambda p=p: p, "127.0.0.1", port)  # type: ignore[misc]
    await asyncio.gather(*(p.open for p in players))
    gc.collect()
    gc.freeze()  # the connections live to the end: keep the collector from walking them again and again
    # play has begun at the tables whose six connections opened first: count only from here on
    stats.latencies.clear()
    stats.frames = 0
    stats.errors.clear()
    start = time.perf_counter()
    cpu0, own0 = cpu_seconds(pid), time.process_time()
    while time.perf_counter() - start < seconds and len(stats.latencies) < max_moves:
        await asyncio.sleep(0.1)
        if any(p.closed.done() for p in players):
            break
    elapsed = time.perf_counter() - start
    cpu1, own1 = cpu_seconds(pid), time.process_time()
    committed = sum(stats.table_state.values())
    with sqlite3.connect(db) as conn:  # what the server has written of them (its writer runs 20 ms behind)
        stored = conn.execute("SELECT count(*) FROM table_events").fetchone()[0]
    failed = sum(1 for p in players if p.closed.done() and not p.closed.result())
    for p in players:
        p.close()
    await asyncio.wait([p.closed for p in players], timeout=10)
    lat = sorted(stats.latencies)
    q = statistics.quantiles(lat, n=100) if len(lat) >= 100 else [float("nan")] * 99
    return {
        "tables": tables,
        "connections": len(seats),
        "think_seconds": think,
        "seconds": round(elapsed, 2),
        "moves": len(lat),
        "moves_per_second": round(len(lat) / elapsed, 1),
        "frames_received": stats.frames,
        "latency_ms": {
            "mean": round(statistics.fmean(lat) * 1000, 2) if lat else None,
            "p50": round(q[49] * 1000, 2),
            "p95": round(q[94] * 1000, 2),
            "p99": round(q[98] * 1000, 2),
        },
        "server_cpu_ms_per_move": round((cpu1 - cpu0) * 1000 / len(lat), 3) if cpu0 and cpu1 and lat else None,
        "client_cpu_ms_per_move": round((own1 - own0) * 1000 / len(lat), 3) if lat else None,
        "load_average": os.getloadavg()[0],
        "events_not_yet_stored": committed - stored,
        "errors": stats.errors,
        "failed_connections": failed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--moves", type=int, default=200_000)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a client bot waits before answering (uniform 0..2×); 0: answer at once (saturation)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "bench.db")
        cmd = [
            sys.executable,
            "-m",
            "gouji.server.serve",
            "--port",
            str(port),
            "--database-url",
            f"sqlite:///{db}",
            "--turn-seconds",
            "0",
            "--log-level",
            "warning",
            "--no-access-log",
        ]
        server = subprocess.Popen(cmd)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            try:
                import uvloop

                runner: Any = uvloop.run
            except ImportError:  # pragma: no cover
                runner = asyncio.run
            result = runner(run(args.tables, args.seconds, args.moves, port, args.think, server.pid, db))
        finally:
            server.terminate()
            server.wait(timeout=30)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    lat = result["latency_ms"]
    print(
        f"{result['tables']} tables, {result['connections']} WebSocket connections, think {result['think_seconds']} s, "
        f"{result['seconds']} s: "
        f"{result['moves']} moves, {result['moves_per_second']} moves/s"
    )
    print(f"intent → next view latency: p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms")
    print(
        f"CPU per move: server {result['server_cpu_ms_per_move']} ms, clients {result['client_cpu_ms_per_move']} ms; "
        f"load average {result['load_average']:.2f} on {os.cpu_count()} cores"
    )
    print(f"events committed but not yet stored at the end: {result['events_not_yet_stored']}")
    print(f"errors: {result['errors'] or 'none'}; failed connections: {result['failed_connections']}")


if __name__ == "__main__":
    main()
