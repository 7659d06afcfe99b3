"""Tables (rooms): a :class:`~gouji.match.Match`, six seats, tokens, timers, auto-play (托管) and broadcast.

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
import hashlib
import hmac
import json
import logging
import math
import random
import secrets
import time
from collections.abc import Callable, Coroutine, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..actions import PASS, YIELD, InvalidAction, parse_action
from ..bots import BOTS, Bot, decide, make_bot
from ..deal import SEATS, Deal, IllegalAction
from ..match import Match
from ..rules import PRESETS, RuleSet, UnknownRules
from . import protocol as P
from .storage import StoredTable, Writer

log = logging.getLogger("gouji.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Join codes: no 0/O, 1/I/L, so a code read aloud or copied by hand comes through."""
CODE_LENGTH = 6
CHOICES_CAP = 64
"""Legal actions are listed in full up to this many; past it a frame carries the count and a sample."""
SAMPLE_SIZE = 16
MAX_NICKNAME = 24
MAX_SET_LENGTH = 20
AUTO_BOT = "heuristic"
"""The bot that plays for a seat on auto-play (托管), if registered; else ``random``."""


class RequestError(ValueError):
    """A request the lobby refuses: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def token_hash(token: str) -> str:
    """The stored form of a secret token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A new secret token (192 random bits)."""
    return secrets.token_urlsafe(24)


def auto_bot_name() -> str:
    """``heuristic`` when it is registered, else ``random``."""
    return AUTO_BOT if AUTO_BOT in BOTS else "random"


def valid_nickname(value: Any) -> str:
    """A nickname: 1-24 printable characters after trimming; raises :class:`RequestError`."""
    if not isinstance(value, str):
        raise RequestError(400, "nickname must be a string")
    name = value.strip()
    if not 1 <= len(name) <= MAX_NICKNAME or not name.isprintable():
        raise RequestError(400, f"nickname must be 1-{MAX_NICKNAME} printable characters")
    return name


# ------------------------------------------------------------------------------------------ configuration


@dataclass(frozen=True)
class TableConfig:
    """What a table is created with; stored with it (the seed never leaves the server)."""

    preset: str
    rules: dict[str, Any]
    seed: int
    set_length: int
    turn_seconds: float | None
    bot_delay: float
    bots: tuple[str | None, ...]
    ready_seconds: float | None = None
    """How long the pause between two deals of a set waits for the players to be ready (None: no limit)."""
    card_counter: bool = True
    """记牌器: whether the table shows the cards played so far (the views' ``played``)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "rules": self.rules,
            "seed": self.seed,
            "set_length": self.set_length,
            "turn_seconds": self.turn_seconds,
            "bot_delay": self.bot_delay,
            "bots": list(self.bots),
            "ready_seconds": self.ready_seconds,
            "card_counter": self.card_counter,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TableConfig:
        return cls(
            preset=d["preset"],
            rules=dict(d["rules"]),
            seed=int(d["seed"]),
            set_length=int(d["set_length"]),
            turn_seconds=None if d["turn_seconds"] is None else float(d["turn_seconds"]),
            bot_delay=float(d["bot_delay"]),
            bots=tuple(d["bots"]),
            ready_seconds=_ready_seconds(d),
            card_counter=bool(d.get("card_counter", True)),
        )

    def public(self) -> dict[str, Any]:
        """Everything but the seed."""
        d = self.to_dict()
        del d["seed"]
        return d

    def new_match(self) -> Match:
        return Match(RuleSet.from_dict(self.rules), seed=self.seed, set_length=self.set_length)


def _ready_seconds(d: Mapping[str, Any]) -> float | None:
    """A stored configuration's ready timeout; one stored before it existed has the turn time."""
    value = d["ready_seconds"] if "ready_seconds" in d else d["turn_seconds"]
    return None if value is None else float(value)


def _number(value: Any, name: str, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RequestError(400, f"{name} must be a number")
    if not lo <= value <= hi:
        raise RequestError(400, f"{name} must be between {lo} and {hi}")
    return float(value)


def parse_table_request(
    data: Any, default_turn: float | None, default_bot_delay: float, default_ready: float | None = None
) -> TableConfig:
    """Validate a table creation request (``POST /api/tables``); raises :class:`RequestError`.

    The ready timeout (between two deals) is ``ready_seconds`` if given, else ``default_ready``, else the
    table's ``turn_seconds`` (no timeout when that is None too)."""
    if not isinstance(data, dict):
        raise RequestError(400, "the request body is a JSON object")
    known = {
        "preset",
        "options",
        "set_length",
        "turn_seconds",
        "ready_seconds",
        "bot_delay",
        "bots",
        "card_counter",
        "nickname",
        "seat",
    }
    unknown = set(data) - known
    if unknown:
        raise RequestError(400, f"unknown fields: {', '.join(sorted(unknown))}")
    preset = data.get("preset", "qingdao")
    if preset not in PRESETS:
        raise RequestError(400, f"preset must be one of {', '.join(PRESETS)}")
    base = RuleSet.preset(preset).to_dict()
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RequestError(400, "options must be an object of rule options")
    for key, value in options.items():
        if key not in base or key in ("name", "source"):
            raise RequestError(400, f"no rule option {key!r}")
        default = base[key]
        ok = isinstance(value, bool) if isinstance(default, bool) else isinstance(value, type(default))
        if isinstance(default, int) and not isinstance(default, bool):
            ok = isinstance(value, int) and not isinstance(value, bool)
        if not ok:
            raise RequestError(400, f"rule option {key!r} must be a {type(default).__name__}")
    try:
        rules = RuleSet.from_dict({**base, **options})
    except (UnknownRules, TypeError, ValueError) as e:
        raise RequestError(400, f"bad rule options: {e}") from None
    set_length = data.get("set_length", rules.set_length)
    if isinstance(set_length, bool) or not isinstance(set_length, int) or not 1 <= set_length <= MAX_SET_LENGTH:
        raise RequestError(400, f"set_length must be an integer from 1 to {MAX_SET_LENGTH}")
    turn = data.get("turn_seconds", default_turn)
    turn_seconds = None if turn is None else _number(turn, "turn_seconds", 0.05, 3600)
    bot_delay = _number(data.get("bot_delay", default_bot_delay), "bot_delay", 0, 10)
    ready = data.get("ready_seconds")
    if ready is None:
        ready = default_ready if default_ready is not None else turn_seconds
    ready_seconds = None if ready is None else _number(ready, "ready_seconds", 0.05, 3600)
    bots_in = data.get("bots", [None] * SEATS)
    if isinstance(bots_in, dict):
        seats: list[str | None] = [None] * SEATS
        for k, v in bots_in.items():
            if not (isinstance(k, str) and k.isdigit() and 0 <= int(k) < SEATS):
                raise RequestError(400, "bots: keys are seats 0-5")
            seats[int(k)] = v
        bots_in = seats
    if not isinstance(bots_in, list) or len(bots_in) != SEATS:
        raise RequestError(400, "bots must be a list of six entries (a bot name or null) or an object seat → bot")
    for b in bots_in:
        if b is not None and b not in BOTS:
            raise RequestError(400, f"no bot {b!r}; the bots are {', '.join(sorted(BOTS))}")
    card_counter = data.get("card_counter", True)
    if not isinstance(card_counter, bool):
        raise RequestError(400, "card_counter must be true or false")
    config = TableConfig(
        preset=preset,
        rules=rules.to_dict(),
        seed=secrets.randbelow(2**63),
        set_length=set_length,
        turn_seconds=turn_seconds,
        bot_delay=bot_delay,
        bots=tuple(bots_in),
        ready_seconds=ready_seconds,
        card_counter=card_counter,
    )
    try:
        config.new_match()
    except (UnknownRules, ValueError) as e:  # pragma: no cover - the options were checked one by one
        raise RequestError(400, f"these options cannot be played: {e}") from None
    return config


# ------------------------------------------------------------------------------------------ connections


SendText = Callable[[str], Coroutine[Any, Any, None]]
"""How a connection writes one text frame (``WebSocket.send_text``)."""


class Connection:
    """One WebSocket connection's outgoing side.

    A frame is written at once when nothing is waiting to be written before it: the write is started right
    where the frame was made (the socket's send completes without waiting while the socket takes data), so a
    change reaches six connections without waking six tasks.  A write that has to wait (the client reads too
    slowly), and every frame after it, goes through a bounded queue that the connection's writer task
    (:meth:`run_writer`) empties in order.  A connection that lets its queue fill is dropped rather than let
    it hold the table back; it can reconnect and get the full view.

    Without ``send`` (tests) frames only queue, for :meth:`run_writer` or the test to take.
    """

    def __init__(self, limit: int = 512, send: SendText | None = None) -> None:
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.room: Room | None = None
        self.queue: asyncio.Queue[str | _RestOfWrite | None] = asyncio.Queue(maxsize=limit)
        self.dropped = False
        self.ended = False
        self.close_code = 1000
        self._send = send
        self._queued = False
        """Whether frames wait in (or are being written from) the queue: new frames must queue behind them."""

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
        self.push(P.dumps(frame))

    def end(self) -> None:
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


# ------------------------------------------------------------------------------------------ seats and rooms


@dataclass
class Seat:
    """A seat: a bot's, or a person's (held by a nickname and a token) or vacant."""

    index: int
    bot: str | None
    nickname: str | None = None
    token_hash: str | None = None
    auto: bool = False

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "bot": self.bot,
            "nickname": self.nickname,
            "held": self.bot is not None or self.nickname is not None,
            "auto": self.auto,
        }


@dataclass
class _Pending:
    """Events waiting for the writer, and records to store, produced by one commit."""

    records: list[tuple[str, int | None, dict[str, Any]]] = field(default_factory=list)


_Shared = tuple[dict[str, Any], dict[str, Any], dict[str, Any], list[dict[str, Any]] | None]
""":meth:`Room._shared_parts`: the table, the public view, the public turn and the new events if the same
for every seat."""


class Room:
    """A table: a set being played, its seats and connections, its turn timer.

    ``status`` is ``waiting`` (for people to take the seats), ``playing``, ``over`` (the set ended) or
    ``closed`` (by its creator).  ``state`` is the number of changes so far.

    Between two deals of a set the table pauses (``ready`` is not None): no timer but the ready timeout
    runs, no bot acts and ``act`` is refused until every seat is ready (``ready`` intents; bot, empty and
    托管 seats count as ready) or the timeout ends the pause (a ``resume`` event).
    """

    def __init__(
        self, table_id: int, code: str, config: TableConfig, owner_hash: str, writer: Writer | None = None
    ) -> None:
        self.id = table_id
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
        self._auto_bot: Bot = make_bot(auto_bot_name())
        self._rng = random.Random(secrets.randbits(64))
        self._timer: asyncio.Task[None] | None = None
        self._timer_key: tuple[Any, ...] | None = None
        self.deadline: float | None = None
        """Epoch seconds when the seat to act is auto-played, or None."""
        self._cursor = (0, 0)
        """(deal index, events of that deal) sent to the connections so far."""
        self.replaying = False
        self.ready: list[bool] | None = None
        """Between two deals: which seats said they are ready; None while play goes on."""

    # ------------------------------------------------------------------ public data

    def public(self, config: bool = True) -> dict[str, Any]:
        """The table as everyone may see it (``config=False``: without the configuration)."""
        m = self.match
        out: dict[str, Any] = {
            "code": self.code,
            "status": self.status,
            "state": self.state,
            "seats": [s.public() for s in self.seats],
            "deal": len(m.deals) - 1,
            "deals_over": len(m.points),
            "points": [list(p) for p in m.points],
            "totals": list(m.totals),
            "ready": self.ready_info(),
        }
        if config:
            out["config"] = self.config.public()
        return out

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

    def commit(self, kind: str, seat: int | None = None, data: dict[str, Any] | None = None) -> None:
        """Apply one change (raises, changing nothing, if the engine refuses an action), number it, store
        it, restart the timer and send every connection its view."""
        data = data or {}
        pending = self._apply(kind, seat, data)
        self.state += 1
        if self.replaying:
            return
        if self.writer is not None:
            self.writer.post_event(self.id, self.state, kind, seat, data)
            for rkind, index, body in pending.records:
                players = [{"seat": s.index, "nickname": s.nickname, "bot": s.bot} for s in self.seats]
                self.writer.post(self.writer.store.add_record, self.id, rkind, index, players, body)
            if self.status in ("over", "closed") and kind in ("act", "close"):
                self.writer.post(self.writer.store.set_status, self.id, self.status)
        self._reschedule()
        self.broadcast()
        self._maybe_resume()

    def _maybe_resume(self) -> None:
        """End the pause between two deals once every seat is ready (a change of its own)."""
        if self.replaying or self.ready is None or self.status != "playing":
            return
        if all(self.seat_ready(i) for i in range(SEATS)):
            self.commit("resume", None, {"by": "ready"})

    def _apply(self, kind: str, seat: int | None, data: dict[str, Any]) -> _Pending:
        pending = _Pending()
        if kind == "act":
            assert seat is not None
            m = self.match
            deal_index = len(m.deals) - 1
            m.act(data["action"], seat=seat)
            by = data.get("by", "player")
            if self.seats[seat].bot is None:
                if by == "timeout":
                    self.seats[seat].auto = True
                elif by == "player":
                    self.seats[seat].auto = False
            if m.deals[deal_index].is_over:
                pending.records.append(("deal", deal_index, deal_record(m, deal_index)))
                if m.is_over:
                    pending.records.append(("set", None, m.record()))
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
        return pending

    @classmethod
    def replay(cls, stored: StoredTable, writer: Writer | None) -> Room:
        """Rebuild a table from its stored configuration and events (after a restart)."""
        room = cls(stored.id, stored.code, TableConfig.from_dict(stored.config), stored.owner_hash, writer)
        room.replaying = True
        for ev in stored.events:
            room.commit(ev["kind"], ev["seat"], ev["data"])
            room.state = ev["state"]
        room.replaying = False
        room._cursor = (len(room.match.deals) - 1, len(room.match.current.events))
        return room

    # ------------------------------------------------------------------ what connections get

    def attach(self, conn: Connection, seat: int | None, token_h: str | None) -> None:
        """A connection said hello: send it who it is and the full view."""
        conn.seat, conn.token_hash, conn.room = seat, token_h, self
        self.conns.add(conn)
        nickname = self.seats[seat].nickname if seat is not None else None
        conn.send(P.welcome_frame(self.code, seat, nickname))
        conn.send(self.state_frame(seat, full=True))

    def detach(self, conn: Connection) -> None:
        self.conns.discard(conn)

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

        The parts of a frame that do not depend on the seat (the table, the public view, the turn) are
        built once and shared by the frames of every seat."""
        new = self._new_events()
        if not self.conns:
            return
        shared = self._shared_parts(new)
        texts: dict[int | None, str] = {}
        for conn in list(self.conns):
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = P.dumps(self.state_frame(conn.seat, events=new, shared=shared))
            conn.push(text)

    def _shared_parts(self, events: list[tuple[int, dict[str, Any]]]) -> _Shared:
        """What every seat's incremental frame of the current state shares: the table (without its
        configuration), the public view of the deal (as sent: without ``rule_options``, without ``played``
        at a table without the card counter), the public part of the turn, and the new events as everyone
        sees them if no seat sees them otherwise (else None)."""
        view = self.match.current.view(None, log=False)
        if not self.config.card_counter:
            del view["played"]
        del view["rule_options"]
        same = all(Deal.event_same_for_all(e) for _, e in events)
        shared_events = [{**e, "deal": i} for i, e in events] if same else None
        return self.public(config=False), view, self.turn_info(None, bool(view["burn_offer"])), shared_events

    def state_frame(
        self,
        seat: int | None,
        events: Iterable[tuple[int, dict[str, Any]]] = (),
        full: bool = False,
        shared: _Shared | None = None,
    ) -> dict[str, Any]:
        """``state``: the seat's view of the current deal, the table, the turn, and the public events since
        the last frame.  ``full`` frames (on hello and sync) carry instead the whole log of the current deal
        in ``view.log``, and the parts that never change: ``view.rule_options`` and ``table.config``.

        ``shared`` (for incremental frames only) is :meth:`_shared_parts` of the current state, to build the
        frame from rather than anew."""
        deal = self.match.current
        if shared is None or full:
            view = deal.view(seat, log=full)
            if not self.config.card_counter:
                del view["played"]  # a table without the card counter (记牌器) does not send it
            if not full:
                del view["rule_options"]  # in full frames only: they do not change
            table = self.public(config=full)
            turn = self.turn_info(seat, bool(view["burn_offer"]))
        else:
            table, public_view, public_turn, _ = shared
            view = public_view if seat is None else _seat_view(deal, public_view, seat)
            turn = public_turn
            if seat is not None and seat == public_turn["seat"]:
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
            if shared is not None and shared[3] is not None:
                frame["events"] = shared[3]
            else:
                frame["events"] = [{**Deal.public_event(e, seat), "deal": i} for i, e in events]
        return frame

    def turn_info(self, seat: int | None, burn_offer: bool) -> dict[str, Any]:
        """Who is to act and until when; for the seat to act, what it may do."""
        to_act = self.match.to_act if self.status == "playing" and self.ready is None else None
        turn: dict[str, Any] = {
            "seat": to_act,
            "deadline": None if self.deadline is None or to_act is None else int(self.deadline * 1000),
            "auto": None if to_act is None else (self.seats[to_act].bot is not None or self.seats[to_act].auto),
        }
        if to_act is not None and seat == to_act:
            deal = self.match.current
            legal = deal.legal_actions()
            n = len(legal)
            turn["legal_count"] = n
            turn["can_pass"] = PASS in legal
            turn["can_yield"] = YIELD in legal
            turn["burn_offer"] = burn_offer
            if n <= CHOICES_CAP:
                turn["choices"] = legal.texts()
            else:
                turn["choices"] = None
                turn["sample"] = [str(a) for a in legal[:SAMPLE_SIZE]]
        return turn

    # ------------------------------------------------------------------ intents

    def check_token(self, conn: Connection, token: str, ref: str | None = None) -> int:
        """The connection's seat, if ``token`` is that seat's current token; else a ProtocolError."""
        if conn.seat is None:
            raise P.ProtocolError(P.SPECTATOR, "a spectator cannot act", ref)
        held = self.seats[conn.seat].token_hash
        if held is None or conn.token_hash != held or not hmac.compare_digest(token_hash(token), held):
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
        if msg.state != self.state:
            raise P.ProtocolError(P.STALE, f"state {msg.state} is stale: the table is at state {self.state}", msg.id)
        if self.match.to_act != seat:
            raise P.ProtocolError(P.NOT_YOUR_TURN, f"it is seat {self.match.to_act}'s turn, not yours", msg.id)
        try:
            action = str(parse_action(msg.action))
        except InvalidAction as e:
            raise P.ProtocolError(P.ILLEGAL, str(e), msg.id) from None
        try:
            self.commit("act", seat, {"action": action, "by": "player"})
        except IllegalAction as e:
            raise P.ProtocolError(P.ILLEGAL, str(e), msg.id) from None

    def set_auto(self, conn: Connection, msg: P.ClientMessage) -> None:
        """托管 on or off for the connection's own seat."""
        assert msg.token is not None and msg.on is not None
        seat = self.check_token(conn, msg.token, msg.id)
        if self.status in ("over", "closed"):
            raise P.ProtocolError(P.GAME_OVER, f"the table is {self.status}", msg.id)
        if self.seats[seat].auto == msg.on:
            conn.send(self.state_frame(seat, full=False))
            return
        self.commit("auto", seat, {"on": msg.on})

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
        key: tuple[Any, ...] | None = None
        mode = ""
        if self.status == "playing" and self.ready is not None:
            mode = "ready"
            key = ("ready", len(self.match.deals))
        elif self.status == "playing" and self.match.to_act is not None:
            s = self.match.to_act
            seat = self.seats[s]
            mode = "bot" if seat.bot is not None else "auto" if seat.auto else "person"
            key = (len(self.match.deals), self.match.current.decisions, s, mode)
        if key == self._timer_key:
            return
        self.cancel_timer()
        self._timer_key = key
        if key is None:
            return
        if mode == "person":
            if self.config.turn_seconds is None:
                return
            delay = self.config.turn_seconds
            self.deadline = time.time() + delay
        elif mode == "ready":
            if self.config.ready_seconds is None:
                return
            delay = self.config.ready_seconds
            self.deadline = time.time() + delay
        else:
            delay = self.config.bot_delay
        self._timer = asyncio.get_running_loop().create_task(self._fire(key, delay, mode))

    def cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._timer_key = None
        self.deadline = None

    async def _fire(self, key: tuple[Any, ...], delay: float, mode: str) -> None:
        await asyncio.sleep(delay)
        if self._timer_key != key or self.status != "playing":
            return
        self._timer = None
        self._timer_key = None
        self.deadline = None
        if mode == "ready":
            if self.ready is not None:
                self.commit("resume", None, {"by": "timeout"})
            return
        seat = self.match.to_act
        assert seat is not None
        by = "bot" if mode == "bot" else "auto" if mode == "auto" else "timeout"
        try:
            self.commit("act", seat, {"action": self._bot_action(seat), "by": by})
        except IllegalAction:
            log.exception("a bot chose an illegal action at table %s; playing the first legal one", self.code)
            self.commit("act", seat, {"action": str(self.match.legal_actions()[0]), "by": by})

    def _bot_action(self, seat: int) -> str:
        bot = self._bots.get(seat, self._auto_bot)
        try:
            return str(decide(bot, self.match.current, self._rng))
        except Exception:
            log.exception("bot %s failed at table %s; playing the first legal action", bot.name, self.code)
            return str(self.match.legal_actions()[0])

    def start_timers(self) -> None:
        """Start the turn timer (after a restore: timers start afresh); a restored pause between two deals
        whose seats are all ready by now ends."""
        self._reschedule()
        self._maybe_resume()

    def shut(self, reason: str) -> None:
        """Stop the timer and close every connection with a ``closed`` frame."""
        self.cancel_timer()
        frame = P.dumps(P.closed_frame(self.code, reason))
        for conn in list(self.conns):
            conn.push(frame)
            conn.end()
        self.conns.clear()


