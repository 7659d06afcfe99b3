"""The WebSocket protocol ``gouji serve`` runs: Uvicorn's sans-I/O protocol with a direct way in for play.

Through ASGI, each message a client sends goes into the connection's queue; Uvicorn stops reading the
socket until the app's task takes it (two changes to the event loop's watch of the socket), and the task is
woken, on the loop's next turn, through two layers of coroutines.  A move is one such message, and a busy
server handles thousands a second.  :class:`PlaySocket` hands a text message to the handler the app sets
(:attr:`PlaySocket.on_text`, once a connection's ``hello`` is accepted) as it arrives, when nothing waits in
the queue before it; everything else — the messages before ``hello``, a binary message, the end of the
connection — goes through ASGI as before.  The handler is the same code the app's task runs for a message
(``app._websocket``), so both ways give the same answers; the in-process tests take the ASGI way, the tests
of a server process this one.

**Framing.**  The websockets library's parser (a generator a frame, and a frame object) was a twentieth of
a busy server's event loop, for one small message a move.  So :class:`PlaySocket` cuts the bytes that
arrive into frames itself (RFC 6455 5.2: only the lengths in the frames' heads are read), and takes the
common one itself: a whole (FIN) text frame from the client (masked, no extension bits), of at most the
server's largest message, arriving while :attr:`on_text` takes messages — unmasked and decoded as the
library would.  Every other frame (a ping, a close, a fragment, a binary or an unmasked frame, invalid
UTF-8) is handed to the library whole, so its parser always stops between two frames and answers each as it
always did; a frame's head announcing more than the largest message hands it everything from there on (it
fails the connection: 1009).  A frame cut across two reads waits here (at most the largest message) for its
end.  The first bytes the protocol gets are the handshake request, whole (Uvicorn passes it on when it
upgrades the connection); the framing starts after them, where the library's parser stands at the start of
a frame.

It relies on the protocol's attributes (``frames``, ``curr_msg_data_type``, ``close_sent``, ``queue``,
``conn``) as Uvicorn's releases before 1.0 have them; the app's direct writes rely on others
(:mod:`.fast_send`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

try:  # the library's own C function where its wheel has it (as its parser does)
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - a build without the C extension
    from websockets.utils import apply_mask

log = logging.getLogger("gouji.server")

_TEXT_FIN = 0x81
"""The first byte of a whole text frame with no extension bits."""


class PlaySocket(WebSocketsSansIOProtocol):
    """Uvicorn's sans-I/O WebSocket protocol; text messages go straight to :attr:`on_text` once it is set."""

    on_text: Callable[[str], None] | None = None
    """Takes a text message as it arrives (the app sets it once the connection said hello); None: ASGI."""
    after_text: Callable[[], None] | None = None
    """Called once the bytes that arrived are handled, when :attr:`on_text` took a message of them (the app
    takes the database writer's acknowledgements there: :meth:`~gouji.server.storage.durability.StoreWriter.poll`)."""

    _framing: bool | None = None
    """Whether this side cuts the bytes into frames (from the bytes after the handshake request on); None
    before the request; False once the library takes every byte (after a frame over the largest message, or
    if the request came with more bytes after it)."""
    _rest: bytearray | None = None
    """The start of a frame whose end has not arrived (at most the largest message and a frame's head)."""
    _took = False
    """Whether :attr:`on_text` took a message of the bytes being handled."""

    def data_received(self, data: bytes) -> None:
        try:
            self._cut(data)
        finally:
            if self._took:
                self._took = False
                if self.after_text is not None:
                    self.after_text()

    def _cut(self, data: bytes) -> None:
        """Cut the bytes into frames: the whole text frames to :meth:`_take`, the rest to the library."""
        if not self._framing:
            super().data_received(data)
            if self._framing is None:  # the handshake request, whole: the parser now waits for a frame's start
                self._framing = not self.conn.reader.buffer and not self.conn.events and not self.conn.parser_exc
            return
        rest = self._rest
        buf: bytes | bytearray = data
        if rest:
            rest += data  # (a frame trickling in a byte at a time is not copied again and again)
            buf = rest
        limit = self.config.ws_max_size
        at, end = 0, len(buf)
        while end - at >= 2:
            b1 = buf[at + 1]
            n = b1 & 0x7F
            head = at + 2
            if n == 126:
                if end - at < 4:
                    break
                n, head = int.from_bytes(buf[at + 2 : at + 4], "big"), at + 4
            elif n == 127:
                if end - at < 10:
                    break
                n, head = int.from_bytes(buf[at + 2 : at + 10], "big"), at + 10
            if limit is not None and n > limit:  # the library refuses it (1009): it gets all from here on
                self._framing, self._rest = False, None
                super().data_received(bytes(buf[at:]))
                return
            masked = b1 & 0x80
            stop = head + (4 if masked else 0) + n
            if stop > end:
                break
            if not (buf[at] == _TEXT_FIN and masked and self._take(buf[head : head + 4], buf[head + 4 : stop])):
                super().data_received(bytes(buf[at:stop]))  # a whole frame: the library's parser ends between two
            at = stop
        if buf is rest:
            del rest[:at]
        elif at < end:
            self._rest = bytearray(buf[at:])

    def _take(self, mask: bytes | bytearray, payload: bytes | bytearray) -> bool:
        """Hand a whole text message to :attr:`on_text` if it takes messages now; False: the library's."""
        handler = self.on_text
        if (
            handler is None
            or self.frames
            or self.close_sent
            or not self.queue.empty()
            or self.conn.state is not State.OPEN
        ):
            return False
        try:
            text = apply_mask(payload, mask).decode()
        except UnicodeDecodeError:  # the library parses it and fails the connection (1007: _not_utf8)
            return False
        self._took = True
        handler(text)
        return True

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type != "text" or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        try:
            text = data.decode()
        except UnicodeDecodeError:
            self.frames = []
            self._not_utf8()
            return
        handler = self.on_text
        if handler is None or not self.queue.empty():
            super().send_receive_event_to_app()  # (it decodes the text again: before hello, or behind the queue)
            return
        self.frames = []
        self._took = True
        handler(text)

    def _not_utf8(self) -> None:
        """A text message that is not UTF-8: the connection is failed with 1007 (RFC 6455 8.1), as Uvicorn
        fails it — but said in one line, where Uvicorn logs an error with the traceback of the decoding: any
        client could fill the server's log with them, one a connection."""
        log.info("%s sent a text message that is not UTF-8: connection closed (1007)", _peer(self.client))
        if self.conn.state is State.OPEN:
            self.conn.send_close(1007)
            self.handle_parser_exception()


def _peer(client: tuple[str, int] | None) -> str:
    return "a client" if client is None else f"{client[0]}:{client[1]}"
