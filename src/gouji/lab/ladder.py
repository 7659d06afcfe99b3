"""The strength ladder: every bot against the heuristic and against the novice, by duplicate pairs.

Each rung is one :func:`gouji.lab.arena.run_arena` of a bot (A) against a reference bot (B: ``heuristic``
or ``novice``) on one preset: A's margin per pair with its 95% interval, pairs won, lost and tied.  A bot
is not played against itself (a deterministic bot's mirror pairs are ties by construction).  Beside the
rungs, each bot's **time per decision** is measured apart (:func:`decision_times`): whole deals with the
bot in all six seats, every decision timed on its own (median and 99th percentile, milliseconds), so
that the figure is the bot's own and not its opponent's.

The results are written to a JSON file after each rung, and a run given the same file resumes: rungs
already there with the same seed and number of pairs are kept.  :func:`markdown` renders the tables of
``docs/ladder.md``.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..bots import BOTS, make_bot
from ..engine.deal import Deal
from ..engine.rules import resolve
from .arena import run_arena

REFERENCES = ("heuristic", "novice")
PRESETS = ("qingdao", "tournament")


MIRRORED = frozenset({"novice", "heuristic"})
"""Bots that never use their generator: swapping two of them negates every pair's margin exactly (see
:mod:`gouji.lab.arena`), so the rung of one against the other is played once and shown both ways."""


def rungs(bots: Sequence[str], references: Sequence[str] = REFERENCES) -> list[tuple[str, str]]:
    """The (bot, reference) pairs of the ladder to play: every bot against each reference but itself, and
    of two references that are both :data:`MIRRORED` only one way round."""
    out: list[tuple[str, str]] = []
    for b in references:
        for a in bots:
            if a != b and not ((b, a) in out and {a, b} <= MIRRORED):
                out.append((a, b))
    return out


def mirror(row: dict[str, Any]) -> dict[str, Any]:
    """The rung of B against A read from A's against B (for :data:`MIRRORED` bots)."""
    return {
        **row,
        "a": row["b"],
        "b": row["a"],
        "margin": -row["margin"],
        "won": row["lost"],
        "lost": row["won"],
        "mirrored": True,
    }


def decision_times(bot: str, preset: str, deals: int, seed: int) -> dict[str, float | int]:
    """The bot's own time per decision: ``deals`` deals with it in every seat, each decision timed
    (``time.perf_counter``) around ``decide`` alone; median, 99th percentile and mean in ms."""
    rules = resolve(preset)
    times: list[float] = []
    for i in range(deals):
        deal = Deal.new(rules, seed=seed * 1_000 + i)
        bots = [make_bot(bot) for _ in range(6)]
        rng = random.Random(f"times {seed}:{i}")
        while (seat := deal.to_act) is not None:
            player = bots[seat]
            view = deal.view(seat, log=bool(getattr(player, "wants_log", False)))
            legal = deal.legal_actions()
            t0 = time.perf_counter()
            action = player.decide(view, legal, rng)
            times.append(time.perf_counter() - t0)
            deal.act(action)
    times.sort()
    return {
        "decisions": len(times),
        "median_ms": round(1000 * statistics.median(times), 3),
        "p99_ms": round(1000 * times[min(len(times) - 1, int(0.99 * len(times)))], 3),
        "mean_ms": round(1000 * statistics.fmean(times), 3),
    }


def rung(a: str, b: str, preset: str, pairs: int, seed: int, jobs: int) -> dict[str, Any]:
    """One rung: ``a`` against ``b`` on ``preset``."""
    r = run_arena(a, b, preset, pairs, seed, jobs=jobs)
    margins = [p.margin for p in r.pair_results]
    return {
        "a": a,
        "b": b,
        "rules": preset,
        "seed": seed,
        "pairs": pairs,
        "margin": round(r.margin.mean, 3),
        "half_width": None if r.margin.half_width is None else round(r.margin.half_width, 3),
        "won": sum(1 for m in margins if m > 0),
        "lost": sum(1 for m in margins if m < 0),
        "tied": sum(1 for m in margins if m == 0),
        "diverged": r.diverged,
        "seconds": round(r.seconds, 1),
    }


