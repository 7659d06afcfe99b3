"""Training the learned beliefs (:mod:`gouji.bots.beliefs`) on self-play labels.

The heuristic plays deals against itself; every time it asks whether an opponent holds a play that beats
one it weighs, :class:`_Recorder` writes down the question's features (from that seat's view, as the bot
sees it) and the answer the hidden hand actually gives (from the deal's true hands — the label, never shown
to the bot).  :func:`fit` fits the logistic model by Newton's method with a small ridge; :func:`evaluate`
compares its log-loss with the binomial answer's on questions of deals it was not fitted on.

Two measurements of the route (docs/ladder.md): :func:`ceiling` plays the heuristic told the true answer of
every question against the plain heuristic — the most that better beliefs of what a hand *can* do could give
it; :func:`answer_data` and :func:`answer_margins` learn instead whether a seat *does* answer a play (the
label the heuristic's guess is farthest from) and play the heuristic asking that.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np

from ..bots.beliefs import FEATURES, BeliefCtx, Beliefs, PassBook, features
from ..bots.heuristic import HeuristicBot
from ..bots.heuristic.context import _Ctx
from ..bots.heuristic.odds import _Odds
from ..bots.heuristic.params import Params
from ..engine.deal import Deal
from ..engine.players import decide
from ..engine.plays import Play
from ..engine.rules import resolve

T = TypeVar("T")

SEED_BASE = 5_000_000_000
"""Deal ``i`` of a run with seed ``S`` is dealt from ``SEED_BASE + S * 1_000_003 + i`` (apart from the
arena's and tuning's seeds)."""


class _Recorder(BeliefCtx):
    """The heuristic's facts, writing down every beat question with its true answer."""

    truth: ClassVar[Sequence[Sequence[int]]] = ()
    """The true hands of the deal being played (set before every decision; read only for the labels)."""
    rows: ClassVar[list[list[float]]] = []
    labels: ClassVar[list[float]] = []

    def __init__(self, view: Mapping[str, Any], params: Params) -> None:
        super().__init__(view, params)
        self.seen: set[tuple[int, str]] = set()

    def beat_chance(self, s: int, q: Play) -> float:
        p = self.odds(s).beat(q)
        key = (s, q.text)
        if p > 0.0 and key not in self.seen:
            self.seen.add(key)
            shown = self.players[s].get("cards") is not None
            type(self).rows.append(features(s, q, p, self.book(), self.counts[s], shown))
            type(self).labels.append(1.0 if _Odds.of_hand(self.truth[s], self.kill).beat(q) > 0.5 else 0.0)
        return p


class _RecordingBot(HeuristicBot):
    context = _Recorder


@dataclass(frozen=True)
class Data:
    x: np.ndarray
    y: np.ndarray
    deals: int


def _self_play(preset: str, seed: int, start: int, count: int, step: Callable[[Deal, random.Random], None]) -> None:
    """Deals ``start`` … ``start + count - 1`` of a run with ``seed``, each played to its end by calling
    ``step(deal, rng)`` (which makes one decision) while someone is to act."""
    rules = resolve(preset)
    for i in range(start, start + count):
        deal = Deal.new(rules, seed=SEED_BASE + seed * 1_000_003 + i)
        rng = random.Random(i)
        for _ in range(100_000):
            if deal.to_act is None:
                break
            step(deal, rng)


def _spread(work: Callable[[Any], T], tasks: Sequence[Any], jobs: int) -> list[T]:
    """``work`` over ``tasks``, in ``jobs`` processes when more than one."""
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            return list(ex.map(work, tasks))
    return [work(t) for t in tasks]


def _tasks(presets: Sequence[str], deals: int, seed: int, chunk: int = 20) -> list[tuple[str, int, int, int]]:
    return [(p, seed, i, min(chunk, deals - i)) for p in presets for i in range(0, deals, chunk)]


def _collect(args: tuple[str, int, int, int]) -> tuple[list[list[float]], list[float]]:
    _Recorder.rows, _Recorder.labels = [], []
    bot = _RecordingBot()

    def step(deal: Deal, rng: random.Random) -> None:
        _Recorder.truth = [deal.hand_counts(t) for t in range(6)]
        deal.act(decide(bot, deal, rng))

    _self_play(*args, step)
    return _Recorder.rows, _Recorder.labels


