"""The table state machine: a :class:`~gouji.match.Match`, six seats, tokens, timers, auto-play (托管) and broadcast.

The server is the authority.  A :class:`Room` holds the set being played; every change — a seat taken or
left, auto-play switched, an action, the start, the close — goes through :meth:`Room.commit`, which applies
it, gives it the next **state number**, stores it as an event, restarts the turn timer and sends every
connection its own view.  The same events, replayed in order on ``Match(rules, seed, set_length)``, restore
the table after a restart (:meth:`Room.replay`).

Secrets: a seat token is given to its holder once and stored only as its SHA-256; the set's seed (from
which every hand of the set follows) stays on the server and goes into no frame, and the records of a set
in progress are not served until it is over.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from ..bots import Bot, make_bot
from ..engine import cards as C
from ..engine.actions import PASS, YIELD, Action, InvalidAction, LegalActions, parse_action
from ..engine.deal import Deal, IllegalAction
from ..engine.seats import SEATS
from . import protocol as P
from .choices import burn_need, burn_needs, legal_set
from .config import TableConfig
from .connection import Connection
from .connection import token_hash as token_hash  # (its home was here)
from .durability import StoreWriter
from .limits import TokenBucket
from .settings import ServerSettings
from .storage import EventOp, Op, RecordBody, RecordOp, StatusOp, StoredTable
from .window import Window, WindowTimings, timeout_answer, window_kind

log = logging.getLogger("gouji.server")

CHOICES_CAP = 64
"""Legal actions are listed in full up to this many; past it a frame carries the count and a sample."""
SAMPLE_SIZE = 16
FOLD_LIMIT = 16
"""Windows whose answers are all given and whose masking time is nil resolve as soon as they open, in the
frame of the change before them — up to this many in a row (the rest through the window's task)."""
PASS_PACE = 0.25
"""A window over bots' seats alone (and people's on 托管) whose answers are all passes — 要不起, 不烧 — resolves
after this share of the masking time (0.2 s at 正常's 0.8 s), and the passes right after it at once (a run of
passes is one beat): the table does not hold every pass as long as a play.  The time depends on the answers
alone, which the frame shows at that moment, and a bot's forced pass and its chosen one take the same; a
window over a person's seat keeps the whole masking time."""


def _countdown(room: Room, seats: Iterable[int]) -> int | None:
    """The public countdown of a window over ``seats`` opening now (see :attr:`Room.countdown`)."""
    if room.config.turn_seconds is None or not any(room.seats[s].bot is None and not room.seats[s].auto for s in seats):
        return None
    return int((time.time() + room.config.turn_seconds) * 1000)


def new_token() -> str:
    """A new secret token (192 random bits)."""
    return secrets.token_urlsafe(24)


@dataclass
class Seat:
    """A seat: a bot's, or a person's (held by a nickname and a token) or vacant."""

    index: int
    bot: str | None
    nickname: str | None = None
    token_hash: str | None = None
    auto: bool = False
    ask_single: bool = False
    """Ask this seat's player even for decisions with one legal answer (a page setting; not stored)."""

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "bot": self.bot,
            "nickname": self.nickname,
            "held": self.bot is not None or self.nickname is not None,
            "auto": self.auto,
        }


DECISION_KINDS = frozenset({"act", "start", "resume"})
"""The changes after which another decision is asked for (:attr:`Room.decision`): an action taken, the set
started, play resumed after the pause between two deals.  Nothing else changes who must act or what they
may do — seats taken and left, 托管 switched, ready marks."""

_Delivery = tuple[Connection, str | None]
"""A frame to write to a connection (None: end the connection after what came before)."""


