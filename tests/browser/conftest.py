"""Fixtures of the browser tests: the real server (Uvicorn on a free 127.0.0.1 port, in a thread, on a temporary
SQLite database, bots without delay) and Debian's Chromium driven by Playwright.

The tests skip, saying why, when Playwright is not installed or Chromium is missing or does not start
(``apt-get install chromium``; ``GOUJI_CHROMIUM`` names another binary).  Screenshots of the key moments go to
``tests/browser/artifacts/``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from gouji.server import create_app
from gouji.server.http.play_socket import PlaySocket
from gouji.server.replays.api import STATIC_DIR, replay_routes

from ..helpers import wait_until
from ..limits import ROOMY

CHROMIUM = os.environ.get("GOUJI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
DESKTOP = {"width": 1366, "height": 860}
PHONE = {"width": 390, "height": 844}
QUICKPLAY_FILL = 3.0
"""Seconds a quick play ticket that allows bots waits for people before bots fill its table."""


def prepare_app(app: Starlette) -> Starlette:
    """Add the browser table's routes to the app when the server does not have them yet: the replay and
    hint endpoints (``replay_routes()``) ahead of everything, and the static files at ``/`` last."""
    paths = {getattr(r, "path", None) for r in app.router.routes}
    for route in replay_routes():
        if getattr(route, "path", None) not in paths:
            app.router.routes.insert(0, route)
    if not any(isinstance(r, Mount) and r.path == "" for r in app.router.routes) and "/" not in paths:
        app.router.routes.append(Mount("/", app=StaticFiles(directory=STATIC_DIR, html=True), name="ui"))
    return app


class LiveServer:
    """The app served by Uvicorn in a thread; ``url`` is its base address."""

    def __init__(self, app: Starlette, database: Path) -> None:
        self.app = app
        self.database = database
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, log_level="warning", lifespan="on", ws=PlaySocket, access_log=False)
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve(sockets=[self.sock]))

    def start(self) -> None:
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the server's event loop (where a room's changes and timers belong); returns its
        result."""

        async def run() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(15)

    # -------------------------------------------------------------- the HTTP API, as a test client

    def request(self, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path,
            data=data,
            headers={"content-type": "application/json"},
            method="GET" if data is None else "POST",
        )
        with urllib.request.urlopen(req, timeout=10) as res:
            return json.loads(res.read())

    def create(self, **body: Any) -> dict[str, Any]:
        result: dict[str, Any] = self.request("/api/tables", body)
        return result

    @property
    def lobby(self) -> Any:
        return self.app.state.lobby

    def room(self, code: str) -> Any:
        return self.lobby.rooms[code]

    def wait(self, pred: Callable[[], bool], timeout: float = 20.0, what: str = "the condition") -> None:
        wait_until(pred, timeout, what)


class Seeds:
    """The browser tests' seed source (the server's :attr:`~gouji.server.settings.ServerSettings.seeds`):
    1, 2, … from the start of each test, or one seed always (:meth:`restart`)."""

    def __init__(self) -> None:
        self._next: Iterator[int] = itertools.count(1)

    def restart(self, always: int | None = None) -> None:
        self._next = itertools.count(1) if always is None else itertools.repeat(always)

    def __call__(self) -> int:
        return next(self._next)


SEEDS = Seeds()


@pytest.fixture(autouse=True)
def seeded() -> None:
    """Every table of the browser tests is dealt, and its bots draw, from a fixed seed (1, 2, … in each
    test), so a test plays the same deals in every run: a person's clicks vary with the cards, and a random
    deal may never offer what a test looks for (a hint to beat a seat's play, a setup question)."""
    SEEDS.restart()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("browser-db") / "gouji.db"
    # (one client creates every table of the session, and tests leave tables in play: no per-client caps; quick
    # play fills a table with bots after QUICKPLAY_FILL seconds)
    app = prepare_app(
        create_app(
            f"sqlite:///{db}",
            turn_seconds=None,
            bot_delay=0.0,
            limits=ROOMY,
            seeds=SEEDS,
            quickplay_fill_seconds=QUICKPLAY_FILL,
        )
    )
    live = LiveServer(app, db)
    live.start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        pytest.skip("Playwright is not installed (pip install -e '.[test]')")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set GOUJI_CHROMIUM)")
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    except Error as e:
        pw.stop()
        pytest.skip(f"Chromium at {CHROMIUM} does not start: {e}")
    try:
        yield b
    finally:
        b.close()
        pw.stop()


@pytest.fixture
def new_page(browser: Any, server: LiveServer) -> Iterator[Callable[..., Any]]:
    """``new_page(viewport=DESKTOP, locale="zh-CN")``: a page in a fresh browser context (its own storage),
    at the server's lobby; JavaScript errors on the page fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(viewport: dict[str, int] | None = None, locale: str = "zh-CN", path: str = "/") -> Any:
        ctx = browser.new_context(viewport=viewport or DESKTOP, locale=locale, base_url=server.url)
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(path)
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def shot(page: Any, name: str, full_page: bool = False) -> Path:
    """Keep a screenshot as a test artifact: ``tests/browser/artifacts/NAME.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def url_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except (urllib.error.URLError, OSError):
        return False
