"""The rules of play that word a refusal (:mod:`gouji.engine.deal.legality`) refuse exactly the actions that
:meth:`Deal.legal_actions` leaves out, and :meth:`Deal.act` words its refusal from the first that refuses."""

from __future__ import annotations

import random

import pytest

from gouji import Burn, Deal, IllegalAction, Play, RuleSet
from gouji.engine import cards as C
from gouji.engine.actions import PASS, YIELD, Action, Decision, LegalActions, Return
from gouji.engine.deal import legality

from .helpers import choose_action

RULE_SETS = {
    "qingdao": RuleSet.preset("qingdao"),  # 憋三, 三小灭一大
    "tournament": RuleSet.preset("tournament"),  # no 憋三: 3s lead freely
    "tongyong": RuleSet.preset("tongyong"),  # 大王二杀一
    "shandong": RuleSet.preset("shandong"),  # 4不拆不挂, 冲点, 反稍 by the 对家, 无级自开
    "no_small_kill": RuleSet.preset("tongyong").replace(three_small_kill=False),
}
OTHERS: list[Action] = [PASS, YIELD, Decision._all["revolt"], Decision._all["declare"], Return((1,) + (0,) * 14)]


def candidates(deal: Deal, rng: random.Random) -> list[Action]:
    """Actions to put to the rules: the plays of held cards (all of them, or 400 drawn when there are more),
    each as a burn too; plays of one card more than the seat holds; every decision."""
    s = deal.to_act
    assert s is not None
    hand = deal.hands[s]
    held = LegalActions.leads(hand, allow_threes=True)  # every play of held cards
    n = len(held)
    plays = [held[i] for i in (range(n) if n <= 400 else rng.sample(range(n), 400))]
    out: list[Action] = [*plays, *(Burn(p) for p in plays if isinstance(p, Play))]
    for r in range(C.THREE, C.ACE + 1):
        out.append(Play.of(r, hand[r] + 1))
    return out + OTHERS


def check(deal: Deal, rng: random.Random) -> int:
    """Every candidate: the rules refuse it exactly when it is not legal; a refused one raises the rules'
    words.  Returns how many were refused."""
    s = deal.to_act
    assert s is not None
    legal = deal.legal_actions()
    refused = 0
    for a in candidates(deal, rng):
        why = deal._refusal(s, a)
        assert (why is None) == (a in legal), f"seat {s}, {a}: in the legal actions {a in legal}, rules {why!r}"
        if why is not None and rng.random() < 0.05:  # (act itself on a few: it words the same refusal)
            with pytest.raises(IllegalAction) as info:
                deal.act(a)
            assert str(info.value) == legality.refusal_text(why, deal, s, a)
            refused += 1
    return refused


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_the_rules_refuse_what_the_legal_actions_leave_out(name: str) -> None:
    rng = random.Random(name)
    decisions = refused = 0
    for seed in range(4):
        deal = Deal.new(RULE_SETS[name], seed=seed)
        while not deal.is_over:
            if deal.phase == "play":
                refused += check(deal, rng)
                decisions += 1
            deal.act(choose_action(deal, rng))
    assert decisions > 400 and refused > 20


def test_a_hand_of_only_threes_leads_them_all_at_once() -> None:
    # 憋三: seat 0 holds only 3s and leads: all of them, nothing less, nothing attached
    hands = ["333", "44", "55", "66", "77", "88"]
    deal = Deal.from_hands(hands, "qingdao", leader=0)
    assert [str(a) for a in deal.legal_actions()] == ["333"]
    for text in ("33", "3"):
        assert deal._refusal(0, Play.of(C.THREE, len(text))) == legality.THREES_LAST
        with pytest.raises(IllegalAction, match="憋三"):
            deal.act(text)
    assert deal._refusal(0, Play.of(C.THREE, 3)) is None
    deal.act("333")


def test_the_refusals_are_worded_from_the_table() -> None:
    deal = Deal.from_hands(["3456789TJQKA2XD", "44", "55", "66", "77", "88"], "qingdao", leader=0)

    def refused(action: str) -> str:
        with pytest.raises(IllegalAction) as info:
            deal.act(action)
        return str(info.value)

    assert refused("pass") == "seat 0 leads this round and must play: 'pass' is not possible"
    assert refused("burn 5").startswith("seat 0 cannot burn now")
    assert refused("99") == "seat 0 does not hold 99 (holds DX2AKQJT9876543)"
    assert refused("revolt") == "'revolt' is a setup decision; the deal is in play"
    deal.act("9")
    assert refused("44") == "44 cannot meet 9: a play is beaten only by one of the same number of cards"
    assert refused("4") == "4 does not beat 9: every card must be higher, jokers beaten only by bigger jokers"


def test_a_setup_phase_lists_and_refuses_its_action_by_one_rule() -> None:
    """Setup's hand-dependent actions (革命, 冲点, 汇5, 无级自开, 买四) are listed and refused by one entry of
    :data:`SETUP_RULES`: listed exactly when the hand may take it; else ``act`` refuses it naming the reason
    and nothing changes."""
    from gouji.engine.deal.setup import SETUP_RULES
    from gouji.engine.rules import PRESETS

    rng = random.Random(7)
    seen: dict[tuple[str, bool], int] = {}
    for name in PRESETS:
        for seed in range(6):
            deal = Deal.new(RuleSet.preset(name), seed=seed)
            while not deal.is_over:
                rule = SETUP_RULES.get(deal.phase)
                if rule is not None and deal.to_act is not None:
                    action, may, reason = rule
                    s = deal.to_act
                    allowed = may(deal.hands[s])
                    assert (action in deal.legal_actions()) == allowed, (name, seed, deal.phase, s)
                    seen[deal.phase, allowed] = seen.get((deal.phase, allowed), 0) + 1
                    if not allowed:
                        before = (len(deal.events), [list(h) for h in deal.hands], deal.phase, deal.to_act)
                        with pytest.raises(IllegalAction) as info:
                            deal.act(action)
                        assert f"seat {s} " + reason.format(a=action) in str(info.value)
                        assert (len(deal.events), [list(h) for h in deal.hands], deal.phase, deal.to_act) == before
                deal.act(choose_action(deal, rng))
    refused = {phase for phase, allowed in seen if not allowed}
    # (汇5 comes only after a sweep in a set: test_regional.py's test_huiwu_after_a_sweep_in_zhangqiu refuses it)
    assert refused == set(SETUP_RULES) - {"huiwu"}, seen
