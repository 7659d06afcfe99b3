"""Answering a play: each answer scored, or pass / yield (让牌)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.actions import (
    PASS,
    YIELD,
    Action,
)
from ...engine.plays import Play
from ...engine.seats import SEATS
from ..reasons import Reason
from ..reasons import reason as R
from .context import _Ctx
from .hands import (
    BIG,
    SMALL,
    TWO,
    _fallback,
    _groups,
    _minus,
    _only_threes,
    _pct,
    _plays_needed,
)
from .leads import _danger


def _respond(c: _Ctx, legal: Sequence[Action]) -> tuple[Action, Reason]:
    p = c.p
    h = c.hand
    top = c.top
    assert top is not None
    can_yield = YIELD in legal
    plays = [a for a in legal if isinstance(a, Play)]
    if c.burning:
        plays = [q for q in plays if q.has_joker or q.size == sum(h)]
    if not plays:
        return _no_play(c, legal, can_yield, "nothing_beats")
    owner = c.owner()
    mate = c.mate(owner) and owner != c.seat
    top_in = 0 <= c.top_seat < SEATS and c.in_play[c.top_seat]
    threes_risk = c.only_threes_left(c.top_seat) if top_in else 0.0
    if mate and (threes_risk >= 0.1 or (c.bie_san and top_in and c.counts[c.top_seat] <= 4)):
        return _no_play(c, legal, can_yield, "mate_threes")
    total = sum(h)
    for q in plays:
        if q.size == total:
            return q, R("go_out", play=str(q))
    n_ctrl = h[TWO] + h[SMALL] + h[BIG]
    before = _plays_needed(h, c.bie_san)
    groups = len(_groups(h, c.bie_san))
    scarce = 1.0 if n_ctrl < groups else p.scarce
    mates_after = _mates_after(c)
    opp_n = c.counts[owner] if not mate else 99.0
    urgency = p.urgency if opp_n <= 6 else 1.0
    deny = 0.0 if mate else p.deny * urgency * (p.mates_after_deny if mates_after else 1.0)
    smother_gain = 0.0 if mate else p.smother * threes_risk
    danger0 = _danger(c, h)

    def spent(q: Play) -> float:
        return scarce * (q.t * p.cost_two + q.x * p.cost_small + q.d * p.cost_big)

    def cheap(q: Play) -> float:
        return spent(q) + (0.3 if q.k and q.k < h[q.rank] else 0.0)

    cands = sorted(plays, key=lambda q: (cheap(q), q.value, q.size))[:8]
    best: tuple[float, Play, float, float] | None = None
    for q in cands:
        after = _minus(h, q)
        dg = before - _plays_needed(after, c.bie_san)
        shed = p.split
        if dg > 0:
            shed = 1.0 - p.keep_high * max(0, q.rank - 6) if q.k else p.shed_control
        sp = c.stand(q, False)
        score = shed + sp * (p.lead_value + deny) - spent(q) + smother_gain
        risk = 0.0  # what it does to the last play before the 3s (憋三)
        if c.bie_san and _only_threes(after):
            risk = p.smother * (2.0 * sp - 1.0)
        elif danger0 or c.bie_san:
            risk = danger0 - _danger(c, after)
        score += risk
        if mate:
            score -= p.mate_penalty
        if best is None or score > best[0]:
            best = (score, q, sp, risk)
    assert best is not None
    score, q, sp, risk = best
    floor = p.yield_value if can_yield else 0.0
    if score > floor:
        stand = _pct(sp)
        if mate:
            return q, R("over_mate", play=str(q), stand=stand)
        if smother_gain >= 0.5 * p.smother:
            return q, R("smother", seat=c.top_seat, top=str(top), play=str(q))
        if c.bie_san and _only_threes(_minus(h, q)):
            return q, R("threes_next", play=str(q), stand=stand)
        if top.gouji and c.top_seat == c.opp:
            return q, R("answer_opp", play=str(q), stand=stand)
        natural = not (q.t or q.x or q.d)
        return q, R("beat", seat=c.top_seat, top=str(top), play=str(q), natural=natural, stand=stand)
    if mate and not top_in:
        return _no_play(c, legal, can_yield, "mate_out", seat=c.top_seat)
    if mate:
        return _no_play(c, legal, can_yield, "mate_top")
    if risk < -0.5:
        why = "smother_risk" if _only_threes(_minus(h, q)) else "bie_san_risk"
        return _no_play(c, legal, can_yield, why, play=str(q))
    if top.gouji and c.top_seat == c.opp:
        return _no_play(c, legal, can_yield, "opp_gouji_cost", top=str(top))
    if not (q.t or q.x or q.d):
        return _no_play(c, legal, can_yield, "break_group", play=str(q))
    return _no_play(c, legal, can_yield, "control_cost", top=str(top))


def _mates_after(c: _Ctx) -> bool:
    """Whether a teammate may still answer the top play after me in this round."""
    top = c.top
    if top is None or c.ffa:
        return False
    if top.gouji and not c.headless[c.top_seat]:
        return any(
            c.headless[s] and c.in_play[s] and s not in c.passed for s in (c.seat + 2, c.seat + 4) for s in [s % SEATS]
        )
    for s in ((c.seat + 2) % SEATS, (c.seat + 4) % SEATS):
        if c.in_play[s] and s not in c.passed and s != c.top_seat:
            return True
    return False


def _no_play(c: _Ctx, legal: Sequence[Action], can_yield: bool, why: str, **params: Any) -> tuple[Action, Reason]:
    if can_yield:
        return YIELD, R("yield", why=why, **params)
    if PASS in legal:
        return PASS, R("pass", why=why, **params)
    return _fallback(legal), R("safe")
