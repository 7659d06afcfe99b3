"""Tribute (进贡 / 还贡, rule book §12): what is owed, and how a deal pays it from the new hands."""

from __future__ import annotations

import random
from typing import Any

import pytest

import gouji
from gouji import Deal
from gouji.engine.cards import BIG, NUM_RANKS, SMALL, TWO, build_deck, parse_counts
from gouji.engine.tribute import Payment, owed, point_tribute

QINGDAO = gouji.RuleSet.preset("qingdao")
NO_BIESAN = QINGDAO.replace(bie_san=False, revolution=False, xuandian=False)


def flows(payments: list[Payment]) -> set[tuple[int, int, int]]:
    return {(p.payer, p.receiver, p.cards) for p in payments}


# ---------------------------------------------------------------- 点贡: every cell of the table, pair A=0, B=3

# (A declared, B declared, A opened, B opened) -> {(payer, receiver, cards)}
POINT_TABLE = {
    (False, False, True, False): {(3, 0, 1)},
    (False, False, False, True): {(0, 3, 1)},
    (False, False, False, False): {(0, 3, 1), (3, 0, 1)},
    (False, False, True, True): set(),
    (True, True, True, False): {(3, 0, 4)},
    (True, True, False, True): {(0, 3, 4)},
    (True, True, False, False): {(0, 3, 2), (3, 0, 2)},
    (True, True, True, True): {(0, 3, 2), (3, 0, 2)},
    (True, False, True, False): {(3, 0, 3)},
    (True, False, False, True): {(0, 3, 3)},
    (True, False, False, False): {(0, 3, 1), (3, 0, 2)},
    (True, False, True, True): {(0, 3, 2)},
}


@pytest.mark.parametrize(("cell", "expected"), list(POINT_TABLE.items()), ids=str)
def test_point_tribute_table(cell: tuple[bool, bool, bool, bool], expected: set[tuple[int, int, int]]) -> None:
    da, db, oa, ob = cell
    declared = [da, False, False, db, False, False]
    opened = [oa, False, False, ob, False, False]
    assert flows(point_tribute(0, 3, declared, opened)) == expected
    # the table is symmetric: B in A's place gives the mirrored flows
    mirrored = {(3 - p, 3 - r, n) for p, r, n in expected}
    assert flows(point_tribute(3, 0, [db, 0, 0, da, 0, 0], [ob, 0, 0, oa, 0, 0])) == mirrored  # type: ignore[list-item]


def result(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "places": [0, 1, 2, 3, 4, 5],
        "smothered": [],
        "burns": [],
        "opened": [True] * 6,
        "declared": [False] * 6,
        "revolted": [],
        "sweep": None,
    }
    base.update(kw)
    return base


def test_fall_tribute_and_no_tribute_between_teammates() -> None:
    # 大落 seat 5 -> 头科 seat 0: 2 cards; 二落 seat 4 -> 二科 seat 1: 1 card; returned (还贡)
    pays = owed(QINGDAO, result(places=[0, 1, 2, 3, 4, 5]))
    assert [(p.kind, p.payer, p.receiver, p.cards, p.returned) for p in pays] == [
        ("luo", 5, 0, 2, True),
        ("luo", 4, 1, 1, True),
    ]
    # 大落 and 头科 teammates: nothing between them
    pays = owed(QINGDAO, result(places=[0, 1, 3, 5, 4, 2]))
    assert flows(pays) == {(4, 1, 1)}


def test_smother_and_burn_tribute_and_the_order() -> None:
    burns = [
        {"burner": 2, "burned": 1, "level": 1, "result": "success"},
        {"burner": 4, "burned": 3, "level": 2, "result": "success"},
        {"burner": 0, "burned": 5, "level": 1, "result": "failed"},
    ]
    r = result(smothered=[[1, 0]], burns=burns, opened=[True, False, True, True, True, True])
    pays = owed(QINGDAO, r)
    assert [p.kind for p in pays] == ["men", "shao", "shao", "dian", "luo", "luo"]
    assert (pays[0].payer, pays[0].receiver, pays[0].cards) == (1, 0, 1)
    assert flows(pays[1:3]) == {(1, 2, 1), (3, 4, 2)}, "a counter-burn's 烧贡 is doubled"
    assert flows(pays[3:4]) == {(1, 4, 1)}, "seat 1 did not open, its 对头 seat 4 did"
    zhangqiu = owed(gouji.RuleSet.preset("zhangqiu"), r)
    assert [p.kind for p in zhangqiu] == ["dian", "shao", "shao", "men", "luo", "luo"]
    assert not any(p.returned for p in zhangqiu), "章丘: no 还贡"


