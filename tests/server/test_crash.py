"""The crash test: a real server process, bots and clients playing, ``kill -9`` at random moments, a restart,
every client back — and every change any client saw is in the database as it was seen.

Tables of two people's seats and four bots (and a spectator each) play; the clients answer their turns and
say ``ready`` between deals, keeping every ``state`` frame they receive.  The server is killed with SIGKILL
several times at random moments (once its database writer process instead, after which the server must
stop by itself), restarted on the same port and database, and the clients reconnect with their tokens.  At
the end the stored events of each table are replayed change by change: every state number any client
received must be stored, and the view it was sent at that number must be the view the stored history gives
at that number (so no number was used twice for different changes, and none went backwards); every
finished deal must have its record.  On SQLite, and on PostgreSQL when ``GOUJI_TEST_POSTGRES`` is set
(``.ci/run`` starts one).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from websockets.exceptions import WebSocketException
from websockets.sync.client import ClientConnection, connect

from gouji.server.config import TableConfig
from gouji.server.storage.writer_process import EXIT_WRITER_DIED
from gouji.server.tables.table import Room

from ..helpers import free_port
from .conftest import choose, wait_serving

TABLES = 3
KILLS = 3
BOTS = [None, None, "random", "random", "random", "random"]


class ServerProcess:
    """``python -m gouji.server.serve`` on 127.0.0.1, started, killed with SIGKILL and started again."""

    def __init__(self, db_url: str, port: int, log: Path, extra: tuple[str, ...] = ()) -> None:
        self.db_url, self.port, self.log, self.extra = db_url, port, log, extra
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [
            sys.executable,
            "-m",
            "gouji.server.serve",
            "--port",
            str(self.port),
            "--database-url",
            self.db_url,
            "--turn-seconds",
            "0",
            "--bot-delay",
            "0.01",
            "--log-level",
            "warning",
            "--no-access-log",
            "--create-burst",
            "1000",
            "--seat-burst",
            "1000",
            *self.extra,
        ]
        # (the secret beside the log, not in the working directory, on PostgreSQL too; shards share it)
        env = {**os.environ, "GOUJI_SECRET_FILE": str(self.log.parent / "gouji.secret")}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        wait_serving(self.proc, f"http://127.0.0.1:{self.port}", self.log)

    def writer_pid(self) -> int | None:
        """The server's database writer process (``gouji serve``'s default on Linux), if it has one."""
        assert self.proc is not None
        try:
            kids = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        except OSError:
            return None
        return int(kids[0]) if kids else None

    def kill(self, victim: str = "server") -> None:
        """``kill -9`` of the server — or of its writer process, after which the server must stop by itself
        (nothing can be stored any more).  Either way the writer must not outlive the server: a writer still
        storing while the next server restores would break the state numbers."""
        assert self.proc is not None
        writer = self.writer_pid()
        if victim == "writer":
            assert writer is not None, "the server has no writer process"
            os.kill(writer, signal.SIGKILL)
            assert self.proc.wait(timeout=30) == EXIT_WRITER_DIED
        else:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.proc = None
        end = time.monotonic() + 10
        while writer is not None and _alive(writer):
            assert time.monotonic() < end, "the writer process outlived its server"
            time.sleep(0.01)


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Client(threading.Thread):
    """One seat's (or a spectator's) client: plays its turns, says ready, reconnects after a crash, and
    keeps every ``state`` frame it receives."""

    def __init__(self, port: int, code: str, token: str | None, seat: int | None, seed: int) -> None:
        super().__init__(daemon=True)
        self.url = f"ws://127.0.0.1:{port}/ws/tables/{code}"
        self.code, self.token, self.seat = code, token, seat
        self.rng = random.Random(seed)
        self.frames: list[dict[str, Any]] = []
        self.connections = 0
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                try:
                    with connect(self.url, open_timeout=5, close_timeout=1) as ws:
                        self.connections += 1
                        ws.send(json.dumps({"type": "hello", "v": 1, "token": self.token}))
                        self._play(ws)
                except (OSError, WebSocketException, TimeoutError):
                    time.sleep(0.05)  # the server is down: try again
        except BaseException as e:  # the test reports it
            self.error = e

    def _play(self, ws: ClientConnection) -> None:
        answered: set[tuple[int, int]] = set()
        while not self.stop.is_set():
            try:
                text = ws.recv(timeout=0.2)
            except TimeoutError:
                continue
            frame = json.loads(text)
            if frame["type"] == "closed":
                self.stop.set()
                return
            if frame["type"] != "state":
                continue
            self.frames.append(frame)
            if self.seat is None or self.token is None:
                continue
            gate = frame["table"].get("ready")
            turn = frame["turn"]
            if gate is not None and not gate["seats"][self.seat]:
                key = (-1, frame["table"]["deals_over"])
                if key not in answered:
                    answered.add(key)
                    ws.send(json.dumps({"type": "ready", "token": self.token}))
            elif turn["seat"] == self.seat and "legal_count" in turn and (0, turn["decision"]) not in answered:
                answered.add((0, turn["decision"]))
                action = choose(turn, prefer_play=self.rng.random() < 0.7)
                ws.send(
                    json.dumps({"type": "act", "action": action, "decision": turn["decision"], "token": self.token})
                )


def _stored(db_url: str, code: str) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """A table's row, its events in order and how many deal records it has, read from the database."""
    engine = sa.create_engine(db_url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as c:
            row = c.execute(sa.text("SELECT id, config, owner_hash FROM tables WHERE code = :c"), {"c": code}).one()
            events = c.execute(
                sa.text("SELECT state, kind, seat, data FROM table_events WHERE table_id = :t ORDER BY state"),
                {"t": row[0]},
            ).all()
            records = c.execute(
                sa.text("SELECT count(*) FROM records WHERE table_id = :t AND kind = 'deal'"), {"t": row[0]}
            ).scalar_one()
    finally:
        engine.dispose()

    def js(v: Any) -> Any:
        return json.loads(v) if isinstance(v, str) else v

    table = {"id": row[0], "config": js(row[1]), "owner_hash": row[2]}
    return table, [{"state": e[0], "kind": e[1], "seat": e[2], "data": js(e[3])} for e in events], int(records)


def _comparable(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("log", "rule_options")}


def _check_table(db_url: str, code: str, clients: list[Client]) -> tuple[int, int]:
    """Replay the stored events and compare every frame any client received; returns (frames, deals over)."""
    table, events, deal_records = _stored(db_url, code)
    states = [e["state"] for e in events]
    assert states == sorted(set(states)), "stored state numbers are unique and in order"
    seen: dict[int, list[tuple[Client, dict[str, Any]]]] = {}
    for c in clients:
        for f in c.frames:
            seen.setdefault(f["state"], []).append((c, f))
    missing = sorted(set(seen) - set(states))
    assert not missing, f"table {code}: states seen by clients but not stored (lost on a crash): {missing[:10]}"
    room = Room(table["id"], code, TableConfig.from_dict(table["config"]), table["owner_hash"], None)
    room.replaying = True
    checked = 0
    for ev in events:
        room.commit(ev["kind"], ev["seat"], ev["data"])
        room.state = ev["state"]
        for c, f in seen.get(ev["state"], []):
            assert f["deal"] == len(room.match.deals) - 1, (code, ev["state"])
            view = room.match.current.view(c.seat, log=False)
            assert _comparable(f["view"]) == _comparable(view), f"table {code}: state {ev['state']} was another view"
            assert f["table"]["status"] == room.status and f["table"]["deals_over"] == len(room.match.points)
            checked += 1
    deals_over = len(room.match.points)
    assert deal_records == deals_over, f"table {code}: {deals_over} deals finished, {deal_records} records stored"
    return checked, deals_over


def _crash_and_check(db_url: str, tmp_path: Path) -> None:
    rng = random.Random(int.from_bytes(os.urandom(4), "big"))
    port = free_port()
    server = ServerProcess(db_url, port, tmp_path / "server.log")
    server.start()
    clients: list[Client] = []
    codes: list[str] = []
    base = f"http://127.0.0.1:{port}"
    try:
        for t in range(TABLES):
            out = httpx.post(f"{base}/api/tables", json={"bots": BOTS, "set_length": 3, "bot_delay": 0.01}).json()
            code = out["code"]
            codes.append(code)
            for s in (0, 1):
                token = httpx.post(f"{base}/api/tables/{code}/join", json={"nickname": f"p{t}{s}", "seat": s}).json()
                clients.append(Client(port, code, token["token"], s, rng.randrange(2**32)))
            clients.append(Client(port, code, None, None, 0))
        for c in clients:
            c.start()
        for kill in range(KILLS):
            connected = [c.connections for c in clients]
            time.sleep(rng.uniform(0.3, 1.5))  # play, then a kill at a random moment
            server.kill("writer" if kill == 1 and sys.platform.startswith("linux") else "server")
            time.sleep(rng.uniform(0.0, 0.3))
            server.start()
            end = time.monotonic() + 30
            while not all(c.connections > n or c.stop.is_set() for c, n in zip(clients, connected, strict=True)):
                assert time.monotonic() < end, f"after kill {kill + 1} not every client came back"
                time.sleep(0.05)
        # play on until a deal has ended (each decision window lasts at least the table's bot delay, so a
        # deal takes a few seconds), then the last kill
        end = time.monotonic() + 90
        while not any(f["table"]["deals_over"] >= 1 for c in clients for f in c.frames[-3:] if "table" in f):
            assert time.monotonic() < end, "no deal ended within 90 s of play"
            time.sleep(0.1)
        time.sleep(rng.uniform(0.0, 0.5))
        server.kill()  # and the last one
    finally:
        for c in clients:
            c.stop.set()
        for c in clients:
            c.join(timeout=10)
        if server.proc is not None:
            server.kill()
    for c in clients:
        assert c.error is None, c.error
    frames = deals = 0
    for code in codes:
        mine = [c for c in clients if c.code == code]
        assert all(len(c.frames) > 1 for c in mine)
        n, d = _check_table(db_url, code, mine)
        frames += n
        deals += d
    assert frames > 50 and deals >= 1, (frames, deals)  # the test saw play, and deals end across the kills


def test_kill_9_loses_no_change_any_client_saw(db_url: str, tmp_path: Path) -> None:
    _crash_and_check(db_url, tmp_path)
