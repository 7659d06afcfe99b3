"""The learning features: sizes, field layout, and that they hold nothing hidden from the seat."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gouji
from gouji.bots import decide, make_bot
from gouji.bots import features as F
from gouji.engine.actions import PASS, parse_action
from gouji.engine.deal import Deal, IllegalAction
from tests.helpers import choose_action
from tests.test_properties import swapped_hands


def test_the_fields_add_up_to_the_sizes() -> None:
    assert sum(n for _, n in F.STATE_FIELDS) == F.STATE_SIZE
    assert [name for name, _ in F.STATE_FIELDS][:4] == ["hand", "hand_total", "unseen", "played"]
    # every field named in the module's table is in STATE_FIELDS
    doc = F.__doc__ or ""
    for name, _ in F.STATE_FIELDS:
        assert f"``{name}``" in doc


def test_the_own_hand_and_the_unseen_cards_are_counted_per_rank() -> None:
    deal = Deal.from_hands(["DX22AAA", "33", "44", "55", "66", "77"], "qingdao", leader=0)
    x = F.encode_state(deal.view(0))
    hand = x[:15] * 8
    assert hand.tolist() == [0] * 11 + [3, 2, 1, 1]
    unseen = x[16:31] * 8
    deck = gouji.engine.cards.build_deck(4)
    assert unseen.tolist() == [deck[r] - hand[r] for r in range(15)]
    assert x[15] == pytest.approx(7 / 36)


def test_seats_are_relative_to_the_observer() -> None:
    deal = Deal.from_hands(["DX22AAA", "33", "44", "55", "66", "77"], "qingdao", leader=2)
    base = sum(n for _, n in F.STATE_FIELDS[:4])
    for seat in range(6):
        x = F.encode_state(deal.view(seat))
        to_act = [x[base + rel * 17 + 13] for rel in range(6)]
        assert to_act.index(1.0) == (2 - seat) % 6


def test_the_public_view_is_refused() -> None:
    deal = Deal.new("qingdao", seed=1)
    with pytest.raises(ValueError, match="seat's view"):
        F.encode_state(deal.view(None))


def test_action_rows_know_kind_cards_and_what_is_left() -> None:
    deal = Deal.from_hands(["DX22AAA", "33", "44", "55", "66", "77"], "qingdao", leader=0)
    view = deal.view(0)
    acts = [parse_action(t) for t in ("AA", "DX22AAA", "burn AA", "pass", "yield")]
    rows = F.encode_actions(view, acts, prior=1)
    assert rows.shape == (5, F.ACTION_SIZE)
    assert rows[0, 0] == 1 and rows[2, 1] == 1 and rows[3, 2] == 1 and rows[4, 3] == 1
    assert rows[1, F._A_AFTER + 16] == 1  # goes out
    assert rows[0, F._A_AFTER + 16] == 0
    assert rows[:, -1].tolist() == [0, 1, 0, 0, 0]  # the prior flag
    assert rows[3, F._A_DEC + F.DECISIONS.index("pass")] == 1
    assert PASS.text in F.DECISIONS


@pytest.mark.parametrize("preset", gouji.PRESETS)
def test_features_are_finite_through_whole_deals(preset: str) -> None:
    deal = Deal.new(preset, seed=3)
    bot = make_bot("heuristic")
    rng = random.Random(3)
    while not deal.is_over:
        s = deal.to_act
        assert s is not None
        view = deal.view(s)
        x = F.encode_state(view)
        assert x.shape == (F.STATE_SIZE,) and np.isfinite(x).all()
        legal = deal.legal_actions()
        if len(legal) <= 64:
            rows = F.encode_actions(view, list(legal))
            assert rows.shape == (len(legal), F.ACTION_SIZE) and np.isfinite(rows).all()
        deal.act(decide(bot, deal, rng))


@pytest.mark.parametrize("preset", gouji.PRESETS)
@given(seed=st.integers(0, 10**6))
@settings(max_examples=5, deadline=None)
def test_features_do_not_depend_on_hidden_cards(preset: str, seed: int) -> None:
    """Two deals differing only in cards hidden from seat ``o``: ``o``'s features are equal at every step."""
    hands_a, hands_b, leader, o, *_ = swapped_hands(preset, seed, setup=False)
    da = Deal.from_hands(hands_a, preset, leader)
    db = Deal.from_hands(hands_b, preset, leader)
    rng = random.Random(seed + 1)
    while not da.is_over:
        va, vb = da.view(o), db.view(o)
        assert np.array_equal(F.encode_state(va), F.encode_state(vb))
        if da.to_act == o:
            la = list(da.legal_actions())[:64]
            assert np.array_equal(F.encode_actions(va, la), F.encode_actions(vb, la))
        action = choose_action(da, rng, eager_revolt=False)
        da.act(action)
        try:
            db.act(str(action))
        except IllegalAction:
            return  # B cannot make a play that needs the swapped card: the deals part here
