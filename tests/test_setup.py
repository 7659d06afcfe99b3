"""The before-play phases: buying 3s and 4s (rule book §9), revolution, 要头/无头 and the void deal
(section 10), 宣点 (section 8.2), and where revolutionaries are placed (section 5.5)."""

from __future__ import annotations

import pytest

import gouji
from gouji import Deal
from gouji.engine.cards import parse_counts

from .test_deal_rules import finish, run, texts

NO_BIESAN = gouji.RuleSet.preset("qingdao").replace(bie_san=False)


def pass_setup(deal: Deal) -> list[tuple[str, int]]:
    """Decline every setup decision; returns (phase, seat) in the order asked."""
    asked = []
    while deal.phase not in ("play", "over"):
        assert deal.to_act is not None
        asked.append((deal.phase, deal.to_act))
        deal.act("pass" if "pass" in texts(deal) else "wutou")
    return asked


def buys(deal: Deal) -> list[dict[str, object]]:
    return [{k: v for k, v in e.items() if k != "type"} for e in deal.events if e["type"] == "buy"]


# ---------------------------------------------------------------- buying 3s


def test_buy_three_from_the_opposite_with_a_two() -> None:
    hands = ["255", "39", "3T", "33J", "3Q", "3K"]
    d = Deal.from_hands(hands, "qingdao", leader=0, setup=True)
    assert buys(d) == [{"kind": "buy", "seat": 0, "rank": "3", "from": 3, "paid": "2"}]
    assert d.hand(0) == "553" and d.hand(3) == "2J3"
    # buying comes first: seat 0 paid its only 2, so now it may revolt
    assert d.phase == "revolution" and d.to_act == 0 and texts(d) == {"revolt", "pass"}


@pytest.mark.parametrize(
    ("hands", "seller"),
    [
        (["255", "39", "3T", "3J", "3Q", "33K"], 5),  # the 对头 has one: its teammates, 5 first
        (["255", "339", "3T", "3J", "3Q", "3K"], 1),
    ],
)
def test_buy_three_from_the_opposites_teammates(hands: list[str], seller: int) -> None:
    d = Deal.from_hands(hands, "qingdao", leader=0, setup=True)
    assert buys(d)[0]["from"] == seller and buys(d)[0]["paid"] == "2"


def test_teammates_give_a_three_for_free() -> None:
    d = Deal.from_hands(["255", "39", "33T", "3J", "3Q", "3K"], "qingdao", leader=0, setup=True)
    assert buys(d) == [{"kind": "give", "seat": 0, "rank": "3", "from": 2, "paid": None}]
    assert d.hand(0) == "2553"


@pytest.mark.parametrize(("money", "paid"), [("X2", "2"), ("DX", "X"), ("D", "D")])
def test_buyer_pays_a_two_then_small_then_big_joker(money: str, paid: str) -> None:
    d = Deal.from_hands([money + "55", "39", "3T", "33J", "3Q", "3K"], "qingdao", leader=0, setup=True)
    assert buys(d)[0]["paid"] == paid


def test_no_three_and_no_money_revolts() -> None:
    d = Deal.from_hands(["55", "239", "23T", "233J", "23Q", "23K"], "qingdao", leader=0, setup=True)
    assert d.revolted == [0] and d.status[0] == "revolted"
    assert buys(d) == []


def test_money_but_no_seller_plays_without_a_three() -> None:
    """000 大纲: 如果自己没有3，又没有钱、大花、小花，则算做自动革命 — automatic revolution is only for a
    player with no 2 and no joker.  Seat 0 holds money, but nobody has a spare 3: it plays on without one,
    can never be smothered, and its last play is whatever it is."""
    d = Deal.from_hands(["DX2555", "39", "3T", "3J", "3Q", "3K"], "qingdao", leader=0, setup=True)
    assert d.revolted == [] and d.status[0] == "in_play"
    assert d.hand(0) == "DX2555"
    assert [e for e in d.events if e["type"] == "buy"] == [
        {"type": "buy", "seat": 0, "rank": "3", "from": None, "paid": None}
    ]
    pass_setup(d)
    assert d.phase == "play" and d.to_act == 0
    # its last play, with no 3 in it, is legal and takes it out
    for seat, action in [(0, "DX2555")]:
        assert d.to_act == seat
        d.act(action)
    assert d.out_order == [0]


