"""Cards, ranks and the text notation of hands and plays.

Ranks from low to high are ``3 4 5 6 7 8 9 T J Q K A 2 X D``: ``T`` is the ten, ``X`` the small joker
(小王 / 小花) and ``D`` the big joker (大王 / 大花).  Suits never matter in Gouji, so a hand is a vector of
per-rank counts, indexed by the rank's position in that order.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Mapping, Sequence

RANKS = "3456789TJQKA2XD"
"""Every rank character, from the lowest (3) to the highest (the big joker)."""

NUM_RANKS = len(RANKS)
THREE, FOUR, TEN, JACK, QUEEN, KING, ACE, TWO, SMALL, BIG = 0, 1, 7, 8, 9, 10, 11, 12, 13, 14
NATURAL_RANKS = range(THREE, ACE + 1)
"""The ranks a natural play can be made of: 3 to A (2s and jokers are attached or played alone)."""

RANK_INDEX: dict[str, int] = {c: i for i, c in enumerate(RANKS)}
RANK_INDEX.update({c.lower(): i for i, c in enumerate(RANKS)})

Counts = tuple[int, ...]
"""A multiset of cards: 15 per-rank counts in the order of :data:`RANKS`."""

EMPTY: Counts = (0,) * NUM_RANKS


class InvalidCards(ValueError):
    """A card string that cannot be read: names the bad character and where it is."""


def parse_counts(text: str) -> Counts:
    """Read a card string such as ``"22333"``, ``"D 2 2 9 9"`` or ``"10 10 J"`` into per-rank counts.

    Spaces and commas are ignored, any order is accepted, lower case is accepted and ``10`` reads as ``T``.
    """
    if not isinstance(text, str):
        raise InvalidCards(f"cards must be given as text, not {type(text).__name__}")
    counts = [0] * NUM_RANKS
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " ,\t":
            i += 1
            continue
        if c == "1" and i + 1 < n and text[i + 1] == "0":
            counts[TEN] += 1
            i += 2
            continue
        r = RANK_INDEX.get(c)
        if r is None:
            raise InvalidCards(
                f"{text!r}: {c!r} at position {i} is not a card; "
                f"use 3 4 5 6 7 8 9 T (or 10) J Q K A 2 X (small joker) D (big joker)"
            )
        counts[r] += 1
        i += 1
    return tuple(counts)


_RANKS_HIGH_TO_LOW = RANKS[::-1]


def format_counts(counts: Sequence[int]) -> str:
    """The canonical text of a multiset of cards: highest rank first, e.g. ``"DX22AAK9"``."""
    return "".join(map(operator.mul, _RANKS_HIGH_TO_LOW, reversed(counts)))  # (each rank's letter × its count)


def total(counts: Sequence[int]) -> int:
    """The number of cards in a multiset."""
    return sum(counts)


def contains(hand: Sequence[int], cards: Sequence[int]) -> bool:
    """Whether ``hand`` holds every card of ``cards``."""
    return all(h >= c for h, c in zip(hand, cards, strict=True))


def subtract(hand: Sequence[int], cards: Sequence[int]) -> Counts:
    """``hand`` less ``cards``; raises ``ValueError`` when the hand does not hold them."""
    out = tuple(h - c for h, c in zip(hand, cards, strict=True))
    if min(out) < 0:
        raise ValueError(f"{format_counts(hand)} does not hold {format_counts(cards)}")
    return out


def add(a: Sequence[int], b: Sequence[int]) -> Counts:
    """The union of two multisets."""
    return tuple(x + y for x, y in zip(a, b, strict=True))


def build_deck(decks: int, removed: Mapping[int, int] | Iterable[tuple[int, int]] = ()) -> Counts:
    """The cards of ``decks`` full 54-card decks less ``removed`` (rank index -> how many to remove)."""
    counts = [4 * decks] * NUM_RANKS
    counts[SMALL] = counts[BIG] = decks
    items = removed.items() if isinstance(removed, Mapping) else removed
    for rank, n in items:
        if n > counts[rank]:
            raise ValueError(f"cannot remove {n} cards of rank {RANKS[rank]} from {decks} decks")
        counts[rank] -= n
    return tuple(counts)


def deal_hands(deck: Counts, players: int, first: int, rng: random.Random) -> list[Counts]:
    """Shuffle ``deck`` with ``rng`` and deal it round the table starting with seat ``first``.

    Cards go one at a time in seat order, so when the deck does not divide evenly the first seats in
    dealing order hold one card more.
    """
    cards = [r for r in range(NUM_RANKS) for _ in range(deck[r])]
    rng.shuffle(cards)
    hands = [[0] * NUM_RANKS for _ in range(players)]
    for i, r in enumerate(cards):
        hands[(first + i) % players][r] += 1
    return [tuple(h) for h in hands]
