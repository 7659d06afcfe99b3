"""Plays (rule book §2-4 and the worked examples of §15), response and lead generation, actions.

The beating tests check the engine against a reference written here straight from the wording of rule book §4,
and the generators against brute force over every sub-multiset of a hand.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random
import re
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gouji
from gouji import PASS, YIELD, Burn, InvalidPlay, LegalActions, Play, parse_action, parse_play
from gouji.engine import actions as A
from gouji.engine import plays as P

ORDER = "3456789TJQKA2XD"
"""Rule book §2, low to high; the reference below uses these positions as values."""
R = {c: i for i, c in enumerate(ORDER)}
THREE, TEN, ACE, TWO, X, D = R["3"], R["T"], R["A"], R["2"], R["X"], R["D"]
NATURALS = range(THREE, ACE + 1)
NONE = -1

Counts = tuple[int, ...]


# ---------------------------------------------------------------------------------------------------------
# The reference, from the wording of rule book §3 and §4


def counts_from_key(rank: int, k: int, t: int, x: int, d: int) -> Counts:
    out = [0] * 15
    if k:
        out[rank] = k
    out[TWO], out[X], out[D] = t, x, d
    return tuple(out)


def ref_values(counts: Counts) -> list[int]:
    """Each card's effective value, high to low: a 2 with a natural rank takes that rank; in a play with both
    kinds of joker every big joker counts as a small one."""
    naturals = [r for r in NATURALS if counts[r]]
    assert len(naturals) <= 1, "not a play"
    mixed = counts[X] > 0 and counts[D] > 0
    values: list[int] = []
    for r in naturals:
        values += [r] * counts[r]
    values += [naturals[0] if naturals else TWO] * counts[TWO]
    values += [X] * counts[X]
    values += [X if mixed else D] * counts[D]
    return sorted(values, reverse=True)


def ref_covers(b: list[int], a: list[int]) -> bool:
    """Same number of cards and, both sorted high to low, every card of b strictly above a's at its place."""
    b, a = sorted(b, reverse=True), sorted(a, reverse=True)
    return len(b) == len(a) and all(vb > va for vb, va in zip(b, a, strict=True))


def ref_beats(b_counts: Counts, a_counts: Counts, kill: bool) -> bool:
    b, a = ref_values(b_counts), ref_values(a_counts)
    if ref_covers(b, a):
        return True
    big = a.count(D)
    if not (kill and big):
        return False
    # big_joker_kill: each big joker of A covered by two big jokers of B or by three small ones of B (B's big
    # jokers count as small in a mixed play: ref_values already says so); every other card of A by one
    # strictly higher card; nothing of B left over.
    rest_a = [v for v in a if v != D]
    for by_two in range(big + 1):
        rest_b = list(b)
        try:
            for _ in range(2 * by_two):
                rest_b.remove(D)
            for _ in range(3 * (big - by_two)):
                rest_b.remove(X)
        except ValueError:
            continue
        if ref_covers(rest_b, rest_a):
            return True
    return False


def sub_multisets(hand: Sequence[int]) -> Iterator[Counts]:
    """Every sub-multiset of a hand, the empty one included."""
    return itertools.product(*(range(n + 1) for n in hand))  # type: ignore[return-value]


def brute_plays(hand: Sequence[int]) -> set[Play]:
    """Every play that can be made from the hand: each sub-multiset that forms one."""
    out = set()
    for sub in sub_multisets(hand):
        try:
            out.add(P.from_counts(sub))
        except InvalidPlay:
            continue
    return out


def single_rank_plays(hand: Sequence[int]) -> set[Play]:
    """Every play from the hand, enumerating only sub-multisets with at most one natural rank (a faster
    brute force for big hands: any other sub-multiset mixes naturals and is no play, see
    test_from_counts_refuses_two_natural_ranks)."""
    out = set()
    extras = [range(hand[TWO] + 1), range(hand[X] + 1), range(hand[D] + 1)]
    bodies: list[tuple[int, int]] = [(NONE, 0)] + [(r, k) for r in NATURALS for k in range(1, hand[r] + 1)]
    for (r, k), (t, x, d) in itertools.product(bodies, itertools.product(*extras)):
        if k + t + x + d:
            out.add(P.from_counts(counts_from_key(r, k, t, x, d)))
    return out


# ---------------------------------------------------------------------------------------------------------
# Strategies