class Room:
    """A table: a set being played, its seats and connections, its turn timer.

    ``status`` is ``waiting`` (for people to take the seats), ``playing``, ``over`` (the set ended) or
    ``closed`` (by its creator).  ``state`` is the number of changes so far.

    Between two deals of a set the table pauses (``ready`` is not None): no timer but the ready timeout
    runs, no bot acts and ``act`` is refused until every seat is ready (``ready`` intents; bot, empty and
    托管 seats count as ready) or the timeout ends the pause (a ``resume`` event).
    """

    expires_when_idle = True
    """Whether the lobby closes the table when it waits too long for players (a match's tables wait for
    their match)."""
    seated_by_team = False
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
        self.id = table_id
        self.settings = settings = settings or ServerSettings()
        self.limits = settings.limits
        self.code = code
        self.config = config
        self.owner_hash = owner_hash
        self.writer = writer
        self.match = config.new_match()
        self.seats = [Seat(i, config.bots[i]) for i in range(SEATS)]
        self.status = "waiting"
        self.state = 0
        self.conns: set[Connection] = set()
        self._bots: dict[int, Bot] = {i: make_bot(b) for i, b in enumerate(config.bots) if b is not None}
        self._auto_bot: Bot = make_bot(settings.auto_bot_name())
        self._rng = random.Random(settings.seeds())  # the bots' draws: as unpredictable as the deal
        self._timer: asyncio.Task[None] | None = None
        self._timer_key: tuple[Any, ...] | None = None
        self.deadline: float | None = None
        """Epoch seconds when the seat to act is auto-played, or None."""
        self._cursor = (0, 0)
        """(deal index, events of that deal) sent to the connections so far."""
        self.replaying = False
        self.replayed_records: list[tuple[str, int | None, RecordBody, list[dict[str, Any]]]] = []
        """While replaying: the records the replayed moves produced (kind, deal index, body, players)."""
        self.ready: list[bool] | None = None
        """Between two deals: which seats said they are ready; None while play goes on."""
        self.window: Window | None = None
        """The decision window open now (:mod:`gouji.server.window`), or None."""
        self._pass_run = False
        """Whether the last window resolved was bots' passes alone (the next such one takes no time)."""
        self.countdown: int | None = None
        """Epoch milliseconds when the open window's time for people runs out, shown to everyone (issue 29): set
        for every window over a person's seat (not a bot's, not on 托管) when the table has a turn timer — from
        what is public alone (the seats, their kind, the timer, when the window opened), the same whether that
        person is asked or their one answer is given for them."""
        self._resolving = False
        self._folding = 0
        """How many windows resolved at once are being fed now, one inside the other (at most FOLD_LIMIT)."""
        self._hands: dict[int, tuple[list[int], str, int]] = {}
        """seat → (its hand's counts, the hand as JSON text, its count of cards): :meth:`own_hand`."""
        self._last_deal_of: tuple[tuple[int, int, bool], dict[str, Any] | None] | None = None
        self.timings = WindowTimings(10_000)
        """(window kind, seconds from opening to resolution, whether a person was prompted, whether any seat
        had a choice) of the last windows (at most 10,000): what the time of a deal went on."""
        self.decision = 0
        """The decision the seat to act is asked for: the state number of the last change that asked for
        one (:data:`DECISION_KINDS`).  An ``act`` names it, so no other change makes a correct intent stale."""
        self.stored = 0
        """The state number up to which every change is durably stored: frames of later states wait."""
        self._outbox: collections.deque[tuple[int, list[_Delivery]]] = collections.deque()
        """Frames made at a state not yet stored, in order: (state, what to write to whom)."""
        self._auto_buckets = [TokenBucket(self.limits.auto_rate, self.limits.auto_burst) for _ in range(SEATS)]
        self.phrase_buckets: dict[int, TokenBucket] = {}
        """Each seat's allowance of quick phrases (:mod:`.phrases`), made at its first phrase."""
        self.last_change = time.monotonic()
        """When the table last changed (monotonic seconds): for the idle expiry of a waiting table."""
        self.on_over: Callable[[Room], None] | None = None
        """Called once the end of the set is stored and sent (the lobby lets the table go)."""
        self._seats_version = 0
        """Counts the changes that may change the seats or the table's status outside play (every change but
        an action, and an action that switched its seat's 托管): a key of :meth:`table_text`'s cache."""
        self._table_text_of: tuple[tuple[int, str, int, int, tuple[int, ...]], str, str] | None = None

    # ------------------------------------------------------------------ public data

    def public(self, config: bool = True) -> dict[str, Any]:
        """The table as everyone may see it (``config=False``: without the configuration)."""
        m = self.match
        offline = self.offline()
        out: dict[str, Any] = {
            "code": self.code,
            "status": self.status,
            "state": self.state,
            "seats": [{**s.public(), "offline": s.index in offline} for s in self.seats],
            "deal": len(m.deals) - 1,
            "deals_over": len(m.points),
            "points": [list(p) for p in m.points],
            "totals": list(m.totals),
            "ready": self.ready_info(),
            "last_deal": self._last_deal(),
        }
        if config:
            out["config"] = self.config.public()
        return out

    def table_text(self) -> str:
        """``public(config=False)`` as JSON text, for the frame of every change: during play, all of it but the
        state number is encoded again only when the seats, the status or the deals changed (the key: the
        changes other than actions, the status and the count of deals begun and scored); between two deals
        made afresh each time."""
        if self.ready is not None:
            return P.dumps(self.public(config=False))
        m = self.match
        key = (self._seats_version, self.status, len(m.deals), len(m.points), self.offline())
        cached = self._table_text_of
        if cached is None or cached[0] != key:
            table = self.public(config=False)
            head = P.dumps({"code": table.pop("code"), "status": table.pop("status")})[:-1]
            del table["state"]
            cached = self._table_text_of = (key, head + ',"state":', "," + P.dumps(table)[1:])
        return f"{cached[1]}{self.state}{cached[2]}"

    def _last_deal(self) -> dict[str, Any] | None:
        """The newest finished deal's places and why (public facts): who went out in which order, who was
        smothered (闷) by whom, whose burn failed (诈烧), who revolted (革命) — for the summary after a reload.
        (Made again only when a deal ended or began: it is part of every frame.)"""
        key = (len(self.match.deals), len(self.match.points), self.match.current.is_over)
        if self._last_deal_of is None or self._last_deal_of[0] != key:
            self._last_deal_of = (key, self._make_last_deal())
        return self._last_deal_of[1]

    def _make_last_deal(self, before: int | None = None) -> dict[str, Any] | None:
        """The summary of the newest finished deal (of those before deal ``before``, when given)."""
        deals = self.match.deals if before is None else self.match.deals[:before]
        done = [i for i, d in enumerate(deals) if d.is_over]
        if not done:
            return None
        d = deals[done[-1]]
        return {
            "deal": done[-1],
            "places": list(d.places or []),
            "sweep": d.sweep,
            "out_order": list(d.out_order),
            "smothered": [list(x) for x in d.smothered],
            "failed_burns": list(d.failed_burns),
            "revolted": list(d.revolted),
        }

    def seat_ready(self, index: int) -> bool:
        """Whether a seat is ready for the next deal: it said so, or it is a bot's, empty or on 托管."""
        s = self.seats[index]
        return self.ready is not None and (self.ready[index] or s.bot is not None or s.nickname is None or s.auto)

    def ready_info(self) -> dict[str, Any] | None:
        """``table.ready``: None while play goes on; between two deals the seats' readiness and the deadline
        (epoch milliseconds, or None: no ready timeout)."""
        if self.ready is None:
            return None
        return {
            "seats": [self.seat_ready(i) for i in range(SEATS)],
            "deadline": None if self.deadline is None else int(self.deadline * 1000),
        }

    def human_seats(self) -> list[Seat]:
        return [s for s in self.seats if s.bot is None]

    def seat_of_token(self, token: str) -> int | None:
        """The seat this token holds, or None (compared in constant time)."""
        h = token_hash(token)
        found = None
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                found = s.index
        return found

    # ------------------------------------------------------------------ the one way to change a table

    def commit(
        self, kind: str, seat: int | None = None, data: dict[str, Any] | None = None, action: Action | None = None
    ) -> None:
        """Apply one change (raises, changing nothing, if the engine refuses an action), number it, store
        it, restart the timer and send every connection its view.  An ``act`` gives its ``action`` as the
        engine's action (stored as its text, ``data["action"]``), or as that text alone (a replayed event),
        which is parsed."""
        data = data or {}
        if action is not None:
            data = {"action": str(action), **data}
        records = self._apply(kind, seat, data, action)
        self.state += 1
        if kind in DECISION_KINDS:
            self.decision = self.state
        if kind != "act":
            self._seats_version += 1
        if self.replaying:
            self.stored = self.state
            self.replayed_records.extend((k, i, b, self.players()) for k, i, b in records)
            return
        self.last_change = time.monotonic()
        if self.writer is not None:
            ops: list[Op] = [EventOp(self.id, self.state, kind, seat, data)]
            if records:
                ops += [RecordOp(self.id, k, i, self.players(), body) for k, i, body in records]
            if self.status in ("over", "closed") and kind in ("act", "close"):
                ops.append(StatusOp(self.id, self.status))
            state = self.state
            self.writer.commit(ops, lambda: self._stored_to(state))
        else:
            self.stored = self.state
        if self._resolving:
            return  # a window's answers: one frame after the last of them (_resolve)
        self._reschedule()
        self.broadcast()
        self._maybe_resume()

    def players(self) -> list[dict[str, Any]]:
        """Who sits where, as a record stores it."""
        return [{"seat": s.index, "nickname": s.nickname, "bot": s.bot} for s in self.seats]

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

    def _maybe_resume(self) -> None:
        """End the pause between two deals once every seat is ready (a change of its own)."""
        if self.replaying or self.ready is None or self.status != "playing":
            return
        if all(self.seat_ready(i) for i in range(SEATS)):
            self.commit("resume", None, {"by": "ready"})

    def _apply(
        self, kind: str, seat: int | None, data: dict[str, Any], action: Action | None
    ) -> list[tuple[str, int | None, RecordBody]]:
        """Apply one change to the table; the records it makes to store (a deal's end makes some)."""
        records: list[tuple[str, int | None, RecordBody]] = []
        if kind == "act":
            assert seat is not None
            m = self.match
            deal_index = len(m.deals) - 1
            m.act(data["action"] if action is None else action, seat=seat)
            by = data.get("by", "player")
            s = self.seats[seat]
            if s.bot is None and ((by == "timeout" and not s.auto) or (by == "player" and s.auto)):
                s.auto = by == "timeout"
                self._seats_version += 1
            if m.deals[deal_index].is_over:
                records = self.finished_records(deal_index)
                if m.is_over:
                    self.status = "over"
                else:
                    self.ready = [False] * SEATS  # the next deal waits for the players
        elif kind == "join":
            assert seat is not None
            s = self.seats[seat]
            s.nickname, s.token_hash, s.auto = data["nickname"], data["token_hash"], False
        elif kind == "leave":
            assert seat is not None
            s = self.seats[seat]
            s.nickname = s.token_hash = None
            s.auto = False
        elif kind == "auto":
            assert seat is not None
            self.seats[seat].auto = bool(data["on"])
        elif kind == "ready":
            assert seat is not None
            if self.ready is not None:
                self.ready[seat] = True
        elif kind == "resume":
            self.ready = None
        elif kind == "start":
            self.status = "playing"
        elif kind == "close":
            self.status = "closed"
        else:  # pragma: no cover - events are written by this class only
            raise ValueError(f"unknown table event {kind!r}")
        return records

    def finished_records(self, deal_index: int) -> list[tuple[str, int | None, RecordBody]]:
        """The records to store when deal ``deal_index`` ends: the set up to that deal, and the whole set when
        it was the last (a table of a duplicate match stores none: its match stores the match's) — as their
        JSON text, which the writer parses (off the event loop)."""
        record = self.match.record_text(deal_index)
        out: list[tuple[str, int | None, RecordBody]] = [("deal", deal_index, record)]
        if self.match.is_over:
            out.append(("set", None, record))  # (the set up to its last deal is the whole set: built once)
        return out

    @staticmethod
    def read_config(stored: dict[str, Any]) -> TableConfig:
        """The table's configuration from its stored form."""
        return TableConfig.from_dict(stored)

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

    # ------------------------------------------------------------------ what connections get

    def attach(self, conn: Connection, seat: int | None, token_h: str | None) -> None:
        """A connection said hello: send it who it is and the full view."""
        conn.seat, conn.token_hash, conn.room = seat, token_h, self
        before = self.offline()
        self.conns.add(conn)
        nickname = self.seats[seat].nickname if seat is not None else None
        conn.send(P.welcome_frame(self.code, seat, nickname))
        conn.send(self.state_frame(seat, full=True))
        self._presence(before, conn)

    def detach(self, conn: Connection) -> None:
        before = self.offline()
        self.conns.discard(conn)
        self._presence(before)

    # ------------------------------------------------------------------ presence (issue 29)

    def offline(self) -> tuple[int, ...]:
        """The people's seats with no connection at the table (断线): public, as who holds a seat is."""
        online = {c.seat for c in self.conns}
        return tuple(s.index for s in self.seats if s.bot is None and s.nickname is not None and s.index not in online)

    def _presence(self, before: tuple[int, ...], new: Connection | None = None) -> None:
        """Tell the connections (but ``new``, whose full frame said it) when a connection came or went changed
        the offline seats: a ``presence`` frame, after the frames made before it; every later frame's table
        says it too."""
        offline = self.offline()
        if offline == before:
            return
        text = P.dumps(P.presence_frame(offline))
        for conn in list(self.conns):
            if conn is not new:
                self.deliver(conn, text)

    def _new_events(self) -> list[tuple[int, dict[str, Any]]]:
        deal_i, n = self._cursor
        deals = self.match.deals
        out: list[tuple[int, dict[str, Any]]] = []
        for i in range(deal_i, len(deals)):
            evs = deals[i].events
            out.extend((i, e) for e in evs[n if i == deal_i else 0 :])
        self._cursor = (len(deals) - 1, len(deals[-1].events))
        return out

    def broadcast(self) -> None:
        """Send every connection the view of its own seat (spectators the public view).

        Each seat's frame text is made once per change (:class:`_Frames`: the parts every seat shares are
        encoded once) and written to every connection of that seat."""
        new = self._new_events()
        if not self.conns:
            return
        frames = _Frames(self, new)
        texts: dict[int | None, str] = {}
        out: list[_Delivery] = []
        for conn in self.conns:
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = frames.text(conn.seat)
            out.append((conn, text))
        if self.stored >= self.state and not self._outbox:
            for conn, frame in out:
                _write(conn, frame)
        else:
            self._outbox.append((self.state, out))

    def own_hand(self, seat: int, hands: list[list[int]]) -> tuple[int, str]:
        """Seat ``seat``'s card count and its hand (of the current deal's ``hands``) as JSON text, encoded
        again only when the hand changed."""
        counts = hands[seat]
        cached = self._hands.get(seat)
        if cached is None or cached[0] != counts:
            cached = self._hands[seat] = (list(counts), _json(C.format_counts(counts)), sum(counts))
        return cached[2], cached[1]

    def state_frame(
        self,
        seat: int | None,
        events: Iterable[tuple[int, dict[str, Any]]] = (),
        full: bool = False,
    ) -> dict[str, Any]:
        """``state``: the seat's view of the current deal, the table, the turn, and the public events since
        the last frame.  ``full`` frames (on hello and sync) carry instead the whole log of the current deal
        in ``view.log``, and the parts that never change: ``view.rule_options`` and ``table.config``.

        (:meth:`broadcast` makes the text of the same incremental frames for every seat at once.)"""
        view = self.sent_view(seat, full)
        table = self.public(config=full)
        turn = self.turn_info(seat, bool(view["burn_offer"]))
        frame: dict[str, Any] = {
            "type": "state",
            "v": P.VERSION,
            "state": self.state,
            "full": full,
            "table": table,
            "deal": len(self.match.deals) - 1,
            "view": view,
            "turn": turn,
        }
        if not full:
            frame["events"] = [{**Deal.public_event(e, seat), "deal": i} for i, e in events]
        return frame

    def sent_view(self, seat: int | None, full: bool) -> dict[str, Any]:
        """The seat's view as a frame sends it: with the log and the rule options in full frames only,
        without ``played`` at a table without the card counter (记牌器)."""
        view = self.match.current.view(seat, log=full)
        if not self.config.card_counter:
            del view["played"]
        if not full:
            del view["rule_options"]  # in full frames only: they do not change
        return view

    def turn_info(self, seat: int | None, burn_offer: bool) -> dict[str, Any]:
        """Who is to act; for a seat its window asks, what it may do and until when.

        Everyone sees the event's seats (``seats``, in the engine's order: the seats offered a burn, or
        answering a revolution or a 买四 round; else the seat to act) and its ``kind`` — never who of them
        was prompted.  A seat asked to choose gets ``legal_count`` and its choices, with ``seat`` set to
        itself and its ``deadline``; a seat whose one answer is given for it gets ``forced`` (that answer);
        one that answered already gets ``answered``."""
        to_act = self.match.to_act if self.status == "playing" and self.ready is None else None
        w = self.window if to_act is not None else None
        turn: dict[str, Any] = {
            "seat": to_act,
            "decision": None if to_act is None else self.decision,
            "deadline": None,
            "auto": None if to_act is None else (self.seats[to_act].bot is not None or self.seats[to_act].auto),
        }
        if w is not None:
            turn["kind"] = w.kind
            turn["seats"] = list(w.seats)
            turn["countdown"] = self.countdown
        if seat is None or self._resolving or seat not in (w.seats if w is not None else [to_act]):
            return turn  # (while a window's answers are fed to the engine nobody is asked anything)
        if w is not None and seat not in w.asked:
            if seat in w.prompted:
                turn["answered"] = str(w.answers[seat][0])
            elif seat in w.answers and w.answers[seat][1] == "forced":
                turn["forced"] = str(w.answers[seat][0])
            return turn
        turn["seat"] = seat
        turn["auto"] = self.seats[seat].bot is not None or self.seats[seat].auto  # of this seat, as `seat` is
        turn["deadline"] = None if w is None or w.deadline is None else int(w.deadline * 1000)
        deal = self.match.current
        legal = deal.legal_actions_of(seat)
        n = len(legal)
        turn["legal_count"] = n
        turn["can_pass"] = PASS in legal
        turn["can_yield"] = YIELD in legal
        turn["burn_offer"] = burn_offer
        if n <= CHOICES_CAP:
            turn["choices"] = legal.texts()
        else:
            turn["choices"] = None
            turn["sample"] = legal.texts(SAMPLE_SIZE)
            turn["legal"] = legal_set(legal)
        if deal.phase == "play":  # what a burn needs, from the seat's own hand (the page computes no rule)
            bie_san = deal.rules.bie_san
            if burn_offer:
                turn["burn_needs"] = burn_needs(deal.hands[seat], legal, bie_san)
            elif deal.burner == seat:
                turn["burn_left"] = burn_need(deal.hands[seat], bie_san)
        return turn

    # ------------------------------------------------------------------ intents

    def check_token(self, conn: Connection, token: str, ref: str | None = None) -> int:
        """The connection's seat, if ``token`` is that seat's current token; else a ProtocolError."""
        if conn.seat is None:
            raise P.ProtocolError(P.SPECTATOR, "a spectator cannot act", ref)
        held = self.seats[conn.seat].token_hash
        if held is None or conn.token_hash != held or not hmac.compare_digest(conn.hash_of(token), held):
            raise P.ProtocolError(P.UNAUTHORIZED, "this token does not hold your seat", ref)
        return conn.seat

    def intent(self, conn: Connection, msg: P.ClientMessage) -> None:
        """An ``act`` intent: refused with a ProtocolError saying why, changing nothing; or committed."""
        assert msg.token is not None and msg.action is not None
        seat = self.check_token(conn, msg.token, msg.id)
        if self.status == "waiting":
            raise P.ProtocolError(P.NOT_STARTED, "the table is waiting for players", msg.id)
        if self.status != "playing":
            raise P.ProtocolError(P.GAME_OVER, f"the table is {self.status}", msg.id)
        if self.ready is not None:
            raise P.ProtocolError(P.NOT_READY, "waiting for the players to be ready for the next deal", msg.id)
        if msg.decision is not None:
            if msg.decision != self.decision:
                raise P.ProtocolError(
                    P.STALE,
                    f"decision {msg.decision} was answered: the table is at decision {self.decision}",
                    msg.id,
                )
        elif msg.state != self.state:
            raise P.ProtocolError(P.STALE, f"state {msg.state} is stale: the table is at state {self.state}", msg.id)
        w = self.window
        if w is None or seat not in w.asked:
            if w is not None and seat in w.prompted:
                raise P.ProtocolError(P.NOT_YOUR_TURN, "you have answered this already", msg.id)
            raise P.ProtocolError(P.NOT_YOUR_TURN, f"it is seat {self.match.to_act}'s turn, not yours", msg.id)
        try:
            action = parse_action(msg.action)
        except InvalidAction as e:
            raise P.ProtocolError(P.ILLEGAL, str(e), msg.id) from None
        deal = self.match.current
        if action not in deal.legal_actions_of(seat):
            raise P.ProtocolError(P.ILLEGAL, deal.refusal(seat, action), msg.id)
        self._answer(w, seat, action, "player")

    def set_auto(self, conn: Connection, msg: P.ClientMessage) -> None:
        """托管 on or off for the connection's own seat."""
        assert msg.token is not None and msg.on is not None
        seat = self.check_token(conn, msg.token, msg.id)
        if self.status in ("over", "closed"):
            raise P.ProtocolError(P.GAME_OVER, f"the table is {self.status}", msg.id)
        if self.seats[seat].auto == msg.on:
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
        assert msg.token is not None
        seat = self.check_token(conn, msg.token, msg.id)
        if self.status == "waiting":
            raise P.ProtocolError(P.NOT_STARTED, "the table is waiting for players", msg.id)
        if self.status != "playing":
            raise P.ProtocolError(P.GAME_OVER, f"the table is {self.status}", msg.id)
        if self.ready is None or self.ready[seat]:
            conn.send(self.state_frame(seat, full=False))
            return
        self.commit("ready", seat)

    # ------------------------------------------------------------------ timers and bots

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
        if self.status != "playing" or self.match.to_act is None:
            self.cancel_timer()
            return
        wkey = (len(self.match.deals) - 1, self.match.current.decisions)
        if self.window is not None and self.window.key == wkey:
            return
        self.cancel_timer()
        self._open_window(wkey)

    def _open_window(self, key: tuple[int, int]) -> None:
        deal = self.match.current
        loop = asyncio.get_running_loop()
        now = loop.time()
        mask = self.config.bot_delay
        w = Window(key, window_kind(deal), deal.window(), now, now + mask, deal.phase, len(deal.events))
        for s in w.seats:
            legal = deal.legal_actions_of(s)
            seat = self.seats[s]
            person = seat.bot is None and not seat.auto
            w.choice = w.choice or len(legal) > 1
            if len(legal) == 1 and not (person and seat.ask_single and seat.nickname is not None):
                w.answers[s] = (legal[0], "forced")
            elif not person:
                w.thinking.append(s)  # the window's task has the bot think (on the bots' thread)
            else:
                w.asked.add(s)
                w.prompted.add(s)
        if w.asked and self.config.turn_seconds is not None:
            w.deadline = time.time() + self.config.turn_seconds
            self.deadline = w.deadline
        self.countdown = _countdown(self, w.seats)
        self.window = w
        self._pace(w)
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
        self._pace(w)
        wait = w.until - loop.time()
        if wait > 0:
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

    def _pace(self, w: Window) -> None:
        """Shorten the masking time of a window over no person's seat whose answers are in and all passes
        (:data:`PASS_PACE`)."""
        if not w.complete or not self._bots_passed(w):
            return
        # passes in a row show as one beat: the first takes the pass pace, those right after it none
        pace = 0.0 if self._pass_run else self.config.bot_delay * PASS_PACE
        w.until = min(w.until, w.opened + pace)

    def _bots_passed(self, w: Window) -> bool:
        """Whether the window is over no person's seat and its answers are all passes."""
        return (
            bool(w.answers)
            and not w.prompted
            and all(self.seats[s].bot is not None or self.seats[s].auto for s in w.seats)
            and all(a == PASS for a, _ in w.answers.values())
        )

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
        self.window = None
        self._pass_run = w.complete and self._bots_passed(w)
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        self._timer_key = None
        self.deadline = None
        elapsed = asyncio.get_running_loop().time() - w.opened
        self.timings.append(w.kind, elapsed, bool(w.prompted), w.choice)
        self._resolving = True
        try:
            for i, s in enumerate(w.seats):
                deal = self.match.current
                if len(self.match.deals) - 1 != w.key[0] or deal.window() != w.seats[i:]:
                    break  # an answer ended the event: the rest are void
                if i and (deal.phase != w.phase or any(e["type"] == "void" for e in deal.events[w.events_at :])):
                    break  # the deal was voided (a second revolution) and dealt again: a new event asks the rest
                action, by = w.answers[s]
                try:
                    self.commit("act", s, {"by": by}, action)
                except IllegalAction:
                    log.exception("an answer was refused at table %s; playing the first legal one", self.code)
                    first = deal.legal_actions()[0]
                    self.commit("act", s, {"by": by}, first)
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


