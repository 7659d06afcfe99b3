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

It relies on the protocol's attributes (``frames``, ``curr_msg_data_type``, ``close_sent``, ``queue``) as
Uvicorn's releases before 1.0 have them; the app's direct writes rely on others (``app._text_sender``).
"""

from __future__ import annotations

from collections.abc import Callable

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class PlaySocket(WebSocketsSansIOProtocol):
    """Uvicorn's sans-I/O WebSocket protocol; text messages go straight to :attr:`on_text` once it is set."""

    on_text: Callable[[str], None] | None = None
    """Takes a text message as it arrives (the app sets it once the connection said hello); None: ASGI."""

    def send_receive_event_to_app(self) -> None:
        handler = self.on_text
        if handler is None or self.curr_msg_data_type != "text" or self.close_sent or not self.queue.empty():
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        try:
            text = data.decode()
        except UnicodeDecodeError:  # Uvicorn's own answer to it
            super().send_receive_event_to_app()
            return
        self.frames = []
        handler(text)