@st.composite
def play_keys(draw: st.DrawFn, max_k: int = 6, max_t: int = 4, max_x: int = 4, max_d: int = 4) -> tuple[int, ...]:
    """(rank, k, t, x, d) of a non-empty play."""
    rank = draw(st.sampled_from([NONE, *NATURALS]))
    k = 0 if rank == NONE else draw(st.integers(1, max_k))
    t = draw(st.integers(0, max_t))
    x = draw(st.integers(0, max_x))
    d = draw(st.integers(1 if k + t + x == 0 else 0, max_d))
    return (rank, k, t, x, d)


@st.composite
def sized_play_keys(draw: st.DrawFn, size: int) -> tuple[int, ...]:
    """(rank, k, t, x, d) of a play of exactly ``size`` cards (size >= 1)."""
    d = draw(st.integers(0, min(4, size)))
    x = draw(st.integers(0, min(4, size - d)))
    t = draw(st.integers(0, min(4, size - d - x)))
    k = size - d - x - t
    rank = draw(st.sampled_from(list(NATURALS))) if k else NONE
    return (rank, k, t, x, d)


@st.composite
def play_pairs(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A top play a and a challenger b, b usually of a size that could beat a (plain or by big_joker_kill)."""
    a = draw(play_keys())
    size_a, big_a = sum(a[1:]), a[4] if a[3] == 0 else 0
    size = draw(st.sampled_from([size_a, size_a, size_a + big_a, size_a + 2 * big_a]))
    b = draw(st.one_of(sized_play_keys(size), play_keys()))
    return a, b


def play_of(key: Sequence[int]) -> Play:
    return Play.of(*key)


@st.composite
def small_hands(draw: st.DrawFn, naturals: int = 3) -> Counts:
    """A hand with up to ``naturals`` natural ranks held and 0-3 of each of 2, X and D (so brute force stays small)."""
    hand = [0] * 15
    for r in draw(st.sets(st.sampled_from(list(NATURALS)), max_size=naturals)):
        hand[r] = draw(st.integers(1, 3))
    for r in (TWO, X, D):
        hand[r] = draw(st.integers(0, 3))
    return tuple(hand)


full_small_hands = st.lists(st.integers(0, 3), min_size=15, max_size=15).map(tuple)
"""0-3 of every rank."""


# ---------------------------------------------------------------------------------------------------------
# 1. Notation


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("22333", "22333"),
        ("33322", "22333"),
        ("TTTT2", "2TTTT"),
        ("D 2 2 9 9 9 9", "D229999"),
        ("9 9 9 9 2 2 D", "D229999"),
        ("xx888", "XX888"),
        ("10 10 10", "TTT"),
        ("qqq", "QQQ"),
        ("X D", "DX"),
        ("2", "2"),
        ("d", "D"),
        ("  K  ", "K"),
    ],
)
def test_parse_play_notation(text: str, canonical: str) -> None:
    play = parse_play(text)
    assert str(play) == canonical
    assert parse_play(canonical) is play
    assert repr(play) == f"Play({canonical!r})"


@given(play_keys())
@settings(max_examples=300, deadline=None)
def test_canonical_text_round_trips(key: tuple[int, ...]) -> None:
    rank, k, t, x, d = key
    play = play_of(key)
    assert play.key == key
    assert str(play) == "D" * d + "X" * x + "2" * t + (ORDER[rank] * k if k else "")
    assert parse_play(str(play)) is play
    assert parse_play(str(play).lower()) is play
    assert parse_play(" ".join(reversed(str(play))).replace("T", "10")) is play
    assert P.from_counts(counts_from_key(*key)) is play
    assert play.counts == counts_from_key(*key)
    assert Play(*key) is play


@given(play_keys(), st.randoms(use_true_random=False))
@settings(max_examples=100, deadline=None)
def test_parse_play_any_order(key: tuple[int, ...], rng: random.Random) -> None:
    cards = list(str(play_of(key)))
    rng.shuffle(cards)
    assert parse_play(" ".join(cards)) is play_of(key)


@pytest.mark.parametrize(("text", "bad"), [("88Z", "Z"), ("QQ1", "1"), ("9 9 0", "0"), ("DX*", "*"), ("88b", "b")])
def test_parse_play_names_the_bad_character(text: str, bad: str) -> None:
    with pytest.raises(InvalidPlay) as info:
        parse_play(text)
    assert isinstance(info.value, ValueError)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize(
    ("text", "ranks"), [("8899", ("8", "9")), ("10 10 J", ("T", "J")), ("D 2 3 A", ("3", "A")), ("x45", ("4", "5"))]
)
def test_parse_play_refuses_two_natural_ranks(text: str, ranks: tuple[str, str]) -> None:
    with pytest.raises(InvalidPlay) as info:
        parse_play(text)
    message = str(info.value)
    for rank in ranks:  # each rank named as a word of its own, not just inside the echoed cards
        assert re.search(rf"(?<![0-9A-Z]){rank}(?![0-9A-Z])", message), message


@pytest.mark.parametrize("text", ["", "   ", " , "])
def test_parse_play_refuses_an_empty_play(text: str) -> None:
    with pytest.raises(InvalidPlay, match="empty"):
        parse_play(text)


@given(full_small_hands)
@settings(max_examples=100, deadline=None)
def test_from_counts_refuses_two_natural_ranks(counts: Counts) -> None:
    naturals = [r for r in NATURALS if counts[r]]
    if len(naturals) > 1:
        with pytest.raises(InvalidPlay):
            P.from_counts(counts)
    elif any(counts):
        assert P.from_counts(counts).counts == counts
    else:
        with pytest.raises(InvalidPlay):
            P.from_counts(counts)


@pytest.mark.parametrize(
    "key",
    [
        (TWO, 1, 0, 0, 0),
        (X, 1, 0, 0, 0),
        (R["8"], 0, 1, 0, 0),
        (NONE, 2, 0, 0, 0),
        (NONE, 0, 0, 0, 0),
        (R["8"], -1, 0, 0, 0),
    ],
)
def test_play_of_refuses_impossible_shapes(key: tuple[int, ...]) -> None:
    with pytest.raises(InvalidPlay):
        Play.of(*key)


def test_parse_play_passes_a_play_through() -> None:
    play = parse_play("QQQ")
    assert parse_play(play) is play


def test_plays_are_immutable_interned_values() -> None:
    play = parse_play("DD999")
    with pytest.raises(AttributeError):
        play.k = 4  # type: ignore[misc]
    assert copy.copy(play) is play
    assert copy.deepcopy(play) is play
    assert pickle.loads(pickle.dumps(play)) is play
    assert {play: 1}[parse_play("9D9D9")] == 1


# ---------------------------------------------------------------------------------------------------------
# 2. The worked examples of rule book §15


def values(text: str) -> list[str]:
    """A play's effective values as rank characters, high to low."""
    return [ORDER[v] for v in parse_play(text).effective_values()]


def test_example_1_money_takes_the_rank() -> None:
    assert values("22333") == list("33333")
    assert values("266") == list("666")
    assert gouji.is_gouji("2")
    assert gouji.is_gouji("TTTT2")
    assert values("TTTT2") == list("TTTTT")
    assert not gouji.is_pure_gouji("TTTT2")


def test_example_2_plain_plays() -> None:
    assert gouji.beats("99999", "22888")
    assert not gouji.beats("22888", "99999")
    assert not gouji.beats("9999", "99999")
    assert not gouji.beats("99999", "9999")


def test_example_3_small_jokers_need_big_jokers() -> None:
    for rules in ("qingdao", "tongyong"):
        assert gouji.beats("DD999", "XX888", rules=rules)
        assert gouji.beats("DDD99", "XX888", rules=rules)
        assert not gouji.beats("DD777", "XX888", rules=rules)
        assert not gouji.beats("XXX99", "XX888", rules=rules)
        assert not gouji.beats("DX999", "XX888", rules=rules)


def test_example_4_mixed_jokers_and_jokers_with_twos() -> None:
    assert values("D X 2 2 5 5 5 5") == list("XX555555")
    mixed = parse_play("D X 2 2 5 5 5 5")
    assert (mixed.eff_big, mixed.eff_small, mixed.value, mixed.body) == (0, 2, R["5"], 6)
    assert values("DD 2 2 2 9 9 9 9") == list("DD9999999")
    assert values("DD222") == list("DD222")  # jokers with twos only: the 2s stay 2s
    assert parse_play("DD222").value == TWO
    # the mixed play is beaten by two big jokers with six higher cards, as two small jokers would be
    assert gouji.beats("DD 6 6 6 6 6 6", "D X 2 2 5 5 5 5")
    assert gouji.beats("DD 2 2 2 2 2 2", "D X 2 2 5 5 5 5")
    assert not gouji.beats("DX 6 6 6 6 6 6", "D X 2 2 5 5 5 5")


def test_example_5_big_joker_kill_under_qingdao_and_tongyong() -> None:
    top = parse_play("D 8 8 8")
    # qingdao: nothing beats it — not even the strongest four cards of a whole table
    everything = (16,) * 13 + (4, 4)
    assert not P.can_beat(everything, top, kill=False)
    for b in ("DD99", "DDDD", "DD22", "XXX9", "DDD2", "D999"):
        assert not gouji.beats(b, top, rules="qingdao")
    assert not gouji.beats("DD 9 9 9", top, rules="qingdao")
    # tongyong (big_joker_kill): two big jokers cover the big one; the 8s need strictly higher cards
    assert gouji.RuleSet.preset("tongyong").big_joker_kill
    assert gouji.beats("DD 9 9 9", top, rules="tongyong")
    assert not gouji.beats("DD 8 8 8", top, rules="tongyong")
    assert gouji.beats("XXX 9 9 9", top, rules="tongyong")
    assert not gouji.beats("DDD 9 9 9", top, rules="tongyong")  # a card of B left over
    assert P.can_beat(everything, top, kill=True)
    # the short cases rule book §4 lists
    assert gouji.beats("DD", "D", rules="tongyong") and not gouji.beats("DD", "D", rules="qingdao")
    assert gouji.beats("XXX", "D", rules="tongyong") and not gouji.beats("XXX", "D", rules="qingdao")
    assert gouji.beats("DXX", "D", rules="tongyong")  # mixed: three small jokers
    assert not gouji.beats("DX", "D", rules="tongyong")


def test_example_6_gouji_thresholds() -> None:
    assert not gouji.is_gouji("JJJ")
    for text in ("JJJJ", "QQQ", "KK", "AA", "X", "5X"):
        assert gouji.is_gouji(text), text


def test_section_4_listed_cases() -> None:
    assert gouji.beats("X", "2") and gouji.beats("2", "A") and gouji.beats("XX", "22") and gouji.beats("D", "X")
    assert not gouji.beats("2", "X") and not gouji.beats("A", "2") and not gouji.beats("X", "D")
    assert not gouji.beats("X", "X") and not gouji.beats("D", "D")


def test_public_beats_takes_presets_rule_sets_and_none() -> None:
    tongyong = gouji.RuleSet.preset("tongyong")
    assert gouji.beats("DD999", "D888", rules=tongyong)
    assert gouji.beats(parse_play("DD999"), parse_play("D888"), rules="tongyong")
    assert not gouji.beats("DD999", "D888", rules=None)
    assert not gouji.beats("DD999", "D888", rules=tongyong.replace(big_joker_kill=False))
    assert gouji.beats("DD999", "D888", rules=gouji.RuleSet.preset("qingdao").replace(big_joker_kill=True))
    with pytest.raises(gouji.UnknownRules):
        gouji.beats("99", "88", rules="nowhere")
    with pytest.raises(InvalidPlay):
        gouji.beats("8899", "77")


# ---------------------------------------------------------------------------------------------------------
# 3. Gouji plays


THRESHOLDS = {"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2}


@pytest.mark.parametrize("rank", list(THRESHOLDS))
@pytest.mark.parametrize("count", range(1, 9))
def test_gouji_threshold_by_size(rank: str, count: int) -> None:
    gouji_size = count >= THRESHOLDS[rank]
    assert gouji.is_gouji(rank * count) is gouji_size
    assert gouji.is_pure_gouji(rank * count) is gouji_size
    # with 2s attached, counted as the rank: gouji when the whole reaches the threshold, never pure
    for twos in (1, 2):
        text = rank * count + "2" * twos
        assert gouji.is_gouji(text) is (count + twos >= THRESHOLDS[rank]), text
        assert not gouji.is_pure_gouji(text)


@pytest.mark.parametrize("rank", "3456789")
def test_low_ranks_are_never_gouji_by_size(rank: str) -> None:
    for count in range(1, 17):
        assert not gouji.is_gouji(rank * count)
        assert not gouji.is_gouji(rank * count + "2222")
        assert not gouji.is_pure_gouji(rank * count)


def test_gouji_threshold_edges() -> None:
    for text in ("TTTTT", "JJJJ", "QQQ", "KK", "AA"):
        assert gouji.is_gouji(text) and gouji.is_pure_gouji(text), text
    for text in ("TTTT", "JJJ", "QQ", "K", "A"):
        assert not gouji.is_gouji(text) and not gouji.is_pure_gouji(text), text
    assert gouji.is_gouji("TTTT2") and not gouji.is_pure_gouji("TTTT2")
    assert gouji.is_gouji("K2") and not gouji.is_pure_gouji("K2")


@pytest.mark.parametrize("text", ["2", "22", "2222"])
def test_twos_only_are_gouji_not_pure(text: str) -> None:
    assert gouji.is_gouji(text) and not gouji.is_pure_gouji(text)


@pytest.mark.parametrize("text", ["X", "D", "DX", "3X", "5D", "AAD", "KKKKX", "2D", "X22", "TTTTTD"])
def test_any_joker_makes_gouji_not_pure(text: str) -> None:
    assert gouji.is_gouji(text) and not gouji.is_pure_gouji(text)


@given(play_keys())
@settings(max_examples=300, deadline=None)
def test_gouji_classification_matches_rules(key: tuple[int, ...]) -> None:
    rank, k, t, x, d = key
    play = play_of(key)
    by_size = k > 0 and rank >= TEN and k + t >= THRESHOLDS[ORDER[rank]]
    assert play.gouji is (x + d > 0 or (k == 0 and t > 0) or by_size)
    assert play.pure is (by_size and t == 0 and x + d == 0)
    assert gouji.is_gouji(str(play)) is play.gouji and gouji.is_pure_gouji(str(play)) is play.pure
    # section 8.1: which standing plays open the point, under each reading of kaidian_plays
    assert play.opens_point() is play.pure
    assert play.opens_point("money") is (x + d == 0 and (by_size or (k == 0 and t > 0)))
    assert play.opens_point("no_jokers_no_single_two") is (x + d == 0 and (by_size or (k == 0 and t > 1)))
    assert play.opens_point("any") is play.gouji
    assert play.size == k + t + x + d
    assert play.effective_values() == ref_values(counts_from_key(*key))


# ---------------------------------------------------------------------------------------------------------
# 4. Beating, against the reference


@pytest.mark.parametrize(
    ("b", "a", "plain", "kill"),
    [
        ("99999", "22888", True, True),
        ("DD999", "XX888", True, True),
        ("DX999", "XX888", False, False),
        ("DD", "D", False, True),
        ("XXX", "D", False, True),
        ("DDD", "D", False, False),
        ("XXXX", "D", False, False),
        ("DDXX", "D", False, False),
        ("DXX", "D", False, True),
        ("DDDD", "DD", False, True),
        ("XXXXXX", "DD", False, True),
        ("DDXXX", "DD", False, False),
        ("DD999", "D888", False, True),
        ("XXX999", "D888", False, True),
        ("DDDD", "D88", False, True),
        ("XXXX", "D2", False, True),
        ("DD888", "D888", False, False),
        ("DDD99", "DD8", False, False),
        ("DDDD9", "DD8", False, True),
        ("X9", "88", True, True),
        ("X8", "88", False, False),
        ("D9", "X8", True, True),
        ("X9", "X8", False, False),
    ],
)
def test_beats_cases(b: str, a: str, plain: bool, kill: bool) -> None:
    pb, pa = parse_play(b), parse_play(a)
    assert ref_beats(pb.counts, pa.counts, False) is plain
    assert ref_beats(pb.counts, pa.counts, True) is kill
    assert P.beats(pb, pa, False) is plain
    assert P.beats(pb, pa, True) is kill


@given(play_pairs())
@settings(max_examples=1000, deadline=None)
def test_beats_matches_reference(pair: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    a_key, b_key = pair
    a, b = play_of(a_key), play_of(b_key)
    for kill in (False, True):
        expected = ref_beats(counts_from_key(*b_key), counts_from_key(*a_key), kill)
        assert P.beats(b, a, kill) is expected, (str(b), str(a), kill)
        assert gouji.beats(b, a, rules="tongyong" if kill else "qingdao") is expected


def test_beats_matches_reference_exhaustively_on_small_plays() -> None:
    keys = [(NONE, 0, t, x, d) for t in range(3) for x in range(4) for d in range(5) if t + x + d]
    keys += [
        (r, k, t, x, d)
        for r in (R["8"], R["9"], R["A"])
        for k in (1, 2)
        for t in range(3)
        for x in range(4)
        for d in range(5)
    ]
    plays = [(play_of(k), counts_from_key(*k)) for k in keys]
    seen = {False: 0, True: 0}
    for (a, ac), (b, bc) in itertools.product(plays, plays):
        for kill in (False, True):
            expected = ref_beats(bc, ac, kill)
            assert P.beats(b, a, kill) is expected, (str(b), str(a), kill)
            seen[kill] += expected
    assert seen[True] > seen[False] > 500  # the kill adds wins, and plenty of pairs beat at all


@given(play_keys(), play_keys())
@settings(max_examples=500, deadline=None)
def test_beats_is_asymmetric(a_key: tuple[int, ...], b_key: tuple[int, ...]) -> None:
    a, b = play_of(a_key), play_of(b_key)
    for kill in (False, True):
        assert not (P.beats(a, b, kill) and P.beats(b, a, kill))
        assert not P.beats(a, a, kill)


@given(play_pairs())
@settings(max_examples=300, deadline=None)
def test_beats_is_asymmetric_on_close_pairs(pair: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    a, b = (play_of(k) for k in pair)
    for kill in (False, True):
        assert not (P.beats(a, b, kill) and P.beats(b, a, kill))


@given(play_keys())
@settings(max_examples=200, deadline=None)
def test_kill_only_adds_wins(a_key: tuple[int, ...]) -> None:
    """big_joker_kill only matters against a play holding a big joker that counts as big."""
    a = play_of(a_key)
    hand = (3,) * 13 + (4, 4)
    plain = set(P.responses(hand, a, False))
    killing = set(P.responses(hand, a, True))
    if a.eff_big:
        assert not plain
    else:
        assert plain == killing


# ---------------------------------------------------------------------------------------------------------
# 5. Responses


def brute_responses(hand: Counts, a: Play, kill: bool, plays: set[Play]) -> set[Play]:
    return {p for p in plays if p.counts[THREE] == 0 and ref_beats(p.counts, a.counts, kill)}


@given(small_hands(), play_keys(max_k=4, max_t=2, max_x=2, max_d=2))
@settings(max_examples=150, deadline=None)
def test_responses_match_brute_force(hand: Counts, a_key: tuple[int, ...]) -> None:
    a = play_of(a_key)
    plays = brute_plays(hand)
    for kill in (False, True):
        got = list(P.responses(hand, a, kill))
        assert len(got) == len(set(got)), "a response generated twice"
        assert set(got) == brute_responses(hand, a, kill, plays)
        assert P.can_beat(hand, a, kill) is bool(got)


@given(small_hands(), st.data())
@settings(max_examples=150, deadline=None)
def test_responses_to_a_play_from_the_same_cards(hand: Counts, data: st.DataObject) -> None:
    """Top plays drawn from the hand's own plays (so the sizes and ranks meet often)."""
    plays = sorted(brute_plays(hand), key=str)
    if not plays:
        return
    a = data.draw(st.sampled_from(plays))
    for kill in (False, True):
        got = list(P.responses(hand, a, kill))
        assert len(got) == len(set(got))
        assert set(got) == brute_responses(hand, a, kill, set(plays))
        assert P.can_beat(hand, a, kill) is bool(got)


@given(full_small_hands, play_keys(max_k=4, max_t=3, max_x=2, max_d=2))
@settings(max_examples=100, deadline=None)
def test_responses_from_hands_holding_every_rank(hand: Counts, a_key: tuple[int, ...]) -> None:
    a = play_of(a_key)
    plays = single_rank_plays(hand)
    for kill in (False, True):
        got = list(P.responses(hand, a, kill))
        assert len(got) == len(set(got))
        assert set(got) == brute_responses(hand, a, kill, plays)
        assert P.can_beat(hand, a, kill) is bool(got)


def test_responses_never_hold_a_three() -> None:
    hand = (4,) * 13 + (2, 2)
    top = parse_play("3")
    answers = set(P.responses(hand, top))
    assert answers and all(p.counts[THREE] == 0 for p in answers)
    assert parse_play("4") in answers and parse_play("X") in answers


def test_can_beat_examples() -> None:
    hand = parse_play("DD999").counts
    assert P.can_beat(hand, parse_play("XX888"))
    assert not P.can_beat(hand, parse_play("XX999"))
    assert not P.can_beat(hand, parse_play("D888"))
    assert P.can_beat(hand, parse_play("D888"), kill=True)
    assert not P.can_beat((0,) * 15, parse_play("3"))


# ---------------------------------------------------------------------------------------------------------
# 6. Leads


@given(small_hands(naturals=4), st.booleans())
@settings(max_examples=120, deadline=None)
def test_leads_match_brute_force(hand: Counts, allow_threes: bool) -> None:
    la = LegalActions.leads(hand, allow_threes)
    listed = list(la)
    expected = {p for p in brute_plays(hand) if allow_threes or p.counts[THREE] == 0}
    assert len(listed) == len(set(listed)), "a lead listed twice"
    assert set(listed) == expected
    assert len(la) == len(listed)
    assert [la[i] for i in range(len(la))] == listed
    assert la.texts() == [str(p) for p in listed]  # (made without making the plays)
    for limit in (0, 1, 16, len(listed) + 1):
        assert la.texts(limit) == [str(p) for p in listed[:limit]]
    if listed:
        assert la[-1] == listed[-1] and la[-len(la)] == listed[0]
    for p in listed:
        assert p in la
    with pytest.raises(IndexError):
        la[len(la)]
    with pytest.raises(IndexError):
        la[-len(la) - 1]


@given(full_small_hands, st.booleans())
@settings(max_examples=60, deadline=None)
def test_leads_from_hands_holding_every_rank(hand: Counts, allow_threes: bool) -> None:
    la = LegalActions.leads(hand, allow_threes)
    listed = list(la)
    expected = {p for p in single_rank_plays(hand) if allow_threes or p.counts[THREE] == 0}
    assert len(la) == len(listed) == len(set(listed))
    assert set(listed) == expected
    assert la.texts() == [str(p) for p in listed]
    assert LegalActions.leads(hand, allow_threes, whole_fours=True).texts() == [
        str(p) for p in LegalActions.leads(hand, allow_threes, whole_fours=True)
    ]
    rng = random.Random(sum(hand))
    for i in rng.sample(range(len(la)), min(50, len(la))):
        assert la[i] is listed[i]
        assert la[i - len(la)] is listed[i]


@given(small_hands(naturals=4), play_keys(), st.booleans())
@settings(max_examples=200, deadline=None)
def test_leads_membership(hand: Counts, key: tuple[int, ...], allow_threes: bool) -> None:
    la = LegalActions.leads(hand, allow_threes)
    play = play_of(key)
    held = all(h >= c for h, c in zip(hand, play.counts, strict=True))
    assert (play in la) is (held and (allow_threes or play.counts[THREE] == 0))


def test_leads_sequence_behaviour() -> None:
    hand = parse_play("DX22").counts
    hand = tuple(n + (2 if r == R["9"] else 0) + (1 if r == THREE else 0) for r, n in enumerate(hand))
    la = LegalActions.leads(hand, allow_threes=False, explicit=[PASS])
    listed = list(la)
    assert listed[0] is PASS and PASS in la and YIELD not in la
    assert parse_play("3") not in la and parse_play("99") in la and parse_play("D X 2 2 9 9") in la
    assert parse_play("999") not in la and parse_play("88") not in la and "99" not in la
    assert la[1:4] == listed[1:4] and la[::-1] == listed[::-1] and la[-3:] == listed[-3:]
    assert la.index(parse_play("99")) == listed.index(parse_play("99"))
    assert la.count(parse_play("99")) == 1
    assert la.texts() == [str(a) for a in listed]
    assert la.texts(1) == ["pass"] and la.texts(3) == [str(a) for a in listed[:3]]
    assert "LegalActions([" in repr(la)
    # 9 with 0-2 2s, 0-1 X, 0-1 D: 2*3*2*2; 2s: 2*2*2; jokers alone: 3
    assert len(la) == 1 + 24 + 8 + 3
    assert len(LegalActions.leads(hand, allow_threes=True)) == 24 + 8 + 3 + 12
    empty = LegalActions.leads((0,) * 15, allow_threes=True)
    assert len(empty) == 0 and list(empty) == [] and parse_play("3") not in empty
    with pytest.raises(IndexError):
        empty[0]


# ---------------------------------------------------------------------------------------------------------
# 7. Actions


DECISIONS = [A.PASS, A.YIELD, A.REVOLT, A.YAOTOU, A.WUTOU, A.DECLARE, A.BUY_FOUR]


def test_decision_texts() -> None:
    assert [str(d) for d in DECISIONS] == ["pass", "yield", "revolt", "yaotou", "wutou", "declare", "buy4"]
    assert PASS is A.PASS and YIELD is A.YIELD


@pytest.mark.parametrize("decision", DECISIONS, ids=str)
def test_decisions_round_trip(decision: A.Decision) -> None:
    assert parse_action(str(decision)) is decision
    assert parse_action(str(decision).upper()) is decision
    assert parse_action(f"  {decision} ") is decision
    assert parse_action(decision) is decision
    assert copy.copy(decision) is decision and copy.deepcopy(decision) is decision


@pytest.mark.parametrize("decision", DECISIONS, ids=str)
def test_decisions_pickle_to_the_singleton(decision: A.Decision) -> None:
    assert pickle.loads(pickle.dumps(decision)) is decision


def test_parse_action_examples() -> None:
    assert parse_action("pass") is PASS
    assert parse_action("yield") is YIELD
    assert parse_action("burn KKK") is Burn(parse_play("KKK"))
    assert parse_action("BURN kkk") is Burn(parse_play("KKK"))
    assert parse_action("burn 2 K K") is Burn(parse_play("2KK"))
    assert str(parse_action("burn kkk")) == "burn KKK"
    assert repr(parse_action("burn kkk")) == "Burn('KKK')"
    assert parse_action("QQQ") is parse_play("QQQ")
    assert parse_action("d x 10 10") is parse_play("DXTT")


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("fold", "pass"),
        ("burn", "burn KKK"),
        ("burn   ", "burn KKK"),
        ("burn 8899", "8 and 9"),
        ("burn KKZ", "'Z'"),
        ("", "empty"),
        ("passs", "pass"),
    ],
)
def test_parse_action_refuses_with_a_helpful_message(text: str, hint: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_action(text)
    assert hint in str(info.value)


def test_parse_action_refuses_non_text() -> None:
    with pytest.raises(ValueError, match="not int"):
        parse_action(5)  # type: ignore[arg-type]


@given(play_keys())
@settings(max_examples=200, deadline=None)
def test_plays_and_burns_round_trip_as_actions(key: tuple[int, ...]) -> None:
    play = play_of(key)
    burn = Burn(play)
    assert burn.play is play and Burn(play) is burn
    assert str(burn) == f"burn {play}"
    assert parse_action(str(burn)) is burn
    assert parse_action(str(burn).upper()) is burn
    assert parse_action(str(play)) is play
    assert pickle.loads(pickle.dumps(burn)) is burn


def test_interned_plays_are_freed_once_nothing_holds_them_and_stay_one_object_while_held() -> None:
    """The intern cache holds at most its ``keep`` recent objects itself: a play nothing else holds is
    freed (memory does not grow with every play ever made), and while one is held, every way of making it
    gives that same object — from several threads at once too (the server's bots and hints make plays)."""
    import gc
    import threading
    import weakref

    from gouji.engine import cards as C

    SEVEN, EIGHT = C.RANKS.index("7"), C.RANKS.index("8")
    from gouji.engine.plays import WeakIntern

    class Thing:
        pass

    cache: WeakIntern[int, Thing] = WeakIntern(keep=2)
    first = weakref.ref(cache.add(0, Thing()))
    for key in range(1, 4):
        cache.add(key, Thing())
    gc.collect()
    assert first() is None and cache.get(0) is None  # pushed out of the recent ones, held by nobody
    assert len(cache) == 2  # the entries of freed objects go with them
    alive = Thing()
    assert cache.add(9, alive) is alive
    assert cache.add(9, Thing()) is alive  # one made meanwhile (by another thread) loses to the live one

    held = Play.of(SEVEN, 13, 0, 0, 0)  # a play no deal of the tests makes: fresh
    assert parse_play("7" * 13) is held and Play.of(SEVEN, 13) is held

    errors: list[str] = []

    def churn(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(3000):
            n = rng.randrange(1, 9)
            mine = Play.of(EIGHT, n, 0, 0, 0)
            if parse_play("8" * n) is not mine or Play.of(SEVEN, 13) is not held:
                errors.append(f"two objects for one play ({n} eights)")
            del mine
            if rng.random() < 0.1:  # the collector at random points (the young generation: a full collection
                gc.collect(0)  # of the suite's heap, with PyTorch and Ray loaded, took a tenth of a second each)

    threads = [threading.Thread(target=churn, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
