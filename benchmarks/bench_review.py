"""How long the 复盘 review of one seat in one deal takes, and whether its figures mean something.

    .venv/bin/python benchmarks/bench_review.py [--rules qingdao] [--deals 20] [--seed 1]
    .venv/bin/python benchmarks/bench_review.py --novice 200 [--rules qingdao] [--seed 1] [--jobs 2]

Speed (the default): ``--deals`` deals played by the ``novice`` in one team's seats and the heuristic in the
other's (the novice's team alternates with the seed), each reviewed for seat 0 (:func:`gouji.lab.review.review_deal`)
on one core; prints the median, the spread and the slowest seconds a review, the rollouts a review and the
milliseconds a rollout.  Target (issue 44): a median of at most 20 s.

``--novice N``: the honesty check of ``docs/review.md`` (:mod:`gouji.lab.review_check`): N such deals, every
seat reviewed (or ``--seats``), the novice's seats against the heuristic's — mistakes and points lost a seat a
deal, and the paired margin with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from gouji.bots import HeuristicBot, NoviceBot, play_deal
from gouji.engine.deal import Deal
from gouji.engine.seats import SEATS, team
from gouji.lab.lookahead import Lookahead
from gouji.lab.review import iter_review
from gouji.lab.review_check import check_deals, compare


def speed(rules: str, deals: int, seed: int) -> None:
    times: list[float] = []
    cpus: list[float] = []
    rollouts = steps = hits = 0
    for n in range(seed, seed + deals):
        side = n % 2
        bots = [NoviceBot() if team(s) == side else HeuristicBot() for s in range(SEATS)]
        deal = play_deal(Deal.new(rules, seed=n), bots, random.Random(0))
        la = Lookahead()
        t, c = time.perf_counter(), time.process_time()
        for _ in iter_review(deal, 0, lookahead=la):
            pass
        times.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
        rollouts += la.rollouts
        steps += la.steps
        hits += la.hits
    q = statistics.quantiles(times, n=10)
    cpu = sum(cpus)
    print(f"review of seat 0, {rules}, {deals} deals (seeds {seed}..{seed + deals - 1}), novice vs heuristic:")
    print(
        f"  seconds a review (wall): median {statistics.median(times):.2f}, p10 {q[0]:.2f}, p90 {q[-1]:.2f}, "
        f"slowest {max(times):.2f}; CPU seconds: median {statistics.median(cpus):.2f}, slowest {max(cpus):.2f}"
    )
    played = rollouts - hits
    print(
        f"  rollouts a review {rollouts / deals:.0f}, {100 * hits / max(1, rollouts):.0f}% answered at once from "
        f"the cache; {1000 * cpu / max(1, played):.1f} ms CPU a rollout played, "
        f"{steps / max(1, played):.0f} decisions a rollout played"
    )


def novice(rules: str, deals: int, seed: int, jobs: int, seats: tuple[int, ...]) -> None:
    t = time.perf_counter()
    checks = check_deals(rules, range(seed, seed + deals), jobs=jobs, seats=seats)
    out = compare(checks)
    out.update(
        {"rules": rules, "seeds": [seed, seed + deals - 1], "seats": seats, "seconds": round(time.perf_counter() - t)}
    )
    print(json.dumps(out, indent=1))
    for name in ("mistakes", "lost", "decisions", "mistakes_per_decision", "lost_per_decision"):
        r = out[name]
        print(
            f"{name:21s} a seat a deal: novice {r['novice']:.3f}, heuristic {r['heuristic']:.3f}; "
            f"margin {r['margin']:+.3f} ± {r['ci']:.3f} (95%); novice worse in {r['worse']}, better in {r['better']} "
            f"of {deals} deals"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="qingdao")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--novice", type=int, default=0, help="run the honesty check on this many deals")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seats", default="0,1,2,3,4,5", help="--novice: the seats reviewed in each deal")
    args = parser.parse_args()
    if args.novice:
        novice(args.rules, args.novice, args.seed, args.jobs, tuple(int(s) for s in args.seats.split(",")))
    else:
        speed(args.rules, args.deals, args.seed)


if __name__ == "__main__":
    main()
