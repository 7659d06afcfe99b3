"""The holes a security review found (issue 35), each closed and checked on a real server process.

The servers here trust 127.0.0.1 as a reverse proxy (``--trusted-proxy``), so a test speaks as several
clients by naming them in ``X-Forwarded-For``, as a proxy would."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import wait_serving


class Served:
    """A server process: its base URL, its log, and how to stop and start it again on the same database."""

    def __init__(self, tmp: Path, args: list[str]) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp / f"server-{self.port}.log"
        self.db = f"sqlite:///{tmp / f'{self.port}.db'}"
        self.args = args
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [sys.executable, "-m", "gouji.server.serve", "--port", str(self.port), "--database-url", self.db]
        cmd += ["--log-level", "warning", "--no-access-log", "--trusted-proxy", "127.0.0.1", *self.args]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        wait_serving(self.proc, self.base, self.log)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
            self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def post(self, path: str, body: Any = None, client: str = "203.0.113.1", **kw: Any) -> httpx.Response:
        headers = {"X-Forwarded-For": client, **kw.pop("headers", {})}
        if body is not None:
            kw["json"] = body
        return httpx.post(self.base + path, headers=headers, timeout=30, **kw)

    def get(self, path: str, client: str = "203.0.113.1", **kw: Any) -> httpx.Response:
        headers = {"X-Forwarded-For": client, **kw.pop("headers", {})}
        return httpx.get(self.base + path, headers=headers, timeout=30, **kw)


@contextmanager
def serving(tmp: Path, *args: str) -> Iterator[Served]:
    server = Served(tmp, list(args))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server process for the tests that need no settings of their own."""
    with serving(tmp_path_factory.mktemp("security")) as s:
        yield s


# ------------------------------------------------------------------------------------------ 8: no 500s


@pytest.mark.parametrize(
    ("path", "body", "named"),
    [
        ("/api/tables", {"bots": [[], None, None, None, None, None]}, "bots[0]"),
        ("/api/tables", {"bots": {"3": {"a": 1}}}, "bots[3]"),
        ("/api/tables", {"bots": [None, None, None, None, None, 7]}, "bots[5]"),
        ("/api/events", {"teams": ["A", "B"], "bots": {"A": [1]}}, "bots['A']"),
        ("/api/matches", {"bots": {"X": ["random"]}}, "bots['X']"),
        ("/api/matches", {"bots": [[None] * 5 + [{"a": 1}], [None] * 6]}, "bots[0][5]"),
        ("/api/matches", {"bots": [[None] * 6, [[]] + [None] * 5]}, "bots[1][0]"),
    ],
)
def test_a_bot_that_is_no_name_is_a_400_naming_its_field(server: Served, path: str, body: Any, named: str) -> None:
    r = server.post(path, body)
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith(f"{named}: no bot a JSON"), r.text


