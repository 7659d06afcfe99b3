"""Speed of the gouji engine in random self-play, against RLCard's DouDizhu engine in the same run.

A *decision* is one ``legal_actions()`` plus one ``act()``: the seat to act is offered its legal actions,
one of them is drawn uniformly at random and taken.  The two engines are measured the same way:

* gouji: ``deal = gouji.Deal.new(rules, seed=i)`` for i = 0, 1, 2 …; each decision is
  ``la = deal.legal_actions(); deal.act(la[rng.randrange(len(la))])`` until the deal is over.
* RLCard: ``state, _ = game.init_game()`` on one ``DoudizhuGame``; each decision is
  ``acts = state["actions"]; state, _ = game.step(acts[rng.randrange(len(acts))])`` until
  ``game.is_over()``.  RLCard has no separate legal-actions call: ``step`` (and ``init_game``) compute
  the next seat's legal actions into ``state["actions"]``, so ``step`` is both halves of a decision.

Only the decision loop is timed for decisions per second; dealing (``Deal.new`` / ``init_game``) is
excluded there, but counted in the deals per second.  The process is pinned to one core when the OS
allows it.  Each engine runs ``--repeat`` times (alternating, so drift hits both alike) for about
``--seconds`` each; the best and the median repetition are reported.

Run ``python benchmarks/bench_engine.py --help`` for the options; see benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gouji

TARGET = 20_000  # decisions per second, from the issue
RATIO_TARGET = 7.0  # gouji's decisions per second over RLCard's, medians (issue 30's guard)
SHARED_CPU = 0.95  # below this share of CPU time in the loops, warn that the core was not ours alone
MAX_DECISIONS_PER_DEAL = 1_000_000  # a guard: a deal that never ends is an engine bug, not a long run


@dataclass
class Run:
    """One repetition of one engine."""

    decisions: int
    deals: int
    loop_seconds: float  # wall-clock time inside decision loops only
    wall_seconds: float  # including dealing
    loop_cpu: float  # CPU time of this process inside decision loops

    @property
    def cpu_share(self) -> float:
        """CPU time over wall time in the loops: below ~0.95 something else was using the core."""
        return self.loop_cpu / self.loop_seconds if self.loop_seconds else 0.0

    @property
    def rate(self) -> float:
        return self.decisions / self.loop_seconds if self.loop_seconds else 0.0

    @property
    def deal_rate(self) -> float:
        return self.deals / self.wall_seconds if self.wall_seconds else 0.0


# ---------------------------------------------------------------------------------------------- engines


def run_gouji(seconds: float, min_decisions: int | None, seed: int, rules: str) -> Run:
    """Random self-play on ``rules`` until the budget is spent (whole deals only)."""
    rng = random.Random(seed)
    randrange = rng.randrange
    new = gouji.Deal.new
    perf, cpu = time.perf_counter, time.process_time
    decisions = deals = 0
    loop = loop_cpu = 0.0
    start = perf()
    while True:
        deal = new(rules, seed=deals)
        c0, t0 = cpu(), perf()
        for _ in range(MAX_DECISIONS_PER_DEAL):
            if deal.is_over:
                break
            la = deal.legal_actions()
            deal.act(la[randrange(len(la))])
        else:
            raise RuntimeError(f"gouji deal seed={deals} did not end within {MAX_DECISIONS_PER_DEAL} decisions")
        loop += perf() - t0
        loop_cpu += cpu() - c0
        decisions += deal.decisions
        deals += 1
        if _done(perf() - start, decisions, seconds, min_decisions):
            break
    return Run(decisions, deals, loop, perf() - start, loop_cpu)


def load_rlcard() -> tuple[Any, str]:
    """RLCard's DoudizhuGame class (or None) and a line saying what was loaded or why not."""
    try:
        import numpy
        import rlcard
        from rlcard.games.doudizhu.game import DoudizhuGame
    except Exception as e:  # not installed, or broken: the gouji half still runs
        return None, f"rlcard not importable ({type(e).__name__}: {e}); `pip install -e '.[bench]'` adds it"
    version = getattr(rlcard, "__version__", "?")
    return DoudizhuGame, f"rlcard {version}, numpy {numpy.__version__}"


