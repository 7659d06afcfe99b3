"""The six points left by the item-by-item audit of the seeds (issue 47): 章丘's revolution and 五户乱缠, the cards a
tribute is paid in, a pass and the 对头's play, whom 章丘's losers pay, 够死级 in 枣庄, and opening in 菏泽.  Each
reading is written up in docs/rules.md ("More readings of the seeds")."""

from __future__ import annotations

from typing import Any

import gouji
from gouji import Deal
from gouji.engine.rules import RuleSet
from gouji.engine.tribute import owed

from .test_deal_rules import run, texts

ZHANGQIU = RuleSet.preset("zhangqiu")

# seat 1 holds no 2 and no joker: it may revolt; every seat holds its 3 and its 4 (章丘 buys both)
REVOLT_HANDS = ["QQQ243", "KKK943", "AAA243", "KKK243", "2643", "2743"]


def setup_with_revolution(hands: list[str], rules: RuleSet | str = ZHANGQIU, rebel: int = 1) -> Deal:
    """A deal through its setup: seat ``rebel`` revolts, its 对头 chooses 无头, everyone else declines."""
    d = Deal.from_hands(hands, rules, leader=0, setup=True, seed=1)
    while d.phase not in ("play", "over"):
        legal = texts(d)
        if d.to_act == rebel and "revolt" in legal:
            d.act("revolt")
        else:
            d.act("pass" if "pass" in legal else "wutou")
    return d


def pass_until(d: Deal, seat: int) -> None:
    while d.to_act != seat:
        d.act("pass")


def test_zhangqiu_revolution_alone_starts_no_free_for_all() -> None:
    """001 章丘 7(8): 头科产生后，其他5人是五户乱缠 … 大落产生后，其他5人是五户乱缠 — a revolution before play places
    nobody in play, so gouji plays keep the 对头's privilege and can be burned (the old engine counted five in play and
    played seat 0's QQQ in plain turn order)."""
    d = setup_with_revolution(REVOLT_HANDS)
    assert d.revolted == [1] and d.phase == "play" and not d.ffa
    run(d, (0, "QQQ"))
    assert not d.ffa and d.burn_offered and d.to_act == 2
    assert texts(d) == {"burn AAA", "burn 2AA", "pass"}
    run(d, (2, "pass"), (5, "pass"))
    assert d.to_act == 3 and texts(d) == {"KKK", "2KK", "pass"}, "only the 对头 answers: seat 4 is skipped"


def test_zhangqiu_free_for_all_after_a_revolution_starts_at_the_first_out() -> None:
    d = setup_with_revolution(REVOLT_HANDS)
    run(d, (0, "QQQ"))
    pass_until(d, 0)  # nobody burns, seat 3 passes: QQQ stands
    run(d, (0, "4"))  # 开点发4 (a single 4)
    assert d.opened[0] and not d.ffa
    pass_until(d, 0)
    run(d, (0, "2"))
    pass_until(d, 0)
    run(d, (0, "3"))
    assert d.out_order == [0] and d.ffa, "头科 placed: four are left (the revolutionary and 头科 gone)"


def test_other_presets_keep_the_four_player_count_with_a_revolution() -> None:
    """000 四户乱缠: 如果有人革命，接着打牌中产生了"头科"，则剩下四人为"四户乱缠" — unchanged where it starts
    at four."""
    rules = RuleSet.preset("qingdao").replace(first_leader="random")
    hands = ["QQQ243", "KKK943", "AAA243", "KKK243", "2643", "2743"]
    d = setup_with_revolution(hands, rules)
    assert not d.ffa
    run(d, (0, "QQQ"))
    pass_until(d, 0)
    run(d, (0, "4"))
    pass_until(d, 0)
    run(d, (0, "2"))
    pass_until(d, 0)
    run(d, (0, "3"))
    assert d.ffa


def luo_paid(rules: RuleSet | str, payer_hand: str) -> str:
    hands = [payer_hand, "53", "63", "73", "83", "93"]
    tribute = [{"kind": "luo", "payer": 0, "receiver": 3, "cards": 2, "returned": False}]
    d = Deal.from_hands(hands, rules, leader=0, setup=True, seed=1, tribute=tribute)
    paid = [e for e in d.events if e["type"] == "tribute"]
    assert len(paid) == 1
    return str(paid[0]["cards"])


