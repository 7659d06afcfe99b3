"""Property tests of whole deals over every preset (rule book §5-11).

Random playouts of :meth:`Deal.new` (with the setup phases) and :meth:`Deal.from_hands` check that:

1. cards are conserved at every step;
2. every generated action is accepted, and everything else is refused without changing the deal;
3. a seed (or a log) replays to the identical deal, and a tampered log is refused;
4. every playout ends, with places, penalties, revolutionaries and sweeps as section 5.5 says;
5. a seat's view does not depend on cards hidden from it;
6. views are JSON data holding the seat's own hand and the card counts ``show_counts`` allows.
"""

from __future__ import annotations

import copy
import json
import random
import zlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gouji
import gouji.engine.deal.setup
from gouji import Burn, Deal, IllegalAction, Play, parse_action, team
from gouji.competition.sets import Match
from gouji.engine import cards as C
from gouji.engine.actions import InvalidAction
from gouji.engine.tribute import owed

from .helpers import (
    MAX_STEPS,
    choose_action,
    dealt_hands,
    deck_of,
    held_counts,
    played_counts,
    playout_steps,
    random_playout,
    snapshot,
)

PRESETS = list(gouji.PRESETS)
MODES = ["new", "hands", "tribute"]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SETUP_PHASES = gouji.engine.deal.setup.PHASES
# (preset, mode) pairs: "tribute" only where the rules have tribute (elsewhere it is the same as "new")
PRESET_MODES = [(p, m) for p in PRESETS for m in MODES if m != "tribute" or gouji.RuleSet.preset(p).tribute]
SEED_MODES = [(p, m) for p, m in PRESET_MODES if m != "hands"]


def tribute_after(preset: str, seed: int) -> tuple[list[Any], int]:
    """The tribute a random first deal of ``seed`` leaves owed (进贡), and the next first leader (its 大落)."""
    first = Deal.new(preset, seed=seed)
    random_playout(first, random.Random(seed))
    assert first.places is not None
    return owed(first.rules, first.result()), first.places[5]


def make_deal(preset: str, seed: int, mode: str) -> Deal:
    """``Deal.new`` from the seed; ``Deal.from_hands`` with the preset's deck shuffled by the seed; or
    ("tribute") the second deal of a set, paying the tribute a random first deal left owed."""
    if mode == "new":
        return Deal.new(preset, seed=seed)
    if mode == "tribute":
        payments, leader = tribute_after(preset, seed)
        return Deal.new(preset, seed=seed + 1, leader=leader, tribute=payments)
    leader = seed % 6
    return Deal.from_hands(dealt_hands(preset, seed, leader), preset, leader)


def counts_sum(hands: list[str]) -> C.Counts:
    total = C.EMPTY
    for h in hands:
        total = C.add(total, C.parse_counts(h))
    return total


def as_play(action: Any) -> Play | None:
    """The cards an action plays (a play or a burn), else None."""
    a = parse_action(action)
    if isinstance(a, Burn):
        return a.play
    return a if isinstance(a, Play) else None


def as_play_or_none(text: str) -> Play | None:
    """The play a text names, or None when it is not a play."""
    try:
        a = parse_action(text)
    except InvalidAction:
        return None
    return a if isinstance(a, Play) else None


# ---------------------------------------------------------------------------------------------------------
# 1. Cards are conserved