def run_rlcard(game_cls: Any, seconds: float, min_decisions: int | None, seed: int) -> Run:
    """RLCard DouDizhu random self-play, the same structure as :func:`run_gouji`."""
    import numpy as np

    rng = random.Random(seed)
    randrange = rng.randrange
    game = game_cls()
    game.np_random = np.random.RandomState(seed)  # init_game deals from game.np_random
    perf, cpu = time.perf_counter, time.process_time
    decisions = deals = 0
    loop = loop_cpu = 0.0
    start = perf()
    while True:
        state, _ = game.init_game()
        n = 0
        c0, t0 = cpu(), perf()
        for n in range(MAX_DECISIONS_PER_DEAL):  # noqa: B007 - n is the count of decisions taken
            if game.is_over():
                break
            acts = state["actions"]
            state, _ = game.step(acts[randrange(len(acts))])
        else:
            raise RuntimeError(f"rlcard deal {deals} did not end within {MAX_DECISIONS_PER_DEAL} decisions")
        loop += perf() - t0
        loop_cpu += cpu() - c0
        decisions += n
        deals += 1
        if _done(perf() - start, decisions, seconds, min_decisions):
            break
    return Run(decisions, deals, loop, perf() - start, loop_cpu)


def _done(elapsed: float, decisions: int, seconds: float, min_decisions: int | None) -> bool:
    if min_decisions is not None:
        return decisions >= min_decisions
    return elapsed >= seconds


# ---------------------------------------------------------------------------------------------- reporting


def pin_to_one_core(cpu: int | None = None) -> str:
    """Pin this process to one CPU (``cpu``, else the first it may use); say what happened."""
    try:
        allowed = os.sched_getaffinity(0)
        core = min(allowed) if cpu is None else cpu
        os.sched_setaffinity(0, {core})
    except (AttributeError, OSError, ValueError) as e:
        return f"not pinned ({type(e).__name__}); one thread all the same"
    return f"pinned to CPU {core} (of {len(allowed)} allowed)"


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def best(runs: list[Run]) -> Run:
    return max(runs, key=lambda r: r.rate)


def median_rate(runs: list[Run]) -> float:
    return statistics.median(r.rate for r in runs)


def median_cpu_rate(runs: list[Run]) -> float:
    return statistics.median(r.decisions / r.loop_cpu for r in runs if r.loop_cpu)


def print_table(results: dict[str, list[Run]]) -> None:
    head = (
        f"{'engine':<18} {'runs':>4} {'decisions':>11} {'loop s':>7} {'dec/s best':>11} {'dec/s median':>13}"
        f" {'µs/dec':>7} {'dec/deal':>9} {'deals/s':>8} {'cpu %':>6}"
    )
    print(head)
    print("-" * len(head))
    for name, runs in results.items():
        b = best(runs)
        med = median_rate(runs)
        print(
            f"{name:<18} {len(runs):>4} {b.decisions:>11,} {b.loop_seconds:>7.2f} {b.rate:>11,.0f} {med:>13,.0f}"
            f" {1e6 / med:>7.2f} {b.decisions / b.deals:>9.1f} {statistics.median(r.deal_rate for r in runs):>8,.1f}"
            f" {100 * min(r.cpu_share for r in runs):>6.1f}"
        )
    print(
        "decisions, loop s: the best run's; µs/dec: at the median rate; deals/s: median, dealing included;\n"
        "cpu %: lowest share of the loops' wall time this process spent on the CPU (100 = had the core to itself)"
    )


def verdict(ok: bool) -> str:
    return "yes" if ok else "NO"


# ---------------------------------------------------------------------------------------------- main


