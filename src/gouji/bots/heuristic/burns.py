"""Burning (烧牌): when to take a burn offer, and how a burner leads."""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.actions import (
    PASS,
    Action,
    Burn,
)
from ...engine.plays import NO_RANK, play_or_none
from ..reasons import Reason
from ..reasons import reason as R
from .context import _Ctx
from .hands import (
    BIG,
    SMALL,
    THREE,
    TWO,
    _fallback,
    _groups,
    _minus,
    _whole,
)


def _burn_ok(c: _Ctx, rest: Sequence[int]) -> tuple[bool, bool]:
    """Whether a burner left with ``rest`` can put a joker in every play but the last (and whether
    the big jokers make every such play certain)."""
    if not any(rest):
        return True, True
    groups = _groups(rest, c.bie_san)
    threes = c.bie_san and rest[THREE] > 0
    jokers = rest[SMALL] + rest[BIG]
    if threes:
        non_final = len(groups) if groups else (1 if rest[TWO] or jokers else 0)
    else:
        if len(groups) <= 1:
            return True, True
        non_final = len(groups) - 1
    ok = jokers >= non_final
    sure = ok and not c.kill and rest[BIG] >= non_final
    return ok, sure


def _burn(c: _Ctx, legal: Sequence[Action]) -> tuple[Action, Reason]:
    burns = [a for a in legal if isinstance(a, Burn)]
    top = c.top
    if not burns or top is None:
        return PASS, R("pass", why="no_burn")
    mate = c.mate(c.top_seat)
    best: tuple[tuple[int, int, int, float], Burn, bool] | None = None
    total = sum(c.hand)
    for b in burns:
        q = b.play
        rest = _minus(c.hand, q)
        if q.size == total:
            return b, R("burn_out", top=str(top), play=str(q))
        ok, sure = _burn_ok(c, rest)
        if not ok or (mate and not sure):
            continue
        key = (0 if sure else 1, q.x + q.d, q.t, -(q.value if q.k else 0))
        if best is None or key < best[0]:
            best = (key, b, sure)
    if best is None:
        if not (c.hand[SMALL] or c.hand[BIG]):
            return PASS, R("pass", why="no_jokers")
        if mate:
            return PASS, R("pass", why="mate_stands")
        return PASS, R("pass", why="few_jokers")
    b = best[1]
    return b, R("burn", top=str(top), play=str(b.play), sure=best[2])


def _burn_lead(c: _Ctx, legal: Sequence[Action]) -> tuple[Action, Reason]:
    """Burning: every play but the last carries a joker — small ones first, the big one last."""
    h = c.hand
    whole = _whole(h, c.bie_san)
    if whole is not None and whole in legal:
        return whole, R("burn_lead_out", play=str(whole))
    groups = _groups(h, c.bie_san)
    threes = c.bie_san and h[THREE] > 0
    x, d = h[SMALL], h[BIG]
    if threes and len(groups) <= 1:
        r = groups[0] if groups else NO_RANK
        q = play_or_none(r, h[r] if groups else 0, h[TWO], x, d)
        if q is not None and q in legal:
            return q, R("burn_lead_threes", play=str(q))
    if groups:
        r = groups[0]
        remaining = len(groups) - 1 if not threes else len(groups)
        use_x = x > 0 and (d == 0 or d >= remaining or not c.bie_san or remaining > 1)
        q = play_or_none(r, h[r], 0, 1, 0) if use_x else play_or_none(r, h[r], 0, 0, 1 if d else 0)
        if q is not None and q.has_joker and q in legal:
            return q, R("burn_lead_joker", play=str(q))
    q = play_or_none(NO_RANK, 0, h[TWO], x, d)
    if q is not None and q.has_joker and q in legal:
        return q, R("burn_lead_control", play=str(q))
    # No joker left and more than one play: whatever is led breaks the burn (诈烧).  Lead the strongest
    # play (the biggest group with every 2), the one the opponents find hardest to beat, and say so.
    if groups:
        r = max(groups, key=lambda g: (h[g], g))
        q = play_or_none(r, h[r], h[TWO])
    if q is not None and q in legal:
        return q, R("burn_lost", play=str(q))
    action = _fallback(legal)
    return action, R("burn_lost", play=str(action))
