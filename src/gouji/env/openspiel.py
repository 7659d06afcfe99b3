"""Gouji as an OpenSpiel Python game: ``pyspiel.load_game("python_gouji", {"rules": "qingdao"})``.

Importing this module registers the game (it needs ``open-spiel``, part of the ``rl`` extra).  One game
is one deal of six players:

- the first node is a chance node that picks the deal's seed among ``deals`` equally likely ones (the
  shuffle, explicit and seeded, as OpenSpiel wants it); every later node is a decision of the seat to act,
  the setup decisions and burn offers included;
- actions are indices of the :mod:`~gouji.env.catalogue` (``num_distinct_actions`` is its size);
- the returns are the environment's rewards (:func:`gouji.env.core.deal_rewards`): each player's team's
  points less the mean of both teams', zero-sum;
- the observation tensor is :func:`gouji.bots.features.encode_state` of ``Deal.view(player)``, the
  observation string that view's public state and hand.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from ..bots import features
from ..engine.deal import Deal
from ..engine.rules import resolve
from .catalogue import catalogue
from .core import deal_rewards, worst_reward

NAME = "python_gouji"
DEFAULT_DEALS = 1_000
MAX_GAME_LENGTH = 20_000
"""A bound on the decisions of one deal (random play takes a few hundred)."""

_GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Python Gouji (够级)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=6,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "qingdao", "deals": DEFAULT_DEALS},
)


class GoujiGame(pyspiel.Game):  # type: ignore[misc]
    """The game: its rules (a preset name) and the number of deal seeds of the chance node."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        rules = resolve(str(params.get("rules", "qingdao")))
        deals = int(params.get("deals", DEFAULT_DEALS))
        if deals < 1:
            raise ValueError(f"deals must be at least 1, not {deals}")
        cat = catalogue(rules)
        worst = worst_reward(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=cat.size,
            max_chance_outcomes=deals,
            num_players=6,
            min_utility=worst,
            max_utility=-worst,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, {"rules": rules.name, "deals": deals})
        # (pybind11: attributes set before the base class's __init__ are lost)
        self.rules, self.deals, self.catalogue = rules, deals, cat

    def new_initial_state(self) -> GoujiState:
        return GoujiState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GoujiObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return GoujiObserver(iig_obs_type)


class GoujiState(pyspiel.State):  # type: ignore[misc]
    """One deal: a chance node for the seed, then the deal's decisions."""

    def __init__(self, game: GoujiGame) -> None:
        super().__init__(game)
        # copied from the game: OpenSpiel clones states with copy.deepcopy, which would copy a game too
        self._rules, self._deals = game.rules, game.deals
        self.deal: Deal | None = None

    def current_player(self) -> int:
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.deal.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        assert self.deal.to_act is not None
        return self.deal.to_act

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self._deals
        return [(i, p) for i in range(self._deals)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None and player == self.deal.to_act
        return sorted(int(i) for i in catalogue(self._rules).indices(self.deal.legal_actions()))

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            self.deal = Deal.new(self._rules, seed=int(action))
        else:
            self.deal.act(catalogue(self._rules).action(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        return catalogue(self._rules).text(action)

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.is_over

    def returns(self) -> list[float]:
        if self.deal is None or not self.deal.is_over:
            return [0.0] * 6
        return deal_rewards(self.deal)

    def __str__(self) -> str:
        if self.deal is None:
            return "not dealt"
        d = self.deal
        hands = " | ".join(d.hand(s) for s in range(6))
        return f"{d.rules.name} {d.phase}, seat {d.to_act} to act, top {d.top or '-'}; hands {hands}"


class GoujiObserver:
    """The observation of one player: the encoded ``Deal.view(player)`` (own hand and public facts)."""

    def __init__(self, iig_obs_type: Any) -> None:
        if iig_obs_type is not None and (
            iig_obs_type.perfect_recall or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("Gouji's observer gives a player's own observation (no perfect recall, own hand)")
        self.tensor = np.zeros(features.STATE_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GoujiState, player: int) -> None:
        if state.deal is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = features.encode_state(state.deal.view(player))

    def string_from(self, state: GoujiState, player: int) -> str:
        if state.deal is None:
            return "not dealt"
        v = state.deal.view(player, log=False)
        counts = ",".join("?" if p["cards"] is None else str(p["cards"]) for p in v["players"])
        return f"seat {player} holds {v['hand']}; {v['phase']}, top {v['top'] or '-'}, counts {counts}"


pyspiel.register_game(_GAME_TYPE, GoujiGame)
