"""How noisy the learned bot's training labels are: the paired-rollout advantages of random alternatives.

    .venv/bin/python benchmarks/bench_labels.py [--deals 30] [--seed 1000]

For each preset (``qingdao``, ``tournament``) and kind of decision (burn offer, lead, answer), plays
``--deals`` deals of :func:`gouji.lab.learn.dmc.paired_deal` branching only on that kind (a quarter of those
decisions, a random alternative each time) and prints how the labels spread: how many, the share that are
exactly 0, their mean and standard deviation (in units of the return: ×12 for points under ``qingdao``, ×9
for small points under ``tournament``) and the share better than the heuristic's choice.  The figures of
``docs/learned.md`` (item 6) come from this.  PyTorch is not needed: the rollouts are played by the heuristic
bot, and the alternatives are drawn at random.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from gouji.bots.learned import WEIGHTS, QNet
from gouji.lab.learn import dmc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    net = QNet.load(WEIGHTS)
    print(f"paired-rollout labels of random alternatives, {args.deals} deals per row")
    print(f"  {'preset, decision':24s} {'labels':>6s} {'zero':>6s} {'mean':>7s} {'std':>6s} {'better':>7s}")
    for rules in ("qingdao", "tournament"):
        for kind in ("burn", "lead", "respond"):
            cfg = dmc.TrainConfig(branch=0.25, branch_kinds=(kind,), focus=0.0, rules=(rules,))
            labels: list[float] = []
            for d in range(args.deals):
                _, _, adv, _ = dmc.paired_deal(cfg, net, random.Random(args.seed + d))
                labels.extend(adv[1::2].tolist())  # the alternatives' (the heuristic's choice is 0)
            a = np.asarray(labels)
            name = f"{rules}, {kind}"
            if not len(a):
                print(f"  {name:24s} {0:6d}")
                continue
            print(
                f"  {name:24s} {len(a):6d} {100 * (a == 0).mean():5.0f}% {a.mean():+7.2f} {a.std():6.2f}"
                f" {100 * (a > 0).mean():6.0f}%"
            )


if __name__ == "__main__":
    main()
