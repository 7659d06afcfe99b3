"""Tuning the heuristic's weights (:class:`~gouji.bots.heuristic.Params`) by CMA-ES on duplicate pairs.

The objective of a candidate set of weights is its margin against the current heuristic
(:data:`~gouji.bots.heuristic.DEFAULT`) over duplicate pairs (rule book §13, as :mod:`gouji.arena` plays
them): the candidate holds seats 0, 2, 4 in the first game of a pair and 1, 3, 5 in the second, with the
same cards.  Each preset's margin per pair is scaled to about one (÷ 12 under ``qingdao``'s points, ÷ 9
under ``tournament``'s small points) and the presets are averaged.

- **Fresh deals each generation**: generation ``g`` of a run with seed ``S`` plays the pairs of the arena
  seed ``S * 100_000 + g``; every candidate of a generation gets the same deals (common random numbers:
  the candidates are ranked on the same luck).  The held-out check at the end plays the arena seed
  ``S * 100_000 + 99_999``, never used by a generation.
- **The search space**: each tuned weight is ``default × exp(x)``, clipped to its bounds, so CMA-ES works
  on ``x`` (0 = the heuristic as shipped) with one step size for every weight.
- **Resumable**: after every generation the run folder gets ``state.json`` (the distribution's mean and
  step size, every generation's figures, the weights of the mean) and ``es.pkl`` (the optimiser itself);
  the same command on the same folder resumes from them.  Without ``es.pkl`` (say, a fresh clone where only
  ``state.json`` was committed) it restarts CMA-ES from the saved mean and step size.
- **Processes**: the pairs of a generation are spread over ``jobs`` worker processes
  (:func:`gouji.distributed.workers`); the result does not depend on how many.

The answer is the distribution's *mean* (CMA-ES's estimate of the optimum), not the best candidate ever
seen: with noisy scores the best-looking one is mostly the luckiest.  ``params.json`` holds it;
:func:`load_params` reads it back.  Needs the ``[tune]`` extra (the ``cma`` package).
"""

from __future__ import annotations

import json
import math
import os
import pickle
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields
from functools import partial
from pathlib import Path
from typing import Any

from ..bots.heuristic import DEFAULT, HeuristicBot, Params
from ..engine.rules import resolve
from ..engine.scoring import team_points
from .arena import Interval, play_bots, team_of
from .distributed import workers

SEED_SPAN = 100_000
"""Generation ``g`` of a run with seed ``S`` plays the arena seed ``S * SEED_SPAN + g``."""
HELD_OUT = SEED_SPAN - 1
"""The held-out check plays the arena seed ``S * SEED_SPAN + HELD_OUT``."""
SCALE = {"tournament": 9.0}
"""What a preset's margin per pair is divided by (12 when not listed)."""

BOUNDS: dict[str, tuple[float, float]] = {
    "lead_value": (0.0, 3.0),
    "deny": (0.0, 3.0),
    "cost_two": (0.0, 3.0),
    "cost_small": (0.0, 5.0),
    "cost_big": (0.0, 6.0),
    "split": (0.0, 2.0),
    "keep_high": (0.0, 0.5),
    "mate_penalty": (0.0, 5.0),
    "smother": (0.0, 10.0),
    "burner_weight": (0.0, 1.0),
    "open_min": (0.05, 0.99),
    "yield_value": (0.0, 1.0),
    "revolt_below": (0.0, 15.0),
    "declare_at": (2.0, 30.0),
    "scarce": (0.0, 1.5),
    "urgency": (0.5, 4.0),
    "mates_after_deny": (0.0, 1.0),
    "shed_control": (0.0, 2.0),
    "chain_sure": (0.5, 0.999),
}
"""The tuned weights and their bounds (``feed_guard``, a choice of three, is not tuned)."""
TUNED = tuple(BOUNDS)


def decode(x: Sequence[float]) -> Params:
    """The weights at point ``x`` of the search space (0 everywhere = :data:`DEFAULT`)."""
    if len(x) != len(TUNED):
        raise ValueError(f"a point has {len(TUNED)} coordinates, not {len(x)}")
    changes = {}
    for name, xi in zip(TUNED, x, strict=True):
        lo, hi = BOUNDS[name]
        value = getattr(DEFAULT, name) * math.exp(max(-5.0, min(5.0, float(xi))))
        changes[name] = min(hi, max(lo, value))
    return Params(**{**asdict(DEFAULT), **changes})


def params_dict(params: Params) -> dict[str, float]:
    """The weights as a plain dict (what ``params.json`` holds)."""
    return {f.name: float(getattr(params, f.name)) for f in fields(Params)}


