"""What a table's connections are sent: its public data, a seat's view and turn, and the texts of a change's
``state`` frames, seat by seat — made from the state alone (:mod:`.state`), without I/O.

Hidden information stays hidden here: a seat's frame carries its own hand and no other (the engine's
:meth:`~gouji.engine.deal.Deal.view` and :meth:`~gouji.engine.deal.Deal.public_event`), and the set's seed
goes into no frame."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import orjson

from ...engine import cards as C
from ...engine.actions import PASS, YIELD
from ...engine.deal import Deal
from ...engine.seats import SEATS
from ..config import TableConfig
from ..messages import protocol as P
from ..storage.results import rated
from .choices import burn_need, burn_needs, legal_set
from .state import TableState

CHOICES_CAP = 64
"""Legal actions are listed in full up to this many; past it a frame carries the count and a sample."""
SAMPLE_SIZE = 16


def _json(value: Any) -> str:
    """Any JSON-serialisable value as compact text (as :func:`protocol.dumps` writes frames)."""
    return orjson.dumps(value).decode("utf-8")


class TableFrames(TableState):
    """A table's state and what its connections are sent of it."""

    def __init__(self, table_id: int, code: str, config: TableConfig, owner_hash: str) -> None:
        super().__init__(table_id, code, config, owner_hash)
        self._cursor = (0, 0)
        """(deal index, events of that deal) sent to the connections so far."""
        self._hands: dict[int, tuple[list[int], str, int]] = {}
        """seat → (its hand's counts, the hand as JSON text, its count of cards): :meth:`own_hand`."""
        self._last_deal_of: tuple[tuple[int, int, bool], dict[str, Any] | None] | None = None
        self._table_text_of: tuple[tuple[int, str, int, int], str, str] | None = None
        self._offline_of: tuple[int, tuple[int, ...]] | None = None
        self.people_seen = time.monotonic()
        """When a person's connection was last at the table (monotonic seconds; a restored table: its restart):
        a table in play that no person attends for the waiting time is closed (:meth:`abandoned`)."""
        """(the seats' version it was worked out at, :meth:`offline`)."""

    def connected(self) -> set[int | None]:
        """The seats with a connection at the table (none here: the connections are the I/O's,
        :class:`.table.Room`)."""
        return set()

    def offline(self) -> tuple[int, ...]:
        """The people's seats with no connection at the table (断线): public, as who holds a seat is.  (Worked
        out again only when the seats' version changed: a connection coming or going changes it too.)"""
        cached = self._offline_of
        if cached is None or cached[0] != self._seats_version:
            online = self.connected()
            off = tuple(i for i in self.people() if i not in online)
            cached = self._offline_of = (self._seats_version, off)
        return cached[1]

    def abandoned(self, since: float) -> bool:
        """Whether the table is in play with people's seats and none of them has had a connection since
        ``since`` (monotonic seconds): nobody would ever act for them, or watch the bots act."""
        if self.status != "playing" or not self.people():
            return False
        if len(self.offline()) < len(self.people()):
            self.people_seen = time.monotonic()  # someone is here now
            return False
        return self.people_seen < since

    def public(self, config: bool = True) -> dict[str, Any]:
        """The table as everyone may see it (``config=False``: without the configuration); a seat's entry says
        ``"offline": true`` while it has no connection (:meth:`offline`), and nothing of it otherwise."""
        m = self.match
        offline = self.offline()
        out: dict[str, Any] = {
            "code": self.code,
            "status": self.status,
            "state": self.state,
            "seats": [{**s.public(), "offline": True} if s.index in offline else s.public() for s in self.seats],
            "rated": rated(self.players()),
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
        key = (self._seats_version, self.status, len(m.deals), len(m.points))
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

    def ready_info(self) -> dict[str, Any] | None:
        """``table.ready``: None while play goes on; between two deals the seats' readiness and the deadline
        (epoch milliseconds, or None: no ready timeout)."""
        if self.ready is None:
            return None
        return {
            "seats": [self.seat_ready(i) for i in range(SEATS)],
            "deadline": None if self.deadline is None else int(self.deadline * 1000),
        }

    def new_events(self) -> list[tuple[int, dict[str, Any]]]:
        deal_i, n = self._cursor
        deals = self.match.deals
        out: list[tuple[int, dict[str, Any]]] = []
        for i in range(deal_i, len(deals)):
            evs = deals[i].events
            out.extend((i, e) for e in evs[n if i == deal_i else 0 :])
        self._cursor = (len(deals) - 1, len(deals[-1].events))
        return out

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


class Frames:
    """The texts of one change's incremental ``state`` frames, seat by seat (:meth:`.table.Room.broadcast`).

    A seat's frame differs from the public one only in the view's ``seat``, that seat's own card count and
    ``hand`` (``shown`` too, where a hand was shown in 无级自开: such a view is made whole), the turn of a seat
    the open window asks, and the events that are not the same for every seat (a deal's hands, a 还贡's
    cards).  So the table, the public view (but its players), each player's entry and the public turn and
    events are encoded once, and each seat's text is put together from them — the same JSON, as
    :meth:`TableFrames.state_frame` makes it, but for the order of the view's keys."""

    def __init__(self, room: TableFrames, events: list[tuple[int, dict[str, Any]]]) -> None:
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
        self.rest = P.dumps(view)[1:-1]
        """The public view's keys but its seat and players, without the braces."""
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
        turn = self.turn_text
        if seat is not None and (seat == self.turn["seat"] or seat in self.turn.get("seats", ())):
            turn = P.dumps(room.turn_info(seat, self.burn_offer))
        events = self.events_text
        if events is None:
            events = _json([{**Deal.public_event(e, seat), "deal": i} for i, e in self.events])
        if seat is None:
            view = f'{{"seat":null,"players":[{self.players_text}],{self.rest}}}'
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
            # (the usual frame in one piece: its view is not made as a text of its own first)
            return (
                f'{self.head},"view":{{"seat":{seat},"players":[{players}],{self.rest},"hand":{hand}}},'
                f'"turn":{turn},"events":{events}}}'
            )
        return f'{self.head},"view":{view},"turn":{turn},"events":{events}}}'
