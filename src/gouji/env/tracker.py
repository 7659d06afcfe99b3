"""The observation vectors of one deal kept up to date step by step: the numbers of
:func:`gouji.bots.features.encode_state` of ``Deal.view(seat)``, without building the view each time.

:func:`~gouji.bots.features.encode_state` reads a whole view (a dict of every player's facts, the log) and
encodes it from scratch: about 60 µs a step.  Between two steps of a deal little changes — one seat's
count, who is to act, the top play, one more event in the log — so a :class:`StateTracker` keeps:

- one **public vector** of the deal, in the frame of seat 0: every field of the state vector that does not
  depend on the observer (the seats' visible counts and statuses, the top play, the round, the phase, the
  recent plays, the rules), each group of fields rewritten only when the facts it encodes changed;
- after it, each seat's own fields — its hand, card count and unseen cards — each written from that
  seat's hand and the public facts only: a hand when it changed, every seat's unseen cards (in one
  operation) when a hand or the cards known to all changed.

An observation is one gather of that vector into the observer's frame (seats relative to the observer, its
own fields in place of the hand fields: one fancy index, which also makes it a new array that nothing
changes later).  A seat's own fields never reach another seat's observation.

A seat's observation is made only of what ``Deal.view(seat)`` holds: its own hand (each seat's hand is read
into that seat's own fields alone), other seats' card counts exactly
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

from ..bots import features
from ..bots.features import F32, STATE_SIZE
from ..engine.cards import NUM_RANKS, parse_counts
from ..engine.deal import PLAY, Deal
from ..engine.plays import Play, parse_play
from ..engine.seats import OUT, REVOLTED, SEATS

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
_NO_CARDS: F32 = np.zeros(NUM_RANKS, dtype=np.float32)
_NO_CARDS_AT_ALL: F32 = np.zeros((SEATS, NUM_RANKS), dtype=np.float32)
_EIGHTH = np.float32(0.125)
assert _HAND == 0 and _PLAYED == _UNSEEN + NUM_RANKS and _TOP_SEAT == _TOP + 21  # runs written at once
_STATUS_INDEX = features._STATUS_INDEX
_PHASE_INDEX = features._PHASE_INDEX
_OTHER_PHASE = len(features.PHASES)


_HANDS_AT = STATE_SIZE
_UNSEEN_AT = _HANDS_AT + SEATS * NUM_RANKS
_TOTALS_AT = _UNSEEN_AT + SEATS * NUM_RANKS
_ZERO_AT = _TOTALS_AT + SEATS
_VECTOR = _ZERO_AT + 1
"""The tracker's vector: the public vector, then the seats' own fields — every seat's hand (counts over
8), every seat's unseen cards, every seat's card count over 36 (its ``hand_total`` and its own count in
``seats``), and a zero (its own "count hidden" flag)."""


def _frame(me: int, head: int) -> npt.NDArray[np.intp]:
    """The gather index taking the tracker's vector (the public vector in seat 0's frame, the recent plays
    in a ring whose newest slot is ``head``, then each seat's own block) into seat ``me``'s frame: relative
    seat ``r`` of each seat-indexed field comes from absolute seat ``(r + me) % 6``, recent slot ``n``
    from ring slot ``(head + n) % 6``, the observer's own fields from its block."""
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
    src[_HAND : _HAND + NUM_RANKS] = np.arange(_HANDS_AT + me * NUM_RANKS, _HANDS_AT + (me + 1) * NUM_RANKS)
    src[_UNSEEN : _UNSEEN + NUM_RANKS] = np.arange(_UNSEEN_AT + me * NUM_RANKS, _UNSEEN_AT + (me + 1) * NUM_RANKS)
    src[_TOTAL] = src[_SEATS_AT] = _TOTALS_AT + me
    src[_SEATS_AT + 1] = _ZERO_AT
    return src


_FRAMES = [[_frame(me, head) for me in range(SEATS)] for head in range(_RECENT)]

_ALL_SEATS = (1 << SEATS) - 1
_CHANGED: list[tuple[int, ...]] = [tuple(s for s in range(SEATS) if b >> s & 1) for b in range(1 << SEATS)]
"""The seats of each seat mask."""