def test_sweep_waives_everything_else() -> None:
    r = result(places=[0, 2, 4, 1, 3, 5], sweep=0, smothered=[[5, 4]])
    pays = owed(QINGDAO, r)
    assert [(p.kind, p.payer, p.receiver, p.cards) for p in pays] == [
        ("sweep", 3, 0, 1),
        ("sweep", 5, 2, 1),
        ("sweep", 1, 4, 1),
    ]


def test_zhangqiu_sweep_losers_pay_and_point_tribute_stays() -> None:
    r = result(places=[0, 2, 4, 1, 3, 5], sweep=0, smothered=[[5, 4]], opened=[True, False, True, True, True, True])
    pays = owed(gouji.RuleSet.preset("zhangqiu"), r)
    assert [p.kind for p in pays] == ["dian", "luo", "luo", "luo"]
    assert flows(pays[1:]) == {(1, 4, 1), (3, 0, 1), (5, 2, 1)}


def test_no_point_tribute_for_a_revolutionarys_pair_and_none_without_tribute() -> None:
    r = result(revolted=[1], opened=[False] * 6)
    assert all({p.payer, p.receiver} != {1, 4} for p in owed(QINGDAO, r) if p.kind == "dian")
    assert owed(gouji.RuleSet.preset("tournament"), r) == []
    assert owed(gouji.RuleSet.preset("heze"), r) == []


# ---------------------------------------------------------------- paying from the new hands


def tribute_events(deal: Deal) -> list[dict[str, Any]]:
    return [e for e in deal.events if e["type"] == "tribute"]


def test_the_tribute_card_is_the_highest_joker_or_two() -> None:
    hands = ["DX2AK", "X2AK", "22AK", "AKQ", "AKQ", "AKQ"]
    pays = [Payment("men", 0, 3, 1), Payment("men", 1, 4, 1), Payment("men", 2, 5, 1), Payment("men", 3, 0, 1)]
    d = Deal.from_hands(hands, NO_BIESAN, leader=0, setup=True, tribute=pays)
    assert [e["cards"] for e in tribute_events(d)] == ["D", "X", "2", ""], "no joker and no 2: nothing paid"
    assert d.hand(3) == "DAKQ"


def test_cards_received_are_never_paid_onward() -> None:
    hands = ["DAK", "KQ", "AKQ", "AKQ", "AKQ", "AKQ"]
    pays = [Payment("shao", 0, 1, 1), Payment("men", 1, 2, 1)]
    d = Deal.from_hands(hands, NO_BIESAN, leader=0, setup=True, tribute=pays)
    assert [e["cards"] for e in tribute_events(d)] == ["D", ""], "吃了不吐"
    assert d.hand(1) == "DKQ"


def test_multi_card_tribute_pays_highest_first_until_none() -> None:
    d = Deal.from_hands(
        ["X2AK", "AK", "AK", "AK", "AK", "AK"], NO_BIESAN, 0, setup=True, tribute=[Payment("dian", 0, 3, 4)]
    )
    assert tribute_events(d)[0]["cards"] == "X2"


def test_return_tribute_is_chosen_by_the_receiver() -> None:
    hands = ["AKQ", "AKQ", "DD2QJ9", "AKQ", "AKQ", "9765"]
    d = Deal.from_hands(hands, NO_BIESAN, 0, setup=True, tribute=[Payment("luo", 2, 5, 2, returned=True)])
    assert d.phase == "tribute_return" and d.to_act == 5
    legal = {str(a) for a in d.legal_actions()}
    assert "return 65" in legal and "return DD" in legal and "return 9" not in legal
    assert len(legal) == len({str(a) for a in d.legal_actions()})
    with pytest.raises(gouji.IllegalAction, match="还贡"):
        d.act("pass")
    d.act("return 65")
    assert d.hand(5) == "DD97" and d.hand(2) == "2QJ965"
    assert d.phase == "play"
    # the returned cards are known to the two players only
    assert any(e.get("cards") == "65" for e in d.view(2)["log"] if e["type"] == "tribute_return")
    for seat in (0, 1, 3, 4):
        log = d.view(seat)["log"]
        assert all(e.get("cards") in (2, None) for e in log if e["type"] == "tribute_return")
        assert all(e["action"] == "return" for e in log if e["type"] == "act" and e["action"].startswith("return"))