def test_deeply_nested_json_is_a_400_everywhere(server: Served) -> None:
    table = server.post("/api/tables", {"bots": [None] + ["random"] * 5, "nickname": "ann"}).json()
    paths = ("/api/tables", f"/api/tables/{table['code']}/hint", f"/api/tables/{table['code']}/join", "/api/events")
    for path in paths:
        r = server.post(path, content=b"[" * 1000, headers={"content-type": "application/json"})  # (the review's)
        assert r.status_code == 400 and r.json()["error"] == "the request body is not JSON", (path, r.text)
        r = server.post(path, content=b"[" * 500 + b"]" * 500, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "nests deeper than 8 levels" in r.json()["error"], (path, r.text)
    r = server.post("/api/tables", content=b'{"options": ' + b"[" * 2000 + b"]" * 2000 + b"}")
    assert r.status_code == 400, r.text
    assert "Traceback" not in server.log.read_text()


# ------------------------------------------------------------------------------------------ 1: the lockout

TEAMS16 = [f"T{i}" for i in range(16)]


def _fixtures(server: Served, code: str) -> list[str]:
    event = server.get(f"/api/events/{code}").json()
    return [m["key"] for r in event["rounds"] for m in r["matches"]]


def test_looping_event_starts_no_longer_locks_anyone_out_even_after_a_restart(tmp_path: Path) -> None:
    """The review's lockout: an event of 16 teams, its matches started in a loop, every start two tables
    waiting for players, until the server holds all it can and refuses everyone.  Now an event's matches count
    toward the client that starts them (10 waiting tables at most), and toward the event (12 here); the
    tables keep who created them across a restart; and another client goes on creating tables."""
    attacker, accomplice, bystander = "198.51.100.66", "198.51.100.67", "203.0.113.5"
    with serving(tmp_path, "--max-tables", "16", "--tables-per-event", "12") as server:
        ev = server.post("/api/events", {"teams": TEAMS16}, client=attacker).json()
        fixtures = _fixtures(server, ev["code"])
        start = {"owner_token": ev["owner_token"]}
        statuses = [
            server.post(f"/api/events/{ev['code']}/start", {**start, "fixture": f}, client=attacker).status_code
            for f in fixtures[:8]
        ]
        assert statuses == [200] * 5 + [429] * 3, statuses  # 10 tables waiting: the attacker's cap
        r = server.post(f"/api/events/{ev['code']}/start", {**start, "fixture": fixtures[0]}, client=accomplice)
        assert r.status_code == 409  # a started match is not started again (no tables opened)
        r = server.post(f"/api/events/{ev['code']}/start", {**start, "fixture": fixtures[5]}, client=accomplice)
        assert r.status_code == 200, r.text
        r = server.post(f"/api/events/{ev['code']}/start", {**start, "fixture": fixtures[6]}, client=accomplice)
        assert r.status_code == 429 and "12 tables open" in r.json()["error"], r.text  # the event's cap
        r = server.post("/api/tables", {"bots": ["random"] * 6}, client=attacker)
        assert r.status_code == 429 and "10 tables waiting" in r.json()["error"]
        assert server.post("/api/tables", {}, client=bystander).status_code == 201
        server.restart()
        # the attacker's tables are still its own, and the event's its own
        r = server.post("/api/tables", {}, client=attacker)
        assert r.status_code == 429 and "10 tables waiting" in r.json()["error"], r.text
        r = server.post(f"/api/events/{ev['code']}/start", {**start, "fixture": fixtures[7]}, client=accomplice)
        assert r.status_code == 429, r.text
        assert server.post("/api/tables", {}, client=bystander).status_code == 201
        # its organiser closes a match: its tables close, and the fixture may be started again
        event = server.get(f"/api/events/{ev['code']}").json()
        first = next(m for r in event["rounds"] for m in r["matches"] if m["key"] == fixtures[0])
        match = server.get(f"/api/matches/{first['match']}").json()
        r = server.post(f"/api/matches/{first['match']}/close", {"owner_token": "nope"})
        assert r.status_code == 403
        r = server.post(f"/api/matches/{first['match']}/close", start)
        assert r.status_code == 200, r.text
        for t in match["tables"]:
            assert server.get(f"/api/tables/{t['code']}").json()["status"] == "closed"
        event = server.get(f"/api/events/{ev['code']}").json()
        assert next(m for r in event["rounds"] for m in r["matches"] if m["key"] == fixtures[0])["status"] == (
            "not started"
        )
        r = server.post(f"/api/events/{ev['code']}/start", {**start, "fixture": fixtures[0]}, client=attacker)
        assert r.status_code == 200, r.text
        # the organiser closes the event: every match of it still waiting is closed
        assert server.post(f"/api/events/{ev['code']}/close", start).status_code == 200
        assert server.get(f"/api/events/{ev['code']}").status_code == 404
        for t in match["tables"]:
            assert server.get(f"/api/tables/{t['code']}").json()["status"] == "closed"
        assert server.post("/api/tables", {}, client=attacker).status_code == 201


def test_a_match_waiting_for_players_expires_as_a_table_does_also_after_a_restart(tmp_path: Path) -> None:
    with serving(tmp_path, "--waiting-seconds", "1.5") as server:
        ev = server.post("/api/events", {"teams": ["A", "B"]}).json()
        out = server.post(f"/api/events/{ev['code']}/start", {"owner_token": ev["owner_token"], "fixture": "r1m1"})
        assert out.status_code == 200, out.text
        tables = [t["code"] for t in out.json()["table_codes"]]
        assert server.get(f"/api/tables/{tables[0]}").json()["status"] == "waiting"
        server.restart()  # (restored: the idle time counts from the last stored change)
        deadline = time.monotonic() + 20
        while server.get(f"/api/tables/{tables[0]}").json()["status"] != "closed":
            assert time.monotonic() < deadline, "the match's tables did not expire"
            time.sleep(0.2)
        assert server.get(f"/api/tables/{tables[1]}").json()["status"] == "closed"
        assert server.get(f"/api/events/{ev['code']}").json()["rounds"][0]["matches"][0]["status"] == "not started"


# ------------------------------------------------------------------------------------------ 2: the match leak


def test_a_match_table_shows_nothing_of_a_deal_the_other_table_still_plays(server: Served) -> None:
    """Table 1 (all bots) plays deal 0 to its end while table 2 waits for a person: the same cards are still
    to be played there, so table 1's public view holds nothing of that deal — no places, no out order, no
    points."""
    body = {"bots": [["random"] * 6, ["random"] * 5 + [None]], "bot_delay": 0, "turn_seconds": None, "deals": 2}
    out = server.post("/api/matches", body).json()
    one, two = (t["code"] for t in out["table_codes"])
    deadline = time.monotonic() + 60
    while True:
        view = server.get(f"/api/tables/{one}").json()
        if view["duplicate"]["waiting"]:
            break
        assert time.monotonic() < deadline, "table 1 did not finish its first deal"
        time.sleep(0.1)
    assert server.get(f"/api/tables/{two}").json()["status"] == "waiting"
    assert view["last_deal"] is None, view["last_deal"]
    assert view["points"] == [] and view["deals_over"] == 0 and view["totals"] == [0, 0]
    assert view["duplicate"]["small_points"] == [] and view["duplicate"]["complete"] == 0
    match = server.get(f"/api/matches/{out['code']}").json()
    assert match["results"] == [] and match["totals"] == [0, 0]
    for text in (server.get(f"/api/tables/{one}").text, server.get(f"/api/matches/{out['code']}").text):
        assert "places" not in text and "out_order" not in text