def collect(presets: Sequence[str], deals: int, seed: int, jobs: int = 1) -> Data:
    """Questions and answers from ``deals`` self-play deals of each preset."""
    rows: list[list[float]] = []
    labels: list[float] = []
    for r, y in _spread(_collect, _tasks(presets, deals, seed), jobs):
        rows += r
        labels += y
    return Data(np.asarray(rows, dtype=np.float64), np.asarray(labels, dtype=np.float64), deals * len(presets))


def _loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    z = x @ w
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def fit(data: Data, ridge: float = 1e-3, steps: int = 50) -> Beliefs:
    """The logistic model fitted to ``data`` (Newton's method, ridge on every weight but the bias)."""
    w = newton(data.x, data.y, ridge, steps)
    return Beliefs(w.tolist(), {"rows": len(data.y), "deals": data.deals, "ridge": ridge})


def newton(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Logistic regression's weights by Newton's method, starting at the binomial answer (the ``logit``
    feature's weight 1), with a ridge on every weight but the bias."""
    n, k = x.shape
    w = np.zeros(k)
    w[FEATURES.index("logit")] = 1.0
    reg = np.full(k, ridge)
    reg[0] = 0.0

    def objective(v: np.ndarray) -> float:
        return _loss(v, x, y) + 0.5 * float(reg @ (v * v))

    now = objective(w)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30.0, 30.0)))
        g = x.T @ (p - y) / n + reg * w
        h = (x * (p * (1 - p))[:, None]).T @ x / n + np.diag(reg) + 1e-9 * np.eye(k)
        step = np.linalg.solve(h, g)
        t = 1.0
        while t > 1e-6:  # backtracking: a full Newton step can overshoot far from the optimum
            trial = w - t * step
            after = objective(trial)
            if after <= now:
                break
            t *= 0.5
        else:
            break
        w, done = trial, now - after < 1e-12
        now = after
        if done:
            break
    return w


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


# ---------------------------------------------------------------------------------------------- measurements


class _Told(_Ctx):
    """The heuristic told the hidden hands' true answer (blended with the binomial one by ``mix``): a
    measurement of how much better beliefs could give at most, never a bot (it reads the true hands)."""

    truth: ClassVar[Sequence[Sequence[int]]] = ()
    mix: ClassVar[float] = 1.0

    def beat_chance(self, s: int, q: Play) -> float:
        told = 1.0 if _Odds.of_hand(self.truth[s], self.kill).beat(q) > 0.5 else 0.0
        return self.mix * told + (1.0 - self.mix) * self.odds(s).beat(q)


class _Answers(BeliefCtx):
    """The heuristic asking a learned chance that a seat *answers* a play (:func:`answer_data`), not the
    binomial chance that it can."""

    weights: ClassVar[Sequence[float]] = ()

    def answer_chance(self, s: int, q: Play, w: float) -> float:
        p = self.odds(s).beat(q)
        if p <= 0.0:
            return 0.0
        x = _answer_row(self, s, q, p, w, self.book())
        z = max(-30.0, min(30.0, sum(a * b for a, b in zip(self.weights, x, strict=True))))
        return 1.0 / (1.0 + math.exp(-z))


def _answer_row(c: _Ctx, s: int, q: Play, p: float, w: float, book: PassBook) -> list[float]:
    """:data:`FEATURES` and whether s could answer only by burning (w < 1)."""
    shown = c.players[s].get("cards") is not None
    return [*features(s, q, p, book, c.counts[s], shown), 1.0 if w < 1 else 0.0]


class _ToldBot(HeuristicBot):
    context = _Told


class _AnswersBot(HeuristicBot):
    context = _Answers


