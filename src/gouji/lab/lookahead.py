"""One-step lookahead with the true hands (前瞻): each candidate action played out to the end of the deal.

From a position of a deal — the true state, every hand known — each candidate action of the seat to act is
taken on a copy of the deal, and the copy is played to its end with the heuristic bot in every seat.  The
result is the finished deal's team points in the preset's own unit (:func:`gouji.engine.scoring.team_points`:
place points under set scoring, small points under 比赛规则).  The heuristic is deterministic, so one
rollout a candidate is the whole answer: the same position and action always give the same result.

It is a **hindsight judgement**: it knows every hand, and it assumes that everyone plays as the heuristic
after the decision.  The 复盘 review (:mod:`gouji.lab.review`) and the distillation labels
(:mod:`gouji.lab.distil`) are built on it; so are the paired rollouts of training
(:func:`gouji.lab.learn.actors.paired_deal`).

What makes it fast:

- a position is copied (``copy.deepcopy``, about 0.5 ms), never replayed from the shuffle;
- every position a rollout passes through is remembered by a **key** — a hash chained over the deal's
  decisions (:func:`history_key`, :func:`next_key`) — with the result the line reached.  A rollout that
  reaches a known position stops there: the heuristic would play on exactly as before.  So the heuristic's
  own choice is often free (its line was played by an earlier rollout, or is the deal itself in self-play),
  and a review's rollouts share their tails.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from typing import Any

from ..bots.candidates import kind, pick, strength
from ..bots.heuristic import HeuristicBot
from ..engine.actions import Action
from ..engine.deal import Deal
from ..engine.scoring import team_points
from ..engine.seats import team

Score = tuple[int, int]
"""(team 0, team 1) points of a finished deal, in the preset's unit."""

DEFAULT_LIMIT = 8
"""Candidates at most per decision (what was played and the heuristic's choice always among them)."""

_RNG = random.Random(0)  # the policies used here are deterministic and never draw from it


def history_key(deal: Deal) -> int:
    """The key of the deal's position: a hash chained over its first event and every decision taken."""
    key = hash(repr(deal.events[0]))
    for e in deal.events:
        if e["type"] == "act":
            key = hash((key, e["seat"], e["action"]))
    return key


def next_key(key: int, seat: int, action: Action) -> int:
    """The key of the position after ``seat`` takes ``action`` in the position of ``key``."""
    return hash((key, seat, action.text))


def seat_result(score: Score, seat: int) -> int:
    """What ``score`` is worth to ``seat``: its team's points."""
    return score[team(seat)]


class Lookahead:
    """Rollouts from the positions of one deal, sharing what they learn (see the module docstring).

    ``policy`` plays every seat after a candidate; it must be deterministic (the same view and legal
    actions, the same choice), as the heuristic bot is.  Use one :class:`Lookahead` per deal.
    """

    def __init__(self, policy: Any = None) -> None:
        self.policy = policy if policy is not None else HeuristicBot()
        self._log = bool(getattr(self.policy, "wants_log", False))
        self._ends: dict[int, Score] = {}
        """Position key → the score the policy's line from it reaches."""
        self.rollouts = 0
        """Rollouts asked for (a cached one counts too)."""
        self.steps = 0
        """Decisions the policy played in rollouts (the work done)."""
        self.hits = 0
        """Rollouts answered at once: the position after the action was known."""

    def choice(self, deal: Deal) -> Action:
        """The policy's choice in the deal's position (the only legal action when there is one)."""
        legal = deal.legal_actions()
        seat = deal.to_act
        if seat is None:
            raise ValueError("the deal is over: nobody is to act")
        if len(legal) == 1:
            return legal[0]
        action: Action = self.policy.decide(deal.view(seat, log=self._log), legal, _RNG)
        return action

    def play_out(self, deal: Deal, key: int) -> Score:
        """Play ``deal`` (in the position of ``key``) to its end with the policy in every seat, or until a
        position already played from; returns the score and remembers it for every position passed."""
        ends = self._ends
        line: list[int] = []
        score = ends.get(key)
        while score is None:
            seat = deal.to_act
            if seat is None:
                score = team_points(deal)
                break
            line.append(key)
            action = self.choice(deal)
            deal.act(action)
            self.steps += 1
            key = next_key(key, seat, action)
            score = ends.get(key)
        for k in line:
            ends[k] = score
        return score

    def rollout(self, deal: Deal, action: Action, key: int) -> Score:
        """The score after the seat to act takes ``action`` in ``deal`` (left unchanged), the policy after."""
        self.rollouts += 1
        seat = deal.to_act
        if seat is None:
            raise ValueError("the deal is over: nobody is to act")
        after = next_key(key, seat, action)
        known = self._ends.get(after)
        if known is not None:
            self.hits += 1
            return known
        branch = copy.deepcopy(deal)
        branch.act(action)
        return self.play_out(branch, after)

    def evaluate(self, deal: Deal, actions: Iterable[Action], key: int | None = None) -> list[Score]:
        """The score of each action (in order) from the deal's position."""
        k = history_key(deal) if key is None else key
        return [self.rollout(deal, a, k) for a in actions]


# ------------------------------------------------------------------------------------------ candidates


def candidates(
    deal: Deal, extra: Sequence[Action | None] = (), limit: int = DEFAULT_LIMIT, policy_choice: Action | None = None
) -> list[Action]:
    """A handful of distinct legal actions of the seat to act, at most ``limit`` (``extra`` always kept):
    :func:`gouji.bots.candidates.pick` on the deal's legal actions (the ``expert`` bot picks the same ones
    from a seat's view)."""
    lead = deal.top is None and not deal.round.burn_offers
    return pick(deal.legal_actions(), lead, extra, limit, policy_choice)


__all__ = [
    "DEFAULT_LIMIT",
    "Lookahead",
    "Score",
    "candidates",
    "history_key",
    "kind",
    "next_key",
    "seat_result",
    "strength",
]
