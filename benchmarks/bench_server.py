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
Stops after ``--seconds`` or ``--moves``, whichever comes first, and prints moves per second and the
50th/95th/99th percentile latency.

    .venv/bin/python benchmarks/bench_server.py [--tables 100] [--seconds 30] [--moves 200000] [--think 0]

Loopback only; bounded in time and count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect


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


async def player(
    url: str, token: str, seat: int, stats: Stats, stop: asyncio.Event, rng: random.Random, think: float
) -> None:
    async with connect(url, max_size=2**20, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        sent_at: float | None = None
        acted_state = -1
        ready_sent = -1
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            frame = orjson.loads(raw)
            stats.frames += 1
            kind = frame["type"]
            if kind == "error":
                stats.errors[frame["code"]] = stats.errors.get(frame["code"], 0) + 1
                sent_at = None
                continue
            if kind != "state":
                continue
            if sent_at is not None and frame["state"] > acted_state:
                stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            turn = frame["turn"]
            table = frame["table"]
            if seat == 0:
                stats.deals_over = max(stats.deals_over, table["deals_over"])
            pause = table["ready"]
            if pause is not None and not pause["seats"][seat] and ready_sent != table["deals_over"]:
                # between two deals the table waits for every seat's ``ready`` (the tables have no timeout)
                ready_sent = table["deals_over"]
                await ws.send(json.dumps({"type": "ready", "token": token}))
                continue
            if turn["seat"] == seat and "legal_count" in turn and frame["state"] != acted_state:
                options = turn.get("choices") or turn.get("sample") or []
                plays = [a for a in options if a not in ("pass", "yield")]
                action = rng.choice(plays) if plays and rng.random() < 0.7 else options[0]
                acted_state = frame["state"]
                if think:
                    await asyncio.sleep(think * rng.random() * 2)
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action, "state": frame["state"], "token": token}))


async def run(tables: int, seconds: float, max_moves: int, port: int, think: float, pid: int) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        seats: list[tuple[str, str, int]] = []
        for t in range(tables):
            code = (await http.post("/api/tables", json={"turn_seconds": None, "set_length": 20})).json()["code"]
            for s in range(6):
                r = await http.post(f"/api/tables/{code}/join", json={"nickname": f"p{t}-{s}", "seat": s})
                seats.append((code, r.json()["token"], s))
    stats = Stats()
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(
            player(f"ws://127.0.0.1:{port}/ws/tables/{code}", token, seat, stats, stop, random.Random(i), think)
        )
        for i, (code, token, seat) in enumerate(seats)
    ]
    start = time.perf_counter()
    cpu0, own0 = cpu_seconds(pid), time.process_time()
    while time.perf_counter() - start < seconds and len(stats.latencies) < max_moves:
        await asyncio.sleep(0.1)
        if any(t.done() and t.exception() for t in tasks):
            break
    elapsed = time.perf_counter() - start
    cpu1, own1 = cpu_seconds(pid), time.process_time()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    failed = [t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception()]
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
        "latency_ms": {"p50": round(q[49] * 1000, 2), "p95": round(q[94] * 1000, 2), "p99": round(q[98] * 1000, 2)},
        "server_cpu_ms_per_move": round((cpu1 - cpu0) * 1000 / len(lat), 3) if cpu0 and cpu1 and lat else None,
        "client_cpu_ms_per_move": round((own1 - own0) * 1000 / len(lat), 3) if lat else None,
        "load_average": os.getloadavg()[0],
        "errors": stats.errors,
        "failed_connections": len(failed),
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
        cmd = [
            sys.executable,
            "-m",
            "gouji.server.serve",
            "--port",
            str(port),
            "--database-url",
            f"sqlite:///{os.path.join(tmp, 'bench.db')}",
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
            result = runner(run(args.tables, args.seconds, args.moves, port, args.think, server.pid))
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
    print(f"errors: {result['errors'] or 'none'}; failed connections: {result['failed_connections']}")


if __name__ == "__main__":
    main()
