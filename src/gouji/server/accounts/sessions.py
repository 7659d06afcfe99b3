"""Who a request is: the session cookie, and the throttles of signing in and signing up.

A session is a random token (256 bits) in the cookie ``gouji_session`` — ``HttpOnly`` (no script reads it),
``SameSite=Lax`` (another site's POST does not carry it), ``Path=/``, ``Secure`` when the request came over
HTTPS (through the trusted proxy's ``X-Forwarded-Proto``), ``Max-Age`` 30 days — and the SHA-256 of the token
in the database, so every shard knows it.  A sign-in makes a new token (the old one, if sent, ends).  The
accounts a server saw recently are kept :data:`CACHE_SECONDS` (a sign-out or a disabled account takes that
long on the other shards).

Throttles (:class:`~gouji.server.limits.PerClient`, in memory, per shard): sign-ins per client (the same
client key every limit uses) and per name — whether or not the name is anyone's, so a 429 says nothing of
it — and sign-ups per client."""

from __future__ import annotations

import collections
import time
from typing import Any

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ..errors import RequestError
from ..http.connection import token_hash
from ..limits import PerClient
from ..storage import Store
from .store import SESSION_DAYS, Account, session_account, touch_session

COOKIE = "gouji_session"
CACHE_SECONDS = 30.0
CACHE_SIZE = 10_000

SIGN_IN_RATE, SIGN_IN_BURST = 0.2, 10.0
"""Sign-ins a second per client (one every 5 s, bursts of 10)."""
NAME_RATE, NAME_BURST = 1 / 60, 5.0
"""Sign-ins a second per name: after 5 wrong passwords, one a minute."""
SIGN_UP_RATE, SIGN_UP_BURST = 1 / 300, 3.0
"""Sign-ups a second per client (three, then one every 5 minutes)."""


class Sessions:
    """The sessions a server has seen lately (by token hash), and the throttles."""

    def __init__(self) -> None:
        self._seen: collections.OrderedDict[str, tuple[Account, float]] = collections.OrderedDict()
        self.sign_ins = PerClient(SIGN_IN_RATE, SIGN_IN_BURST)
        self.names = PerClient(NAME_RATE, NAME_BURST)
        self.sign_ups = PerClient(SIGN_UP_RATE, SIGN_UP_BURST)
        self.reports = PerClient(1 / 60, 5.0)
        """Reports of players an account sends: five, then one a minute."""

    def throttle(self, bucket: PerClient, key: object, what: str) -> None:
        if not bucket.take(key):
            raise RequestError(429, f"too many {what}: wait a little", retry_after=bucket.wait(key))

    async def account(self, conn: HTTPConnection, lobby: Any) -> Account | None:
        """The account the request's session cookie is, or None (no cookie, or one that is no session)."""
        raw = conn.cookies.get(COOKIE)
        if not raw or len(raw) > 100:
            return None
        h = token_hash(raw)
        seen = self._seen.get(h)
        if seen is not None and time.monotonic() - seen[1] < CACHE_SECONDS:
            return seen[0]
        store: Store = lobby.writer.store
        found: tuple[Account, bool] | None = await lobby.reader.call(None, session_account, store, h)
        if found is None:
            self._seen.pop(h, None)
            return None
        account, stale = found
        if stale:
            await lobby.writer.call(touch_session, store, h)
        self._seen[h] = (account, time.monotonic())
        self._seen.move_to_end(h)
        while len(self._seen) > CACHE_SIZE:
            self._seen.popitem(last=False)
        return account

    async def require(self, conn: HTTPConnection, lobby: Any) -> Account:
        account = await self.account(conn, lobby)
        if account is None:
            raise RequestError(401, "not signed in (or the session ended): sign in")
        return account

    def forget(self, h: str | None = None, account_id: int | None = None) -> None:
        """Drop a session (or every session of an account) from what this server remembers."""
        if h is not None:
            self._seen.pop(h, None)
        if account_id is not None:
            for k in [k for k, (a, _) in self._seen.items() if a.id == account_id]:
                del self._seen[k]


def session_hash(conn: HTTPConnection) -> str | None:
    raw = conn.cookies.get(COOKIE)
    return token_hash(raw) if raw and len(raw) <= 100 else None


def set_cookie(response: Response, conn: HTTPConnection, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=conn.url.scheme == "https",
    )


def clear_cookie(response: Response, conn: HTTPConnection) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=conn.url.scheme == "https")
