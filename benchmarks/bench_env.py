"""Speed of the learning environment against RLCard's DouDizhu environment, and of the Ray arena.

1. **Environment steps per second**, random legal play, one process pinned to one core:

   * gouji: ``e = gouji.env.env(rules)`` (and ``raw_env``, without PettingZoo's order-enforcing wrapper),
     the PettingZoo loop ``for agent in e.agent_iter(): obs, … , info =
     e.last(); e.step(a)`` — every ``last()`` builds the observation (the numbers of
     ``encode_state(Deal.view(seat))``, kept up to date step by step) and the action mask; ``a`` is drawn
     uniformly (``random.Random``, as for RLCard) from the legal indices the environment gives in
     ``info["legal_actions"]``.  One more row draws from the mask instead (``np.flatnonzero(mask.view(bool))``),
     as a policy that reads only the observation would.  A step is one decision of a deal (the dead steps
     at the end are not counted).
   * RLCard: ``e = rlcard.make("doudizhu")``; ``state, _ = e.reset()``, then ``state, _ = e.step(a)`` with
     ``a`` drawn from ``state["legal_actions"]`` — each step builds RLCard's encoded state (its 790-number
     ``obs``) for the next player.

   Both report steps per second of wall time and CPU time per step (the machine may be shared: the CPU
   figure is the one to trust when the wall-clock share is low), best and median of ``--repeat`` runs.
2. **Ray arena throughput**: the same duplicate pairs (``random`` against ``random``) with ``--jobs 2``
   (processes) and on two Ray actors of a local Ray instance, deals per second, and a check that both give
   the same outcome.  Ray's start-up is timed apart.

``python benchmarks/bench_env.py --help`` lists the options.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

TARGET = 5.0  # gouji env steps per second over RLCard's, per decision


@dataclass
class Run:
    steps: int
    wall: float
    cpu: float

    @property
    def rate(self) -> float:
        return self.steps / self.wall if self.wall else 0.0

    @property
    def cpu_us(self) -> float:
        return 1e6 * self.cpu / self.steps if self.steps else 0.0


def timed(loop: Callable[[], int], seconds: float) -> Run:
    """Run whole episodes of ``loop`` (it returns the steps it took) for about ``seconds``."""
    steps = 0
    c0, t0 = time.process_time(), time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        steps += loop()
    return Run(steps, time.perf_counter() - t0, time.process_time() - c0)


def gouji_episodes(rules: str, seed: int, wrapped: bool = True, from_mask: bool = False) -> Callable[[], int]:
    from gouji.env import env, raw_env

    e = env(rules, seed=seed) if wrapped else raw_env(rules, seed=seed)
    rng = random.Random(seed)  # as for RLCard below

    def episode() -> int:
        e.reset()
        steps = 0
        for _ in e.agent_iter():
            obs, _, term, trunc, info = e.last()  # builds the observation and the mask
            if term or trunc:
                e.step(None)
                continue
            # the legal indices the environment gives in infos, or scanned from the mask (as bool: 20× faster)
            legal = np.flatnonzero(obs["action_mask"].view(bool)) if from_mask else info["legal_actions"]
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps

    return episode


def rlcard_episodes(seed: int) -> Callable[[], int] | str:
    try:
        import rlcard
    except Exception as e:  # not installed: the gouji half still runs
        return f"rlcard not importable ({type(e).__name__}: {e}); `pip install -e '.[bench]'` adds it"
    env = rlcard.make("doudizhu", config={"seed": seed})
    rng = random.Random(seed)

    def episode() -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return episode


def pin() -> str:
    if hasattr(os, "sched_setaffinity"):
        cpu = sorted(os.sched_getaffinity(0))[-1]
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity here)"


def bench_steps(args: argparse.Namespace) -> None:
    print(f"Environment steps, random legal play, {pin()}; {args.repeat} × ~{args.seconds:g} s each")
    gouji_loop = gouji_episodes(args.rules, args.seed)
    raw_loop = gouji_episodes(args.rules, args.seed, wrapped=False)
    mask_loop = gouji_episodes(args.rules, args.seed, from_mask=True)
    rl = rlcard_episodes(args.seed)
    runs: dict[str, list[Run]] = {"gouji": [], "raw": [], "mask": [], "rlcard": []}
    gouji_loop()  # warm the caches (plays, catalogue) once
    for _ in range(args.repeat):
        runs["gouji"].append(timed(gouji_loop, args.seconds))
        runs["raw"].append(timed(raw_loop, args.seconds))
        runs["mask"].append(timed(mask_loop, args.seconds))
        if not isinstance(rl, str):
            runs["rlcard"].append(timed(rl, args.seconds))
    print("  the random policy draws from info['legal_actions'] (the last gouji row: from the mask)")
    rows = [
        (f"gouji env() ({args.rules}), PettingZoo AEC", runs["gouji"]),
        ("gouji raw_env() (no order wrapper)", runs["raw"]),
        ("gouji env(), policy scans the mask", runs["mask"]),
    ]
    if isinstance(rl, str):
        print(f"  RLCard: {rl}")
    else:
        rows.append(("RLCard doudizhu env", runs["rlcard"]))
    print(f"  {'':38} {'steps/s best':>13} {'median':>9} {'CPU µs/step':>12} {'CPU share':>10}")
    for name, rs in rows:
        best = max(rs, key=lambda r: r.rate)
        share = sum(r.cpu for r in rs) / sum(r.wall for r in rs)
        med = statistics.median(r.rate for r in rs)
        cpu_us = statistics.median(r.cpu_us for r in rs)
        print(f"  {name:38} {best.rate:13,.0f} {med:9,.0f} {cpu_us:12.1f} {share:10.0%}")
    if not isinstance(rl, str):
        wall = max(r.rate for r in runs["gouji"]) / max(r.rate for r in runs["rlcard"])
        cpu = statistics.median(r.cpu_us for r in runs["rlcard"]) / statistics.median(r.cpu_us for r in runs["gouji"])
        verdict = "meets" if min(wall, cpu) >= TARGET else "MISSES"
        print(
            f"  gouji env() / RLCard per step: {wall:.2f}× (best wall), {cpu:.2f}× (CPU time): "
            f"{verdict} the {TARGET:g}× target"
        )


def bench_ray(args: argparse.Namespace) -> None:
    from gouji.lab.arena import run_arena
    from gouji.lab.distributed import LOCAL

    try:
        import ray
    except ImportError as e:
        print(f"Ray arena: skipped, Ray is not installed ({e}); `pip install -e '.[rl]'` adds it")
        return
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))  # the workers need both cores
    print(f"\nArena throughput: {args.pairs} duplicate pairs of random vs random on {args.rules}, 2 workers")
    t0 = time.perf_counter()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    print(f"  local Ray instance started in {time.perf_counter() - t0:.1f} s (not counted below)")
    results: dict[str, Any] = {}
    try:
        for _ in range(args.repeat):
            for name, kw in (("--jobs 2", {"jobs": 2}), ("--ray, 2 actors", {"jobs": 2, "ray": LOCAL})):
                r = run_arena("random", "random", args.rules, args.pairs, args.seed, **kw)
                prev = results.get(name)
                if prev is None or r.seconds < prev.seconds:
                    results[name] = r
    finally:
        ray.shutdown()
    for name, r in results.items():
        print(f"  {name:16} {r.deals_per_second:8,.0f} deals/s (best of {args.repeat}, {r.seconds:.2f} s)")
    outcomes = [r.outcome() for r in results.values()]
    print(f"  same outcome on both: {'yes' if outcomes[0] == outcomes[1] else 'NO'}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="qingdao", help="gouji rule preset (default qingdao)")
    p.add_argument("--seconds", type=float, default=5.0, help="wall time per repetition (default 5)")
    p.add_argument("--repeat", type=int, default=3, help="repetitions per measurement (default 3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pairs", type=int, default=200, help="duplicate pairs in the arena measurement (default 200)")
    p.add_argument("--no-ray", action="store_true", help="skip the Ray arena measurement")
    args = p.parse_args(argv)
    bench_steps(args)
    if not args.no_ray:
        bench_ray(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
