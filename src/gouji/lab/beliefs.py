"""Training the learned beliefs (:mod:`gouji.bots.beliefs`) on self-play labels.

The heuristic plays deals against itself; every time it asks whether an opponent holds a play that beats
one it weighs, :class:`_Recorder` writes down the question's features (from that seat's view, as the bot
sees it) and the answer the hidden hand actually gives (from the deal's true hands — the label, never shown
to the bot).  :func:`fit` fits the logistic model by Newton's method with a small ridge; :func:`evaluate`
compares its log-loss with the binomial answer's on questions of deals it was not fitted on.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..bots.beliefs import FEATURES, Beliefs, PassBook, features
from ..bots.heuristic import HeuristicBot
from ..bots.heuristic.context import _Ctx
from ..bots.heuristic.odds import _Odds
from ..engine.deal import Deal
from ..engine.players import decide
from ..engine.plays import Play
from ..engine.rules import resolve

SEED_BASE = 5_000_000_000
"""Deal ``i`` of a run with seed ``S`` is dealt from ``SEED_BASE + S * 1_000_003 + i`` (apart from the
arena's and tuning's seeds)."""


class _Recorder(_Ctx):
    """The heuristic's facts, writing down every beat question with its true answer."""

    truth: ClassVar[Sequence[Sequence[int]]] = ()
    """The true hands of the deal being played (set before every decision; read only for the labels)."""
    rows: ClassVar[list[list[float]]] = []
    labels: ClassVar[list[float]] = []

    def beat_chance(self, s: int, q: Play) -> float:
        p = self.odds(s).beat(q)
        seen: set[tuple[int, str]] = self.__dict__.setdefault("_seen", set())
        key = (s, q.text)
        if p > 0.0 and key not in seen:
            seen.add(key)
            book = self.__dict__.get("_book")
            if book is None:
                book = self.__dict__["_book"] = PassBook(self.view.get("log") or ())
            shown = self.players[s].get("cards") is not None
            type(self).rows.append(features(s, q, p, book, self.counts[s], shown))
            type(self).labels.append(1.0 if _Odds.of_hand(self.truth[s], self.kill).beat(q) > 0.5 else 0.0)
        return p


class _RecordingBot(HeuristicBot):
    context = _Recorder


@dataclass(frozen=True)
class Data:
    x: np.ndarray
    y: np.ndarray
    deals: int


def _collect(args: tuple[str, int, int, int]) -> tuple[list[list[float]], list[float]]:
    preset, seed, start, count = args
    rules = resolve(preset)
    _Recorder.rows, _Recorder.labels = [], []
    bot = _RecordingBot()
    for i in range(start, start + count):
        deal = Deal.new(rules, seed=SEED_BASE + seed * 1_000_003 + i)
        rng = random.Random(i)
        for _ in range(100_000):
            seat = deal.to_act
            if seat is None:
                break
            _Recorder.truth = [deal.hand_counts(t) for t in range(6)]
            deal.act(decide(bot, deal, rng))
    return _Recorder.rows, _Recorder.labels


def collect(presets: Sequence[str], deals: int, seed: int, jobs: int = 1) -> Data:
    """Questions and answers from ``deals`` self-play deals of each preset."""
    chunk = 20
    tasks = [(p, seed, i, min(chunk, deals - i)) for p in presets for i in range(0, deals, chunk)]
    rows: list[list[float]] = []
    labels: list[float] = []
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            for r, y in ex.map(_collect, tasks):
                rows += r
                labels += y
    else:
        for t in tasks:
            r, y = _collect(t)
            rows += r
            labels += y
    return Data(np.asarray(rows, dtype=np.float64), np.asarray(labels, dtype=np.float64), deals * len(presets))