def _seat_view(deal: Deal, public_view: dict[str, Any], seat: int) -> dict[str, Any]:
    """Seat ``seat``'s view (without the log), made from the public one ``deal.view(None, log=False)``: it
    differs only in ``seat``, in that seat's own card count and in the seat's ``hand``, added last.  The
    public view's dicts are shared, not copied: the result is read, never changed."""
    view = dict(public_view)
    view["seat"] = seat
    players = list(view["players"])
    players[seat] = {**players[seat], "cards": deal.count_visible(seat, seat)}
    view["players"] = players
    view["hand"] = deal.hand(seat)
    return view


def deal_record(match: Match, index: int) -> dict[str, Any]:
    """The set's record up to and including finished deal ``index`` (a set record :func:`load_record`
    reads, with the later deals left out and the totals of these deals)."""
    body = {k: v for k, v in match.record().items() if k != "checksum"}
    body["deals"] = body["deals"][: index + 1]
    pts = match.points[: index + 1]
    body["totals"] = [sum(p[0] for p in pts), sum(p[1] for p in pts)]
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    body["checksum"] = "sha256:" + hashlib.sha256(canonical).hexdigest()
    return body


# ------------------------------------------------------------------------------------------ the lobby


class Lobby:
    """Every table in memory, by join code, and the operations of the HTTP API on them."""

    def __init__(
        self,
        writer: Writer,
        default_turn: float | None = 30.0,
        default_bot_delay: float = 0.5,
        max_tables: int = 2000,
        default_ready: float | None = None,
    ) -> None:
        self.writer = writer
        self.rooms: dict[str, Room] = {}
        self.default_turn = default_turn
        self.default_bot_delay = default_bot_delay
        self.default_ready = default_ready
        """The ready timeout between two deals of tables created without one (None: their turn time)."""
        self.max_tables = max_tables

    async def restore(self) -> int:
        """Load every open table from the store; returns how many."""
        stored = await self.writer.call(self.writer.store.open_tables)
        for st in stored:
            try:
                room = Room.replay(st, self.writer)
            except (IllegalAction, ValueError, KeyError, TypeError):
                log.exception("table %s cannot be restored", st.code)
                continue
            self.rooms[room.code] = room
            room.start_timers()
        return len(stored)

    def room(self, code: str) -> Room:
        room = self.rooms.get(code.upper())
        if room is None or room.status == "closed":
            raise RequestError(404, f"no open table {code!r}")
        return room

    async def _new_code(self) -> str:
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and not await self.writer.call(self.writer.store.code_taken, code):
                return code
        raise RequestError(503, "no free join code; try again")  # pragma: no cover

    async def create(self, data: Any) -> dict[str, Any]:
        """``POST /api/tables``: a new table; with ``nickname`` (and ``seat``) the creator takes a seat."""
        config = parse_table_request(data, self.default_turn, self.default_bot_delay, self.default_ready)
        if sum(1 for r in self.rooms.values() if r.status in ("waiting", "playing")) >= self.max_tables:
            raise RequestError(503, "the server has as many tables as it can hold")
        nickname = valid_nickname(data["nickname"]) if data.get("nickname") is not None else None
        code = await self._new_code()
        owner = new_token()
        table_id = await self.writer.call(self.writer.store.create_table, code, config.to_dict(), token_hash(owner))
        room = Room(table_id, code, config, token_hash(owner), self.writer)
        self.rooms[code] = room
        out: dict[str, Any] = {"code": code, "owner_token": owner}
        if nickname is not None:
            out.update(await self.join(code, {"nickname": nickname, "seat": data.get("seat")}))
        if room.status == "waiting" and not any(s.bot is None and s.nickname is None for s in room.seats):
            room.commit("start")
        await self.writer.drain()
        out["table"] = room.public()
        return out

    async def join(self, code: str, data: Any) -> dict[str, Any]:
        """``POST /api/tables/{code}/join``: take a seat by nickname; returns the seat and its secret token."""
        room = self.room(code)
        if not isinstance(data, dict):
            raise RequestError(400, "the request body is a JSON object")
        nickname = valid_nickname(data.get("nickname"))
        if room.status == "over":
            raise RequestError(409, "the set at this table is over")
        if any(s.nickname == nickname for s in room.seats):
            raise RequestError(409, f"{nickname!r} already sits at this table")
        want = data.get("seat")
        if want is not None:
            if isinstance(want, bool) or not isinstance(want, int) or not 0 <= want < SEATS:
                raise RequestError(400, "seat must be 0-5")
            s = room.seats[want]
            if s.bot is not None:
                raise RequestError(409, f"seat {want} is a bot's")
            if s.nickname is not None:
                raise RequestError(409, f"seat {want} is taken")
            seat = want
        else:
            free = [s.index for s in room.seats if s.bot is None and s.nickname is None]
            if not free:
                raise RequestError(409, "every seat is taken")
            seat = free[0]
        token = new_token()
        room.commit("join", seat, {"nickname": nickname, "token_hash": token_hash(token)})
        if room.status == "waiting" and not any(s.bot is None and s.nickname is None for s in room.seats):
            room.commit("start")
        await self.writer.drain()
        return {"code": room.code, "seat": seat, "token": token}

    async def leave(self, code: str, data: Any) -> dict[str, Any]:
        """``POST /api/tables/{code}/leave``: give up the seat the token holds."""
        room = self.room(code)
        token = data.get("token") if isinstance(data, dict) else None
        if not isinstance(token, str) or (seat := room.seat_of_token(token)) is None:
            raise RequestError(403, "this token holds no seat at this table")
        room.commit("leave", seat)
        for conn in [c for c in room.conns if c.seat == seat]:
            conn.send(P.closed_frame(room.code, "left"))
            conn.end()
            room.detach(conn)
        await self.writer.drain()
        return {"code": room.code, "seat": seat, "left": True}

    async def close(self, code: str, data: Any) -> dict[str, Any]:
        """``POST /api/tables/{code}/close``: the creator closes the table."""
        room = self.room(code)
        token = data.get("owner_token") if isinstance(data, dict) else None
        if not isinstance(token, str) or not hmac.compare_digest(token_hash(token), room.owner_hash):
            raise RequestError(403, "only the table's creator can close it")
        room.commit("close")
        room.shut("closed by its creator")
        del self.rooms[room.code]
        await self.writer.drain()
        return {"code": room.code, "closed": True}

    def shutdown(self) -> None:
        """Stop every timer and close every connection (the tables stay stored)."""
        for room in self.rooms.values():
            room.shut("server restart")
