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
from .seats import SEATS


class InvalidSeat(ValueError):
    """A seat argument that is not a seat of the table (0-5)."""


class InvalidHands(ValueError):
    """Hands that cannot be dealt under the rule set: the message names the seat or rank."""


class InvalidPayment(ValueError):
    """A tribute payment (:class:`gouji.engine.tribute.Payment`) that names no seats or no count of cards."""


def check_seat(seat: Any, name: str = "seat") -> int:
    """``seat`` as an int 0-5 (anything with ``__index__``, not a bool); raises :class:`InvalidSeat`."""
    n = _as_seat(seat)
    if n is None:
        raise InvalidSeat(f"{name} must be a seat 0-{SEATS - 1}, not {show(seat)}")
    return n


def check_viewer(seat: Any) -> int | None:
    """A seat whose view is asked for: a seat 0-5, or ``None`` for the public; raises :class:`InvalidSeat`."""
    if seat is None:
        return None
    n = _as_seat(seat)
    if n is None:
        raise InvalidSeat(f"seat must be a seat 0-{SEATS - 1} or None, not {show(seat)}")
    return n


def _as_seat(seat: Any) -> int | None:
    if isinstance(seat, bool):
        return None
    try:
        n = operator.index(seat)
    except TypeError:
        return None
    return n if 0 <= n < SEATS else None


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


def check_payment(payment: Any) -> None:
    """A tribute payment names a kind, two different seats and a count of cards of at least 0 (it may be
    large: a chain of counter-burns doubles it each time); raises :class:`InvalidPayment`."""
    kind, cards = payment.kind, payment.cards
    if not isinstance(kind, str) or not kind:
        raise InvalidPayment(f"a payment's kind is a word such as 'luo', not {show(kind)}")
    payer, receiver = payment.payer, payment.receiver
    for seat in (payer, receiver):
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
            raise InvalidPayment(f"a payment's payer and receiver are seats 0-5, not {show(seat)}")
    if payer == receiver:
        raise InvalidPayment(f"seat {payer} cannot pay tribute to itself")
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0:
        raise InvalidPayment(f"a payment's cards are a whole number of at least 0, not {show(cards)}")
    if not isinstance(payment.returned, bool):
        raise InvalidPayment(f"a payment's returned is true or false, not {show(payment.returned)}")


__all__ = [
    "InvalidHands",
    "InvalidPayment",
    "InvalidSeat",
    "check_hands",
    "check_payment",
    "check_seat",
    "check_viewer",
]
