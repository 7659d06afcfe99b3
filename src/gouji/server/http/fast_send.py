"""The transport's fast path: a connection's frames written straight to Uvicorn's transport.

Through ASGI, each frame the server writes passes two layers of coroutines and a frame object of the
websockets library; a move writes six.  On Uvicorn's sans-I/O WebSocket protocol (the one ``gouji serve``
runs, :class:`.play_socket.PlaySocket`) :func:`text_sender` writes the same bytes — an unmasked,
unfragmented, uncompressed text frame (:func:`ws_text_frame`) — at once, while the connection is open and
its socket takes data; else the frame goes through ASGI's ``send``.

It reads the protocol's attributes :data:`PROTOCOL_ATTRIBUTES`, which are Uvicorn's own and not an API: a
protocol without them (another server, another release) gets the ASGI way — and a Uvicorn protocol without
them is logged, once (``tests/server/test_play_socket.py`` fails when a served connection does not take the fast path).
"""

from __future__ import annotations

import logging
import struct
from typing import Any

from starlette.types import Send
from websockets.protocol import State

from .connection import SendText, WriteNow

log = logging.getLogger("gouji.server")

PROTOCOL_ATTRIBUTES = ("transport", "writable", "conn", "close_sent", "disconnected")
"""What the fast path reads of Uvicorn's WebSocket protocol (``WebSocketsSansIOProtocol``)."""

_warned: set[str] = set()


def missing_attributes(proto: Any) -> list[str]:
    """Which of :data:`PROTOCOL_ATTRIBUTES` the protocol behind an ASGI ``send`` lacks (all: no protocol)."""
    if proto is None:
        return list(PROTOCOL_ATTRIBUTES)
    return [a for a in PROTOCOL_ATTRIBUTES if not hasattr(proto, a)]


def text_sender(send: Send) -> tuple[SendText, WriteNow | None]:
    """How a connection writes a text frame: through the ASGI ``send``; and, on Uvicorn's sans-I/O WebSocket
    protocol, a function that writes it straight to the transport (else None)."""

    async def via_asgi(text: str) -> None:
        await send({"type": "websocket.send", "text": text})

    proto: Any = getattr(send, "__self__", None)
    missing = missing_attributes(proto)
    if missing:
        kind = type(proto).__name__
        uvicorn = any(c.__module__.startswith("uvicorn.") for c in type(proto).__mro__)
        if uvicorn and kind not in _warned:  # (not Uvicorn's: an in-process test's transport)
            _warned.add(kind)
            log.warning("%s lacks %s: frames go through ASGI (slower)", kind, ", ".join(missing))
        return via_asgi, None
    if getattr(proto.conn, "extensions", None):  # per-message deflate (not the server's setting): ASGI's way
        return via_asgi, None

    async def send_text(text: str) -> None:
        if not write_now(text):
            await via_asgi(text)

    def write_now(text: str) -> bool:
        if (
            proto.writable.is_set()
            and not proto.close_sent
            and not proto.disconnected
            and proto.conn.state is State.OPEN
            and not proto.transport.is_closing()
        ):
            proto.transport.write(ws_text_frame(text))
            return True
        return False

    return send_text, write_now


_HEAD_7 = struct.Struct(">BB").pack
_HEAD_16 = struct.Struct(">BBH").pack
_HEAD_64 = struct.Struct(">BBQ").pack


def ws_text_frame(text: str) -> bytes:
    """A server's WebSocket text frame (RFC 6455 5.2: FIN, opcode 1, no mask) carrying ``text``."""
    data = text.encode("utf-8")
    n = len(data)
    if n < 126:
        return _HEAD_7(0x81, n) + data
    if n < 65536:
        return _HEAD_16(0x81, 126, n) + data
    return _HEAD_64(0x81, 127, n) + data
