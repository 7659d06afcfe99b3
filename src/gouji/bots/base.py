"""The bot interface and the plumbing every bot shares: :class:`Bot`, the random bot, and playing a deal
with one bot per seat (:func:`decide`, :func:`play_deal`).  The contract itself is the engine's
(:mod:`gouji.engine.players`); the registry of bots by name is :data:`gouji.bots.BOTS`; this module imports no
bot, so every bot may import it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
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
