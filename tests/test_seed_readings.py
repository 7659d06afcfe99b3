"""The seeds' last readings made options (issue 34, docs/rules.md "Readings of the seeds"): 三小灭一大 on its
own switch, 菏泽's price of a 3 for a player without money, and 章丘's 基础分."""

from __future__ import annotations

import pytest

from gouji import Deal, RuleSet, beats
from gouji.competition.sets import Match
from gouji.engine.scoring import place_scores, seat_points
from gouji.engine.tribute import owed

from .test_deal_rules import finish, texts

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


# ---------------------------------------------------------------- 亮3 after 重新开牌


def test_liang_san_decides_the_leader_after_a_restart() -> None:
    """001 青岛 上班: 首次开牌或重新开牌后，最先摸到并亮出两张同色 3 者为首发牌人; 000 大纲: 出现"串三户" … 应重新开牌。
    重新开牌由首开牌人的下家进行 — with sweep_restart_leader, a sweep's next deal is dealt from the seat after the last
    first leader and 亮3 / 顶班 picks its leader; the sweep's tribute is still paid (000: 串三户的一方各吃一个贡)."""
    from .test_regional import SWEPT, _Done, next_deal

    rules = QINGDAO.replace(sweep_restart_leader=True)
    d = next_deal(rules, [_Done(SWEPT, 0, first=4)])
    first = d.events[0]
    assert first["leader"] is None and first["liang_san_from"] == 5
    assert first["liang_san"]["dealt_from"] == 5
    assert d.first_leader == (first["liang_san"]["seat"] if first["liang_san"]["seat"] is not None else 5)
    assert [p.kind for p in d.tribute] == ["sweep"] * 3
    assert Deal.replay(d.events).events == d.events
    # without 重新开牌 the 大落 leads, and nobody shows 3s
    plain = next_deal(QINGDAO, [_Done(SWEPT, 0, first=4)])
    assert plain.events[0]["leader"] == 5 and "liang_san" not in plain.events[0]
    # with a random first leader the restart is the seat after the last first leader (the reading before)
    assert next_deal(rules.replace(first_leader="random"), [_Done(SWEPT, 0, first=4)]).first_leader == 5


# ---------------------------------------------------------------- 000 山东地区: 4随意，无4不开点。一般同伙送


def test_shandong_fours_given_by_teammates_when_chosen() -> None:
    """`shandong` reads 4随意 as no 买四; with buy_four and buy_four_optional on, a 4 is asked for and a teammate
    gives it first (一般同伙送, buy_order teammates_first)."""
    hands = ["2553", "4439", "443T", "443J", "43Q", "43K"]
    plain = Deal.from_hands(hands, "shandong", leader=0, setup=True)
    assert not [e for e in plain.events if e["type"] == "buy" and e["rank"] == "4"]
    rules = RuleSet.preset("shandong").replace(buy_four=True, buy_four_optional=True, decks=8)
    d = Deal.from_hands(hands, rules, leader=0, setup=True)
    assert d.phase == "buy_four" and d.to_act == 0 and texts(d) == {"buy4", "pass"}
    d.act("buy4")
    four = next(e for e in d.events if e["type"] == "buy" and e["rank"] == "4")
    assert four["kind"] == "give" and four["from"] == 2 and four["paid"] is None


# ---------------------------------------------------------------- 000 山东地区: 被对家反稍则进对家两倍的贡


def burned_by_seat_1(rules: RuleSet) -> Deal:
    """Seat 0 leads QQQ; seat 1 burns it with KKK; now seat 4, the burner's 对头, is to answer."""
    hands = ["QQQ553", "KKK663", "773", "883", "AAAX53", "993"]
    d = Deal.from_hands(hands, rules, leader=0)
    d.act("QQQ")
    while d.to_act != 1:
        d.act("pass")  # seats 2 and 4 decline the burn
    d.act("burn KKK")
    while d.to_act != 4:
        d.act("pass")
    return d


def test_the_opposite_may_counter_burn_for_a_double_tribute() -> None:
    """000 山东地区 稍贡: 如果跑科之前被对家解了，则不进稍贡，如果被对家反稍则进对家两倍的贡，依次类推，上不封顶."""
    rules = QINGDAO.replace(opposite_counter_burn=True, kaidian_needs_four=False)
    d = burned_by_seat_1(rules)
    assert {"AAA", "burn AAA", "pass"} <= texts(d)
    d.act("burn AAA")
    while d.to_act != 4:
        d.act("pass")
    d.act("X5")
    while d.to_act != 4:
        d.act("pass")
    d.act("3")
    assert [(b["burner"], b["burned"], b["level"], b["result"]) for b in d.burns] == [
        (1, 0, 1, "countered"),
        (4, 1, 2, "success"),
    ]
    finish(d)
    shao = [p for p in owed(rules, d.result()) if p.kind == "shao"]
    assert d.sweep is None  # (a sweep would waive 烧贡)
    assert [(p.payer, p.receiver, p.cards) for p in shao] == [(1, 4, 2)]
    # the plain answer still breaks the burn (解烧): no tribute
    d = burned_by_seat_1(rules)
    d.act("AAA")
    assert [(b["burner"], b["result"]) for b in d.burns] == [(1, "broken")]


def test_without_the_option_the_opposite_only_breaks_the_burn() -> None:
    d = burned_by_seat_1(QINGDAO.replace(kaidian_needs_four=False))
    assert not any(t.startswith("burn") for t in texts(d))
    assert RuleSet.preset("shandong").opposite_counter_burn
