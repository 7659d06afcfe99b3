"""Load benchmark of the game server: many tables of six client bots over real WebSocket connections.

Starts ``gouji.server.serve`` in a subprocess on 127.0.0.1 (a fresh SQLite database in a temporary folder,
and with ``--postgres URL`` a fresh database on that PostgreSQL too), creates ``--tables`` tables with six
people's seats and no turn timer, joins six players per table, and
connects each over its own WebSocket.  Each player answers its own turns with an action the view offers
(from ``turn.choices``, or ``turn.sample`` when a lead has too many actions to list) — at once, or after a
random think time with ``--think`` — and measures the time from sending the intent to receiving the next view
(the first frame of a later state: an answer to a window that asks several seats at once, a burn offer or a
revolution, moves the view on only once the last of them answered, so with a think time theirs is in its
latency; these answers are also reported apart, and the others);
in the pause between two deals of the set it says ``ready`` at once (the tables have no ready timeout, so
without it every table would stop after its first deal).
With no think time the loop is closed and saturated: every table always has a move in flight, so by Little's
law the latency is about tables / throughput; a think time makes it a load test at a given rate.
Counting starts once every connection is open; it stops after ``--seconds`` or ``--moves``, whichever
comes first, and prints moves per second, the 50th/95th/99th percentile latency, the CPU time per move of the
server and of the clients.  The server sends a change only once it is stored, so at the end every state
number a client saw must be in the database: with ``--kill`` each run ends with ``kill -9`` of the server
while every table has moves in flight, and the benchmark counts the state numbers the clients saw that the
database does not have (lost moves: the promise is 0).  ``--memory N`` plays rounds of N tables of six bots
to the end in process and prints the traced memory per finished table of each round while the lobby holds
it and after it lets it go (the steady-state growth, after a first round).
``--servers N`` starts N servers, each on a database of its own, and spreads the tables over them in turn:
the ceiling of sharing the tables out over N processes (no process in front of them, no table that needs
another's), to tell whether that would raise the throughput on this machine.
``--floor`` runs the same clients, after each run at saturation, against ``floor_server.py``: a stand-in that
does the server's transport alone (the same way in and out on uvloop, frames of the same size and shape) and
no game and no database, so its figures are the floor of a move's cost on this machine at that moment, and
the gap to the server's is what the game's work costs.

    .venv/bin/python benchmarks/bench_server.py [--tables 100] [--seconds 30] [--moves 200000]
        [--think 0 0.2] [--postgres URL] [--kill] [--memory 100] [--servers 1] [--floor] [--json]

Loopback only; bounded in time and count.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import uuid
from pathlib import Path
from typing import Any

import httpx
import orjson
import sqlalchemy as sa
from websockets.client import ClientProtocol
from websockets.frames import Opcode
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


def tree_cpu_seconds(pid: int) -> float | None:
    """CPU time of a process and of its children (the server's database writer process)."""
    total = cpu_seconds(pid)
    if total is None:
        return None
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(k) for k in f.read().split()]
    except OSError:
        kids = []
    return total + sum(cpu_seconds(k) or 0.0 for k in kids)


def servers_cpu_seconds(servers: list[Server]) -> float | None:
    """The CPU time of the servers (each with its writer process), or None."""
    times = [tree_cpu_seconds(server.pid) for server in servers]
    return None if None in times else sum(t for t in times if t is not None)


def cpu_times() -> tuple[int, int] | None:
    """The machine's CPU time so far, all of it and the part stolen by the hypervisor (``/proc/stat``, in
    clock ticks): on a virtual machine whose host is busy the steal rises and every figure here falls with
    it, whatever the code.  None off Linux."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return sum(fields[:8]), fields[7] if len(fields) > 7 else 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.alone: list[float] = []
        """The latencies of answers to a decision of one seat alone (the rest)."""
        self.shared: list[float] = []
        """The latencies of answers to a window that asks several seats at once (a burn offer, a revolution):
        the view moves on only once the last of them has answered, so with a think time theirs is in it."""
        self.errors: dict[str, int] = {}
        self.frames = 0
        self.table_state: dict[str, int] = {}
        """The latest state number of each table (as seat 0 saw it): the table's events committed so far."""


