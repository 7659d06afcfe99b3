"""Fixtures of the server tests: a database (SQLite, and PostgreSQL when ``GOUJI_TEST_POSTGRES`` names one),
an in-process app, and WebSocket players that record every frame they receive."""

from __future__ import annotations

import json
import os
import random
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from gouji.server import create_app

from ..limits import ROOMY as ROOMY

PG = os.environ.get("GOUJI_TEST_POSTGRES")


def seeds_of(request: pytest.FixtureRequest) -> Callable[[], int]:
    """The seed source (:attr:`~gouji.server.settings.ServerSettings.seeds`) of an in-process test's server:
    its tables are dealt, and their bots draw, from seeds fixed by the test's name (large, like real ones, so
    a seed's digits do not turn up in a frame by chance): a test plays the same deals on every run and
    database, and a deal that lacks what a test waits for fails every time, not once in a while on CI.
    (Tests of a server process deal at random.)"""
    rng = random.Random(f"{request.node.module.__name__}.{request.node.originalname}")
    return lambda: rng.randrange(2**62, 2**63)


@pytest.fixture
def seeds(request: pytest.FixtureRequest) -> Callable[[], int]:
    """:func:`seeds_of` this test."""
    return seeds_of(request)


@pytest.fixture(params=["sqlite", *(["postgres"] if PG else [])])
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """A fresh, empty database for one test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'gouji.db'}"
        return
    assert PG is not None
    name = f"gouji_{uuid.uuid4().hex[:16]}"
    admin = sa.create_engine(PG, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield sa.make_url(PG).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


class Player:
    """One WebSocket connection: every frame it receives is kept in ``frames``."""

    def __init__(self, ws: WebSocketTestSession, token: str | None) -> None:
        self.ws = ws
        self.token = token
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.closed: int | None = None
        self.last_state: dict[str, Any] | None = None
        self.acted_at: int | None = None

    def _keep(self, text: str) -> dict[str, Any]:
        self.raw.append(text)
        frame: dict[str, Any] = json.loads(text)
        self.frames.append(frame)
        if frame["type"] == "state":
            self.last_state = frame
        return frame

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send_json(msg)

    def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next frame; fails the test after ``timeout`` seconds without one."""

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        message = self.ws.portal.call(get)
        if message["type"] == "websocket.close":
            self.closed = message.get("code", 1000)
            raise WebSocketDisconnect(self.closed)
        return self._keep(message["text"])

    def poll(self) -> dict[str, Any] | None:
        """The next frame if one is waiting, without blocking; None if none is (or the connection closed)."""
        try:
            message = self.ws._send_rx.receive_nowait()
        except (anyio.WouldBlock, anyio.EndOfStream):
            return None
        if message["type"] == "websocket.close":
            self.closed = message.get("code", 1000)
            return None
        return self._keep(message["text"])

    def pending(self) -> list[dict[str, Any]]:
        """Every frame already waiting, without blocking."""
        out = []
        while (frame := self.poll()) is not None:
            out.append(frame)
        return out

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Receive until a frame satisfies ``pred``; returns it."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            assert left > 0, "no frame satisfied the condition in time"
            frame = self.recv(left)
            if pred(frame):
                return frame

    def latest_state(self, timeout: float = 5.0) -> dict[str, Any]:
        """The newest ``state`` frame: drains what is waiting, or waits for one."""
        states = [f for f in self.pending() if f["type"] == "state"]
        if states:
            return states[-1]
        return self.until(lambda f: f["type"] == "state", timeout)

    def act(self, action: str, state: int, **extra: Any) -> None:
        self.acted_at = state
        self.send({"type": "act", "action": action, "state": state, "token": self.token, **extra})

    def error(self, timeout: float = 5.0) -> dict[str, Any]:
        return self.until(lambda f: f["type"] == "error", timeout)


