"""Limits: what a connection, a client and a seat may do how fast (:class:`Limits`, :class:`TokenBucket`,
:class:`PerClient`), and the bounds of what a request may carry."""

from __future__ import annotations

import collections
import math
import time
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.requests import Request

from ..engine.seats import SEATS
from .errors import RequestError, SettingError

MAX_BODY_BYTES = 16 * 1024
"""The largest HTTP request body read; counted while it streams in, so a larger one is refused unread."""
MAX_CODE_CHARS = 16
"""A join code in a path longer than this names no table (the codes are 6 characters)."""
MAX_RECORD_ID = 2**31 - 1
"""Record ids are 32-bit integers in the database: a larger one in a path names no record."""
MAX_PATH_NICKNAME = 64
MAX_JSON_DEPTH = 8
"""The deepest a request body's JSON may nest (the deepest request, a match's ``bots``, nests 3 levels)."""


WHOLE_LIMITS = (
    "queue",
    "waiting_per_client",
    "tables_per_client",
    "tables_per_event",
    "events_per_client",
    "ws_per_client",
    "ws_per_table",
    "ws_per_seat",
    "ipv6_prefix",
)
"""The limits that are counts (integers); the others are rates, bursts and times."""

DEFAULT_IPV6_PREFIX = 64
"""The bits of an IPv6 address that name its client: a home connection is given a /64 (or more)."""


@dataclass(frozen=True)
class Limits:
    """The server's limits.

    Per WebSocket connection: ``rate``/``burst``, a token bucket of messages per second;
    ``bad_rate``/``bad_burst``, a second bucket of refused messages — a connection that empties it is closed
    (code 1008).  ``queue`` frames may wait to be sent before a connection that does not read is dropped.
    ``hello_seconds``: time to say hello.

    Who a client is: an IPv4 address, or an IPv6 address's first ``ipv6_prefix`` bits (a /64: one home's
    addresses are one client; :func:`.guard.client_id`).

    Per client: ``create_rate``/``create_burst``, creations (tables, matches, events, an
    event's matches) per second; ``waiting_per_client``, tables it created (by any door: its tables, its
    matches' and the matches it started in an event) that may wait for players at once, and
    ``tables_per_client`` that may be open (waiting or in play); ``seat_rate``/``seat_burst``,
    HTTP joins and leaves per second (and the same per seat of a table).  Per seat: ``auto_rate``/
    ``auto_burst``, 托管 switches per second.

    Per client, too: ``read_rate``/``read_burst``, reads of storage (game lists, records, replays) per
    second (:mod:`.reads`); ``miss_rate``/``miss_burst``, lookups of things that do not exist (a table's, match's,
    event's or team's code, a record's id) per second — past them every lookup is refused for a while
    (:mod:`.guard`); ``ws_per_client``, WebSocket connections open at once.

    Per table: ``ws_per_table``, WebSocket connections open at once, of which each seat's token may always
    have ``ws_per_seat``: spectators share the rest (:attr:`spectators_per_table`).

    Per event: ``tables_per_event``, tables of its matches open at once; per client, ``events_per_client`` events
    open at once (an event none of whose matches started closes after ``waiting_seconds``).

    Per table: a table (or a match) waiting for players is closed after ``waiting_seconds`` without a change; a finished
    table stays in memory ``over_seconds`` for the clients watching it, then is served from storage only.
    """

    rate: float = 20.0
    burst: float = 40.0
    bad_rate: float = 1.0
    bad_burst: float = 20.0
    queue: int = 512
    hello_seconds: float = 10.0
    create_rate: float = 0.2
    create_burst: float = 10.0
    waiting_per_client: int = 10
    tables_per_client: int = 20
    tables_per_event: int = 16
    events_per_client: int = 5
    read_rate: float = 2.0
    read_burst: float = 20.0
    miss_rate: float = 1.0
    miss_burst: float = 30.0
    ws_per_client: int = 32
    ws_per_table: int = 64
    ws_per_seat: int = 4
    seat_rate: float = 0.5
    seat_burst: float = 10.0
    auto_rate: float = 0.5
    auto_burst: float = 4.0
    waiting_seconds: float = 900.0
    over_seconds: float = 60.0
    ipv6_prefix: int = DEFAULT_IPV6_PREFIX

    def __post_init__(self) -> None:
        """Refuse limits that would break the server (a rate of NaN or below 0 lets nothing through, or
        everything; a burst below 1 refuses every message): a :class:`~.errors.SettingError` naming the field."""
        for name, value in vars(self).items():
            whole = name in WHOLE_LIMITS
            if isinstance(value, bool) or not isinstance(value, int if whole else int | float):
                raise SettingError(name, f"must be {'an integer' if whole else 'a number'}, not {value!r}")
            if name == "over_seconds":
                ok, need = value >= 0, "of at least 0"
            elif name == "ipv6_prefix":
                ok, need = 1 <= value <= 128, "from 1 to 128"
            elif whole or name.endswith("burst"):
                ok, need = value >= 1, "of at least 1"
            else:
                ok, need = value > 0, "above 0"
            if not (ok and math.isfinite(value)):
                raise SettingError(
                    name, f"must be {'an integer' if whole else 'a finite number'} {need}, not {value!r}"
                )
        if self.spectators_per_table < 1:
            seats = SEATS * self.ws_per_seat
            raise SettingError(
                "ws_per_table",
                f"must be above {seats} (the seats' room: {SEATS} × ws_per_seat), not {self.ws_per_table!r}",
            )

    @property
    def spectators_per_table(self) -> int:
        """The spectators' share of a table's connections: what the seats' room leaves of ``ws_per_table``."""
        return self.ws_per_table - SEATS * self.ws_per_seat


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; :meth:`take` spends one if there is one."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def refund(self) -> None:
        """Give back the token of a message that turned out to be no burden."""
        self.tokens = min(self.burst, self.tokens + 1)


