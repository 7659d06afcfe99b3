"""The learned beliefs (gouji.bots.beliefs) and their training (gouji.lab.beliefs, ``gouji beliefs``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from gouji.bots import BOTS, make_bot
from gouji.bots.beliefs import FEATURES, BeliefBot, BeliefCtx, Beliefs, PassBook, features, shipped
from gouji.bots.heuristic.odds import _Odds
from gouji.cli.app import main
from gouji.engine import cards as C
from gouji.engine.deal import Deal
from gouji.engine.plays import parse_play
from gouji.engine.rules import PRESETS

from .test_heuristic import _swap


def act(seat: int, action: str) -> dict[str, Any]:
    return {"type": "act", "seat": seat, "action": action}


LOG: list[dict[str, Any]] = [
    {"type": "deal", "sizes": [36] * 6},
    {"type": "play", "leader": 0},
    act(0, "77"),  # seat 0 (team 0) leads a pair of 7s
    act(1, "pass"),  # an opponent passes it: evidence
    act(2, "pass"),  # a teammate passes it: none
    act(3, "99"),
    act(4, "pass"),  # passes seat 3's 99: evidence against pairs above 9
    {"type": "round", "leader": 3},
    act(3, "QQQQQ"),  # a gouji play
    act(4, "pass"),  # not the 对头 (seat 0 is): not free to answer
    act(0, "pass"),  # the 对头: free
]


def test_the_pass_book_reads_who_passed_on_what() -> None:
    book = PassBook(LOG)
    assert [(p.play.text, p.by, p.free) for p in book.passes[1]] == [("77", 0, True)]
    assert [(p.play.text, p.by, p.free) for p in book.passes[2]] == [("77", 0, True)]
    assert [(p.play.text, p.by, p.free) for p in book.passes[4]] == [("99", 3, True), ("QQQQQ", 3, False)]
    assert [(p.play.text, p.free) for p in book.passes[0]] == [("QQQQQ", True)]
    assert book.passes[4][0].round < book.passes[4][1].round == book.round


def test_features_count_only_passes_that_are_evidence() -> None:
    book = PassBook(LOG)
    col = {name: i for i, name in enumerate(FEATURES)}
    tt = features(1, parse_play("TT"), 0.5, book, 20, True)  # seat 1 passed 77 (an opponent's, no higher)
    assert tt[col["dominated"]] == 1.0 and tt[col["logit"]] == pytest.approx(0.0)
    assert features(1, parse_play("66"), 0.5, book, 20, True)[col["dominated"]] == 0.0  # 77 is higher
    assert features(1, parse_play("T"), 0.5, book, 20, True)[col["weaker_value"]] == 1.0  # 77 had more cards
    assert features(2, parse_play("TT"), 0.5, book, 20, True)[col["dominated"]] == 0.0  # a teammate's play
    assert features(2, parse_play("TT"), 0.5, book, 20, True)[col["teammate_dominated"]] == 1.0
    # seat 4 was not free to answer QQQQQ: that pass is no evidence; the 99 it passed, in an earlier round, is
    kk = features(4, parse_play("KKKKK"), 0.5, book, 20, True)
    assert kk[col["dominated"]] == 1.0 and kk[col["dominated_this_round"]] == 0.0
    assert features(0, parse_play("KKKKK"), 0.5, book, 20, True)[col["dominated_this_round"]] == 1.0
    assert features(1, parse_play("XTT"), 0.5, book, 20, True)[col["dominated"]] == 0.0  # jokers: the base odds


def test_the_shipped_model_trusts_a_pass_on_a_weaker_play_less_than_the_binomial() -> None:
    model = shipped()
    book = PassBook(LOG)
    for p in (0.3, 0.6, 0.9):
        passed = model.chance(features(1, parse_play("TT"), p, book, 20, True))
        fresh = model.chance(features(3, parse_play("TT"), p, PassBook([]), 20, True))
        assert passed < fresh
    assert model.meta["check"]["loss_model"] < model.meta["check"]["loss_binomial"]


def test_a_model_of_other_features_or_sizes_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="one per feature"):
        Beliefs([1.0, 2.0])
    bad = tmp_path / "m.json"
    bad.write_text(json.dumps({"features": ["bias"], "weights": [0.0]}))
    with pytest.raises(ValueError, match="trained on features"):
        Beliefs.load(str(bad))


def test_known_hands_answer_for_certain() -> None:
    kk = C.parse_counts("KK55")
    assert _Odds.of_hand(kk, False).beat(parse_play("QQ")) == 1.0
    assert _Odds.of_hand(kk, False).beat(parse_play("QQQ")) == 0.0
    assert _Odds.of_hand(C.parse_counts("2KK"), False).beat(parse_play("QQQ")) == 1.0  # a 2 fills (贴钱)
    assert _Odds.of_hand(C.parse_counts("2KK"), False).beat(parse_play("AAA")) == 0.0


def test_training_runs_end_to_end_and_its_model_is_played(tmp_path: Path) -> None:
    out = tmp_path / "beliefs.json"
    res = CliRunner().invoke(
        main, ["beliefs", "--out", str(out), "--deals", "2", "--check-deals", "1", "--rules", "tournament"]
    )
    assert res.exit_code == 0, res.output
    assert "held-out questions" in res.output
    model = Beliefs.load(str(out))
    assert model.meta["rules"] == ["tournament"] and model.meta["rows"] > 100
    assert model.weights != shipped().weights

    class Ctx(BeliefCtx):
        beliefs = model

    class Bot(BeliefBot):
        context = Ctx

    asked: list[float] = []
    orig = Ctx.beat_chance

    def spy(self: Ctx, s: int, q: Any) -> float:
        asked.append(orig(self, s, q))
        return asked[-1]

    Ctx.beat_chance = spy  # type: ignore[method-assign]
    deal = Deal.new("tournament", seed=9)
    rng = random.Random(0)
    bots = [Bot() for _ in range(6)]
    while deal.to_act is not None:
        seat = deal.to_act
        action = bots[seat].decide(deal.view(seat, log=True), deal.legal_actions(), rng)
        assert action in deal.legal_actions()
        deal.act(action)
    assert asked and all(0.0 <= p <= 1.0 for p in asked)


def test_a_bad_model_file_names_its_path(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["beliefs", "--out", str(tmp_path / "no" / "m.json"), "--deals", "1"])
    assert res.exit_code == 2 and "is not a folder" in res.output
    res = CliRunner().invoke(main, ["beliefs", "--out", str(tmp_path / "m.json"), "--rules", "nowhere"])
    assert res.exit_code == 2 and "nowhere" in res.output


def test_the_beliefs_bot_is_registered_and_blind_to_hidden_cards_with_the_log() -> None:
    assert isinstance(make_bot("beliefs"), BeliefBot) and "beliefs" in BOTS
    bot = make_bot("beliefs")
    compared = 0
    for preset, seed in (("tournament", 1), ("qingdao", 4)):
        base = Deal.new(preset, seed=seed)
        hands = [base.hand(s) for s in range(6)]
        one = Deal.from_hands(hands, preset, leader=seed % 6)
        two = Deal.from_hands(_swap(hands, 1, 3), preset, leader=seed % 6)
        for _ in range(1500):
            seat = one.to_act
            if seat is None or two.to_act != seat:
                break
            if seat == 0:
                v1, v2 = one.view(seat, log=True), two.view(seat, log=True)
                if v1 == v2:
                    r = random.Random(0)
                    assert bot.decide(v1, one.legal_actions(), r) == bot.decide(v2, two.legal_actions(), r)
                    compared += 1
            action = bot.decide(one.view(seat, log=True), one.legal_actions(), random.Random(0))
            one.act(action)
            if action not in two.legal_actions():
                break
            two.act(action)
    assert compared >= 5


def test_the_ceiling_harness_is_a_fair_duplicate() -> None:
    from gouji.lab.beliefs import ceiling

    # told nothing (mix 0) the told heuristic is the heuristic: every pair is a tie
    assert ceiling("tournament", 3, seed=5, mix=0.0) == [0, 0, 0]
    told = ceiling("tournament", 3, seed=5, mix=1.0)
    assert len(told) == 3 and all(-18 <= m <= 18 for m in told) and any(told)


def test_the_answer_model_learns_from_what_seats_did_and_is_played() -> None:
    from gouji.lab.beliefs import answer_data, answer_margins, log_loss, newton

    data, guess = answer_data(["tournament"], 2, seed=3)
    assert data.x.shape == (len(data.y), len(FEATURES) + 1) and len(data.y) > 50
    assert set(data.y.tolist()) == {0.0, 1.0}  # seats both answered and passed
    assert ((guess > 0) & (guess <= 1)).all()
    w = newton(data.x, data.y)
    fitted = 1.0 / (1.0 + np.exp(-(data.x @ w)))
    assert log_loss(fitted, data.y) < log_loss(guess, data.y)  # on its own data it beats the guess
    with pytest.raises(ValueError, match="weights"):
        answer_margins([0.0], "tournament", 1, seed=5)
    margins = answer_margins(w.tolist(), "tournament", 2, seed=5)
    assert len(margins) == 2 and all(-18 <= m <= 18 for m in margins)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_beliefs_bot_plays_every_preset_without_an_internal_error(preset: str) -> None:
    """Strict: an exception inside the bot (the pass book reading a preset's log, say) fails the test instead of
    falling back to a safe action."""
    bots = [BeliefBot(strict=True) for _ in range(6)]
    for seed in (1, 2):
        deal = Deal.new(preset, seed=seed)
        rng = random.Random(seed)
        while deal.to_act is not None:
            seat = deal.to_act
            legal = deal.legal_actions()
            action = bots[seat].decide(deal.view(seat, log=True), legal, rng)
            assert action in legal
            deal.act(action)
