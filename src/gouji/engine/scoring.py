"""Scoring a finished deal (rule book §13).

- ``set`` scoring: each place scores ``place_points`` (头科 +4, 二科 +2, 三科 0, 四科 0, 二落 −2, 大落 −4 by
  default) and a team scores the sum of its three players.  A sweep (串三户) replaces that: every member of
  the sweeping team scores ``+sweep_points`` and every member of the other team ``−sweep_points``.
- ``base_points`` (基础分, 001 章丘 8) multiplies every point of set scoring: the stake.
- ``tournament`` scoring (比赛规则): places score 6, 5, 4, 3, 2, 1 small points; a team's small points are
  the sum of its players'; there is no sweep bonus.
"""

from __future__ import annotations

from .deal import Deal
from .rules import RuleSet
from .seats import SEATS, team

TOURNAMENT_POINTS = (6, 5, 4, 3, 2, 1)


def place_scores(rules: RuleSet) -> tuple[int, ...]:
    """Points for places 头科 … 大落 under ``rules``."""
    if rules.scoring == "tournament":
        return TOURNAMENT_POINTS
    return tuple(p * rules.base_points for p in rules.place_points)


def seat_points(rules: RuleSet, places: list[int], sweep: int | None) -> list[int]:
    """Each seat's points for a deal that ended with ``places`` (and ``sweep``, the sweeping team)."""
    points = [0] * SEATS
    if sweep is not None and rules.scoring == "set":
        for s in range(SEATS):
            stake = rules.sweep_points * rules.base_points
            points[s] = stake if team(s) == sweep else -stake
        return points
    scores = place_scores(rules)
    for place, s in enumerate(places):
        points[s] = scores[place]
    return points


def team_points(deal: Deal) -> tuple[int, int]:
    """(team 0, team 1) points of a finished deal."""
    if deal.places is None:
        raise ValueError("the deal is not over: it has no places yet")
    pts = seat_points(deal.rules, deal.places, deal.sweep)
    return (sum(pts[s] for s in range(0, SEATS, 2)), sum(pts[s] for s in range(1, SEATS, 2)))
