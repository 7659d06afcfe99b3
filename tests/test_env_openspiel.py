"""Gouji as an OpenSpiel Python game (gouji.env.openspiel): OpenSpiel's random-simulation test."""

from __future__ import annotations

import random

import pytest

from gouji import Deal
from gouji.env.catalogue import catalogue
from gouji.env.core import deal_rewards

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: the rl extra (.[test,rl])")
import gouji.env.openspiel  # noqa: E402,F401  (registers python_gouji)


@pytest.mark.parametrize("rules", ["qingdao", "tournament"])
def test_random_simulation(rules: str) -> None:
    game = pyspiel.load_game("python_gouji", {"rules": rules, "deals": 20})
    assert game.num_players() == 6 and game.num_distinct_actions() == catalogue(rules).size
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_game_is_the_deal_of_its_chance_outcome() -> None:
    game = pyspiel.load_game("python_gouji", {"rules": "qingdao", "deals": 10})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 10
    state.apply_action(7)
    deal = Deal.new("qingdao", seed=7)
    rng = random.Random(7)
    cat = catalogue("qingdao")
    while not state.is_terminal():
        assert state.current_player() == deal.to_act
        legal = state.legal_actions()
        assert legal == sorted(int(i) for i in cat.indices(deal.legal_actions()))
        a = legal[rng.randrange(len(legal))]
        state.apply_action(a)
        deal.act(cat.action(a))
        assert len(state.observation_tensor(deal.to_act or 0)) > 0
    assert deal.is_over and state.returns() == deal_rewards(deal) and sum(state.returns()) == 0
    with pytest.raises(ValueError, match="deals must be at least 1"):
        pyspiel.load_game("python_gouji", {"deals": 0})