def test_a_deck_that_never_gives_a_playable_deal_is_a_clear_error() -> None:
    """The issue's examples — zoucheng less twelve 3s (once a RecursionError), one deck without 2s, jokers
    and 3s (every seat revolts) — are refused when the rule set is built: under 憋三 at least six 3s must stay,
    so no deck is left that can only give void deals (a void deal is dealt again in a loop, not by recursion)."""
    from gouji.engine.rules import InvalidRules

    with pytest.raises(InvalidRules, match="removed"):
        gouji.RuleSet.preset("zoucheng").replace(removed={"3": 12, "4": 10})
    with pytest.raises(InvalidRules, match="removed"):
        gouji.RuleSet.preset("qingdao").replace(decks=1, removed={"2": 4, "X": 1, "D": 1, "3": 4})
    # the fewest 3s allowed still deals playable deals
    d = Deal.new(gouji.RuleSet.preset("zoucheng").replace(removed={"3": 10, "4": 10}), seed=1)
    assert not d.is_over and d.to_act is not None


def test_no_three_free_rule() -> None:
    rules = gouji.RuleSet.preset("qingdao").replace(no_three="free")
    d = Deal.from_hands(["55", "239", "23T", "233J", "23Q", "23K"], rules, leader=0, setup=True)
    assert d.revolted == []
    assert buys(d) == [{"kind": "free", "seat": 0, "rank": "3", "from": 3, "paid": None}]


# ---------------------------------------------------------------- buying 4s


def test_buy_four_is_automatic_where_required() -> None:
    rules = gouji.RuleSet.preset("tongyong")
    hands = ["2553", "4439", "43T", "443J", "43Q", "43K"]
    d = Deal.from_hands(hands, rules, leader=0, setup=True)
    assert buys(d) == [{"kind": "buy", "seat": 0, "rank": "4", "from": 3, "paid": "2"}]


def test_buy_four_optional_in_heze() -> None:
    hands = ["2553", "4439", "43T", "443J", "43Q", "43K"]
    heze = gouji.RuleSet.preset("heze").replace(decks=8)  # 8 decks: these hands hold more 4s than 4 decks
    d = Deal.from_hands(hands, heze, leader=0, setup=True)
    assert d.phase == "buy_four" and d.to_act == 0 and texts(d) == {"buy4", "pass"}
    d.act("pass")
    # every seat is asked, in order; a seat that holds a 4 may only pass
    asked = [0]
    while d.phase == "buy_four":
        asked.append(d.to_act)
        assert texts(d) == {"pass"}
        with pytest.raises(gouji.IllegalAction, match="holds a 4"):
            d.act("buy4")
        d.act("pass")
    assert asked == [0, 1, 2, 3, 4, 5]
    assert d.phase == "play" and buys(d) == []
    d = Deal.from_hands(hands, heze, leader=0, setup=True)
    d.act("buy4")
    assert buys(d)[0]["rank"] == "4" and d.hand(0) == "5543"
    assert d.phase == "buy_four" and d.to_act == 1


# ---------------------------------------------------------------- revolution, 要头 / 无头, 宣点


def test_every_seat_is_asked_about_revolution_in_order() -> None:
    hands = ["23", "239", "3", "23J", "23Q", "23K"]
    d = Deal.from_hands(hands, "qingdao", leader=4, setup=True)
    asked = pass_setup(d)
    assert [s for p, s in asked if p == "revolution"] == [4, 5, 0, 1, 2, 3]
    assert [s for p, s in asked if p == "xuandian"] == [4, 5, 0, 1, 2, 3]


def test_only_a_hand_without_money_may_revolt() -> None:
    d = Deal.from_hands(["23", "39", "23T", "23J", "23Q", "23K"], "qingdao", leader=0, setup=True)
    assert texts(d) == {"pass"}
    with pytest.raises(gouji.IllegalAction, match="cannot revolt"):
        d.act("revolt")
    d.act("pass")
    assert texts(d) == {"revolt", "pass"}