def _save(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def run_ladder(
    out: Path,
    pairs: int,
    seed: int,
    bots: Sequence[str] | None = None,
    presets: Sequence[str] = PRESETS,
    jobs: int = 1,
    time_deals: int = 4,
    log: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Play the ladder's rungs (resuming from ``out``), measure each bot's time per decision, and write
    everything to ``out`` (JSON) as it goes.  Returns the data."""
    names = list(bots) if bots is not None else list(BOTS)
    for name in names:
        make_bot(name)  # an unknown name is a ValueError listing the known ones
    data: dict[str, Any] = {"rungs": [], "times": {}}
    if out.exists():
        data = json.loads(out.read_text(encoding="utf-8"))
    have = {(r["a"], r["b"], r["rules"]) for r in data["rungs"] if r["seed"] == seed and r["pairs"] == pairs}
    for preset in presets:
        for a, b in rungs(names):
            if (a, b, preset) in have:
                continue
            row = rung(a, b, preset, pairs, seed, jobs)
            data["rungs"] = [r for r in data["rungs"] if (r["a"], r["b"], r["rules"]) != (a, b, preset)] + [row]
            _save(out, data)
            log(
                f"{preset}: {a} vs {b}: {row['margin']:+.2f} ± {row['half_width'] or 0:.2f} "
                f"({row['won']} won, {row['lost']} lost, {row['tied']} tied), {row['seconds']:.0f} s"
            )
    for name in names:
        for preset in presets:
            key = f"{name}/{preset}"
            if key in data["times"] and data["times"][key].get("deals") == time_deals:
                continue
            t = decision_times(name, preset, time_deals, seed)
            data["times"][key] = {**t, "deals": time_deals}
            _save(out, data)
            log(f"{preset}: {name}: median {t['median_ms']} ms, p99 {t['p99_ms']} ms a decision")
    return data


def markdown(data: dict[str, Any]) -> str:
    """The ladder's tables (one per reference bot, then the times) as Markdown."""
    lines: list[str] = []
    rows = list(data["rungs"])
    rows += [mirror(x) for x in data["rungs"] if {x["a"], x["b"]} <= MIRRORED and x["b"] in REFERENCES]
    refs = [r for r in REFERENCES if any(x["b"] == r for x in rows)]
    for ref in refs:
        lines += [
            f"### Against `{ref}`",
            "",
            "| bot | preset | pairs | margin a pair (95% interval) | won | lost | tied |",
            "|---|---|---|---|---|---|---|",
        ]
        for x in sorted((x for x in rows if x["b"] == ref), key=lambda x: (x["rules"], x["a"])):
            hw = x["half_width"]
            ci = f"{x['margin']:+.2f} ± {hw:.2f}" if hw is not None else f"{x['margin']:+.2f}"
            note = f" (`{x['b']}` vs `{x['a']}` negated)" if x.get("mirrored") else ""
            lines.append(
                f"| `{x['a']}`{note} | {x['rules']} | {x['pairs']} | {ci} | {x['won']} | {x['lost']} | {x['tied']} |"
            )
        lines.append("")
    if data.get("times"):
        lines += [
            "### Time per decision (the bot in all six seats)",
            "",
            "| bot | preset | decisions | median ms | p99 ms | mean ms |",
            "|---|---|---|---|---|---|",
        ]
        for key, t in sorted(data["times"].items()):
            name, preset = key.split("/")
            lines.append(
                f"| `{name}` | {preset} | {t['decisions']} | {t['median_ms']} | {t['p99_ms']} | {t['mean_ms']} |"
            )
        lines.append("")
    return "\n".join(lines)


__all__ = ["PRESETS", "REFERENCES", "decision_times", "markdown", "run_ladder", "rung", "rungs"]
