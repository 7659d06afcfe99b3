"""Numeric features of what one seat may know, for learning agents.

Everything here is computed from :meth:`gouji.Deal.view` of one seat — its own hand and what is public —
never from the deal's hidden state, so an agent built on it cannot peek.  Two encoders:

- :func:`encode_state` turns a view into a fixed-size ``float32`` vector of :data:`STATE_SIZE` numbers;
- :func:`encode_actions` turns the seat's legal actions into one row of :data:`ACTION_SIZE` numbers each,
  for value networks that score (state, action) pairs (Deep Monte-Carlo, DouZero's design): a huge action
  space then costs one batched forward pass per decision.

Seats are always given **relative to the observer**: offset 0 is the observer, 1 the next seat in turn
order (下家), 3 the 对头, 5 the 上家.  Card counts are scaled to about 0..1 (see each field's divisor).

The state vector, field by field (:data:`STATE_FIELDS` holds the same names, offsets and sizes):

========================  ====  ==================================================================
field                     size  meaning
========================  ====  ==================================================================
``hand``                  15    own cards per rank ``3 4 5 6 7 8 9 T J Q K A 2 X D``, ÷ 8
``hand_total``            1     own card count ÷ 36
``unseen``                15    cards not in the hand, not played, not on a revolutionary's open
                                hand: the deck less all that is known to this seat, per rank, ÷ 8
``played``                15    the card counter (记牌器): cards played so far per rank, ÷ 8
``seats``                 6×17  per relative seat: visible card count ÷ 36, "count hidden" flag,
                                status one-hot (in play, out, smothered, failed burn, revolted),
                                opened, forfeited, declared, headless (无头), keeps the head (要头),
                                burning, to act, made the top play, passed this round,
                                (place + 1) ÷ 6 once placed (0 before)
``top``                   21    the play on the table: present, natural rank one-hot (12, none =
                                all zeros), natural count ÷ 8, 2s ÷ 4, small and big jokers ÷ 2,
                                size ÷ 10, gouji, pure gouji
``top_seat``              6     who made the top play, relative one-hot
``round``                 10    burn offer open, yielder relative one-hot (6), after a yield,
                                free-for-all (四户乱缠), seats out ÷ 6
``phase``                 8     one-hot: play, 还贡, 买四, revolution, 要头, 宣点, over, other setup
``recent``                6×16  the last six plays of the log, newest first: relative seat one-hot
                                (6), natural rank ÷ 12, natural count ÷ 8, 2s ÷ 4, jokers ÷ 2 (two),
                                size ÷ 10, gouji, burn, pass, present
``rules``                 10    bie_san, big_joker_kill, kaidian_needs_four, xuandian, revolution,
                                burn_needs_kaidian, counts always shown, counts shown at ≤10,
                                tournament scoring, six decks
========================  ====  ==================================================================

The action row: kind one-hot (play, burn, pass, yield, return, setup decision), the decision's text
one-hot over :data:`DECISIONS`, the play's natural rank one-hot (12), natural count ÷ 8, 2s ÷ 4, small
and big jokers ÷ 2, size ÷ 10, gouji, pure gouji, the hand left after it (15 per-rank counts ÷ 8, total
÷ 36, empty = goes out, only 3s left), how many plays the rest of the hand needs at least ÷ 10 (each
natural rank one play; 2s and jokers ride along), the action uses 2s, uses jokers, and — when the caller
passes ``prior`` — whether it is the action another player (e.g. the heuristic bot) would choose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine.actions import Action, Burn, Decision, Return
from ..engine.cards import ACE, BIG, NUM_RANKS, RANK_INDEX, SMALL, THREE, TWO, parse_counts
from ..engine.plays import Play, parse_play
from ..engine.seats import SEATS

F32 = npt.NDArray[np.float32]


STATUSES = ("in_play", "out", "smothered", "failed_burn", "revolted")
PHASES = ("play", "tribute_return", "buy_four", "revolution", "yaotou", "xuandian", "over")
DECISIONS = (
    "pass",
    "yield",
    "revolt",
    "yaotou",
    "wutou",
    "declare",
    "buy4",
    "chongdian",
    "selfopen",
    "huiwu",
    "giveback",
)
"""Every decision text the encoder knows, in the order of its one-hot; an unknown one sets none."""

_SEAT_FIELDS = 17
_RECENT = 6
_RECENT_FIELDS = 16

STATE_FIELDS: tuple[tuple[str, int], ...] = (
    ("hand", NUM_RANKS),
    ("hand_total", 1),
    ("unseen", NUM_RANKS),
    ("played", NUM_RANKS),
    ("seats", SEATS * _SEAT_FIELDS),
    ("top", 21),
    ("top_seat", SEATS),
    ("round", 10),
    ("phase", 8),
    ("recent", _RECENT * _RECENT_FIELDS),
    ("rules", 10),
)
"""The state vector's fields in order, with their sizes (see the module's table)."""

_OFFSETS: dict[str, int] = {}
_o = 0
for _name, _size in STATE_FIELDS:
    _OFFSETS[_name] = _o
    _o += _size
STATE_SIZE: int = _o
"""Length of :func:`encode_state`'s vector."""