def test_revolution_lays_down_the_hand_and_the_opposite_chooses() -> None:
    d = Deal.from_hands(["23", "939", "23T", "23J", "23Q", "23K"], "qingdao", leader=0, setup=True)
    run(d, (0, "pass"), (1, "revolt"))
    assert d.view(0)["players"][1]["revealed"] == "993"
    assert d.view(0)["players"][1]["cards"] == 3
    run(d, (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"))
    assert d.phase == "yaotou" and d.to_act == 4 and texts(d) == {"yaotou", "wutou"}
    run(d, (4, "yaotou"))
    # 宣点: the revolutionary and its 对头 are not asked
    assert d.phase == "xuandian"
    run(d, (0, "declare"), (2, "pass"), (3, "declare"), (5, "pass"))
    assert d.phase == "play" and d.declared == [True, False, False, True, False, False]
    assert not d.headless(4) and d.yaotou_left[4] == 3


def test_two_revolutions_void_the_deal() -> None:
    hands = ["55", "66", "23T", "23J", "23Q", "23K"]
    d = Deal.from_hands(hands, NO_BIESAN, leader=0, setup=True, seed=11)
    run(d, (0, "revolt"), (1, "revolt"))
    voids = [e for e in d.events if e["type"] == "void"]
    assert len(voids) == 1 and voids[0]["revolted"] == [0, 1]
    # dealt again: the same cards, reshuffled, and the setup starts over
    total = parse_counts("".join(hands))
    now = tuple(sum(h[r] for h in d.hands) for r in range(15))
    assert now == total
    # the setup starts over with the new hands: nobody has revolted yet, everyone is asked again
    assert d.revolted == [] and d.phase == "revolution" and d.to_act == 0
    assert [d.hand(s) for s in range(6)] == voids[0]["hands"]
    assert Deal.replay(d.events).events == d.events


def test_yaotou_protects_the_first_gouji_plays() -> None:
    rules = NO_BIESAN.replace(yaotou_limit=1, kaidian_needs_four=False)
    hands = ["2TTT", "55", "2JJJ", "2QQQ", "KKAA2", "2999"]
    d = Deal.from_hands(hands, rules, leader=4, setup=True)
    run(d, (4, "pass"), (5, "pass"), (0, "pass"), (1, "revolt"), (2, "pass"), (3, "pass"), (4, "yaotou"))
    run(d, (5, "pass"), (0, "pass"), (2, "pass"), (3, "pass"))
    assert d.phase == "play" and d.to_act == 4
    run(d, (4, "KK"))
    # protected: burn offers only, nobody answers
    run(d, (0, "pass"), (2, "pass"), (5, "pass"), (3, "pass"))
    assert d.to_act == 4 and d.top is None and d.opened[4]
    run(d, (4, "AA"))
    # the protection is used up: seat 4 is headless and anyone answers in turn
    assert d.headless(4) and d.to_act == 5 and not d.view(None)["burn_offer"]


def test_wutou_anyone_answers() -> None:
    hands = ["2TTT", "55", "2JJJ", "2QQQ", "KKAA2", "2999"]
    d = Deal.from_hands(hands, NO_BIESAN, leader=4, setup=True)
    run(d, (4, "pass"), (5, "pass"), (0, "pass"), (1, "revolt"), (2, "pass"), (3, "pass"), (4, "wutou"))
    run(d, (5, "pass"), (0, "pass"), (2, "pass"), (3, "pass"))
    run(d, (4, "KK"))
    assert d.headless(4) and d.to_act == 5


def test_revolutionary_takes_fourth_place() -> None:
    hands = ["5", "44", "6", "277", "288", "299"]
    d = Deal.from_hands(hands, NO_BIESAN, leader=0, setup=True)
    run(d, (0, "pass"), (1, "revolt"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"), (4, "wutou"))
    pass_setup(d)
    run(d, (0, "5"))
    assert d.ffa, "one revolution: the free-for-all starts at the first out"
    finish(d)
    assert d.places is not None and d.places[:2] == [0, 2] and d.places[3] == 1
    assert d.sweep is None


def test_revolutionary_takes_third_when_its_team_takes_first_and_second() -> None:
    hands = ["277", "44", "288", "5", "299", "6"]
    d = Deal.from_hands(hands, NO_BIESAN, leader=3, setup=True)
    run(d, (3, "pass"), (4, "pass"), (5, "pass"), (0, "pass"), (1, "revolt"), (2, "pass"), (4, "wutou"))
    pass_setup(d)
    run(d, (3, "5"), (4, "pass"), (5, "6"))
    assert d.is_over
    assert d.places is not None and d.places[:3] == [3, 5, 1]
    assert d.sweep == 1


def test_revolted_leader_hands_the_lead_on() -> None:
    hands = ["277", "44", "288", "5", "299", "6"]
    d = Deal.from_hands(hands, NO_BIESAN, leader=1, setup=True)
    run(d, (1, "revolt"))
    pass_setup(d)
    assert d.to_act == 2


# ---------------------------------------------------------------- Deal.new


def test_new_deal_runs_the_setup_phases() -> None:
    d = Deal.new("qingdao", seed=5)
    assert d.phase == "revolution" and d.to_act == d.first_leader
    asked = pass_setup(d)
    assert [s for p, s in asked if p == "revolution"][:1] == [d.first_leader]
    assert d.phase == "play" and d.to_act == d.first_leader
    assert sum(d.card_count(s) for s in range(6)) == 216


def test_new_deal_without_setup_phases() -> None:
    d = Deal.new("tournament", seed=5, leader=2)
    assert d.phase == "play" and d.to_act == 2
    assert [d.card_count(s) for s in range(6)] == [36] * 6


def test_uneven_deal_gives_the_first_seats_one_more() -> None:
    d = Deal.new("heze", seed=5, leader=2)
    dealt = [len(h) for h in d.events[0]["hands"]]
    assert dealt == [32, 32, 33, 33, 33, 33]
