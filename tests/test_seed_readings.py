"""The seeds' last readings made options (issue 34, docs/rules.md "Readings of the seeds"): 三小灭一大 on its
own switch, 菏泽's price of a 3 for a player without money, and 章丘's 基础分."""

from __future__ import annotations

import pytest

from gouji import Deal, RuleSet, beats
from gouji.competition.sets import Match
from gouji.engine.scoring import place_scores, seat_points

from .test_deal_rules import texts

QINGDAO = RuleSet.preset("qingdao")


# ---------------------------------------------------------------- 俩大王打一大王 without 三小灭一大


def answers_to_a_big_joker(rules: RuleSet) -> set[str]:
    """Seat 0 leads a big joker; nobody else can beat it; the 对头 (seat 3) holds DD and XXX: its choices."""
    d = Deal.from_hands(["D553", "663", "773", "DDXXX883", "993", "T3"], rules, leader=0)
    d.act("D")
    while d.to_act != 3:
        d.act("pass")
    return texts(d)


def test_two_big_jokers_without_three_small() -> None:
    """000 山东地区: 为了游戏的趣味性，可以选择俩大王打一大王 — two big jokers beat one, three small do not."""
    both = QINGDAO.replace(big_joker_kill=True)
    only_big = both.replace(three_small_kill=False)
    assert {"DD", "XXX", "DXX"} <= answers_to_a_big_joker(both)
    got = answers_to_a_big_joker(only_big)
    assert "DD" in got and not {"XXX", "DXX", "DDX"} & got
    assert answers_to_a_big_joker(QINGDAO) == {"pass"}
    assert beats("DD999", "D888", only_big) and not beats("XXX999", "D888", only_big)
    assert beats("XXX999", "D888", both)


def test_tongyong_keeps_three_small_kill() -> None:
    """003 通用规则: 两大灭一大（二杀一）、三小灭一大（三杀一）."""
    rules = RuleSet.preset("tongyong")
    assert rules.big_joker_kill and rules.three_small_kill
    assert beats("XXX", "D", "tongyong")


# ---------------------------------------------------------------- 菏泽: 没大王用最大牌


def three_bought(d: Deal) -> dict[str, object]:
    return next(e for e in d.events if e["type"] == "buy" and e["rank"] == "3")


def test_heze_buyer_without_money_pays_the_highest_card() -> None:
    """001 菏泽 (header): 如果没3，则要用一张2（没2用小王，没小王用大王，没大王用最大牌）向对头买3."""
    hands = ["KQ5554", "394", "3T4", "33J4", "3Q4", "3K4"]
    d = Deal.from_hands(hands, "heze", leader=0, setup=True)
    assert three_bought(d) == {"type": "buy", "kind": "buy", "seat": 0, "rank": "3", "from": 3, "paid": "K"}
    assert d.hand(3) == "KJ43"
    # without the option (菏泽's section 3: 没有钱、大花、小花，则无偿获得3) the 3 comes for nothing
    d = Deal.from_hands(hands, RuleSet.preset("heze").replace(buy_with_highest=False), leader=0, setup=True)
    assert three_bought(d)["kind"] == "free" and three_bought(d)["paid"] is None


def test_buy_with_highest_still_pays_money_first() -> None:
    rules = QINGDAO.replace(buy_with_highest=True)
    d = Deal.from_hands(["2A55", "39", "3T", "33J", "3Q", "3K"], rules, leader=0, setup=True)
    assert three_bought(d)["paid"] == "2"
    # a player with money neither revolts automatically nor pays a card that is not money
    d = Deal.from_hands(["A55", "39", "3T", "33J", "3Q", "3K"], rules, leader=0, setup=True)
    assert three_bought(d)["paid"] == "A" and d.revolted == []


# ---------------------------------------------------------------- 章丘 8: 积分 = 本队走科分数之和 × 基础分


def test_base_points_multiply_set_scoring() -> None:
    """001 章丘 8: 玩家得分=(本队三个玩家走科分数之和)*基础分."""
    staked = QINGDAO.replace(base_points=5)
    assert place_scores(staked) == (20, 10, 0, 0, -10, -20)
    places = [0, 1, 2, 3, 4, 5]
    assert seat_points(staked, places, None) == [5 * p for p in seat_points(QINGDAO, places, None)]
    assert seat_points(staked, [0, 2, 4, 1, 3, 5], 0) == [60, -60, 60, -60, 60, -60]
    # tournament small points are not a stake
    assert place_scores(RuleSet.preset("tournament").replace(base_points=5)) == (6, 5, 4, 3, 2, 1)


def play_first_legal(rules: RuleSet) -> Match:
    m = Match(rules, seed=11, set_length=1)
    while not m.is_over:
        m.act(m.legal_actions()[0])
    return m


def test_a_played_deal_scores_times_the_stake() -> None:
    plain, staked = play_first_legal(QINGDAO), play_first_legal(QINGDAO.replace(base_points=3))
    assert plain.points[0] != (0, 0)
    assert staked.points[0] == (3 * plain.points[0][0], 3 * plain.points[0][1])


@pytest.mark.parametrize("bad", [0, 101, True, 1.5])
def test_base_points_bounds(bad: object) -> None:
    from gouji.engine.rule_bounds import InvalidRules

    with pytest.raises(InvalidRules, match="base_points"):
        QINGDAO.replace(base_points=bad)