_A_KIND = 0  # 6: play, burn, pass, yield, return, setup decision
_A_DEC = 6  # len(DECISIONS)
_A_PLAY = _A_DEC + len(DECISIONS)  # 12 rank one-hot + k, t, x, d, size, gouji, pure = 19
_A_AFTER = _A_PLAY + 19  # 15 counts + total + empty + only threes + plays needed = 19
_A_EXTRA = _A_AFTER + 19  # uses 2s, uses jokers, prior
ACTION_SIZE: int = _A_EXTRA + 3
"""Length of one row of :func:`encode_actions`."""

_DEC_INDEX = {d: i for i, d in enumerate(DECISIONS)}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_STATUS_INDEX = {s: i for i, s in enumerate(STATUSES)}


def _counts_vec(text: str | None) -> npt.NDArray[np.float64]:
    if not text:
        return np.zeros(NUM_RANKS)
    return np.asarray(_cached_counts(text), dtype=np.float64)


_COUNTS_CACHE: dict[str, tuple[int, ...]] = {}


def _cached_counts(text: str) -> tuple[int, ...]:
    c = _COUNTS_CACHE.get(text)
    if c is None:
        if len(_COUNTS_CACHE) > 200_000:
            _COUNTS_CACHE.clear()
        c = parse_counts(text)
        _COUNTS_CACHE[text] = c
    return c


def _deck(options: Mapping[str, Any]) -> npt.NDArray[np.float64]:
    decks = int(options.get("decks", 4))
    deck = np.full(NUM_RANKS, 4.0 * decks)
    deck[SMALL] = deck[BIG] = decks
    removed = options.get("removed") or {}
    items = removed.items() if isinstance(removed, Mapping) else removed
    for rank, n in items:
        deck[RANK_INDEX[str(rank)]] -= int(n)
    return deck


def _play_into(out: F32, at: int, p: Play) -> None:
    """Write a play's 19 numbers at ``out[at:]``: rank one-hot, counts, size, gouji, pure."""
    if THREE <= p.rank <= ACE:
        out[at + p.rank] = 1.0
    out[at + 12] = p.k / 8
    out[at + 13] = p.t / 4
    out[at + 14] = p.x / 2
    out[at + 15] = p.d / 2
    out[at + 16] = p.size / 10
    out[at + 17] = float(p.gouji)
    out[at + 18] = float(p.pure)


