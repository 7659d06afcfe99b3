"""The PettingZoo AEC environment (gouji.env): PettingZoo's own tests on every preset, hidden cards stay
hidden, rewards, set episodes and bad actions."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

import gouji
from gouji import Deal, IllegalAction
from gouji.bots.features import encode_state
from gouji.env.catalogue import catalogue
from gouji.env.core import deal_rewards, worst_reward

from .helpers import choose_action
from .test_properties import swapped_hands, tribute_after

pettingzoo = pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: the rl extra (.[test,rl])")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from gouji.env import env, raw_env  # noqa: E402

PRESETS = list(gouji.PRESETS)


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_and_seed_tests(preset: str) -> None:
    with warnings.catch_warnings():
        # dict observations with an action mask: PettingZoo's checker warns of them, as for its own games
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env(preset, seed=1), num_cycles=400)
        seed_test(lambda: env(preset), num_cycles=100)


def test_pettingzoo_tests_on_a_set_episode() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation")
        api_test(env("qingdao", seed=2, episode="set", set_length=2), num_cycles=800)
        seed_test(lambda: env("zhangqiu", episode="set", set_length=2), num_cycles=100)


def index_of(deal: Deal, rng: random.Random) -> int:
    """A random legal action of the deal, as its catalogue index."""
    return catalogue(deal.rules).index(choose_action(deal, rng))


def play_episode(e: Any, rng: random.Random) -> dict[str, float]:
    """Play an AEC episode with random legal actions; the rewards each agent collected."""
    got = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        got[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    return got


@pytest.mark.parametrize("preset", ["qingdao", "tournament"])
def test_rewards_are_the_teams_points_zero_sum(preset: str) -> None:
    e = raw_env(preset)
    for seed in range(4):
        e.reset(seed=seed)
        got = play_episode(e, random.Random(seed))
        deal = e.game.deal
        assert deal.is_over
        points = gouji.engine.scoring.team_points(deal)
        for s in range(6):
            expected = points[s % 2] - (points[0] + points[1]) / 2
            assert got[f"seat_{s}"] == expected == deal_rewards(deal)[s]
        assert sum(got.values()) == 0
        if preset == "qingdao":  # set scoring: place points are zero-sum already
            assert got["seat_0"] == points[0]
        assert min(got.values()) >= worst_reward(deal.rules)


def test_set_episode_pays_tribute_and_rewards_every_deal() -> None:
    e = raw_env("qingdao", episode="set", set_length=3)
    e.reset(seed=5)
    rewards: list[float] = []
    for _ in e.agent_iter():
        obs, _, term, _, _ = e.last()
        if term:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[0]))
        if any(e.rewards.values()):
            rewards.append(e.rewards["seat_0"])
            assert sum(e.rewards.values()) == 0
    match = e.game.match
    assert match is not None and match.is_over and len(match.deals) == 3 == e.game.deals_done
    assert rewards == [float(p[0]) for p in match.points if p[0] != 0]
    owed_tribute = [d.events[0]["tribute"] for d in match.deals[1:]]
    assert any(owed_tribute), "the later deals of a set start with the tribute owed from the one before"


def test_the_mask_is_the_legal_actions_of_the_seat_to_act_only() -> None:
    e = raw_env("tongyong", seed=3)
    e.reset()
    rng = random.Random(3)
    while e.game.to_act is not None:
        seat = e.game.to_act
        deal = e.game.deal
        for s in range(6):
            assert e.game.view(s) == deal.view(s)  # the log kept event by event is the view's own
            mask = e.observe(f"seat_{s}")["action_mask"]
            if s == seat:
                assert set(np.flatnonzero(mask)) == set(catalogue("tongyong").indices(deal.legal_actions()))
            else:
                assert not mask.any()
        e.step(index_of(deal, rng))


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env("qingdao", seed=1)
    e.reset()
    before = e.observe(e.agent_selection)
    cat = catalogue("qingdao")
    bad = int(np.flatnonzero(before["action_mask"] == 0)[-1])
    for action, message in (
        (bad, "is not legal"),
        (cat.play_start + cat.natural_size, "empty play"),
        (cat.size, "outside the catalogue"),
        ("pass!", "catalogue index"),
    ):
        with pytest.raises(IllegalAction, match=message):
            e.step(action)  # type: ignore[arg-type]
    after = e.observe(e.agent_selection)
    assert all(np.array_equal(before[k], after[k]) for k in before)
    assert e.rewards == {a: 0.0 for a in e.agents}
    with pytest.raises(ValueError, match="None"):
        e.step(None)


def test_reset_from_a_given_deal_and_bad_options() -> None:
    e = raw_env("qingdao")
    deal = Deal.from_hands(["33KKQQ", "44KKQQ", "55KKQQ", "66KKQQ", "77KKQQ", "88KKQQ"], "qingdao", leader=2)
    e.reset(options={"deal": deal, "ignored": 1})
    assert e.game.deal is deal and e.agent_selection == "seat_2"
    with pytest.raises(ValueError, match="tournament rules"):
        e.reset(options={"deal": Deal.new("tournament", seed=1)})
    with pytest.raises(ValueError, match=r"gouji\.Deal"):
        e.reset(options={"deal": "3333"})
    with pytest.raises(ValueError, match="episode must be"):
        raw_env("qingdao", episode="match")
    with pytest.raises(ValueError, match="for episode='deal'"):
        s = raw_env("qingdao", episode="set")
        s.reset(options={"deal": deal})


def test_render() -> None:
    e = raw_env("qingdao", seed=1, render_mode="ansi")
    e.reset()
    text = e.render()
    assert text is not None and "seat_0" in text and "to act" in text
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("qingdao", render_mode="rgb_array")


@pytest.mark.parametrize("setup", [False, True], ids=["play", "setup"])
@pytest.mark.parametrize("preset", PRESETS)
def test_observations_do_not_depend_on_hidden_cards(preset: str, setup: bool) -> None:
    """Two deals that differ only in one swap of cards between two other seats give the observer the same
    observation (and the same mask when it is to act) at every step, setup decisions included."""
    for seed in range(3):
        hands_a, hands_b, leader, o, i, j, _, _ = swapped_hands(preset, seed, setup)
        kw: dict[str, Any] = {}
        if setup:
            payments = tribute_after(preset, seed)[0] if gouji.RuleSet.preset(preset).tribute else []
            kw = {"setup": True, "seed": seed, "tribute": payments}
        envs = [raw_env(preset), raw_env(preset)]
        deals = [Deal.from_hands(h, preset, leader, **kw) for h in (hands_a, hands_b)]
        for e, d in zip(envs, deals, strict=True):
            e.reset(options={"deal": d})
        rng = random.Random(seed)
        observer = f"seat_{o}"
        swapped = [e.observe(f"seat_{i}")["observation"] for e in envs]
        assert not np.array_equal(*swapped), "seat i sees its own hand change: the pair is a real one"
        for _ in range(3000):
            da = deals[0]
            if any(ev["type"] == "revolution" and ev["seat"] in (i, j) for ev in da.events):
                break  # a revolutionary lays the hand down: it is public from then on
            first, second = (e.observe(observer) for e in envs)
            assert np.array_equal(first["observation"], second["observation"]), f"after {len(da.events)} events"
            assert np.array_equal(first["observation"], encode_state(da.view(o)))  # the tracker's and the view's
            assert np.array_equal(first["action_mask"], second["action_mask"])
            if da.is_over:
                break
            seat, index = da.to_act, index_of(da, rng)
            envs[0].step(index)
            try:
                envs[1].step(index)
            except IllegalAction:  # B lacks the card swapped away: only i or j can meet this
                assert seat in (i, j)
                break