class Ledger:
    """Checks, step by step, that the hands plus every card played make the dealt deck."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.deck = deck_of(deal.rules)
        self.played = C.EMPTY
        self.seen = 0
        first = deal.events[0]
        assert first["type"] == "deal"
        assert counts_sum(first["hands"]) == self.deck

    def check(self) -> None:
        deal = self.deal
        new = deal.events[self.seen :]
        for e in new:
            if e["type"] == "void":
                assert counts_sum(e["hands"]) == self.deck, "a redeal must deal the whole deck"
        self.played = played_counts(new, self.played)
        self.seen = len(deal.events)
        for s in range(6):
            assert min(deal.hands[s]) >= 0, f"seat {s} holds a negative count: {deal.hands[s]}"
            assert len(deal.hands[s]) == C.NUM_RANKS
        assert C.add(held_counts(deal), self.played) == self.deck, (
            f"cards not conserved after {len(deal.events)} events: "
            f"held {C.format_counts(held_counts(deal))} + played {C.format_counts(self.played)}"
        )


@pytest.mark.parametrize(("preset", "mode"), PRESET_MODES)
@given(seed=SEEDS, eager=st.booleans())
@settings(max_examples=8, deadline=None)
def test_cards_are_conserved(preset: str, mode: str, seed: int, eager: bool) -> None:
    deal = make_deal(preset, seed, mode)
    ledger = Ledger(deal)
    ledger.check()
    for _ in playout_steps(deal, random.Random(seed), eager_revolt=eager):
        ledger.check()
    assert deal.is_over


def find_void_seed(preset: str, limit: int = 5000) -> int:
    """The first seed whose deal is voided (two revolutions) when every seat that may revolt does."""
    for seed in range(limit):
        deal = Deal.new(preset, seed=seed)
        while deal.phase == "revolution":
            deal.act(choose_action(deal, random.Random(0), eager_revolt=True))
        if any(e["type"] == "void" for e in deal.events):
            return seed
    raise AssertionError(f"no void deal among {limit} seeds of {preset}")


# 6 decks (zaozhuang) make a hand without 2s and jokers too rare for two revolutions to be found quickly.
VOID_PRESETS = [p for p in PRESETS if gouji.RuleSet.preset(p).revolution and gouji.RuleSet.preset(p).decks == 4]


@pytest.mark.parametrize("preset", VOID_PRESETS)
def test_void_deal_is_dealt_again(preset: str) -> None:
    seed = find_void_seed(preset)
    deal = Deal.new(preset, seed=seed)
    ledger = Ledger(deal)
    rng = random.Random(seed)
    for _ in playout_steps(deal, rng, eager_revolt=True):
        ledger.check()
        if any(e["type"] == "void" for e in deal.events):
            break
    voids = [e for e in deal.events if e["type"] == "void"]
    assert voids and len(voids[0]["revolted"]) == 2
    # the redeal starts afresh: nobody has revolted in it yet, and its hands are the void event's (plus buying)
    assert len(deal.revolted) < 2
    for _ in playout_steps(deal, rng):
        ledger.check()
    assert deal.is_over
    replayed = Deal.replay(deal.events)
    assert replayed.events == deal.events and replayed.places == deal.places
    # a seat's view of the redeal shows its own new hand only
    view = deal.view(0)
    logged = [e for e in view["log"] if e["type"] == "void"]
    assert logged[0]["hand"] == voids[0]["hands"][0]
    assert logged[0]["sizes"] == [len(h) for h in voids[0]["hands"]]
    assert all("hands" not in e for e in view["log"])


# ---------------------------------------------------------------------------------------------------------
# 2. Legal actions are accepted; anything else is refused and changes nothing

GARBAGE = [
    "8899",
    "Z",
    "",
    "   ",
    "burn",
    "burn Z",
    "burn 8899",
    "10 J",
    "pass yield",
    "0",
    "1",
    "?",
    "33 44",
    "return",
]
DECISIONS = ["pass", "yield", "revolt", "yaotou", "wutou", "declare", "buy4", "return"]


def candidate_actions(deal: Deal, rng: random.Random) -> list[str]:
    """Action texts to try on the seat to act: decisions, garbage, plays from its hand, plays of cards
    it does not hold, and burns/plain forms of the legal plays.  Some of them may happen to be legal."""
    s = deal.to_act
    assert s is not None
    hand = deal.hands[s]
    out = [*DECISIONS, *GARBAGE]
    held = [r for r in range(C.NUM_RANKS) if hand[r]]
    for _ in range(6):  # random sub-multisets of the hand (mixed ranks are not plays at all)
        if not held:
            break
        sub = [0] * C.NUM_RANKS
        for r in rng.sample(held, min(len(held), rng.choice((1, 1, 2)))):
            sub[r] = rng.randint(1, hand[r])
        for r in (C.TWO, C.SMALL, C.BIG):
            if hand[r] and rng.random() < 0.4:
                sub[r] = rng.randint(1, hand[r])
        text = C.format_counts(sub)
        out += [text, "burn " + text, "return " + text]
    for _ in range(3):  # cards the seat does not hold
        r = rng.randrange(C.NUM_RANKS)
        out.append(C.RANKS[r] * (hand[r] + 1 + rng.randrange(2)))
    legal = deal.legal_actions()
    for _ in range(3):
        if not len(legal):
            break
        a = legal[rng.randrange(len(legal))]
        if isinstance(a, Play):
            out.append(f"burn {a}")
        elif isinstance(a, Burn):
            out.append(str(a.play))
    return out


def legal_texts(deal: Deal) -> set[str] | None:
    """The texts of the legal set when it is small enough to list (else None)."""
    legal = deal.legal_actions()
    return {str(a) for a in legal} if len(legal) <= 3000 else None


def assert_unchanged(deal: Deal, before: dict[str, Any]) -> None:
    after = snapshot(deal, deep=False)
    for key in before:
        assert after[key] == before[key], f"a refused action changed the deal's {key}"


def is_legal(deal: Deal, text: str, texts: set[str] | None) -> bool:
    """Whether ``text`` is an action of the legal set; checks ``in`` against the listed set."""
    try:
        a = parse_action(text)
    except InvalidAction:
        return False
    inside = a in deal.legal_actions()
    if texts is not None:
        assert inside == (str(a) in texts), f"'{a}' in legal_actions() disagrees with iterating them"
    return inside


def assert_rules_agree(deal: Deal, s: int, text: str, legal: bool) -> None:
    """The rules of play that word a refusal (legality.PLAY_RULES and the others) refuse exactly what the
    legal actions leave out."""
    try:
        a = parse_action(text)
    except InvalidAction:
        return
    why = deal._refusal(s, a)
    assert (why is None) == legal, f"seat {s}, {a}: legal {legal}, but the rules say {why!r}"


def check_accepts(deal: Deal, rng: random.Random, how_many: int) -> None:
    """Several legal actions, each applied to a replayed copy of the deal, are accepted."""
    legal = deal.legal_actions()
    s = deal.to_act
    picks = {legal[rng.randrange(len(legal))] for _ in range(how_many)}
    for a in picks:
        twin = Deal.replay(deal.events)
        twin.act(str(a), seat=s)
        assert twin.events[len(deal.events)] == {"type": "act", "seat": s, "action": str(a)}
        p = as_play(a)
        if p is not None:
            assert tuple(twin.hands[s]) == C.subtract(deal.hands[s], p.counts)


def check_refusals(deal: Deal, rng: random.Random) -> int:
    """Every candidate outside the legal set raises IllegalAction with a message and changes nothing;
    a legal action offered for another seat is refused too.  Returns how many refusals were checked."""
    before = snapshot(deal)
    texts = legal_texts(deal)
    s = deal.to_act
    assert s is not None
    refused = 0
    leading = deal.phase == "play" and deal.view(None)["top"] is None
    for text in candidate_actions(deal, rng):
        legal_now = is_legal(deal, text, texts)
        if deal.phase == "play":
            assert_rules_agree(deal, s, text, legal_now)
        if legal_now:
            continue
        if leading and not text.lower().startswith(("burn", "return")):
            # a lead may be any play of held cards, save 3s under 憋三 (rule book §5.2, §7), 4s split or
            # with something attached under fours_whole, and anything but a 冲点 attempt (§16)
            p = as_play_or_none(text)
            held = p is not None and C.contains(deal.hands[s], p.counts)
            ch = deal.chongdian
            assert (
                not held
                or (deal.rules.bie_san and p.counts[C.THREE])
                or (deal.rules.fours_whole and p.rank == C.FOUR)
                or (ch is not None and ch["result"] is None and ch["seat"] == s)
            ), f"seat {s} may not lead {text}"
        with pytest.raises(IllegalAction) as info:
            deal.act(text)
        assert isinstance(info.value, ValueError)
        assert str(info.value).strip(), f"empty message refusing {text!r}"
        assert_unchanged(deal, before)
        refused += 1
    legal = deal.legal_actions()
    a = legal[rng.randrange(len(legal))]
    for other in rng.sample([t for t in range(6) if t != s], 2):
        with pytest.raises(IllegalAction, match=str(other)):
            deal.act(a, seat=other)
        assert_unchanged(deal, before)
    return refused


@pytest.mark.parametrize(("preset", "mode"), PRESET_MODES)
@given(seed=SEEDS)
@settings(max_examples=3, deadline=None)
def test_legal_actions_are_accepted_and_others_refused(preset: str, mode: str, seed: int) -> None:
    deal = make_deal(preset, seed, mode)
    policy, probe = random.Random(seed), random.Random(seed + 1)
    points = refused = 0
    for step in range(MAX_STEPS):
        if deal.is_over:
            break
        if step == 0 or deal.phase != "play" or probe.random() < 0.04:
            check_accepts(deal, probe, 3)
            refused += check_refusals(deal, probe)
            points += 1
        deal.act(choose_action(deal, policy))
    assert deal.is_over
    assert points >= 2 and refused >= 10 * points
    # once over, nothing is accepted
    before = snapshot(deal)
    for text in ["pass", "yield", "burn 5", "5", "DD", "revolt", "8899"]:
        with pytest.raises(IllegalAction):
            deal.act(text)
    assert_unchanged(deal, before)


@pytest.mark.parametrize(("preset", "mode"), SEED_MODES)
@given(seed=SEEDS)
@settings(max_examples=2, deadline=None)
def test_the_legal_actions_of_a_windows_seats_are_made_once_a_decision(preset: str, mode: str, seed: int) -> None:
    """``legal_actions_of`` keeps what it made for the window's other seats until the next decision: the same
    as made afresh on a copy of the deal, at every step, and never carried over into the next decision."""
    deal = make_deal(preset, seed, mode)
    policy = random.Random(seed)
    for _ in range(MAX_STEPS):
        if deal.is_over:
            break
        seats = deal.window()
        made = {s: deal.legal_actions_of(s) for s in seats}
        fresh = copy.deepcopy(deal)
        fresh._legal_of = (-1, {})
        fresh._legal = None
        for s in seats:
            assert deal.legal_actions_of(s) is made[s]
            assert list(made[s]) == list(fresh.legal_actions_of(s)), f"seat {s} after {deal.decisions} decisions"
        deal.act(choose_action(deal, policy))
    assert deal.is_over


@pytest.mark.parametrize("text", ["return 5", "return D"])
def test_return_in_play_is_refused(text: str) -> None:
    deal = Deal.from_hands(["555", "666", "777", "888", "999", "TTT"])
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as info:
        deal.act(text)
    assert str(info.value).strip()
    assert_unchanged(deal, before)


# ---------------------------------------------------------------------------------------------------------
# 3. Replays


def assert_same_deal(a: Deal, b: Deal) -> None:
    assert a.events == b.events
    assert [a.hand(s) for s in range(6)] == [b.hand(s) for s in range(6)]
    assert (a.to_act, a.phase, a.places, a.sweep, a.out_order) == (b.to_act, b.phase, b.places, b.sweep, b.out_order)
    assert (a.smothered, a.failed_burns, a.revolted, a.burns) == (b.smothered, b.failed_burns, b.revolted, b.burns)
    assert a.view(None) == b.view(None)


@pytest.mark.parametrize(("preset", "mode"), SEED_MODES)
@given(seed=SEEDS, eager=st.booleans())
@settings(max_examples=5, deadline=None)
def test_a_seed_replays_to_the_identical_deal(preset: str, mode: str, seed: int, eager: bool) -> None:
    d1, d2 = make_deal(preset, seed, mode), make_deal(preset, seed, mode)
    assert d1.events == d2.events
    assert [d1.hand(s) for s in range(6)] == [d2.hand(s) for s in range(6)]
    marks: list[tuple[int, Deal]] = []  # mid-deal states to replay from their log prefix
    probe = random.Random(seed)
    rng1, rng2 = random.Random(seed + 7), random.Random(seed + 7)
    for _ in playout_steps(d1, rng1, eager_revolt=eager):
        if probe.random() < 0.02:
            marks.append((len(d1.events), copy.deepcopy(d1)))
    actions2 = random_playout(d2, rng2, eager_revolt=eager)
    assert d1.is_over and d2.is_over
    assert actions2 == [e["action"] for e in d1.events if e["type"] == "act"]
    assert_same_deal(d1, d2)
    assert_same_deal(Deal.replay(d1.events), d1)
    assert_same_deal(Deal.replay(json.loads(json.dumps(d1.events))), d1)
    for n, state in marks:
        assert_same_deal(Deal.replay(d1.events[:n]), state)


@pytest.mark.parametrize("preset", PRESETS)
@given(seed=SEEDS)
@settings(max_examples=4, deadline=None)
def test_a_log_of_given_hands_replays(preset: str, seed: int) -> None:
    deal = make_deal(preset, seed, "hands")
    random_playout(deal, random.Random(seed))
    assert deal.is_over
    assert_same_deal(Deal.replay(deal.events), deal)


def illegal_replacement(state: Deal, rng: random.Random) -> str | None:
    """A legal-looking action text (it parses) that is not legal in ``state``."""
    texts = legal_texts(state)
    cands = [t for t in candidate_actions(state, rng) if t.strip()]
    rng.shuffle(cands)
    for t in cands:
        try:
            parse_action(t)
        except InvalidAction:
            continue
        if not is_legal(state, t, texts):
            return t
    return None


@pytest.mark.parametrize(("preset", "mode"), PRESET_MODES)
@given(seed=SEEDS)
@settings(max_examples=3, deadline=None)
def test_a_tampered_log_is_refused(preset: str, mode: str, seed: int) -> None:
    deal = make_deal(preset, seed, mode)
    random_playout(deal, random.Random(seed))
    events = deal.events
    rng = random.Random(seed + 1)
    acts = [k for k, e in enumerate(events) if e["type"] == "act"]
    # one action changed to a legal-looking action that was not legal then
    for k in rng.sample(acts, min(3, len(acts))):
        state = Deal.replay(events[:k])
        assert state.to_act == events[k]["seat"]
        text = illegal_replacement(state, rng)
        assert text is not None
        tampered = copy.deepcopy(events)
        tampered[k]["action"] = text
        with pytest.raises(ValueError):
            Deal.replay(tampered)
    # one action given to another seat
    k = rng.choice(acts)
    tampered = copy.deepcopy(events)
    tampered[k]["seat"] = (events[k]["seat"] + rng.randrange(1, 6)) % 6
    with pytest.raises(ValueError):
        Deal.replay(tampered)
    # one event dropped (an action, and any event)
    for k in (rng.choice(acts), rng.randrange(len(events))):
        with pytest.raises(ValueError):
            Deal.replay(events[:k] + events[k + 1 :])
    # an event added: the deal already ended
    with pytest.raises(ValueError):
        Deal.replay([*events, {"type": "act", "seat": 0, "action": "pass"}])
    # a hand of the deal event changed (counts kept)
    tampered = copy.deepcopy(events)
    hands = tampered[0]["hands"]
    if mode != "hands":
        # seats 0 and 1 swap one card of different ranks: the seed deals otherwise
        h0, h1 = list(C.parse_counts(hands[0])), list(C.parse_counts(hands[1]))
        a = next(r for r in range(C.NUM_RANKS) if h0[r] and h1[r] < sum(h1))
        b = next(r for r in range(C.NUM_RANKS) if h1[r] and r != a)
        h0[a], h0[b], h1[a], h1[b] = h0[a] - 1, h0[b] + 1, h1[a] + 1, h1[b] - 1
        hands[0], hands[1] = C.format_counts(h0), C.format_counts(h1)
    else:
        # a seat that played every card it held of a rank holds one fewer of it: that play is refused
        seat, r = played_out_rank(events)
        h = list(C.parse_counts(hands[seat]))
        other = next(x for x in range(C.NUM_RANKS - 1, 0, -1) if x != r and x != C.THREE)
        h[r], h[other] = h[r] - 1, h[other] + 1
        hands[seat] = C.format_counts(h)
    with pytest.raises(ValueError):
        Deal.replay(tampered)


def played_out_rank(events: list[dict[str, Any]]) -> tuple[int, int]:
    """A (seat, rank) such that the seat played every card of that rank it was dealt."""
    played = [[0] * C.NUM_RANKS for _ in range(6)]
    for e in events:
        if e["type"] == "act":
            p = as_play(e["action"])
            if p is not None:
                for r, n in enumerate(p.counts):
                    played[e["seat"]][r] += n
    for s in range(6):
        dealt = C.parse_counts(events[0]["hands"][s])
        for r in range(C.NUM_RANKS):
            if dealt[r] and played[s][r] == dealt[r]:
                return s, r
    raise AssertionError("no seat played out any rank")  # pragma: no cover


# ---------------------------------------------------------------------------------------------------------
# 4. Playouts end, with the places of section 5.5


def check_end(deal: Deal) -> None:
    assert deal.is_over and deal.to_act is None
    assert len(deal.legal_actions()) == 0
    places = deal.places
    assert places is not None and sorted(places) == list(range(6))
    public = deal.view(None)
    assert public["places"] == places and public["to_act"] is None
    statuses = [p["status"] for p in public["players"]]
    assert len({team(s) for s in range(6) if statuses[s] == "in_play"}) <= 1, "two teams still in play"
    # penalties from the bottom: 大拉 for holding no 3, a lost 冲点, failed burns, then 闷 in order
    ch = deal.chongdian
    lost = [ch["seat"]] if ch is not None and ch["place"] == 5 else []
    rescued = [ch["seat"]] if ch is not None and ch["place"] == 2 else []
    assert len(deal.failed_burns) < 3  # 无头 seats neither burn nor are burned (docs/rules.md)
    penalties = deal.no_three + lost + deal.failed_burns + [s for s, _ in deal.smothered]
    assert len(set(penalties)) == len(penalties)
    assert [places[5 - i] for i in range(len(penalties))] == penalties
    for c in rescued:  # 冲点 rescued by the team's 头科: 三科
        assert places[2] == c or places[2] in penalties
    # those who went out take the free places from the top, in order (a revolutionary aside)
    outs = deal.out_order
    assert [s for s in places if s not in deal.revolted and s not in rescued][: len(outs)] == outs
    for r in deal.revolted:
        # 四科, or 三科 when the revolutionary's own team takes 头科 and 二科
        want = 2 if team(places[0]) == team(places[1]) == team(r) else 3
        if places[want] not in penalties:
            assert places[want] == r, f"revolutionary {r} should take place {want}: {places}"
    # the rest hold cards: fewer cards first
    holders = [s for s in places if s not in outs + penalties + rescued and s not in deal.revolted]
    sizes = [deal.card_count(s) for s in holders]
    assert sizes == sorted(sizes)
    assert all(statuses[s] == "in_play" for s in holders)
    # 串三户: exactly when one team holds the first three places
    sweep = next((t for t in (0, 1) if all(team(places[i]) == t for i in range(3))), None)
    assert deal.sweep == sweep
    assert deal.events[-1] == {"type": "end", "places": places, "sweep": sweep}
    with pytest.raises(IllegalAction):
        deal.act("pass")


@pytest.mark.parametrize(("preset", "mode"), PRESET_MODES)
@given(seed=SEEDS, eager=st.booleans())
@settings(max_examples=12, deadline=None)
def test_random_playouts_end_with_consistent_places(preset: str, mode: str, seed: int, eager: bool) -> None:
    deal = make_deal(preset, seed, mode)
    actions = random_playout(deal, random.Random(seed), MAX_STEPS, eager_revolt=eager)
    assert deal.is_over, f"{preset} seed {seed} ({mode}) not over after {len(actions)} actions"
    assert deal.decisions == len(actions)
    check_end(deal)


# ---------------------------------------------------------------------------------------------------------
# 5. Hidden information


def legit_texts(view: dict[str, Any]) -> list[str]:
    """Card texts a view may hold: the seat's own hand (now and as dealt), the cards played (each action,
    the top play, the pile), tribute cards and revealed revolution hands."""
    out = [view.get("hand") or "", view.get("played") or "", view.get("top") or ""]
    for e in view["log"]:
        out.append(e.get("action") or "")
        if e["type"] in ("deal", "void", "revolution"):
            out.append(e.get("hand") or "")
        if isinstance(e.get("cards"), str):
            out.append(e["cards"])
    out += [p["revealed"] or "" for p in view["players"]]
    return out


def assert_no_hidden_hand(deal: Deal, seat: int | None, view: dict[str, Any] | None = None) -> None:
    """The JSON of ``view(seat)`` holds no other (unrevealed, 6+ cards) hand's text."""
    if view is None:
        view = deal.view(seat)
    text = json.dumps(view, ensure_ascii=False)
    legit = legit_texts(view)
    for t in range(6):
        hand = deal.hand(t)
        if t == seat or len(hand) < 6 or view["players"][t]["revealed"]:
            continue
        if any(hand in x for x in legit):  # the same cards may be public by coincidence
            continue
        assert hand not in text, f"view({seat}) shows seat {t}'s hand {hand}"