def encode_state(view: Mapping[str, Any]) -> F32:
    """The fixed-size vector of :data:`STATE_SIZE` numbers for one seat's view (see the module's table).

    ``view`` is ``deal.view(seat)``; its ``log`` (when present) gives the recent plays.  A public view
    (seat ``None``) is refused: features are always some seat's.
    """
    me = view.get("seat")
    if not isinstance(me, int):
        raise ValueError("encode_state needs a seat's view (deal.view(seat)), not the public view")
    out = np.zeros(STATE_SIZE, dtype=np.float32)
    opts = view.get("rule_options") or {}
    hand = _counts_vec(view.get("hand"))
    played = _counts_vec(view.get("played"))
    o = _OFFSETS["hand"]
    out[o : o + NUM_RANKS] = hand / 8
    out[_OFFSETS["hand_total"]] = hand.sum() / 36
    known = hand + played
    for p in view["players"]:
        if p["revealed"] and p["seat"] != me:
            known = known + _counts_vec(p["revealed"])
    unseen = np.maximum(_deck(opts) - known, 0.0)
    o = _OFFSETS["unseen"]
    out[o : o + NUM_RANKS] = unseen / 8
    o = _OFFSETS["played"]
    out[o : o + NUM_RANKS] = played / 8

    to_act, top_seat = view.get("to_act"), view.get("top_seat")
    passed = set(view.get("passed") or ())
    base = _OFFSETS["seats"]
    for p in view["players"]:
        rel = (p["seat"] - me) % SEATS
        o = base + rel * _SEAT_FIELDS
        cards = p["cards"]
        if cards is None:
            out[o + 1] = 1.0
        else:
            out[o] = cards / 36
        st = _STATUS_INDEX.get(p["status"])
        if st is not None:
            out[o + 2 + st] = 1.0
        out[o + 7] = float(bool(p["opened"]))
        out[o + 8] = float(bool(p["forfeited"]))
        out[o + 9] = float(bool(p["declared"]))
        out[o + 10] = float(bool(p["headless"]))
        out[o + 11] = float(p.get("yaotou") == "yaotou" or (p.get("yaotou_left") or 0) > 0)
        out[o + 12] = float(bool(p["burning"]))
        out[o + 13] = float(to_act == p["seat"])
        out[o + 14] = float(top_seat == p["seat"])
        out[o + 15] = float(p["seat"] in passed)
        if p["place"] is not None:
            out[o + 16] = (p["place"] + 1) / 6

    top = view.get("top")
    o = _OFFSETS["top"]
    if top:
        out[o] = 1.0
        _play_into(out, o + 1, parse_play(top))
        if isinstance(top_seat, int):
            out[_OFFSETS["top_seat"] + (top_seat - me) % SEATS] = 1.0

    o = _OFFSETS["round"]
    out[o] = float(bool(view.get("burn_offer")))
    y = view.get("yielder")
    if isinstance(y, int):
        out[o + 1 + (y - me) % SEATS] = 1.0
    out[o + 7] = float(bool(view.get("after_yield")))
    out[o + 8] = float(bool(view.get("free_for_all")))
    out[o + 9] = len(view.get("out_order") or ()) / 6

    ph = _PHASE_INDEX.get(view.get("phase", ""), len(PHASES))
    out[_OFFSETS["phase"] + ph] = 1.0

    log = view.get("log")
    if log:
        o = _OFFSETS["recent"]
        n = 0
        for e in reversed(log):
            if n >= _RECENT:
                break
            if e.get("type") != "act":
                continue
            text = e.get("action", "")
            at = o + n * _RECENT_FIELDS
            out[at + (e["seat"] - me) % SEATS] = 1.0
            out[at + 15] = 1.0
            if text == "pass":
                out[at + 14] = 1.0
            else:
                burn = text.startswith("burn ")
                try:
                    q = parse_play(text[5:] if burn else text)
                except ValueError:
                    continue  # a setup decision or 还贡: no play
                out[at + 6] = (q.rank + 1) / 12 if q.rank >= 0 else 0.0
                out[at + 7] = q.k / 8
                out[at + 8] = q.t / 4
                out[at + 9] = q.x / 2
                out[at + 10] = q.d / 2
                out[at + 11] = q.size / 10
                out[at + 12] = float(q.gouji)
                out[at + 13] = float(burn)
            n += 1

    _rules_into(out, opts)
    return out


