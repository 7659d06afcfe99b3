"""The WebSocket message schema (version 1), shared by the server and its clients.

Every frame is one JSON object with ``type`` and ``v`` (the protocol version).  ``docs/protocol.md`` is the
reference for people; this module is the one for code: :func:`parse_client` validates what a client sends
against its schema (:mod:`.schemas`), the ``*_frame`` functions build what the server sends.

Client → server: ``hello`` (first, with the seat token or none to watch), ``act`` (an action's text form,
the state number it was chosen at, and the token), ``auto`` (托管 on or off), ``ready`` (ready for the next
deal of the set), ``sync`` (send the full view again), ``ping``, ``prefs`` (``ask_single``: be asked even
for decisions with one legal answer).

Server → client: ``welcome`` (who you are at the table), ``state`` (your view after a change, numbered),
``error`` (why a message was refused; nothing changed), ``pong``, ``closed`` (the table was closed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import msgspec
import orjson

from . import schemas as S
from .schema_refusals import refusal

VERSION = S.VERSION
"""The protocol version; a ``hello`` with another version is refused."""
MAX_MESSAGE_BYTES = S.MAX_MESSAGE_BYTES
"""The largest client message the server reads; longer ones are refused unread."""
MAX_ACTION_CHARS = S.MAX_ACTION_CHARS
MAX_TOKEN_CHARS = S.MAX_TOKEN_CHARS
MAX_ID_CHARS = S.MAX_ID_CHARS
MAX_COUNTER = S.MAX_COUNTER
"""The largest state or decision number a client may send (what a JavaScript number holds exactly)."""

CLIENT_TYPES = S.CLIENT_TYPES
SERVER_TYPES = ("welcome", "state", "error", "pong", "closed", "said", "presence")

# Error codes (``error.code``): what went wrong, for a program; ``error.message`` says it for a person.
TOO_LARGE = "too_large"  # the message is longer than MAX_MESSAGE_BYTES
RATE_LIMITED = "rate_limited"  # too many messages too fast
BAD_JSON = "bad_json"  # not a JSON object
BAD_MESSAGE = "bad_message"  # unknown type, a missing or mistyped field
VERSION_MISMATCH = "version"  # hello with an unsupported protocol version
HELLO_FIRST = "hello_first"  # a message other than hello before hello, or a second hello
NO_TABLE = "no_table"  # the table does not exist (or is closed)
UNAUTHORIZED = "unauthorized"  # the token is not this table's token of this connection's seat
SPECTATOR = "spectator"  # a spectator cannot act
NOT_STARTED = "not_started"  # the table waits for players
GAME_OVER = "game_over"  # the set is over
STALE = "stale"  # the state number is not the current one
NOT_YOUR_TURN = "not_your_turn"  # another seat is to act
NOT_READY = "not_ready"  # between two deals: waiting for the players to be ready for the next deal
ILLEGAL = "illegal"  # the engine refused the action (the message says why)

ERROR_CODES = (
    TOO_LARGE,
    RATE_LIMITED,
    BAD_JSON,
    BAD_MESSAGE,
    VERSION_MISMATCH,
    HELLO_FIRST,
    NO_TABLE,
    UNAUTHORIZED,
    SPECTATOR,
    NOT_STARTED,
    GAME_OVER,
    STALE,
    NOT_YOUR_TURN,
    NOT_READY,
    ILLEGAL,
)


class ProtocolError(ValueError):
    """A client message that cannot be accepted: ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


class ClientMessage(NamedTuple):
    """A validated client message; fields not used by its type are None.  (A named tuple: one is made for
    every message a client sends, and a frozen dataclass sets each field through ``object.__setattr__``.)"""

    type: str
    id: str | None = None
    token: str | None = None
    version: int | None = None
    action: str | None = None
    state: int | None = None
    decision: int | None = None
    on: bool | None = None


