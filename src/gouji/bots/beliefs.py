"""Learned beliefs: the chance that a hidden hand beats a play, from the binomial odds and who passed on what.

The heuristic asks, for every play it weighs, whether each opponent who may still answer holds a play that
beats it; its answer (:meth:`gouji.bots.heuristic.odds._Odds.beat`) draws each hidden hand as a binomial
share of the unseen cards, blind to the history.  A seat that passed on a weaker play of the other team
(no more cards, no higher rank) most likely holds nothing that beats this one — unless it was holding back.
:class:`Beliefs` weighs that evidence with a logistic model over :data:`FEATURES`, trained on self-play
labels of what the hidden hands actually held (``gouji beliefs``, :mod:`gouji.lab.beliefs`), and
:class:`BeliefCtx` puts its answer where the heuristic asks.

Everything here reads the seat's view: its card counter, card counts and the public log.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..engine.plays import Play, parse_play
from ..engine.seats import SEATS
from .heuristic import HeuristicBot
from .heuristic.context import _Ctx

FEATURES = (
    "bias",
    "logit",
    "dominated",
    "dominated_count",
    "dominated_this_round",
    "weaker_value",
    "teammate_dominated",
    "cards",
    "size",
    "value",
    "control",
    "logit_dominated",
    "count_shown",
    "logit_control",
)
"""The model's inputs for (seat s, play q):

- ``logit``: the log-odds of the binomial answer;
- ``dominated``, ``dominated_count``, ``dominated_this_round``: s passed on a natural play of the other team
  of no more cards and no higher rank than q (one it was free to answer: not another seat's gouji play),
  ever / how often (log 1 + n) / in the round being played;
- ``weaker_value``: s passed on such a play of no higher rank but more cards (weaker evidence);
- ``teammate_dominated``: s passed on such a play of its own team (no evidence: teammates let plays stand);
- ``cards``, ``size``, ``value``, ``control``: s's card count ÷ 36, q's cards ÷ 8, q's rank ÷ 15, whether q
  holds 2s or jokers; ``count_shown``: whether s's count is shown (or worked out) rather than guessed;
- ``logit_dominated``, ``logit_control``: products of those."""

LOGIT_CLIP = 9.0
"""The binomial answer's log-odds are clipped to ± this."""


@dataclass(frozen=True)
class Pass:
    """A seat passed on ``play``, played by ``by``, in round ``round`` of the deal."""

    play: Play
    by: int
    round: int
    free: bool
    """Whether the seat could have answered with a play (not another seat's gouji play, which only the
    对头 answers, or is burned)."""


class PassBook:
    """Who passed on what, read from the public log of a deal."""

    def __init__(self, log: Sequence[Mapping[str, Any]]) -> None:
        self.passes: list[list[Pass]] = [[] for _ in range(SEATS)]
        self.round = 0
        top: Play | None = None
        top_seat = -1
        for e in log:
            kind = e.get("type")
            if kind in ("deal", "play", "round", "void"):
                top, top_seat = None, -1
                self.round += 1
                continue
            if kind != "act":
                continue
            text = str(e.get("action", ""))
            seat = int(e.get("seat", -1))
            if text == "pass":
                if top is not None and 0 <= seat < SEATS and seat != top_seat:
                    free = not top.gouji or seat == (top_seat + 3) % SEATS
                    self.passes[seat].append(Pass(top, top_seat, self.round, free))
                continue
            if text.startswith("burn"):
                text = text[4:].strip()
            if not text or text.startswith("return") or text[0] not in "3456789TJQKA2XD":
                continue
            try:
                top = parse_play(text)
            except ValueError:
                continue
            top_seat = seat


def features(s: int, q: Play, p: float, book: PassBook, cards: float, shown: bool) -> list[float]:
    """:data:`FEATURES` for seat s and play q, the binomial answer being p."""
    pc = min(max(p, 1e-6), 1.0 - 1e-6)
    logit = max(-LOGIT_CLIP, min(LOGIT_CLIP, math.log(pc / (1.0 - pc))))
    dom = dom_round = weaker = mate = 0
    natural = q.value >= 0 and not q.has_joker
    if natural:
        for ps in book.passes[s]:
            r = ps.play
            if r.has_joker or r.value < 0 or r.value > q.value:
                continue
            if (ps.by - s) % 2 == 0:
                if r.size <= q.size:
                    mate += 1
                continue
            if not ps.free:
                continue
            if r.size <= q.size:
                dom += 1
                if ps.round == book.round:
                    dom_round = 1
            else:
                weaker = 1
    d = 1.0 if dom else 0.0
    control = 1.0 if (q.t or q.has_joker) else 0.0
    return [
        1.0,
        logit,
        d,
        math.log1p(dom),
        float(dom_round),
        float(weaker),
        1.0 if mate else 0.0,
        cards / 36.0,
        q.size / 8.0,
        (q.value + 1) / 15.0,
        control,
        logit * d,
        1.0 if shown else 0.0,
        logit * control,
    ]


class Beliefs:
    """The logistic model: weights over :data:`FEATURES`."""

    def __init__(self, weights: Sequence[float], meta: Mapping[str, Any] | None = None) -> None:
        if len(weights) != len(FEATURES):
            raise ValueError(f"beliefs need {len(FEATURES)} weights, one per feature, not {len(weights)}")
        self.weights = [float(w) for w in weights]
        self.meta = dict(meta or {})

    def chance(self, x: Sequence[float]) -> float:
        z = sum(w * v for w, v in zip(self.weights, x, strict=True))
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)

    def to_json(self) -> dict[str, Any]:
        return {"features": list(FEATURES), "weights": self.weights, "meta": self.meta}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Beliefs:
        names = list(data.get("features") or [])
        if names != list(FEATURES):
            raise ValueError(f"beliefs were trained on features {names}, not {list(FEATURES)}")
        return cls(list(data["weights"]), data.get("meta"))

    @classmethod
    def load(cls, path: str | None = None) -> Beliefs:
        """The shipped model (``bots/beliefs.json``), or the one at ``path``."""
        if path is None:
            text = resources.files("gouji.bots").joinpath("beliefs.json").read_text(encoding="utf-8")
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        return cls.from_json(json.loads(text))


_SHIPPED: list[Beliefs] = []


def shipped() -> Beliefs:
    """The shipped model, loaded once."""
    if not _SHIPPED:
        _SHIPPED.append(Beliefs.load())
    return _SHIPPED[0]


class BeliefCtx(_Ctx):
    """The heuristic's facts of a decision, with the learned chance that a hand beats a play."""

    beliefs: Beliefs | None = None
    """The model (``None``: the shipped one)."""

    _book: PassBook | None = None

    def book(self) -> PassBook:
        if self._book is None:
            self._book = PassBook(self.view.get("log") or ())
        return self._book

    def beat_chance(self, s: int, q: Play) -> float:
        p = self.odds(s).beat(q)
        if p <= 0.0:
            return 0.0
        model = self.beliefs or shipped()
        shown = self.players[s].get("cards") is not None
        return model.chance(features(s, q, p, self.book(), self.counts[s], shown))


class BeliefBot(HeuristicBot):
    """The heuristic, asking the learned beliefs whether a play will stand."""

    name = "beliefs"
    context = BeliefCtx
