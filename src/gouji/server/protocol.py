"""The WebSocket message schema (version 1), shared by the server and its clients.

Every frame is one JSON object with ``type`` and ``v`` (the protocol version).  ``docs/protocol.md`` is the
reference for people; this module is the one for code: :func:`parse_client` validates what a client sends,
the ``*_frame`` functions build what the server sends.

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

import orjson

VERSION = 1
"""The protocol version; a ``hello`` with another version is refused."""

MAX_MESSAGE_BYTES = 2048
"""The largest client message the server reads; longer ones are refused unread."""
MAX_ACTION_CHARS = 64
"""The longest action text (the longest legal play of four decks is well under this)."""
MAX_TOKEN_CHARS = 128
MAX_ID_CHARS = 64
MAX_COUNTER = 2**53 - 1
"""The largest state or decision number a client may send (what a JavaScript number holds exactly)."""

CLIENT_TYPES = ("hello", "act", "auto", "ready", "sync", "ping", "prefs", "say")
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


def _str_field(msg: dict[str, Any], key: str, limit: int, ref: str | None, required: bool) -> str | None:
    value = msg.get(key)
    if value is None:
        if required:
            raise ProtocolError(BAD_MESSAGE, f"{msg['type']!r} needs a {key!r} string", ref)
        return None
    if not isinstance(value, str) or not value or len(value) > limit:
        raise ProtocolError(BAD_MESSAGE, f"{key!r} must be a string of 1-{limit} characters", ref)
    return value


def _counter(msg: dict[str, Any], key: str, ref: str | None) -> int | None:
    """An optional non-negative integer field (a state or decision number), bounded."""
    value = msg.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COUNTER:
        raise ProtocolError(BAD_MESSAGE, f"{key!r} must be an integer from 0 to {MAX_COUNTER}", ref)
    return value


def parse_client(text: str | bytes) -> ClientMessage:
    """Validate one client frame; raises :class:`ProtocolError` saying what is wrong."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError(TOO_LARGE, f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        msg = orjson.loads(text)
    except (orjson.JSONDecodeError, ValueError, RecursionError):
        raise ProtocolError(BAD_JSON, "a message is one JSON object") from None
    if not isinstance(msg, dict):
        raise ProtocolError(BAD_JSON, "a message is one JSON object")
    raw_id = msg.get("id")
    ref = raw_id if isinstance(raw_id, str) and len(raw_id) <= MAX_ID_CHARS else None
    if raw_id is not None and ref is None:
        raise ProtocolError(BAD_MESSAGE, f"'id' must be a string of at most {MAX_ID_CHARS} characters")
    kind = msg.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(BAD_MESSAGE, f"'type' must be one of {', '.join(CLIENT_TYPES)}", ref)
    if kind == "hello":
        v = msg.get("v")
        if not isinstance(v, int) or isinstance(v, bool):
            raise ProtocolError(BAD_MESSAGE, "'hello' needs the protocol version 'v' (an integer)", ref)
        if v != VERSION:
            raise ProtocolError(VERSION_MISMATCH, f"this server speaks protocol version {VERSION}, not {v}", ref)
        token = _str_field(msg, "token", MAX_TOKEN_CHARS, ref, required=False)
        return ClientMessage("hello", id=ref, token=token, version=v)
    if kind == "act":
        action = _str_field(msg, "action", MAX_ACTION_CHARS, ref, required=True)
        token = _str_field(msg, "token", MAX_TOKEN_CHARS, ref, required=True)
        decision = _counter(msg, "decision", ref)
        state = _counter(msg, "state", ref)
        if decision is None and state is None:
            raise ProtocolError(BAD_MESSAGE, "'act' needs the decision it answers ('decision': turn.decision)", ref)
        return ClientMessage("act", id=ref, token=token, action=action, state=state, decision=decision)
    if kind in ("auto", "prefs"):  # a switch: 托管 on or off; be asked even with one answer or not
        key = "on" if kind == "auto" else "ask_single"
        on = msg.get(key)
        if not isinstance(on, bool):
            raise ProtocolError(BAD_MESSAGE, f"{kind!r} needs {key!r}: true or false", ref)
        token = _str_field(msg, "token", MAX_TOKEN_CHARS, ref, required=True)
        return ClientMessage(kind, id=ref, token=token, on=on)
    if kind == "ready":
        token = _str_field(msg, "token", MAX_TOKEN_CHARS, ref, required=True)
        return ClientMessage("ready", id=ref, token=token)
    if kind == "say":  # a quick phrase (server/phrases.py): its id in `action`
        phrase = _str_field(msg, "phrase", 32, ref, required=True)
        token = _str_field(msg, "token", MAX_TOKEN_CHARS, ref, required=True)
        return ClientMessage("say", id=ref, token=token, action=phrase)
    return ClientMessage(kind, id=ref)


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