class PerClient:
    """A token bucket per key (a client's address, a seat), the ``size`` most recently used kept."""

    def __init__(self, rate: float, burst: float, size: int = 10_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self._buckets: collections.OrderedDict[object, TokenBucket] = collections.OrderedDict()

    def take(self, key: object) -> bool:
        """Spend one of ``key``'s tokens if it has one."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst)
            if len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.take()

    def wait(self, key: object) -> float:
        """Seconds until ``key`` has a token (0: it has one now); asks without spending or keeping anything."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return 0.0
        tokens = min(self.burst, bucket.tokens + (time.monotonic() - bucket.at) * self.rate)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def forget(self, key: object) -> None:
        """Drop ``key``'s bucket (what it named is gone)."""
        self._buckets.pop(key, None)


async def read_capped(request: Request, limit: int) -> bytes | None:
    """A request's body, read while it streams in; None (and the rest left unread) past ``limit`` bytes or
    when the declared length is larger."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limit):
        return None
    chunks = bytearray()
    async for chunk in request.stream():
        chunks += chunk
        if len(chunks) > limit:
            return None
    return bytes(chunks)


async def read_json(request: Request, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """A request's JSON body, an object ({} when the body is empty), read as it streams in (:func:`read_capped`);
    :class:`~.errors.RequestError` for a body past ``limit`` bytes (413), one not sent as
    ``application/json`` (415: a content type, or a body, of any other type), one that is not JSON, nests deeper
    than :data:`MAX_JSON_DEPTH` or is not an object (400).  The one reader of every JSON body the server
    takes."""
    raw = await read_capped(request, limit)
    if raw is None:
        raise RequestError(413, f"a request body is at most {limit} bytes")
    kind = request.headers.get("content-type")
    if (raw or kind is not None) and (kind or "").split(";")[0].strip().lower() != "application/json":
        # (a browser sends a form's or text/plain body to another site without asking it first)
        raise RequestError(415, "a request body is JSON, sent with Content-Type: application/json")
    if not raw:
        return {}
    try:
        data = orjson.loads(raw)  # (in C, without recursion limits of Python's; it stops at 1,024 levels)
    except orjson.JSONDecodeError:
        raise RequestError(400, "the request body is not JSON") from None
    if json_depth(data) > MAX_JSON_DEPTH:
        raise RequestError(400, f"the request body nests deeper than {MAX_JSON_DEPTH} levels")
    if not isinstance(data, dict):
        raise RequestError(400, "the request body is a JSON object")
    return data


def json_depth(value: Any) -> int:
    """How deep a parsed JSON value nests (a scalar 0, ``[]`` 1, ``[[1]]`` 2), without recursion."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        v, depth = todo.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_JSON_DEPTH:
                return deepest
            todo.extend((x, depth + 1) for x in v)
    return deepest
