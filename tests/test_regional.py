"""The regional options of rule book §16 and the corrected presets of §14, one scripted deal each.

Every test's docstring quotes the seed passage it follows."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import gouji
from gouji import Deal, IllegalAction, RuleSet
from gouji.competition.loading import load_record
from gouji.competition.sets import Match
from gouji.engine import cards as C
from gouji.engine.deal.setup import can_self_open, deal_liang_san
from gouji.engine.tribute import Payment, owed

from .test_deal_rules import run, texts
from .test_tribute import result

QINGDAO = RuleSet.preset("qingdao")
PLAIN = QINGDAO.replace(revolution=False, xuandian=False, kaidian_needs_four=False, first_leader="random")


def others_pass(deal: Deal, seat: int, action: str) -> None:
    """Every seat asked before ``seat`` passes (declines a burn, or passes); then ``seat`` takes ``action``."""
    for _ in range(12):
        if deal.to_act == seat:
            deal.act(action)
            return
        deal.act("pass")
    raise AssertionError(f"seat {seat} was never asked")


def buys(deal: Deal) -> list[tuple[str, int, int | None, str | None]]:
    return [(e.get("kind", ""), e["seat"], e["from"], e["paid"]) for e in deal.events if e["type"] == "buy"]


# ---------------------------------------------------------------- buying (§16.2 buy_order, no_three)

# seat 0 has no 3; its 对头 (3) has one; teammate 2 and 上家 5 have a spare each
BUY_HANDS = ["255", "39", "33T", "3J", "3Q", "33K"]


def test_buy_order_opposite_first_pays_the_opposites_teammate() -> None:
    """Rule book §9 (001 章丘): 向对头买3；如果对头无3或只有一张3，则向对头所在联邦买3；
    如果买不到3，则向自己的联邦要3."""
    d = Deal.from_hands(BUY_HANDS, PLAIN, leader=0, setup=True)
    assert buys(d) == [("buy", 0, 5, "2")]


def test_buy_order_teammates_second_in_tongyong() -> None:
    """003 通用 【买3买4】: 买3买4顺序优先级：向对家买3(4) → 联邦送3(4) → 向上家或下家买3(4) — the teammate gives
    the 3 free before the 上家 may sell it."""
    rules = PLAIN.replace(buy_order="teammates_second")
    assert RuleSet.preset("tongyong").buy_order == "teammates_second"
    d = Deal.from_hands(BUY_HANDS, rules, leader=0, setup=True)
    assert buys(d) == [("give", 0, 2, None)]
    assert d.hand(0) == "2553", "the 2 is kept"
    # the 对头 still sells first
    d = Deal.from_hands(["255", "39", "33T", "33J", "3Q", "33K"], rules, leader=0, setup=True)
    assert buys(d) == [("buy", 0, 3, "2")]
    # no teammate spare: then 上家 (seat 5) sells
    d = Deal.from_hands(["255", "39", "3T", "3J", "3Q", "33K"], rules, leader=0, setup=True)
    assert buys(d) == [("buy", 0, 5, "2")]


def test_buy_order_teammates_first_in_shandong() -> None:
    """000 山东地区: 每人必须有3 … 一般同伙送 — a teammate gives first, even when the 对头 could sell."""
    rules = PLAIN.replace(buy_order="teammates_first")
    assert RuleSet.preset("shandong").buy_order == "teammates_first"
    d = Deal.from_hands(["255", "39", "33T", "33J", "3Q", "3K"], rules, leader=0, setup=True)
    assert buys(d) == [("give", 0, 2, None)]
    d = Deal.from_hands(["255", "39", "3T", "33J", "3Q", "3K"], rules, leader=0, setup=True)
    assert buys(d) == [("buy", 0, 3, "2")]


def test_no_three_last_ranks_the_player_last() -> None:
    """000 山东地区: 每人必须有3，否则大拉 — a player who can get no 3 is 大落 and out of play."""
    rules = PLAIN.replace(no_three="last")
    d = Deal.from_hands(["2555", "39", "3T", "3J", "3Q", "3K"], rules, leader=0, setup=True)
    assert d.no_three == [0] and d.status[0] == "no_three" and not d.in_play[0]
    assert d.headless(3)
    assert d.phase == "play" and d.to_act == 1, "the first leader is out: the next seat leads"
    while not d.is_over:
        d.act("pass" if "pass" in texts(d) else d.legal_actions()[0])
    assert d.places is not None and d.places[5] == 0
    assert d.result()["no_three"] == [0]


# ---------------------------------------------------------------- 还贡 and 退贡 (§16.2)


def test_return_held_ranks_only_in_qingdao() -> None:
    """001 青岛 还贡: 落贡要还贡，即还等量的牌，被还贡者没有的牌不能还贡 — a 还贡 card is of a rank the payer
    still holds."""
    rules = PLAIN.replace(bie_san=False, return_held_ranks_only=True)
    assert QINGDAO.return_held_ranks_only
    hands = ["AKQ", "AKQ", "DD2QJ9", "AKQ", "AKQ", "9765"]
    d = Deal.from_hands(hands, rules, 0, setup=True, tribute=[Payment("luo", 2, 5, 2, returned=True)])
    assert d.to_act == 5
    legal = {str(a) for a in d.legal_actions()}
    # the payer (seat 2) keeps 2, Q, J and 9: the receiver's 9 is its only card of those ranks, so it may
    # give back any two cards (the rule cannot be met); with two 9s it must give 9s
    assert "return 65" in legal
    hands = ["AKQ", "AKQ", "DD2QJ9", "AKQ", "AKQ", "99765"]
    d = Deal.from_hands(hands, rules, 0, setup=True, tribute=[Payment("luo", 2, 5, 2, returned=True)])
    assert {str(a) for a in d.legal_actions()} == {"return 99"}
    with pytest.raises(IllegalAction, match="还贡"):
        d.act("return 65")


def test_lao_to_teammate_returnable_giveback() -> None:
    """000 山东地区 拉贡: 大拉贡进两颗最大的，二拉贡进一颗最大的，如果是进给自己同伙，同伙可以选择退贡 — 落贡
    to a teammate is paid, and the teammate may hand it back."""
    rules = RuleSet.preset("shandong")
    places = [0, 1, 3, 5, 4, 2]  # 大落 seat 2 and 头科 seat 0 are teammates
    pays = owed(rules, result(places=places, opened=[True] * 6))
    luo = [p for p in pays if p.kind == "luo"]
    assert [(p.payer, p.receiver, p.cards, p.giveback, p.returned) for p in luo] == [
        (2, 0, 2, True, False),
        (4, 1, 1, False, True),
    ]
    assert owed(QINGDAO, result(places=places, opened=[True] * 6))[0].payer == 4, "core: none between teammates"
    plain = PLAIN.replace(bie_san=False, lao_to_teammate="returnable")
    hands = ["AKQ", "AKQ", "DX2QJ9", "AKQ", "AKQ", "9765"]
    d = Deal.from_hands(hands, plain, 0, setup=True, tribute=[Payment("luo", 2, 0, 2, giveback=True)])
    assert d.phase == "giveback" and d.to_act == 0 and texts(d) == {"giveback", "pass"}
    assert d.hand(0) == "DXAKQ"
    d.act("giveback")
    assert d.hand(0) == "AKQ" and d.hand(2) == "DX2QJ9"
    assert d.events[-2] == {"type": "tribute_giveback", "from": 0, "to": 2, "cards": "DX"}
    d = Deal.from_hands(hands, plain, 0, setup=True, tribute=[Payment("luo", 2, 0, 2, giveback=True)])
    d.act("pass")
    assert d.hand(0) == "DXAKQ" and d.phase == "play"
    # the payment's record keeps its old form unless it is a 退贡 one
    assert "giveback" not in Payment("luo", 5, 0, 2).to_dict()
    assert Payment.from_dict(Payment("luo", 2, 0, 2, giveback=True).to_dict()).giveback


# ---------------------------------------------------------------- point tribute and sweeps (§16.2, §16.3)


def test_mutual_point_tribute_waived() -> None:
    """000 换点: 对家之间都没开点，也要互相进"点贡"——（我们称为换点，可以商议都进或都不进贡） — with "waive" a pair
    that neither opened nor declared exchanges nothing; declared pairs still pay."""
    rules = QINGDAO.replace(mutual_point_tribute="waive")
    r = result(opened=[False] * 6)
    assert [p for p in owed(rules, r) if p.kind == "dian"] == []
    assert len([p for p in owed(QINGDAO, r) if p.kind == "dian"]) == 6
    declared = result(opened=[False] * 6, declared=[True, False, False, True, False, False])
    assert {(p.payer, p.receiver, p.cards) for p in owed(rules, declared) if p.kind == "dian"} == {(0, 3, 2), (3, 0, 2)}


def test_mutual_point_tribute_agreed_deal_by_deal() -> None:
    """000 换点: 可以商议都进或都不进贡 — with "agree" each pair that neither opened nor declared is asked, at the
    start of the next deal and before tribute, in turn order from the first leader; the swap is paid only if
    both agree, and every answer is in the log."""
    rules = QINGDAO.replace(mutual_point_tribute="agree")
    r = result(opened=[False] * 6)
    dian = [p for p in owed(rules, r) if p.kind == "dian"]
    assert [(p.payer, p.receiver, p.cards, p.swap) for p in dian] == [
        (a, b, 1, True) for x in range(3) for a, b in ((x, x + 3), (x + 3, x))
    ]
    declared = result(opened=[False] * 6, declared=[True, False, False, True, False, False])
    assert {(p.payer, p.receiver, p.cards, p.swap) for p in owed(rules, declared) if p.kind == "dian"} >= {
        (0, 3, 2, False),
        (3, 0, 2, False),
    }, "a declared pair pays as the table says: no question"
    assert Payment.from_dict(dian[0].to_dict()).swap and "swap" not in Payment("dian", 0, 3, 1).to_dict()

    plain = PLAIN.replace(bie_san=False, mutual_point_tribute="agree")
    hands = ["DAKQ", "AKQ", "AKQ", "XAKQ", "AKQ", "AKQ"]
    swap = [Payment("dian", 0, 3, 1, swap=True), Payment("dian", 3, 0, 1, swap=True)]

    def dealt() -> Deal:
        return Deal.from_hands(hands, plain, 0, setup=True, tribute=list(swap))

    d = dealt()
    assert d.phase == "swap" and d.to_act == 0 and texts(d) == {"swap", "pass"}
    with pytest.raises(IllegalAction, match="换点"):
        d.act("giveback")
    d.act("swap")
    assert d.to_act == 3 and d.phase == "swap"
    d.act("swap")
    assert d.hand(0) == "XAKQ" and d.hand(3) == "DAKQ", "both agreed: one card each way"
    assert [e for e in d.events if e["type"] == "point_swap"] == [
        {"type": "point_swap", "seat": 0, "agree": True},
        {"type": "point_swap", "seat": 3, "agree": True},
    ]
    for first, second in (("swap", "pass"), ("pass", "swap"), ("pass", "pass")):
        d = dealt()
        d.act(first)
        d.act(second)
        assert d.hand(0) == "DAKQ" and d.hand(3) == "XAKQ", f"{first}/{second}: no swap"
        assert not [e for e in d.events if e["type"] == "tribute"] and d.phase == "play"
    # whole sets: a deal asks exactly the seats owed a swap, and the swap is paid only where both agreed;
    # a record of the set replays
    asked_any = False
    for seed in range(6):
        m = Match(rules, seed=seed, set_length=3)
        rng = random.Random(seed)
        while not m.is_over:
            deal = m.current
            if deal.phase == "swap":
                asked_any = True
            m.act(rng.choice(list(deal.legal_actions())))
        for deal in m.deals:
            answers = {e["seat"]: e["agree"] for e in deal.events if e["type"] == "point_swap"}
            owed_swap = {p.payer for p in deal.tribute if p.swap}
            assert set(answers) == owed_swap
            paid = {(e["from"], e["to"]) for e in deal.events if e["type"] == "tribute" and e["kind"] == "dian"}
            for p in deal.tribute:
                if p.swap:
                    assert ((p.payer, p.receiver) in paid) == (answers[p.payer] and answers[p.receiver])
        again = load_record(json.dumps(m.record()))
        assert isinstance(again, Match) and again.points == m.points
    assert asked_any


def test_sweep_keeps_point_tribute_in_shandong() -> None:
    """000 山东地区: 自己伙如果被圈，要给对家进自己一颗最大的 … 闷贡和稍贡可以免去，
    但是为了突出点贡的重要性，点贡双方都不免; 点贡 … 位于进贡之首."""
    rules = RuleSet.preset("shandong")
    r = result(places=[0, 2, 4, 1, 3, 5], sweep=0, smothered=[[5, 4]], opened=[True, False, False, False, True, True])
    pays = owed(rules, r)
    assert [p.kind for p in pays] == ["dian"] * 3 + ["sweep"] * 3
    assert {(p.payer, p.receiver) for p in pays if p.kind == "dian"} == {(3, 0), (1, 4), (2, 5)}
    assert [p.kind for p in owed(QINGDAO, r)] == ["sweep"] * 3


class _Done:
    """A finished deal as Match._start_deal reads it."""

    def __init__(self, places: list[int], sweep: int | None, first: int) -> None:
        self.places, self.sweep, self.is_over, self.first = places, sweep, True, first

    def result(self) -> dict[str, Any]:
        return result(places=self.places, sweep=self.sweep, first_leader=self.first, opened=[True] * 6)


def next_deal(rules: RuleSet, done: list[_Done]) -> Deal:
    match = Match(rules, seed=5)
    match.deals = list(done)  # type: ignore[arg-type]
    match._start_deal()
    return match.deals[-1]


SWEPT = [0, 2, 4, 1, 3, 5]  # team 0 takes 头科, 二科, 三科


def test_sweep_restart_leader() -> None:
    """000 大纲: 够级活动中出现"串三户" … 应重新开牌。重新开牌由首开牌人的下家进行 — after a sweep the seat after the
    previous first leader leads, not the 大落."""
    rules = QINGDAO.replace(sweep_restart_leader=True, first_leader="random")
    assert next_deal(rules, [_Done(SWEPT, 0, first=4)]).first_leader == 5
    assert next_deal(QINGDAO, [_Done(SWEPT, 0, first=4)]).first_leader == 5, "the 大落 is seat 5 too"
    assert next_deal(rules, [_Done(SWEPT, 0, first=1)]).first_leader == 2
    assert next_deal(QINGDAO, [_Done(SWEPT, 0, first=1)]).first_leader == 5
    assert next_deal(rules, [_Done([0, 1, 2, 3, 4, 5], None, first=1)]).first_leader == 5


def test_huiwu_after_a_sweep_in_zhangqiu() -> None:
    """001 章丘: 如果是串三户 … 同时输的一方可以汇5，即丢掉自己手上抓到的所有的5。
    连续被圈则连续汇5，连续3盘后重新开始，即第四盘以新游戏开始 — the losers are asked, each may
    discard all 5s; after the third sweep in a row the next deal starts as a new game (no tribute, no 汇5)."""
    rules = RuleSet.preset("zhangqiu")
    d = next_deal(rules, [_Done(SWEPT, 0, first=0)])
    assert d.huiwu == [1, 3, 5] and d.events[0]["huiwu"] == [1, 3, 5]
    asked = []
    refused = 0
    while d.phase == "huiwu":
        s = d.to_act
        assert s is not None
        asked.append(s)
        five = d.hands[s][C.RANK_INDEX["5"]]
        assert texts(d) == ({"huiwu", "pass"} if five else {"pass"})
        if not five:  # (the refusal is worded from the rule that lists it: SETUP_RULES)
            refused += 1
            with pytest.raises(IllegalAction, match=f"seat {s} holds no 5 to discard"):
                d.act("huiwu")
            assert d.phase == "huiwu" and d.to_act == s
        d.act("huiwu" if five else "pass")
        assert d.hands[s][C.RANK_INDEX["5"]] == 0
    assert sorted(asked) == [1, 3, 5] and refused, "a seat without 5s is asked too, and refused 汇5"
    shed = sum(len(e["cards"]) for e in d.events if e["type"] == "huiwu")
    assert C.parse_counts(d.view(0)["played"])[C.RANK_INDEX["5"]] == shed, "the card counter counts them"
    assert Deal.replay(d.events).events == d.events
    three = [_Done(SWEPT, 0, first=0)] * 3
    fresh = next_deal(rules, three)
    assert fresh.huiwu == [] and fresh.tribute == [] and fresh.events[0]["leader"] is None
    assert next_deal(rules, [_Done(SWEPT, 1, first=0)] + [_Done(SWEPT, 0, first=0)] * 2).huiwu == [1, 3, 5]
    assert next_deal(QINGDAO, [_Done(SWEPT, 0, first=0)]).huiwu == [], "off elsewhere"


# ---------------------------------------------------------------- play (§16.1)


def test_burn_priority_turn_order() -> None:
    """000 第十条: 够级实行烧牌优先无联邦烧牌优先原则，按上下家的顺序顺烧，谁在前边谁先烧牌 — burns are offered in turn
    order from the gouji player, teammates first no more."""
    hands = ["QQQ553", "AAA63", "KKK73", "KKK83", "993", "T3"]
    for rules, order in ((PLAIN, [2, 4, 1, 5]), (PLAIN.replace(burn_priority="turn_order"), [1, 2, 4, 5])):
        d = Deal.from_hands(hands, rules, leader=0)
        d.act("QQQ")
        asked = []
        while d.to_act != 3:
            assert d.to_act is not None
            asked.append(d.to_act)
            d.act("pass")
        assert asked == order


SMOTHER = ["883", "993", "553", "TT3", "663", "773"]


@pytest.mark.parametrize(
    ("smother_by", "beater", "smothered"),
    [
        ("anyone", 1, True),
        ("not_opposite", 1, True),
        ("opposite_only", 1, False),
        ("anyone", 3, True),
        ("not_opposite", 3, False),
        ("opposite_only", 3, True),
    ],
)
def test_smother_by(smother_by: str, beater: int, smothered: bool) -> None:
    """000 山东够级大纲: （…我们的打法是对家无闷） — a play beaten by its player's own 对头 smothers
    nobody; 000 够级大纲-山东地区 闷贡: 在出最后一把冲科牌时被对家打了，则手里只剩一颗3,算是拉科 —
    only the 对头 smothers."""
    d = Deal.from_hands(SMOTHER, PLAIN.replace(smother_by=smother_by), leader=0)
    d.act("88")
    for s in range(1, beater):
        run(d, (s, "pass"))
    d.act("99" if beater == 1 else "TT", seat=beater)
    assert (d.smothered == [(0, beater)]) == smothered
    assert d.in_play[0] != smothered


def test_smothered_keeps_head() -> None:
    """003 (百度百科): 被"憋三"玩家视为并未走人，称为"憋三留头" — the smothered player's 对头 is not 无头."""
    for keeps in (False, True):
        d = Deal.from_hands(SMOTHER, PLAIN.replace(smothered_keeps_head=keeps), leader=0)
        run(d, (0, "88"), (1, "99"))
        assert d.smothered == [(0, 1)]
        assert d.headless(3) != keeps
        assert d.view(None)["players"][3]["headless"] != keeps


