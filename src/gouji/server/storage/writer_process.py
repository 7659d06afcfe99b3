"""The database writer in a process of its own: :class:`ProcessWriter`, ``gouji serve``'s default on Linux.

The same promise and the same order as the thread of :class:`~gouji.server.storage.durability.Writer` — a change is
handed to its callback only once it is stored; the changes that arrive while a transaction is in flight go
together into the next one; reads and other calls run in order with the commits — but the transactions run
in a child process with its own interpreter.  On a busy server the writer thread waited for the interpreter
lock each time the database driver gave it back (a few times a transaction, up to the switch interval each
time), so a transaction of half a millisecond's work took five; and its own Python code took the lock from
the event loop.  In a process of its own it takes neither (``benchmarks/bench_server.py`` measures both).

The two processes talk over a Unix socket pair, in messages of a 4-byte length and a pickle:

- server → writer: ``("open", url, parent_pid, log_level)`` first; then ``("c", [ops, ops, …])``, the writes
  of the commits made in one turn of the event loop (one message a turn), and ``("q", id, fn, args)``, a call;
- writer → server: ``("ready",)`` or ``("fail", message)`` once the database is open; ``("a", n)``, the next
  ``n`` commits are stored; ``("r", id, ok, value)``, a call's result or exception; ``("e", text)``, a
  transaction failed and is being retried.

The writer reads every message that waits before it starts a transaction, and stores the writes of the
commits among them in one transaction (a call in between ends the group, as on the thread).  The server
reads the writer's messages when its event loop polls the socket, and also after each player's message
(:meth:`ProcessWriter.poll`), so an acknowledgement does not wait for the rest of a busy turn.  The database
URL goes through the socket, never on a command line that ``ps`` shows.

If the server dies (``kill -9`` included) the writer dies with it: the kernel kills it (``PR_SET_PDEATHSIG``),
and it stops at the end of its socket anyway.  What it was storing was never sent to anyone, so storing it
or not breaks no promise.  If the writer dies first, nothing can be stored any more: the server logs it and
exits at once (status :data:`EXIT_WRITER_DIED`; there is nothing left to save, and every change not stored
was held back from its clients), and a restart restores every table from what is stored.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import ctypes.util
import gc
import importlib
import logging
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from . import EventOp, Op, StorageError, Store
from .durability import StoreWriter, write_retrying

T = TypeVar("T")

log = logging.getLogger("gouji.server")

_HEAD = struct.Struct(">I")
MAX_MESSAGE = 1 << 30
"""The largest message either side accepts (a bigger length means the stream is corrupt)."""

EXIT_WRITER_DIED = 75
"""The server's exit status when its writer process died under it (EX_TEMPFAIL: start it again)."""

START_SECONDS = 60.0
"""How long the server waits for the writer to open the database."""


_CHILD = "import sys; from gouji.server.storage.writer_process import child_main; child_main(sys.argv[1:])"
"""The writer process's program (``-c``: run as ``-m``, the module would be imported twice; ``-P``: the
server's working directory is not put on the module path)."""


class _StoreArg:
    """Stands for the writer's own store among a call's arguments (a store does not travel between
    processes)."""

    def __reduce__(self) -> str:
        return "STORE_ARG"


STORE_ARG = _StoreArg()


WireOp = tuple[Any, ...]
"""A write as it goes to the writer process: an event as a plain tuple of its fields, any other write as
itself (:func:`_to_wire`)."""


def _to_wire(ops: list[Op]) -> list[WireOp]:
    """A commit's writes for the writer's socket: the events (nearly every write) as plain tuples, which
    pickle six times faster than the named tuples, whose pickling calls a Python method for each one."""
    return [tuple(op) if type(op) is EventOp else op for op in ops]


def _from_wire(ops: list[WireOp]) -> list[Op]:
    """The writes :func:`_to_wire` sent (the other writes are named tuples of their own types)."""
    return [EventOp._make(op) if type(op) is tuple else op for op in ops]  # type: ignore[misc]


def _pack(message: tuple[Any, ...]) -> bytes:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEAD.pack(len(body)) + body


def _unpack(buf: bytearray) -> list[Any]:
    """The whole messages at the start of ``buf`` (removed from it)."""
    out: list[Any] = []
    at = 0
    while len(buf) - at >= _HEAD.size:
        (n,) = _HEAD.unpack_from(buf, at)
        if n > MAX_MESSAGE:
            raise ValueError(f"a message of {n} bytes: the stream is corrupt")
        if len(buf) - at - _HEAD.size < n:
            break
        out.append(pickle.loads(buf[at + _HEAD.size : at + _HEAD.size + n]))
        at += _HEAD.size + n
    del buf[:at]
    return out


