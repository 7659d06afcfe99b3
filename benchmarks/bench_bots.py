"""How long a bot takes per decision: the median, p90, p99 and worst, on one core.

    .venv/bin/python benchmarks/bench_bots.py [--bot heuristic] [--rules qingdao] [--deals 100]

Plays --deals whole deals with the bot in every seat and times each ``decide`` call (the bot's own work,
from the seat's view and legal actions) with ``time.perf_counter``; building the view is timed apart.
The project's target: the heuristic bot at most 5 ms per decision at the median on one core.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import gouji
from gouji.bots import make_bot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--rules", default="qingdao")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = "pinned to one core"
    except (AttributeError, OSError):
        pinned = "not pinned"
    bot = make_bot(args.bot)
    rng = random.Random(args.seed)
    decide_ms: list[float] = []
    view_ms: list[float] = []
    cpu0 = time.process_time()
    wall0 = time.perf_counter()
    for i in range(args.deals):
        deal = gouji.Deal.new(args.rules, seed=f"bench-bots/{args.seed}/{i}")
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            t0 = time.perf_counter()
            view = deal.view(seat, log=bool(getattr(bot, "wants_log", False)))
            legal = deal.legal_actions()
            t1 = time.perf_counter()
            action = bot.decide(view, legal, rng)
            t2 = time.perf_counter()
            deal.act(action)
            view_ms.append((t1 - t0) * 1000)
            decide_ms.append((t2 - t1) * 1000)
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    q = statistics.quantiles(decide_ms, n=100)
    print(f"bot {args.bot!r}, rules {args.rules!r}, {args.deals} deals, {len(decide_ms)} decisions, {pinned}")
    print(
        f"decide: median {statistics.median(decide_ms):.3f} ms, p90 {q[89]:.3f} ms, p99 {q[98]:.3f} ms, "
        f"max {max(decide_ms):.3f} ms"
    )
    print(f"view + legal actions: median {statistics.median(view_ms):.3f} ms")
    print(f"cpu share of the run: {100 * cpu / wall:.0f}% (below ~95% the machine was busy and times are inflated)")
    print(f"target: median decide ≤ 5 ms — {'met' if statistics.median(decide_ms) <= 5 else 'NOT met'}")


if __name__ == "__main__":
    main()