def _duel(args: tuple[str, str, int, int, int, Any]) -> list[int]:
    """Pairs ``start`` … ``stop - 1`` of the arena's deals of ``seed``: a measured variant of the heuristic
    (``kind``: ``told`` with ``arg`` its mix, ``answers`` with ``arg`` its weights) against the heuristic."""
    from ..engine.scoring import team_points
    from .arena import bot_rng, deal_seed

    kind, preset, seed, start, stop, arg = args
    rules = resolve(preset)
    variant: HeuristicBot
    if kind == "told":
        _Told.mix = float(arg)
        variant = _ToldBot()
    else:
        _Answers.weights = list(arg)
        variant = _AnswersBot()
    plain = HeuristicBot()
    out = []
    for i in range(start, stop):
        margin = 0
        for game in (0, 1):
            deal = Deal.new(rules, seed=deal_seed(seed, i))
            rng = bot_rng(seed, i, game)
            mine = game  # the variant's team: seats 0 2 4 in game 0, 1 3 5 in game 1
            for _ in range(100_000):
                seat = deal.to_act
                if seat is None:
                    break
                bot = variant if seat % 2 == mine else plain
                if bot is variant and kind == "told":
                    _Told.truth = [deal.hand_counts(t) for t in range(6)]
                deal.act(decide(bot, deal, rng))
            points = team_points(deal)
            margin += points[mine] - points[1 - mine]
        out.append(margin)
    return out


def _duels(kind: str, preset: str, pairs: int, seed: int, arg: Any, jobs: int) -> list[int]:
    step = max(1, min(25, -(-pairs // jobs)))
    tasks = [(kind, preset, seed, i, min(pairs, i + step), arg) for i in range(0, pairs, step)]
    return [m for part in _spread(_duel, tasks, jobs) for m in part]


def ceiling(preset: str, pairs: int, seed: int, mix: float = 1.0, jobs: int = 1) -> list[int]:
    """The margins of ``pairs`` duplicate pairs (the arena's deals of ``seed``) of the heuristic told the true
    answer to every "can it be beaten?" question (blended by ``mix``) against the plain heuristic."""
    return _duels("told", preset, pairs, seed, mix, jobs)


def answer_margins(weights: Sequence[float], preset: str, pairs: int, seed: int, jobs: int = 1) -> list[int]:
    """The margins of ``pairs`` duplicate pairs of the heuristic asking the answer model ``weights``
    (:func:`answer_data`, :func:`newton`) against the plain heuristic."""
    if len(weights) != len(FEATURES) + 1:
        raise ValueError(f"an answer model has {len(FEATURES) + 1} weights, not {len(weights)}")
    return _duels("answers", preset, pairs, seed, list(weights), jobs)


def _answers(args: tuple[str, int, int, int]) -> tuple[list[list[float]], list[float], list[float]]:
    """Every time a seat faces a play of the other team it may answer: the features from the player's view
    (just after the play), whether the seat answered it, and the heuristic's own guess (w × binomial)."""
    from ..engine.plays import parse_play

    bot = HeuristicBot()
    rows: list[list[float]] = []
    labels: list[float] = []
    guess: list[float] = []

    def step(deal: Deal, rng: random.Random) -> None:
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat, log=True)
        action = bot.decide(view, deal.legal_actions(), rng)
        top, by = view.get("top"), view.get("top_seat")
        if view.get("phase") == "play" and top and by is not None and (int(by) - seat) % 2:
            q = parse_play(str(top))
            c = _Ctx(deal.view(int(by), log=True), bot.params)
            w = dict(c.answerers(q, True, sum(c.hand) == 0)).get(seat, 0.0)
            p = c.odds(seat).beat(q)
            if w > 0 and p > 0 and not (q.eff_big and not c.kill):
                rows.append(_answer_row(c, seat, q, p, w, PassBook(c.view.get("log") or ())))
                labels.append(0.0 if str(action) in ("pass", "yield") else 1.0)
                guess.append(w * p)
        deal.act(action)

    _self_play(*args, step)
    return rows, labels, guess


def answer_data(presets: Sequence[str], deals: int, seed: int, jobs: int = 1) -> tuple[Data, np.ndarray]:
    """Whether seats answered the plays they faced in ``deals`` self-play deals of each preset, with the
    heuristic's guess of each (its binomial chance that the seat can, times the seat's weight)."""
    rows: list[list[float]] = []
    labels: list[float] = []
    guess: list[float] = []
    for r, y, g in _spread(_answers, _tasks(presets, deals, seed), jobs):
        rows += r
        labels += y
        guess += g
    x = np.asarray(rows, dtype=np.float64).reshape(len(rows), len(FEATURES) + 1)
    return Data(x, np.asarray(labels, dtype=np.float64), deals * len(presets)), np.asarray(guess)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """The mean log-loss of chances ``p`` for outcomes ``y``."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return float(np.mean(-(y * np.log(q) + (1 - y) * np.log(1 - q))))
