"""Hints explain themselves as a reason code with parameters (gouji.bots.reasons), and never walk into 诈烧."""

from __future__ import annotations

import json

import pytest

import gouji
from gouji import Deal
from gouji.bots.reasons import CODES, ENGLISH, WHY, Reason, desc, reason

from .test_deal_rules import run


def test_every_hint_has_a_known_code_json_parameters_and_its_english_line() -> None:
    seen: set[str] = set()
    for preset in ("qingdao", "tongyong", "tournament", "heze"):
        deal = Deal.new(preset, seed=3)
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            h = gouji.hint(deal, seat)
            assert h.code in CODES and h.reason == ENGLISH[h.code](h.params)
            assert json.loads(json.dumps(h.params)) == h.params  # plain JSON values
            for key in ("seat",):
                if key in h.params:
                    assert h.params[key] in range(6)  # a seat as a seat (0-5), never its display name
            for key in ("play", "top", "anchor"):
                if key in h.params:
                    assert str(gouji.parse_play(h.params[key])) == h.params[key]  # a play as a play
            seen.add(h.code)
            deal.act(h.text)
    assert {"pass", "beat", "lead_low", "only"} <= seen


def test_a_beat_names_the_seat_by_number_and_the_plays_as_text() -> None:
    d = Deal.from_hands(["KKQJ98553", "AA77643", "443", "5553", "9993", "TT3"], "qingdao", leader=0)
    run(d, (0, "55"))
    h = gouji.hint(d, 1)
    assert h.code == "beat" and h.params["seat"] == 0 and h.params["top"] == "55" and h.params["play"] == "77"
    assert "seat 0's 55" in h.reason


def test_reason_rejects_unknown_codes_and_declines() -> None:
    with pytest.raises(KeyError):
        reason("nonsense")
    with pytest.raises(KeyError):
        reason("pass", why="nonsense")
    assert reason("pass", why="nothing_beats").text == "pass: nothing you hold beats it"
    assert set(WHY) >= {"nothing_beats", "few_jokers"}
    assert Reason("lead_out", {"play": "KK22"}).to_dict() == {"code": "lead_out", "params": {"play": "KK22"}}
    assert desc("DKK22") == "KK+22+D"


def test_a_burner_without_jokers_is_told_the_burn_is_lost_not_offered_a_safe_choice() -> None:
    # seat 2 burns seat 0's QQQ with KKK though no joker is left for the plays after it
    d = Deal.from_hands(["QQQ553", "AAA63", "KKK8853", "9993", "JJ93", "T3"], "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "burn KKK"))
    while d.to_act != 2:
        d.act("pass")
    assert d.view(2)["players"][2]["burning"] and d.view(2)["top"] is None
    h = gouji.hint(d, 2)
    assert h.code == "burn_lost" and h.params["play"] == "88"
    assert "诈烧" in h.reason


def test_the_hint_never_makes_its_player_fail_a_burn() -> None:
    # whole deals on every preset with every seat following the hint: no burn ever fails
    burns = 0
    for preset in gouji.PRESETS:
        for seed in range(4):
            deal = Deal.new(preset, seed=seed)
            while not deal.is_over:
                seat = deal.to_act
                assert seat is not None
                deal.act(gouji.hint(deal, seat).text)
            assert not deal.failed_burns, (preset, seed)
            burns += len(deal.burns)
    assert burns > 0


def test_a_burn_offer_is_declined_when_the_jokers_cannot_carry_it() -> None:
    d = Deal.from_hands(["QQQ553", "KKKX88763", "AA63", "9993", "JJ93", "T3"], "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "pass"), (4, "pass"))
    assert d.to_act == 1 and d.view(1)["burn_offer"]
    h = gouji.hint(d, 1)
    assert h.text == "pass" and h.params["why"] == "few_jokers"
