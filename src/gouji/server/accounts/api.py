"""The accounts' HTTP routes (issue 42; ``docs/protocol.md``, *Accounts*).

- ``POST /api/accounts {name, password}`` → 201 ``{name, since}`` and the session cookie (409 a name taken);
- ``POST /api/session {name, password}`` → 200 and a new session cookie; 401 ``wrong name or password`` —
  the same words and, within the noise, the same time whether or not the name is anyone's; 429 throttled;
- ``DELETE /api/session`` (``?everywhere=1``: every session of the account) → 204, the cookie cleared;
- ``GET /api/me`` → ``{name, since, seats}`` (the open seats the account holds on this server) or 401;
- ``POST /api/me/password {password, new_password}`` → 200, the other sessions end;
- ``DELETE /api/me {password}`` → 204: the account is deleted (its games stay; its name is freed later);
- ``POST /api/me/seats {code, token}`` → the seat this browser holds belongs to the account from now on;
- ``POST /api/tables/{code}/reclaim`` → ``{code, seat, token}``: the account's seat at that table on this
  device — a new token (the other device's stops working);
- ``GET /api/players/{name}`` → the profile (:func:`profile`), 404 for a name no account holds.

Nothing of an account reaches a log but its name."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...competition.stats import summary
from ..errors import RequestError
from ..http.connection import token_hash
from ..http.guard import client_of
from ..messages import protocol as P
from ..messages import schemas as S
from ..tables.table import new_token
from .passwords import Passwords
from .sessions import Sessions, clear_cookie, session_hash, set_cookie
from .store import (
    Account,
    add_session,
    blocked_names,
    create_account,
    delete_account,
    end_session,
    end_sessions,
    password_hash,
    profile_row,
    rating_profile,
    set_password,
    signing_in,
)

log = logging.getLogger("gouji.server")

Handler = Callable[[Request], Awaitable[Any]]
RECENT_GAMES = 20


def services(request: Request) -> tuple[Any, Sessions, Passwords]:
    """The lobby, the sessions and the passwords' hasher of the app (made as it starts)."""
    state = request.app.state
    return state.lobby, state.sessions, state.passwords


async def current_account(request: Request) -> Account | None:
    """The account the request is signed in as, or None."""
    lobby, sessions, _ = services(request)
    return await sessions.account(request, lobby)


async def account_name(request: Request) -> str | None:
    """The name of the account the request is signed in as, or None."""
    account = await current_account(request)
    return None if account is None else account.name


async def _signed_in(request: Request, account: Account, status: int) -> Response:
    """Answer with a new session for ``account`` (the request's old session, if any, ends)."""
    lobby, sessions, _ = services(request)
    store = lobby.writer.store
    token = secrets.token_urlsafe(32)  # 256 bits
    await lobby.writer.call(add_session, store, account.id, token_hash(token))
    old = session_hash(request)
    if old is not None:
        await lobby.writer.call(end_session, store, old)
        sessions.forget(old)
    response = JSONResponse({"name": account.name, "since": account.since.isoformat(timespec="seconds")}, status)
    set_cookie(response, request, token)
    return response


async def sign_up(request: Request, data: Any) -> Response:
    lobby, sessions, passwords = services(request)
    req = S.body(S.NewAccount, data)
    name = S.check_name(req.name)
    sessions.throttle(sessions.sign_ups, client_of(request.scope), "accounts created from here")
    hashed = await passwords.hash(req.password)
    account = await lobby.writer.call(create_account, lobby.writer.store, name, S.name_key(name), hashed)
    if account is None:
        raise RequestError(409, f"the name {name!r} is taken: choose another")
    log.info("account %r created", account.name)
    return await _signed_in(request, account, 201)


async def sign_in(request: Request, data: Any) -> Response:
    lobby, sessions, passwords = services(request)
    req = S.body(S.Credentials, data)
    key = S.name_key(req.name)
    sessions.throttle(sessions.sign_ins, client_of(request.scope), "sign-ins from here")
    if sessions.names.wait(key) > 0:  # (a name nobody holds is throttled the same: a 429 tells nothing)
        raise RequestError(429, "too many wrong passwords for this name: wait a little", sessions.names.wait(key))
    found = await lobby.reader.call(None, signing_in, lobby.writer.store, key) if len(key) <= 64 else None
    ok, rehash = await passwords.verify(found[1] if found else None, req.password[:512])
    if not ok or found is None:
        sessions.names.take(key)
        raise RequestError(401, "wrong name or password")
    account = found[0]
    if account.disabled:
        raise RequestError(403, "this account is disabled by the server's operator")
    if rehash:
        await lobby.writer.call(set_password, lobby.writer.store, account.id, await passwords.hash(req.password))
    return await _signed_in(request, account, 200)


async def sign_out(request: Request) -> Response:
    lobby, sessions, _ = services(request)
    h = session_hash(request)
    if h is not None:
        account = await sessions.account(request, lobby)
        everywhere = request.query_params.get("everywhere") in ("1", "true")
        if account is not None and everywhere:
            await lobby.writer.call(end_sessions, lobby.writer.store, account.id)
            sessions.forget(account_id=account.id)
        await lobby.writer.call(end_session, lobby.writer.store, h)
        sessions.forget(h)
    response = Response(status_code=204)
    clear_cookie(response, request)
    return response


async def _check_password(request: Request, account: Account, password: str) -> None:
    lobby, sessions, passwords = services(request)
    key = S.name_key(account.name)
    if sessions.names.wait(key) > 0:
        raise RequestError(429, "too many wrong passwords: wait a little", sessions.names.wait(key))
    stored = await lobby.reader.call(None, password_hash, lobby.writer.store, account.id)
    ok, _ = await passwords.verify(stored, password[:512])
    if not ok or stored is None:
        sessions.names.take(key)
        raise RequestError(401, "wrong password")