def _parts(payload: bytes) -> dict[str, Any]:
    """The parts of a frame the client bots read: a ``state`` frame outside the pause between two deals as its
    ``type``, ``state``, ``table.ready`` (null) and ``turn`` alone — the turn's JSON parsed by itself, between
    ``"turn":`` and ``,"events":`` (the server writes them last, in this order), the state number from the
    frame's head — rather than the whole frame, whose six players and view no bot reads (parsing them cost
    the clients a sixth of their CPU time, on the cores they share with the server); any other frame whole."""
    if not payload.startswith(b'{"type":"state"') or b'"ready":{' in payload:
        return orjson.loads(payload)  # type: ignore[no-any-return]
    at = payload.rfind(b',"turn":{')
    end = payload.find(b',"events":', at)
    head = payload.find(b'"state":', 0, 64) + 8
    if at < 0 or end < 0 or head < 8:
        return orjson.loads(payload)  # type: ignore[no-any-return]
    state = int(payload[head : payload.index(b",", head)])
    return {"type": "state", "state": state, "table": {"ready": None}, "turn": orjson.loads(payload[at + 8 : end])}


class Player(asyncio.Protocol):
    """One seat's client bot: a WebSocket connection on an asyncio transport — the handshake and the frames
    it sends by the websockets library's sans-I/O protocol, the frames it receives read as they arrive (by
    :meth:`_frames_received`), without a task, queue or timeout per frame, so the load generator costs the
    machine (whose two cores it shares with the server) as little as a Python client can, and the figures
    measure the server rather than its clients."""

    def __init__(self, url: str, token: str, seat: int, stats: Stats, rng: random.Random, think: float) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=2**20)
        self.token, self.seat, self.stats, self.rng, self.think = token, seat, stats, rng, think
        self.code = url.rsplit("/", 1)[1]
        self.transport: asyncio.Transport | None = None
        self.open = asyncio.get_running_loop().create_future()
        self.closed = asyncio.get_running_loop().create_future()
        self.sent_at: float | None = None
        self.acted_state = -1
        """The decision this seat last answered."""
        self.acted_at = -1
        """The state number of the frame it answered."""
        self.acted_shared = False
        """Whether the decision this seat last answered asked other seats too."""
        self.ready_sent = -1
        self.stopping = False
        self.handshaken = False
        self.buffer = bytearray()
        self.digit = str(seat).encode()

    # transport callbacks
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        if self.handshaken:
            self._frames_received(data)
            return
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if self.ws.handshake_exc is not None:
                    self.open.set_exception(self.ws.handshake_exc)
                    return
                self.handshaken = True  # (the server sends nothing more before it has the hello)
                self.open.set_result(None)
                self._send({"type": "hello", "v": 1, "token": self.token})
        self._flush()

    def _frames_received(self, data: bytes) -> None:
        """Read the server's frames (RFC 6455 5.2; a server's frames are unmasked) and answer its pings: the
        websockets library's reader, a generator and a frame object per frame in Python, cost these clients
        more CPU than everything else they do, on the two cores they share with the server."""
        buf = self.buffer
        buf += data
        at = 0
        while len(buf) - at >= 2:
            b0, b1 = buf[at], buf[at + 1]
            assert b1 & 0x80 == 0, "a server's frames are not masked"
            n, head = b1 & 0x7F, 2
            if n == 126:
                if len(buf) - at < 4:
                    break
                n, head = int.from_bytes(buf[at + 2 : at + 4], "big"), 4
            elif n == 127:
                if len(buf) - at < 10:
                    break
                n, head = int.from_bytes(buf[at + 2 : at + 10], "big"), 10
            if len(buf) - at < head + n:
                break
            payload = bytes(buf[at + head : at + head + n])
            at += head + n
            opcode = b0 & 0x0F
            assert b0 & 0x80, "the server sends every frame whole"
            if opcode == Opcode.TEXT.value:
                if self._needed(payload):
                    self.on_frame(_parts(payload))
                else:
                    self.stats.frames += 1
            elif opcode == Opcode.PING.value:
                self.ws.send_pong(payload)
                self._flush()
            elif opcode == Opcode.CLOSE.value and self.transport is not None:
                self.transport.close()
        del buf[:at]

    def _needed(self, payload: bytes) -> bool:
        """Whether this seat's bot must read a frame: not a ``state`` frame in which another seat is to act, no
        pause between deals and no answer of its own awaited — five frames of six.  A look at a few bytes (the
        server writes the turn's ``seat`` first, and a frame's ``state`` number near its start) rather than a
        JSON parse, so the clients, which share the server's two cores, take less of them; seat 0 takes the
        table's state number from every frame it skips (for the count of lost moves)."""
        if self.sent_at is not None or not payload.startswith(b'{"type":"state"'):
            return True
        if b'"ready":{' in payload:
            return True
        at = payload.rfind(b'"turn":{"seat":')
        if at < 0 or payload[at + 15 : at + 16] == self.digit:
            return True
        if self.seat == 0:
            head = payload.find(b'"state":', 0, 64) + 8
            end = payload.index(b",", head)
            state = int(payload[head:end])
            if state > self.stats.table_state.get(self.code, -1):
                self.stats.table_state[self.code] = state
        return False

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
        if self.sent_at is not None and frame["state"] > self.acted_at:
            stats.latencies.append(time.perf_counter() - self.sent_at)
            (stats.shared if self.acted_shared else stats.alone).append(stats.latencies[-1])
            self.sent_at = None
        turn = frame["turn"]
        table = frame["table"]
        if frame["state"] > stats.table_state.get(self.code, -1):
            stats.table_state[self.code] = frame["state"]
        pause = table["ready"]
        if pause is not None and not pause["seats"][seat] and self.ready_sent != table["deals_over"]:
            # between two deals the table waits for every seat's ``ready`` (the tables have no timeout)
            self.ready_sent = table["deals_over"]
            self._send({"type": "ready", "token": self.token})
            return
        if turn["seat"] == seat and "legal_count" in turn and turn["decision"] != self.acted_state:
            options = turn.get("choices") or turn.get("sample") or []
            plays = [a for a in options if a not in ("pass", "yield")]
            action = self.rng.choice(plays) if plays and self.rng.random() < 0.7 else options[0]
            self.acted_state = decision = turn["decision"]
            self.acted_at = frame["state"]
            self.acted_shared = len(turn.get("seats", ())) > 1
            intent = {"type": "act", "action": action, "decision": decision, "token": self.token}
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
    tables: int, seconds: float, max_moves: int, think: float, servers: list[Server], front: int | None = None
) -> dict[str, Any]:
    """One run: ``tables`` tables spread in turn over ``servers`` (one server but for ``--servers``); with
    ``front`` (nginx's port, ``--shards``) every request and connection goes through it to the shards."""
    seats: list[tuple[int, str, str, int]] = []
    entries = [front] if front is not None else [server.port for server in servers]
    for k, entry in enumerate(entries):
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{entry}", timeout=30) as http:
            for t in range(k, tables, len(entries)):
                # no masking time (it is the bot delay): the benchmark measures the server, not the table's pace
                body = {"turn_seconds": None, "set_length": 20, "bot_delay": 0}
                code = (await http.post("/api/tables", json=body)).json()["code"]
                for s in range(6):
                    r = await http.post(f"/api/tables/{code}/join", json={"nickname": f"p{t}-{s}", "seat": s})
                    seats.append((entry, code, r.json()["token"], s))
    stats = Stats()
    loop = asyncio.get_running_loop()
    players = [
        Player(f"ws://127.0.0.1:{port}/ws/tables/{code}", token, seat, stats, random.Random(i), think)
        for i, (port, code, token, seat) in enumerate(seats)
    ]
    for p, (port, *_) in zip(players, seats, strict=True):
        await loop.create_connection(lambda p=p: p, "127.0.0.1", port)  # type: ignore[misc]
    await asyncio.gather(*(p.open for p in players))
    gc.collect()
    gc.freeze()  # the connections live to the end: keep the collector from walking them again and again
    gc.disable()  # and no collection stops the clients while they measure (one took 45-60 ms)
    # play has begun at the tables whose six connections opened first: count only from here on
    stats.latencies.clear()
    stats.shared.clear()
    stats.alone.clear()
    stats.frames = 0
    stats.errors.clear()
    start = time.perf_counter()
    cpu0, own0, machine0 = servers_cpu_seconds(servers), time.process_time(), cpu_times()
    while time.perf_counter() - start < seconds and len(stats.latencies) < max_moves:
        await asyncio.sleep(0.1)
        if any(p.closed.done() for p in players):
            break
    elapsed = time.perf_counter() - start
    cpu1, own1, machine1 = servers_cpu_seconds(servers), time.process_time(), cpu_times()
    gc.enable()
    failed = sum(1 for p in players if p.closed.done() and not p.closed.result())
    for server in servers:
        if server.kill_at_end:
            server.kill()  # SIGKILL while every table has moves in flight; what the clients saw must be stored
    seen = dict(stats.table_state)
    lost: int | None = None
    if servers[0].kind != "floor":  # (the floor's stand-in stores nothing)
        stored: dict[str, int] = {}
        for server in servers:
            stored.update(server.stored_states())
        lost = sum(max(0, n - stored.get(code, 0)) for code, n in seen.items())
    for p in players:
        p.close()
    await asyncio.wait([p.closed for p in players], timeout=10)
    lat = sorted(stats.latencies)
    shared, alone = sorted(stats.shared), sorted(stats.alone)
    sq = statistics.quantiles(shared, n=100) if len(shared) >= 100 else [float("nan")] * 99
    aq = statistics.quantiles(alone, n=100) if len(alone) >= 100 else [float("nan")] * 99
    q = statistics.quantiles(lat, n=100) if len(lat) >= 100 else [float("nan")] * 99
    return {
        "database": servers[0].kind,
        "servers": len(servers),
        "through_nginx": front is not None,
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
        "shared_windows": {
            "moves": len(shared),
            "p50": round(sq[49] * 1000, 2),
            "p95": round(sq[94] * 1000, 2),
            "others_p95": round(aq[94] * 1000, 2),
            "others_p99": round(aq[98] * 1000, 2),
        },
        "server_cpu_ms_per_move": round((cpu1 - cpu0) * 1000 / len(lat), 3) if cpu0 and cpu1 and lat else None,
        "client_cpu_ms_per_move": round((own1 - own0) * 1000 / len(lat), 3) if lat else None,
        "load_average": os.getloadavg()[0],
        "cpu_steal_percent": (
            round(100 * (machine1[1] - machine0[1]) / max(1, machine1[0] - machine0[0]), 2)
            if machine0 and machine1
            else None
        ),
        "killed": servers[0].kill_at_end,
        "states_seen": sum(seen.values()),
        "states_seen_not_stored": lost,
        "errors": stats.errors,
        "failed_connections": failed,
    }


