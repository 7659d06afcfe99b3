"""The ASGI app: the HTTP API and the WebSocket of play (Starlette), on the store of :mod:`.storage`.

``create_app(database_url)`` builds it; at startup it migrates the database (Alembic) and restores every
open table from its stored events; at shutdown it closes the connections and writes what is queued.

HTTP (JSON in, JSON out; errors are ``{"error": message}`` with a 4xx status):

- ``POST /api/tables`` — create a table: ``preset``, ``options`` (rule overrides), ``set_length``,
  ``turn_seconds`` (null: no timer), ``bot_delay``, ``bots`` (six bot names or nulls), optionally
  ``nickname`` (and ``seat``) to sit down at once.  Answers the join ``code``, the ``link`` for friends, the
  creator's secret ``owner_token`` (to close it), and with a nickname the ``seat`` and its ``token``.
- ``GET /api/tables/{code}`` — the table as everyone may see it.
- ``POST /api/tables/{code}/join`` — ``nickname`` (and ``seat``): take a free seat; answers ``seat``, ``token``.
- ``POST /api/tables/{code}/leave`` — ``token``: give the seat up; ``…/close`` — ``owner_token``: close the table.
- ``GET /api/tables/{code}/games``, ``GET /api/players/{nickname}/games`` — stored records, listed.
- ``GET /api/records/{id}`` — one record document (a set's records once its set is over).
- ``POST /api/matches``, ``GET /api/matches/{code}``, ``POST /api/teams/{code}/join``, ``POST /api/events``,
  ``GET /api/events/{code}``, ``POST /api/events/{code}/start`` — duplicate matches and events of several
  teams (:mod:`.tournament_api`).
- ``GET /t/{code}`` — the friends' link: redirects to the browser table's page for that table.
- ``GET /hall``, ``/leaderboard``, ``/quickplay`` — the page (``index.html``), which shows the hall's views there.
- ``GET /`` — the browser table (``static/``); :mod:`.replays` adds replays and the hint, :mod:`.review` 复盘.

WebSocket ``/ws/tables/{code}``: the messages of :mod:`.protocol` (``docs/protocol.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from .accounts.api import account_name, account_routes
from .accounts.passwords import Passwords
from .accounts.sessions import Sessions
from .bots_api import bot_routes
from .errors import RequestError
from .hall.api import hall_routes
from .hall.service import HallService
from .http.connection import Connection, token_hash
from .http.fast_send import text_sender
from .http.guard import Guard, SocketCount, client_of, deny_upgrade
from .http.play_socket import PlaySocket
from .limits import MAX_BODY_BYTES, MAX_CODE_CHARS, MAX_PATH_NICKNAME, MAX_RECORD_ID, Limits, TokenBucket, read_json
from .lobby import Lobby
from .messages import protocol as P
from .messages import schemas as S
from .private import load_secret, secret_path
from .replays.api import STATIC_DIR, replay_routes
from .replays.table import table_replay_routes
from .review.api import close_reviews, review_routes
from .settings import ServerSettings
from .storage import open_store
from .storage.durability import StoreWriter, Writer
from .storage.writer_process import ProcessWriter, WriterDied
from .tables.phrases import say
from .tables.table import Room
from .tournaments.api import tournament_routes
from .tournaments.events import restore_halls

log = logging.getLogger("gouji.server")

WRITERS = ("thread", "process")
"""Where the database's transactions may run (:func:`create_app`'s ``writer``)."""


def create_app(
    database_url: str = "sqlite:///gouji.db",
    settings: ServerSettings | None = None,
    *,
    writer: str = "thread",
    allowed_origins: Sequence[str] = (),
    secret_file: str | Path | None = None,
    **overrides: Any,
) -> Starlette:
    """The server's ASGI app on ``database_url`` (SQLite or ``postgresql+psycopg://…``), with ``settings``
    (:class:`~.settings.ServerSettings`; ``overrides`` replace some of its fields: ``turn_seconds=None``).

    ``writer``: where the database's transactions run — ``"thread"``, a thread of this process
    (:class:`~gouji.server.storage.durability.Writer`), or ``"process"``, a process of their own
    (:class:`~gouji.server.storage.writer_process.ProcessWriter`, which ``gouji serve`` uses on Linux).

    ``allowed_origins``: origins besides the server's own (its ``Host``) whose pages may send it requests
    that change something and open its WebSockets (:mod:`.guard`).

    ``secret_file``: the file of the server's secret (:func:`.private.secret_path`: by default beside an
    SQLite database, or ``gouji.secret`` in the working directory), read, or made, at startup unless
    ``settings`` carry a secret.
    """
    settings = (settings or ServerSettings()).replace(**overrides)  # (checked: SettingError)
    lim = settings.limits
    if writer not in WRITERS:
        raise ValueError(f"writer must be one of {', '.join(WRITERS)}, not {writer!r}")
    writer_kind = writer

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await asyncio.to_thread(open_store, database_url)
        writer: StoreWriter
        try:
            writer = await ProcessWriter.start(store, database_url) if writer_kind == "process" else Writer(store)
        except BaseException:
            store.close()
            raise
        secret = settings.secret
        if secret is None:
            secret = await asyncio.to_thread(load_secret, secret_path(database_url, secret_file))
        lobby = Lobby(writer, settings.replace(secret=secret))
        restored = await lobby.restore(restore_halls)
        if restored:
            log.info("restored %d open tables", restored)
        lobby.start()
        app.state.lobby = lobby
        app.state.store = store
        app.state.writer = writer
        app.state.sessions, app.state.passwords = Sessions(), Passwords()
        app.state.hall = HallService(lobby)
        app.state.hall.start()
        try:
            yield
        finally:
            app.state.hall.stop()
            close_reviews(app.state)
            lobby.shutdown()
            app.state.passwords.close()
            await asyncio.sleep(0)
            try:
                await writer.drain()
            except WriterDied as e:
                log.error("%s", e)
            finally:
                writer.close()
                store.close()

    routes = [
        *replay_routes(),
        *bot_routes(),
        *table_replay_routes(),
        *review_routes(),
        Route("/api/tables", _handler(_create), methods=["POST"]),
        Route("/api/tables/{code}", _handler(_table), methods=["GET"]),
        Route("/api/tables/{code}/join", _handler(_join), methods=["POST"]),
        Route("/api/tables/{code}/leave", _handler(_leave), methods=["POST"]),
        Route("/api/tables/{code}/close", _handler(_close), methods=["POST"]),
        Route("/api/tables/{code}/games", _handler(_table_games), methods=["GET"]),
        Route("/api/players/{nickname}/games", _handler(_player_games), methods=["GET"]),
        Route("/api/records/{record_id:int}", _handler(_record), methods=["GET"]),
        *tournament_routes(_handler, _json_body),
        *account_routes(_handler, _json_body),
        *hall_routes(_handler, _json_body),
        Route("/t/{code}", _link_page, methods=["GET"]),
        *(Route(f"/{page}", _page, methods=["GET"]) for page in PAGES),
        WebSocketRoute("/ws/tables/{code}", _websocket),
        Mount("/", app=StaticFiles(directory=STATIC_DIR, html=True), name="ui"),  # the browser table
    ]
    app = _App(routes=routes, lifespan=lifespan)
    app.state.limits = lim
    app.state.settings = settings
    app.state.guard = Guard(lim, allowed_origins)
    app.state.sockets = SocketCount()
    return app


_WS_PATH = re.compile(r"/ws/tables/(?P<code>[^/]+)")


class _App(Starlette):
    """The Starlette app, but for the WebSocket of play, which it hands to :func:`_websocket` directly.

    Through the middleware stack, every frame the server writes would pass two more layers of wrappers (the
    exception handlers', which have nothing to handle for a WebSocket the endpoint keeps open and closes
    itself); a move writes six frames.  The route stays in the routing table for ``url_for``."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            self.state.guard.stamp(scope)  # (who the client is, for every per-client limit)
        if scope["type"] == "websocket":
            m = _WS_PATH.fullmatch(scope["path"])
            if m is not None:
                scope["app"] = self
                scope["path_params"] = {"code": m["code"]}
                await _websocket(WebSocket(scope, receive, send), send)
                return
        if scope["type"] == "http":  # (every answer through the guard: its checks and security headers)
            guard: Guard = self.state.guard
            await guard.http(super().__call__, scope, receive, send)
            return
        await super().__call__(scope, receive, send)


