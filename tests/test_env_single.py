"""The Gymnasium single-agent wrapper (gouji.env.SingleAgentEnv): check_env, rewards, bots, bad actions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import gouji
from gouji import IllegalAction
from gouji.env.core import deal_rewards, worst_reward

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is not installed: the rl extra (.[test,rl])")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from gouji.env import SingleAgentEnv  # noqa: E402


@pytest.mark.parametrize(
    ("preset", "opponents"), [("qingdao", "heuristic"), ("tournament", "random"), ("zaozhuang", "random")]
)
def test_gymnasium_check_env(preset: str, opponents: str) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*infinity")  # the features have no fixed bounds
        check_env(SingleAgentEnv(preset, seat=1, opponents=opponents), skip_render_check=True)


def run_episode(e: SingleAgentEnv, seed: int) -> tuple[list[int], float]:
    obs, _ = e.reset(seed=seed)
    actions: list[int] = []
    total = 0.0
    rng = np.random.default_rng(seed)
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0 and e.game.to_act == e.seat
        a = int(rng.choice(legal))
        actions.append(a)
        obs, reward, terminated, truncated, info = e.step(a)
        total += reward
        assert not truncated and "illegal_action" not in info
        if terminated:
            return actions, total


@pytest.mark.parametrize("preset", ["qingdao", "heze"])
def test_an_episode_pays_the_learners_team(preset: str) -> None:
    e = SingleAgentEnv(preset, seat=3, opponents=["heuristic", "random", "learned", "random", "heuristic"])
    for seed in range(3):
        actions, total = run_episode(e, seed)
        deal = e.game.deal
        assert deal.is_over and total == deal_rewards(deal)[3]
        assert len(actions) == sum(1 for ev in deal.events if ev["type"] == "act" and ev["seat"] == 3)
        again, total_again = run_episode(e, seed)  # the same seed, the same episode
        assert (again, total_again) == (actions, total)
        with pytest.raises(RuntimeError, match="reset"):
            e.step(0)


def test_a_set_episode() -> None:
    e = SingleAgentEnv("qingdao", seat=0, opponents="heuristic", episode="set", set_length=2)
    _, total = run_episode(e, 4)
    match = e.game.match
    assert match is not None and match.is_over and total == match.totals[0] - (sum(match.totals) / 2)


def test_illegal_actions() -> None:
    e = SingleAgentEnv("qingdao", seat=0)
    obs, _ = e.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[-1])
    _, reward, terminated, _, info = e.step(bad)
    assert terminated and info["illegal_action"] and "is not legal" in info["reason"]
    assert reward == worst_reward(gouji.RuleSet.preset("qingdao")) == -36
    strict = SingleAgentEnv("tournament", seat=0, raise_on_illegal=True, illegal_reward=-1)
    obs, _ = strict.reset(seed=1)
    assert strict.illegal_reward == -1 and worst_reward(strict.rules) == -4.5
    with pytest.raises(IllegalAction, match="is not legal"):
        strict.step(bad)
    assert np.array_equal(strict.game.observe(0)["observation"], obs["observation"])  # nothing changed


def test_render() -> None:
    e = SingleAgentEnv("qingdao", seat=2, render_mode="ansi")
    e.reset(seed=2)
    assert f"seat 2 holds {e.game.deal.hand(2)}" in (e.render() or "")
    assert SingleAgentEnv("qingdao").render() is None


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seat must be 0-5"):
        SingleAgentEnv(seat=6)
    with pytest.raises(ValueError, match="five"):
        SingleAgentEnv(opponents=["random"] * 4)
    with pytest.raises(ValueError, match="no bot 'alphago'"):
        SingleAgentEnv(opponents="alphago")


def test_gymnasium_make() -> None:
    e = gymnasium.make("gouji.env.single:Gouji-v0", rules="tournament", seat=4, opponents="heuristic")
    assert isinstance(e.unwrapped, SingleAgentEnv) and e.unwrapped.seat == 4
    obs, _ = e.reset(seed=0)
    assert obs["action_mask"].any()