ROWS_KEPT = 100_000
"""The most rows each of the module's row caches (recent plays, top plays) keeps; full, it is emptied."""

_ROW_CACHE: dict[str, tuple[bool, F32]] = {}


def _recent_row(text: str) -> tuple[bool, F32]:
    """An act event's row of the ``recent`` field (without its seat), and whether it takes a slot of its
    own: a play, a burn or a pass does; a setup decision or a 还贡 only marks its seat and presence in the
    slot of the next older play (as :func:`~gouji.bots.features.encode_state` walks the log)."""
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
    if len(_ROW_CACHE) >= ROWS_KEPT:
        _ROW_CACHE.clear()
    got = _ROW_CACHE[text] = (takes_slot, row)
    return got


_SEAT_ROWS: dict[tuple[str, int], tuple[bool, F32]] = {}


def _recent_seat_row(text: str, seat: int) -> tuple[bool, F32]:
    """:func:`_recent_row` of an act event with its seat's flag set (seat 0's frame)."""
    got = _SEAT_ROWS.get((text, seat))
    if got is None:
        takes_slot, row = _recent_row(text)
        row = row.copy()
        row[seat] = 1.0
        if len(_SEAT_ROWS) >= ROWS_KEPT:
            _SEAT_ROWS.clear()
        got = _SEAT_ROWS[text, seat] = (takes_slot, row)
    return got


_TOP_ROWS: dict[tuple[Play, int], F32] = {}
_NO_TOP: F32 = np.zeros(21 + SEATS, dtype=np.float32)


def _top_row(top: Play, seat: int) -> F32:
    """The ``top`` and ``top_seat`` fields (21 + 6 numbers, contiguous) of a play on the table, made by
    ``seat`` (seat 0's frame; not a seat: no one-hot)."""
    row = _TOP_ROWS.get((top, seat))
    if row is None:
        row = np.zeros(21 + SEATS, dtype=np.float32)
        row[0] = 1.0
        features._play_into(row, 1, top)
        if 0 <= seat < SEATS:
            row[21 + seat] = 1.0
        if len(_TOP_ROWS) >= ROWS_KEPT:
            _TOP_ROWS.clear()
        _TOP_ROWS[top, seat] = row
    return row


def _over8(counts: tuple[int, ...]) -> F32:
    """Counts over 8 (exact in float32)."""
    a: F32 = np.array(counts, dtype=np.float32)
    a *= _EIGHTH
    return a


