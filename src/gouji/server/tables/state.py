"""A table's state and its changes, as a reducer: no I/O, no clock, no event loop.

A :class:`TableState` is a set being played (a :class:`~gouji.competition.sets.Match`), its six seats and
their tokens' hashes, its status, the number of changes so far (its **state**), the pause between two deals
and the decision window open now (:mod:`.window`).  Everything that changes it goes through :meth:`step`
(one change in: the state after it, and the writes that store it, out), :meth:`new_window` (a decision
asked: which seats answer at once, which are asked, which bots think — given the time, which the caller
reads) and the answers fed back (:meth:`feed_order`).  The intents of a connection are checked here too
(:meth:`check_act` …): a refused one raises a :class:`~.protocol.ProtocolError` and changes nothing.

What the connections are sent of it is :mod:`.frames`; the I/O around it — connections, timers, the
writer and the outbox, the bots' thread — is :class:`.table.Room`.  The same changes, replayed in order on a
new state, restore a table after a restart.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...engine.actions import PASS, Action, InvalidAction, parse_action
from ...engine.seats import SEATS
from ..config import TableConfig
from ..http.connection import Connection, token_hash
from ..messages import protocol as P
from ..storage import EventOp, Op, RecordBody, RecordOp, StatusOp
from .window import Window, WindowKey, window_kind

PASS_PACE = 0.25
"""A window over bots' seats alone (and people's on 托管) whose answers are all passes — 要不起, 不烧 — resolves
after this share of the masking time (0.1 s at 正常's 0.4 s), and the passes right after it at once (a run of
passes is one beat): the table does not hold every pass as long as a play.  The time depends on the answers
alone, which the frame shows at that moment, and a bot's forced pass and its chosen one take the same; a
window over a person's seat keeps the whole masking time."""

PLAY_PACE = 0.5
"""A window over bots' seats alone (and people's on 托管) whose answers hold a play resolves after this share of
the masking time (0.2 s at 正常's 0.4 s; issue 45).  The round's plays stay on the felt until the round ends,
so a person reads them when it is their turn, not in the bot's window.  The time depends on the answers
alone (a play, which the frame shows), and a bot's forced play and its chosen one take the same; a window
over a person's seat keeps the whole masking time."""

WATCH_PACE = 0.5
"""Once every person seated at the table is out of cards (and at least one is seated), the rest of the deal is
watched: each window's masking time is this share of the table's (a bot's play 0.2 s rather than 0.4 s at 正常).
Who is out is public, so the change of pace tells nothing of a hand."""

DECISION_KINDS = frozenset({"act", "start", "resume"})
"""The changes after which another decision is asked for (:attr:`TableState.decision`): an action taken, the
set started, play resumed after the pause between two deals.  Nothing else changes who must act or what they
may do — seats taken and left, 托管 switched, ready marks."""

Records = list[tuple[str, int | None, RecordBody]]
"""The records a change makes to store: (kind, deal index, body)."""


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
    account: str | None = None
    """The account the seat belongs to (its name), when a signed-in person took it (:mod:`.accounts`)."""
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
            "account": self.account is not None,
        }