def _json(value: Any) -> str:
    """Any JSON-serialisable value as compact text (as :func:`protocol.dumps` writes frames)."""
    return orjson.dumps(value).decode("utf-8")


class _Frames:
    """The texts of one change's incremental ``state`` frames, seat by seat (:meth:`Room.broadcast`).

    A seat's frame differs from the public one only in the view's ``seat``, that seat's own card count and
    ``hand`` (``shown`` too, where a hand was shown in 无级自开: such a view is made whole), the turn of a seat
    the open window asks, and the events that are not the same for every seat (a deal's hands, a 还贡's
    cards).  So the table, the public view (but its players), each player's entry and the public turn and
    events are encoded once, and each seat's text is put together from them — the same JSON, as
    :meth:`Room.state_frame` makes it, but for the order of the view's keys."""

    def __init__(self, room: Room, events: list[tuple[int, dict[str, Any]]]) -> None:
        self.room, self.events = room, events
        view = room.sent_view(None, full=False)
        self.players: list[dict[str, Any]] = view.pop("players")
        del view["seat"]
        self.burn_offer = bool(view["burn_offer"])
        self.turn = room.turn_info(None, self.burn_offer)
        self.head = (
            f'{{"type":"state","v":{P.VERSION},"state":{room.state},"full":false,'
            f'"table":{room.table_text()},"deal":{len(room.match.deals) - 1}'
        )
        self.rest = P.dumps(view)[1:]
        self.players_text = P.dumps(self.players)[1:-1]
        self._player_texts: list[str] | None = None
        self.turn_text = P.dumps(self.turn)
        same = True
        for _, e in events:
            if not Deal.event_same_for_all(e):
                same = False
                break
        self.events_text = _json([{**e, "deal": i} for i, e in events]) if same else None
        self.whole = bool(room.match.current.shown)
        self.hands = room.match.current.hands

    def text(self, seat: int | None) -> str:
        room = self.room
        if seat is None:
            view = f'{{"seat":null,"players":[{self.players_text}],{self.rest}'
        elif self.whole:
            view = P.dumps(room.sent_view(seat, full=False))
        else:
            n, hand = room.own_hand(seat, self.hands)
            players = self.players_text
            if self.players[seat]["cards"] != n:  # (its own count is public already where counts are shown)
                if self._player_texts is None:
                    self._player_texts = [P.dumps(p) for p in self.players]
                mine = list(self._player_texts)
                mine[seat] = P.dumps({**self.players[seat], "cards": n})
                players = ",".join(mine)
            view = f'{{"seat":{seat},"players":[{players}],{self.rest[:-1]},"hand":{hand}}}'
        turn = self.turn_text
        if seat is not None and (seat == self.turn["seat"] or seat in self.turn.get("seats", ())):
            turn = P.dumps(room.turn_info(seat, self.burn_offer))
        events = self.events_text
        if events is None:
            events = _json([{**Deal.public_event(e, seat), "deal": i} for i, e in self.events])
        return f'{self.head},"view":{view},"turn":{turn},"events":{events}}}'