def load_params(path: Path | str) -> Params:
    """The weights a tuning run wrote (``params.json``, or a run's ``state.json``); unknown names are a
    ``ValueError``, missing ones keep their defaults."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if "params" in data and isinstance(data["params"], dict):
        data = data["params"]
    known = {f.name for f in fields(Params)}
    bad = sorted(set(data) - known)
    if bad:
        raise ValueError(f"{path}: unknown weights {', '.join(bad)}")
    return Params(**{**asdict(DEFAULT), **{k: float(v) for k, v in data.items()}})


# ------------------------------------------------------------------------------------------------ pairs


def pair_margin(a: Params, b: Params, rules_name: str, seed: int, i: int) -> int:
    """A's points minus B's over both games of arena pair ``i`` (the arena's deals, seats and generators)."""
    rules = resolve(rules_name)
    total = 0
    for game in (0, 1):
        deal = play_bots(partial(HeuristicBot, a), partial(HeuristicBot, b), rules, seed, i, game)
        pts = team_points(deal)
        total += pts[team_of(0, game)] - pts[team_of(1, game)]
    return total


@dataclass(frozen=True)
class Task:
    """One worker's share: candidate ``a`` against ``b`` on pairs ``start`` … ``stop - 1``."""

    a: Params
    b: Params
    rules: str
    seed: int
    start: int
    stop: int


def run_task(task: Task) -> list[int]:
    """The margins of a :class:`Task`'s pairs (the worker function)."""
    return [pair_margin(task.a, task.b, task.rules, task.seed, i) for i in range(task.start, task.stop)]


def tasks_for(a: Params, b: Params, rules: Sequence[str], seed: int, pairs: int, chunk: int) -> list[Task]:
    """The tasks of ``pairs`` pairs per preset, in chunks of at most ``chunk``."""
    return [
        Task(a, b, name, seed, start, min(start + chunk, pairs)) for name in rules for start in range(0, pairs, chunk)
    ]


def score(margins: dict[str, list[int]]) -> float:
    """The objective: each preset's mean margin per pair, scaled to about one, averaged over the presets."""
    return statistics.fmean(statistics.fmean(m) / SCALE.get(name, 12.0) for name, m in margins.items())


def evaluate(
    candidates: Sequence[Params],
    rules: Sequence[str],
    seed: int,
    pairs: int,
    jobs: int,
    baseline: Params = DEFAULT,
) -> list[dict[str, list[int]]]:
    """Each candidate's margins against ``baseline`` per preset, on the same ``pairs`` pairs of ``seed``."""
    chunk = max(1, min(10, math.ceil(pairs / 2)))
    all_tasks: list[tuple[int, Task]] = []
    for k, cand in enumerate(candidates):
        all_tasks += [(k, t) for t in tasks_for(cand, baseline, rules, seed, pairs, chunk)]
    out: list[dict[str, list[int]]] = [{name: [] for name in rules} for _ in candidates]
    with workers(jobs) as pool:
        results = pool.map(run_task, [t for _, t in all_tasks])
    for (k, t), margins in zip(all_tasks, results, strict=True):
        out[k][t.rules] += margins
    return out


# ------------------------------------------------------------------------------------------------ the run


@dataclass
class TuneConfig:
    """A run's settings (kept in its ``state.json``; a resumed run keeps its own)."""

    rules: tuple[str, ...] = ("qingdao", "tournament")
    pairs: int = 24
    """Pairs per preset per candidate in each generation."""
    popsize: int = 10
    sigma0: float = 0.3
    seed: int = 1
    heldout_pairs: int = 200
    """Pairs per preset of the held-out check (mean weights against the default)."""


@dataclass
class TuneState:
    """What ``state.json`` holds."""

    config: TuneConfig
    generation: int = 0
    mean: list[float] = field(default_factory=lambda: [0.0] * len(TUNED))
    sigma: float = 0.3
    history: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    heldout: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "tuned": list(TUNED),
            "config": {**asdict(self.config), "rules": list(self.config.rules)},
            "generation": self.generation,
            "mean": self.mean,
            "sigma": self.sigma,
            "seconds": round(self.seconds, 1),
            "params": params_dict(decode(self.mean)),
            "heldout": self.heldout,
            "history": self.history,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TuneState:
        if list(data.get("tuned", [])) != list(TUNED):
            raise ValueError("the state was saved with other tuned weights: start a new run folder")
        cfg = dict(data["config"])
        cfg["rules"] = tuple(cfg["rules"])
        return cls(
            config=TuneConfig(**cfg),
            generation=int(data["generation"]),
            mean=[float(v) for v in data["mean"]],
            sigma=float(data["sigma"]),
            history=list(data["history"]),
            seconds=float(data.get("seconds", 0.0)),
            heldout=data.get("heldout"),
        )


def _write(path: Path, text: str | bytes) -> None:
    """Write atomically: a crash leaves the old file or the new one, never half of one."""
    tmp = path.with_name(path.name + ".tmp")
    if isinstance(text, bytes):
        tmp.write_bytes(text)
    else:
        tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def save(out: Path, state: TuneState, es: Any) -> None:
    """Write the run folder's ``state.json``, ``params.json`` and ``es.pkl``."""
    out.mkdir(parents=True, exist_ok=True)
    data = state.to_json()
    _write(out / "state.json", json.dumps(data, indent=1) + "\n")
    _write(out / "params.json", json.dumps(data["params"], indent=1) + "\n")
    if es is not None:
        _write(out / "es.pkl", pickle.dumps(es))


def load(out: Path) -> tuple[TuneState, Any] | None:
    """The saved state and optimiser of a run folder (the optimiser ``None`` without ``es.pkl``)."""
    path = out / "state.json"
    if not path.exists():
        return None
    state = TuneState.from_json(json.loads(path.read_text(encoding="utf-8")))
    es = None
    pkl = out / "es.pkl"
    if pkl.exists():
        try:
            es = pickle.loads(pkl.read_bytes())  # the run's own file
        except Exception:  # an unreadable pickle (another cma version): restart from the mean
            es = None
    return state, es


def _new_es(state: TuneState) -> Any:
    import cma

    opts = {
        "popsize": state.config.popsize,
        "seed": state.config.seed * 1000 + state.generation + 1,
        "verbose": -9,
        "bounds": [-3.0, 3.0],
    }
    return cma.CMAEvolutionStrategy(list(state.mean), state.sigma, opts)


def tune(
    out: Path,
    config: TuneConfig,
    generations: int | None = None,
    minutes: float | None = None,
    jobs: int = 1,
    heldout: bool = True,
    log: Callable[[str], None] = lambda _: None,
) -> TuneState:
    """Run (or resume) CMA-ES in ``out`` for ``generations`` more generations or ``minutes`` of wall
    time, whichever ends first (at least one must be given); then, with ``heldout``, play the held-out
    check of the mean's weights and record it.  Returns the final state."""
    if generations is None and minutes is None:
        raise ValueError("give generations or minutes")
    try:
        import cma  # noqa: F401
    except ImportError:
        raise RuntimeError("gouji tune needs the cma package: pip install -e '.[tune]'") from None
    loaded = load(out)
    if loaded is None:
        state = TuneState(config=config, sigma=config.sigma0)
        es = None
        log(f"new run in {out}")
    else:
        state, es = loaded
        log(f"resuming {out} at generation {state.generation}" + ("" if es is not None else " (new optimiser)"))
    if es is None:
        es = _new_es(state)
    cfg = state.config
    start = time.monotonic()
    done = 0
    while (generations is None or done < generations) and (minutes is None or time.monotonic() - start < minutes * 60):
        t0 = time.perf_counter()
        xs = es.ask()
        cands = [decode(x) for x in xs]
        seed = cfg.seed * SEED_SPAN + state.generation
        margins = evaluate(cands, cfg.rules, seed, cfg.pairs, jobs)
        scores = [score(m) for m in margins]
        es.tell(xs, [-s for s in scores])
        state.generation += 1
        state.mean = [float(v) for v in es.mean]
        state.sigma = float(es.sigma)
        seconds = time.perf_counter() - t0
        state.seconds += seconds
        row = {
            "generation": state.generation,
            "seed": seed,
            "pairs": cfg.pairs,
            "best": round(max(scores), 4),
            "average": round(statistics.fmean(scores), 4),
            "sigma": round(state.sigma, 4),
            "seconds": round(seconds, 1),
            "scores": [round(v, 4) for v in scores],
            "points": [[round(float(v), 4) for v in x] for x in xs],
        }
        state.history.append(row)
        save(out, state, es)
        done += 1
        log(
            f"generation {state.generation}: best {row['best']:+.3f}, average {row['average']:+.3f}, "
            f"sigma {row['sigma']:.3f}, {seconds:.0f} s"
        )
    if heldout:
        state.heldout = check(decode(state.mean), cfg.rules, cfg.seed * SEED_SPAN + HELD_OUT, cfg.heldout_pairs, jobs)
        state.heldout["generation"] = state.generation
        save(out, state, es)
        log(f"held-out check: {json.dumps(state.heldout)}")
    return state


def check(params: Params, rules: Sequence[str], seed: int, pairs: int, jobs: int) -> dict[str, Any]:
    """``params`` against :data:`DEFAULT` on ``pairs`` pairs per preset of ``seed``: per preset the mean
    margin per pair with its 95% interval and the pairs won, lost and tied."""
    margins = evaluate([params], rules, seed, pairs, jobs)[0]
    out: dict[str, Any] = {"seed": seed, "pairs": pairs}
    for name, m in margins.items():
        iv = Interval.of([float(v) for v in m])
        out[name] = {
            "margin": round(iv.mean, 3),
            "half_width": None if iv.half_width is None else round(iv.half_width, 3),
            "won": sum(1 for v in m if v > 0),
            "lost": sum(1 for v in m if v < 0),
            "tied": sum(1 for v in m if v == 0),
        }
    out["score"] = round(score(margins), 4)
    return out


__all__ = ["BOUNDS", "TUNED", "TuneConfig", "TuneState", "check", "decode", "load_params", "tune"]
