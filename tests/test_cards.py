"""Cards and the text notation of hands (rule book §2): parsing, canonical text, decks and dealing."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gouji import RANKS, InvalidCards
from gouji.engine import cards as C

ORDER = "3456789TJQKA2XD"
"""The rank order of rule book §2, written out here so the tests do not trust the engine's own table."""


def counts_of(**by_rank: int) -> tuple[int, ...]:
    """Counts from rank characters, e.g. ``counts_of(T=2, J=1)``; digits are passed as ``_3`` … ``_9``, ``_2``."""
    out = [0] * 15
    for name, n in by_rank.items():
        out[ORDER.index(name.lstrip("_"))] += n
    return tuple(out)


# ---------------------------------------------------------------------------------------------------------
# Ranks


def test_ranks_run_from_three_to_big_joker() -> None:
    assert RANKS == ORDER
    assert C.NUM_RANKS == 15
    named = {"THREE": "3", "FOUR": "4", "TEN": "T", "JACK": "J", "QUEEN": "Q", "KING": "K", "ACE": "A"}
    named |= {"TWO": "2", "SMALL": "X", "BIG": "D"}
    for const, char in named.items():
        assert RANKS[getattr(C, const)] == char
    assert [RANKS[r] for r in C.NATURAL_RANKS] == list("3456789TJQKA")


# ---------------------------------------------------------------------------------------------------------
# Parsing hands


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("22333", counts_of(_2=2, _3=3)),
        ("XX888", counts_of(X=2, _8=3)),
        ("D 2 2 9 9 9 9", counts_of(D=1, _2=2, _9=4)),
        ("10 10 J", counts_of(T=2, J=1)),
        ("1010J", counts_of(T=2, J=1)),
        ("T10t", counts_of(T=3)),
        ("xx888", counts_of(X=2, _8=3)),
        ("dxqka", counts_of(D=1, X=1, Q=1, K=1, A=1)),
        ("  9 8,7\t6 ", counts_of(_9=1, _8=1, _7=1, _6=1)),
        ("", counts_of()),
        ("   ", counts_of()),
    ],
)
def test_parse_counts(text: str, expected: tuple[int, ...]) -> None:
    assert C.parse_counts(text) == expected


def test_parse_counts_any_order_gives_the_same_hand() -> None:
    hands = {C.parse_counts(t) for t in ("D22999", "9D2929", "2 9 D 9 2 9", "99922d")}
    assert hands == {counts_of(D=1, _2=2, _9=3)}


@pytest.mark.parametrize(
    ("text", "bad", "position"),
    [("88Z", "Z", 2), ("1", "1", 0), ("0", "0", 0), ("100", "0", 2), ("QQ-K", "-", 2), ("B", "B", 0)],
)
def test_parse_counts_names_the_bad_character(text: str, bad: str, position: int) -> None:
    with pytest.raises(InvalidCards) as info:
        C.parse_counts(text)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert repr(bad) in message
    assert f"position {position}" in message


def test_parse_counts_refuses_non_text() -> None:
    with pytest.raises(InvalidCards, match="text"):
        C.parse_counts(["Q", "Q"])  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------------------
# Canonical text

counts_st = st.lists(st.integers(0, 6), min_size=15, max_size=15).map(tuple)


def test_format_counts_is_highest_first() -> None:
    assert C.format_counts(C.parse_counts("9 A 2 X K 9 D 2")) == "DX22AK99"
    assert C.format_counts(C.parse_counts("10 3 J")) == "JT3"
    assert C.format_counts(C.EMPTY) == ""


@given(counts_st)
def test_format_counts_round_trips(counts: tuple[int, ...]) -> None:
    text = C.format_counts(counts)
    assert C.parse_counts(text) == counts
    assert len(text) == sum(counts)
    # highest first: the rank positions never rise along the text
    positions = [ORDER.index(c) for c in text]
    assert positions == sorted(positions, reverse=True)


@given(counts_st, st.randoms(use_true_random=False))
def test_parse_counts_ignores_order_case_spaces_and_ten(counts: tuple[int, ...], rng: random.Random) -> None:
    cards = list(C.format_counts(counts))
    rng.shuffle(cards)
    spelled = [("10" if c == "T" and rng.random() < 0.5 else c) for c in cards]
    spelled = [c.lower() if rng.random() < 0.5 else c for c in spelled]
    text = "".join(c + (" " if rng.random() < 0.3 else "") for c in spelled)
    assert C.parse_counts(text) == counts


