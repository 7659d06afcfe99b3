"""The heuristic bot: dispatches each decision to the lines of its kind."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ...engine.actions import (
    BUY_FOUR,
    CHONGDIAN,
    DECLARE,
    GIVEBACK,
    HUIWU,
    REVOLT,
    SELFOPEN,
    SWAP,
    WUTOU,
    YAOTOU,
    Action,
    Burn,
)
from ...engine.plays import Play
from ..reasons import Reason
from ..reasons import reason as R
from .answers import _respond
from .burns import _burn, _burn_ok
from .context import _Ctx
from .decisions import _buy_four, _chong_attempt, _chongdian, _choose_return, _declare, _revolution, _swap
from .hands import (
    _fallback,
    _minus,
)
from .leads import _lead
from .params import DEFAULT, Params


class HeuristicBot:
    """Plays by a hand plan, the card counter and the players' rules of thumb; see the module docstring."""

    name = "heuristic"
    wants_log = True
    context: type[_Ctx] = _Ctx
    """The facts of one decision (a subclass may read the view further, as the beliefs bot does)."""

    def __init__(self, params: Params | None = None, strict: bool = False) -> None:
        self.params = params or DEFAULT
        self.strict = strict
        """Raise on an internal error instead of falling back to a safe legal action (for tests)."""

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        return self.choose(view, legal)[0]

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> tuple[Action, str]:
        """The action and a one-line reason a player can read (English)."""
        action, why = self.explain(view, legal)
        return action, why.text

    def explain(self, view: Mapping[str, Any], legal: Sequence[Action]) -> tuple[Action, Reason]:
        """The action and why, as a :class:`~gouji.reasons.Reason` (a code with parameters)."""
        if len(legal) == 0:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            only = legal[0]
            return only, R("only", action=str(only))
        try:
            action, why = self._choose(view, legal)
        except Exception:
            if self.strict:
                raise
            action, why = _fallback(legal), R("safe")
        if action not in legal:  # never hand back an illegal action
            if self.strict:
                raise AssertionError(f"heuristic chose {action}, not legal")
            action, why = _fallback(legal), R("safe")
        return action, why

    # -- dispatch

    def _choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> tuple[Action, Reason]:
        phase = view.get("phase")
        if phase != "play":  # a lead set may hold thousands of plays: never scan it
            returns = [a for a in legal if str(a).startswith("return ")]
            if returns:
                return _choose_return(view, returns)
        if phase == "revolution" and REVOLT in legal:
            return _revolution(view, self.params)
        if YAOTOU in legal:
            return YAOTOU, R("yaotou")
        if WUTOU in legal:
            return WUTOU, R("wutou")
        if DECLARE in legal:
            return _declare(view, self.params)
        if BUY_FOUR in legal:
            return _buy_four(view)
        if HUIWU in legal:
            return HUIWU, R("huiwu")
        if GIVEBACK in legal:
            return GIVEBACK, R("giveback")
        if SWAP in legal:
            return _swap(view)
        if SELFOPEN in legal:
            return SELFOPEN, R("selfopen")
        if CHONGDIAN in legal:
            return _chongdian(view)
        if phase != "play":
            return _fallback(legal), R("safe")
        c = self.context(view, self.params)
        if view.get("burn_offer"):
            return _burn(c, legal)
        ch = view.get("chongdian")
        if c.top is None and ch and ch.get("seat") == c.seat and ch.get("result") is None:
            return _chong_attempt(c, legal)
        if c.top is None:
            return _lead(c, legal)
        return _respond(c, legal)

    def carryable(self, view: Mapping[str, Any], action: Burn | Play) -> bool:
        """Whether the seat of ``view`` could carry a burn to its end after ``action`` (a burn taken, or a
        play of its own burn): the hand left holds a joker for every play but the last.  A burn that
        cannot be carried is a 诈烧."""
        c = self.context(view, self.params)
        rest = _minus(c.hand, action.play if isinstance(action, Burn) else action)
        return _burn_ok(c, rest)[0]


def tuned(**changes: Any) -> HeuristicBot:
    """A heuristic bot with some weights changed (for experiments)."""
    return HeuristicBot(replace(DEFAULT, **changes))
