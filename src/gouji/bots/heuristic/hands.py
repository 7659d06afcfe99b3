"""Hands as plans of plays: the ranks held, how many plays they need, and small helpers."""

from __future__ import annotations

from collections.abc import Sequence

from ...engine import cards as C
from ...engine.actions import (
    PASS,
    Action,
    Decision,
)
from ...engine.plays import NO_RANK, Play

THREE, FOUR, ACE, TWO, SMALL, BIG = C.THREE, C.FOUR, C.ACE, C.TWO, C.SMALL, C.BIG
NAMES = "3456789TJQKA2XD"


def _groups(h: Sequence[int], bie_san: bool) -> list[int]:
    """The natural ranks held, lowest first (3s left out under 憋三: they are the final play)."""
    return [r for r in range(FOUR if bie_san else THREE, ACE + 1) if h[r]]


def _flex(h: Sequence[int]) -> int:
    return h[TWO] + h[SMALL] + h[BIG]


def _plays_needed(h: Sequence[int], bie_san: bool) -> int:
    """How many plays empty the hand at best: one per natural rank (2s and jokers ride along)."""
    g = len(_groups(h, bie_san))
    n = g
    if g == 0 and _flex(h):
        n = 1
    if bie_san and h[THREE]:
        n += 1
    return n


def _minus(h: Sequence[int], q: Play) -> list[int]:
    return [a - b for a, b in zip(h, q.counts, strict=True)]


def _whole(h: Sequence[int], bie_san: bool) -> Play | None:
    """The hand as one play, if it is one."""
    nat = [r for r in range(THREE, ACE + 1) if h[r]]
    if len(nat) > 1:
        return None
    if nat and nat[0] == THREE and bie_san and _flex(h):
        return None
    if not nat and not _flex(h):
        return None
    r = nat[0] if nat else NO_RANK
    return Play.of(r, h[r] if nat else 0, h[TWO], h[SMALL], h[BIG])


def _only_threes(h: Sequence[int]) -> bool:
    return h[THREE] > 0 and sum(h) == h[THREE]


def _pct(sp: float) -> float:
    """A chance as a reason's parameter (two decimals)."""
    return round(sp, 2)


def _fallback(legal: Sequence[Action]) -> Action:
    """A sensible legal action when nothing better is known: decline if possible, else the first."""
    if PASS in legal:
        return PASS
    if len(legal) <= 256:  # a lead set may hold thousands of plays: never scan it
        for a in legal:
            if isinstance(a, Decision):
                return a
    return legal[0]
