"""The novice bot (新手) and the registry of bots: legal on every preset, blind to hidden cards,
deterministic, the beginner's lines in set positions; the levels offered to people."""

from __future__ import annotations

import random
from typing import Any

import pytest

import gouji
from gouji import PASS, Burn, Deal, Play
from gouji.bots import BOTS, LEVELS, NoviceBot, levels, make_bot, play_deal
from gouji.engine.actions import Action
from tests.test_heuristic import MAX_DECISIONS, hidden_card_comparisons


def test_the_registry_is_explicit_and_the_levels_are_bots() -> None:
    assert set(BOTS) >= {"random", "novice", "heuristic", "learned"}
    assert [lv.bot for lv in LEVELS][:2] == ["novice", "heuristic"]
    assert all(lv.bot in BOTS and lv.zh and lv.en for lv in LEVELS)
    assert levels()[0] == {"bot": "novice", "zh": "新手", "en": "Novice"}
    assert levels()[1]["zh"] == "高手"
    assert make_bot("novice").name == "novice"
    with pytest.raises(ValueError, match="novice"):
        make_bot("nobody")


@pytest.mark.parametrize("preset", gouji.PRESETS)
def test_novice_plays_whole_deals_legally_without_burning(preset: str) -> None:
    bot = NoviceBot()
    for seed in range(4):
        deal = Deal.new(preset, seed=seed)
        rng = random.Random(seed)
        for _ in range(MAX_DECISIONS):
            seat = deal.to_act
            if seat is None:
                break
            legal = deal.legal_actions()
            action = bot.decide(deal.view(seat), legal, rng)
            assert action in legal, (preset, seat, str(action))
            assert not isinstance(action, Burn)
            deal.act(action)
        assert deal.is_over and deal.places is not None


@pytest.mark.parametrize("preset", ["qingdao", "tournament", "zoucheng"])
def test_novice_decisions_do_not_depend_on_hidden_cards(preset: str) -> None:
    bot = NoviceBot()
    assert hidden_card_comparisons(preset, range(3), lambda view, legal: bot.choose(view, legal)[0]) >= 20


def test_novice_ignores_its_generator() -> None:
    deal = Deal.new("qingdao", seed=4)
    bot = NoviceBot()
    for _ in range(60):
        seat = deal.to_act
        assert seat is not None
        view, legal = deal.view(seat), deal.legal_actions()
        first = bot.decide(view, legal, random.Random(1))
        assert bot.decide(view, legal, random.Random(2)) == first
        deal.act(first)


def _at_play(hands: list[str], preset: str = "tongyong", leader: int = 0) -> Deal:
    deal = Deal.from_hands(hands, preset, leader=leader)
    while deal.phase != "play":
        deal.act(PASS if PASS in deal.legal_actions() else deal.legal_actions()[0])
    return deal


def _choose(deal: Deal) -> tuple[Action, str]:
    seat = deal.to_act
    assert seat is not None
    return NoviceBot().choose(deal.view(seat), deal.legal_actions())


FILLER = "KQJT98765"


def test_leads_its_lowest_rank_whole_and_goes_out_when_it_can() -> None:
    deal = _at_play(["D2AA9955"] + [FILLER] * 5)
    assert deal.to_act == 0
    action, why = _choose(deal)
    assert str(action) == "55" and "lowest" in why
    out = _at_play(["D2AA"] + [FILLER] * 5)
    action, why = _choose(out)
    assert isinstance(action, Play) and action.size == 4 and why == "goes out"


def _round(hands: list[str]) -> list[tuple[int, str, str]]:
    """The first six decisions of a deal of these hands played by novices, seat 0 leading."""
    deal = Deal.from_hands(hands, "tongyong", leader=0)
    out = []
    for _ in range(6):
        action, why = _choose(deal)
        out.append((deal.to_act or 0, str(action), why))
        deal.act(action)
    return out


def test_answers_an_opponent_cheaply_and_lets_a_teammate_stand() -> None:
    far = ["9955KQJT", "KK77QQ86", "2266443TJQK", "AA8643KQJ", FILLER, FILLER]
    assert _round(far)[:4] == [
        (0, "55", "leads its lowest cards"),
        (1, "77", "beats it as cheaply as it can"),  # not the KKs, not the QQs
        (2, "pass", "keeps its 2s and jokers"),  # 11 cards: too early for a 2
        (3, "pass", "lets a teammate's play stand"),  # AA would beat 77, but 77 is seat 1's
    ]
    near = ["9955KQJT", "KK77QQ86", "2266443", "AA8643KQJ", FILLER, FILLER]
    seat, action, why = _round(near)[2]
    assert seat == 2 and "2" in action and why == "beats it as cheaply as it can"  # 7 cards: now it may


def test_before_play_it_takes_no_optional_decision() -> None:
    deal = Deal.new("qingdao", seed=1)
    bot = NoviceBot()
    asked = 0
    for _ in range(200):
        seat = deal.to_act
        if seat is None or deal.phase == "play":
            break
        legal = deal.legal_actions()
        action = bot.decide(deal.view(seat), legal, random.Random(0))
        if PASS in legal:
            assert action is PASS
            asked += 1
        deal.act(action)
    assert asked


def test_novice_loses_to_the_heuristic_and_beats_random() -> None:
    from gouji.lab.arena import run_arena

    for preset in ("qingdao", "tournament"):
        assert run_arena("novice", "random", preset, 4, seed=11).margin.mean > 0
        assert run_arena("novice", "heuristic", preset, 4, seed=11).margin.mean < 0


def test_every_bot_plays_a_deal() -> None:
    for name in BOTS:
        deal = Deal.new("tournament", seed=2)
        play_deal(deal, [make_bot(name) for _ in range(6)], random.Random(0))
        assert deal.is_over


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_registered_bot_is_blind_to_hidden_cards(name: str) -> None:
    """Whatever joins the registry (an ``expert`` too) decides alike on views that are alike."""
    bot = make_bot(name)

    def decide(view: dict[str, Any], legal: Any) -> Any:
        return bot.decide(view, legal, random.Random(0))

    assert hidden_card_comparisons("tournament", range(1), decide, max_decisions=1500) >= 5
