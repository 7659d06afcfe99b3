"""Checks of what a caller hands a :class:`gouji.Deal`: seat numbers, and the six hands of
:meth:`gouji.Deal.from_hands`.  Each refusal is a ``ValueError`` whose message says what was wrong and
what is allowed."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from . import cards as C
from .rule_bounds import show
from .rules import RuleSet

SEATS = 6


class InvalidSeat(ValueError):
    """A seat argument that is not a seat of the table (0-5)."""


class InvalidHands(ValueError):
    """Hands that cannot be dealt under the rule set: the message names the seat or rank."""


def check_seat(seat: Any, name: str = "seat", allow_none: bool = False) -> int | None:
    """``seat`` as an int 0-5 (``None`` passes when ``allow_none``); raises :class:`InvalidSeat`."""
    if seat is None and allow_none:
        return None
    try:
        n = None if isinstance(seat, bool) else operator.index(seat)
    except TypeError:
        n = None
    if n is None or not 0 <= n < SEATS:
        allowed = f"0-{SEATS - 1}" + (" or None" if allow_none else "")
        raise InvalidSeat(f"{name} must be a seat {allowed}, not {show(seat)}")
    return n


def _hand_counts(seat: int, hand: Any) -> C.Counts:
    if isinstance(hand, str):
        try:
            return C.parse_counts(hand)
        except C.InvalidCards as e:
            raise InvalidHands(f"hand of seat {seat}: {e}") from None
    if isinstance(hand, Sequence) and len(hand) == C.NUM_RANKS:
        counts = tuple(hand)
        if all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
            return counts
    raise InvalidHands(
        f"hand of seat {seat}: {show(hand)} is not a hand: give a card text such as '2AKK93' "
        f"or {C.NUM_RANKS} per-rank counts (3 … D), each a whole number of at least 0"
    )


def check_hands(hands: Any, rules: RuleSet) -> list[C.Counts]:
    """Six hands (card texts or per-rank counts) as counts, checked against ``rules``: one hand a seat,
    none empty, and no rank held more often than the rule set's deck holds it."""
    if isinstance(hands, str | bytes) or not isinstance(hands, Sequence):
        raise InvalidHands(f"expected a list of {SEATS} hands, one a seat, not {show(hands)}")
    if len(hands) != SEATS:
        raise InvalidHands(f"a deal needs {SEATS} hands, one a seat, not {len(hands)}")
    counts = [_hand_counts(s, h) for s, h in enumerate(hands)]
    for s, c in enumerate(counts):
        if not sum(c):
            raise InvalidHands(f"hand of seat {s} is empty: every seat starts the deal with cards")
    deck = C.build_deck(rules.decks, rules.removed_counts)
    for r in range(C.NUM_RANKS):
        held = sum(c[r] for c in counts)
        if held > deck[r]:
            removed = " ".join(f"{k}×{n}" for k, n in rules.removed)
            less = f" less {removed}" if removed else ""
            raise InvalidHands(
                f"the hands hold {held} cards of rank {C.RANKS[r]}, but the deck of these rules "
                f"({rules.decks} decks{less}) holds {deck[r]}"
            )
    return counts


__all__ = ["InvalidHands", "InvalidSeat", "check_hands", "check_seat"]
