"""What a hidden hand may hold: binomial odds over its share of the unseen cards."""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.plays import Play
from .hands import ACE, BIG, FOUR, SMALL, TWO


def _binom(n: int, p: float) -> list[float]:
    """The binomial pmf of n draws with chance p."""
    if n <= 0:
        return [1.0]
    if p >= 1.0:
        return [0.0] * n + [1.0]
    if p <= 0.0:
        return [1.0] + [0.0] * n
    q = 1.0 - p
    out = [q**n]
    ratio = p / q
    for k in range(1, n + 1):
        out.append(out[-1] * ratio * (n - k + 1) / k)
    return out


class _Odds:
    """What one hidden hand may hold: per rank, how many cards (binomial over its share of the unseen)."""

    __slots__ = ("_cache", "cdf", "kill", "pmf")

    def __init__(self, unseen: Sequence[int], share: float, kill: bool) -> None:
        self.pmf = [_binom(n, share) for n in unseen]
        cdf = []
        for pm in self.pmf:
            acc, row = 0.0, []
            for x in pm:
                acc += x
                row.append(acc)
            row[-1] = 1.0
            cdf.append(row)
        self.cdf = cdf
        self.kill = kill
        self._cache: dict[tuple[int, int, int], float] = {}

    @classmethod
    def of_hand(cls, hand: Sequence[int], kill: bool) -> _Odds:
        """The odds of a hand whose cards are known: every rank's count certain (labels for learning)."""
        return cls([0] * len(hand), 0.0, kill)._certain(hand)

    def _certain(self, hand: Sequence[int]) -> _Odds:
        self.pmf = [[0.0] * n + [1.0] for n in hand]
        self.cdf = [[0.0] * n + [1.0] for n in hand]
        self._cache.clear()
        return self

    def ge(self, r: int, k: int) -> float:
        """P(holds at least k cards of rank r)."""
        if k <= 0:
            return 1.0
        row = self.cdf[r]
        return 1.0 - row[k - 1] if k - 1 < len(row) else 0.0

    def _max_ge(self, v: int, j: int) -> float:
        """P(some natural rank above v is held j times or more)."""
        if j <= 0:
            return 1.0
        prod = 1.0
        for r in range(max(v + 1, FOUR), ACE + 1):
            row = self.cdf[r]
            if j - 1 < len(row):
                prod *= row[j - 1]
        return 1.0 - prod

    def _fill(self, k: int, v: int, use_x: bool) -> float:
        """P(small jokers (if usable) + 2s (if usable) + the longest natural rank above v >= k)."""
        key = (k, v, use_x)
        got = self._cache.get(key)
        if got is not None:
            return got
        pa = self.pmf[SMALL] if use_x else [1.0]
        if 0 <= v < TWO:
            p2 = self.pmf[TWO]
            conv = [0.0] * (len(pa) + len(p2) - 1)
            for i, a in enumerate(pa):
                if a:
                    for j, b in enumerate(p2):
                        conv[i + j] += a * b
            pa = conv
            total = 0.0
            for a, pr in enumerate(pa):
                if pr > 1e-9:
                    total += pr * self._max_ge(v, k - a)
        else:
            total = sum(pa[k:]) if k < len(pa) else 0.0
        self._cache[key] = total
        return total

    def beat(self, q: Play) -> float:
        """P(this hand holds a play that beats q)."""
        if q.eff_big:
            if not self.kill:
                return 0.0
            pd = self.ge(BIG, 2 * q.eff_big)
            if q.body == 0:
                return pd
            return pd * self._fill(q.body, q.value, False)
        xs = q.eff_small
        need = q.size - xs
        pmf_d = self.pmf[BIG]
        total = 0.0
        for d in range(xs, len(pmf_d)):
            pd = pmf_d[d]
            if pd < 1e-12:
                continue
            k = need - (d - xs)
            total += pd if k <= 0 else pd * self._fill(k, q.value, xs == 0)
        return min(1.0, total)
