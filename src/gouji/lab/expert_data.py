"""The 大师 model's data and its offline check (issue 46): labels split by chunk, and what the bot would do.

The labels (:mod:`gouji.lab.distil`) are split by **chunk** — whole deals, never rows of one deal on both
sides: chunk ``k`` is for validation when ``k % 20`` is 16 or 17 and for the test when it is 8, 9, 18 or 19
(both presets each: chunks alternate between them), else for training.  The margin of the bot is chosen on
validation; the test chunks are only measured.

The offline check (:func:`check`) reads predictions the way the ``expert`` bot uses them: at each decision
the best other candidate is played when its predicted advantage over the heuristic's choice exceeds the
preset's margin.  Those **deviations** are measured with their true labels (the rollouts with the true
hands): how many a decision and their mean true advantage, with a 95% interval from a bootstrap over deals.
No torch here: the bot's numpy network (:class:`gouji.bots.learned.QNet`) makes the predictions.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots.learned import QNet
from ..engine.rules import PRESETS
from .distil import LabelsError, read_chunk

F32 = npt.NDArray[np.float32]
VALIDATION = (16, 17)
TEST = (8, 9, 18, 19)


def part(chunk: int) -> str:
    """``train``, ``validation`` or ``test``: where a chunk's labels go."""
    r = chunk % 20
    return "validation" if r in VALIDATION else "test" if r in TEST else "train"


@dataclass
class Labels:
    """Labels as arrays: one row a decision (``states``, ``rules``, ``deal``, ``chunk``), one a candidate
    (``actions``, ``decision`` — its decision's row —, ``advantage``, ``heuristic``)."""

    states: F32
    rules: npt.NDArray[np.int64]
    deal: npt.NDArray[np.int64]
    chunk: npt.NDArray[np.int64]
    actions: F32
    decision: npt.NDArray[np.int64]
    advantage: F32
    heuristic: npt.NDArray[np.bool_]

    @property
    def size(self) -> int:
        return int(self.advantage.size)

    def select(self, keep: npt.NDArray[np.bool_]) -> Labels:
        """The decisions where ``keep`` (a flag a decision) holds, with their candidates."""
        rows = np.flatnonzero(keep)
        new = np.full(len(keep), -1, np.int64)
        new[rows] = np.arange(len(rows))
        cand = keep[self.decision]
        return Labels(
            self.states[rows],
            self.rules[rows],
            self.deal[rows],
            self.chunk[rows],
            self.actions[cand],
            new[self.decision[cand]],
            self.advantage[cand],
            self.heuristic[cand],
        )


def load(folder: Path, chunks: Sequence[int] | None = None) -> Labels:
    """The labels of ``folder``'s chunks (all, or those numbered in ``chunks``), in chunk order."""
    paths = sorted(Path(folder).glob("chunk-*.npz"))
    if chunks is not None:
        want = set(chunks)
        paths = [p for p in paths if int(p.stem.split("-")[1]) in want]
    if not paths:
        raise LabelsError(f"{folder} holds no chunk of labels")
    parts: list[dict[str, Any]] = []
    for p in paths:
        a, facts = read_chunk(p)
        a["chunk"] = np.full(len(a["states"]), int(facts["chunk"]), np.int64)
        parts.append(a)
    offset = np.cumsum([0] + [len(p["states"]) for p in parts[:-1]])

    def cat(k: str) -> npt.NDArray[Any]:
        return np.concatenate([p[k] for p in parts])

    return Labels(
        cat("states").astype(np.float32),
        cat("rules").astype(np.int64),
        cat("deal").astype(np.int64),
        cat("chunk"),
        cat("actions").astype(np.float32),
        np.concatenate([p["decision"].astype(np.int64) + o for p, o in zip(parts, offset, strict=True)]),
        cat("advantage").astype(np.float32),
        cat("heuristic").astype(bool),
    )


