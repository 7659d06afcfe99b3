"""Scripted deals, one rule at a time: rounds, gouji plays, yielding, 接风, 憋三 and 闷, places, the sweep
(rule book §5 and §7, and the worked examples 7-10 of §15)."""

from __future__ import annotations

import pytest

import gouji
from gouji import Deal, IllegalAction


def run(deal: Deal, *script: tuple[int, str]) -> None:
    """Play ``(seat, action)`` pairs, checking each seat is the one asked."""
    for seat, action in script:
        assert deal.to_act == seat, f"expected seat {seat} to act before {action!r}, but seat {deal.to_act} is"
        deal.act(action)


def texts(deal: Deal) -> set[str]:
    return {str(a) for a in deal.legal_actions()}


def finish(deal: Deal) -> None:
    """Play the deal out: pass when possible, else the first legal action."""
    for _ in range(2000):
        if deal.is_over:
            return
        la = deal.legal_actions()
        deal.act("pass" if "pass" in texts(deal) else la[0])
    raise AssertionError("deal did not end")


# ---------------------------------------------------------------- section 15, example 7: gouji plays


EX7 = ["QQQ553", "AAA63", "KKK73", "KKK83", "993", "T3"]


def test_example_7_gouji_play_answered_by_opposite_only() -> None:
    d = Deal.from_hands(EX7, "qingdao", leader=0)
    run(d, (0, "QQQ"))
    # every seat that may burn is asked, own team first, then the others, each in turn order
    asked = []
    while d.to_act != 3:
        seat = d.to_act
        assert seat is not None
        asked.append(seat)
        la = texts(d)
        assert "pass" in la
        assert not any(a[0] in "0123456789TJQKA2XD" for a in la), "only burns or pass in a burn offer"
        d.act("pass")
    assert asked == [2, 4, 1, 5]
    la = texts(d)
    assert "KKK" in la and "pass" in la
    assert "yield" not in la


def test_example_7_other_seats_may_only_burn() -> None:
    d = Deal.from_hands(EX7, "qingdao", leader=0)
    run(d, (0, "QQQ"))
    assert d.to_act == 2
    assert texts(d) == {"burn KKK", "pass"}
    with pytest.raises(IllegalAction, match="burn"):
        d.act("KKK")
    run(d, (2, "pass"), (4, "pass"))
    assert texts(d) == {"burn AAA", "pass"}
    assert d.view(None)["burn_offer"] is True


def test_declining_a_burn_is_not_a_pass_of_the_round() -> None:
    # opening without the 4 (zoucheng's 开点) so that the standing play opens at once
    d = Deal.from_hands(EX7, gouji.RuleSet.preset("qingdao").replace(kaidian_needs_four=False), leader=0)
    run(d, (0, "QQQ"), (2, "pass"), (4, "pass"), (1, "pass"), (5, "pass"))
    assert d.view(None)["passed"] == []
    run(d, (3, "pass"))
    # the gouji play stood: seat 0 leads again and has opened the point
    assert d.to_act == 0 and d.top is None
    assert d.opened[0]


def test_pass_is_final_except_for_the_opposites_gouji_play() -> None:
    hands = ["653", "X53", "753", "853", "29953", "T53"]
    d = Deal.from_hands(hands, "qingdao", leader=0)
    run(d, (0, "6"), (1, "pass"), (2, "7"), (3, "8"), (4, "2"))  # seat 4 plays a gouji play: a 2
    # burn offers: seat 4's team (0, 2), then the others (5, 3) — seat 1 is the 对头
    run(d, (0, "pass"), (2, "pass"), (5, "pass"), (3, "pass"))
    assert d.to_act == 1, "the 对头 answers its opposite's gouji play though it passed before"
    assert "X" in texts(d)


def test_non_gouji_play_skips_seats_that_passed() -> None:
    hands = ["653", "X53", "753", "853", "99953", "T53"]
    d = Deal.from_hands(hands, "qingdao", leader=0)
    run(d, (0, "6"), (1, "pass"), (2, "7"), (3, "8"), (4, "9"), (5, "T"))
    # seat 0 may answer (it did not pass); seat 1 passed and is skipped
    assert d.to_act == 0
    run(d, (0, "pass"))
    assert d.to_act == 2


# ---------------------------------------------------------------- section 15, example 8: yielding


YIELD_HANDS = ["5593", "43", "43", "663", "773", "883"]


def test_example_8_yield_lets_the_next_two_act_first() -> None:
    d = Deal.from_hands(YIELD_HANDS, "qingdao", leader=0)
    run(d, (0, "55"), (1, "pass"), (2, "pass"))
    assert "yield" in texts(d)
    run(d, (3, "yield"), (4, "pass"), (5, "pass"))
    assert d.to_act == 3
    assert "yield" not in texts(d), "a seat yields once"
    run(d, (3, "66"))
    # after a yield, only the yielder's 对头 may answer
    assert d.to_act == 0
    run(d, (0, "pass"))
    assert d.to_act == 3 and d.top is None


