"""Tables sharded over two game servers behind Debian's nginx, on one PostgreSQL (``gouji serve --shard I/N``,
``gouji proxy-config``): real processes throughout.

Tables created through nginx land on both shards, each on the shard its code names; people and spectators
play and watch over WebSockets through nginx; a match's two tables and its scorekeeper work through nginx;
``kill -9`` of one shard mid-deal and a restart bring every one of its clients back to find every change it
saw stored, while the other shard's tables play on.  On SQLite ``--shard`` is refused with a clear error.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from gouji.server.proxy_config import nginx_config
from gouji.server.shards import shard_of

from ..helpers import free_port
from .nginx import running_nginx
from .test_crash import BOTS, Client, ServerProcess, _check_table


def _progress(clients: list[Client], code: str) -> int:
    return max((f["state"] for c in clients if c.code == code for f in c.frames), default=0)


def test_shards_behind_nginx_on_one_database(db_url: str, tmp_path: Path) -> None:
    if db_url.startswith("sqlite"):
        run = subprocess.run(
            [sys.executable, "-m", "gouji.server.serve", "--shard", "1/2", "--database-url", db_url],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 2 and "--shard 1/2 needs PostgreSQL" in run.stderr, run.stderr
        bad = subprocess.run(
            [sys.executable, "-m", "gouji.server.serve", "--shard", "3/2"], capture_output=True, text=True, timeout=60
        )
        assert bad.returncode == 2 and "the index is 1 to 2" in bad.stderr
        return
    ports = [free_port(), free_port()]
    shards = [
        ServerProcess(db_url, p, tmp_path / f"shard{i}.log", ("--shard", f"{i}/2", "--trusted-proxy", "127.0.0.1"))
        for i, p in enumerate(ports, 1)
    ]
    # both start at once on the empty database: one migrates it, the other waits for the lock
    starting = [threading.Thread(target=s.start) for s in shards]
    for t in starting:
        t.start()
    for t in starting:
        t.join(timeout=90)
    assert all(s.proc is not None and s.proc.poll() is None for s in shards), "a shard did not start"
    port = free_port()
    conf = nginx_config([f"http://127.0.0.1:{p}" for p in ports], f"127.0.0.1:{port}")
    base = f"http://127.0.0.1:{port}"
    clients: list[Client] = []
    try:
        with running_nginx(tmp_path / "nginx", conf, port), httpx.Client(base_url=base, timeout=10) as web:
            # tables created through nginx land on both shards, each on the one its code names
            codes: dict[int, str] = {}
            for _ in range(12):
                out = web.post("/api/tables", json={"bots": BOTS, "set_length": 3, "bot_delay": 0.01})
                assert out.status_code == 201, out.text
                code = out.json()["code"]
                where = shard_of(code, 2)
                assert where is not None
                other = ports[2 - where]
                # the other shard reads the shared database but holds no such table to sit at
                wrong = httpx.post(
                    f"http://127.0.0.1:{other}/api/tables/{code}/join", json={"nickname": "x", "seat": 0}
                )
                assert wrong.status_code == 404, wrong.text
                codes.setdefault(where, code)
                if len(codes) == 2:
                    break
            assert set(codes) == {1, 2}, "twelve creations through nginx all went to one shard"
            for where, code in codes.items():
                for s in (0, 1):
                    token = web.post(f"/api/tables/{code}/join", json={"nickname": f"p{where}{s}", "seat": s})
                    assert token.status_code == 200, token.text
                    clients.append(Client(port, code, token.json()["token"], s, where * 10 + s))
                clients.append(Client(port, code, None, None, 0))  # a spectator
            # a match of bots: its tables on its shard, its scorekeeper through nginx
            match = web.post(
                "/api/matches",
                json={
                    "teams": ["East", "West"],
                    "deals": 1,
                    "bots": {"East": "random", "West": "random"},
                    "bot_delay": 0.01,
                },
            )
            assert match.status_code == 201, match.text
            m = match.json()
            home = shard_of(m["code"], 2)
            assert {shard_of(t["code"], 2) for t in m["table_codes"]} == {home}
            assert {shard_of(t["code"], 2) for t in m["team_codes"]} == {home}
            assert web.get(f"/api/matches/{m['code']}").json()["code"] == m["code"]
            for c in clients:
                c.start()
            deadline = time.monotonic() + 30
            while min(_progress(clients, code) for code in codes.values()) < 20:
                assert time.monotonic() < deadline, "the tables did not play through nginx"
                time.sleep(0.05)
            # kill -9 shard 1 mid-deal; shard 2's table plays on meanwhile
            victim, survivor = shards[0], codes[2]
            seen = [c.connections for c in clients]
            victim.kill()
            before = _progress(clients, survivor)
            time.sleep(1.0)
            assert _progress(clients, survivor) > before, "the other shard's table stopped while one shard was down"
            down = web.get(f"/api/tables/{codes[1]}")
            assert down.status_code in (502, 503, 504)
            victim.start()
            deadline = time.monotonic() + 30
            while not all(c.connections > n for c, n in zip(clients, seen, strict=True) if c.code == codes[1]):
                assert time.monotonic() < deadline, "the killed shard's clients did not come back through nginx"
                time.sleep(0.05)
            after = _progress(clients, codes[1])
            deadline = time.monotonic() + 30
            while _progress(clients, codes[1]) < after + 10:
                assert time.monotonic() < deadline, "the restored table does not play on"
                time.sleep(0.05)
            deadline = time.monotonic() + 60
            while web.get(f"/api/matches/{m['code']}").json()["status"] != "over":
                assert time.monotonic() < deadline, "the match did not finish"
                time.sleep(0.2)
    finally:
        for c in clients:
            c.stop.set()
        for c in clients:
            c.join(timeout=10)
        for s in shards:
            if s.proc is not None:
                s.kill()
    for c in clients:
        assert c.error is None, c.error
    for code in codes.values():
        frames, _ = _check_table(db_url, code, [c for c in clients if c.code == code])
        assert frames > 10