def split(labels: Labels, limit: int | None = None) -> dict[str, Labels]:
    """Train, validation and test labels (by chunk, :func:`part`); the training part cut to its first
    chunks holding at least ``limit`` labels, when given (the learning curve's points)."""
    where = np.array([part(int(c)) for c in labels.chunk])
    out = {name: labels.select(where == name) for name in ("train", "validation", "test")}
    if limit is not None:
        tr = out["train"]
        per_chunk = np.bincount(tr.chunk[tr.decision], minlength=int(tr.chunk.max(initial=0)) + 1)
        order = np.unique(tr.chunk)
        total = np.cumsum(per_chunk[order])
        last = int(np.searchsorted(total, limit))  # the chunk that reaches the limit
        out["train"] = tr.select(np.isin(tr.chunk, order[: last + 1]))
    return out


def scales(labels: Labels) -> dict[str, float]:
    """Each preset's spread of the alternatives' advantages (its unit for the model)."""
    out: dict[str, float] = {}
    rules = labels.rules[labels.decision]
    for r in np.unique(labels.rules):
        adv = labels.advantage[(rules == r) & ~labels.heuristic]
        out[PRESETS[int(r)]] = float(adv.std()) if adv.size and adv.std() > 0 else 1.0
    return out


def targets(labels: Labels, scale: dict[str, float]) -> F32:
    """The advantages in each preset's unit (divided by :func:`scales`)."""
    per = np.array([scale.get(p, 1.0) for p in PRESETS], np.float32)
    return (labels.advantage / per[labels.rules[labels.decision]]).astype(np.float32)


def predict(net: QNet, labels: Labels, batch: int = 65536) -> F32:
    """The network's value of every candidate row (numpy, as the bot computes it)."""
    out = np.empty(labels.size, np.float32)
    s_part = labels.states @ net.w_state + net.b0
    for i in range(0, labels.size, batch):
        sl = slice(i, i + batch)
        h = np.maximum(labels.actions[sl] @ net.w_action + s_part[labels.decision[sl]], 0.0)
        for j, (w, b) in enumerate(net.rest):
            h = h @ w + b
            if j < len(net.rest) - 1:
                np.maximum(h, 0.0, out=h)
        out[sl] = h[:, 0]
    return out