def swapped_hands(preset: str, seed: int, setup: bool) -> tuple[list[str], list[str], int, int, int, int, int, int]:
    """Hands A (shuffled from the seed) and B: seat i gives one card of rank a for one of rank b from seat
    j (i, j not the observer o).  Ranks whose holding is public by the rules stay out of the swap: under
    憋三 the 3s (holding only 3s shows when smothered, 闷), and with the setup phases also the 4s, 2s and
    jokers (buying 3s/4s, revolution and tribute turn on them)."""
    rng = random.Random(seed)
    leader = rng.randrange(6)
    hands_a = dealt_hands(preset, seed, leader)
    counts = [list(C.parse_counts(h)) for h in hands_a]
    o = rng.randrange(6)
    i, j = rng.sample([s for s in range(6) if s != o], 2)
    rules = gouji.RuleSet.preset(preset)
    ranks: Any = range(C.FOUR + 1, C.ACE + 1) if setup else range(C.FOUR if rules.bie_san else 0, 15)
    if rules.fours_whole:  # 4不拆不挂: which plays of 4s a seat may make depends on how many it holds
        ranks = [r for r in ranks if r != C.FOUR]
    a = rng.choice([r for r in ranks if counts[i][r]])
    b = rng.choice([r for r in ranks if counts[j][r] and r != a])
    counts[i][a] -= 1
    counts[i][b] += 1
    counts[j][b] -= 1
    counts[j][a] += 1
    return hands_a, [C.format_counts(h) for h in counts], leader, o, i, j, a, b


