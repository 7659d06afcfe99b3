"""Gouji as a Gymnasium single-agent environment: one seat learns, five bots of the project play the rest.

``SingleAgentEnv(rules="qingdao", seat=0, opponents="heuristic")`` — ``opponents`` is a bot name for all
five other seats (its teammates included) or five names, one per other seat in seat order
(``gouji.bots.BOTS``: ``random``, ``heuristic``, and the ones registered later, such as learned agents).

- Observations are the AEC environment's: ``{"observation": float32[STATE_SIZE], "action_mask":
  int8[catalogue size]}`` for the learner's seat, built from its ``Deal.view`` alone.
- ``step(index)`` plays the learner's action, then the bots until the learner is to act again or the
  episode ends.  The reward is the learner's team's (see :mod:`gouji.env.core`), at the end of each deal.
- An action outside the mask ends the episode (``terminated``) with ``illegal_reward`` (default: the worst
  reward a deal can give) and ``info["illegal_action"] = True``; with ``raise_on_illegal=True`` it raises
  :class:`gouji.IllegalAction` instead and changes nothing.
- ``reset(seed=…)`` seeds the deals and the bots' choices; the same seed and actions replay the same
  episode.  ``reset(options={"deal": deal})`` starts from a given :class:`gouji.Deal`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, decide, make_bot
from ..engine.deal import IllegalAction
from ..engine.rules import RuleSet
from ..engine.seats import SEATS
from .aec import observation_space
from .core import Episode, Observation, new_seed, worst_reward


class SingleAgentEnv(gymnasium.Env[Any, Any]):
    """One seat of Gouji against five bots."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium declares it an instance variable)

    def __init__(
        self,
        rules: RuleSet | str | None = "qingdao",
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        episode: str = "deal",
        set_length: int | None = None,
        illegal_reward: float | None = None,
        raise_on_illegal: bool = False,
        render_mode: str | None = None,
    ) -> None:
        if not isinstance(seat, int) or not 0 <= seat < SEATS:
            raise ValueError(f"seat must be 0-5, not {seat!r}")
        names = [opponents] * (SEATS - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != SEATS - 1:
            raise ValueError(f"opponents is one bot name or five (one per other seat), not {len(names)}")
        for name in names:
            make_bot(name)  # an unknown name is a ValueError listing the known ones
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be 'ansi' or None")
        self.render_mode = render_mode
        self.seat = seat
        self.opponents = names
        self.game = Episode(rules, episode, set_length)
        self.rules = self.game.rules
        self.illegal_reward = worst_reward(self.rules) if illegal_reward is None else float(illegal_reward)
        self.raise_on_illegal = raise_on_illegal
        self.observation_space = observation_space(self.game.catalogue.size)
        self.action_space = spaces.Discrete(self.game.catalogue.size)
        self._bots: list[Bot | None] = []
        self._bot_rng = random.Random(0)
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        self.game.start(new_seed(rng), (options or {}).get("deal"))
        self._bot_rng = random.Random(new_seed(rng))
        others = iter(self.opponents)
        self._bots = [None if s == self.seat else make_bot(next(others)) for s in range(SEATS)]
        self._done = False
        reward = self._play_bots()
        return self._observe(), {"reward_before_first_turn": reward} if reward else {}

    def _play_bots(self) -> float:
        """Let the bots act until the learner is to act or the episode ends; the learner's rewards meanwhile."""
        total = 0.0
        game = self.game
        while True:
            seat = game.to_act
            if seat is None or seat == self.seat:
                return total
            bot = self._bots[seat]
            assert bot is not None
            action = decide(bot, game.deal, self._bot_rng)
            rewards = game.step(game.catalogue.index(action))
            if rewards is not None:
                total += rewards[self.seat]

    def _observe(self) -> Observation:
        return self.game.observe(self.seat)

    def step(self, action: int | np.integer[Any]) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        try:
            rewards = self.game.step(action)
        except IllegalAction as e:
            if self.raise_on_illegal:
                raise
            self._done = True
            return self._observe(), self.illegal_reward, True, False, {"illegal_action": True, "reason": str(e)}
        reward = rewards[self.seat] if rewards is not None else 0.0
        reward += self._play_bots()
        self._done = self.game.is_over
        return self._observe(), float(reward), self._done, False, {}

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        deal = self.game.deal
        return f"seat {self.seat} holds {deal.hand(self.seat)}; top {deal.top or '—'}; seat {deal.to_act} to act"


ENV_ID = "Gouji-v0"
"""Its Gymnasium id: ``gymnasium.make("gouji.env.single:Gouji-v0", rules=…, seat=…, opponents=…)``."""
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="gouji.env.single:SingleAgentEnv", disable_env_checker=True)