class TableState:
    """A table's state: ``status`` is ``waiting`` (for people to take the seats), ``playing``, ``over`` (the
    set ended) or ``closed`` (by its creator); ``state`` is the number of changes so far.

    Between two deals of a set the table pauses (``ready`` is not None): no window opens and ``act`` is
    refused until every seat is ready (``ready`` changes; bot, empty and 托管 seats count as ready) or a
    ``resume`` change ends the pause."""

    def __init__(self, table_id: int, code: str, config: TableConfig, owner_hash: str) -> None:
        self.id = table_id
        self.code = code
        self.config = config
        self.owner_hash = owner_hash
        self.match = config.new_match()
        self.seats = [Seat(i, config.bots[i]) for i in range(SEATS)]
        self.status = "waiting"
        self.state = 0
        self.decision = 0
        """The decision the seat to act is asked for: the state number of the last change that asked for
        one (:data:`DECISION_KINDS`).  An ``act`` names it, so no other change makes a correct intent stale."""
        self.ready: list[bool] | None = None
        """Between two deals: which seats said they are ready; None while play goes on."""
        self.window: Window | None = None
        """The decision window open now (:mod:`gouji.server.tables.window`), or None."""
        self.deadline: float | None = None
        """Epoch seconds when the seat to act is auto-played, or the pause between two deals ends; or None
        (set by the table's timers: :class:`.table.Room`)."""
        self.countdown: int | None = None
        """Epoch milliseconds when the open window's time for people runs out, shown to everyone (issue 29): set
        for every window over a person's seat (not a bot's, not on 托管) when the table has a turn timer — from
        what is public alone (the seats, their kind, the timer, when the window opened), the same whether that
        person is asked or their one answer is given for them."""
        self._pass_run = False
        """Whether the last window resolved was bots' passes alone (the next such one takes no time)."""
        self._mask = config.bot_delay
        """The masking time of the window open now (:data:`WATCH_PACE` of the table's once it is watched)."""
        self._resolving = False
        """Whether a window's answers are being fed (nobody is asked anything meanwhile)."""
        self._seats_version = 0
        """Counts the changes that may change the seats or the table's status outside play (every change but
        an action, and an action that switched its seat's 托管) and the connections come and gone (who is
        offline, :meth:`.frames.TableFrames.offline`): a key of the public table's caches."""
        self._people_of: tuple[int, tuple[int, ...]] | None = None
        """(the seats' version it was worked out at, :meth:`people`)."""
        self.replaying = False
        self.replayed_records: list[tuple[str, int | None, RecordBody, list[dict[str, Any]]]] = []
        """While replaying: the records the replayed moves produced (kind, deal index, body, players)."""

    # ------------------------------------------------------------------ facts

    def seat_ready(self, index: int) -> bool:
        """Whether a seat is ready for the next deal: it said so, or it is a bot's, empty or on 托管."""
        s = self.seats[index]
        return self.ready is not None and (self.ready[index] or s.bot is not None or s.nickname is None or s.auto)

    def all_ready(self) -> bool:
        """Whether the pause between two deals may end (every seat is ready)."""
        return self.ready is not None and all(self.seat_ready(i) for i in range(SEATS))

    def people(self) -> tuple[int, ...]:
        """The seats a person holds (a nickname, no bot), worked out again only when the seats' version
        changed."""
        cached = self._people_of
        if cached is None or cached[0] != self._seats_version:
            held = tuple(s.index for s in self.seats if s.bot is None and s.nickname is not None)
            cached = self._people_of = (self._seats_version, held)
        return cached[1]

    def deals_shown(self) -> int:
        """How many of the set's deals may be shown whole (their hands, in a replay): every finished one here; a
        match's table only those both its tables finished."""
        return len(self.match.points)

    def records_at(self) -> tuple[int, int | None]:
        """Where this table's deals are stored: the stored table whose records hold them (this one) and, at a
        duplicate match, this table's number in the match's records (None here)."""
        return self.id, None

    def seat_of_token(self, token: str) -> int | None:
        """The seat this token holds, or None (compared in constant time)."""
        h = token_hash(token)
        found = None
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                found = s.index
        return found

    def players(self) -> list[dict[str, Any]]:
        """Who sits where, as a record stores it."""
        return [
            {"seat": s.index, "nickname": s.nickname, "bot": s.bot} | ({"account": s.account} if s.account else {})
            for s in self.seats
        ]

    # ------------------------------------------------------------------ the one way to change a table

    def step(
        self, kind: str, seat: int | None = None, data: dict[str, Any] | None = None, action: Action | None = None
    ) -> list[Op]:
        """Apply one change (raises, changing nothing, if the engine refuses an action) and number it; returns
        the writes that store it (none while replaying).  An ``act`` gives its ``action`` as the engine's
        action (stored as its text, ``data["action"]``), or as that text alone (a replayed event)."""
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
            self.replayed_records.extend((k, i, b, self.players()) for k, i, b in records)
            return []
        ops: list[Op] = [EventOp(self.id, self.state, kind, seat, data)]
        if records:
            ops += [RecordOp(self.id, k, i, self.players(), body) for k, i, body in records]
        if self.status in ("over", "closed") and kind in ("act", "close"):
            ops.append(StatusOp(self.id, self.status))
        return ops

    def _apply(self, kind: str, seat: int | None, data: dict[str, Any], action: Action | None) -> Records:
        """Apply one change to the table; the records it makes to store (a deal's end makes some)."""
        records: Records = []
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
            s.account = data.get("account")
        elif kind == "leave":
            assert seat is not None
            s = self.seats[seat]
            s.nickname = s.token_hash = s.account = None
            s.auto = False
        elif kind == "account":  # a guest's seat signed in: it belongs to the account from now on
            assert seat is not None
            self.seats[seat].account = data["account"]
        elif kind == "token":  # the seat's account took it on another device: a new token, the old one ends
            assert seat is not None
            self.seats[seat].token_hash = data["token_hash"]
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

    def finished_records(self, deal_index: int) -> Records:
        """The records to store when deal ``deal_index`` ends: the set up to that deal, and the whole set when
        it was the last (a table of a duplicate match stores none: its match stores the match's) — as their
        JSON text, which the writer parses (off the event loop)."""
        record = self.match.record_text(deal_index)
        out: Records = [("deal", deal_index, record)]
        if self.match.is_over:
            out.append(("set", None, record))  # (the set up to its last deal is the whole set: built once)
        return out

    @staticmethod
    def read_config(stored: dict[str, Any]) -> TableConfig:
        """The table's configuration from its stored form."""
        return TableConfig.from_dict(stored)

    # ------------------------------------------------------------------ decision windows

    def window_key(self) -> WindowKey | None:
        """The key of the window the table waits for now (None: it waits for no decision)."""
        if self.status != "playing" or self.ready is not None or self.match.to_act is None:
            return None
        return (len(self.match.deals) - 1, self.match.current.decisions)

    def new_window(self, key: WindowKey, now: float, wall: float) -> Window:
        """Open the window of the decision the deal waits for, at loop time ``now`` (epoch seconds ``wall``):
        a seat with one answer has it given, a bot's seat (or one on 托管) thinks, a person with a choice is
        asked — until ``wall`` plus the turn time, if the table has one."""
        deal = self.match.current
        mask = self._mask = self.config.bot_delay * (WATCH_PACE if self.watched(deal.hands) else 1.0)
        w = Window(key, window_kind(deal), deal.window(), now, now + mask, deal.phase, len(deal.events))
        people = False
        for s in w.seats:
            legal = deal.legal_actions_of(s)
            seat = self.seats[s]
            person = seat.bot is None and not seat.auto
            people = people or person
            w.choice = w.choice or len(legal) > 1
            if len(legal) == 1 and not (person and seat.ask_single and seat.nickname is not None):
                w.answers[s] = (legal[0], "forced")
            elif not person:
                w.thinking.append(s)  # the window's task has the bot think (on the bots' thread)
            else:
                w.asked.add(s)
                w.prompted.add(s)
        turn = self.config.turn_seconds
        if w.asked and turn is not None:
            w.deadline = wall + turn
        self.countdown = int((wall + turn) * 1000) if turn is not None and people else None
        self.window = w
        self.pace(w)
        return w

    def watched(self, hands: list[list[int]]) -> bool:
        """Whether the deal is only watched now: a person sits at the table and every person's hand is out
        (:data:`WATCH_PACE`).  (Asked at every window: a loop that stops at the first person with cards.)"""
        people = self.people()
        for s in people:
            if any(hands[s]):
                return False
        return bool(people)

    def pace(self, w: Window) -> None:
        """Shorten the masking time of a window over no person's seat whose answers are in: all passes
        (:data:`PASS_PACE`), or a play among them (:data:`PLAY_PACE`)."""
        if not w.complete or not self.bots_only(w):
            return
        # passes in a row show as one beat: the first takes the pass pace, those right after it none
        passes = 0.0 if self._pass_run else self._mask * PASS_PACE
        w.until = min(w.until, w.opened + (passes if self.bots_passed(w) else self._mask * PLAY_PACE))

    def bots_only(self, w: Window) -> bool:
        """Whether the window is over no person's seat (bots', or people's on 托管) and has answers."""
        seats = self.seats
        return bool(w.answers) and not w.prompted and all(seats[s].bot is not None or seats[s].auto for s in w.seats)

    def bots_passed(self, w: Window) -> bool:
        """Whether the window is over no person's seat and its answers are all passes."""
        return self.bots_only(w) and all(a == PASS for a, _ in w.answers.values())

    def close_window(self, w: Window) -> None:
        """The window resolves: it is closed, and its answers are to be fed (:meth:`feed_order`)."""
        self.window = None
        self._pass_run = w.complete and self.bots_passed(w)

    def feed_order(self, w: Window) -> Iterator[tuple[int, Action, str]]:
        """The window's answers (seat, action, by whom) in the engine's order, each while it still answers the
        deal: the caller applies each (:meth:`step`) before asking for the next."""
        for i, s in enumerate(w.seats):
            deal = self.match.current
            if len(self.match.deals) - 1 != w.key[0] or deal.window() != w.seats[i:]:
                break  # an answer ended the event: the rest are void
            if i and (deal.phase != w.phase or any(e["type"] == "void" for e in deal.events[w.events_at :])):
                break  # the deal was voided (a second revolution) and dealt again: a new event asks the rest
            action, by = w.answers[s]
            yield s, action, by

    # ------------------------------------------------------------------ intents, checked

    def check_token(self, conn: Connection, token: str, ref: str | None = None) -> int:
        """The connection's seat, if ``token`` is that seat's current token; else a ProtocolError."""
        if conn.seat is None:
            raise P.ProtocolError(P.SPECTATOR, "a spectator cannot act", ref)
        held = self.seats[conn.seat].token_hash
        if held is None or conn.token_hash != held or not hmac.compare_digest(conn.hash_of(token), held):
            raise P.ProtocolError(P.UNAUTHORIZED, "this token does not hold your seat", ref)
        return conn.seat

    def _check_playing(self, ref: str | None) -> None:
        if self.status == "waiting":
            raise P.ProtocolError(P.NOT_STARTED, "the table is waiting for players", ref)
        if self.status != "playing":
            raise P.ProtocolError(P.GAME_OVER, f"the table is {self.status}", ref)

    def check_act(self, conn: Connection, msg: P.ClientMessage) -> tuple[Window, int, Action]:
        """An ``act`` intent: the open window, the seat and its action; or a ProtocolError saying why not."""
        assert msg.token is not None and msg.action is not None
        seat = self.check_token(conn, msg.token, msg.id)
        self._check_playing(msg.id)
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
        return w, seat, action

    def check_auto(self, conn: Connection, msg: P.ClientMessage) -> tuple[int, bool]:
        """An ``auto`` intent (托管 on or off for the connection's own seat): the seat, and whether it is a
        change; or a ProtocolError."""
        assert msg.token is not None and msg.on is not None
        seat = self.check_token(conn, msg.token, msg.id)
        if self.status in ("over", "closed"):
            raise P.ProtocolError(P.GAME_OVER, f"the table is {self.status}", msg.id)
        return seat, self.seats[seat].auto != msg.on

    def check_ready(self, conn: Connection, msg: P.ClientMessage) -> tuple[int, bool]:
        """A ``ready`` intent: the seat, and whether it is a change (outside the pause between two deals, or
        when the seat is ready already, it is not); or a ProtocolError."""
        assert msg.token is not None
        seat = self.check_token(conn, msg.token, msg.id)
        self._check_playing(msg.id)
        return seat, self.ready is not None and not self.ready[seat]
