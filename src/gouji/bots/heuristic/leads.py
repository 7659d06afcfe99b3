"""Leading: going out, 开点, the endgame of 憋三, chaining out with sure plays, the lowest group naked."""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.actions import (
    Action,
)
from ...engine.plays import NO_RANK, Play, play_or_none
from ...engine.seats import SEATS
from ..reasons import Reason
from ..reasons import reason as R
from .burns import _burn_lead
from .context import _CLOSE, _Ctx
from .hands import (
    BIG,
    FOUR,
    NAMES,
    SMALL,
    THREE,
    TWO,
    _fallback,
    _groups,
    _minus,
    _only_threes,
    _pct,
    _plays_needed,
    _whole,
)


def _lead(c: _Ctx, legal: Sequence[Action]) -> tuple[Action, Reason]:
    h = c.hand
    p = c.p
    if c.burning:
        return _burn_lead(c, legal)
    whole = _whole(h, c.bie_san)
    if whole is not None and whole in legal:
        return whole, R("lead_out", play=str(whole))
    groups = _groups(h, c.bie_san)
    threes = c.bie_san and h[THREE] > 0

    # 开点发4: the opening stood; now the 4 completes it
    if groups and groups[0] == FOUR and c.pending_open():
        single = c.rules.kaidian_four_single
        q = Play.of(FOUR, 1 if single else h[FOUR])
        if q in legal:
            return q, R("open_four", play=str(q))

    # 憋三: the play before the 3s must stand
    if threes and len(groups) <= 3:
        got = _lead_before_threes(c, legal, groups)
        if got is not None:
            return got

    # chain out: plays that surely stand carry all but the last one
    got = _chain(c, legal, groups, threes)
    if got is not None:
        return got

    # two plays left: lead the one that stands, keep the other to go out with
    if not threes and len(groups) == 2:
        best: tuple[float, Play] | None = None
        for r in groups:
            q = Play.of(r, h[r], h[TWO], h[SMALL], h[BIG])
            sp = c.stand(q, True)
            if best is None or sp > best[0]:
                best = (sp, q)
        if best is not None and best[1] in legal:
            other = next(r for r in groups if r != best[1].rank)
            return best[1], R("last_two", play=str(best[1]), stand=_pct(best[0]), keep=NAMES[other])

    # 开点: a pure gouji play that will likely stand
    keep_fours = False
    if c.can_open() and not c.ffa:
        needs_four = c.rules.kaidian_needs_four
        if not needs_four or h[FOUR]:
            best_open: tuple[float, Play] | None = None
            for r in groups:
                q = Play.of(r, h[r])
                if c.opens(q):
                    sp = c.stand(q, True)
                    if best_open is None or sp > best_open[0] or (sp == best_open[0] and r < best_open[1].rank):
                        best_open = (sp, q)
            if best_open is not None:
                keep_fours = needs_four
                if best_open[0] >= p.open_min and best_open[1] in legal and len(groups) > 1:
                    q = best_open[1]
                    return q, R("open", play=str(q), stand=_pct(best_open[0]))

    # the lowest group, naked: keep the control cards for later
    order = [r for r in groups if not (keep_fours and r == FOUR and len(groups) > 1)] or groups
    feed: dict[int, str] = {}  # play sizes that would let a player with that many cards go out
    if p.feed_guard and (not c.bie_san or p.feed_guard > 1):
        keep3 = 1 if c.bie_san else 0  # under 憋三 a player's last cards include a 3
        for s in range(SEATS):
            n = round(c.counts[s]) - keep3
            if s != c.seat and c.in_play[s] and 0 < n <= 4:
                feed.setdefault(n, "mate" if c.mate(s) else "opp")
        if feed:
            order.sort(key=lambda r: {"opp": 2, "mate": 0}.get(feed.get(h[r], ""), 1))
    for r in order:
        q = Play.of(r, h[r])
        if q in legal:
            rest = _minus(h, q)
            if c.bie_san and _only_threes(rest) and c.stand(q, True) < 0.5:
                continue
            size = feed.get(h[r])
            mate_n = h[r] if size == "mate" else 0
            opp_n = h[groups[0]] if not mate_n and r != groups[0] and feed.get(h[groups[0]]) == "opp" else 0
            keep = []
            if h[BIG] or h[SMALL]:
                keep.append("jokers")
            if h[TWO]:
                keep.append("twos")
            return q, R("lead_low", play=str(q), lowest=r == groups[0], mate_n=mate_n, opp_n=opp_n, keep=keep)
    if h[TWO] or h[SMALL] or h[BIG]:
        q2 = play_or_none(NO_RANK, 0, h[TWO], h[SMALL], h[BIG])
        if q2 is not None and q2 in legal:
            return q2, R("lead_control", play=str(q2))
    return _fallback(legal), R("safe")


