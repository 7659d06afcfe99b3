"""Hints are worked out off the event loop: a real server process whose every hint takes a second of CPU
goes on answering other tables (and its bots go on playing) while hints are worked out, and hints are
bounded (one in the works per seat, a few at once server-wide)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from ..helpers import free_port
from .conftest import wait_serving

SLOW = 1.5
"""Seconds of CPU each hint takes in the server of this test."""

SERVER = f"""
import sys, time
import gouji.server.replays.api as api

real = api.hint_from

def slow(view, legal):
    end = time.perf_counter() + {SLOW}
    while time.perf_counter() < end:  # busy: a hint that needs a second of the interpreter
        pass
    return real(view, legal)

api.hint_from = slow
api.HINTS_AT_ONCE = 2
from gouji.server.serve import main
main(sys.argv[1:])
"""

BOTS5 = [None, "random", "random", "random", "random", "random"]


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    log = tmp_path / "server.log"
    cmd = [
        sys.executable,
        "-c",
        SERVER,
        "--port",
        str(port),
        "--database-url",
        f"sqlite:///{tmp_path / 'hints.db'}",
        "--turn-seconds",
        "0",
        "--bot-delay",
        "0",
        "--log-level",
        "warning",
        "--no-access-log",
        "--create-burst",
        "100",
        "--seat-burst",
        "100",
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_serving(proc, url, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)


def _asked_table(base: str, nickname: str, stack: ExitStack) -> tuple[str, str, ClientConnection]:
    """A table of one person (seat 0) and five bots, connected, once the bots have played up to seat 0's
    decision (no turn timer: the table then waits for it)."""
    made = httpx.post(f"{base}/api/tables", json={"nickname": nickname, "seat": 0, "bots": BOTS5}, timeout=10)
    assert made.status_code == 201, made.text
    code, token = made.json()["code"], made.json()["token"]
    ws = stack.enter_context(connect(f"ws://{base.removeprefix('http://')}/ws/tables/{code}", open_timeout=10))
    ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
    end = time.monotonic() + 30
    while True:
        assert time.monotonic() < end, "seat 0 was not asked"
        frame = json.loads(ws.recv(timeout=30))
        if frame["type"] == "state" and frame["turn"]["seat"] == 0 and "legal_count" in frame["turn"]:
            return code, token, ws


def _hint(base: str, code: str, token: str) -> httpx.Response:
    return httpx.post(f"{base}/api/tables/{code}/hint", json={"token": token}, timeout=30)


def test_other_tables_are_served_while_hints_are_worked_out(base: str) -> None:
    with ExitStack() as stack:
        _served_while_hints_are_worked_out(base, stack)


def _served_while_hints_are_worked_out(base: str, stack: ExitStack) -> None:
    a_code, a_token, _ = _asked_table(base, "ann", stack)
    b_code, b_token, _ = _asked_table(base, "bob", stack)
    c_code, c_token, c_ws = _asked_table(base, "cid", stack)
    # heuristic bots: random ones at bot-delay 0 played the whole 20-deal set before the first look (a loaded run)
    bots = httpx.post(f"{base}/api/tables", json={"bots": ["heuristic"] * 6, "set_length": 20}, timeout=10).json()

    answers: dict[str, httpx.Response] = {}
    done: dict[str, float] = {}

    def ask(name: str, code: str, token: str) -> None:
        answers[name] = _hint(base, code, token)
        done[name] = time.perf_counter()

    bots_before = httpx.get(f"{base}/api/tables/{bots['code']}", timeout=10).json()["state"]
    started = time.perf_counter()
    first = threading.Thread(target=ask, args=("ann", a_code, a_token))
    first.start()
    time.sleep(SLOW / 3)  # ann's request reaches the server (the loop is free to take it)
    again = _hint(base, a_code, a_token)
    assert again.status_code == 429 and "a hint for this seat is being worked out" in again.json()["error"]
    second = threading.Thread(target=ask, args=("bob", b_code, b_token))
    second.start()
    time.sleep(0.3)  # bob's request reaches the server too (ann's hint still has a second to go)
    third = _hint(base, c_code, c_token)  # the server's limit here is two at once
    assert third.status_code == 503 and "busy working out hints" in third.json()["error"], third.text

    # meanwhile the event loop answers another table's pings at once
    rtts: list[float] = []
    n = 0
    while first.is_alive() or second.is_alive():
        n += 1
        sent = time.perf_counter()
        c_ws.send(json.dumps({"type": "ping", "id": str(n)}))
        while True:
            frame = json.loads(c_ws.recv(timeout=30))
            assert frame["type"] != "error", frame
            if frame["type"] == "pong" and frame.get("id") == str(n):
                break
        rtts.append(time.perf_counter() - sent)
        time.sleep(0.08)  # within the connection's message rate
    first.join(30)
    second.join(30)
    bots_after = httpx.get(f"{base}/api/tables/{bots['code']}", timeout=10).json()["state"]

    for name in ("ann", "bob"):
        out: dict[str, Any] = answers[name].json()
        assert answers[name].status_code == 200, out
        assert out["seat"] == 0 and out["action"] and out["reason"], out
    assert done["ann"] - started >= SLOW * 0.9  # the hint did take its time
    assert done["bob"] - started >= 1.8 * SLOW  # ... and bob's waited for the hints' thread
    assert len(rtts) >= 10, rtts
    assert max(rtts) < SLOW / 3, rtts  # on the event loop, a ping would wait for the hint
    assert bots_after > bots_before  # the bots' table played on (its bots think on their own thread)
    assert _hint(base, c_code, c_token).status_code == 200  # once they are done, hints are served again
