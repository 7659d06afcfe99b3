"""The random bot: uniform over the legal actions, the floor every other bot must beat."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.actions import Action


class RandomBot:
    """Uniform over the legal actions: the floor every other bot must beat."""

    name = "random"

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]


__all__ = ["RandomBot"]