# ---------------------------------------------------------------------------------------------------------
# Multiset arithmetic


@given(counts_st, counts_st)
def test_add_subtract_contains(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    both = C.add(a, b)
    assert C.total(both) == C.total(a) + C.total(b)
    assert C.contains(both, a) and C.contains(both, b)
    assert C.subtract(both, b) == a
    if not C.contains(a, b):
        with pytest.raises(ValueError, match="does not hold"):
            C.subtract(a, b)


# ---------------------------------------------------------------------------------------------------------
# Decks


def test_build_deck_four_decks() -> None:
    deck = C.build_deck(4)
    assert C.total(deck) == 216
    assert deck == (16,) * 13 + (4, 4)


@pytest.mark.parametrize(
    ("decks", "removed", "size"),
    [
        (4, {}, 216),
        (4, {0: 10, 1: 8}, 198),
        (4, {0: 10, 1: 10}, 196),
        (4, [(0, 10), (1, 10)], 196),
        (6, {}, 324),
        (1, {}, 54),
    ],
)
def test_build_deck_totals(decks: int, removed: object, size: int) -> None:
    deck = C.build_deck(decks, removed)  # type: ignore[arg-type]
    assert C.total(deck) == size
    gone = dict(removed) if not isinstance(removed, dict) else removed
    for r in range(15):
        full = decks if r >= 13 else 4 * decks
        assert deck[r] == full - gone.get(r, 0)


def test_build_deck_cannot_remove_more_than_there_are() -> None:
    with pytest.raises(ValueError, match="3"):
        C.build_deck(4, {0: 17})
    with pytest.raises(ValueError, match="D"):
        C.build_deck(4, {14: 5})


# ---------------------------------------------------------------------------------------------------------
# Dealing


def _deal(deck: tuple[int, ...], first: int, seed: int) -> list[tuple[int, ...]]:
    return C.deal_hands(deck, 6, first, random.Random(seed))


@pytest.mark.parametrize("seed", [0, 1, 7])
@pytest.mark.parametrize("first", range(6))
def test_deal_216_gives_36_each(seed: int, first: int) -> None:
    deck = C.build_deck(4)
    hands = _deal(deck, first, seed)
    assert [C.total(h) for h in hands] == [36] * 6
    assert C.add(C.add(C.add(hands[0], hands[1]), C.add(hands[2], hands[3])), C.add(hands[4], hands[5])) == deck


def test_deal_324_gives_54_and_198_gives_33() -> None:
    assert [C.total(h) for h in _deal(C.build_deck(6), 3, 1)] == [54] * 6
    assert [C.total(h) for h in _deal(C.build_deck(4, {0: 10, 1: 8}), 3, 1)] == [33] * 6


def test_deal_196_first_seats_get_one_more() -> None:
    deck = C.build_deck(4, {0: 10, 1: 10})
    assert [C.total(h) for h in _deal(deck, 0, 5)] == [33, 33, 33, 33, 32, 32]
    hands = _deal(deck, 2, 5)
    sizes = {seat: C.total(h) for seat, h in enumerate(hands)}
    assert sizes == {2: 33, 3: 33, 4: 33, 5: 33, 0: 32, 1: 32}


@given(
    st.integers(0, 5), st.integers(0, 2**32 - 1), st.sampled_from([(4, {}), (4, {0: 10, 1: 10}), (4, {0: 10, 1: 8})])
)
@settings(max_examples=30, deadline=None)
def test_deal_conserves_cards_and_is_even(first: int, seed: int, spec: tuple[int, dict[int, int]]) -> None:
    deck = C.build_deck(*spec)
    hands = _deal(deck, first, seed)
    pooled: Counter[int] = Counter()
    for h in hands:
        pooled.update({r: n for r, n in enumerate(h) if n})
    assert tuple(pooled.get(r, 0) for r in range(15)) == deck
    n, extra = divmod(C.total(deck), 6)
    for i in range(6):  # dealing order: first, first+1, …; the first `extra` of them get one more
        assert C.total(hands[(first + i) % 6]) == n + (1 if i < extra else 0)


def test_deal_is_reproducible_from_the_seed() -> None:
    deck = C.build_deck(4)
    assert _deal(deck, 0, 42) == _deal(deck, 0, 42)
    assert _deal(deck, 0, 42) != _deal(deck, 0, 43)