class StateTracker:
    """The state vectors of one deal's seats, kept up to date as the deal goes on.

    ``observe(deal, seat)`` equals ``encode_state(deal.view(seat))``; a new deal object starts the tracker
    over.  It notices a change of the deal by its event log growing (every action and every before-play
    step appends an event).
    """

    def __init__(self) -> None:
        self._deal: Deal | None = None

    def observe(self, deal: Deal, seat: int) -> F32:
        """Seat ``seat``'s state vector (a new array: later steps do not change it)."""
        if deal is not self._deal or len(deal.events) < self._seen:  # another deal (or its log cut short)
            self._start(deal)
        if len(deal.events) != self._events or deal.to_act != self._to_act:
            self._sync(deal)
        out: F32 = self._vec[_FRAMES[self._head][seat]]
        return out

    # ------------------------------------------------------------------ the seats' own fields

    def _write_hand(self, seat: int, hand: list[int]) -> None:
        """Seat ``seat``'s hand and card count among the own fields (its unseen cards: :meth:`_write_unseen`)."""
        self._hands[seat] = hand.copy()
        hand8 = self._hand8[seat]
        hand8[:] = hand
        hand8 *= _EIGHTH  # exact: counts over 8
        self._vec[_TOTALS_AT + seat] = sum(hand) / 36

    def _write_unseen(self) -> None:
        """Every seat's unseen cards: the deck less the cards known to all and its own hand (all at once:
        each row reads only its own seat's hand)."""
        unseen = self._unseen
        np.subtract(self._base8, self._hand8, out=unseen)  # exact: counts over 8
        np.maximum(unseen, _NO_CARDS_AT_ALL, out=unseen)
        for seat, rev in self._revealed8.items():  # its own open hand is not "known from others"
            row = unseen[seat]
            np.add(self._base8, rev, out=row)
            row -= self._hand8[seat]
            np.maximum(row, _NO_CARDS, out=row)

    # ------------------------------------------------------------------ the public vector

    def _start(self, deal: Deal) -> None:
        self._deal = deal
        vec = self._vec = np.zeros(_VECTOR, dtype=np.float32)
        pub = self._pub = vec[:STATE_SIZE]
        self._hand8 = vec[_HANDS_AT:_UNSEEN_AT].reshape(SEATS, NUM_RANKS)
        self._unseen = vec[_UNSEEN_AT:_TOTALS_AT].reshape(SEATS, NUM_RANKS)
        self._hands: list[list[int] | None] = [None] * SEATS
        """Per seat: the hand its own fields were written from."""
        opts = deal.rules.to_dict()
        features._rules_into(pub, opts)
        self._deck8: F32 = (features._deck(opts) / 8).astype(np.float32)
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
        self._revealed8: dict[int, F32] = {}
        """The open revolution hands by seat, each count over 8."""
        self._base8: F32 = self._deck8
        """The deck less the cards played and the open revolution hands, each count over 8: ``unseen``
        before the observer's own hand is taken away."""

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
            c = self._visible_count(deal, actor)
            if c != self._counts[actor]:
                self._counts[actor] = c
                o = _SEATS_AT + actor * _SEAT
                pub[o] = c / 36 if c is not None else 0.0
                pub[o + 1] = 1.0 if c is None else 0.0
            counts = self._counts
        else:
            counts = self._visible_counts(deal)
        if counts is not self._counts and counts != self._counts:
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

        # the seats' own fields: only the actor's hand can have changed (or any, see above)
        hands, known = deal.hands, self._hands
        changed = False
        for s in (actor,) if actor >= 0 else range(SEATS):
            if hands[s] != known[s]:
                self._write_hand(s, hands[s])
                changed = True
        played = deal.played_counts()
        revealed = deal.revealed
        if played != self._played or revealed != self._revealed:
            self._write_played(played, revealed)
            changed = True
        if changed:
            self._write_unseen()

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
            changed = passed ^ self._passed
            self._passed = passed
            for s in _CHANGED[changed & _ALL_SEATS]:
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
        if isinstance(old_seat, int) and 0 <= old_seat < SEATS:
            pub[_SEATS_AT + old_seat * _SEAT + 14] = 0.0
        top, seat = top_key
        if top is not None:
            pub[_TOP : _TOP_SEAT + SEATS] = _top_row(top, seat if isinstance(seat, int) else -1)
            if isinstance(seat, int) and 0 <= seat < SEATS:
                pub[_SEATS_AT + seat * _SEAT + 14] = 1.0
        else:
            pub[_TOP : _TOP_SEAT + SEATS] = _NO_TOP
        self._top = top_key

    def _write_played(self, played: tuple[int, ...], revealed: dict[int, str]) -> None:
        self._played = played
        if revealed != self._revealed:
            self._revealed = dict(revealed)
            self._revealed8 = {s: _over8(parse_counts(text)) for s, text in revealed.items() if text}
        played8 = _over8(played)
        self._pub[_PLAYED : _PLAYED + NUM_RANKS] = played8
        base8 = self._deck8 - played8  # a new array: observations of this step take it as it is
        for rev in self._revealed8.values():
            base8 -= rev
        self._base8 = base8

    def _fold_events(self, events: list[dict[str, Any]]) -> None:
        """Add the new act events to the ``recent`` field, a ring of six slots (the oldest overwritten)."""
        recent = self._recent
        head = self._head
        for e in events[self._seen :]:
            if e["type"] != "act":
                continue
            takes_slot, row = _recent_seat_row(e["action"], e["seat"])
            if takes_slot:
                head = (head - 1) % _RECENT
                recent[head] = row
            else:  # it joins the newest slot (encode_state's walk back from the newest event writes into
                # that slot until a play, burn or pass takes it): its row is the present flag alone
                recent[head, 15] = 1.0
                recent[head, e["seat"]] = 1.0
        self._head = head
        self._seen = len(events)
