"""The 大师 bot: shipped weights with numpy alone, legal everywhere, the heuristic unless the margin is beaten,
the labels' candidates, and only the seat's view."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import gouji
from gouji.bots import BOTS, HeuristicBot, decide, make_bot
from gouji.bots.candidates import is_lead, pick
from gouji.bots.expert import WEIGHTS, ExpertBot
from gouji.bots.features import ACTION_SIZE, STATE_SIZE
from gouji.bots.learned import QNet
from gouji.engine.deal import Deal
from gouji.lab.lookahead import candidates
from tests.test_heuristic import hidden_card_comparisons


def with_margins(margins: dict[str, float | None]) -> ExpertBot:
    net = QNet.load(WEIGHTS)
    net.meta = {**net.meta, "margins": margins}
    return ExpertBot(net)


def test_registered_with_shipped_weights_under_five_megabytes() -> None:
    assert "expert" in BOTS and WEIGHTS.exists() and WEIGHTS.stat().st_size < 5_000_000
    net = QNet.load(WEIGHTS)
    assert net.w_state.shape[0] == STATE_SIZE and net.w_action.shape[0] == ACTION_SIZE
    assert net.meta["kind"] == "expert" and set(net.meta["scale"]) == {"qingdao", "tournament"}


def test_the_shipped_weights_play_without_pytorch() -> None:
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import random, gouji\n"
        "from gouji.bots import make_bot, play_deal\n"
        "d = play_deal(gouji.Deal.new('tournament', seed=5), [make_bot('expert')] * 6, random.Random(5))\n"
        "assert d.is_over and len(d.places) == 6\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


@pytest.mark.parametrize("preset", gouji.PRESETS)
def test_whole_deals_are_legal_on_every_preset(preset: str) -> None:
    deviating = with_margins({preset: -1e9})  # always the model's best candidate: every path exercised
    deal = Deal.new(preset, seed=3)
    bots = [deviating if s % 2 else make_bot("heuristic") for s in range(6)]
    rng = random.Random(3)
    while not deal.is_over:
        s = deal.to_act
        assert s is not None
        action = decide(bots[s], deal, rng)
        assert action in deal.legal_actions()
        deal.act(action)
    assert len(deal.places) == 6


def test_without_a_candidate_beyond_the_margin_it_plays_the_heuristics_choice() -> None:
    """A huge margin, or a preset without one, is the heuristic exactly; a margin below every gap is not."""
    heuristic = HeuristicBot()
    never = with_margins({"tournament": 1e9})
    always = with_margins({"tournament": -1e9})
    deal = Deal.new("tournament", seed=8)
    differ = 0
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        view, legal = deal.view(seat), deal.legal_actions()
        mine, gap = never.choose(view, legal)
        assert mine == heuristic.choose(view, legal)[0] and gap == 0
        other, gap = always.choose(view, legal)
        differ += other != mine
        assert (other != mine) == (gap != 0)
        deal.act(mine)
    assert differ > 5
    qingdao = Deal.new("qingdao", seed=8)  # no margin for qingdao in ``never``: the heuristic's choice
    view, legal = qingdao.view(qingdao.to_act), qingdao.legal_actions()
    assert never.choose(view, legal)[0] == heuristic.choose(view, legal)[0]


def test_the_candidates_from_the_view_are_the_labels_candidates() -> None:
    heuristic = HeuristicBot()
    for preset in ("qingdao", "tournament"):
        deal = Deal.new(preset, seed=21)
        compared = 0
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view, legal = deal.view(seat), deal.legal_actions()
            choice = heuristic.choose(view, legal)[0]
            assert [a.text for a in pick(legal, is_lead(view), [choice])] == [
                a.text for a in candidates(deal, [choice])
            ]
            compared += len(legal) > 1
            deal.act(choice)
        assert compared > 50


def test_decisions_do_not_depend_on_hidden_cards() -> None:
    bot = with_margins({"qingdao": -1e9})  # the model decides every decision it can

    def choose(view: dict[str, Any], legal: Any) -> Any:
        return bot.choose(view, legal)[0]

    assert hidden_card_comparisons("qingdao", range(2), choose, max_decisions=2000) >= 10


def test_the_shipped_margins_were_chosen_on_validation() -> None:
    net = QNet.load(WEIGHTS)
    check = net.meta["check"]
    for preset, margin in net.meta["margins"].items():
        assert margin is None or np.isfinite(margin)
        assert (check[preset]["margin"] == margin) or (margin is None and not np.isfinite(check[preset]["margin"]))
