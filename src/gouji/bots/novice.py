"""The novice bot (新手): plays Gouji the way a beginner does — legal, sensible, easy to read, beatable.

It follows the first lines a new player is taught, and nothing more:

- **Leads**: go out when the whole hand is one play; otherwise lead the lowest natural rank held, all
  of it, with no 2s or jokers; only when nothing else is left does it lead its 2s and jokers.
- **Answers**: never beat a teammate's play; beat an opponent's with the cheapest play that does —
  natural cards first, the lowest rank that beats it, not splitting a group when it can help it — and
  spend 2s or jokers only when the hand is down to :data:`SPEND_CONTROL_AT` cards or fewer (or the answer
  goes out).  Otherwise pass.
- **It never burns** (烧牌) and takes no optional decision before play (no revolution, no 宣点, no 冲点,
  no buying a 4, no 汇5 / 退贡 / 自开): it passes wherever passing is allowed, and gives back (还贡) its
  lowest cards.

What it does not know, and why it loses to the heuristic: it does not count cards, never asks whether a
play will stand, does not open the point (开点) on purpose, does not save a safe play for the end under
憋三, and spends its 2s and jokers late and greedily.  It sees one seat's view and the legal actions only,
and is deterministic (it never uses its generator).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import cards as C
from ..engine.actions import PASS, Action, Decision
from ..engine.plays import NO_RANK, Play, play_or_none

SPEND_CONTROL_AT = 8
"""An answer may use 2s or jokers once the hand holds this many cards or fewer."""
THREE, FOUR, ACE, TWO, SMALL, BIG = C.THREE, C.FOUR, C.ACE, C.TWO, C.SMALL, C.BIG


def _control(q: Play) -> int:
    return q.t + q.x + q.d


class NoviceBot:
    """新手: the beginner's lines above, from the seat's view alone."""

    name = "novice"

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        return self.choose(view, legal)[0]

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> tuple[Action, str]:
        """The action and a line saying why."""
        if len(legal) == 1:
            return legal[0], "the only legal action"
        if view.get("phase") != "play":
            return self._beforeplay_or_none(view, legal)
        if view.get("burn_offer"):
            return (PASS, "never burns") if PASS in legal else (self._fallback(legal), "no choice")
        hand = C.parse_counts(view.get("hand") or "")
        if view.get("top") is None:
            return self._lead(view, hand, legal)
        return self._answer(view, hand, legal)

    # -- before play

    def _beforeplay_or_none(self, view: Mapping[str, Any], legal: Sequence[Action]) -> tuple[Action, str]:
        returns = [a for a in legal if str(a).startswith("return ")]
        if returns:
            return min(returns, key=_return_cost), "gives back the lowest cards"
        if PASS in legal:
            return PASS, "takes no optional decision"
        return self._fallback(legal), "the first choice offered"

    # -- leading

    def _lead(self, view: Mapping[str, Any], h: Sequence[int], legal: Sequence[Action]) -> tuple[Action, str]:
        bie_san = bool((view.get("rule_options") or {}).get("bie_san"))
        naturals = [r for r in range(THREE, ACE + 1) if h[r]]
        ctrl = (h[TWO], h[SMALL], h[BIG])
        if len(naturals) <= 1:  # the whole hand may be one play
            r = naturals[0] if naturals else NO_RANK
            whole = play_or_none(r, h[r] if naturals else 0, *ctrl)
            if whole is not None and whole in legal:
                return whole, "goes out"
        order = [r for r in naturals if not (bie_san and r == THREE)] + ([THREE] if bie_san and h[THREE] else [])
        for r in order:
            q = play_or_none(r, h[r])
            if q is not None and q in legal:
                return q, "leads its lowest cards"
        q = play_or_none(NO_RANK, 0, *ctrl)
        if q is not None and q in legal:
            return q, "leads its 2s and jokers"
        plays = [a for a in legal if isinstance(a, Play)] if len(legal) <= 4096 else []
        if plays:
            best = min(plays, key=lambda p: (_control(p), p.value, -p.size))
            return best, "leads the lowest play it may"
        return self._fallback(legal), "the first choice offered"

    # -- answering

    def _answer(self, view: Mapping[str, Any], h: Sequence[int], legal: Sequence[Action]) -> tuple[Action, str]:
        seat = int(view["seat"])
        top_seat = view.get("top_seat")
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return self._fallback(legal), "cannot beat it"
        total = sum(h)
        for q in plays:
            if q.size == total:
                return q, "goes out"
        if top_seat is not None and int(top_seat) % 2 == seat % 2:
            return self._fallback(legal), "lets a teammate's play stand"
        allowed = [q for q in plays if not _control(q) or total <= SPEND_CONTROL_AT]
        if not allowed:
            return self._fallback(legal), "keeps its 2s and jokers"
        best = min(allowed, key=lambda q: (_control(q), q.k < h[q.rank] if q.k else False, q.value, q.size))
        return best, "beats it as cheaply as it can"

    @staticmethod
    def _fallback(legal: Sequence[Action]) -> Action:
        if PASS in legal:
            return PASS
        for a in legal[:256]:
            if isinstance(a, Decision):
                return a
        return legal[0]


def _return_cost(action: Action) -> tuple[int, str]:
    """还贡: the lower the cards given back, the better (a text that does not parse sorts last)."""
    try:
        cards = C.parse_counts(str(action)[len("return ") :])
    except ValueError:
        return (1 << 30, str(action))
    return (sum(n * (r + 1) for r, n in enumerate(cards)), str(action))


__all__ = ["SPEND_CONTROL_AT", "NoviceBot"]