def test_open_when_opposite_smothered_in_zoucheng() -> None:
    """001 邹城 6: 当对头已经走科时，自己不能再开点 … 对家被闷时，可以开点，并且出够级牌其他人都可以压 — whose 对头 was
    smothered still opens the point, and its gouji plays are answered as 无头."""
    hands = ["883", "99443", "553", "QQQ773", "663", "T3"]
    zoucheng = RuleSet.preset("zoucheng").replace(revolution=False, xuandian=False)
    for rules, opens in ((zoucheng, True), (zoucheng.replace(open_when_opposite_smothered=False), False)):
        d = Deal.from_hands(hands, rules, leader=0)
        run(d, (0, "88"), (1, "99"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"))
        assert d.smothered == [(0, 1)] and d.to_act == 1
        run(d, (1, "4"), (2, "pass"), (3, "7"), (4, "pass"), (5, "pass"), (1, "pass"))
        assert d.to_act == 3 and d.headless(3)
        run(d, (3, "QQQ"))
        assert d.to_act == 4 and not d.view(None)["burn_offer"], "无头: anyone answers in turn order"
        run(d, (4, "pass"), (5, "pass"), (1, "pass"), (2, "pass"))
        assert d.opened[3] == opens


def test_fours_whole_in_shandong() -> None:
    """000 山东地区: 4不拆不挂 — the 4s go all together, with no 2 and no joker attached."""
    rules = PLAIN.replace(fours_whole=True)
    assert RuleSet.preset("shandong").fours_whole
    d = Deal.from_hands(["X24447", "55583", "663", "993", "TT3", "JJ3"], rules, leader=0)
    leads = texts(d)
    assert "444" in leads and "44" not in leads and "4" not in leads and "2444" not in leads and "X444" not in leads
    assert "27" in leads and "X7" in leads
    with pytest.raises(IllegalAction, match="4不拆不挂"):
        d.act("44")
    d.act("7")
    loose = rules.replace(bie_san=False)
    for fours, meets in (("444", True), ("4444", False)):
        d = Deal.from_hands(["3339", fours + "9", "66", "99", "TT", "JJ"], loose, leader=0)
        d.act("333")  # seat 1 may meet three cards with its 4s only if it holds exactly three
        assert ("444" in texts(d)) == meets


def test_failed_burn_third_is_placed_third_in_zaozhuang() -> None:
    """001 枣庄: 如果烧牌者没有按上面的要求发牌，则算烧牌失败，依次算大落、二落、三科 — under the engine's reading
    (无头 seats neither burn nor are burned) a third failed burn cannot happen in play; the placing still
    follows the option."""
    assert RuleSet.preset("zaozhuang").failed_burn_third == "sanke"
    for option, slot in (("sike", 3), ("sanke", 2)):
        d = Deal.from_hands(["5"] * 6, PLAIN.replace(failed_burn_third=option), leader=0)
        d.failed_burns = [1, 2, 3]
        d.out_order = [0]
        for s in (1, 2, 3, 0):
            d.in_play[s] = False
            d.status[s] = "failed_burn" if s else "out"
        d._finish()
        assert d.places is not None and d.places[5] == 1 and d.places[4] == 2 and d.places[slot] == 3


def test_gousiji_without_biesan() -> None:
    """001 枣庄 (7) 够死级: 不憋三的话，如果头科、二科最后一手牌是够级牌，其对头如果上牌，
    则对头获得一次够死级的机会，除非这时有人烧牌 — the 对头's beat of that last gouji play is
    answered by nobody but a burner."""
    rules = PLAIN.replace(bie_san=False, gousiji=True)
    hands = ["QQQ", "AAA6", "55", "KKK7", "AAA8", "99"]
    d = Deal.from_hands(hands, rules, leader=0)
    run(d, (0, "QQQ"))
    assert d.out_order == [0] and d.to_act == 3
    run(d, (3, "KKK"))
    assert d.events[-1] == {"type": "gousiji", "seat": 3}
    # seat 3 is 无头 now, yet only burns are offered (own team first), and nobody answers
    assert d.view(None)["burn_offer"] and d.to_act == 5
    run(d, (5, "pass"), (1, "pass"), (4, "pass"), (2, "pass"))
    assert d.to_act == 3 and d.top is None, "the play stood"
    plain = Deal.from_hands(hands, PLAIN.replace(bie_san=False), leader=0)
    run(plain, (0, "QQQ"), (3, "KKK"))
    assert plain.to_act == 4 and not plain.view(None)["burn_offer"], "otherwise 无头: anyone in turn"


def test_qingdao_opens_only_with_the_four() -> None:
    """001 青岛 开点: 不含有2、王的够级牌称为"纯够级牌"，当纯够级牌"站住"（管不了）时，下一张打出4则为开点."""
    assert QINGDAO.kaidian_needs_four
    rules = QINGDAO.replace(revolution=False, xuandian=False, first_leader="random")
    hands = ["QQQ4553", "443", "663", "773", "883", "993"]
    d = Deal.from_hands(hands, rules, leader=0)
    run(d, (0, "QQQ"), (2, "pass"), (4, "pass"), (1, "pass"), (5, "pass"), (3, "pass"))
    assert d.to_act == 0 and not d.opened[0]
    run(d, (0, "4"))
    assert d.opened[0]
    d = Deal.from_hands(hands, rules, leader=0)
    run(d, (0, "QQQ"), (2, "pass"), (4, "pass"), (1, "pass"), (5, "pass"), (3, "pass"), (0, "55"))
    assert not d.opened[0]


# ---------------------------------------------------------------- 亮3 (§16.1 first_leader)


def test_liang_san_first_leader() -> None:
    """001 青岛 上班: 首次开牌或重新开牌后，最先摸到并亮出两张同色 3 者为首发牌人，称"亮 3 "，
    此后，亮出同花色 3 多者可取代前首发牌人，称"顶班" — dealing one card at a time, the first seat
    with two 3s of one suit leads, and a seat that comes to hold more of one suit takes over."""
    deck = C.build_deck(4, {})
    for seed in range(20):
        hands, leader, shown = deal_liang_san(deck, seed % 6, random.Random(seed))
        assert [C.total(h) for h in hands] == [36] * 6
        assert leader is not None and 2 <= shown <= hands[leader][C.THREE]
    # a deal with few 3s may give nobody two of a suit: then the dealing seat leads
    few = C.build_deck(1, {C.RANK_INDEX["3"]: 0})
    assert any(deal_liang_san(few, 0, random.Random(s))[1] is None for s in range(50))
    d = Deal.new("qingdao", seed=3)
    first = d.events[0]
    liang = first["liang_san"]
    assert first["first_leader"] == d.first_leader == liang["seat"]
    assert d.view(4)["log"][0]["liang_san"] == liang, "亮3 is shown to the table"
    assert C.parse_counts(first["hands"][d.first_leader])[C.THREE] >= liang["threes"] >= 2
    assert Deal.new("qingdao", seed=3, leader=2).first_leader == 2, "later deals: the 大落 leads"
    assert "liang_san" not in Deal.new("zoucheng", seed=3).events[0]


# ---------------------------------------------------------------- 冲点 and 无级自开 (§16.3)

CHONG = PLAIN.replace(bie_san=False, chongdian=True)
CHONG_HANDS = ["QQQKKKJJJJ5", "AAA6", "2A9", "AAA7", "2K8", "2Q9"]


def chongdian_deal(hands: list[str], rules: RuleSet = CHONG) -> Deal:
    d = Deal.from_hands(hands, rules, leader=1, setup=True)
    asked = []
    while d.phase == "chongdian":
        s = d.to_act
        assert s is not None
        asked.append(s)
        d.act("chongdian" if s == 0 else "pass")
    assert asked == [1, 2, 3, 4, 5, 0], "every seat is asked, in turn order"
    return d


def test_chongdian_asked_only_without_money() -> None:
    """000 山东地区 冲点: 如果自己进完贡交易完3自己手里一个王和2都没有，可以请求冲点."""
    d = Deal.from_hands(CHONG_HANDS, CHONG, leader=0, setup=True)
    assert d.phase == "chongdian" and texts(d) == {"chongdian", "pass"}
    run(d, (0, "pass"))
    assert texts(d) == {"chongdian", "pass"}, "seat 1: AAA6, no 2 and no joker"
    run(d, (1, "pass"))
    assert texts(d) == {"pass"}, "seat 2 holds a 2: asked all the same, so the turns tell nothing"
    with pytest.raises(IllegalAction, match="cannot chongdian"):
        d.act("chongdian")


def test_chongdian_stands_and_opens() -> None:
    """000 山东地区 冲点: 自己依次出3把够级开点牌 … 如果活一把，则自己开点发4，对家交点贡 — one attempt stands: the
    冲点 player opens (here without the 4); its pair declares nothing."""
    d = chongdian_deal(CHONG_HANDS)
    assert d.phase == "play" and d.to_act == 0, "the 冲点 player leads"
    assert d.chongdian == {"seat": 0, "left": 3, "result": None, "place": None}
    assert texts(d) == {"QQQ", "KK", "KKK", "JJJJ"}, "only plays that could open the point"
    run(d, (0, "QQQ"))
    others_pass(d, 3, "AAA")
    others_pass(d, 0, "pass")
    assert d.chongdian is not None and d.chongdian["left"] == 2 and d.to_act == 0, "beaten: it leads again"
    run(d, (0, "JJJJ"))
    others_pass(d, 3, "pass")
    assert d.chongdian["result"] == "stood" and d.opened[0] and not d.opened[3]
    assert d.view(3)["chongdian"]["result"] == "stood"


def test_chongdian_beaten_three_times_opens_the_opposite() -> None:
    """000 山东地区 冲点: 如果对面全管住，则自己交点贡，对家自动开点发4 — all three beaten: the 对头 counts as opened
    and leads."""
    d = chongdian_deal(["QQQKKJJJJ5", "AAA6", "2A9", "AAAAAKKK7", "2K8", "2Q9"])
    for attempt, answer in (("QQQ", "AAA"), ("KK", "AA")):
        run(d, (0, attempt))
        others_pass(d, 3, answer)
        others_pass(d, 0, "pass")
    assert d.chongdian is not None and d.chongdian["left"] == 1
    run(d, (0, "JJJJ"))
    others_pass(d, 3, "pass")
    assert d.chongdian["result"] == "stood", "the third attempt stood"
    d = chongdian_deal(["QQQKKJJJ5", "AAA6", "2A9", "AAAAAKKK7", "2K8", "2Q9"])
    for attempt, answer in (("QQQ", "AAA"), ("KK", "AA")):
        run(d, (0, attempt))
        others_pass(d, 3, answer)
        others_pass(d, 0, "pass")
    # no gouji play left that could open: the 冲点 is lost at once
    assert d.chongdian["result"] == "beaten" and d.opened[3] and not d.opened[0]
    assert d.to_act == 3, "对家自动开点: the 对头 leads"


def test_chongdian_place_follows_the_first_out() -> None:
    """000 山东地区 冲点: 如果自己伙一科则自己被救出，算3科，如果对家走一科则自己算大拉."""
    d = chongdian_deal(["QQQKKJJJJ56", "AAA6", "2", "AAAAAKKK7", "2K8", "2Q9"])
    for attempt, answer in (("QQQ", "AAA"), ("KK", "AA")):
        run(d, (0, attempt))
        others_pass(d, 3, answer)
        others_pass(d, 0, "pass")
    run(d, (0, "JJJJ"))
    others_pass(d, 3, "pass")
    assert d.to_act == 0
    run(d, (0, "5"), (1, "6"), (2, "2"))  # teammate seat 2 goes out first: seat 0 is rescued
    assert d.out_order == [2] and d.status[0] == "rescued" and d.chongdian["place"] == 2
    while not d.is_over:
        d.act("pass" if "pass" in texts(d) else d.legal_actions()[0])
    assert d.places is not None and d.places[2] == 0


def test_two_chongdian_asks_void_the_deal() -> None:
    """000 山东地区 冲点: 每把只能有一个人冲点，若遇到多家情况，则流牌，重新开始."""
    d = Deal.from_hands(["QQQ5", "AAA6", "2A9", "KKK7", "2K8", "2Q9"], CHONG, leader=0, setup=True, seed=1)
    run(d, (0, "chongdian"), (1, "chongdian"))
    assert any(e["type"] == "void" for e in d.events)


def test_self_open_shows_the_hand_to_the_opposite_only() -> None:
    """000 山东地区: 如果自己一套够级也没有，则可以请求无级自开，前提是让对家看你够级牌，
    且能把4出来 — the hand is shown to the 对头, and the player's first lead of 4s opens the point."""
    rules = PLAIN.replace(bie_san=False, self_open=True)
    hands = ["KQJ9854", "AAA6", "2A9", "AAA7", "2K8", "2Q9"]
    assert can_self_open(C.parse_counts(hands[0])) and not can_self_open(C.parse_counts("KKQ4"))
    d = Deal.from_hands(hands, rules, leader=0, setup=True)
    assert d.phase == "selfopen" and texts(d) == {"selfopen", "pass"}
    d.act("selfopen")
    while d.phase == "selfopen":
        assert texts(d) == {"pass"}
        d.act("pass")
    assert d.view(3)["players"][0]["shown"] == d.hand(0)
    for seat in (1, 2, 4, 5, None):
        v = d.view(seat)
        assert v["players"][0]["shown"] is None and v["players"][0]["selfopen"]
        assert all("hand" not in e for e in v["log"] if e["type"] == "selfopen")
    assert any(e.get("hand") == d.hand(0) for e in d.view(3)["log"] if e["type"] == "selfopen")
    run(d, (0, "4"))
    assert d.opened[0]
    with pytest.raises(IllegalAction, match="无级自开"):
        Deal.from_hands(["KK4", "A", "A", "A", "A", "A"], rules, leader=0, setup=True).act("selfopen")


def test_shandong_preset_deals_34_each_and_plays_out() -> None:
    """000 够级大纲-山东地区: 一共四副扑克牌，其中3留6张，4取2张，一共54*4-10-2=34*6，每人分34颗牌."""
    rules = RuleSet.preset("shandong")
    assert rules.deck_size == 204
    d = Deal.new(rules, seed=11)
    assert [len(h) for h in d.events[0]["hands"]] == [34] * 6
    rng = random.Random(1)
    while not d.is_over:
        la = d.legal_actions()
        d.act(la[rng.randrange(len(la))])
    assert d.places is not None and sorted(d.places) == list(range(6))
    assert gouji.Deal.replay(d.events).places == d.places


def test_transcripts_name_the_regional_events() -> None:
    """The readable transcript (gouji.competition.transcript) spells out the events of §16."""
    from gouji.competition.transcript import format_events

    d = chongdian_deal(["QQQKKJJJJ56", "AAA6", "2", "AAAAAKKK7", "2K8", "2Q9"])
    for attempt, answer in (("QQQ", "AAA"), ("KK", "AA")):
        run(d, (0, attempt))
        others_pass(d, 3, answer)
        others_pass(d, 0, "pass")
    run(d, (0, "JJJJ"))
    others_pass(d, 3, "pass")
    run(d, (0, "5"), (1, "6"), (2, "2"))
    text = format_events(d.events)
    assert "seat 0 asks to 冲点" in text and "seat 0's 冲点: stood" in text
    assert "seat 0 leaves play after its 冲点, placed 三科" in text
    assert "亮3: seat" in format_events(Deal.new("qingdao", seed=3).events)
