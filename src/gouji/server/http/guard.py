"""The server's door: what every HTTP request and WebSocket upgrade goes through before the app sees it.

- **Security headers** on every HTTP answer (:data:`SECURITY_HEADERS`): a strict Content Security Policy
  (``default-src 'self'``, no framing), no referrer sent elsewhere, no content-type sniffing — the seat and
  organiser tokens live in the browser's storage, so no script but the server's own may run on its pages.
- **Same origin** (:meth:`Guard.cross_site`): a request that changes something (any method but ``GET``,
  ``HEAD``, ``OPTIONS``) and every WebSocket upgrade whose ``Origin`` header names another site is refused
  (403) — a hostile page cannot make its visitors' browsers create tables or take seats.  A request without
  ``Origin`` (not a browser's, or a same-origin ``GET``) is let through: the header is a browser's promise,
  and any other client could send what it likes anyway.  The server's own origin is the one its ``Host``
  header names; behind a proxy that rewrites ``Host``, ``gouji serve --allowed-origin`` names the public one.
- **Who a client is** (:func:`client_id`, :func:`client_of`): an IPv4 address, or an IPv6 address's network
  of ``ipv6_prefix`` bits (a /64 by default: one home connection is given a whole /64, and every address in
  it is its own to use); an IPv4-mapped IPv6 address is its IPv4 address.  Every per-client limit counts
  this client.
- **Code guessing** (:meth:`Guard.missed`): each client (as every per-client limit counts it) may
  miss — ask for a table, match, event, team or record that does not exist (a 404, or a WebSocket ``hello``
  naming no table) — ``miss_burst`` times, then ``miss_rate`` times a second; once it has no miss left,
  every lookup it makes is refused (429, ``Retry-After``) until it has one again, so an answer never tells a
  guess that hit from one that missed.  Play on an open connection is never slowed.
"""

from __future__ import annotations