@pytest.mark.parametrize("setup", [False, True], ids=["play", "setup"])
@pytest.mark.parametrize("preset", PRESETS)
@given(seed=SEEDS)
@settings(max_examples=8, deadline=None)
def test_views_do_not_depend_on_hidden_cards(preset: str, setup: bool, seed: int) -> None:
    hands_a, hands_b, leader, o, i, j, a, b = swapped_hands(preset, seed, setup)
    if setup:  # the before-play phases too, with tribute owed from a first deal
        payments = tribute_after(preset, seed)[0] if gouji.RuleSet.preset(preset).tribute else []
        kw: dict[str, Any] = {"setup": True, "seed": seed, "tribute": payments}
    else:
        kw = {}
    da = Deal.from_hands(hands_a, preset, leader, **kw)
    db = Deal.from_hands(hands_b, preset, leader, **kw)
    rng = random.Random(seed + 1)
    while True:
        if any(e["type"] in ("revolution", "selfopen") and e["seat"] in (i, j) for e in da.events):
            # a revolutionary lays the hand down (革命): it is public from then on, void deal or not; a
            # hand shown in 无级自开 is its 对头's to see
            return
        assert da.view(o) == db.view(o), f"view({o}) differs after {len(da.events)} events"
        assert da.view(None) == db.view(None)
        assert_no_hidden_hand(da, o)
        if da.is_over:
            assert db.is_over and da.places == db.places
            return
        s = da.to_act
        action = choose_action(da, rng, eager_revolt=rng.random() < 0.5)
        da.act(action)
        try:
            db.act(str(action))
        except IllegalAction:
            # B may refuse only an action that needs the card swapped away
            if str(action) == "selfopen" and s in (i, j):
                return  # 无级自开 depends on holding no gouji play: the swap may have made one
            act = parse_action(action)  # a play, a burn or a 还贡 return
            counts = act.play.counts if isinstance(act, Burn) else getattr(act, "counts", C.EMPTY)
            assert (s == i and counts[a]) or (s == j and counts[b]), f"B refused {action} of seat {s}"
            return


