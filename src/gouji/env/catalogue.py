"""The fixed action catalogue: every action of the game under a deck, each with a stable index.

An agent chooses among integers; the engine among :data:`gouji.engine.actions.Action` objects.  The catalogue is
the bijection between them, with four segments in this order:

1. **decisions** — :data:`DECISION_SLOTS` indices, the texts of :data:`DECISIONS` in the first of them
   (``pass`` is index 0, ``yield`` 1, …; a new decision takes the next free slot, so no index ever moves);
2. **returns** (还贡) — ``return <cards>`` for every multiset of 1 to :data:`MAX_RETURN` cards over the 15
   ranks: by size, then in the order of ``itertools.combinations_with_replacement(range(15), size)``
   (ranks as indices of ``3456789TJQKA2XD``);
3. **plays** — a mixed-radix index over ``(rank, k, t, x, d)``: for a natural rank 3..A
   ``(((rank·K + k−1)·T + t)·X + x)·D + d`` with ``K`` the most cards of one natural rank in the deck and
   ``T, X, D`` one more than its 2s, small and big jokers; then the plays without a natural rank (2s and
   jokers alone), ``(t·X + x)·D + d`` — whose first slot, the empty play, is never legal;
4. **burns** (烧牌) — the same layout again, ``burn <play>`` at the play's index plus the size of the plays
   segment.

The sizes depend only on the deck's largest counts: 167,957 actions with 4 decks (82,025 play shapes),
711,957 with 6 (354,025 shapes).  Some indices are never legal under a given deck (more 3s than a deck
with 3s removed holds, for one); they still name a well-formed action.

:meth:`Catalogue.mask` builds the action mask of a :class:`~gouji.engine.actions.LegalActions` without listing
its actions: a block of leads is a product of ranges, so it is one slice assignment into the plays segment
seen as a five-dimensional array.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ..bots.features import DECISIONS
from ..engine.actions import Action, Burn, Decision, InvalidAction, LegalActions, Return, _Block, parse_action
from ..engine.cards import ACE, BIG, NATURAL_RANKS, NUM_RANKS, SMALL, THREE, TWO, build_deck
from ..engine.plays import NO_RANK, Play
from ..engine.rules import RuleSet, resolve

DECISION_SLOTS = 32
"""Indices kept for decisions: :data:`DECISIONS` (from :mod:`gouji.bots.features`, whose one-hot follows
the same order) fills the first ones; a new decision takes the next slot and moves no other index."""

MAX_RETURN = 4
"""The most cards a 还贡 return in the catalogue holds (the rules ask for 1 or 2: 落贡 is 2 or 1 cards)."""

NATURALS = ACE - THREE + 1


class Catalogue:
    """The action catalogue of one deck shape; build it with :func:`catalogue`."""

    def __init__(self, max_natural: int, twos: int, small: int, big: int) -> None:
        self.max_natural, self.twos, self.small, self.big = max_natural, twos, small, big
        K, T, X, D = max_natural, twos + 1, small + 1, big + 1
        self.shape = (NATURALS, K, T, X, D)
        """The natural plays as an array: (rank − 3, k − 1, t, x, d)."""
        self.extra_shape = (T, X, D)
        """The plays without a natural rank: (t, x, d)."""
        returns: list[tuple[int, ...]] = []
        for size in range(1, MAX_RETURN + 1):
            for combo in itertools.combinations_with_replacement(range(NUM_RANKS), size):
                counts = [0] * NUM_RANKS
                for r in combo:
                    counts[r] += 1
                returns.append(tuple(counts))
        self._returns = returns
        self._return_index = {c: i for i, c in enumerate(returns)}
        self.decision_start = 0
        self.return_start = DECISION_SLOTS
        self.play_start = self.return_start + len(returns)
        self.natural_size = NATURALS * K * T * X * D
        self.play_size = self.natural_size + T * X * D
        self.burn_start = self.play_start + self.play_size
        self.size = self.burn_start + self.play_size
        """The number of actions."""
        self._decision_index = {text: i for i, text in enumerate(DECISIONS)}
        self._play_index: dict[Play, int] = {}
        self._action_cache: dict[int, Action] = {}
        self._index_of: dict[Action, int] = {}
        self._block_cache: dict[tuple[int, ...], np.ndarray[Any, np.dtype[np.int64]]] = {}

    def __repr__(self) -> str:
        return (
            f"Catalogue({self.size} actions: {self.max_natural} of a natural rank, {self.twos} 2s, "
            f"{self.small} X, {self.big} D)"
        )

    # ------------------------------------------------------------------ index <-> action

    def play_offset(self, play: Play) -> int:
        """The index of ``play`` within the plays segment; ``ValueError`` if the deck cannot hold it."""
        i = self._play_index.get(play)
        if i is not None:
            return i
        rank, k, t, x, d = play.key
        if t > self.twos or x > self.small or d > self.big or k > self.max_natural:
            raise ValueError(f"{play} is not a play of this deck ({self.describe_deck()})")
        T, X, D = self.extra_shape
        if rank == NO_RANK:
            i = self.natural_size + (t * X + x) * D + d
        else:
            i = (((rank - THREE) * self.max_natural + k - 1) * T + t) * X * D + x * D + d
        self._play_index[play] = i
        return i

    def index(self, action: str | Action) -> int:
        """The catalogue index of an action (or its text)."""
        a = parse_action(action)
        if isinstance(a, Play):
            return self.play_start + self.play_offset(a)
        if isinstance(a, Burn):
            return self.burn_start + self.play_offset(a.play)
        if isinstance(a, Decision):
            try:
                return self._decision_index[a.text]
            except KeyError:
                raise ValueError(f"the decision {a.text!r} has no index in the catalogue") from None
        if a.size > MAX_RETURN:
            raise ValueError(f"'{a}': the catalogue holds returns (还贡) of at most {MAX_RETURN} cards")
        return self.return_start + self._return_index[a.counts]

    def action(self, index: int) -> Action:
        """The action at ``index``; ``IndexError`` outside the catalogue or at the empty play's slot."""
        i = int(index)
        a = self._action_cache.get(i)
        if a is None:
            a = self._action_at(i, index)
            if len(self._action_cache) >= 100_000:
                self._action_cache.clear()
            self._action_cache[i] = a
        return a

    def _action_at(self, i: int, index: int) -> Action:
        if not 0 <= i < self.size:
            raise IndexError(f"action index {index} is outside the catalogue (0 … {self.size - 1})")
        if i < self.return_start:
            if i >= len(DECISIONS):
                raise IndexError(f"action index {i} is a decision slot kept free for later decisions")
            try:
                return parse_action(DECISIONS[i])
            except InvalidAction:
                raise IndexError(f"action index {i} is the decision {DECISIONS[i]!r}, unknown to the engine") from None
        if i < self.play_start:
            return Return(self._returns[i - self.return_start])
        if i < self.burn_start:
            return self._play_at(i - self.play_start, i)
        return Burn(self._play_at(i - self.burn_start, i))

    def _play_at(self, j: int, index: int) -> Play:
        T, X, D = self.extra_shape
        if j >= self.natural_size:
            t, rest = divmod(j - self.natural_size, X * D)
            x, d = divmod(rest, D)
            if t == x == d == 0:
                raise IndexError(f"action index {index} is the empty play's slot, never an action")
            return Play.of(NO_RANK, 0, t, x, d)
        rk, rest = divmod(j, T * X * D)
        r, k = divmod(rk, self.max_natural)
        t, rest = divmod(rest, X * D)
        x, d = divmod(rest, D)
        return Play.of(THREE + r, k + 1, t, x, d)

    def text(self, index: int) -> str:
        """The text of the action at ``index`` (``"pass"``, ``"return 65"``, ``"XX88"``, ``"burn KKK"``)."""
        i = int(index)
        if 0 <= i < len(DECISIONS):
            return DECISIONS[i]
        return str(self.action(i))

    # ------------------------------------------------------------------ masks

    def _explicit_indices(self, actions: Sequence[Action]) -> list[int]:
        """The indices of actions given one by one (a fast path for plays, burns and decisions)."""
        known = self._index_of
        out = [known.get(a, -1) for a in actions]  # actions are cached objects: one lookup each
        if -1 in out:
            out = [i if i >= 0 else self._learn_index(a) for i, a in zip(out, actions, strict=True)]
        return out

    def _learn_index(self, a: Action) -> int:
        if type(a) is Play:
            i = self.play_start + self.play_offset(a)
        elif type(a) is Burn:
            i = self.burn_start + self.play_offset(a.play)
        else:
            i = self.index(a)
        if len(self._index_of) >= 200_000:
            self._index_of.clear()
        self._index_of[a] = i
        return i

    def indices(self, legal: LegalActions) -> np.ndarray[Any, np.dtype[np.int64]]:
        """The catalogue index of every legal action, in the order of ``legal``."""
        parts = [np.asarray(self._explicit_indices(legal.explicit), dtype=np.int64)]
        for b in legal.blocks:
            idx = self._block_indices(b)
            parts.append(idx[b.skip :] if b.skip else idx)
        return np.concatenate(parts) if len(parts) > 1 else parts[0]  # a new array either way

    def _block_indices(self, b: _Block) -> np.ndarray[Any, np.dtype[np.int64]]:
        """The indices of a block's plays (a read-only array, cached: the same holdings recur)."""
        key = (b.rank, b.k0, b.kn, b.t0, b.tn, b.xn, b.dn)
        idx = self._block_cache.get(key)
        if idx is None:
            if len(self._block_cache) >= 20_000:
                self._block_cache.clear()
            idx = self._block_cache[key] = self._compute_block_indices(b)
            idx.flags.writeable = False
        return idx

    def _compute_block_indices(self, b: _Block) -> np.ndarray[Any, np.dtype[np.int64]]:
        k = np.arange(b.k0, b.k0 + b.kn)
        t = np.arange(b.t0, b.t0 + b.tn)
        x = np.arange(b.xn)
        d = np.arange(b.dn)
        T, X, D = self.extra_shape
        inner = (t[:, None, None] * X + x[None, :, None]) * D + d[None, None, :]
        if b.rank == NO_RANK:
            return (self.play_start + self.natural_size + inner).reshape(-1)
        base = ((b.rank - THREE) * self.max_natural + k - 1) * T * X * D
        return (self.play_start + base[:, None, None, None] + inner[None]).reshape(-1)

    def mask(self, legal: LegalActions) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The action mask (int8, 1 for a legal action) of ``legal``, built block by block."""
        mask = np.zeros(self.size, dtype=np.int8)
        self.fill(mask, legal, 1)
        return mask

    def fill(self, mask: np.ndarray[Any, np.dtype[np.int8]], legal: LegalActions, value: int) -> None:
        """Set the entries of ``legal``'s actions in ``mask`` to ``value`` (1 to mark them, 0 to clear a
        mask for reuse), block by block."""
        explicit = legal.explicit
        if explicit:
            mask[self._explicit_indices(explicit)] = value
        blocks = legal.blocks
        if blocks:
            start = self.play_start
            naturals = mask[start : start + self.natural_size].reshape(self.shape)
            extra = mask[start + self.natural_size : start + self.play_size].reshape(self.extra_shape)
            for b in blocks:
                if b.rank == NO_RANK:
                    extra[b.t0 : b.t0 + b.tn, : b.xn, : b.dn] = value
                    if b.skip:
                        extra[0, 0, 0] = 0  # the empty play, never legal
                else:
                    naturals[b.rank - THREE, b.k0 - 1 : b.k0 - 1 + b.kn, b.t0 : b.t0 + b.tn, : b.xn, : b.dn] = value

    def describe_deck(self) -> str:
        return f"at most {self.max_natural} of a natural rank, {self.twos} 2s, {self.small} X and {self.big} D"


@lru_cache(maxsize=16)
def _catalogue(max_natural: int, twos: int, small: int, big: int) -> Catalogue:
    return Catalogue(max_natural, twos, small, big)


def catalogue(rules: RuleSet | str | None = "qingdao") -> Catalogue:
    """The catalogue for the deck of ``rules`` (a RuleSet or a preset name); one object per deck shape."""
    rs = resolve(rules)
    deck = build_deck(rs.decks, rs.removed_counts)
    return _catalogue(max(deck[r] for r in NATURAL_RANKS), deck[TWO], deck[SMALL], deck[BIG])
