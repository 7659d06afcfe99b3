"""Connections: one WebSocket connection's outgoing side (:class:`Connection`) — frames written in place
while the socket takes them, else queued in order for the connection's writer task, and a connection that
does not read dropped."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable, Coroutine, Generator
from typing import Any, Protocol

from ..messages import protocol as P

log = logging.getLogger("gouji.server")


SendText = Callable[[str], Coroutine[Any, Any, None]]
"""How a connection writes one text frame (``WebSocket.send_text``)."""


def token_hash(token: str) -> str:
    """The stored form of a secret token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


WriteNow = Callable[[str], bool]
"""Writes one text frame at once if the socket takes it, else says no (the server's direct way out)."""


class Outbox(Protocol):
    """Where a connection's frames go once it said hello: its table (:meth:`.table.Room.deliver`), which
    holds them until the change they show is stored."""

    def deliver(self, conn: Connection, text: str | None) -> None: ...


class Connection:
    """One WebSocket connection's outgoing side.

    A frame is written at once when nothing is waiting to be written before it: the write is started right
    where the frame was made (the socket's send completes without waiting while the socket takes data), so a
    change reaches six connections without waking six tasks.  A write that has to wait (the client reads too
    slowly), and every frame after it, goes through a bounded queue that the connection's writer task
    (:meth:`run_writer`) empties in order.  A connection that lets its queue fill is dropped rather than let
    it hold the table back; it can reconnect and get the full view.

    ``write_now``, where the server has it, writes a frame without a coroutine when the socket takes it.
    Without ``send`` (tests) frames only queue, for :meth:`run_writer` or the test to take.
    """

    def __init__(self, limit: int = 512, send: SendText | None = None, write_now: WriteNow | None = None) -> None:
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.room: Outbox | None = None
        """The table the connection said hello to (its frames go through it), or None."""
        self.queue: asyncio.Queue[str | _RestOfWrite | None] = asyncio.Queue(maxsize=limit)
        self.dropped = False
        self.ended = False
        self.close_code = 1000
        self._send = send
        self._write_now = write_now
        self._last_token: str | None = None
        self._last_hash = ""
        self._queued = False
        """Whether frames wait in (or are being written from) the queue: new frames must queue behind them."""

    def hash_of(self, token: str) -> str:
        """``token_hash(token)``, worked out again only for a token other than the last one given (a seat's
        client sends its token with every intent; the hash is still compared with the seat's each time)."""
        if token != self._last_token:
            self._last_hash = token_hash(token)
            self._last_token = token
        return self._last_hash

    @property
    def ready(self) -> bool:
        """Whether ``hello`` was accepted."""
        return self.room is not None

    def push(self, text: str) -> None:
        """Write a frame now if nothing waits before it, else queue it; a full queue drops the connection."""
        if self.dropped or self.ended:
            return
        if self._send is None or self._queued:
            self._enqueue(text)
            return
        write_now = self._write_now
        if write_now is not None:
            try:
                if write_now(text):
                    return  # written
            except Exception:  # the socket is gone (or closing): the receiving side will notice and clean up
                self.dropped = True
                self._wake_writer()
                return
        write = self._send(text)
        try:
            waiting_on = write.send(None)
        except StopIteration:
            return  # written
        except Exception:  # the socket is gone (or closing): the receiving side will notice and clean up
            self.dropped = True
            self._wake_writer()
            return
        self._enqueue(_RestOfWrite(write, waiting_on))

    def send(self, frame: dict[str, Any]) -> None:
        """Send a frame: through its table once it said hello (after the frames that wait for their change to
        be stored, :meth:`~gouji.server.tables.table.Room.deliver`), else at once."""
        text = P.dumps(frame)
        if self.room is not None:
            self.room.deliver(self, text)
        else:
            self.push(text)

    def end(self) -> None:
        """Close the connection after the frames sent so far (through its table, as :meth:`send`)."""
        if self.room is not None:
            self.room.deliver(self, None)
        else:
            self.finish()

    def finish(self) -> None:
        """Ask the writer to close the connection after the frames queued so far."""
        if self.dropped or self.ended:
            return
        self.ended = True
        self._enqueue(None)

    def _enqueue(self, item: str | _RestOfWrite | None) -> None:
        self._queued = True
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            self.dropped = True
            log.warning("dropping a connection that does not read its frames")
            if isinstance(item, _RestOfWrite):
                item.abandon()
            self._wake_writer()

    def _wake_writer(self) -> None:
        """Let a writer waiting on an empty queue see that the connection is dropped."""
        if self.queue.empty():
            self.queue.put_nowait(None)

    async def run_writer(self) -> None:
        """Write the queued frames in order until the connection ends or is dropped (the connection's task)."""
        assert self._send is not None
        while True:
            item = await self.queue.get()
            if item is None or self.dropped:
                if isinstance(item, _RestOfWrite):
                    item.abandon()
                return
            if isinstance(item, _RestOfWrite):
                await item
            else:
                await self._send(item)
            if self.queue.empty():
                self._queued = False


class _RestOfWrite:
    """A write that was started in place and had to wait: awaiting this runs the rest of it (in the writer
    task), exactly as if the writer had awaited the write from its start."""

    def __init__(self, write: Coroutine[Any, Any, None], waiting_on: Any) -> None:
        self.write = write
        self.waiting_on = waiting_on

    def __await__(self) -> Generator[Any, Any, None]:
        write, waiting_on = self.write, self.waiting_on
        while True:
            try:
                value = yield waiting_on
            except BaseException as e:  # cancelled: let the write see it where it waits
                try:
                    waiting_on = write.throw(e)
                except StopIteration:
                    return
            else:
                try:
                    waiting_on = write.send(value)
                except StopIteration:
                    return

    def abandon(self) -> None:
        """The connection is dropped: close the write where it waits."""
        self.write.close()
