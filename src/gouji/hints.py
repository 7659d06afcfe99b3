"""Hints: what a good player would do in a seat's place, and why.

``gouji.hint(deal, seat)`` asks the heuristic bot (:mod:`gouji.bots.heuristic`) for the decision of the
seat to act, from that seat's view only, and returns it with a one-line reason a player can read::

    >>> h = gouji.hint(deal, deal.to_act)
    >>> h.text, h.reason
    ('55', 'lead 55: your lowest play; keep the jokers and the 2s for later')

The same view always gives the same hint.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .bots.heuristic import HeuristicBot
from .deal import Deal


@dataclass(frozen=True)
class Hint:
    """A suggested action: ``action`` (one of ``deal.legal_actions()``), ``text`` (its text form, what
    :meth:`gouji.Deal.act` accepts) and ``reason`` (one line, for the player)."""

    action: Action
    text: str
    reason: str


def hint(deal: Deal, seat: int) -> Hint:
    """The heuristic bot's choice for ``seat`` with its reason; ``ValueError`` unless ``seat`` is to act."""
    to_act = deal.to_act
    if to_act is None:
        raise ValueError("the deal is over: nobody is to act")
    if seat != to_act:
        raise ValueError(f"seat {seat} is not to act: it is seat {to_act}'s turn")
    action, reason = HeuristicBot().choose(deal.view(seat), deal.legal_actions())
    return Hint(action, str(action), reason)