def _rules_into(out: F32, opts: Mapping[str, Any]) -> None:
    """Write the ``rules`` field of the state vector from a view's ``rule_options``."""
    o = _OFFSETS["rules"]
    show = opts.get("show_counts")
    out[o] = float(bool(opts.get("bie_san")))
    out[o + 1] = float(bool(opts.get("big_joker_kill")))
    out[o + 2] = float(bool(opts.get("kaidian_needs_four")))
    out[o + 3] = float(bool(opts.get("xuandian")))
    out[o + 4] = float(bool(opts.get("revolution")))
    out[o + 5] = float(bool(opts.get("burn_needs_kaidian")))
    out[o + 6] = float(show == "always")
    out[o + 7] = float(show == "at_or_below_10")
    out[o + 8] = float(opts.get("scoring") == "tournament")
    out[o + 9] = float(int(opts.get("decks", 4)) >= 6)


def plays_needed(hand: Sequence[int]) -> int:
    """A lower bound on the plays that empty ``hand``: one per natural rank held (2s and jokers ride
    along with them), or one for a hand of 2s and jokers only."""
    n = sum(1 for r in range(THREE, ACE + 1) if hand[r])
    if n == 0 and (hand[TWO] or hand[SMALL] or hand[BIG]):
        n = 1
    return n


def _action_cards(a: Action) -> tuple[Play | None, Sequence[int] | None]:
    if isinstance(a, Play):
        return a, a.counts
    if isinstance(a, Burn):
        return a.play, a.play.counts
    if isinstance(a, Return):
        return None, a.counts
    return None, None


def encode_actions(view: Mapping[str, Any], legal: Sequence[Action], prior: int | None = None) -> F32:
    """One row of :data:`ACTION_SIZE` numbers per action of ``legal``, in order (see the module's text).

    ``prior``, when given, is the index in ``legal`` of a suggested action (another player's choice);
    its row gets the prior flag.
    """
    rows = np.zeros((len(legal), ACTION_SIZE), dtype=np.float32)
    hand = _cached_counts(view.get("hand") or "")
    if not hand:
        hand = (0,) * NUM_RANKS
    for i, a in enumerate(legal):
        row = rows[i]
        play, used = _action_cards(a)
        if isinstance(a, Play):
            row[_A_KIND] = 1.0
        elif isinstance(a, Burn):
            row[_A_KIND + 1] = 1.0
        elif isinstance(a, Return):
            row[_A_KIND + 4] = 1.0
        elif isinstance(a, Decision):
            t = a.text
            row[_A_KIND + (2 if t == "pass" else 3 if t == "yield" else 5)] = 1.0
            d = _DEC_INDEX.get(t)
            if d is not None:
                row[_A_DEC + d] = 1.0
        if play is not None:
            _play_into(row, _A_PLAY, play)
            row[_A_EXTRA] = float(play.t > 0)
            row[_A_EXTRA + 1] = float(play.x + play.d > 0)
        left = [h - u for h, u in zip(hand, used, strict=True)] if used is not None else list(hand)
        total = sum(left)
        row[_A_AFTER : _A_AFTER + NUM_RANKS] = np.asarray(left, dtype=np.float32) / 8
        row[_A_AFTER + 15] = total / 36
        row[_A_AFTER + 16] = float(total == 0)
        row[_A_AFTER + 17] = float(total > 0 and total == left[THREE])
        row[_A_AFTER + 18] = plays_needed(left) / 10
    if prior is not None and 0 <= prior < len(legal):
        rows[prior, _A_EXTRA + 2] = 1.0
    return rows
