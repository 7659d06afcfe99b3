"""Hints: what a good player would do in a seat's place, and why.

``gouji.hint(deal, seat)`` asks the heuristic bot (:mod:`gouji.bots.heuristic`) for the decision of the
seat to act, from that seat's view only, and returns it with a one-line reason a player can read, and
the same reason as a code with parameters (:mod:`gouji.bots.reasons`) for a client to put in its own words::

    >>> h = gouji.hint(deal, deal.to_act)
    >>> h.text, h.reason
    ('55', 'lead 55: your lowest play; keep the jokers and the 2s for later')
    >>> h.code, h.params
    ('lead_low', {'play': '55', 'lowest': True, 'mate_n': 0, 'opp_n': 0, 'keep': ['jokers', 'twos']})

The same view always gives the same hint.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.deal import Deal
from .heuristic import HeuristicBot
from .reasons import Reason


@dataclass(frozen=True)
class Hint:
    """A suggested action: ``action`` (one of ``deal.legal_actions()``), ``text`` (its text form, what
    :meth:`gouji.Deal.act` accepts), ``reason`` (one English line, for the player) and ``why``, the reason
    as a code with parameters (seats as seat numbers, plays as play text)."""

    action: Action
    text: str
    reason: str
    why: Reason

    @property
    def code(self) -> str:
        """The reason's code (one of :data:`gouji.bots.reasons.CODES`)."""
        return self.why.code

    @property
    def params(self) -> dict[str, object]:
        """The reason's parameters."""
        return self.why.params


def hint(deal: Deal, seat: int) -> Hint:
    """The heuristic bot's choice for ``seat`` with its reason; ``ValueError`` unless ``seat`` is to act (or
    is asked about the current event with it: :meth:`gouji.Deal.window`)."""
    to_act = deal.to_act
    if to_act is None:
        raise ValueError("the deal is over: nobody is to act")
    if seat != to_act and seat not in deal.window():
        raise ValueError(f"seat {seat} is not to act: it is seat {to_act}'s turn")
    return hint_from(deal.view(seat), deal.legal_actions_of(seat))


def hint_from(view: Mapping[str, Any], legal: Sequence[Action]) -> Hint:
    """The hint for the seat whose view (with its log) and legal actions these are: what :func:`hint` works
    out once it has them.  It reads nothing else, so a caller can make them where the deal lives and think
    the hint out on another thread (the server does, off its event loop)."""
    action, why = HeuristicBot().explain(view, legal)
    return Hint(action, str(action), why.text, why)
