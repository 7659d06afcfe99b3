"""The hall under load (issue 43): quick play's time to a seat, the hall's update delay, the leaderboard's time
on 100,000 accounts — on SQLite with one server, and on PostgreSQL (``GOUJI_BENCH_POSTGRES`` or
``--postgres URL``) with one server and with two shards.

People are accounts made in the database with a session each (an Argon2id sign-up per person would measure
the hashing, not the hall); each queues through ``POST /api/quickplay`` from its own address (the servers trust
127.0.0.1 as their proxy), at a steady rate, and asks for its ticket every 0.2 s until seated.

    python benchmarks/bench_hall.py [--people 1000] [--rate 20] [--postgres URL]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime as dt
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import sqlalchemy as sa

from gouji.server.http.connection import token_hash
from gouji.server.storage import AccountRow, AccountSessionRow, RatingRow, open_store


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def servers(url: str, shards: int, fill: float, tmp: Path) -> Iterator[list[str]]:
    procs, bases = [], []
    env = {**os.environ, "GOUJI_SECRET_FILE": str(tmp / "gouji.secret")}
    try:
        for i in range(1, shards + 1):
            port = _port()
            cmd = [sys.executable, "-m", "gouji.server.serve", "--port", str(port), "--database-url", url]
            cmd += ["--quickplay-fill-seconds", str(fill), "--trusted-proxy", "127.0.0.1", "--log-level", "warning"]
            cmd += ["--no-access-log", "--read-burst", "1000", "--read-rate", "1000", "--max-tables", "5000"]
            if shards > 1:
                cmd += ["--shard", f"{i}/{shards}"]
            procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
            base = f"http://127.0.0.1:{port}"
            bases.append(base)
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(base + "/api/hall", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, "a server did not start"
                time.sleep(0.1)
        yield bases
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=60)


def people(url: str, n: int, start: int = 0) -> list[tuple[str, str]]:
    """``n`` accounts with a session each, made in the database: (name, session token)."""
    store = open_store(url)
    out = []
    now = dt.datetime.now(dt.UTC)
    try:
        with store.sessions.begin() as s:
            for i in range(start, start + n):
                name = f"bench{i}"
                s.add(AccountRow(name=name, name_key=name, password_hash="-", created_at=now))
            s.flush()
            named = sa.select(AccountRow.name, AccountRow.id).where(AccountRow.name.like("bench%"))
            ids: dict[str, int] = {name: i for name, i in s.execute(named).all()}
            for i in range(start, start + n):
                token = secrets.token_urlsafe(32)
                s.add(
                    AccountSessionRow(
                        token_hash=token_hash(token), account_id=ids[f"bench{i}"], created_at=now, used_at=now
                    )
                )
                out.append((f"bench{i}", token))
    finally:
        store.close()
    return out


def quick_play(bases: list[str], who: list[tuple[str, str]], rate: float, bots: bool) -> list[float]:
    """Each person queues (round-robin over the servers) at ``rate`` a second; the seconds each waited."""
    waits: list[float] = []
    lock = threading.Lock()

    def one(i: int, name: str, token: str) -> None:
        base = bases[i % len(bases)]
        headers = {"X-Forwarded-For": f"10.{i // 60000}.{i // 250 % 240}.{i % 250}"}
        with httpx.Client(base_url=base, headers=headers, cookies={"gouji_session": token}, timeout=30) as c:
            t0 = time.monotonic()
            ticket = c.post("/api/quickplay", json={"preset": "qingdao", "bots": bots}).json()["ticket"]
            while c.get(f"/api/quickplay/{ticket}").json()["status"] != "seated":
                time.sleep(0.2)
            with lock:
                waits.append(time.monotonic() - t0)

    with concurrent.futures.ThreadPoolExecutor(64) as pool:
        futures = []
        for i, (name, token) in enumerate(who):
            futures.append(pool.submit(one, i, name, token))
            time.sleep(1 / rate)
        for f in futures:
            f.result()
    return waits


def hall_delay(bases: list[str]) -> list[float]:
    """Seconds from opening a public table (on the last server) to seeing it in the first server's hall."""
    out = []
    for i in range(10):
        made = httpx.post(
            bases[-1] + "/api/tables",
            json={"bots": [None] * 6, "public": True},
            headers={"X-Forwarded-For": f"192.0.2.{i}"},
        ).json()
        t0 = time.monotonic()
        while not any(t["code"] == made["code"] for t in httpx.get(bases[0] + "/api/hall").json()["tables"]):
            time.sleep(0.05)
        out.append(time.monotonic() - t0)
    return out


