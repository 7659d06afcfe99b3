"""The 大师 bot (``expert``): the heuristic, overruled where a distilled model expects a better candidate.

A model trained on the lookahead that knows every hand (:mod:`gouji.lab.distil`'s labels; training:
:mod:`gouji.lab.expert_train`, ``docs/ladder.md``) predicts, from one seat's view only, each candidate's
advantage over the heuristic's choice — in the preset's unit divided by its spread.  The bot:

1. answers a decision with one legal action at once;
2. takes the heuristic's choice from the same view;
3. picks the candidates the labels were made for (:func:`gouji.bots.candidates.pick`, the heuristic's
   choice first) and drops those the network may not weigh (:func:`gouji.bots.learned.safe`: no 诈烧);
4. plays the candidate with the highest predicted advantage if it beats the heuristic's choice's by more
   than the preset's **margin** (chosen on validation labels; a preset without one is played as the
   heuristic plays), else the heuristic's choice.

The network is a :class:`gouji.bots.learned.QNet` in ``expert.npz`` beside this module (numpy only).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.actions import Action
from .candidates import is_lead, pick
from .features import encode_actions, encode_state
from .heuristic import HeuristicBot
from .learned import QNet, safe, shipped

WEIGHTS = Path(__file__).with_name("expert.npz")
"""The shipped network."""
LIMIT = 8
"""Candidates at most a decision (the labels' ``--candidates``)."""


class ExpertBot:
    """The heuristic's choice unless the network predicts a candidate better by the margin."""

    name = "expert"
    wants_log = True

    def __init__(self, net: QNet | None = None) -> None:
        self.net = net if net is not None else shipped(WEIGHTS, "expert")
        self.prior = HeuristicBot()
        margins = self.net.meta.get("margins") or {}
        self.margins = {str(k): float(v) for k, v in dict(margins).items() if v is not None}
        """The margin a preset (predicted units); a preset not listed never deviates."""
        self.limit = int(self.net.meta.get("candidates", LIMIT))

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        return self.choose(view, legal)[0]

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> tuple[Action, float]:
        """The action and its predicted advantage over the heuristic's choice (0 when it is that choice)."""
        if len(legal) == 0:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0], 0.0
        prior = self.prior.choose(view, legal)[0]
        margin = self.margins.get(str(view.get("rules")))
        if margin is None:
            return prior, 0.0
        cands = [a for a in pick(legal, is_lead(view), [prior], self.limit) if a is prior or safe(self.prior, view, a)]
        if len(cands) < 2:
            return prior, 0.0
        q = self.net.q(encode_state(view), encode_actions(view, cands, prior=0))
        gap = q[1:] - q[0]
        i = int(np.argmax(gap))
        if gap[i] > margin:
            return cands[i + 1], float(gap[i])
        return prior, 0.0


__all__ = ["LIMIT", "WEIGHTS", "ExpertBot"]
