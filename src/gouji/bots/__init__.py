"""Bots: players that decide from what a seat may know.

A bot sees one seat's :meth:`gouji.Deal.view` and the legal actions of that seat — never the deal
itself, so it cannot see hidden cards — and returns one of those actions.  Bots are registered by
name in :data:`BOTS`; :func:`make_bot` builds one and :func:`play_deal` plays a deal with one bot per
seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.players import Bot as Bot
from ..engine.players import decide as decide
from ..engine.players import play_deal as play_deal


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


from . import heuristic as heuristic  # noqa: E402  (registers "heuristic" in BOTS)
from . import learned as learned  # noqa: E402  (registers "learned" in BOTS)