def setup_turns(deal: Deal, rng: random.Random, eager: bool) -> tuple[dict[str, list[int]], list[int]]:
    """Run the setup phases with random decisions; returns who was asked in each phase of the last
    dealing (a void deal starts them over) and who had revolted before the revolution phase."""
    asked: dict[str, list[int]] = {}
    revolted_before: list[int] = []  # automatic revolutions while buying 3s
    voids = sum(e["type"] == "void" for e in deal.events)  # two of those void the deal at once
    while deal.phase in SETUP_PHASES:
        assert deal.to_act is not None
        assert_no_hidden_hand(deal, deal.to_act)
        if deal.phase not in asked and deal.phase == "revolution":
            revolted_before = [s for s in range(6) if not deal.in_play[s]]  # revolted, or 大拉 (no 3)
        asked.setdefault(deal.phase, []).append(deal.to_act)
        deal.act(choose_action(deal, rng, eager_revolt=eager))
        n = sum(e["type"] == "void" for e in deal.events)
        if n != voids:  # dealt again: the phases start over
            voids, asked = n, {}
    return asked, revolted_before


@pytest.mark.parametrize(("preset", "mode"), SEED_MODES)
@given(seed=SEEDS, eager=st.booleans())
@settings(max_examples=6, deadline=None)
def test_setup_turns_follow_public_order(preset: str, mode: str, seed: int, eager: bool) -> None:
    """During the setup phases whose turn it is depends on public facts only: 还贡 is asked of the
    receivers of returnable tribute in payment order; revolution is offered to every seat in play, in
    order from the first leader; 要头 to the revolutionaries' opposites; 宣点 to every seat not revolted and
    not facing a revolutionary."""
    rules = gouji.RuleSet.preset(preset)
    deal = make_deal(preset, seed, mode)
    order = [(deal.first_leader + k) % 6 for k in range(6)]
    asked, revolted_before = setup_turns(deal, random.Random(seed), eager)
    last_void = max((k for k, e in enumerate(deal.events) if e["type"] == "void"), default=0)
    paid = [e for e in deal.events[last_void:] if e["type"] == "tribute"]
    assert len(paid) == len(deal.tribute)
    returns = [p.receiver for p, e in zip(deal.tribute, paid, strict=True) if p.returned and e["cards"]]
    assert asked.get("tribute_return", []) == returns
    if rules.revolution:
        assert asked.get("revolution") == [s for s in order if s not in revolted_before]
        assert asked.get("yaotou", []) == [(r + 3) % 6 for r in deal.revolted]
    else:
        assert "revolution" not in asked and "yaotou" not in asked
    out = deal.revolted + deal.no_three
    in_play = [s for s in order if s not in out]
    if rules.xuandian:
        skip = set(out) | {(r + 3) % 6 for r in out}
        if deal.chongdian is not None:  # the 冲点 settles its pair's point
            skip |= {deal.chongdian["seat"], (deal.chongdian["seat"] + 3) % 6}
        assert asked.get("xuandian") == [s for s in order if s not in skip]
    else:
        assert "xuandian" not in asked
    # 冲点 and 无级自开 are asked of every seat in play, whatever its hand (rule book §16.3)
    assert asked.get("chongdian", []) == (in_play if rules.chongdian else [])
    assert asked.get("selfopen", []) == (in_play if rules.self_open else [])
    giveback = [p.receiver for p, e in zip(deal.tribute, paid, strict=True) if p.giveback and e["cards"]]
    assert asked.get("giveback", []) == giveback


