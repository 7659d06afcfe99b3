"""Bots: players that decide from what a seat may know.

A bot sees one seat's :meth:`gouji.Deal.view` and the legal actions of that seat — never the deal
itself, so it cannot see hidden cards — and returns one of those actions.  Bots are registered by
name in :data:`BOTS`; :func:`make_bot` builds one and :func:`play_deal` plays a deal with one bot per
seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from ..engine.actions import Action
from ..engine.deal import Deal


class Bot(Protocol):
    """A player: ``decide`` returns one of ``legal`` from the seat's ``view`` alone.

    A bot that needs the event log sets ``wants_log = True``; the others get the view without it.
    """

    name: str

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Uniform over the legal actions: the floor every other bot must beat."""

    name = "random"

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot}
"""Bot factories by name."""


def make_bot(name: str) -> Bot:
    """A new bot of the named kind; an unknown name is a ``ValueError`` listing the known ones."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"no bot {name!r}; the bots are {', '.join(sorted(BOTS))}") from None
    return factory()


def decide(bot: Bot, deal: Deal, rng: random.Random) -> Action:
    """Ask ``bot`` for the decision of the seat to act in ``deal``, from that seat's view only."""
    seat = deal.to_act
    if seat is None:
        raise ValueError("the deal is over: nobody is to act")
    view = deal.view(seat, log=bool(getattr(bot, "wants_log", False)))
    return bot.decide(view, deal.legal_actions(), rng)


def play_deal(deal: Deal, bots: Sequence[Bot], rng: random.Random, max_decisions: int = 100_000) -> Deal:
    """Play ``deal`` to its end, seat ``s`` deciding with ``bots[s]``."""
    if len(bots) != 6:
        raise ValueError(f"play_deal needs six bots, one per seat, not {len(bots)}")
    for _ in range(max_decisions):
        seat = deal.to_act
        if seat is None:
            return deal
        deal.act(decide(bots[seat], deal, rng))
    raise RuntimeError(f"the deal did not end within {max_decisions} decisions")


from . import heuristic as heuristic  # noqa: E402  (registers "heuristic" in BOTS)
from . import learned as learned  # noqa: E402  (registers "learned" in BOTS)