def test_yield_then_a_later_seat_plays_counts_as_a_pass() -> None:
    d = Deal.from_hands(YIELD_HANDS, "qingdao", leader=0)
    run(d, (0, "55"), (1, "pass"), (2, "pass"), (3, "yield"), (4, "77"))
    assert 3 in d.view(None)["passed"]
    run(d, (5, "88"), (0, "pass"))
    # seats 1, 2 and 3 have passed: the round ends and seat 5 leads
    assert d.to_act == 5 and d.top is None


def test_yield_only_on_the_opposites_non_gouji_play() -> None:
    d = Deal.from_hands(YIELD_HANDS, "qingdao", leader=0)
    run(d, (0, "55"), (1, "pass"))
    assert "yield" not in texts(d), "seat 2 is not seat 0's 对头"
    with pytest.raises(IllegalAction, match="yield"):
        d.act("yield")
    d2 = Deal.from_hands(["AA93", "43", "43", "KK3", "773", "883"], "qingdao", leader=0)
    run(d2, (0, "AA"))
    while d2.to_act != 3:
        d2.act("pass")
    assert "yield" not in texts(d2), "no yielding on a gouji play"


def test_yield_after_yield_play_only_the_opposite_answers() -> None:
    hands = ["5593", "43", "43", "663", "773", "993"]
    d = Deal.from_hands(hands, "qingdao", leader=0)
    run(d, (0, "55"), (1, "pass"), (2, "pass"), (3, "yield"), (4, "pass"), (5, "pass"), (3, "66"))
    assert d.to_act == 0
    run(d, (0, "99") if "99" in texts(d) else (0, "pass"))


# ---------------------------------------------------------------- 接风, rounds