@pytest.mark.parametrize("seed", range(3))
def test_optional_buy_four_turns_follow_public_order(seed: int) -> None:
    deal = Deal.new("heze", seed=seed)
    order = [(deal.first_leader + k) % 6 for k in range(6)]
    asked, _ = setup_turns(deal, random.Random(seed), False)
    assert asked.get("buy_four") == order


# ---------------------------------------------------------------------------------------------------------
# 6. Views


def check_view(deal: Deal, seat: int | None) -> dict[str, Any]:
    """``view(seat)`` is JSON data, holds the seat's hand, and card counts as ``show_counts`` says."""
    view = deal.view(seat)
    json.dumps(view)
    assert view["seat"] == seat and view["to_act"] == deal.to_act
    if seat is not None:
        assert view["hand"] == deal.hand(seat)
    else:
        assert view.get("hand") is None
    mode = deal.rules.show_counts
    for t, player in enumerate(view["players"]):
        n = deal.card_count(t)
        cards = player["cards"]
        if t == seat:
            assert cards == n
        elif player["status"] == "in_play":
            if mode == "always" or (mode == "at_or_below_10" and n <= 10):
                assert cards == n, f"{mode}: seat {t}'s count {n} should show, got {cards}"
            else:
                assert cards is None, f"{mode}: seat {t}'s count {n} should be hidden, got {cards}"
        else:
            assert cards in (None, n)
        if player["status"] == "revolted":
            assert player["revealed"] == deal.hand(t)
        else:
            assert player["revealed"] is None
    return view