import collections
import ipaddress
import math
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import orjson
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from ..limits import DEFAULT_IPV6_PREFIX, Limits, PerClient

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The pages' Content Security Policy: everything from the server itself, nothing inline, never framed."""

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
"""Sent with every HTTP answer (``X-Frame-Options`` for browsers older than ``frame-ancestors``)."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

LOOKUP_PREFIXES = ("/api/", "/t/", "/ws/")
"""The paths that look something up by a code or an id (the static files at ``/`` do not)."""

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def origin_of(value: str) -> tuple[str, str, int] | None:
    """An origin (``https://host[:port]``) as (scheme, lower-cased host, port); None if it is not one."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host or parts.path not in ("", "/") or parts.query or parts.username:
        return None
    return scheme, host, port if port is not None else DEFAULT_PORTS[scheme]


def allowed_origins(values: Sequence[str]) -> list[tuple[str, str, int]]:
    """The ``--allowed-origin`` values (``https://gouji.example``; several comma-separated) as origins;
    ValueError naming a value that is not one."""
    out = []
    for value in values:
        for item in (v.strip() for v in value.split(",")):
            origin = origin_of(item)
            if origin is None:
                raise ValueError(f"{item!r} is not an origin (e.g. https://gouji.example or http://host:8000)")
            out.append(origin)
    return out


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            return str(v.decode("latin-1"))
    return None


CLIENT = "gouji.client"
"""The scope's key of the client as the limits count it (set by :meth:`Guard.stamp` as a request comes in)."""


def client_id(address: str, ipv6_prefix: int = DEFAULT_IPV6_PREFIX) -> str:
    """The client an address is, as every per-client limit counts it: an IPv4 address itself; an IPv6
    address its network of ``ipv6_prefix`` bits (``2001:db8:1:2::/64``: one home's addresses are one client),
    or the IPv4 address an IPv4-mapped one carries; anything else (no IP address) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        drop = 128 - ipv6_prefix
        return str(ipaddress.IPv6Network((int(ip) >> drop << drop, ipv6_prefix)))
    return str(ip)


def client_of(scope: Scope) -> str:
    """The client of a request or a WebSocket (:func:`client_id` of its address, which Uvicorn took from a
    trusted proxy's ``X-Forwarded-For``), with the server's ``ipv6_prefix`` (:meth:`Guard.stamp`)."""
    found = scope.get(CLIENT)
    if found is None:  # (a scope that did not come in through the app's door)
        found = scope[CLIENT] = client_id(_address(scope))
    return str(found)


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else ""


class Guard:
    """The checks of :mod:`.guard`, shared by the HTTP wrapper (:meth:`wrap`) and the WebSocket endpoint."""

    def __init__(self, limits: Limits, origins: Sequence[str] = ()) -> None:
        self.origins = allowed_origins(origins)
        self.misses = PerClient(limits.miss_rate, limits.miss_burst)
        self.ipv6_prefix = limits.ipv6_prefix

    def stamp(self, scope: Scope) -> None:
        """Note on ``scope`` who its client is (:func:`client_of` reads it), as the request comes in."""
        scope[CLIENT] = client_id(_address(scope), self.ipv6_prefix)

    # ------------------------------------------------------------------ same origin

    def cross_site(self, scope: Scope) -> str | None:
        """Why a request (or an upgrade) from another site is refused; None if it comes from this one, or
        names no origin."""
        raw = _header(scope, b"origin")
        if raw is None:
            return None
        origin = origin_of(raw)
        if origin is not None and (origin in self.origins or self._same_host(scope, origin)):
            return None
        return f"cross-site request refused: Origin {raw[:100]!r} is not this server's"

    @staticmethod
    def _same_host(scope: Scope, origin: tuple[str, str, int]) -> bool:
        """Whether ``origin`` is the host the request was sent to (its ``Host`` header; without a port, the
        default port of the origin's scheme)."""
        host = (_header(scope, b"host") or "").strip().lower()
        if host.startswith("["):  # an IPv6 address: [::1]:8000
            end = host.find("]")
            name, rest = host[1:end], host[end + 1 :]
            port = rest[1:] if rest.startswith(":") else ""
        elif host.count(":") == 1:
            name, port = host.split(":")
        else:
            name, port = host, ""
        o_scheme, o_host, o_port = origin
        if not name or name != o_host:
            return False
        return int(port) == o_port if port.isdigit() else not port and o_port == DEFAULT_PORTS[o_scheme]

    # ------------------------------------------------------------------ code guessing

    def blocked(self, client: str) -> float:
        """Seconds until ``client`` may look a code up again (0: now)."""
        return self.misses.wait(client)

    def missed(self, client: str) -> None:
        """``client`` asked for something that does not exist."""
        self.misses.take(client)

    # ------------------------------------------------------------------ the HTTP wrapper

    async def http(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
        """Run an HTTP request through the checks, then ``app``; every answer gets the security headers."""

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        method, path = scope["method"], scope["path"]
        if method not in SAFE_METHODS and (why := self.cross_site(scope)) is not None:
            await _refuse(send_secured, 403, why)
            return
        if not path.startswith(LOOKUP_PREFIXES):
            await app(scope, receive, send_secured)
            return
        client = client_of(scope)
        wait = self.blocked(client)
        if wait > 0:
            await _refuse(send_secured, 429, "too many requests for things that do not exist: wait", wait)
            return
        status = 0

        async def send_counted(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send_secured(message)

        await app(scope, receive, send_counted)
        if status == 404:
            self.missed(client)


async def _refuse(send: Send, status: int, message: str, retry_after: float | None = None) -> None:
    body = orjson.dumps({"error": message})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(max(1, math.ceil(retry_after))).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def deny_upgrade(ws: WebSocket, status: int, message: str, retry_after: float | None = None) -> None:
    """Refuse a WebSocket upgrade with an HTTP answer (``status``, the JSON error), where the server can send
    one; else close it before it opens (Uvicorn answers 403)."""
    headers = {"retry-after": str(max(1, math.ceil(retry_after)))} if retry_after is not None else None
    if "websocket.http.response" in ws.scope.get("extensions", {}):
        await ws.send_denial_response(JSONResponse({"error": message}, status, headers=headers))
    else:  # pragma: no cover - Uvicorn's WebSocket protocols have the extension
        await ws.close(1008)


class SocketCount:
    """The WebSocket connections open, counted per client (from the upgrade) and per table (from ``hello``:
    only then is a connection a seat's or a spectator's).  A table's room is shared: each seat may have
    ``ws_per_seat`` connections of its token's, always — the spectators share the rest of ``ws_per_table``, so
    however many watch, the players find room.  Only what is open is kept: the maps are bounded by the
    connections."""

    def __init__(self) -> None:
        self.by_client: collections.Counter[str] = collections.Counter()
        self.by_table: collections.Counter[tuple[str, int | None]] = collections.Counter()
        """(join code, seat) → the connections of that seat's token; (join code, None) → its spectators."""

    def refuse(self, client: str, lim: Limits) -> str | None:
        """Why one more connection from ``client`` is refused at the upgrade (None: it is not)."""
        if self.by_client[client] >= lim.ws_per_client:
            return f"too many connections from your address (at most {lim.ws_per_client} at once)"
        return None

    def opened(self, client: str) -> None:
        self.by_client[client] += 1

    def closed(self, client: str) -> None:
        _less(self.by_client, client)

    def refuse_hello(self, code: str, seat: int | None, lim: Limits) -> str | None:
        """Why a connection's ``hello`` to table ``code`` as ``seat`` (None: a spectator) is refused (None: it
        is not; then it is counted until :meth:`left`)."""
        if seat is not None and self.by_table[code, seat] >= lim.ws_per_seat:
            return f"too many connections of this seat (at most {lim.ws_per_seat} at once): close one"
        if seat is None and self.by_table[code, None] >= lim.spectators_per_table:
            return f"too many spectators at this table (at most {lim.spectators_per_table} at once)"
        self.by_table[code, seat] += 1
        return None

    def left(self, code: str, seat: int | None) -> None:
        """A connection counted by :meth:`refuse_hello` closed."""
        _less(self.by_table, (code, seat))


def _less(counter: collections.Counter[Any], key: Any) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]
