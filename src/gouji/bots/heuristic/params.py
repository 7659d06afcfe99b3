"""The heuristic's weights."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Params:
    """The weights of the heuristic (tuned by self-play against the random bot and earlier versions)."""

    lead_value: float = 0.4
    """Worth of winning the round (leading the next one), in groups shed."""
    deny: float = 0.45
    """Worth of keeping an opponent from winning the round."""
    cost_two: float = 0.4
    cost_small: float = 1.0
    cost_big: float = 1.5
    """Control cost of spending a 2, a small joker, a big joker in a play."""
    split: float = 0.3
    """Worth of shedding part of a group (it does not shorten the plan)."""
    keep_high: float = 0.12
    """Per rank above 9: worth of keeping a natural group (high groups answer plays later)."""
    mate_penalty: float = 1.2
    """Cost of overtaking a teammate's play."""
    smother: float = 3.0
    """Cost of being smothered (闷), and worth of a safe play before the 3s."""
    burner_weight: float = 0.4
    """How likely a seat able to burn is to burn (it needs the jokers to go on)."""
    open_min: float = 0.7
    """Least chance to stand for leading a pure gouji play to open the point."""
    feed_guard: float = 1.0
    """Lead no play of the size of an opponent's last cards (≤ 4), gladly one of a teammate's
    (1: not under 憋三, where the 3s held are unknown; 2: also under 憋三, counting one 3; 0: never)."""
    yield_value: float = 0.05
    revolt_below: float = 4.5
    declare_at: float = 10.0
    scarce: float = 0.6
    """Share of the control cost counted when control cards are not scarce (no fewer than the groups)."""
    urgency: float = 1.5
    """Factor on ``deny`` when the play's owner has 6 cards or fewer."""
    mates_after_deny: float = 0.5
    """Factor on ``deny`` when a teammate may still answer after me."""
    shed_control: float = 0.6
    """Worth of shedding a play of control cards alone that shortens the plan."""
    chain_sure: float = 0.97
    """Least chance to stand for a play counted sure when chaining out."""


DEFAULT = Params()
