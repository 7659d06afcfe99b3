"""The rule book's own examples beyond the worked examples of §15, played on the engine."""

from __future__ import annotations

import random

import pytest

import gouji


def texts(deal: gouji.Deal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def test_the_round_step_by_step_of_section_5_2() -> None:
    """Rule book §5.2, "A round, step by step": a gouji play in the middle of a round goes to its 对头 only,
    even one that passed earlier, and whoever has the last play leads the next round."""
    deal = gouji.Deal.from_hands(["6673", "88AA93", "553", "JJ73", "X243", "993"], rules="qingdao", leader=0)
    for seat, action in [(0, "66"), (1, "88"), (2, "pass"), (3, "JJ"), (4, "pass"), (5, "pass"), (0, "pass")]:
        assert deal.to_act == seat
        deal.act(action)
    deal.act("AA")
    # the burn is offered first: seat 3, seat 1's teammate, is the only seat that has not passed
    assert deal.to_act == 3 and texts(deal) == ["pass"]
    deal.act("pass")
    assert deal.to_act == 4 and "X2" in texts(deal)  # seat 4 passed on JJ, yet answers its 对头's gouji play
    deal.act("X2")
    assert deal.to_act == 3 and texts(deal) == ["pass"]
    deal.act("pass")
    assert deal.to_act == 1 and texts(deal) == ["pass"]
    deal.act("pass")
    assert deal.to_act == 4  # the round is over: seat 4 leads


@pytest.mark.parametrize("needs_four", [False, True])
def test_a_pure_gouji_play_that_stands_wins_the_lead_and_opens_the_point(needs_four: bool) -> None:
    """The same round, seat 4 passing on AA: the play stands, seat 1 leads, and the point is open — at once,
    or where the preset needs the 4 (开点发4) once seat 1 leads a 4."""
    rules = gouji.RuleSet.preset("qingdao").replace(kaidian_needs_four=needs_four)
    deal = gouji.Deal.from_hands(["6673", "88AA943", "553", "JJ73", "X243", "993"], rules=rules, leader=0)
    for action in ["66", "88", "pass", "JJ", "pass", "pass", "pass", "AA", "pass", "pass"]:
        deal.act(action)
    assert deal.to_act == 1 and "9" in texts(deal)
    assert deal.view(None)["players"][1]["opened"] is not needs_four
    deal.act("4")
    assert deal.view(None)["players"][1]["opened"] is True


BURN_HANDS = ["QQQ773", "KKKX553", "55573", "88893", "66693", "99973"]


def _burn_with_kkk(deal: gouji.Deal) -> None:
    deal.act("QQQ")
    for seat in (2, 4):  # the gouji player's teammates are asked first
        assert deal.to_act == seat and texts(deal) == ["pass"]
        deal.act("pass")
    assert deal.to_act == 1 and "burn KKK" in texts(deal)
    deal.act("burn KKK")
    for seat in (3, 5, 2, 0, 4):  # counter-burns, then the burner's 对头 (seat 4) may break the burn
        assert deal.to_act == seat and texts(deal) == ["pass"]
        deal.act("pass")
    assert deal.to_act == 1


def test_the_burn_step_by_step_of_section_6() -> None:
    """Rule book §6, "A burn, step by step": KKK burns QQQ, X55 keeps the joker rule, the 3 goes out."""
    deal = gouji.Deal.from_hands(BURN_HANDS, rules="qingdao", leader=0)
    _burn_with_kkk(deal)
    deal.act("X55")
    for seat in (3, 5, 2, 0, 4):
        assert deal.to_act == seat
        deal.act("pass")
    deal.act("3")
    assert deal.burns == [{"burner": 1, "burned": 0, "level": 1, "play": "KKK", "result": "success"}]


def test_the_burn_of_section_6_fails_without_the_joker() -> None:
    deal = gouji.Deal.from_hands(BURN_HANDS, rules="qingdao", leader=0)
    _burn_with_kkk(deal)
    deal.act("55")
    assert deal.burns[-1]["result"] == "failed"
    assert deal.view(None)["players"][1]["status"] == "failed_burn"
    rng = random.Random(1)
    while not deal.is_over:
        deal.act(rng.choice(list(deal.legal_actions())))
    assert deal.places[5] == 1  # 大落


def test_the_point_tribute_example_of_section_12() -> None:
    """Seat 0 declared, seat 3 did not: who pays whom how many, as the rule book's example says."""
    from gouji.engine.tribute import point_tribute

    declared = [True, False, False, False, False, False]

    def paid(opened0: bool, opened3: bool) -> set[tuple[int, int, int]]:
        opened = [opened0, False, False, opened3, False, False]
        return {(p.payer, p.receiver, p.cards) for p in point_tribute(0, 3, declared, opened)}

    assert paid(True, False) == {(3, 0, 3)}
    assert paid(False, True) == {(0, 3, 3)}
    assert paid(False, False) == {(0, 3, 1), (3, 0, 2)}