_UNLIMITED = (
    # every client of the benchmark is on 127.0.0.1: one client, as far as the per-client limits go
    *("--create-burst", "100000", "--waiting-per-client", "100000", "--seat-burst", "100000"),
    *("--tables-per-client", "100000", "--ws-per-client", "1000000"),
)


class Server:
    """``gouji.server.serve`` in a subprocess on a fresh database: SQLite in a temporary folder, or a new
    database on the PostgreSQL of ``--postgres``."""

    def __init__(self, kind: str, tmp: str, postgres: str | None, kill_at_end: bool, writer: str | None = None) -> None:
        self.kind, self.kill_at_end, self.writer = kind, kill_at_end, writer
        self.port = free_port()
        self.admin: Any = None
        if kind == "sqlite":
            self.url = f"sqlite:///{os.path.join(tmp, f'bench-{self.port}.db')}"
        else:
            assert postgres is not None
            self.admin = sa.create_engine(postgres, isolation_level="AUTOCOMMIT")
            self.dbname = f"gouji_bench_{uuid.uuid4().hex[:12]}"
            with self.admin.connect() as c:
                c.execute(sa.text(f'CREATE DATABASE "{self.dbname}"'))
            self.url = sa.make_url(postgres).set(database=self.dbname).render_as_string(hide_password=False)
        cmd = [
            sys.executable,
            "-m",
            "gouji.server.serve",
            "--port",
            str(self.port),
            "--database-url",
            self.url,
            "--turn-seconds",
            "0",
            "--log-level",
            "warning",
            "--no-access-log",
            *_UNLIMITED,
            *(["--writer", writer] if writer else []),
        ]
        self.proc: subprocess.Popen[bytes] | None = subprocess.Popen(cmd)
        self.pid = self.proc.pid
        self._wait_for_port()

    def _wait_for_port(self) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.close()
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)
            self.proc = None

    def stored_states(self) -> dict[str, int]:
        """Each table's highest stored state number."""
        engine = sa.create_engine(self.url.replace("postgresql://", "postgresql+psycopg://", 1))
        try:
            with engine.connect() as c:
                rows = c.execute(
                    sa.text(
                        "SELECT t.code, max(e.state) FROM tables t"
                        " JOIN table_events e ON e.table_id = t.id GROUP BY t.code"
                    )
                ).all()
        finally:
            engine.dispose()
        return {code: int(n) for code, n in rows}

    def close(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
            self.proc = None
        if self.admin is not None:
            with self.admin.connect() as c:
                c.execute(sa.text(f'DROP DATABASE IF EXISTS "{self.dbname}" WITH (FORCE)'))
            self.admin.dispose()


class ShardServer(Server):
    """Game server ``index`` of ``count`` (``--shard I/N``) on a database the shards share, trusting the nginx
    in front of them on 127.0.0.1."""

    def __init__(self, url: str, index: int, count: int, kill_at_end: bool, writer: str | None = None) -> None:
        self.kind, self.kill_at_end, self.writer, self.admin, self.url = "postgres", kill_at_end, writer, None, url
        self.port = free_port()
        cmd = [sys.executable, "-m", "gouji.server.serve", "--port", str(self.port), "--database-url", url]
        cmd += ["--shard", f"{index}/{count}", "--trusted-proxy", "127.0.0.1", "--turn-seconds", "0"]
        cmd += ["--log-level", "warning", "--no-access-log", *_UNLIMITED, *(["--writer", writer] if writer else [])]
        self.proc = subprocess.Popen(cmd)
        self.pid = self.proc.pid
        self._wait_for_port()


def shard_run(args: argparse.Namespace, think: float, runner: Any, tmp: str) -> dict[str, Any]:
    """``--shards N``: N shards on one new PostgreSQL database behind nginx (``gouji proxy-config``), the
    same clients as a plain run; nginx's CPU is counted with the servers'."""
    from gouji.server.proxy_config import nginx_config
    from nginx_front import running_nginx

    admin = sa.create_engine(args.postgres, isolation_level="AUTOCOMMIT")
    dbname = f"gouji_bench_{uuid.uuid4().hex[:12]}"
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{dbname}"'))
    url = sa.make_url(args.postgres).set(database=dbname).render_as_string(hide_password=False)
    shards: list[Server] = []
    try:
        for i in range(1, args.shards + 1):
            shards.append(ShardServer(url, i, args.shards, args.kill, args.writer))
        port = free_port()
        conf = nginx_config([f"http://127.0.0.1:{s.port}" for s in shards], f"127.0.0.1:{port}")
        with running_nginx(Path(tmp) / f"nginx-{port}", conf, port) as nginx_pid:
            result: dict[str, Any] = runner(
                run(args.tables, args.seconds, args.moves, think, [*shards, NginxFront(nginx_pid)], port)
            )
        result["shards"] = args.shards
        return result
    finally:
        for s in shards:
            s.close()
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)'))
        admin.dispose()