def test_shandong_tribute_pays_the_highest_cards() -> None:
    """000 山东地区: 大拉贡进两颗最大的 — a 大落 holding AKQJ3 pays its A and K."""
    assert RuleSet.preset("shandong").tribute_cards == "highest"
    assert luo_paid("shandong", "AKQJ3") == "AK"
    assert luo_paid("shandong", "X2KQ3") == "X2", "money first: it is the highest"


def test_money_tribute_pays_nothing_without_money() -> None:
    """001 进贡 法定贡牌：大小王、2 … 不符合以上条件的不进贡 — every other preset."""
    assert [n for n in gouji.PRESETS if RuleSet.preset(n).tribute_cards != "money"] == ["shandong"]
    assert luo_paid(RuleSet.preset("shandong").replace(tribute_cards="money"), "AKQJ3") == ""
    assert luo_paid(RuleSet.preset("qingdao").replace(first_leader="random"), "AKQJ3") == ""


PASS_HANDS = ["593", "6T3", "X73", "J3", "Q3", "283"]


def test_a_pass_is_final_but_for_the_opposites_gouji_play() -> None:
    """000: 如果"过牌"后，如果不是对头的牌，是不允许再"上牌"的, read as 枣庄 words it: 过牌不准上，除非自己的
    对头出够级牌."""
    plain = Deal.from_hands(PASS_HANDS, "qingdao", leader=0)
    run(plain, (0, "5"), (1, "6"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "8"))
    asked = []
    while plain.top is not None:
        asked.append(plain.to_act)
        plain.act("pass")
    assert asked == [0, 1], "seat 2 passed: its 对头's plain 8 does not let it back"
    gouji_play = Deal.from_hands(PASS_HANDS, "qingdao", leader=0)
    run(gouji_play, (0, "5"), (1, "6"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "2"))
    pass_until(gouji_play, 2)  # the burn offers (seats 1 and 0) declined
    assert texts(gouji_play) == {"X", "pass"}, "its 对头's gouji play: seat 2 answers though it passed"


def sweep_result(sweep: int) -> dict[str, Any]:
    places = [0, 2, 4, 1, 3, 5] if sweep == 0 else [1, 3, 5, 0, 2, 4]
    return {
        "places": places,
        "smothered": [],
        "burns": [],
        "opened": [False] * 6,
        "declared": [False] * 6,
        "revolted": [],
        "sweep": sweep,
    }


def test_zhangqiu_losers_pay_their_opposites() -> None:
    """001 章丘: 如果是串三户 输的3家各进落贡1张 — to whom is not said: each loser's 对头, always a sweeper."""
    for sweep in (0, 1):
        luo = [(p.payer, p.receiver, p.cards) for p in owed(ZHANGQIU, sweep_result(sweep)) if p.kind == "luo"]
        assert luo == [(s, (s + 3) % 6, 1) for s in range(6) if s % 2 != sweep]
        assert {r % 2 for _, r, _ in luo} == {sweep}, "every sweeper receives one"


def test_zaozhuang_keeps_gousiji_without_biesan() -> None:
    """001 枣庄 (7): 不憋三的话，如果头科、二科最后一手牌是够级牌，其对头如果上牌，则对头获得一次够死级的机会."""
    zaozhuang = RuleSet.preset("zaozhuang")
    assert zaozhuang.gousiji and zaozhuang.bie_san
    d = Deal.from_hands(["QQQ", "AAA6", "55", "KKK7", "AAA8", "99"], zaozhuang.replace(bie_san=False), leader=0)
    run(d, (0, "QQQ"), (3, "KKK"))
    assert d.events[-1] == {"type": "gousiji", "seat": 3}
    assert d.burn_offered, "only a burn may answer seat 3's play"


def test_heze_opening_changes_nothing() -> None:
    """菏泽's header: 没有进贡还贡，没有宣点 — an opening is recorded and decides nothing."""
    heze = RuleSet.preset("heze")
    assert not heze.tribute and not heze.xuandian and not heze.burn_needs_kaidian
    d = Deal.from_hands(["QQQ53", "63", "73", "83", "93", "T3"], heze, leader=0)
    run(d, (0, "QQQ"))
    assert d.burn_offered and not any(d.opened), "burning needs no opening"
    pass_until(d, 0)
    assert d.opened[0]
    result = sweep_result(0) | {"sweep": None, "opened": list(d.opened)}
    assert owed(heze, result) == [], "no point tribute"
    assert owed(heze.replace(tribute=True), result) != [], "(with tribute on, it would count)"