@pytest.mark.parametrize(("preset", "mode"), PRESET_MODES)
@given(seed=SEEDS)
@settings(max_examples=3, deadline=None)
def test_views_are_json_and_show_what_the_rules_allow(preset: str, mode: str, seed: int) -> None:
    deal = make_deal(preset, seed, mode)
    rng, probe = random.Random(seed), random.Random(seed + 1)
    while True:
        full = probe.random() < 0.05
        seats: list[int | None] = [None, 0, 1, 2, 3, 4, 5] if full else [probe.choice([None, 0, 1, 2, 3, 4, 5])]
        for s in seats:
            view = check_view(deal, s)
            if full:
                assert_no_hidden_hand(deal, s, view)
        if deal.is_over:
            break
        deal.act(choose_action(deal, rng))


# ---------------------------------------------------------------------------------------------------------
# 6. Every regional option of rule book §16, turned on in every preset


REGIONAL_VARIANTS: list[dict[str, Any]] = [
    {"burn_priority": "turn_order"},
    {"smother_by": "not_opposite"},
    {"smother_by": "opposite_only"},
    {"smothered_keeps_head": True},
    {"open_when_opposite_smothered": True},
    {"fours_whole": True},
    {"failed_burn_third": "sanke"},
    {"gousiji": True, "bie_san": False},
    {"first_leader": "liang_san"},
    {"buy_order": "teammates_second"},
    {"buy_order": "teammates_first"},
    {"no_three": "last"},
    {"return_held_ranks_only": True},
    {"mutual_point_tribute": "waive"},
    {"mutual_point_tribute": "agree"},
    {"huiwu": True},
    {"sweep_restart_leader": True},
    {"lao_to_teammate": "returnable"},
    {"sweep_keeps_point_tribute": True},
    {"chongdian": True},
    {"self_open": True},
    # the seeds' readings of issue 34 (docs/rules.md "More readings of the seeds")
    {"kaidian_plays": "money"},
    {"kaidian_plays": "no_jokers_no_single_two"},
    {"kaidian_plays": "any"},
    {"big_joker_kill": True, "three_small_kill": False},
    {"buy_with_highest": True},
    {"opposite_counter_burn": True},
    {"sweep_restart_leader": True, "first_leader": "liang_san"},
    {"base_points": 7},
]