def _anchors(c: _Ctx, h: Sequence[int]) -> list[tuple[float, int, int, Play]]:
    """Plays that could be the last one before the 3s: (chance to stand, size, value, play), safest
    first, then the biggest (it takes more cards out with it) and the highest (the low ones lead)."""
    t, x, d = h[TWO], h[SMALL], h[BIG]
    out: list[tuple[float, int, int, Play]] = []
    cands: list[Play | None] = []
    for r in _groups(h, True):
        cands.append(play_or_none(r, h[r], t, x, d))
        if d and (t or x):
            cands.append(play_or_none(r, h[r], 0, 0, d))
    if t or x or d:
        cands.append(play_or_none(NO_RANK, 0, t, x, d))
        if d and (t or x):
            cands.append(play_or_none(NO_RANK, 0, 0, 0, d))
    for q in cands:
        if q is not None:
            out.append((round(c.stand(q, True, final=False), 2), q.size, q.value, q))
    out.sort(key=lambda a: a[:3], reverse=True)
    return out


def _danger(c: _Ctx, h: Sequence[int]) -> float:
    """憋三: the cost of a hand whose last play before the 3s may be beaten (闷), near the end."""
    if not c.bie_san or not h[THREE]:
        return 0.0
    n = _plays_needed(h, True) - 1
    close = _CLOSE.get(n, 0.0)
    if not close:
        return 0.0
    anchors = _anchors(c, h)
    best = anchors[0][0] if anchors else 0.0
    return c.p.smother * close * (1.0 - best)


def _lead_before_threes(c: _Ctx, legal: Sequence[Action], groups: list[int]) -> tuple[Action, Reason] | None:
    """憋三 endgame: reserve the safest play as the last one before the 3s; lead the rest first."""
    h = c.hand
    anchors = _anchors(c, h)
    if not anchors:
        return None
    sp, _, _, anchor = anchors[0]
    rest = _minus(h, anchor)
    rest[THREE] = 0
    if not any(rest):
        if anchor in legal:
            return anchor, R("anchor", play=str(anchor), stand=_pct(sp))
        return None
    # lead from the rest: its lowest group naked, or its control cards
    rg = _groups(rest, True)
    if rg:
        q = Play.of(rg[0], rest[rg[0]])
    else:
        q2 = play_or_none(NO_RANK, 0, rest[TWO], rest[SMALL], rest[BIG])
        if q2 is None:
            return None
        q = q2
    if q in legal:
        return q, R("keep_anchor", play=str(q), anchor=str(anchor))
    return None


def _chain(c: _Ctx, legal: Sequence[Action], groups: list[int], threes: bool) -> tuple[Action, Reason] | None:
    """Lead out when plays that surely stand (naturally, or with a big joker) carry all but the last."""
    h = c.hand
    if not groups:
        return None
    sure: list[int] = []
    unsure: list[int] = []
    for r in groups:
        (sure if c.stand(Play.of(r, h[r]), True) >= c.p.chain_sure else unsure).append(r)
    # every unsure play must stand but the last one (under 憋三 the 3s are the last one)
    need = max(0, len(unsure) - (0 if threes else 1))
    if need > (0 if c.kill else h[BIG]):
        return None
    if sure:
        q = Play.of(sure[0], h[sure[0]])  # a naturally safe play first: keep the big jokers
        if q in legal:
            return q, R("chain_sure", play=str(q))
    elif need:
        q = Play.of(unsure[0], h[unsure[0]], 0, 0, 1)
        if q in legal:
            return q, R("chain_joker", play=str(q))
    return None