class WriterDied(RuntimeError):
    """The writer process is gone: nothing more can be stored."""


class _Link(asyncio.Protocol):
    def __init__(self, writer: ProcessWriter) -> None:
        self.writer = writer
        self.buf = bytearray()

    def data_received(self, data: bytes) -> None:
        self.buf += data
        try:
            messages = _unpack(self.buf)
        except Exception as e:  # a corrupt stream: as if the writer died
            log.error("the database writer sent a corrupt message: %r", e)
            self.writer._died(f"a corrupt message ({e!r})")
            return
        for m in messages:
            self.writer._received(m)

    def connection_lost(self, exc: Exception | None) -> None:
        self.writer._died("its connection closed" if exc is None else repr(exc))


class ProcessWriter(StoreWriter):
    """The tables' writes and the lobby's reads, stored by a child process (:func:`child_main`), in order.

    Made by :meth:`start` (which waits until the child has opened the database).  ``store`` is the server's
    own store: :meth:`call` takes its methods (and module-level functions given it as an argument), and runs
    them on the child's store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.errors: list[BaseException] = []
        self.transactions = 0
        """Groups of commits acknowledged (the child's transactions, but for a group split by a call)."""
        self._proc: subprocess.Popen[bytes] | None = None
        self._transport: asyncio.Transport | None = None
        self._link: _Link | None = None
        self._reader: socket.socket | None = None
        """The link's socket again (a duplicate descriptor), which :meth:`poll` reads without waiting."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: collections.deque[tuple[Callable[[], None], int]] = collections.deque()
        """The callbacks of the commits sent and not yet stored, in order, with their count of writes."""
        self._out: list[list[WireOp]] = []
        """The commits of this turn of the loop, sent at its end."""
        self._flushing = False
        self._calls: dict[int, asyncio.Future[Any]] = {}
        self._next_call = 0
        self._backlog = 0
        self._ready: asyncio.Future[None] | None = None
        self._dead: str | None = None
        self._closing = False
        self._stop_on_death = True
        self._started = False

    @classmethod
    async def start(cls, store: Store, url: str, *, stop_on_death: bool = True) -> ProcessWriter:
        """Start the writer process on the database ``url`` and wait until it has opened it; StorageError if it
        cannot.  With ``stop_on_death`` the server's process exits if the writer dies under it."""
        self = cls(store)
        self._stop_on_death = stop_on_death
        loop = self._loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-P", "-c", _CHILD, str(theirs.fileno())],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
            )
        finally:
            theirs.close()
        ours.setblocking(False)
        # (a duplicate first: the transport takes the socket; :meth:`poll` reads the same stream through it)
        self._reader = socket.socket(fileno=os.dup(ours.fileno()))
        self._reader.setblocking(False)
        transport, link = await loop.connect_accepted_socket(lambda: _Link(self), ours)
        self._transport, self._link = transport, link
        self._ready = loop.create_future()
        level = logging.getLogger("gouji.server").getEffectiveLevel()
        self._send(("open", url, os.getpid(), level))
        try:
            await asyncio.wait_for(self._ready, START_SECONDS)
        except BaseException:
            self._closing = True  # (not a death under a running server: the caller gets the error)
            self._kill()
            self._reader.close()
            raise
        self._started = True
        return self

    # ------------------------------------------------------------------------------------------ the API

    @property
    def backlog(self) -> int:
        return self._backlog

    @property
    def pid(self) -> int | None:
        """The writer process's id."""
        return self._proc.pid if self._proc is not None else None

    def commit(self, ops: list[Op], done: Callable[[], None]) -> None:
        if self._dead is not None:
            raise WriterDied(f"the database writer is gone ({self._dead}): nothing can be stored")
        self._pending.append((done, len(ops)))
        self._backlog += len(ops)
        self._out.append(_to_wire(ops))
        if not self._flushing:
            self._flushing = True
            # call_soon, not at once: the changes the same turn of the loop makes go in one message
            assert self._loop is not None
            self._loop.call_soon(self._flush)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        if self._dead is not None:
            raise WriterDied(f"the database writer is gone ({self._dead}): nothing can be read")
        if getattr(fn, "__self__", None) is self.store:
            spec: tuple[str, ...] = ("m", fn.__name__)
        else:
            spec = ("f", fn.__module__, fn.__qualname__)
        wire = tuple(STORE_ARG if a is self.store else a for a in args)
        self._flush()  # the commits made before the call go before it
        assert self._loop is not None
        fut: asyncio.Future[T] = self._loop.create_future()
        n = self._next_call = self._next_call + 1
        self._calls[n] = fut
        self._send(("q", n, spec, wire))
        return await fut

    def poll(self) -> None:
        """Take what the writer has sent by now — the acknowledgements of stored changes above all, whose
        frames then go out — without waiting for the event loop's next turn to read it.

        The link's transport reads the socket only when the loop polls it, once a turn; on a busy server a
        turn takes several milliseconds (every message that arrived during the last one), so an
        acknowledgement that arrived early in a turn waited for the rest of it and for its place in the next
        one: a changing share of every move's latency, and the event loop idle between turns while the
        commit it waited for was done.  The app calls this after each message a player's socket gives it.
        A read of the same stream through a duplicate of the socket's descriptor, on the loop's thread, so
        the bytes reach the link in their order whichever reads them; a message cut between two reads waits
        in the link for its end.  Nothing to do (no system call) while no change waits to be stored."""
        reader, link = self._reader, self._link
        if not self._pending or reader is None or link is None or self._dead is not None:
            return
        try:
            data = reader.recv(self.POLL_BYTES)
        except OSError:  # nothing yet (EAGAIN); or an error, which the transport meets and reports too
            return
        if data:  # (the end of the stream, b"", is the transport's to report: it reads it too)
            link.data_received(data)

    POLL_BYTES = 1 << 16
    """The most :meth:`poll` reads at once (acknowledgements are a few bytes each)."""

    def close(self) -> None:
        """Let the writer store what it was sent and end (it stops at the end of its socket); wait for it."""
        self._closing = True
        if self._dead is None:
            self._flush()
        if self._transport is not None:
            if self._transport.get_write_buffer_size():  # (never after a drain: the writer has read it all)
                log.error("closing the database writer with messages it has not read")
            # the end of the socket now, not at the loop's next turn (this waits for the writer below)
            # (through poll's duplicate of its descriptor: uvloop's transports do not shut down their sockets)
            if self._reader is not None:
                with contextlib.suppress(OSError):
                    self._reader.shutdown(socket.SHUT_WR)
            self._transport.close()
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._proc is not None:
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                log.error("the database writer did not stop: killing it")
                self._kill()
            self._proc = None

    # ------------------------------------------------------------------------------------------ plumbing

    def _send(self, message: tuple[Any, ...]) -> None:
        if self._transport is None or self._transport.is_closing():
            raise WriterDied(f"the database writer is gone ({self._dead or 'closed'})")
        self._transport.write(_pack(message))

    def _flush(self) -> None:
        self._flushing = False
        if self._out and self._dead is None:
            out, self._out = self._out, []
            self._send(("c", out))

    def _received(self, m: tuple[Any, ...]) -> None:
        kind = m[0]
        if kind == "a":
            self.transactions += 1
            for _ in range(m[1]):
                done, n = self._pending.popleft()
                self._backlog -= n
                try:
                    done()
                except Exception:  # one table's failure to send must not keep the others' frames back
                    log.exception("sending a stored change failed")
        elif kind == "r":
            fut = self._calls.pop(m[1], None)
            if fut is not None and not fut.done():
                if m[2]:
                    fut.set_result(m[3])
                else:
                    fut.set_exception(m[3])
        elif kind == "e":
            self.errors.append(RuntimeError(m[1]))
            log.error("%s", m[1])
        elif kind == "ready":
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
        elif kind == "fail" and self._ready is not None and not self._ready.done():
            self._ready.set_exception(StorageError(m[1]))

    def _died(self, why: str) -> None:
        if self._dead is not None:
            return
        self._dead = why
        error = WriterDied(f"the database writer is gone ({why})")
        for fut in self._calls.values():
            if not fut.done():
                fut.set_exception(error)
        self._calls.clear()
        if not self._started:  # start() gives its caller the error
            if self._ready is not None and not self._ready.done():
                self._ready.set_exception(StorageError(f"the database writer did not start ({why})"))
            return
        if self._closing:
            return
        log.critical(
            "the database writer process is gone (%s) with %d writes not stored: nothing more can be stored, so "
            "the server stops now (a restart restores every table from what is stored; nothing unstored was sent)",
            why,
            self._backlog,
        )
        if self._stop_on_death:
            logging.shutdown()
            os._exit(EXIT_WRITER_DIED)

    def _kill(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()


# ------------------------------------------------------------------------------------------ the child


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when the server dies (Linux); and stop now if it is dead already."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(0)


def _resolve(spec: tuple[str, ...], store: Store) -> Callable[..., Any]:
    if spec[0] == "m":
        fn: Callable[..., Any] = getattr(store, spec[1])
        return fn
    obj: Any = importlib.import_module(spec[1])
    for part in spec[2].split("."):
        obj = getattr(obj, part)
    return obj  # type: ignore[no-any-return]


class _Child:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = bytearray()
        self.eof = False
        self.store: Store | None = None

    def read(self, block: bool) -> list[Any]:
        """The messages that wait (at least one when ``block``, unless the socket ended)."""
        while True:
            if not self.eof:
                ready = select.select([self.sock], [], [], None if block else 0)[0]
                while ready:
                    try:
                        data = self.sock.recv(1 << 20)
                    except ConnectionResetError:  # the server died with acknowledgements unread (kill -9)
                        data = b""
                    if not data:
                        self.eof = True
                        break
                    self.buf += data
                    ready = select.select([self.sock], [], [], 0)[0]
            messages = _unpack(self.buf)
            if messages or not block or self.eof:
                return messages

    def reply(self, message: tuple[Any, ...]) -> None:
        with contextlib.suppress(OSError):  # the server is gone: nobody is left to tell
            self.sock.sendall(_pack(message))

    def open(self, message: tuple[Any, ...]) -> None:
        _, url, parent, level = message
        _die_with_parent(parent)
        logging.basicConfig(level=level, format="%(levelname)s:     gouji-db: %(message)s")
        try:
            self.store = Store(url)
        except Exception as e:
            self.reply(("fail", f"the database writer cannot open the database: {e}"))
            raise SystemExit(2) from None
        # what exists now (the modules, the database's engine and tables) lives as long as the process: out of
        # the collector's sight, its full collections no longer walk it (one took 35-60 ms, and each held
        # back the acknowledgement of every change in flight)
        gc.collect()
        gc.freeze()
        self.reply(("ready",))

    def run(self) -> None:
        first = self.read(block=True)
        if not first or first[0][0] != "open":
            return
        self.open(first[0])
        rest = first[1:]
        while True:
            messages = rest or self.read(block=True)
            rest = []
            if not messages:
                return  # the server closed its end, and everything it sent is stored
            messages += self.read(block=False)  # all that waits goes into this transaction
            group: list[list[Op]] = []
            for m in messages:
                if m[0] == "c":
                    group += map(_from_wire, m[1])
                    continue
                self.store_group(group)  # what was committed before the call, then the call
                group = []
                if m[0] == "q":
                    self.call(m)
            self.store_group(group)

    def store_group(self, group: list[list[Op]]) -> None:
        if not group:
            return
        assert self.store is not None

        def failed(exc: Exception, pause: float) -> bool:
            text = f"storing {len(group)} changes failed (retrying in {pause:.2f} s): {exc!r}"
            logging.getLogger("gouji.server").error("%s", text)
            self.reply(("e", text))
            return True

        write_retrying(self.store, [op for ops in group for op in ops], failed)
        self.reply(("a", len(group)))

    def call(self, m: tuple[Any, ...]) -> None:
        _, n, spec, args = m
        assert self.store is not None
        try:
            fn = _resolve(spec, self.store)
            value = fn(*(self.store if a is STORE_ARG else a for a in args))
            reply: tuple[Any, ...] = ("r", n, True, value)
            body = _pack(reply)
        except BaseException as e:
            try:
                body = _pack(("r", n, False, e))
            except Exception:  # an exception that does not pickle: its text
                body = _pack(("r", n, False, RuntimeError(f"{type(e).__name__}: {e}")))
        with contextlib.suppress(OSError):
            self.sock.sendall(body)


def child_main(argv: list[str] | None = None) -> None:
    """The writer process, on the socket whose descriptor is ``argv[0]`` (the server starts it)."""
    args = sys.argv[1:] if argv is None else argv
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which then closes this
    sock = socket.socket(fileno=int(args[0]))
    sock.setblocking(True)
    child = _Child(sock)
    try:
        child.run()
    finally:
        if child.store is not None:
            child.store.close()