class NginxFront(Server):
    """nginx, counted among the servers for the CPU a move costs (it stores nothing and is not killed)."""

    def __init__(self, pid: int) -> None:
        self.kind, self.kill_at_end, self.admin, self.proc, self.pid, self.port = "nginx", False, None, None, pid, 0

    def stored_states(self) -> dict[str, int]:
        return {}


class FloorServer(Server):
    """``floor_server.py`` in a subprocess: the clients' stand-in server that does only the transport (no
    game, no database), for the floor of a move's cost (``--floor``)."""

    def __init__(self) -> None:
        self.kind, self.kill_at_end, self.admin = "floor", False, None
        self.port = free_port()
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "floor_server.py")
        self.proc = subprocess.Popen([sys.executable, script, str(self.port)])
        self.pid = self.proc.pid
        self._wait_for_port()

    def stored_states(self) -> dict[str, int]:
        raise NotImplementedError("the floor's stand-in stores nothing")


def memory_per_table(tables: int, tmp: str, rounds: int = 4) -> dict[str, Any]:
    """Traced memory per finished table, in process: rounds of ``tables`` tables of six random bots each
    playing a deal to the end.  A first round fills what fills once (SQLAlchemy's statement cache, the
    engine's bounded caches of recent plays); then, for each of ``rounds`` more rounds, the memory the
    tables hold once over (while the lobby keeps them) and the memory left once the lobby lets them go (and
    a collection), over the memory before the round — the steady-state growth per finished table, which a
    server that lets its tables go keeps at 0 — with the engine's interned actions counted apart."""
    from gouji.engine.actions import Burn, Return
    from gouji.engine.plays import Play
    from gouji.server.limits import Limits
    from gouji.server.lobby import Lobby
    from gouji.server.settings import ServerSettings
    from gouji.server.storage import open_store
    from gouji.server.storage.durability import Writer

    def interned() -> int:
        return len(Play._cache) + len(Burn._cache) + len(Return._cache)

    async def main() -> dict[str, Any]:
        store = open_store(f"sqlite:///{os.path.join(tmp, 'memory.db')}")
        writer = Writer(store)
        limits = Limits(create_burst=10**9, waiting_per_client=10**9, over_seconds=3600)
        lobby = Lobby(writer, ServerSettings(turn_seconds=None, bot_delay=0.0, max_tables=10**6, limits=limits))

        async def play() -> int:
            """Play ``tables`` tables to the end; the traced memory while they are held; then let them go."""
            for _ in range(tables):
                await lobby.create({"bots": ["random"] * 6, "set_length": 1})
            rooms = list(lobby.rooms.values())
            while not all(r.status == "over" and r.stored >= r.state for r in rooms):
                await asyncio.sleep(0.05)
            await writer.drain()
            gc.collect()
            held = tracemalloc.get_traced_memory()[0]
            for room in rooms:
                lobby.let_go(room)
            await writer.drain()
            return held

        tracemalloc.start()
        await play()  # the first round: what fills once
        held_kib, left_kib, actions = [], [], []
        for _ in range(rounds):
            gc.collect()
            base, before = tracemalloc.get_traced_memory()[0], interned()
            held = await play()
            gc.collect()
            after = tracemalloc.get_traced_memory()[0]
            held_kib.append(round((held - base) / tables / 1024, 2))
            left_kib.append(round((after - base) / tables / 1024, 2))
            actions.append(interned() - before)
        tracemalloc.stop()
        writer.close()
        store.close()
        return {
            "tables": tables,
            "rounds": rounds,
            "kib_per_finished_table_held": held_kib,
            "kib_per_finished_table_let_go": left_kib,
            "interned_actions_added": actions,
            "interned_actions": interned(),
            "tables_in_memory_after": len(lobby.rooms),
        }

    return asyncio.run(main())


