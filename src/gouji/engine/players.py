"""How a seat is asked for its decision: a player sees that seat's view and legal actions, never the deal.

The engine states the contract; :mod:`gouji.bots` holds the players (and registers them by name), and the
sets and tournaments of :mod:`gouji.competition` ask them through :func:`decide` — so no layer below the
bots needs to know any bot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .actions import Action
from .deal import Deal
from .seats import SEATS


class Bot(Protocol):
    """A player: ``decide`` returns one of ``legal`` from the seat's ``view`` alone.

    A bot that needs the event log sets ``wants_log = True``; the others get the view without it.
    """

    name: str

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action: ...


def decide(bot: Bot, deal: Deal, rng: random.Random) -> Action:
    """Ask ``bot`` for the decision of the seat to act in ``deal``, from that seat's view only."""
    seat = deal.to_act
    if seat is None:
        raise ValueError("the deal is over: nobody is to act")
    view = deal.view(seat, log=bool(getattr(bot, "wants_log", False)))
    return bot.decide(view, deal.legal_actions(), rng)


def play_deal(deal: Deal, bots: Sequence[Bot], rng: random.Random, max_decisions: int = 100_000) -> Deal:
    """Play ``deal`` to its end, seat ``s`` deciding with ``bots[s]``."""
    if len(bots) != SEATS:
        raise ValueError(f"play_deal needs six bots, one per seat, not {len(bots)}")
    for _ in range(max_decisions):
        seat = deal.to_act
        if seat is None:
            return deal
        deal.act(decide(bots[seat], deal, rng))
    raise RuntimeError(f"the deal did not end within {max_decisions} decisions")