def _loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    z = x @ w
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def fit(data: Data, ridge: float = 1e-3, steps: int = 50) -> Beliefs:
    """The logistic model fitted to ``data`` (Newton's method, ridge on every weight but the bias)."""
    x, y = data.x, data.y
    n, k = x.shape
    w = np.zeros(k)
    w[FEATURES.index("logit")] = 1.0  # start at the binomial answer
    reg = np.full(k, ridge)
    reg[0] = 0.0
    for _ in range(steps):
        z = x @ w
        p = 1.0 / (1.0 + np.exp(-z))
        g = x.T @ (p - y) / n + reg * w
        h = (x * (p * (1 - p))[:, None]).T @ x / n + np.diag(reg) + 1e-9 * np.eye(k)
        step = np.linalg.solve(h, g)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return Beliefs(w.tolist(), {"rows": int(n), "deals": data.deals, "ridge": ridge})


def evaluate(model: Beliefs, data: Data) -> dict[str, Any]:
    """Log-loss and calibration of ``model`` and of the binomial answer on ``data``."""
    x, y = data.x, data.y
    w = np.asarray(model.weights)
    base = np.zeros(len(FEATURES))
    base[FEATURES.index("logit")] = 1.0
    out: dict[str, Any] = {"rows": len(y), "positive": float(y.mean()) if len(y) else math.nan}
    out["loss_model"] = _loss(w, x, y)
    out["loss_binomial"] = _loss(base, x, y)
    dom = x[:, FEATURES.index("dominated")] > 0
    out["dominated_share"] = float(dom.mean())
    if dom.any():
        out["dominated_positive"] = float(y[dom].mean())
        pb = 1.0 / (1.0 + np.exp(-(x[dom] @ base)))
        pm = 1.0 / (1.0 + np.exp(-(x[dom] @ w)))
        out["dominated_mean_binomial"] = float(pb.mean())
        out["dominated_mean_model"] = float(pm.mean())
    return out


# ---------------------------------------------------------------------------------------------- the ceiling


class _Told(_Ctx):
    """The heuristic told the hidden hands' true answer (blended with the binomial one by ``mix``): a
    measurement of how much better beliefs could give at most, never a bot (it reads the true hands)."""

    truth: ClassVar[Sequence[Sequence[int]]] = ()
    mix: ClassVar[float] = 1.0

    def beat_chance(self, s: int, q: Play) -> float:
        told = 1.0 if _Odds.of_hand(self.truth[s], self.kill).beat(q) > 0.5 else 0.0
        return self.mix * told + (1.0 - self.mix) * self.odds(s).beat(q)


class _ToldBot(HeuristicBot):
    context = _Told


def _told_pairs(args: tuple[str, int, int, int, float]) -> list[int]:
    from ..engine.scoring import team_points
    from .arena import bot_rng, deal_seed

    preset, seed, start, stop, mix = args
    rules = resolve(preset)
    _Told.mix = mix
    told, plain = _ToldBot(), HeuristicBot()
    out = []
    for i in range(start, stop):
        margin = 0
        for game in (0, 1):
            deal = Deal.new(rules, seed=deal_seed(seed, i))
            rng = bot_rng(seed, i, game)
            mine = 0 if game == 0 else 1  # the team of the told heuristic: seats 0 2 4 in game 0
            for _ in range(100_000):
                seat = deal.to_act
                if seat is None:
                    break
                bot = told if seat % 2 == mine else plain
                if bot is told:
                    _Told.truth = [deal.hand_counts(t) for t in range(6)]
                deal.act(decide(bot, deal, rng))
            points = team_points(deal)
            margin += points[mine] - points[1 - mine]
        out.append(margin)
    return out


def ceiling(preset: str, pairs: int, seed: int, mix: float = 1.0, jobs: int = 1) -> list[int]:
    """The margins of ``pairs`` duplicate pairs (the arena's deals of ``seed``) of the heuristic told the true
    answer to every "will it be beaten?" question against the plain heuristic."""
    step = max(1, min(25, -(-pairs // jobs)))
    tasks = [(preset, seed, i, min(pairs, i + step), mix) for i in range(0, pairs, step)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            return [m for part in ex.map(_told_pairs, tasks) for m in part]
    return [m for t in tasks for m in _told_pairs(t)]
