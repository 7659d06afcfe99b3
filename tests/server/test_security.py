"""The holes a security review found (issue 35), each closed and checked on a real server process.

The servers here trust 127.0.0.1 as a reverse proxy (``--trusted-proxy``), so a test speaks as several
clients by naming them in ``X-Forwarded-For``, as a proxy would."""

from __future__ import annotations

import socket
import subprocess
import sys
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