def profile_gouji(seconds: float, min_decisions: int | None, seed: int, rules: str, top: int, sort: str) -> None:
    print(f"profiling gouji random self-play on {rules!r} for ~{seconds:g} s (figures under cProfile are slower)")
    prof = cProfile.Profile()
    run = prof.runcall(run_gouji, seconds, min_decisions, seed, rules)
    print(f"{run.decisions:,} decisions in {run.deals:,} deals\n")
    pstats.Stats(prof, stream=sys.stdout).strip_dirs().sort_stats(sort).print_stats(top)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument(
        "--seconds", type=float, default=10.0, help="wall time per engine per repetition, dealing included (10)"
    )
    ap.add_argument("--repeat", type=int, default=3, help="repetitions of each engine (3)")
    ap.add_argument(
        "--decisions", type=int, default=None, help="run each repetition to at least this many decisions instead"
    )
    ap.add_argument("--rules", default="qingdao", help="gouji rule set (qingdao)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random players (1)")
    ap.add_argument("--engine", choices=("both", "gouji", "rlcard"), default="both", help="what to run (both)")
    ap.add_argument("--cpu", type=int, default=None, help="CPU to pin to (the first allowed)")
    ap.add_argument("--check", action="store_true", help="exit 1 unless the target and the ratio hold")
    ap.add_argument("--profile", action="store_true", help="profile gouji under cProfile instead of timing")
    ap.add_argument("--top", type=int, default=25, help="functions to list with --profile (25)")
    ap.add_argument("--sort", default="cumulative", help="pstats sort key with --profile (cumulative)")
    args = ap.parse_args(argv)
    if args.repeat < 1 or args.seconds <= 0 or (args.decisions is not None and args.decisions < 1):
        ap.error("--repeat, --seconds and --decisions must be positive")

    pinned = pin_to_one_core(args.cpu)
    print(f"python {platform.python_version()} ({platform.python_implementation()}), {cpu_name()}; {pinned}")
    print(f"gouji {getattr(gouji, '__version__', '?')}, rules {args.rules!r}")

    if args.profile:
        profile_gouji(args.seconds, args.decisions, args.seed, args.rules, args.top, args.sort)
        return 0

    game_cls = None
    if args.engine != "gouji":
        game_cls, note = load_rlcard()
        print(note)
    budget = f"≥{args.decisions:,} decisions" if args.decisions else f"~{args.seconds:g} s"
    print(f"{args.repeat} repetition(s) of {budget} per engine; a decision = legal actions + one random act\n")

    engines: list[tuple[str, Callable[[], Run]]] = []
    if args.engine != "rlcard":
        engines.append((f"gouji {args.rules}", lambda: run_gouji(args.seconds, args.decisions, args.seed, args.rules)))
    if game_cls is not None:
        engines.append(("rlcard doudizhu", lambda: run_rlcard(game_cls, args.seconds, args.decisions, args.seed)))
    results: dict[str, list[Run]] = {name: [] for name, _ in engines}
    for i in range(args.repeat):
        for name, fn in engines:  # alternate the engines so that drift (heat, neighbours) hits both alike
            run = fn()
            results[name].append(run)
            print(
                f"  run {i + 1}/{args.repeat} {name:<18} {run.decisions:>10,} decisions {run.rate:>10,.0f}/s"
                f"  (cpu {100 * run.cpu_share:.0f}%)",
                flush=True,
            )
    print()
    if not results:
        return 0
    print_table(results)
    print()

    ok = True
    gname = f"gouji {args.rules}"
    if gname in results:
        g = results[gname]
        hold = median_rate(g) >= TARGET
        ok &= hold
        print(
            f"target ≥ {TARGET:,} decisions/s (median): {verdict(hold)}"
            f" — median {median_rate(g):,.0f}, best {best(g).rate:,.0f}"
        )
        if "rlcard doudizhu" in results:
            rl = results["rlcard doudizhu"]
            ratio_med = median_rate(g) / median_rate(rl)
            ratio_best = best(g).rate / best(rl).rate
            hold = ratio_med >= RATIO_TARGET
            ok &= hold
            print(
                f"ratio gouji/rlcard per decision ≥ {RATIO_TARGET:g} (median): {verdict(hold)}"
                f" — median {ratio_med:.2f}×, best {ratio_best:.2f}×"
            )
            if min(x.cpu_share for x in g + rl) < SHARED_CPU:
                print(f"  per CPU-second instead (medians): {median_cpu_rate(g) / median_cpu_rate(rl):.2f}×")
        elif args.engine == "both":
            print("ratio gouji/rlcard: not measured (rlcard missing, see above)")
    shared = min(x.cpu_share for runs in results.values() for x in runs)
    if shared < SHARED_CPU:
        print(
            f"\nnote: the core was shared with other work (cpu share down to {100 * shared:.0f}%), so the wall-clock"
            " rates above are understated.  Per CPU-second (medians): "
            + ", ".join(f"{name} {median_cpu_rate(runs):,.0f}/s" for name, runs in results.items())
        )
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
