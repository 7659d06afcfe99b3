"""Burning (烧牌, RULES.md section 6) and opening the point (开点, section 8.1), scripted."""

from __future__ import annotations

import pytest

import gouji
from gouji import Deal, IllegalAction

from .test_deal_rules import finish, run, texts

QINGDAO = gouji.RuleSet.preset("qingdao")


def burn_of(deal: Deal, burner: int) -> dict[str, object]:
    return next(b for b in deal.burns if b["burner"] == burner)


# ---------------------------------------------------------------- who may burn, and in which order


def test_burn_priority_own_team_first_then_turn_order() -> None:
    d = Deal.from_hands(["QQQ553", "AAA63", "KKK73", "KKK83", "AAA93", "T3"], "qingdao", leader=0)
    run(d, (0, "QQQ"))
    order = []
    while d.view(None)["burn_offer"]:
        order.append(d.to_act)
        d.act("pass")
    assert order == [2, 4, 1, 5]
    assert d.to_act == 3


def test_seat_that_passed_this_round_is_not_offered_a_burn() -> None:
    d = Deal.from_hands(["555X3", "443", "QQQ93", "8883", "KKK63", "AAA73"], "qingdao", leader=0)
    run(d, (0, "555"), (1, "pass"), (2, "QQQ"))
    order = []
    while d.view(None)["burn_offer"]:
        order.append(d.to_act)
        d.act("pass")
    assert order == [4, 0, 3], "seat 1 passed in this round; seat 5 is the 对头 and answers"
    assert d.to_act == 5


def test_final_play_cannot_be_burned() -> None:
    d = Deal.from_hands(["QQQ", "AAA63", "KKK73", "KKK83", "AAA93", "T3"], "qingdao", leader=0)
    run(d, (0, "QQQ"))
    assert d.out_order == [0]
    assert d.to_act == 3 and not d.view(None)["burn_offer"]


def test_burn_needs_kaidian() -> None:
    rules = QINGDAO.replace(burn_needs_kaidian=True)
    d = Deal.from_hands(["QQQ553", "AAA63", "KKK73", "KKK83", "AAA93", "T3"], rules, leader=0)
    run(d, (0, "QQQ"))
    assert d.to_act == 3, "nobody has opened the point, so nobody may burn"
    # seat 2 opens, then may burn
    d = Deal.from_hands(["5553", "AAA63", "JJJJ66653", "QQQ83", "KKK93", "T3"], rules, leader=2)
    run(d, (2, "JJJJ"), (5, "pass"))
    assert d.opened[2] and d.to_act == 2
    run(d, (2, "666"), (3, "QQQ"))
    assert d.to_act == 2 and texts(d) == {"pass"}, "only seat 2 has opened: it alone is offered the burn"


def test_changyi_preset_needs_kaidian_to_burn() -> None:
    d = Deal.from_hands(["QQQ553", "AAA63", "KKK73", "KKK83", "AAA93", "T3"], "changyi", leader=0)
    run(d, (0, "QQQ"))
    assert d.to_act == 3