def _rank(x: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
    """Ranks with ties averaged."""
    order = np.argsort(x, kind="mergesort")
    r = np.empty(len(x), np.float64)
    r[order] = np.arange(len(x), dtype=np.float64)
    _vals, inv = np.unique(x, return_inverse=True)
    sums = np.bincount(inv, weights=r)
    counts = np.bincount(inv)
    return (sums / counts)[inv]


def spearman(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> float:
    """Spearman's rank correlation (``nan`` when either side is constant)."""
    ra, rb = _rank(np.asarray(a)), _rank(np.asarray(b))
    if len(ra) < 2 or ra.std() == 0 or rb.std() == 0:
        return float("nan")
    return float(np.corrcoef(ra, rb)[0, 1])


@dataclass
class Deviations:
    """What the bot would do on some labels, for one preset, at one margin."""

    decisions: int
    count: int
    mean: float
    """Mean true advantage of a deviation, in the preset's unit (points)."""
    low: float
    high: float
    gain: float
    """Total true advantage of the deviations a decision."""


def best_other(labels: Labels, pred: F32) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Per decision: the largest predicted gap of another candidate over the heuristic's choice, and that
    candidate's row (-1 and gap -inf where there is none)."""
    n = len(labels.states)
    h = np.zeros(n, np.float64)
    h[labels.decision[labels.heuristic]] = pred[labels.heuristic]
    gap = np.where(labels.heuristic, -np.inf, pred - h[labels.decision])
    order = np.lexsort((gap, labels.decision))  # by decision, then gap
    last = np.r_[labels.decision[order][1:] != labels.decision[order][:-1], True]
    best_rows = order[last]
    best = np.full(n, -np.inf)
    row = np.full(n, -1, np.int64)
    best[labels.decision[best_rows]] = gap[best_rows]
    row[labels.decision[best_rows]] = best_rows
    row[~np.isfinite(best)] = -1
    return best, row


def deviations(labels: Labels, pred: F32, margin: float, rules: int, boot: int = 2000, seed: int = 0) -> Deviations:
    """The deviations at ``margin`` (predicted units) on the decisions of preset ``rules``, their true
    advantage and its 95% interval (bootstrap over deals)."""
    best, row = best_other(labels, pred)
    mine = labels.rules == rules
    dev = mine & (best > margin)
    adv = np.where(dev, labels.advantage[np.maximum(row, 0)], 0.0)
    n, k = int(mine.sum()), int(dev.sum())
    if k == 0:
        return Deviations(n, 0, float("nan"), float("nan"), float("nan"), 0.0)
    deals, inv = np.unique(labels.deal[mine], return_inverse=True)
    s = np.bincount(inv, weights=adv[mine], minlength=len(deals))
    c = np.bincount(inv, weights=dev[mine].astype(float), minlength=len(deals))
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, len(deals), size=(boot, len(deals)))
    cs = c[pick].sum(1)
    means = s[pick].sum(1)[cs > 0] / cs[cs > 0]
    low, high = np.percentile(means, [2.5, 97.5]) if means.size else (float("nan"), float("nan"))
    return Deviations(n, k, float(adv.sum() / k), float(low), float(high), float(adv.sum() / max(n, 1)))


def choose_margin(labels: Labels, pred: F32, rules: int, least: int = 20) -> float:
    """The margin (predicted units) at which the deviations on ``labels`` (validation) gain the most true
    advantage a decision, among those leaving at least ``least`` deviations; +inf (never deviate) when none
    gains."""
    best, row = best_other(labels, pred)
    mine = (labels.rules == rules) & np.isfinite(best)
    gaps, adv = best[mine], labels.advantage[row[mine]]
    order = np.argsort(-gaps)
    total = np.cumsum(adv[order])  # deviating at the top i+1 gaps
    if len(order) < least:
        return float("inf")
    i = least - 1 + int(np.argmax(total[least - 1 :]))
    if total[i] <= 0:
        return float("inf")
    nxt = gaps[order[i + 1]] if i + 1 < len(order) else gaps[order[i]] - 1.0
    return float((gaps[order[i]] + nxt) / 2)


def correlations(labels: Labels, pred: F32, rules: int) -> tuple[float, float]:
    """Spearman's correlation of predicted and true advantage over the alternatives of preset ``rules``
    (overall), and its mean within decisions (those whose candidates' labels are not all equal)."""
    mine = (labels.rules[labels.decision] == rules) & ~labels.heuristic
    overall = spearman(pred[mine], labels.advantage[mine])
    sel = labels.rules[labels.decision] == rules
    dec, p, a = labels.decision[sel], pred[sel], labels.advantage[sel]
    order = np.argsort(dec, kind="stable")
    dec, p, a = dec[order], p[order], a[order]
    cuts = np.flatnonzero(np.r_[True, dec[1:] != dec[:-1], True])
    within = [spearman(p[s:e], a[s:e]) for s, e in itertools.pairwise(cuts) if e - s >= 2]
    vals = [w for w in within if w == w]
    return overall, float(np.mean(vals)) if vals else float("nan")


def check(net: QNet, parts: dict[str, Labels]) -> dict[str, Any]:
    """The offline check: a preset, the margin chosen on validation, and on the test labels the rank
    correlations and the deviations at that margin (``net.meta['margins']`` is set to the chosen ones)."""
    pv, pt = predict(net, parts["validation"]), predict(net, parts["test"])
    report: dict[str, Any] = {}
    margins: dict[str, float] = {}
    for r in np.unique(parts["test"].rules):
        name = PRESETS[int(r)]
        m = choose_margin(parts["validation"], pv, int(r))
        margins[name] = m
        overall, within = correlations(parts["test"], pt, int(r))
        d = deviations(parts["test"], pt, m, int(r))
        v = deviations(parts["validation"], pv, m, int(r))
        report[name] = {
            "margin": m,
            "spearman": overall,
            "spearman_within": within,
            "test": d.__dict__,
            "validation": v.__dict__,
        }
    net.meta["margins"] = {k: (v if np.isfinite(v) else None) for k, v in margins.items()}
    return report


__all__ = [
    "TEST",
    "VALIDATION",
    "Deviations",
    "Labels",
    "check",
    "choose_margin",
    "correlations",
    "deviations",
    "load",
    "part",
    "predict",
    "scales",
    "spearman",
    "split",
    "targets",
]