async def me(request: Request) -> Any:
    lobby, sessions, _ = services(request)
    account = await sessions.require(request, lobby)
    blocks = await lobby.reader.call(None, blocked_names, lobby.writer.store, account.id)
    return {
        "name": account.name,
        "since": account.since.isoformat(timespec="seconds"),
        "seats": lobby.account_seats(account.name),
        "blocks": blocks,
    }


async def change_password(request: Request, data: Any) -> Any:
    lobby, sessions, passwords = services(request)
    req = S.body(S.PasswordChange, data)  # (a body refused first: 400 whoever asks)
    account = await sessions.require(request, lobby)
    await _check_password(request, account, req.password)
    store = lobby.writer.store
    await lobby.writer.call(set_password, store, account.id, await passwords.hash(req.new_password))
    await lobby.writer.call(end_sessions, store, account.id, session_hash(request))
    sessions.forget(account_id=account.id)
    return {"name": account.name, "changed": True}


async def delete_me(request: Request, data: Any) -> Response:
    lobby, sessions, _ = services(request)
    req = S.body(S.PasswordOnly, data)
    account = await sessions.require(request, lobby)
    await _check_password(request, account, req.password)
    await lobby.writer.call(delete_account, lobby.writer.store, account.id)
    sessions.forget(account_id=account.id)
    log.info("account %r deleted", account.name)
    response = Response(status_code=204)
    clear_cookie(response, request)
    return response


async def claim_seat(request: Request, data: Any) -> Any:
    """``POST /api/me/seats``: a seat this browser holds by its token belongs to the account from now on."""
    lobby, sessions, _ = services(request)
    req = S.body(S.SeatClaim, data)
    account = await sessions.require(request, lobby)
    room = lobby.room(req.code)
    seat = room.seat_of_token(req.token)
    if seat is None:
        raise RequestError(403, "this token holds no seat at this table")
    if room.seats[seat].account != account.name:
        room.commit("account", seat, {"account": account.name})
        await lobby.writer.drain()
    return {"code": room.code, "seat": seat, "account": account.name}


async def reclaim(request: Request, data: Any) -> Any:
    """``POST /api/tables/{code}/reclaim``: the account's seat at this table, on this device: a new token."""
    lobby, sessions, _ = services(request)
    S.body(S.EmptyBody, data)
    account = await sessions.require(request, lobby)
    room = lobby.room(str(request.path_params["code"]))
    held = [s.index for s in room.seats if s.account == account.name]
    if not held:
        raise RequestError(404, f"{account.name!r} holds no seat at table {room.code}")
    seat = held[0]
    token = new_token()
    room.commit("token", seat, {"token_hash": token_hash(token)})
    for conn in [c for c in room.conns if c.seat == seat]:  # the other device's connection: its token is gone
        conn.send(P.closed_frame(room.code, "taken on another device"))
        conn.end()
        room.detach(conn)
    await lobby.writer.drain()
    return {"code": room.code, "seat": seat, "token": token}


async def profile(request: Request) -> Any:
    """``GET /api/players/{name}``: an account's profile — its name, since when, its rating, title and the
    rating's history (:func:`.store.rating_profile`), its statistics by preset and in total
    (:func:`gouji.competition.stats.summary`), its recent games (links to their records)."""
    lobby = request.app.state.lobby
    name = str(request.path_params["name"])
    key = S.name_key(name)
    client = client_of(request.scope)
    found = await lobby.reader.call(client, profile_row, lobby.writer.store, key) if len(key) <= 64 else None
    if found is None:
        raise RequestError(404, f"no account {name!r}")
    account, by_preset = found
    games = await lobby.reader.call(None, lobby.writer.store.player_games, account.name, 200)
    mine = [g for g in games if any(p.get("account") == account.name for p in g.get("players", []))]
    total: dict[str, int] = {}
    for counters in by_preset.values():
        for k, v in counters.items():
            total[k] = total.get(k, 0) + int(v)
    rating = await lobby.reader.call(None, rating_profile, lobby.writer.store, account.id)
    return {
        "name": account.name,
        "since": account.since.isoformat(timespec="seconds"),
        **rating,
        "stats": {"total": summary(total), "presets": {p: summary(c) for p, c in sorted(by_preset.items())}},
        "recent": mine[:RECENT_GAMES],
    }


def account_routes(
    wrap: Callable[[Handler], Callable[[Request], Awaitable[Response]]], read_body: Handler
) -> list[BaseRoute]:
    """The routes of accounts, each wrapped by the app's JSON error handling, reading bodies with the app's
    reader (its size limit)."""

    def with_body(fn: Callable[[Request, Any], Awaitable[Any]]) -> Handler:
        async def endpoint(request: Request) -> Any:
            return await fn(request, await read_body(request))

        return endpoint

    return [
        Route("/api/accounts", wrap(with_body(sign_up)), methods=["POST"]),
        Route("/api/session", wrap(with_body(sign_in)), methods=["POST"]),
        Route("/api/session", wrap(sign_out), methods=["DELETE"]),
        Route("/api/me", wrap(me), methods=["GET"]),
        Route("/api/me", wrap(with_body(delete_me)), methods=["DELETE"]),
        Route("/api/me/password", wrap(with_body(change_password)), methods=["POST"]),
        Route("/api/me/seats", wrap(with_body(claim_seat)), methods=["POST"]),
        Route("/api/tables/{code}/reclaim", wrap(with_body(reclaim)), methods=["POST"]),
        Route("/api/players/{name}", wrap(profile), methods=["GET"]),
    ]