def parse_client(text: str | bytes) -> ClientMessage:
    """Validate one client frame against its schema (:data:`.schemas.CLIENT_MESSAGES`, decoded and validated
    by msgspec in one pass); raises :class:`ProtocolError` saying what is wrong."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError(TOO_LARGE, f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        m = S.CLIENT_DECODER.decode(text)
    except msgspec.ValidationError as e:
        raise _refused(text, e) from None
    except (msgspec.DecodeError, UnicodeError):
        raise ProtocolError(BAD_JSON, "a message is one JSON object") from None
    kind = type(m)
    if kind is S.Act:
        assert isinstance(m, S.Act)
        if m.decision is None and m.state is None:
            raise ProtocolError(BAD_MESSAGE, "'act' needs the decision it answers ('decision': turn.decision)", m.id)
        return ClientMessage("act", m.id, m.token, None, m.action, m.state, m.decision)
    if kind is S.Ready:
        assert isinstance(m, S.Ready)
        return ClientMessage("ready", m.id, m.token)
    if kind is S.Auto:
        assert isinstance(m, S.Auto)
        return ClientMessage("auto", m.id, m.token, on=m.on)
    if kind is S.Prefs:  # be asked even with one answer or not
        assert isinstance(m, S.Prefs)
        return ClientMessage("prefs", m.id, m.token, on=m.ask_single)
    if kind is S.Say:  # a quick phrase (server/tables/phrases.py): its id in `action`
        assert isinstance(m, S.Say)
        return ClientMessage("say", m.id, m.token, action=m.phrase)
    if kind is S.Hello:
        assert isinstance(m, S.Hello)
        if m.v != VERSION:
            raise ProtocolError(VERSION_MISMATCH, f"this server speaks protocol version {VERSION}, not {m.v}", m.id)
        return ClientMessage("hello", m.id, m.token, version=m.v)
    return ClientMessage(str(kind.__struct_config__.tag), m.id)


def _refused(text: str | bytes, e: msgspec.ValidationError) -> ProtocolError:
    """Why a frame that is JSON is no client message: the field and what it may be (and the message's ``id``
    echoed when it has a valid one)."""
    try:
        msg = orjson.loads(text)
    except orjson.JSONDecodeError:
        msg = None
    if not isinstance(msg, dict):
        return ProtocolError(BAD_JSON, "a message is one JSON object")
    raw_id = msg.get("id")
    ref = raw_id if isinstance(raw_id, str) and len(raw_id) <= MAX_ID_CHARS else None
    kind = msg.get("type")
    schema = next((c for c in S.CLIENT_MESSAGES if c.__struct_config__.tag == kind), None)
    if schema is None:
        return ProtocolError(BAD_MESSAGE, f"type must be one of {', '.join(CLIENT_TYPES)}", ref)
    return ProtocolError(BAD_MESSAGE, refusal(e, msg, schema), ref)


def dumps(frame: dict[str, Any]) -> str:
    """A frame as compact JSON text (UTF-8, not ASCII-escaped)."""
    return orjson.dumps(frame).decode("utf-8")


def error_frame(code: str, message: str, state: int | None, ref: str | None = None) -> dict[str, Any]:
    """``error``: why a message was refused; ``state`` is the table's current state number."""
    frame: dict[str, Any] = {"type": "error", "v": VERSION, "code": code, "message": message, "state": state}
    if ref is not None:
        frame["id"] = ref
    return frame


def welcome_frame(table: str, seat: int | None, nickname: str | None) -> dict[str, Any]:
    """``welcome``: the connection's seat (None for a spectator) at the table."""
    return {
        "type": "welcome",
        "v": VERSION,
        "table": table,
        "role": "spectator" if seat is None else "player",
        "seat": seat,
        "nickname": nickname,
    }


def presence_frame(offline: Iterable[int]) -> dict[str, Any]:
    """``presence``: the people's seats with no connection at the table now (断线), sent when they change."""
    return {"type": "presence", "v": VERSION, "offline": list(offline)}


def pong_frame(ref: str | None) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "pong", "v": VERSION}
    if ref is not None:
        frame["id"] = ref
    return frame


def closed_frame(table: str, reason: str) -> dict[str, Any]:
    """``closed``: the table was closed; the server closes the connection after it."""
    return {"type": "closed", "v": VERSION, "table": table, "reason": reason}