def test_burn_before_first_out() -> None:
    rules = QINGDAO.replace(burn_before_first_out=True)
    d = Deal.from_hands(["5", "QQQ63", "KKK73", "AAA83", "AAA93", "T3"], rules, leader=0)
    run(d, (0, "5"), (1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"))
    assert d.to_act == 1
    run(d, (1, "QQQ"))
    assert not d.view(None)["burn_offer"]
    # seat 3 is headless (its 对头 went out): it answers in turn, before the 对头 (seat 4)
    assert d.to_act == 3 and d.headless(3)
    run(d, (3, "pass"))
    assert d.to_act == 4


# ---------------------------------------------------------------- success, broken, counter-burn, failure


BURN = ["QQQ53", "443", "KKKX93", "553", "663", "773"]


def test_burn_success() -> None:
    d = Deal.from_hands(BURN, "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "burn KKK"))
    assert d.burner == 2
    # counter-burn offers on the burning play: seat 2's team (4, 0), then 3 and 1; then the 对头 (5)
    run(d, (4, "pass"), (0, "pass"), (3, "pass"), (1, "pass"), (5, "pass"))
    assert d.to_act == 2 and d.top is None
    run(d, (2, "X9"), (4, "pass"), (0, "pass"), (3, "pass"), (1, "pass"), (5, "pass"), (2, "3"))
    assert d.out_order == [2]
    assert d.burns == [{"burner": 2, "burned": 0, "level": 1, "play": "KKK", "result": "success"}]
    assert any(e["type"] == "burn_success" for e in d.events)


def test_burn_broken_by_the_burners_opposite() -> None:
    hands = ["QQQ53", "443", "KKKX93", "553", "663", "AAA73"]
    d = Deal.from_hands(hands, "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "burn KKK"), (4, "pass"), (0, "pass"), (3, "pass"), (1, "pass"), (5, "AAA"))
    assert d.burner == -1
    assert burn_of(d, 2)["result"] == "broken"
    assert d.in_play[2], "a broken burn carries no penalty"


def test_counter_burn_doubles_and_can_succeed() -> None:
    hands = ["QQQ53", "443", "KKKX93", "553", "AAAD3", "773"]
    d = Deal.from_hands(hands, "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "burn KKK"), (4, "burn AAA"))
    assert d.burns[0]["result"] == "countered"
    assert d.burner == 4
    # counter-burn offers on seat 4's play: its team (0, 2), then 5 and 3; seat 1 is the 对头
    run(d, (0, "pass"), (2, "pass"), (5, "pass"), (3, "pass"), (1, "pass"))
    run(d, (4, "D"))
    run(d, (0, "pass"), (2, "pass"), (5, "pass"), (3, "pass"), (1, "pass"), (4, "3"))
    assert d.burns[1] == {"burner": 4, "burned": 2, "level": 2, "play": "AAA", "result": "success"}


def test_failed_burn_is_last_below_smothered() -> None:
    hands = ["883", "99QQQ53", "KKK763", "43T", "63J", "73J"]
    d = Deal.from_hands(hands, "qingdao", leader=0)
    run(d, (0, "88"), (1, "99"))
    assert d.smothered == [(0, 1)]
    run(d, (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"), (1, "QQQ"))
    # seat 3 is headless (seat 0 was smothered): it may not burn, it answers in turn
    run(d, (5, "pass"), (2, "burn KKK"))
    run(d, (4, "pass"), (1, "pass"), (3, "pass"), (5, "pass"))
    assert d.to_act == 2
    run(d, (2, "7"))  # no joker and not the last play: the burn fails
    assert d.failed_burns == [2] and d.status[2] == "failed_burn" and not d.in_play[2]
    assert burn_of(d, 2)["result"] == "failed"
    finish(d)
    assert d.places is not None
    assert d.places[-1] == 2 and d.places[-2] == 0


def test_burner_may_bluff_but_pays() -> None:
    d = Deal.from_hands(["QQQ53", "443", "KKK983", "553", "663", "773"], "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "burn KKK"), (4, "pass"), (0, "pass"), (3, "pass"), (1, "pass"), (5, "pass"))
    assert "9" in texts(d), "a burner without jokers may still play on: the bluff"
    run(d, (2, "9"))
    assert d.failed_burns == [2]
    # the failed play stays on the table; nobody beats it, so the lead passes on as for 接风
    assert d.top is not None and str(d.top) == "9" and d.top_seat == 2
    run(d, (3, "pass"), (4, "pass"), (5, "pass"), (0, "pass"), (1, "pass"))
    assert d.top is None and d.to_act == 3


def test_burning_play_that_empties_the_hand_succeeds() -> None:
    d = Deal.from_hands(["QQQ53", "443", "KKK", "553", "663", "773"], "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "burn KKK"))
    assert d.burns[0]["result"] == "success" and d.out_order == [2]


def test_burn_not_allowed_out_of_an_offer() -> None:
    d = Deal.from_hands(["QQQ53", "443", "KKK983", "553", "663", "773"], "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "pass"), (4, "pass"), (1, "pass"), (5, "pass"))
    with pytest.raises(IllegalAction, match="cannot burn"):
        d.act("burn KKK")


# ---------------------------------------------------------------- 开点


def stand(deal: Deal, seat: int, play: str) -> None:
    """Seat plays ``play``; everybody else declines; the round ends."""
    deal.act(play, seat=seat)
    while deal.top is not None:
        deal.act("pass")


def test_pure_gouji_that_stands_opens_the_point() -> None:
    d = Deal.from_hands(["QQQ553", "443", "663", "773", "883", "993"], "qingdao", leader=0)
    stand(d, 0, "QQQ")
    assert d.opened == [True, False, False, False, False, False]
    assert any(e["type"] == "open" and e["seat"] == 0 for e in d.events)


def test_beaten_gouji_does_not_open() -> None:
    d = Deal.from_hands(["QQQ553", "443", "663", "KKK73", "883", "993"], "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "pass"), (4, "pass"), (1, "pass"), (5, "pass"), (3, "KKK"))
    assert not d.opened[0]


@pytest.mark.parametrize(
    ("play", "preset", "opens"),
    [
        ("2TTTT", "qingdao", False),
        ("2TTTT", "heze", True),
        ("22", "qingdao", False),
        ("22", "heze", True),
        ("XQQQ", "heze", False),
        ("QQQ", "heze", True),
    ],
)
def test_what_opens_the_point(play: str, preset: str, opens: bool) -> None:
    hands = ["XQQQ22TTTT553", "443", "663", "773", "883", "993"]
    d = Deal.from_hands(hands, preset, leader=0)
    stand(d, 0, play)
    assert d.opened[0] is opens


def test_kaidian_needs_four() -> None:
    hands = ["QQQ54X3", "443", "663", "773", "883", "993"]
    d = Deal.from_hands(hands, "changyi", leader=0)
    stand(d, 0, "QQQ")
    assert not d.opened[0], "not yet: the next lead must be a 4"
    stand(d, 0, "X4")
    assert d.opened[0], "changyi: the 4 may carry a joker"
    d = Deal.from_hands(hands, "changyi", leader=0)
    stand(d, 0, "QQQ")
    stand(d, 0, "5")
    assert not d.opened[0]


def test_zhangqiu_needs_a_single_four() -> None:
    hands = ["QQQ4453", "4463", "6643", "7743", "8843", "9943"]
    rules = gouji.RuleSet.preset("zhangqiu").replace(decks=8)  # 8 decks: these hands hold more 4s than 4 decks
    d = Deal.from_hands(hands, rules, leader=0)
    stand(d, 0, "QQQ")
    stand(d, 0, "44")
    assert not d.opened[0]
    d = Deal.from_hands(hands, rules, leader=0)
    stand(d, 0, "QQQ")
    stand(d, 0, "4")
    assert d.opened[0]


def test_playing_a_four_early_forfeits_the_opening() -> None:
    hands = ["QQQ4453", "663", "773", "883", "993", "TT3"]
    d = Deal.from_hands(hands, "changyi", leader=0)
    stand(d, 0, "4")
    assert d.forfeited[0]
    stand(d, 0, "QQQ")
    stand(d, 0, "4")
    assert not d.opened[0]


def test_no_opening_after_kaidian_until_out() -> None:
    rules = QINGDAO.replace(kaidian_until_out=1)
    d = Deal.from_hands(["5", "QQQ63", "663", "773", "883", "993"], rules, leader=0)
    stand(d, 0, "5")
    assert d.to_act == 1
    stand(d, 1, "QQQ")
    assert not d.opened[1]


def test_no_opening_in_the_free_for_all() -> None:
    rules = QINGDAO.replace(luanchan_at=6)
    d = Deal.from_hands(["QQQ553", "443", "663", "773", "883", "993"], rules, leader=0)
    stand(d, 0, "QQQ")
    assert not d.opened[0]


@pytest.mark.parametrize("after_forfeit", [True, False])
def test_burn_after_giving_up_the_opening_with_a_four(after_forfeit: bool) -> None:
    """通用规则: 先发4认不开点后才能烧牌 — with burn_needs_kaidian, playing a 4 (giving up the opening) lets a
    player burn where ``burn_after_four_forfeit`` is on."""
    rules = QINGDAO.replace(
        burn_needs_kaidian=True,
        kaidian_needs_four=True,
        four_forfeits_kaidian=True,
        burn_after_four_forfeit=after_forfeit,
    )
    hands = ["9993", "8883", "455AA3", "KK73", "6663", "7773"]
    d = Deal.from_hands(hands, rules, leader=2)
    stand(d, 2, "4")
    assert d.forfeited[2] and not d.opened[2]
    run(d, (2, "55"), (3, "KK"))
    if after_forfeit:
        assert d.to_act == 2 and texts(d) == {"burn AA", "pass"}
    else:
        assert d.to_act == 0 and not d.view(None)["burn_offer"], "nobody may burn: seat 0 answers as 对头"