def _variant_id(v: dict[str, Any]) -> str:
    return ",".join(f"{k}={val}" for k, val in v.items())


@pytest.mark.parametrize("variant", REGIONAL_VARIANTS, ids=_variant_id)
@pytest.mark.parametrize("preset", PRESETS)
def test_every_regional_option_plays_out_in_every_preset(preset: str, variant: dict[str, Any]) -> None:
    """Random playouts of every preset with each §16 option on end with six places (a short set with
    tribute, so that 还贡, 退贡, 汇5 and the sweep rules get their turn), and replay exactly."""
    rules = gouji.RuleSet.preset(preset).replace(**variant)
    seed = zlib.crc32(f"{preset}/{_variant_id(variant)}".encode())
    rng = random.Random(seed)
    match = Match(rules, seed=seed, set_length=3)
    while not match.is_over:
        deal = match.current
        assert deal.to_act is not None
        match.act(choose_action(deal, rng, eager_revolt=rng.random() < 0.2))
    for deal in match.deals:
        check_end(deal)
        assert Deal.replay(deal.events).events == deal.events
    assert Match.from_record(match.record()).totals == match.totals


@pytest.mark.parametrize("preset", PRESETS)
def test_heuristic_bots_stay_legal_on_every_preset(preset: str) -> None:
    """The heuristic bot answers every decision, the new ones of §16 too, with a legal action (strict mode
    raises on any internal error) on every preset, with the before-play options of §16 on."""
    from gouji.bots.heuristic import HeuristicBot

    rules = gouji.RuleSet.preset(preset)
    if preset != "shandong":  # shandong has them already; elsewhere they are switched on here
        rules = rules.replace(chongdian=True, self_open=True, huiwu=True, lao_to_teammate="returnable")
    bot = HeuristicBot(strict=True)
    match = Match(rules, seed=f"heuristic/{preset}", set_length=3)
    seen: set[str] = set()
    while not match.is_over:
        deal = match.current
        s = deal.to_act
        assert s is not None
        legal = deal.legal_actions()
        action = bot.decide(deal.view(s), legal, random.Random(0))
        assert action in legal
        seen.add(deal.phase)
        match.act(action)
    assert "play" in seen