def loop_hold(tables: int, seconds: float, tmp: str) -> dict[str, Any]:
    """How long the event loop is held, in process: ``tables`` tables of six heuristic bots on the largest
    deck the rules allow (8 decks) play at once, with no delay, while a ticker asks for the loop every
    millisecond.  The overshoot of each tick in wall-clock time is how long the loop waited (for the work of
    other callbacks, for the interpreter lock while a bot thinks, for the CPU on a busy machine); the loop
    thread's own CPU time between two ticks bounds the work of any one callback."""
    from gouji.engine.rule_bounds import MAX_DECKS
    from gouji.server.limits import Limits
    from gouji.server.lobby import Lobby
    from gouji.server.serve import tune_interpreter
    from gouji.server.settings import ServerSettings
    from gouji.server.storage import open_store
    from gouji.server.storage.durability import Writer

    tune_interpreter()  # as the server does: a 1 ms switch interval between the loop and the bots' thread

    async def main() -> dict[str, Any]:
        store = open_store(f"sqlite:///{os.path.join(tmp, 'hold.db')}")
        writer = Writer(store)
        limits = Limits(create_burst=10**9, waiting_per_client=10**9)
        lobby = Lobby(writer, ServerSettings(turn_seconds=None, bot_delay=0.0, max_tables=10**6, limits=limits))
        body = {"bots": ["heuristic"] * 6, "set_length": 20, "options": {"decks": MAX_DECKS}}
        for _ in range(tables):
            await lobby.create(body)
        holds: list[float] = []
        work: list[float] = []
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t, c = time.perf_counter(), time.thread_time()
            await asyncio.sleep(0.001)
            holds.append(time.perf_counter() - t - 0.001)
            work.append(time.thread_time() - c)
        moves = sum(r.state for r in lobby.rooms.values())
        lobby.shutdown()
        await writer.drain()
        writer.close()
        store.close()
        holds.sort()
        work.sort()
        return {
            "tables": tables,
            "decks": MAX_DECKS,
            "seconds": seconds,
            "changes": moves,
            "hold_ms_p99": round(holds[int(len(holds) * 0.99)] * 1000, 2),
            "hold_ms_max": round(holds[-1] * 1000, 2),
            "loop_cpu_ms_p99": round(work[int(len(work) * 0.99)] * 1000, 2),
            "loop_cpu_ms_max": round(work[-1] * 1000, 2),
        }

    return asyncio.run(main())


