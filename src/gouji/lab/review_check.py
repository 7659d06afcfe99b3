"""Does the 复盘 review mean something?  The novice against the heuristic, reviewed.

In each seeded deal the ``novice`` bot plays one team's three seats and the heuristic the other's (the
novice's team alternates with the seed); the deal is played out, and the review (:mod:`gouji.lab.review`)
is run for seats of both teams.  A review that means something finds more mistakes, and more points lost,
for the novice's seats than for the heuristic's: :func:`compare` gives the per-deal difference (novice less
heuristic, each the mean over its team's reviewed seats) with its mean and 95% interval.

The figures of ``docs/review.md`` come from ``benchmarks/bench_review.py --novice``; the unit test runs a
few deals of it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import HeuristicBot, NoviceBot, play_deal
from ..engine.deal import Deal
from ..engine.seats import SEATS, team
from .lookahead import DEFAULT_LIMIT
from .review import review_deal


@dataclass(frozen=True)
class DealCheck:
    """One deal's reviews: per team (novice, heuristic), the mean over its reviewed seats."""

    seed: int
    mistakes: tuple[float, float]
    lost: tuple[float, float]
    decisions: tuple[float, float]


def check_deal(
    rules: str, seed: int, seats: Sequence[int] = tuple(range(SEATS)), limit: int = DEFAULT_LIMIT
) -> DealCheck:
    """Play deal ``seed`` of ``rules`` with the novice in team ``seed % 2``'s seats, review ``seats`` (with
    at most ``limit`` candidates a decision)."""
    side = seed % 2
    novice, heuristic = NoviceBot(), HeuristicBot()
    deal = play_deal(
        Deal.new(rules, seed=seed), [novice if team(s) == side else heuristic for s in range(SEATS)], random.Random(0)
    )
    sums: dict[str, list[list[float]]] = {"mistakes": [[], []], "lost": [[], []], "decisions": [[], []]}
    for s in seats:
        r = review_deal(deal, s, limit=limit)
        i = 0 if team(s) == side else 1
        sums["mistakes"][i].append(r["mistakes"])
        sums["lost"][i].append(r["lost"])
        sums["decisions"][i].append(len(r["decisions"]))

    def pair(name: str) -> tuple[float, float]:
        a, b = sums[name]
        return (sum(a) / max(1, len(a)), sum(b) / max(1, len(b)))

    return DealCheck(seed, pair("mistakes"), pair("lost"), pair("decisions"))


def _one(args: tuple[str, int, tuple[int, ...], int]) -> DealCheck:
    return check_deal(*args)


def check_deals(
    rules: str,
    seeds: Iterable[int],
    jobs: int = 1,
    seats: Sequence[int] = tuple(range(SEATS)),
    limit: int = DEFAULT_LIMIT,
) -> list[DealCheck]:
    """:func:`check_deal` for each seed, in ``jobs`` processes."""
    work = [(rules, s, tuple(seats), limit) for s in seeds]
    if jobs <= 1:
        return [_one(w) for w in work]
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(jobs) as pool:
        return pool.map(_one, work, chunksize=1)


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    n = len(xs)
    if n == 0:
        return (0.0, 0.0)
    m = sum(xs) / n
    if n < 2:
        return (m, math.inf)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return (m, 1.96 * math.sqrt(var / n))


def compare(checks: Sequence[DealCheck]) -> dict[str, Any]:
    """The novice's and the heuristic's means a seat a deal, and the paired margin (novice less
    heuristic) with its 95% interval, for mistakes and for points lost; also how many deals had the
    novice's seats worse, better, level."""
    out: dict[str, Any] = {"deals": len(checks)}
    per: dict[str, list[tuple[float, float]]] = {
        name: [getattr(c, name) for c in checks] for name in ("mistakes", "lost", "decisions")
    }
    for name in ("mistakes", "lost"):  # a decision: the novice takes more decisions than the heuristic
        per[f"{name}_per_decision"] = [
            (m[0] / max(d[0], 1), m[1] / max(d[1], 1)) for m, d in zip(per[name], per["decisions"], strict=True)
        ]
    for name, rows in per.items():
        diff = [a - b for a, b in rows]
        m, ci = mean_ci(diff)
        out[name] = {
            "novice": sum(a for a, _ in rows) / max(1, len(rows)),
            "heuristic": sum(b for _, b in rows) / max(1, len(rows)),
            "margin": m,
            "ci": ci,
            "worse": sum(1 for d in diff if d > 0),
            "better": sum(1 for d in diff if d < 0),
        }
    return out


__all__ = ["DealCheck", "check_deal", "check_deals", "compare", "mean_ci"]
