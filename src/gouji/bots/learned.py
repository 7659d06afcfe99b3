"""The learned bot: a value network, trained by Deep Monte-Carlo self-play, scoring (state, action) pairs.

The bot sees what every bot sees — one seat's view and that seat's legal actions — and decides in four steps:

1. a decision with one legal action is answered at once;
2. the heuristic bot's choice is computed from the same view (it becomes a feature: *the prior*);
3. a short list of candidate actions is drawn from the legal ones (:func:`candidates`: all of them when
   there are few, otherwise the plays a player would consider — each rank whole, 2s and jokers alone,
   pure gouji plays at their threshold, the cheapest answers — plus the prior);
4. every candidate is encoded (:func:`gouji.bots.features.encode_actions`) beside the state
   (:func:`gouji.bots.features.encode_state`) and the network's highest-valued candidate is played.

The network is a plain multi-layer perceptron stored as an ``.npz`` file of weight matrices and evaluated
with numpy alone: no training stack is needed to play.  ``gouji train`` (the ``[train]`` extra, PyTorch)
writes such files; the one shipped with the package is ``learned.npz`` beside this module.  How it was
trained and how it sees the game: ``docs/learned.md``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine.actions import Action, Burn, Decision
from ..engine.cards import ACE, BIG, SMALL, THREE, TWO, parse_counts
from ..engine.plays import GOUJI_THRESHOLD, NO_RANK, Play
from .features import ACTION_SIZE, STATE_SIZE, encode_actions, encode_state
from .heuristic import HeuristicBot

F32 = npt.NDArray[np.float32]

WEIGHTS = Path(__file__).with_name("learned.npz")
"""The shipped network."""
MAX_CANDIDATES = 48
"""At most this many actions are scored per decision."""


_BLAS: Any = None


def _one_blas_thread() -> Any:
    """A context in which numpy's BLAS uses one thread."""
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


class QNet:
    """The value network as numpy arrays: ``q(state, actions)`` → one value per action row.

    Layers are ``relu(x @ W + b)`` with a linear last layer; the input of the first is the state vector
    followed by the action row, so its weight matrix is split once into a state part (computed once per
    decision) and an action part.
    """

    def __init__(self, layers: Sequence[tuple[F32, F32]], meta: Mapping[str, Any] | None = None) -> None:
        if not layers:
            raise ValueError("a network needs at least one layer")
        w0, b0 = layers[0]
        if w0.shape[0] != STATE_SIZE + ACTION_SIZE:
            raise ValueError(
                f"the network's input has {w0.shape[0]} numbers, the features have {STATE_SIZE + ACTION_SIZE} "
                f"({STATE_SIZE} state + {ACTION_SIZE} action): it was trained on other features"
            )
        self.w_state = np.ascontiguousarray(w0[:STATE_SIZE], dtype=np.float32)
        self.w_action = np.ascontiguousarray(w0[STATE_SIZE:], dtype=np.float32)
        self.b0 = np.asarray(b0, dtype=np.float32)
        self.rest = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in layers[1:]]
        self.meta = dict(meta or {})

    @classmethod
    def load(cls, path: str | Path) -> QNet:
        """Read a network written by :meth:`save` (or by ``gouji train``)."""
        with np.load(path, allow_pickle=False) as z:
            n = int(z["layers"])
            layers = [(z[f"w{i}"], z[f"b{i}"]) for i in range(n)]
            meta = json.loads(str(z["meta"])) if "meta" in z else {}
        return cls(layers, meta)

    def save(self, path: str | Path) -> None:
        """Write the network as an ``.npz`` file."""
        arrays: dict[str, Any] = {"layers": np.asarray(1 + len(self.rest))}
        arrays["w0"] = np.concatenate([self.w_state, self.w_action])
        arrays["b0"] = self.b0
        for i, (w, b) in enumerate(self.rest, 1):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        arrays["meta"] = np.asarray(json.dumps(self.meta))
        np.savez_compressed(path, **arrays)

    def q(self, state: F32, actions: F32) -> F32:
        """The value of each action row of ``actions`` in ``state``, on one thread: matrices this small
        only lose from BLAS threads, and on a busy machine they lose badly (spinning threads that wait for
        a core made one call 40 times slower in a measurement)."""
        with _one_blas_thread():
            return self._q(state, actions)

    def _q(self, state: F32, actions: F32) -> F32:
        h = np.maximum(actions @ self.w_action + (state @ self.w_state + self.b0), 0.0)
        last = len(self.rest) - 1
        for i, (w, b) in enumerate(self.rest):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h[:, 0]


def _cost(a: Action) -> tuple[int, int, int, int]:
    p = a.play if isinstance(a, Burn) else a
    if isinstance(p, Play):
        return (p.x + p.d, p.t, p.size, p.value)
    return (0, 0, 0, 0)


