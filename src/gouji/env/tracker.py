"""The observation vectors of one deal kept up to date step by step: the numbers of
:func:`gouji.env.features.encode_state` of ``Deal.view(seat)``, without building the view each time.

:func:`~gouji.env.features.encode_state` reads a whole view (a dict of every player's facts, the log) and
encodes it from scratch: about 60 µs a step.  Between two steps of a deal little changes — one seat's
count, who is to act, the top play, one more event in the log — so a :class:`StateTracker` keeps:

- one **public vector** of the deal, in the frame of seat 0: every field of the state vector that does not
  depend on the observer (the seats' visible counts and statuses, the top play, the round, the phase, the
  recent plays, the rules), each group of fields rewritten only when the facts it encodes changed;
- per seat, its own hand's fields, rewritten when its hand changed.

An observation is the public vector gathered into the observer's frame (seats relative to the observer:
one fancy index, which also makes it a new array that nothing changes later), then the observer's own
fields written in: hand, hand total, the unseen cards, its own card count.

It reads only what ``Deal.view(seat)`` holds: the observer's own hand, other seats' card counts exactly
where the view shows them (``show_counts``, a revolutionary's open hand, 0 once out), hands laid open by a
revolution, and the public facts of the deal and its log (for an act event the log shows every seat the
same play, pass or decision; a 还贡's cards, hidden from others, are not read).  The tests compare its
vectors with ``encode_state(Deal.view(seat))`` at every step of whole deals on every preset, and check that
two deals differing only in cards hidden from a seat give that seat the same vectors.

Two shortcuts rest on the engine's rules of play: after a single action of the play phase only the acting
seat's hand can have changed (its count alone is recounted) — unless a seat's status changed, which
recounts everything; and after a pass that appended no event but its own (no round ended, no burn ended)
only the seat to act and the round's fields (who passed, the burn offer, the yield) can have changed, so
nothing else is looked at.  A rule that moved cards or changed a seat's facts otherwise during play would
need them revisited; the every-step comparison would show it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import NUM_RANKS, parse_counts
from ..deal import OUT, PLAY, REVOLTED, Deal
from ..plays import Play, parse_play
from . import features
from .features import F32, STATE_SIZE

SEATS = features.SEATS
_SEAT = features._SEAT_FIELDS
_RECENT = features._RECENT
_RECENT_FIELDS = features._RECENT_FIELDS
_O = features._OFFSETS
_HAND, _TOTAL, _UNSEEN, _PLAYED = _O["hand"], _O["hand_total"], _O["unseen"], _O["played"]
_SEATS_AT, _TOP, _TOP_SEAT, _ROUND, _PHASE, _REC = (
    _O["seats"],
    _O["top"],
    _O["top_seat"],
    _O["round"],
    _O["phase"],
    _O["recent"],
)
_STATUS_INDEX = features._STATUS_INDEX
_PHASE_INDEX = features._PHASE_INDEX
_OTHER_PHASE = len(features.PHASES)


def _frame(me: int, head: int) -> npt.NDArray[np.intp]:
    """The gather index taking the public vector (seat 0's frame, the recent plays in a ring whose
    newest slot is ``head``) into seat ``me``'s frame: relative seat ``r`` of each seat-indexed field
    comes from absolute seat ``(r + me) % 6``, recent slot ``n`` from ring slot ``(head + n) % 6``."""
    src = np.arange(STATE_SIZE, dtype=np.intp)
    for r in range(SEATS):
        a = (r + me) % SEATS
        src[_SEATS_AT + r * _SEAT : _SEATS_AT + (r + 1) * _SEAT] = np.arange(
            _SEATS_AT + a * _SEAT, _SEATS_AT + (a + 1) * _SEAT
        )
        src[_TOP_SEAT + r] = _TOP_SEAT + a
        src[_ROUND + 1 + r] = _ROUND + 1 + a
    for n in range(_RECENT):
        ring = _REC + (head + n) % _RECENT * _RECENT_FIELDS
        at = _REC + n * _RECENT_FIELDS
        src[at : at + _RECENT_FIELDS] = np.arange(ring, ring + _RECENT_FIELDS)
        for r in range(SEATS):
            src[at + r] = ring + (r + me) % SEATS
    return src


_FRAMES = [[_frame(me, head) for me in range(SEATS)] for head in range(_RECENT)]

_ROW_CACHE: dict[str, tuple[bool, F32]] = {}


def _recent_row(text: str) -> tuple[bool, F32]:
    """An act event's row of the ``recent`` field (without its seat), and whether it takes a slot of its
    own: a play, a burn or a pass does; a setup decision or a 还贡 only marks its seat and presence in the
    slot of the next older play (as :func:`~gouji.env.features.encode_state` walks the log)."""
    got = _ROW_CACHE.get(text)
    if got is not None:
        return got
    row = np.zeros(_RECENT_FIELDS, dtype=np.float32)
    row[15] = 1.0
    takes_slot = True
    if text == "pass":
        row[14] = 1.0
    else:
        burn = text.startswith("burn ")
        try:
            q = parse_play(text[5:] if burn else text)
        except ValueError:
            takes_slot = False
        else:
            row[6] = (q.rank + 1) / 12 if q.rank >= 0 else 0.0
            row[7] = q.k / 8
            row[8] = q.t / 4
            row[9] = q.x / 2
            row[10] = q.d / 2
            row[11] = q.size / 10
            row[12] = float(q.gouji)
            row[13] = float(burn)
    if len(_ROW_CACHE) > 100_000:
        _ROW_CACHE.clear()
    got = _ROW_CACHE[text] = (takes_slot, row)
    return got


_TOP_ROWS: dict[Play, F32] = {}


def _top_row(top: Play) -> F32:
    """The ``top`` field (21 numbers) of a play on the table."""
    row = _TOP_ROWS.get(top)
    if row is None:
        row = np.zeros(21, dtype=np.float32)
        row[0] = 1.0
        features._play_into(row, 1, top)
        if len(_TOP_ROWS) > 100_000:
            _TOP_ROWS.clear()
        _TOP_ROWS[top] = row
    return row


class StateTracker:
    """The state vectors of one deal's seats, kept up to date as the deal goes on.

    ``observe(deal, seat)`` equals ``encode_state(deal.view(seat))``; a new deal object starts the tracker
    over.  It notices a change of the deal by its event log growing (every action and every before-play
    step appends an event).
    """

    def __init__(self) -> None:
        self._deal: Deal | None = None
        self._pub: F32 = np.zeros(STATE_SIZE, dtype=np.float32)

    def observe(self, deal: Deal, seat: int) -> F32:
        """Seat ``seat``'s state vector (a new array: later steps do not change it)."""
        if deal is not self._deal or len(deal.events) < self._seen:  # another deal (or its log cut short)
            self._start(deal)
        if len(deal.events) != self._events or deal.to_act != self._to_act:
            self._sync(deal)
        out: F32 = self._pub[_FRAMES[self._head][seat]]
        hand = deal.hands[seat]
        own = self._own[seat]
        if own is None or own[0] != hand:
            own = self._own[seat] = (hand.copy(), self._hand_fields(hand), sum(hand))
        out[_HAND:_UNSEEN] = own[1]
        out[_SEATS_AT] = own[2] / 36
        out[_SEATS_AT + 1] = 0.0
        base = self._base
        rev = self._revealed_counts.get(seat)
        if rev is not None:  # its own open hand is not "known from others": add it back
            base = [b + r for b, r in zip(base, rev, strict=True)]
        out[_UNSEEN : _UNSEEN + NUM_RANKS] = [(b - h) / 8 if b > h else 0.0 for b, h in zip(base, hand, strict=True)]
        return out

    # ------------------------------------------------------------------ the observer's own fields

    @staticmethod
    def _hand_fields(hand: list[int]) -> F32:
        """The ``hand`` and ``hand_total`` fields of a hand (contiguous)."""
        vals = [h / 8 for h in hand]
        vals.append(sum(hand) / 36)
        return np.array(vals, dtype=np.float32)

    # ------------------------------------------------------------------ the public vector

    def _start(self, deal: Deal) -> None:
        self._deal = deal
        pub = self._pub = np.zeros(STATE_SIZE, dtype=np.float32)
        opts = deal.rules.to_dict()
        features._rules_into(pub, opts)
        self._deck = [int(c) for c in features._deck(opts)]
        self._show = deal.rules.show_counts
        self._recent = pub[_REC : _REC + _RECENT * _RECENT_FIELDS].reshape(_RECENT, _RECENT_FIELDS)
        self._events = -1
        self._seen = 0  # events already folded into the recent plays
        self._head = 0  # the ring slot of the newest recent play
        self._to_act: Any = -2
        self._slow: Any = None
        self._slow_rows: list[Any] = [None] * SEATS  # per seat, the facts its slow fields were written from
        self._counts: list[int | None] = [-1] * SEATS
        self._top: Any = (-1, -1)
        self._passed = 0  # as the zeros of the new vector say
        self._round: Any = None
        self._phase: Any = None
        self._played: Any = None
        self._revealed: dict[int, str] | None = None
        self._revealed_counts: dict[int, tuple[int, ...]] = {}
        self._base: list[int] = []
        """The deck less the cards played and the open revolution hands: ``unseen`` before the observer's
        own hand is taken away; a new list whenever it changes."""
        self._own: list[tuple[list[int], F32, int] | None] = [None] * SEATS
        """Per seat: its hand when last observed, that hand's fields and its card count."""

    def _sync(self, deal: Deal) -> None:
        events = deal.events
        # one action in the play phase since the last look: only its seat's hand (and count) can have
        # changed; after a pass alone, only the round's fields and the seat to act
        actor = -1
        if len(events) == self._events + 1 and self._phase == PLAY and deal.phase == PLAY:
            last = events[-1]
            if last["type"] == "act":
                if last["action"] == "pass":
                    self._events = len(events)
                    self._sync_round(deal)
                    self._fold_events(events)
                    return
                actor = last["seat"]
        self._events = len(events)
        pub = self._pub
        rd = deal.round

        # per seat: status, opened, forfeited, declared, headless, 要头, burning, place (rarely change)
        burner = deal.burner
        slow = [
            deal.phase,
            deal.status,
            deal.opened,
            deal.forfeited,
            deal.declared,
            deal.in_play,
            deal.yaotou_left,
            deal.yaotou_choice,
            burner,
            deal.places,
        ]
        if slow != self._slow:  # compares the lists and the dict by content, against copies
            self._slow = [x.copy() if isinstance(x, list | dict) else x for x in slow]
            self._write_slow(deal, burner)
            actor = -1  # a status changed: count everything again

        # the visible card counts: a seat's count is read only where the view shows it
        if actor >= 0:
            counts = self._counts.copy()
            counts[actor] = self._visible_count(deal, actor)
        else:
            counts = self._visible_counts(deal)
        if counts != self._counts:
            old = self._counts
            for s in range(SEATS):
                c = counts[s]
                if c != old[s]:
                    o = _SEATS_AT + s * _SEAT
                    pub[o] = c / 36 if c is not None else 0.0
                    pub[o + 1] = 1.0 if c is None else 0.0
            self._counts = counts

        top = rd.top
        top_key = (top, rd.top_seat if top is not None else None)
        if top_key != self._top:
            self._write_top(top_key)

        self._sync_round(deal)

        phase = deal.phase
        if phase != self._phase:
            self._phase = phase
            pub[_PHASE : _PHASE + 8] = 0.0
            pub[_PHASE + _PHASE_INDEX.get(phase, _OTHER_PHASE)] = 1.0

        played = deal.played_counts()
        revealed = deal.revealed
        if played != self._played or revealed != self._revealed:
            self._write_played(played, revealed)

        if self._seen < len(events):
            self._fold_events(events)

    def _sync_round(self, deal: Deal) -> None:
        """The fields a pass may change: the seat to act, who passed, the burn offer and the yield."""
        pub = self._pub
        rd = deal.round
        to_act = deal.to_act
        if to_act != self._to_act:
            old_to_act = self._to_act
            if isinstance(old_to_act, int) and old_to_act >= 0:
                pub[_SEATS_AT + old_to_act * _SEAT + 13] = 0.0
            if to_act is not None:
                pub[_SEATS_AT + to_act * _SEAT + 13] = 1.0
            self._to_act = to_act

        passed = rd.passed | rd.passed_top
        if passed != self._passed:
            old_passed = self._passed
            self._passed = passed
            for s in range(SEATS):
                if (passed ^ old_passed) >> s & 1:
                    pub[_SEATS_AT + s * _SEAT + 15] = float(passed >> s & 1)

        yielder = rd.yielder
        rnd = (bool(rd.burn_offers), yielder, rd.after_yield, deal.ffa, len(deal.out_order))
        if rnd != self._round:
            self._round = rnd
            pub[_ROUND : _ROUND + 10] = 0.0
            pub[_ROUND] = float(rnd[0])
            if yielder >= 0:
                pub[_ROUND + 1 + yielder] = 1.0
            pub[_ROUND + 7] = float(bool(rd.after_yield))
            pub[_ROUND + 8] = float(bool(deal.ffa))
            pub[_ROUND + 9] = rnd[4] / 6

    def _visible_counts(self, deal: Deal) -> list[int | None]:
        """Each seat's card count as the public sees it (``Deal.view``'s rule; None when hidden)."""
        status, hands, show = deal.status, deal.hands, self._show
        if show == "always":
            return [0 if st == OUT else sum(h) for st, h in zip(status, hands, strict=True)]
        return [self._visible_count(deal, s) for s in range(SEATS)]

    def _visible_count(self, deal: Deal, s: int) -> int | None:
        """Seat ``s``'s card count as the public sees it: the hand is summed only where it is shown."""
        st = deal.status[s]
        if st == OUT:
            return 0
        show = self._show
        if st == REVOLTED or show == "always":
            return sum(deal.hands[s])
        if show == "at_or_below_10":
            n = sum(deal.hands[s])
            return n if n <= 10 else None
        return None

    def _write_slow(self, deal: Deal, burner: int) -> None:
        pub = self._pub
        status, in_play = deal.status, deal.in_play
        opened, forfeited, declared = deal.opened, deal.forfeited, deal.declared
        yaotou_left, choice = deal.yaotou_left, deal.yaotou_choice
        playing = deal.phase == PLAY
        place_of = {s: i for i, s in enumerate(deal.places)} if deal.places else {}
        rows = self._slow_rows
        for s in range(SEATS):
            key = (
                status[s],
                bool(opened[s]),
                bool(forfeited[s]),
                bool(declared[s]),
                bool(playing and not in_play[(s + 3) % SEATS] and deal.headless(s)),
                choice.get(s) == "yaotou" or (yaotou_left[s] or 0) > 0,
                burner == s,
                place_of.get(s),
            )
            if key == rows[s]:
                continue
            rows[s] = key
            o = _SEATS_AT + s * _SEAT
            vals = [0.0] * 11  # fields 2 … 12 of the seat
            st = _STATUS_INDEX.get(key[0])
            if st is not None:
                vals[st] = 1.0
            for f in range(1, 7):  # opened … burning
                vals[4 + f] = 1.0 if key[f] else 0.0
            pub[o + 2 : o + 13] = vals
            place = key[7]
            pub[o + 16] = (place + 1) / 6 if place is not None else 0.0

    def _write_top(self, top_key: Any) -> None:
        pub = self._pub
        old_seat = self._top[1]
        if isinstance(old_seat, int) and old_seat >= 0:
            pub[_SEATS_AT + old_seat * _SEAT + 14] = 0.0
        top, seat = top_key
        pub[_TOP_SEAT : _TOP_SEAT + SEATS] = 0.0
        if top is not None:
            pub[_TOP : _TOP + 21] = _top_row(top)
            if isinstance(seat, int):
                pub[_TOP_SEAT + seat] = 1.0
        else:
            pub[_TOP : _TOP + 21] = 0.0
        if isinstance(seat, int):
            pub[_SEATS_AT + seat * _SEAT + 14] = 1.0
        self._top = top_key

    def _write_played(self, played: tuple[int, ...], revealed: dict[int, str]) -> None:
        self._played = played
        if revealed != self._revealed:
            self._revealed = dict(revealed)
            self._revealed_counts = {s: parse_counts(text) for s, text in revealed.items() if text}
        self._pub[_PLAYED : _PLAYED + NUM_RANKS] = [c / 8 for c in played]
        base = [d - p for d, p in zip(self._deck, played, strict=True)]
        for rev in self._revealed_counts.values():
            base = [b - r for b, r in zip(base, rev, strict=True)]
        self._base = base

    def _fold_events(self, events: list[dict[str, Any]]) -> None:
        """Add the new act events to the ``recent`` field, a ring of six slots (the oldest overwritten)."""
        recent = self._recent
        head = self._head
        for e in events[self._seen :]:
            if e["type"] != "act":
                continue
            takes_slot, row = _recent_row(e["action"])
            if takes_slot:
                head = (head - 1) % _RECENT
                recent[head] = row
            # else it joins the newest slot (encode_state's walk back from the newest event writes into
            # that slot until a play, burn or pass takes it): its row is the present flag alone
            recent[head, 15] = 1.0
            recent[head, e["seat"]] = 1.0
        self._head = head
        self._seen = len(events)
