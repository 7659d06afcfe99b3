"""A table's I/O: its connections, its timers and windows, the writer and the outbox, the bots' thread.

The server is the authority.  A :class:`Room` is a table's state (:class:`.state.TableState`, the
reducer, and :class:`.frames.TableFrames`, what it sends) with the I/O around it.  Every change — a
seat taken or left, auto-play switched, an action, the start, the close — goes through :meth:`Room.commit`:
the reducer applies it and numbers it, the writer stores it, the open decision window is rescheduled, and
every connection is sent its own view once the change is stored.  The same events, replayed in order,
restore the table after a restart (:meth:`Room.replay`).

Secrets: a seat token is given to its holder once and stored only as its SHA-256; the set's seed (from
which every hand of the set follows) stays on the server and goes into no frame, and the records of a set
in progress are not served until it is over.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ...bots import BOTS, Bot, make_bot
from ...engine.actions import PASS, Action, LegalActions
from ...engine.deal import IllegalAction
from ...engine.seats import SEATS
from ..config import TableConfig
from ..http.connection import Connection
from ..http.connection import token_hash as token_hash  # (its home was here)
from ..limits import TokenBucket
from ..messages import protocol as P
from ..settings import ServerSettings
from ..storage import StoredTable
from ..storage.durability import StoreWriter
from .frames import CHOICES_CAP as CHOICES_CAP
from .frames import SAMPLE_SIZE as SAMPLE_SIZE
from .frames import Frames, TableFrames
from .state import DECISION_KINDS
from .state import PASS_PACE as PASS_PACE
from .state import Seat as Seat
from .state import new_token as new_token
from .window import Window, WindowKey, WindowTimings, timeout_answer

log = logging.getLogger("gouji.server")

FOLD_LIMIT = 16
"""Windows whose answers are all given and whose masking time is nil resolve as soon as they open, in the
frame of the change before them — up to this many in a row (the rest through the window's task)."""

_Delivery = tuple[Connection, str | None]
"""A frame to write to a connection (None: end the connection after what came before)."""


def _seat_bots(code: str, bots: Sequence[str | None], auto: str) -> dict[int, Bot]:
    """A bot for each bot's seat; a bot this server does not have (the table was stored by a server that had
    it) is left out, with a warning: the auto-play bot ``auto`` plays that seat."""
    made: dict[int, Bot] = {}
    for i, b in enumerate(bots):
        if b is not None and b in BOTS:
            made[i] = make_bot(b)
        elif b is not None:
            log.warning("table %s: seat %d's bot %r is not on this server; %s plays it", code, i, b, auto)
    return made


class Room(TableFrames):
    """A table: its state (the reducer), its connections, its timers, its bots, its writes.

    Between two deals of a set no timer but the ready timeout runs and no bot acts."""

    expires_when_idle = True
    """Whether the lobby closes the table when it waits too long for players (a match's tables wait for
    their match)."""
    seated_by_team = False
    phrases_allowed = True
    """Whether its players may send quick phrases (:mod:`.phrases`; not at a match's tables)."""
    """Whether its seats are taken only with a team's join code (a match's tables), not its own code."""

    def __init__(
        self,
        table_id: int,
        code: str,
        config: TableConfig,
        owner_hash: str,
        writer: StoreWriter | None = None,
        settings: ServerSettings | None = None,
    ) -> None:
        super().__init__(table_id, code, config, owner_hash)
        self.settings = settings = settings or ServerSettings()
        self.limits = settings.limits
        self.writer = writer
        self.conns: set[Connection] = set()
        self._auto_bot: Bot = make_bot(settings.auto_bot_name())
        self._bots = _seat_bots(code, config.bots, settings.auto_bot_name())
        self._rng = random.Random(settings.seeds())  # the bots' draws: as unpredictable as the deal
        self._timer: asyncio.Task[None] | None = None
        self._timer_key: tuple[Any, ...] | None = None
        self._folding = 0
        """How many windows resolved at once are being fed now, one inside the other (at most FOLD_LIMIT)."""
        self.timings = WindowTimings(10_000)
        """(window kind, seconds from opening to resolution, whether a person was prompted, whether any seat
        had a choice) of the last windows (at most 10,000): what the time of a deal went on."""
        self.stored = 0
        """The state number up to which every change is durably stored: frames of later states wait."""
        self._outbox: collections.deque[tuple[int, Sequence[_Delivery]]] = collections.deque()
        """Frames made at a state not yet stored, in order: (state, what to write to whom)."""
        self._auto_buckets = [TokenBucket(self.limits.auto_rate, self.limits.auto_burst) for _ in range(SEATS)]
        self.phrase_buckets: dict[int, TokenBucket] = {}
        """Each seat's allowance of quick phrases (:mod:`.phrases`), made at its first phrase."""
        self.last_change = time.monotonic()
        """When the table last changed (monotonic seconds): for the idle expiry of a waiting table."""
        self.on_over: Callable[[Room], None] | None = None
        """Called once the end of the set is stored and sent (the lobby lets the table go)."""

    # ------------------------------------------------------------------ the one way to change a table

    def commit(
        self, kind: str, seat: int | None = None, data: dict[str, Any] | None = None, action: Action | None = None
    ) -> None:
        """Apply one change (:meth:`~.state.TableState.step`; raises, changing nothing, if the engine
        refuses an action), store it, reschedule the window and send every connection its view."""
        ops = self.step(kind, seat, data, action)
        if self.replaying:
            self.stored = self.state
            return
        self.last_change = time.monotonic()
        if self.writer is not None:
            state = self.state
            self.writer.commit(ops, lambda: self._stored_to(state))
        else:
            self.stored = self.state
        if self._resolving:
            return  # a window's answers: one frame after the last of them (_resolve)
        self._reschedule()
        self.broadcast()
        self._maybe_resume()

    def _maybe_resume(self) -> None:
        """End the pause between two deals once every seat is ready (a change of its own)."""
        if not self.replaying and self.status == "playing" and self.all_ready():
            self.commit("resume", None, {"by": "ready"})

    @classmethod
    def replay(cls, stored: StoredTable, writer: StoreWriter | None, settings: ServerSettings | None = None) -> Room:
        """Rebuild a table from its stored configuration and events (after a restart); the records its
        finished deals would have stored are in :attr:`replayed_records`."""
        room = cls(stored.id, stored.code, cls.read_config(stored.config), stored.owner_hash, writer, settings)
        room.replaying = True
        for ev in stored.events:
            room.commit(ev["kind"], ev["seat"], ev["data"])
            room.state = room.stored = ev["state"]
            if ev["kind"] in DECISION_KINDS:
                room.decision = room.state
        room.replaying = False
        room._cursor = (len(room.match.deals) - 1, len(room.match.current.events))
        return room

    # ------------------------------------------------------------------ frames wait for their state to be stored

    def deliver(self, conn: Connection, text: str | None) -> None:
        """Write a frame of the current state to ``conn`` (None: end the connection) — at once if that state
        is stored and nothing waits before it, else once it is."""
        if self.stored >= self.state and not self._outbox:
            _write(conn, text)
        else:
            self._outbox.append((self.state, [(conn, text)]))

    def _stored_to(self, state: int) -> None:
        """The writer stored every change up to ``state``: send the frames made up to it."""
        if state > self.stored:
            self.stored = state
        outbox = self._outbox
        while outbox and outbox[0][0] <= self.stored:
            for conn, text in outbox.popleft()[1]:
                _write(conn, text)
        if self.status == "over" and self.stored >= self.state and self.on_over is not None:
            on_over, self.on_over = self.on_over, None
            on_over(self)

    def attach(self, conn: Connection, seat: int | None, token_h: str | None) -> None:
        """A connection said hello: send it who it is and the full view."""
        conn.seat, conn.token_hash, conn.room = seat, token_h, self
        before = self.offline()
        self.conns.add(conn)
        self._seats_version += 1  # (who is offline may have changed)
        nickname = self.seats[seat].nickname if seat is not None else None
        conn.send(P.welcome_frame(self.code, seat, nickname))
        conn.send(self.state_frame(seat, full=True))
        self._presence(before, conn)

    def detach(self, conn: Connection) -> None:
        before = self.offline()
        if conn.seat is not None:
            self.people_seen = time.monotonic()
        self.conns.discard(conn)
        self._seats_version += 1
        self._presence(before)

    def connected(self) -> set[int | None]:
        return {c.seat for c in self.conns}

    def _presence(self, before: tuple[int, ...], new: Connection | None = None) -> None:
        """Tell the connections (but ``new``, whose full frame said it) when a connection came or went changed
        the offline seats (issue 29): a ``presence`` frame, after the frames made before it; every later
        frame's table says it too."""
        offline = self.offline()
        if offline == before:
            return
        text = P.dumps(P.presence_frame(offline))
        for conn in list(self.conns):
            if conn is not new:
                self.deliver(conn, text)

    def broadcast(self) -> None:
        """Send every connection the view of its own seat (spectators the public view): each seat's frame
        text is made once per change (:class:`.frames.Frames`) and written to every connection of it."""
        new = self.new_events()
        if not self.conns:
            return
        frames = Frames(self, new)
        texts: dict[int | None, str] = {}
        out: list[tuple[Connection, str]] = []
        for conn in self.conns:
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = frames.text(conn.seat)
            out.append((conn, text))
        if self.stored >= self.state and not self._outbox:
            for conn, frame in out:
                conn.push(frame)
        else:
            self._outbox.append((self.state, out))

    # ------------------------------------------------------------------ intents

    def intent(self, conn: Connection, msg: P.ClientMessage) -> None:
        """An ``act`` intent: refused with a ProtocolError saying why, changing nothing; or answered."""
        w, seat, action = self.check_act(conn, msg)
        self._answer(w, seat, action, "player")

    def set_auto(self, conn: Connection, msg: P.ClientMessage) -> None:
        """托管 on or off for the connection's own seat."""
        seat, change = self.check_auto(conn, msg)
        if not change:
            conn.send(self.state_frame(seat, full=False))
            return
        if not self._auto_buckets[seat].take():
            raise P.ProtocolError(P.RATE_LIMITED, "托管 (auto) is switched too often at this seat: slow down", msg.id)
        self.commit("auto", seat, {"on": msg.on})
        w = self.window
        if msg.on and w is not None and seat in w.asked:  # the 托管 bot answers the open question now
            self._answer(w, seat, self._bot_action_now(seat), "auto")

    def set_prefs(self, conn: Connection, msg: P.ClientMessage) -> None:
        """``prefs``: whether the seat's player is asked even for decisions with one legal answer
        (``ask_single``; from the next decision on).  Not a change of the table: nothing is stored."""
        assert msg.token is not None and msg.on is not None
        seat = self.check_token(conn, msg.token, msg.id)
        self.seats[seat].ask_single = msg.on
        self.deliver(conn, P.dumps(self.state_frame(seat, full=False)))

    def mark_ready(self, conn: Connection, msg: P.ClientMessage) -> None:
        """``ready``: the connection's seat is ready for the next deal (outside the pause between two deals,
        or when already ready, nothing changes and the seat gets the current state)."""
        seat, change = self.check_ready(conn, msg)
        if not change:
            conn.send(self.state_frame(seat, full=False))
            return
        self.commit("ready", seat)

    # ------------------------------------------------------------------ timers and windows

    def _reschedule(self) -> None:
        """After a change: the ready timer in the pause between two deals; else open the window of the
        decision the deal waits for (once per decision)."""
        if self._resolving:
            return
        if self.status == "playing" and self.ready is not None:
            key: tuple[Any, ...] = ("ready", len(self.match.deals))
            if key == self._timer_key:
                return
            self.cancel_timer()
            self._timer_key = key
            if self.config.ready_seconds is not None:
                delay = self.config.ready_seconds
                self.deadline = time.time() + delay
                self._timer = asyncio.get_running_loop().create_task(self._fire_ready(key, delay))
            return
        wkey = self.window_key()
        if wkey is None:
            self.cancel_timer()
            return
        if self.window is not None and self.window.key == wkey:
            return
        self.cancel_timer()
        self._open_window(wkey)

    def _open_window(self, key: WindowKey) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        w = self.new_window(key, now, time.time())
        if w.deadline is not None:
            self.deadline = w.deadline
        if w.complete and now >= w.until and self._folding < FOLD_LIMIT:
            # every answer is given for its seat and there is no masking time left: the window resolves now,
            # as a person's last answer resolves one (_answer), and its change goes out in the same frame as
            # the change that opened it — no task, no separate commit for the clients to wait on
            self._folding += 1
            try:
                self._feed(w)
                self._reschedule()
            finally:
                self._folding -= 1
            return
        self._timer_key = ("window", key)
        if w.thinking or w.deadline is not None or w.until > now or w.complete:
            # (complete: its answers are given but FOLD_LIMIT windows were resolved at once already)
            self._timer = loop.create_task(self._run_window(w))
        # else the window waits for its people's answers alone, with nothing to time: the last one resolves it

    def _answer(self, w: Window, seat: int, action: Action, by: str) -> None:
        """A person's answer to the open window; resolves it when it was the last one and the masking time
        is over."""
        w.answers[seat] = (action, by)
        w.asked.discard(seat)
        if w.complete and asyncio.get_running_loop().time() >= w.until:
            self._resolve(w)
        else:
            for conn in [c for c in self.conns if c.seat == seat]:
                self.deliver(conn, P.dumps(self.state_frame(seat, full=False)))

    async def _run_window(self, w: Window) -> None:
        loop = asyncio.get_running_loop()
        for s in list(w.thinking):
            answer = await self._bot_action(s)
            if self.window is not w:
                return  # the window closed meanwhile (a change of the table): the answer is dropped
            w.answers[s] = (answer, "bot" if self.seats[s].bot is not None else "auto")
            w.thinking.remove(s)
        self.pace(w)
        # (a sleep may wake a little early — uvloop's do: sleep again, or an answer given in that gap, which
        # leaves the window to this task, would wait for the hour's sleep below)
        while (wait := w.until - loop.time()) > 0:
            await asyncio.sleep(wait)
        while not w.complete:
            if w.deadline is None:
                await asyncio.sleep(3600)
                continue
            left = w.deadline - time.time()
            if left > 0:
                await asyncio.sleep(min(left, 1.0))
                continue
            deal = self.match.current
            for s in sorted(w.asked):
                legal = deal.legal_actions_of(s)
                decline = timeout_answer(w.kind, PASS in legal)
                w.answers[s] = (decline if decline is not None else await self._bot_action(s), "timeout")
                if self.window is not w:
                    return
            w.asked.clear()
        if self.window is w:
            self._timer = None  # this task ends here: resolving must not cancel it
            self._resolve(w)

    def _resolve(self, w: Window) -> None:
        """Feed the window's answers to the engine in its order, then open the next window and send the
        frame of the changes."""
        if self.window is not w or self.status != "playing":
            return
        self._feed(w)
        self._reschedule()
        self.broadcast()
        self._maybe_resume()

    def _feed(self, w: Window) -> None:
        """Close the window and feed its answers to the engine in its order (one change each; no frame)."""
        self.close_window(w)
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        self._timer_key = None
        self.deadline = None
        elapsed = asyncio.get_running_loop().time() - w.opened
        self.timings.append(w.kind, elapsed, bool(w.prompted), w.choice)
        self._resolving = True
        try:
            for s, action, by in self.feed_order(w):
                try:
                    self.commit("act", s, {"by": by}, action)
                except IllegalAction:
                    log.exception("an answer was refused at table %s; playing the first legal one", self.code)
                    self.commit("act", s, {"by": by}, self.match.current.legal_actions()[0])
        finally:
            self._resolving = False

    def cancel_timer(self) -> None:
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        self._timer_key = None
        self.deadline = None
        self.window = None

    async def _fire_ready(self, key: tuple[Any, ...], delay: float) -> None:
        await asyncio.sleep(delay)
        if self._timer_key != key or self.status != "playing":
            return
        self._timer = None
        self._timer_key = None
        self.deadline = None
        if self.ready is not None:
            self.commit("resume", None, {"by": "timeout"})

    def start_timers(self) -> None:
        """Start the turn timer (after a restore: timers start afresh); a restored pause between two deals
        whose seats are all ready by now ends."""
        self._reschedule()
        self._maybe_resume()

    def shut(self, reason: str) -> None:
        """Stop the timer and close every connection with a ``closed`` frame (after the frames before it)."""
        self.cancel_timer()
        frame = P.dumps(P.closed_frame(self.code, reason))
        for conn in list(self.conns):
            self.deliver(conn, frame)
            self.deliver(conn, None)
        self.conns.clear()

    # ------------------------------------------------------------------ bots

    def _bot_call(self, seat: int) -> tuple[Bot, dict[str, Any], LegalActions]:
        """What seat ``seat``'s bot (or the 托管 bot) decides from: its own view and legal actions."""
        bot = self._bots.get(seat, self._auto_bot)
        deal = self.match.current
        legal = deal.legal_actions_of(seat)
        return bot, deal.view(seat, log=bool(getattr(bot, "wants_log", False))), legal

    def _bot_action_now(self, seat: int) -> Action:
        """The bot's action for ``seat`` in the current window, thought out here (a seat going on 托管
        while it is asked)."""
        bot, view, legal = self._bot_call(seat)
        try:
            return bot.decide(view, legal, self._rng)
        except Exception:
            log.exception("bot %s failed at table %s; playing the first legal action", bot.name, self.code)
            return legal[0]

    async def _bot_action(self, seat: int) -> Action:
        """The bot's action for ``seat`` in the current window, thought out on the bots' thread: the event
        loop only makes the seat's view (the bot sees nothing else) and goes on serving every other table
        meanwhile.  The window's task awaits it; a window closed meanwhile drops the answer."""
        bot, view, legal = self._bot_call(seat)
        try:
            return await asyncio.get_running_loop().run_in_executor(bot_pool(), bot.decide, view, legal, self._rng)
        except Exception:
            log.exception("bot %s failed at table %s; playing the first legal action", bot.name, self.code)
            return legal[0]


_THREADS: dict[str, concurrent.futures.ThreadPoolExecutor] = {}


def one_thread(name: str) -> concurrent.futures.ThreadPoolExecutor:
    """The server's one worker thread called ``name``, started when first asked for."""
    pool = _THREADS.get(name)
    if pool is None:
        pool = _THREADS[name] = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    return pool


def bot_pool() -> concurrent.futures.ThreadPoolExecutor:
    """The thread the bots think on (one: the bots of every table take turns on it)."""
    return one_thread("gouji-bots")


def _write(conn: Connection, text: str | None) -> None:
    if text is None:
        conn.finish()
    else:
        conn.push(text)