# ------------------------------------------------------------------------------------------ HTTP


Handler = Callable[[Request], Awaitable[Any]]


def _handler(fn: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            result = await fn(request)
        except RequestError as e:
            return JSONResponse({"error": e.message}, status_code=e.status, headers=e.headers())
        except SQLAlchemyError as e:
            log.error("%s %s: the database failed: %r", request.method, request.url.path, e)
            return JSONResponse({"error": "the database is unavailable; try again"}, status_code=503)
        except ClientDisconnect:  # the client's fault, not the server's: no error, no traceback in the log
            log.info("%s %s: the client hung up before its request's body was in", request.method, request.url.path)
            return JSONResponse({"error": "the request's body did not arrive whole"}, status_code=400)
        except Exception:  # a bug: logged with its traceback here, a plain answer to the client
            log.exception("%s %s failed", request.method, request.url.path)
            return JSONResponse({"error": "the server failed to answer this request"}, status_code=500)
        if isinstance(result, Response):  # an answer made already (a cached one's bytes)
            return result
        status = 201 if request.method == "POST" and (fn is _create or getattr(fn, "creates", False)) else 200
        return Response(_json_bytes(result), status_code=status, media_type="application/json")

    return endpoint


def _json_bytes(result: Any) -> bytes:
    """An answer as JSON: orjson, which writes a set's record (hundreds of KB) in about a millisecond, where
    the standard library's encoder would hold the event loop for ten."""
    try:
        return orjson.dumps(result, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # pragma: no cover - an integer past 64 bits: the standard encoder writes it
        return json.dumps(result, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def _json_body(request: Request, limit: int = MAX_BODY_BYTES) -> Any:
    """The request's JSON body ({} when empty): :func:`~.limits.read_json`."""
    return await read_json(request, limit)


def _code(request: Request) -> str:
    """The join code in the path, upper-cased; a code no table could have is a 404 at once."""
    code = str(request.path_params["code"]).upper()
    if not 1 <= len(code) <= MAX_CODE_CHARS or not code.isalnum() or not code.isascii():
        raise RequestError(404, "no table with this code")
    return code


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


async def _create(request: Request) -> Any:
    data = await _json_body(request)
    out = await _lobby(request).create(data, client_of(request.scope), await account_name(request))
    out["link"] = str(request.url_for("_link_page", code=out["code"]))
    return out


async def _table(request: Request) -> Any:
    code = _code(request)
    lobby = _lobby(request)
    room = lobby.find(code)
    if room is not None:
        table = room.public()
        await lobby.writer.drain()  # the state it shows is stored before anyone sees it
        return table
    await lobby.writer.drain()  # (a table that just left memory: its last change is stored first)
    info = await lobby.reader.call(None, lobby.writer.store.table_info, code)
    if info is None:
        raise RequestError(404, f"no table {code!r}")
    config = {k: v for k, v in info["config"].items() if k != "seed"}
    return {"code": info["code"], "status": info["status"], "config": config}


async def _join(request: Request) -> Any:
    req = S.body(S.JoinTable, await _json_body(request))
    account = await account_name(request)
    return await _lobby(request).join(_code(request), req.name, req.seat, client_of(request.scope), account=account)


async def _leave(request: Request) -> Any:
    data = await _json_body(request)
    S.body(S.SeatToken, data)
    return await _lobby(request).leave(_code(request), data, client_of(request.scope))


async def _close(request: Request) -> Any:
    data = await _json_body(request)
    S.body(S.OwnerTokenBody, data)
    return await _lobby(request).close(_code(request), data)


async def _table_games(request: Request) -> Any:
    lobby = _lobby(request)
    code = _code(request)
    games = await lobby.reader.call(client_of(request.scope), lobby.writer.store.table_games, code)
    if games is None:
        raise RequestError(404, f"no table {code!r}")
    return {"table": code, "games": games}


async def _player_games(request: Request) -> Any:
    lobby = _lobby(request)
    nickname = request.path_params["nickname"]
    if len(nickname) > MAX_PATH_NICKNAME:
        return {"nickname": nickname[:MAX_PATH_NICKNAME], "games": []}
    games = await lobby.reader.call(client_of(request.scope), lobby.writer.store.player_games, nickname)
    return {"nickname": nickname, "games": games}


async def _record(request: Request) -> Any:
    lobby = _lobby(request)
    record_id = request.path_params["record_id"]
    if not 1 <= record_id <= MAX_RECORD_ID:
        raise RequestError(404, "no such record")
    found = await lobby.reader.call(client_of(request.scope), lobby.writer.store.record_with_status, record_id)
    if found is None:
        raise RequestError(404, "no such record")
    body, status = found
    if status == "open":
        # The record holds the set's seed, from which the deals still to come follow.
        raise RequestError(403, "the records of a set in progress are served once the set is over")
    return body


PAGES = ("hall", "leaderboard", "quickplay")
"""Paths of the page's own views (issue 43): each is ``index.html``, whose router reads the path."""


async def _page(request: Request) -> Response:
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html")


async def _link_page(request: Request) -> Response:
    """The friends' link (好友房): sends the browser to the table's page, which offers the free seats."""
    code = request.path_params["code"].upper()
    room = _lobby(request).find(code)
    if room is None:
        return HTMLResponse("<!doctype html><title>gouji</title><p>No open table with this code.</p>", 404)
    return RedirectResponse(f"/?t={html.escape(code)}", status_code=307)


# ------------------------------------------------------------------------------------------ WebSocket


async def _sender(ws: WebSocket, conn: Connection) -> None:
    """The connection's writer task: writes what had to queue, then closes the socket."""
    try:
        await conn.run_writer()
    except (WebSocketDisconnect, RuntimeError, OSError):
        conn.dropped = True
        return
    finally:
        with contextlib.suppress(Exception):
            await ws.close(code=1008 if conn.dropped else conn.close_code)


async def _websocket(ws: WebSocket, raw_send: Send | None = None) -> None:
    """The WebSocket of play; with ``raw_send`` (the server's own ASGI ``send``) frames are written with it,
    and on :class:`~gouji.server.http.play_socket.PlaySocket` the messages after ``hello`` come straight from the
    socket (:meth:`_Play.direct`) rather than through this task."""
    lobby: Lobby = ws.app.state.lobby
    lim: Limits = ws.app.state.limits
    guard: Guard = ws.app.state.guard
    code = ws.path_params["code"].upper()
    client = client_of(ws.scope)
    why = guard.cross_site(ws.scope)
    if why is not None:
        await deny_upgrade(ws, 403, why)
        return
    wait = guard.blocked(client)
    if wait > 0:
        await deny_upgrade(ws, 429, "too many requests for things that do not exist: wait", wait)
        return
    sockets: SocketCount = ws.app.state.sockets
    why = sockets.refuse(client, lim)
    if why is not None:
        await deny_upgrade(ws, 429, why)
        return
    sockets.opened(client)
    try:
        await _play_socket(ws, raw_send, lobby, lim, guard, code, client)
    finally:
        sockets.closed(client)


async def _play_socket(
    ws: WebSocket, raw_send: Send | None, lobby: Lobby, lim: Limits, guard: Guard, code: str, client: str
) -> None:
    """The WebSocket of play, once the upgrade is let in (:func:`_websocket`)."""
    await ws.accept()
    send, write_now = (ws.send_text, None) if raw_send is None else text_sender(raw_send)
    conn = Connection(limit=lim.queue, send=send, write_now=write_now)
    sender = asyncio.create_task(_sender(ws, conn))
    proto = getattr(raw_send, "__self__", None)
    sockets: SocketCount = ws.app.state.sockets
    play = _Play(lobby, code, conn, lim, sender, proto if isinstance(proto, PlaySocket) else None, sockets)
    opened = time.monotonic()
    try:
        while not conn.dropped and not sender.done():
            try:
                if conn.ready:  # (no timer to wrap the receive in)
                    message = await ws.receive()
                else:
                    left = max(0.0, lim.hello_seconds - (time.monotonic() - opened))
                    message = await asyncio.wait_for(ws.receive(), left)
            except TimeoutError:
                conn.send(P.error_frame(P.HELLO_FIRST, "say hello first", None))
                break
            if message["type"] == "websocket.disconnect" or play.stopped:
                break
            raw: str | bytes = message.get("text") or message.get("bytes") or b""
            try:
                msg = play.parse(raw)
                if msg.type == "hello" and not conn.ready and lobby.find(code) is None:
                    guard.missed(client)
                    raise await _no_room(lobby, code, msg.id)
                play.handle(msg)
            except P.ProtocolError as e:
                if not play.refused(e):
                    break
            play.go_direct()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        play.end_direct()
        if play.room is not None:
            play.room.detach(conn)
        if play.counted is not None:
            sockets.left(code, play.counted[0])
        conn.end()  # after the frames it was sent (a last error), once their change is stored
        try:
            await asyncio.wait_for(sender, 5)
        except (TimeoutError, asyncio.CancelledError):
            sender.cancel()


class _Play:
    """What a connection's messages do: the limits on them, their handling and the answers to bad ones — run
    by the connection's task, or (:meth:`direct`) by the socket's protocol as a message arrives."""

    def __init__(
        self,
        lobby: Lobby,
        code: str,
        conn: Connection,
        lim: Limits,
        sender: asyncio.Task[None],
        proto: PlaySocket | None,
        sockets: SocketCount,
    ) -> None:
        self.lobby, self.code, self.conn, self.sender, self.proto = lobby, code, conn, sender, proto
        self.lim, self.sockets = lim, sockets
        self.counted: tuple[int | None] | None = None
        """The seat (None: a spectator) the connection is counted as at the table, once its hello is."""
        self.rate = TokenBucket(lim.rate, lim.burst)
        self.bad = TokenBucket(lim.bad_rate, lim.bad_burst)
        self.stopped = False
        """The direct way ended the connection: the task stops at its next message."""
        self.room: Room | None = None
        """The table the connection said hello to."""

    def parse(self, raw: str | bytes) -> P.ClientMessage:
        if not self.rate.take():
            raise P.ProtocolError(P.RATE_LIMITED, "too many messages: slow down")
        return P.parse_client(raw)

    def handle(self, msg: P.ClientMessage) -> None:
        self.room = _handle(self.lobby, self.code, self.conn, msg, self.room, self.admit)
        if msg.type == "act":
            self.rate.refund()  # accepted actions are bounded by the game itself

    def admit(self, seat: int | None, ref: str | None) -> None:
        """Count a ``hello`` as ``seat`` (None: a spectator) at the table, or refuse it: the connection is
        closed (:class:`_NoRoom`)."""
        why = self.sockets.refuse_hello(self.code, seat, self.lim)
        if why is not None:
            raise _NoRoom(P.RATE_LIMITED, why, ref)
        self.counted = (seat,)

    def refused(self, e: P.ProtocolError) -> bool:
        """Answer a refused message; False once the connection has sent too many (it is being closed)."""
        conn = self.conn
        state = self.room.state if self.room is not None else None
        conn.send(P.error_frame(e.code, e.message, state, e.ref))
        if isinstance(e, _NoRoom):
            conn.close_code = 1008
            conn.end()
            return False
        if self.bad.take():
            return True
        conn.send(P.error_frame(P.RATE_LIMITED, "too many refused messages: closing", state))
        conn.close_code = 1008
        conn.end()
        return False

    def go_direct(self) -> None:
        """Once ``hello`` is accepted, take the messages straight from the socket (on a :class:`PlaySocket`)."""
        if self.proto is not None and self.conn.ready and self.proto.on_text is None and not self.stopped:
            self.proto.on_text = self.direct
            self.proto.after_text = self.lobby.writer.poll  # the frames of what is stored by now go out now

    def end_direct(self) -> None:
        if self.proto is not None and self.proto.on_text == self.direct:
            self.proto.on_text = self.proto.after_text = None

    def direct(self, text: str) -> None:
        """One message, as it arrives (the same handling as the task's)."""
        conn = self.conn
        try:
            self.handle(self.parse(text))
            go_on = True
        except P.ProtocolError as e:
            go_on = self.refused(e)
        except Exception:  # a bug: logged, and the connection ends as the task's would
            log.exception("handling a message failed")
            go_on = False
        if not go_on or conn.dropped or self.sender.done():
            self.stop()

    def stop(self) -> None:
        """End the connection from the direct way: wake the task (waiting on the queue) to end it."""
        self.stopped = True
        self.end_direct()
        if self.proto is not None:
            self.proto.queue.put_nowait({"type": "websocket.disconnect", "code": 1008})


async def _no_room(lobby: Lobby, code: str, ref: str | None) -> P.ProtocolError:
    """Why a hello names no table in memory: a finished set (served from storage now), or no open table."""
    info = None
    if len(code) <= MAX_CODE_CHARS:
        try:
            info = await lobby.reader.call(None, lobby.writer.store.table_info, code)
        except SQLAlchemyError:
            info = None
    if info is not None and info["status"] == "over":
        return P.ProtocolError(
            P.GAME_OVER, f"the set at table {code} is over: its games are at /api/tables/{code}/games", ref
        )
    return P.ProtocolError(P.NO_TABLE, f"no open table {code[:MAX_CODE_CHARS]!r}", ref)


class _NoRoom(P.ProtocolError):
    """A ``hello`` the table has no room for (:meth:`SocketCount.refuse_hello`): the connection closes."""


def _handle(
    lobby: Lobby,
    code: str,
    conn: Connection,
    msg: P.ClientMessage,
    room: Room | None,
    admit: Callable[[int | None, str | None], None] = lambda seat, ref: None,
) -> Room:
    """Handle one message of a connection to ``room`` (None before its hello); the connection's table.
    ``admit`` counts a hello's connection at the table as its seat or a spectator, or refuses it."""
    if msg.type == "hello":
        if conn.ready:
            raise P.ProtocolError(P.HELLO_FIRST, "hello was already accepted on this connection", msg.id)
        room = lobby.find(code, open_only=True)
        if room is None:
            raise P.ProtocolError(P.NO_TABLE, f"no open table {code!r}", msg.id)
        seat = None
        if msg.token is not None:
            seat = room.seat_of_token(msg.token)
            if seat is None:
                raise P.ProtocolError(P.UNAUTHORIZED, "this token holds no seat at this table", msg.id)
        admit(seat, msg.id)
        room.attach(conn, seat, token_hash(msg.token) if seat is not None and msg.token else None)
        return room
    if room is None:
        raise P.ProtocolError(P.HELLO_FIRST, "say hello first", msg.id)
    if msg.type == "ping":
        conn.send(P.pong_frame(msg.id))
    elif msg.type == "sync":
        conn.send(room.state_frame(conn.seat, full=True))
    elif msg.type == "act":
        room.intent(conn, msg)
    elif msg.type == "auto":
        room.set_auto(conn, msg)
    elif msg.type == "prefs":
        room.set_prefs(conn, msg)
    elif msg.type == "ready":
        room.mark_ready(conn, msg)
    elif msg.type == "say":
        say(room, conn, msg)
    return room
