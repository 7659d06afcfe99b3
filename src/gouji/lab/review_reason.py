"""Why a better play of the 复盘 review is better: what it changes, where that is known.

For a mistake (:mod:`gouji.lab.review`), the played action and the best one are each taken from the true
position and the deal is played to its end by the heuristic in every seat — the very lines whose results the
review compared.  The two lines are then compared, first where they part:

- ``lead``: the trick the decision belongs to is won by the seat's team on the better line (the next lead is
  the seat's own, ``by`` the seat, or a teammate's) and by the other team on the played one;
- ``burn``: on the played line the seat's play is burnt (烧) by an opponent before the trick ends, on the
  better line not;
- ``mate``: a teammate finishes higher on the better line (``mate`` the seat, ``place`` and ``was`` the places,
  0 头科 … 5 大落);
- ``place``: the seat itself finishes higher (``place``, ``was``);
- ``points``: none of these — the points alone (``gain`` and ``unit`` are in every reason).

A reason is ``{"code", "params"}``, the page words it in its language (``review_r_<code>`` in
``static/texts``).  Like the review, it is hindsight: both lines assume the heuristic plays on.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from ..engine.actions import parse_action
from ..engine.deal import Deal
from ..engine.seats import team
from .lookahead import Lookahead

CODES = ("lead", "burn", "mate", "place", "points")
"""Every reason's code, most immediate first."""


def line(position: Deal, action: str, la: Lookahead) -> Deal:
    """``position`` (left unchanged) with ``action`` taken by the seat to act, played to the end by the policy."""
    deal = copy.deepcopy(position)
    deal.act(parse_action(action))
    while deal.to_act is not None:
        deal.act(la.choice(deal))
    return deal


def _after(deal: Deal, start: int) -> list[dict[str, Any]]:
    """The events from ``start`` up to the end of the trick under way (its ``round`` event included)."""
    out = []
    for e in deal.events[start:]:
        out.append(e)
        if e["type"] in ("round", "end"):
            break
    return out


def _next_leader(events: list[dict[str, Any]]) -> int | None:
    for e in events:
        if e["type"] == "round":
            return int(e["leader"])
    return None


def _burnt(events: list[dict[str, Any]], seat: int) -> bool:
    return any(e["type"] == "burn" and e.get("burned") == seat and team(e["seat"]) != team(seat) for e in events)


def explain(
    position: Deal, seat: int, played: str, best: str, gain: int, unit: str, la: Lookahead | None = None
) -> dict[str, Any]:
    """What ``best`` changes against ``played`` for ``seat`` to act in ``position`` (left unchanged)."""
    la = la if la is not None else Lookahead()
    start = len(position.events)
    worse, better = line(position, played, la), line(position, best, la)
    base = {"gain": gain, "unit": unit, "best": best, "played": played}
    in_play = position.phase == "play"
    if in_play:
        w, b = _after(worse, start), _after(better, start)
        lw, lb = _next_leader(w), _next_leader(b)
        if lb is not None and lw is not None and team(lb) == team(seat) != team(lw):
            return {"code": "lead", "params": {**base, "by": lb}}
        if _burnt(w, seat) and not _burnt(b, seat):
            return {"code": "burn", "params": base}
    pw, pb = worse.result()["places"], better.result()["places"]
    for mate in (seat + 2) % 6, (seat + 4) % 6:
        if pb.index(mate) < pw.index(mate):
            return {"code": "mate", "params": {**base, "mate": mate, "place": pb.index(mate), "was": pw.index(mate)}}
    if pb.index(seat) < pw.index(seat):
        return {"code": "place", "params": {**base, "place": pb.index(seat), "was": pw.index(seat)}}
    return {"code": "points", "params": base}


def positions(recorded: Deal) -> Iterator[tuple[int, Deal]]:
    """The recorded deal's positions before each decision: (its number, 1-based; the deal then) — one deal
    walked forward, so a caller that keeps one must copy it."""
    deal = Deal.from_deal_event(recorded.events[0])
    for index, e in enumerate((e for e in recorded.events if e["type"] == "act"), 1):
        yield index, deal
        deal.act(e["action"], seat=e["seat"])


def with_reasons(
    recorded: Deal, seat: int, decisions: Iterator[Mapping[str, Any]], unit: str
) -> Iterator[dict[str, Any]]:
    """The review's decisions (in order) with a ``reason`` added to each mistake (:func:`explain`)."""
    walk = positions(recorded)
    la = Lookahead()
    at, deal = next(walk, (0, None))
    for d in decisions:
        out = dict(d)
        while at < d["index"]:
            at, deal = next(walk)
        if out["mistake"] and deal is not None:
            out["reason"] = explain(deal, seat, out["played"], out["best"], out["gain"], unit, la)
        yield out


__all__ = ["CODES", "explain", "line", "positions", "with_reasons"]