def shards_main(args: argparse.Namespace, runner: Any) -> None:
    """``--shards N``: for each think time, one server directly and then N shards behind nginx, on
    PostgreSQL, the same clients; each run's figures and the ratios."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for think in args.think:
            one = Server("postgres", tmp, args.postgres, args.kill, args.writer)
            try:
                direct = runner(run(args.tables, args.seconds, args.moves, think, [one]))
            finally:
                one.close()
            sharded = shard_run(args, think, runner, tmp)
            results += [direct, sharded]
            if not args.json:
                report(direct)
                report(sharded)
                cores = os.cpu_count() or 1
                print(
                    f"  {args.shards} shards behind nginx against one server, think {think} s: "
                    f"{sharded['moves_per_second'] / max(direct['moves_per_second'], 1e-9):.2f}× the moves/s, "
                    f"p95 {sharded['latency_ms']['p95']} against {direct['latency_ms']['p95']} ms; per core: "
                    f"{sharded['moves_per_second'] / cores:.0f} and {direct['moves_per_second'] / cores:.0f} moves/s"
                )
    if args.json:
        print(json.dumps({"runs": results}, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--moves", type=int, default=200_000)
    parser.add_argument(
        "--think",
        type=float,
        nargs="+",
        default=[0.0, 0.2],
        help="mean seconds a client bot waits before answering (uniform 0..2×); 0: answer at once (saturation)",
    )
    parser.add_argument("--postgres", help="a PostgreSQL URL: run on a new database there too")
    parser.add_argument("--kill", action="store_true", help="end each run with kill -9 and count what was lost")
    parser.add_argument("--memory", type=int, default=0, help="measure memory per finished table over N tables")
    parser.add_argument(
        "--hold", type=int, default=0, help="measure how long N tables of heuristic bots hold the event loop"
    )
    parser.add_argument(
        "--writer",
        choices=["thread", "process"],
        help="where the server runs its database transactions (default: the server's default)",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="run N servers, each on a database of its own, with the tables spread over them: the most that "
        "sharing the tables out over N processes could give on this machine",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="after each run at saturation, run the same clients against floor_server.py, a stand-in that does "
        "the server's transport alone (no game, no database): the floor of a move's cost at that moment",
    )
    parser.add_argument(
        "--shards",
        type=int,
        default=0,
        help="with --postgres: after one server directly, N game servers (--shard I/N) on one database behind "
        "nginx (gouji proxy-config), the same clients through it",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:  # pragma: no cover
        runner = asyncio.run
    if args.servers < 1:
        parser.error("--servers must be at least 1")
    if args.shards:
        if args.shards < 2 or not args.postgres:
            parser.error("--shards needs N of at least 2 and --postgres (the shards share one database)")
        shards_main(args, runner)
        return
    results = []
    kinds = ["sqlite", *(["postgres"] if args.postgres else [])]
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            for think in args.think if args.tables else ():
                servers: list[Server] = []
                try:
                    for _ in range(args.servers):
                        servers.append(Server(kind, tmp, args.postgres, args.kill, args.writer))
                    results.append(runner(run(args.tables, args.seconds, args.moves, think, servers)))
                finally:
                    for server in servers:
                        server.close()
                if not args.json:
                    report(results[-1])
                if think == 0 and args.floor:  # the floor, in the minute after the server's own run
                    floor = FloorServer()
                    try:
                        results.append(runner(run(args.tables, args.seconds, args.moves, think, [floor])))
                    finally:
                        floor.close()
                    if not args.json:
                        report(results[-1])
        memory = memory_per_table(args.memory, tmp) if args.memory else None
        hold = loop_hold(args.hold, 10.0, tmp) if args.hold else None
    if args.json:
        print(json.dumps({"runs": results, "memory": memory, "hold": hold}, indent=2))
        return
    if hold is not None:
        print(
            f"event loop held ({hold['tables']} tables of six heuristic bots, {hold['decks']} decks, no delay, "
            f"{hold['changes']} changes in {hold['seconds']} s): p99 {hold['hold_ms_p99']} ms, "
            f"longest {hold['hold_ms_max']} ms (load average {os.getloadavg()[0]:.2f}); the loop's own CPU time "
            f"between two ticks: p99 {hold['loop_cpu_ms_p99']} ms, longest {hold['loop_cpu_ms_max']} ms"
        )
    if memory is not None:
        held = " / ".join(f"{k:.2f}" for k in memory["kib_per_finished_table_held"])
        left = " / ".join(f"{k:.2f}" for k in memory["kib_per_finished_table_let_go"])
        print(
            f"memory per finished table ({memory['rounds']} rounds of {memory['tables']} tables of six bots, a "
            "deal each, after a first round; traced by tracemalloc over the memory before each round, after a "
            f"collection): {held} KiB while the lobby holds them, {left} KiB after it lets them go; interned "
            f"actions added by each round: {' / '.join(map(str, memory['interned_actions_added']))} "
            f"({memory['interned_actions']} live, at most the engine's bounded number of recent ones and those "
            f"a table holds); tables left in memory: {memory['tables_in_memory_after']}"
        )


def report(result: dict[str, Any]) -> None:
    lat = result["latency_ms"]
    over = f" over {result['servers']} servers" if result["servers"] > 1 else ""
    if result.get("shards"):
        over = f" over {result['shards']} shards behind nginx (nginx's CPU counted with theirs)"
    floor = result["database"] == "floor"
    name = "floor (the transport alone: no game, no database)" if floor else result["database"]
    print(
        f"{name}: {result['tables']} tables{over}, {result['connections']} WebSocket connections, "
        f"think {result['think_seconds']} s, {result['seconds']} s: "
        f"{result['moves']} moves, {result['moves_per_second']} moves/s"
    )
    print(f"  intent → next view latency: p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms")
    sh = result["shared_windows"]
    if not floor:
        print(
            f"    of which {sh['moves']} answers to a window asking several seats (a burn offer, a revolution), "
            "whose view moves on once the last of them answered (with a think time, after theirs): "
            f"p50 {sh['p50']} ms, p95 {sh['p95']} ms; the other answers: p95 {sh['others_p95']} ms, "
            f"p99 {sh['others_p99']} ms"
        )
    print(
        f"  CPU per move: server {result['server_cpu_ms_per_move']} ms, clients {result['client_cpu_ms_per_move']} ms; "
        f"load average {result['load_average']:.2f} on {os.cpu_count()} cores; CPU time stolen by the "
        f"hypervisor: {result['cpu_steal_percent']}%"
    )
    if not floor:
        ended = "killed with SIGKILL" if result["killed"] else "stopped"
        print(
            f"  server {ended} at the end: {result['states_seen_not_stored']} of {result['states_seen']} "
            "state numbers the clients saw are not in the database"
        )
    print(f"  errors: {result['errors'] or 'none'}; failed connections: {result['failed_connections']}")


if __name__ == "__main__":
    main()