def test_no_return_rule() -> None:
    rules = NO_BIESAN.replace(no_return=True)
    hands = ["AKQ", "AKQ", "DD2QJ9", "AKQ", "AKQ", "9765"]
    d = Deal.from_hands(hands, rules, 0, setup=True, tribute=[Payment("luo", 2, 5, 2, returned=True)])
    assert d.phase == "play"


@pytest.mark.parametrize(
    ("hands", "exempt"),
    [(["DDDDA", "K", "2A", "Q", "2A", "J"], [0, 2, 4]), (["XXXXA", "K", "2A", "Q", "2A", "J"], [0])],
)
def test_kanggong(hands: list[str], exempt: list[int]) -> None:
    rules = NO_BIESAN.replace(kanggong=True)
    pays = [Payment("dian", s, (s + 3) % 6, 1) for s in (0, 2, 4)]
    d = Deal.from_hands(hands, rules, 0, setup=True, tribute=pays)
    assert [e["from"] for e in tribute_events(d) if e["exempt"]] == exempt


def test_tribute_is_paid_again_after_a_void_deal() -> None:
    hands = ["55D", "66", "23T", "23J", "23Q", "23K"]
    rules = QINGDAO.replace(bie_san=False)
    d = Deal.from_hands(hands, rules, 0, setup=True, seed=3, tribute=[Payment("men", 0, 3, 1)])
    assert tribute_events(d)[0]["cards"] == "D"
    d.act("revolt")  # seat 0 paid its joker: it may revolt
    d.act("revolt")
    assert any(e["type"] == "void" for e in d.events)
    assert len(tribute_events(d)) == 2


# ---------------------------------------------------------------- properties over random sets


@pytest.mark.parametrize("preset", [p for p in gouji.PRESETS if gouji.RuleSet.preset(p).tribute])
@pytest.mark.parametrize("seed", range(3))
def test_sets_conserve_cards_and_never_pay_a_card_twice(preset: str, seed: int) -> None:
    from gouji.bots import RandomBot, decide
    from gouji.competition.sets import Match

    rules = gouji.RuleSet.preset(preset)
    deck = build_deck(rules.decks, rules.removed_counts)
    rng = random.Random(seed)
    bot = RandomBot()
    match = Match(rules, seed=seed, set_length=3)
    while not match.is_over:
        deal = match.current
        # cards are conserved: what the hands hold plus what has been played is the deck
        held = [sum(h[r] for h in deal.hands) for r in range(NUM_RANKS)]
        played = parse_counts(deal.view(None, log=False)["played"])
        assert [held[r] + played[r] for r in range(NUM_RANKS)] == list(deck)
        assert all(min(h) >= 0 for h in deal.hands)
        match.act(decide(bot, deal, rng))
    for deal in match.deals[1:]:
        dealt = [parse_counts(h) for h in deal.events[0]["hands"]]
        last_void = max((i for i, e in enumerate(deal.events) if e["type"] == "void"), default=None)
        if last_void is not None:
            dealt = [parse_counts(h) for h in deal.events[last_void]["hands"]]
            events = deal.events[last_void:]
        else:
            events = deal.events
        paid = [[0] * NUM_RANKS for _ in range(6)]
        for e in events:
            if e["type"] == "tribute":
                for c in e["cards"]:
                    r = "3456789TJQKA2XD".index(c)
                    if rules.tribute_cards == "money":
                        assert r in (TWO, SMALL, BIG), "tribute is jokers and 2s only"
                    paid[e["from"]][r] += 1
        for s in range(6):
            for r in range(NUM_RANKS):
                assert paid[s][r] <= dealt[s][r], f"seat {s} paid a card it only received"


def test_a_payments_plain_data_is_its_fields_in_order_with_giveback_only_when_set() -> None:
    """``to_dict`` is made field by field (not ``dataclasses.asdict``): the same keys, in the fields' order,
    the same values, ``giveback`` and ``swap`` left out unless set (older records read the same)."""
    import dataclasses

    for kw in ({}, {"returned": True}, {"giveback": True}, {"returned": True, "giveback": True}, {"swap": True}):
        kind = "luo" if kw.get("giveback") else "men"
        p = Payment(kind, 0, 3 if kind == "luo" else 1, 1, **kw)
        want = dataclasses.asdict(p)
        for flag in ("giveback", "swap"):
            if not want[flag]:
                del want[flag]
        got = p.to_dict()
        assert got == want and list(got) == list(want), (kw, got)
        assert Payment.from_dict(got) == p