class Server:
    """The app in process (``TestClient``) with helpers for the HTTP API."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    @property
    def app(self) -> Any:
        return self.client.app

    def lobby(self) -> Any:
        return self.client.app.state.lobby  # type: ignore[attr-defined]

    def create(self, expect: int = 201, **body: Any) -> dict[str, Any]:
        r = self.client.post("/api/tables", json=body)
        assert r.status_code == expect, r.text
        data: dict[str, Any] = r.json()
        return data

    def join(self, code: str, nickname: str, seat: int | None = None, expect: int = 200) -> dict[str, Any]:
        body: dict[str, Any] = {"nickname": nickname}
        if seat is not None:
            body["seat"] = seat
        r = self.client.post(f"/api/tables/{code}/join", json=body)
        assert r.status_code == expect, r.text
        data: dict[str, Any] = r.json()
        return data

    @contextmanager
    def connect(self, code: str, token: str | None = None, hello: bool = True) -> Iterator[Player]:
        with self.client.websocket_connect(f"/ws/tables/{code}") as ws:
            p = Player(ws, token)
            if hello:
                p.send({"type": "hello", "v": 1, "token": token})
                welcome = p.recv()
                assert welcome["type"] == "welcome", welcome
                first = p.recv()
                assert first["type"] == "state" and first["full"] is True
            yield p


@pytest.fixture
def make_server(db_url: str, seeds: Callable[[], int], tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """``with make_server(**create_app_kwargs) as server:`` — the app on this test's database (its secret in
    the test's directory, whatever the database)."""

    @contextmanager
    def make(**kw: Any) -> Iterator[Server]:
        kw.setdefault("turn_seconds", None)
        kw.setdefault("bot_delay", 0.0)
        kw.setdefault("limits", ROOMY)
        kw.setdefault("seeds", seeds)
        kw.setdefault("secret_file", tmp_path / "gouji.secret")
        with TestClient(create_app(db_url, **kw)) as client:
            yield Server(client)

    yield make


def wait_serving(proc: subprocess.Popen[bytes], base_url: str, log: Path, timeout: float = 60.0) -> None:
    """Wait until the server process ``proc`` answers HTTP at ``base_url`` (its log in the failure if it
    exits first)."""
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            if httpx.get(f"{base_url}/api/tables/NONE", timeout=1).status_code == 404:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)


def choose(turn: dict[str, Any], prefer_play: bool = True) -> str:
    """A legal action from a ``turn`` block: a play when one is offered, else the first choice."""
    choices = turn.get("choices") or turn.get("sample") or []
    assert choices, turn
    if prefer_play:
        plays = [c for c in choices if c not in ("pass", "yield") and not c.startswith("burn")]
        if plays:
            return str(plays[0])
    return str(choices[0])


def play_turn(p: Player, seat: int, timeout: float = 10.0) -> dict[str, Any]:
    """Wait for this seat's turn (on the newest frame) and take a legal action; returns the frame acted on.

    A seat may have fewer real choices in a deal than a test plays turns (a seat with one answer is never
    asked): when the deal ends first and the table waits for this seat to be ready, it says ``ready``, as a
    player would, and plays its turn in the next deal."""
    end = time.monotonic() + timeout
    p.pending()
    readied: int | None = None
    while True:
        f = p.last_state
        if f is not None and f["turn"]["seat"] == seat and "legal_count" in f["turn"] and p.acted_at != f["state"]:
            p.act(choose(f["turn"]), f["state"])
            return f
        gate = None if f is None else f["table"].get("ready")
        if f is not None and gate is not None and not gate["seats"][seat] and readied != f["state"]:
            readied = f["state"]
            p.send({"type": "ready", "token": p.token})
        left = end - time.monotonic()
        assert left > 0, "the seat's turn did not come"
        p.until(lambda fr: fr["type"] == "state", left)
        p.pending()


def drive(players: dict[int, Player], done: Callable[[], bool], timeout: float = 20.0) -> int:
    """Play the seats of ``players`` (seat → connection), each acting on its own newest frame (and saying
    ``ready`` in the pause between two deals), until ``done()``; returns how many actions were sent."""
    end = time.monotonic() + timeout
    sent = 0
    while not done():
        acted = False
        for seat, p in players.items():
            p.pending()
            f = p.last_state
            gate = None if f is None else f["table"].get("ready")
            if f is not None and gate is not None and not gate["seats"][seat] and p.acted_at != f["state"]:
                p.acted_at = f["state"]
                p.send({"type": "ready", "token": p.token})
                acted = True
                continue
            if f is not None and f["turn"]["seat"] == seat and "legal_count" in f["turn"] and p.acted_at != f["state"]:
                p.act(choose(f["turn"]), f["state"])
                acted = True
                sent += 1
        if not acted:
            time.sleep(0.002)
        assert time.monotonic() < end, "the game did not get there in time"
    return sent