def test_wind_goes_to_the_next_seat_in_play() -> None:
    hands = ["5", "43", "43", "43", "43", "43"]
    d = Deal.from_hands(hands, "qingdao", leader=0)
    run(d, (0, "5"))
    assert d.out_order == [0]
    run(d, (1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"))
    assert d.to_act == 1 and d.top is None


def test_leader_must_play() -> None:
    d = Deal.from_hands(EX7, "qingdao", leader=0)
    assert "pass" not in texts(d)
    with pytest.raises(IllegalAction, match="must play"):
        d.act("pass")


def test_out_of_turn_and_bad_text_change_nothing() -> None:
    d = Deal.from_hands(EX7, "qingdao", leader=0)
    before = (list(d.events), [list(h) for h in d.hands], d.to_act)
    with pytest.raises(IllegalAction, match="it is seat 0's turn"):
        d.act("KKK", seat=3)
    with pytest.raises(IllegalAction, match="not an action"):
        d.act("QQZ")
    with pytest.raises(IllegalAction, match="does not hold"):
        d.act("KKK")
    with pytest.raises(IllegalAction, match="mixes"):
        d.act("8899")
    assert (d.events, d.hands, d.to_act) == before


def test_a_play_that_does_not_beat_is_refused_with_a_reason() -> None:
    d = Deal.from_hands(["QQQ553", "JJJ443", "KKK73", "KKK83", "993", "T3"], "tournament", leader=0)
    run(d, (0, "55"))
    with pytest.raises(IllegalAction, match="cannot meet"):
        d.act("JJJ")
    with pytest.raises(IllegalAction, match="does not beat"):
        d.act("44")


# ---------------------------------------------------------------- 憋三 and 闷 (example 9)


def test_example_9_smothered_player_is_last() -> None:
    hands = ["883", "99T", "43", "53", "63", "73"]
    d = Deal.from_hands(hands, "qingdao", leader=0)
    run(d, (0, "88"), (1, "99"))
    assert d.smothered == [(0, 1)]
    assert d.status[0] == "smothered" and not d.in_play[0]
    assert d.headless(3)
    finish(d)
    assert d.places is not None and d.places[-1] == 0


def test_threes_only_as_the_whole_final_play() -> None:
    d = Deal.from_hands(["88332", "99T", "43", "53", "63", "73"], "qingdao", leader=0)
    la = texts(d)
    assert "88" in la and "288" in la and not any("3" in a for a in la)
    with pytest.raises(IllegalAction, match="憋三"):
        d.act("3")
    with pytest.raises(IllegalAction, match="憋三"):
        d.act("233")


def test_threes_are_led_all_at_once() -> None:
    d = Deal.from_hands(["88333", "4", "4", "4", "4", "4"], "qingdao", leader=0)
    run(d, (0, "88"), (1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"))
    assert d.to_act == 0
    assert texts(d) == {"333"}
    run(d, (0, "333"))
    assert d.out_order == [0]


def test_without_bie_san_threes_are_ordinary() -> None:
    d = Deal.from_hands(["883", "99T", "43", "53", "63", "73"], "tournament", leader=0)
    assert {"3", "8", "88"} <= texts(d)
    run(d, (0, "88"), (1, "99"))
    assert d.smothered == [] and d.in_play[0]


def test_smothered_penalties_fill_from_the_bottom_in_order() -> None:
    hands = ["883", "99TT", "663", "7733", "43", "53"]
    d = Deal.from_hands(hands, "qingdao", leader=0)
    run(d, (0, "88"), (1, "99"))  # seat 0 smothered
    run(d, (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"), (1, "TT"))
    assert d.out_order == [1]
    run(d, (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"))
    finish(d)
    assert d.places is not None
    assert d.places[0] == 1 and d.places[-1] == 0


# ---------------------------------------------------------------- example 10: the sweep


def test_example_10_sweep_ends_the_deal() -> None:
    hands = ["5", "44", "6", "44", "7", "44"]
    d = Deal.from_hands(hands, "tournament", leader=0)
    run(d, (0, "5"), (1, "pass"), (2, "6"), (3, "pass"), (4, "7"))
    assert d.is_over and d.to_act is None
    assert d.places is not None and d.places[:3] == [0, 2, 4]
    assert sorted(d.places[3:]) == [1, 3, 5]
    assert d.sweep == 0
    assert len(d.legal_actions()) == 0
    with pytest.raises(IllegalAction, match="over"):
        d.act("pass")


def test_holders_ranked_by_fewer_cards_then_turn_order() -> None:
    hands = ["5", "444", "6", "44", "7", "44"]
    d = Deal.from_hands(hands, "tournament", leader=0)
    run(d, (0, "5"), (1, "pass"), (2, "6"), (3, "pass"), (4, "7"))
    assert d.places is not None
    # seats 3 and 5 hold 2 cards, seat 1 holds 3; the seat to act next would have been 5
    assert d.places[3:] == [5, 3, 1]


def test_deal_ends_when_one_team_is_left() -> None:
    hands = ["5", "44", "6", "44", "T", "44"]
    d = Deal.from_hands(hands, "tournament", leader=1)
    assert d.to_act == 1
    finish(d)
    assert d.is_over
    assert d.places is not None and sorted(d.places) == list(range(6))


# ---------------------------------------------------------------- no head (无头)


def test_headless_gouji_play_answered_by_anyone_in_turn() -> None:
    hands = ["5", "44", "66", "KK98", "AA7", "228"]
    d = Deal.from_hands(hands, "tournament", leader=0)
    run(d, (0, "5"), (1, "pass"), (2, "pass"), (3, "9"), (4, "pass"), (5, "pass"))
    assert d.to_act == 3 and d.top is None and d.headless(3)
    run(d, (3, "KK"))
    # no burn offers on a headless player's play; the next seat in turn may answer
    assert d.to_act == 4 and "AA" in texts(d) and "burn AA" not in texts(d)
    run(d, (4, "AA"))
    # seat 4's 对头 (seat 1) is in play: burn offers go to 2, then 5 (seat 3 is headless: it answers, not burns)
    run(d, (2, "pass"), (5, "pass"))
    assert d.to_act == 1
    run(d, (1, "pass"))
    assert d.to_act == 3, "a headless player may answer anyone's gouji play in turn order"


def test_headless_player_cannot_open() -> None:
    hands = ["5", "44", "66", "KK98", "77", "88"]
    d = Deal.from_hands(hands, "qingdao", leader=0)
    run(d, (0, "5"), (1, "pass"), (2, "pass"), (3, "9"), (4, "pass"), (5, "pass"))
    run(d, (3, "KK"), (4, "pass"), (5, "pass"), (1, "pass"), (2, "pass"))
    assert d.to_act == 3 and d.top is None
    assert not d.opened[3]


# ---------------------------------------------------------------- the free-for-all (四户乱缠)


def test_free_for_all_no_gouji_restriction_and_passes_do_not_bar() -> None:
    rules = gouji.RuleSet.preset("qingdao").replace(luanchan_at=6)
    hands = ["QQQ553", "AAA63", "KKK73", "KKK83", "993", "T3"]
    d = Deal.from_hands(hands, rules, leader=0)
    assert d.ffa
    run(d, (0, "QQQ"))
    assert d.to_act == 1 and texts(d) == {"AAA", "pass"}, "anyone answers in turn, no burning"
    run(d, (1, "pass"), (2, "KKK"))
    # seat 1 passed, but in the free-for-all a pass does not bar it
    run(d, (3, "pass"), (4, "pass"), (5, "pass"), (0, "pass"))
    assert d.to_act == 1 and "AAA" in texts(d)


def test_free_for_all_no_yield() -> None:
    rules = gouji.RuleSet.preset("qingdao").replace(luanchan_at=6)
    d = Deal.from_hands(YIELD_HANDS, rules, leader=0)
    run(d, (0, "55"), (1, "pass"), (2, "pass"))
    assert "yield" not in texts(d)


def test_free_for_all_starts_when_four_are_left() -> None:
    hands = ["5", "44", "6", "44", "TT9", "44"]
    d = Deal.from_hands(hands, "qingdao", leader=0)
    run(d, (0, "5"), (1, "pass"), (2, "6"))
    assert d.out_order == [0, 2]
    assert d.ffa
    assert any(e["type"] == "free_for_all" for e in d.events)


def test_zhangqiu_five_player_free_for_all() -> None:
    hands = ["5", "44", "6", "44", "TT9", "44"]
    d = Deal.from_hands(hands, "zhangqiu", leader=0)
    run(d, (0, "5"))
    assert d.ffa