def candidates(view: Mapping[str, Any], legal: Sequence[Action], prior: Action | None) -> list[Action]:
    """The actions worth scoring: all of ``legal`` when there are at most :data:`MAX_CANDIDATES`, else
    the decisions (pass, yield …), a player's natural leads, the cheapest plays, and ``prior``."""
    n = len(legal)
    if n <= MAX_CANDIDATES:
        return list(legal)
    out: list[Action] = []
    seen: set[int] = set()

    def add(a: Action | None) -> None:
        if a is not None and id(a) not in seen and a in legal:
            seen.add(id(a))
            out.append(a)

    add(prior)
    for d in ("pass", "yield"):
        add(Decision._all[d])
    if view.get("phase") == "play" and view.get("top") is None and not view.get("burn_offer"):
        h = parse_counts(view.get("hand") or "")
        h2, hx, hd = h[TWO], h[SMALL], h[BIG]
        for r in range(THREE, ACE + 1):
            k = h[r]
            if not k:
                continue
            add(Play.of(r, k, 0, 0, 0))
            if h2:
                add(Play.of(r, k, h2, 0, 0))
            thr = GOUJI_THRESHOLD.get(r)
            if thr is not None and k > thr:
                add(Play.of(r, thr, 0, 0, 0))
            if k > 1:
                add(Play.of(r, 1, 0, 0, 0))
        if h2:
            add(Play.of(NO_RANK, 0, h2, 0, 0))
            add(Play.of(NO_RANK, 0, 1, 0, 0))
        if hx:
            add(Play.of(NO_RANK, 0, 0, hx, 0))
        if hd:
            add(Play.of(NO_RANK, 0, 0, 0, hd))
        if hx and hd:
            add(Play.of(NO_RANK, 0, 0, hx, hd))
        return out[:MAX_CANDIDATES]
    # Answers, burns and 还贡 come as an explicit list: keep the cheapest of them.
    rest = sorted((a for a in legal if id(a) not in seen), key=_cost)
    for a in rest:
        if len(out) >= MAX_CANDIDATES:
            break
        add(a)
    return out


DECISION_KINDS = ("setup", "burn", "lead", "respond")


def decision_kind(view: Mapping[str, Any]) -> str:
    """What kind of decision a view asks for: ``setup`` (before play), ``burn`` (a burn offer), ``lead``
    or ``respond`` (a play on the table to beat or pass)."""
    if view.get("phase") != "play":
        return "setup"
    if view.get("burn_offer"):
        return "burn"
    return "lead" if view.get("top") is None else "respond"


def safe(heuristic: HeuristicBot, view: Mapping[str, Any], action: Action) -> bool:
    """Whether a bot may weigh ``action`` against ``heuristic``'s choice at all: never a 诈烧 — a burn that
    cannot be carried (not enough jokers for the plays after it), nor a play of the seat's own burn that
    breaks it (no joker before the last play) or leaves too few jokers to carry the rest."""
    if isinstance(action, Burn):  # (burns are offered only at a burn offer)
        return heuristic.carryable(view, action)
    if isinstance(action, Play):
        seat = int(view["seat"])
        players = view.get("players") or []
        if seat < len(players) and players[seat].get("burning"):
            if action.size == sum(parse_counts(view.get("hand") or "")):
                return True  # the last play of the burn
            return bool(action.x or action.d) and heuristic.carryable(view, action)
    return True


class LearnedBot:
    """Chooses the candidate with the highest value under a :class:`QNet` (see the module docstring)."""

    name = "learned"
    wants_log = True

    def __init__(self, net: QNet | None = None, epsilon: float = 0.0) -> None:
        self.net = net if net is not None else shipped(WEIGHTS, "learned")
        self.epsilon = epsilon
        """With this probability an exploring bot (in training) plays a random candidate instead."""
        self.prior = HeuristicBot()
        self.bonus = float(self.net.meta.get("prior_bonus", 0.0))
        """How much more than the heuristic's choice another candidate must be worth to be played."""
        self.bonus_by_rules = {str(k): float(v) for k, v in dict(self.net.meta.get("prior_bonus_by_rules", {})).items()}
        """The same per preset, where the network's values were checked (see ``docs/learned.md``)."""
        kinds = self.net.meta.get("deviate_in")
        self.kinds = None if kinds is None else frozenset(str(k) for k in kinds)
        """The kinds of decision (:func:`decision_kind`) where the network may overrule the heuristic;
        ``None``: all of them."""

    def safe(self, view: Mapping[str, Any], action: Action) -> bool:
        """Whether the network may weigh ``action`` at all (:func:`safe`)."""
        return safe(self.prior, view, action)

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        return self.evaluate(view, legal, rng)[0]

    def evaluate(
        self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random | None = None
    ) -> tuple[Action, list[Action], F32, F32, int]:
        """The action, the candidates, the state vector, their action rows and the chosen index."""
        if len(legal) == 0:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0], [legal[0]], np.zeros(0, np.float32), np.zeros((0, ACTION_SIZE), np.float32), 0
        prior = self.prior.choose(view, legal)[0]
        if self.kinds is not None and decision_kind(view) not in self.kinds:
            return prior, [prior], np.zeros(0, np.float32), np.zeros((0, ACTION_SIZE), np.float32), 0
        cands = candidates(view, legal, prior)
        cands = [a for a in cands if a is prior or self.safe(view, a)]
        state = encode_state(view)
        rows = encode_actions(view, cands, prior=cands.index(prior) if prior in cands else None)
        if rng is not None and self.epsilon > 0 and rng.random() < self.epsilon:
            i = rng.randrange(len(cands))
        else:
            q = self.net.q(state, rows)
            bonus = self.bonus_by_rules.get(str(view.get("rules")), self.bonus)
            if bonus:
                q = q + bonus * rows[:, -1]  # the last column flags the heuristic's choice
            i = int(np.argmax(q))
        return cands[i], cands, state, rows, i


_SHIPPED: dict[Path, QNet] = {}


def shipped(path: Path, bot: str) -> QNet:
    """The network shipped at ``path`` for ``bot``, read once (a missing file names the bot)."""
    net = _SHIPPED.get(path)
    if net is None:
        if not path.exists():
            raise FileNotFoundError(f"the {bot} bot's weights are missing: {path}")
        net = _SHIPPED[path] = QNet.load(path)
    return net


__all__ = [
    "DECISION_KINDS",
    "MAX_CANDIDATES",
    "WEIGHTS",
    "LearnedBot",
    "QNet",
    "candidates",
    "decision_kind",
    "safe",
    "shipped",
]
