"""Gouji as a PettingZoo AEC environment: ``gouji.env.env(rules="qingdao", seed=…)``.

Six agents ``seat_0`` … ``seat_5`` (teams: even seats against odd ones).  The agent to act is the deal's
:attr:`~gouji.Deal.to_act` — every decision of a deal: the setup decisions (还贡, buying a 4, revolution,
要头/无头, 宣点 …), plays, passes, yields and burn offers.  The same agent may act several times in a row.

- ``observe(agent)`` is ``{"observation": float32[STATE_SIZE], "action_mask": int8[catalogue size]}``, the
  observation ``encode_state(Deal.view(seat))`` (:mod:`gouji.bots.features`, kept up to date step by step
  by :mod:`gouji.env.tracker`), the mask all zeros for an agent that is not to act.
- ``infos[agent]["legal_actions"]`` holds the same legal actions as catalogue indices (a read-only int64
  array in the order of ``Deal.legal_actions()``; empty for an agent not to act): a random or value-based
  policy needs no scan of the 167,957-entry mask.
- ``action_space(agent)`` is ``Discrete(catalogue size)``: an action is an index of the
  :mod:`~gouji.env.catalogue`; one not in the mask raises :class:`gouji.IllegalAction` and changes nothing.
- Rewards come at the end of each deal (see :mod:`gouji.env.core`): the seat's team's points, zero-sum
  across the teams.  The episode is one deal, or with ``episode="set"`` one set of deals with tribute
  carried between them (a reward after each deal).
- ``reset(seed=…)`` deals from the seed; ``reset(options={"deal": deal})`` starts from a given
  :class:`gouji.Deal` (scripted positions, tests).  Other option keys are ignored.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers.order_enforcing import (  # type: ignore[import-untyped]
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from ..bots import features
from ..engine.rules import RuleSet
from ..engine.seats import SEATS
from .core import NO_INDICES, Episode, Observation, new_seed

AGENTS = tuple(f"seat_{s}" for s in range(SEATS))
_SEAT_OF = {a: s for s, a in enumerate(AGENTS)}


def observation_space(size: int) -> spaces.Dict:
    """The observation space of every agent, for a catalogue of ``size`` actions."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, shape=(features.STATE_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
        }
    )


class GoujiEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """The raw AEC environment (:func:`raw_env`); :func:`env` adds PettingZoo's order checks."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "gouji_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: RuleSet | str | None = "qingdao",
        seed: int | None = None,
        episode: str = "deal",
        set_length: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.game = Episode(rules, episode, set_length)
        self.rules = self.game.rules
        self.possible_agents = list(AGENTS)
        size = self.game.catalogue.size
        self.observation_spaces = {a: observation_space(size) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(size) for a in AGENTS}
        self._rng = random.Random(seed)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        rng = random.Random(seed) if seed is not None else self._rng
        state = rng.getstate()
        try:
            self.game.start(new_seed(rng), (options or {}).get("deal"))
        except ValueError:
            rng.setstate(state)  # a bad option changes nothing
            raise
        self._rng = rng
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {"legal_actions": NO_INDICES} for a in AGENTS}
        self._informed: str | None = None  # the agent whose info holds legal actions
        self._rewarded = False  # some reward is not 0: the next step clears them
        self._select()

    def _select(self) -> None:
        seat = self.game.to_act
        informed = self._informed
        if seat is not None:
            agent = self.agent_selection = AGENTS[seat]
            if informed is not None and informed != agent:
                self.infos[informed] = {"legal_actions": NO_INDICES}
            self.infos[agent] = {"legal_actions": self.game.legal_indices()}
            self._informed = agent
        else:  # the episode is over: every agent leaves, in seat order
            if informed is not None:
                self.infos[informed] = {"legal_actions": NO_INDICES}
                self._informed = None
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> Observation:
        seat = _SEAT_OF.get(agent)
        if seat is None:
            raise ValueError(f"{agent!r} is not an agent: the agents are seat_0 … seat_5")
        return self.game.observe(seat)

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is the action of an agent that is done")
        rewards = self.game.step(action)  # an illegal action raises here and changes nothing
        self._cumulative_rewards[agent] = 0.0
        if rewards is not None or self._rewarded:  # else every reward is 0 already: nothing to add
            self._clear_rewards()
            if rewards is not None:
                for s, r in enumerate(rewards):
                    self.rewards[AGENTS[s]] = r
            self._accumulate_rewards()
            self._rewarded = rewards is not None
        self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The public state: the seat to act, the top play and each seat's status and visible count."""
        view = self.game.deal.view(None, log=False)
        lines = [f"{self.rules.name}: {view['phase']}, seat {view['to_act']} to act, top {view['top'] or '—'}"]
        for p in view["players"]:
            cards = "?" if p["cards"] is None else p["cards"]
            lines.append(f"  seat_{p['seat']}: {p['status']}, {cards} cards")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` with its checks unchanged, but the attributes every step
    reads (``agent_selection``, ``agents``) and :meth:`last` going to the environment directly rather than
    through two ``__getattr__`` hops each (about a fifth of a step's time)."""

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection  # type: ignore[no-any-return]

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | np.integer[Any] | None) -> None:
        if self._has_reset and self.env.agents:  # the usual case, as the parent's last branch
            self._has_updated = True
            self.env.step(action)
        else:  # the parent's errors and warnings
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            return super().agent_iter(max_iter)  # the parent's error
        return _OrderedIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _OrderedIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _OrderedIterator:
        return _OrderedIterator(self.env, self.max_iter)


class _OrderedIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing iterator (the same check that each agent stepped), reading the raw
    environment's attributes directly."""

    def __next__(self) -> str:
        wrapper = self.env
        raw = wrapper.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        if not wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        wrapper._has_updated = False
        return raw.agent_selection  # type: ignore[no-any-return]


def raw_env(rules: RuleSet | str | None = "qingdao", **options: Any) -> GoujiEnv:
    """The AEC environment without wrappers; ``options``: ``seed``, ``episode`` ("deal" or "set"),
    ``set_length``, ``render_mode`` ("ansi" or "human")."""
    return GoujiEnv(rules, **options)


def env(rules: RuleSet | str | None = "qingdao", **options: Any) -> Any:
    """The AEC environment wrapped in PettingZoo's order-enforcing checks (the usual entry point);
    ``options`` are :func:`raw_env`'s."""
    return OrderEnforcingWrapper(raw_env(rules, **options))