def leaderboard(url: str, accounts: int, bases: list[str]) -> tuple[list[float], list[float]]:
    """The leaderboard's answer times on ``accounts`` listed accounts: through HTTP (cached 5 s: the same
    answer), and the query itself with one's own place (the store function, uncached)."""
    from gouji.server.hall.store import leaderboard as board

    store = open_store(url)
    now = dt.datetime.now(dt.UTC)
    try:
        with store.sessions.begin() as s:
            base = s.scalar(sa.select(sa.func.coalesce(sa.func.max(AccountRow.id), 0))) or 0
            s.execute(
                sa.insert(AccountRow),
                [
                    {
                        "id": base + i + 1,
                        "name": f"lb{i}",
                        "name_key": f"lb{i}",
                        "password_hash": "-",
                        "created_at": now,
                    }
                    for i in range(accounts)
                ],
            )
            rng = secrets.SystemRandom()
            rows = []
            for i in range(accounts):
                mu, sigma = rng.gauss(25, 4), rng.uniform(1, 8)
                rows.append(
                    {
                        "account_id": base + i + 1,
                        "mu": mu,
                        "sigma": sigma,
                        "ordinal": mu - 3 * sigma,
                        "games": 10,
                        "listed": True,
                        "updated_at": now,
                    }
                )
            s.execute(sa.insert(RatingRow), rows)
        http = []
        for i in range(50):
            t0 = time.monotonic()
            assert httpx.get(bases[0] + f"/api/leaderboard?limit={50 + i}").status_code == 200
            http.append(time.monotonic() - t0)
        query = []
        for i in range(50):
            t0 = time.monotonic()
            board(store, 50, f"lb{i * 997 % accounts}")
            query.append(time.monotonic() - t0)
        return http, query
    finally:
        store.close()


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def run(url: str, label: str, shards: int, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        with servers(url, shards, args.fill, Path(tmp)) as bases:
            who = people(url, args.people)
            half = args.people // 2 // 6 * 6  # (without bots, people are seated six at a time)
            alone = quick_play(bases, who[:half], args.rate, bots=False)
            filled = quick_play(bases, who[half:], args.rate / 4, bots=True)
            delay = hall_delay(bases)
            if shards == 1:
                http, query = leaderboard(url, args.accounts, bases)
        a50, a95, f50, f95 = pct(alone, 0.5), pct(alone, 0.95), pct(filled, 0.5), pct(filled, 0.95)
        print(f"{label}: quick play, {len(alone)} people at {args.rate:g}/s, no bots: p50 {a50:.2f} s, p95 {a95:.2f} s")
        print(
            f"{label}: quick play, {len(filled)} at {args.rate / 4:g}/s, bots after {args.fill:g} s: "
            f"p50 {f50:.2f} s, p95 {f95:.2f} s"
        )
        print(f"{label}: hall update delay p50 {pct(delay, 0.5):.2f} s, max {max(delay):.2f} s")
        if shards == 1:
            h50, h95 = statistics.median(http) * 1000, pct(http, 0.95) * 1000
            q50, q95 = statistics.median(query) * 1000, pct(query, 0.95) * 1000
            print(f"{label}: leaderboard on {args.accounts:,} accounts: HTTP p50 {h50:.1f} ms, p95 {h95:.1f} ms")
            print(f"{label}: its query with one's own place: p50 {q50:.1f} ms, p95 {q95:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--people", type=int, default=1000)
    ap.add_argument(
        "--rate", type=float, default=20.0, help="people queueing a second (without bots; a quarter of it with)"
    )
    ap.add_argument("--fill", type=float, default=5.0, help="--quickplay-fill-seconds of the servers")
    ap.add_argument("--accounts", type=int, default=100_000)
    ap.add_argument("--postgres", default=os.environ.get("GOUJI_BENCH_POSTGRES"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(f"sqlite:///{Path(tmp) / 'hall.db'}", "SQLite, one server", 1, args)
    if args.postgres:
        for shards in (1, 2):
            db = f"bench_hall_{shards}"
            admin = sa.create_engine(args.postgres, isolation_level="AUTOCOMMIT")
            with admin.connect() as c:
                c.execute(sa.text(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
                c.execute(sa.text(f'CREATE DATABASE "{db}"'))
            url = sa.make_url(args.postgres).set(database=db).render_as_string(hide_password=False)
            run(url, f"PostgreSQL, {'one server' if shards == 1 else 'two shards'}", shards, args)
            with admin.connect() as c:
                c.execute(sa.text(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
            admin.dispose()


if __name__ == "__main__":
    main()
