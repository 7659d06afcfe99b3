"""The decisions before play (revolution, 要头, 宣点, buying a 4, 冲点, the regional ones) and 还贡."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...engine import cards as C
from ...engine.actions import (
    BUY_FOUR,
    CHONGDIAN,
    DECLARE,
    PASS,
    REVOLT,
    SWAP,
    Action,
)
from ...engine.plays import Play
from ..reasons import Reason
from ..reasons import reason as R
from .context import _Ctx, rules_of
from .hands import (
    ACE,
    BIG,
    SMALL,
    THREE,
    TWO,
    _fallback,
    _groups,
    _plays_needed,
)
from .params import Params


def _strength(h: Sequence[int]) -> float:
    return 3.0 * h[BIG] + 2.0 * h[SMALL] + 1.0 * h[TWO] + 0.5 * h[ACE] + 0.25 * h[ACE - 1]


def _revolution(view: Mapping[str, Any], p: Params) -> tuple[Action, Reason]:
    h = C.parse_counts(view.get("hand") or "")
    bie_san = rules_of(view).bie_san
    groups = len(_groups(h, bie_san))
    high = h[ACE] + 0.5 * h[ACE - 1] + 0.25 * h[ACE - 2]
    score = high - 0.25 * max(0, groups - 8)
    if score < p.revolt_below:
        return REVOLT, R("revolt", aces=h[ACE], kings=h[ACE - 1])
    return PASS, R("no_revolt", aces=h[ACE], kings=h[ACE - 1])


def _declare(view: Mapping[str, Any], p: Params) -> tuple[Action, Reason]:
    h = C.parse_counts(view.get("hand") or "")
    s = _strength(h)
    if s >= p.declare_at:
        return DECLARE, R("declare")
    return PASS, R("no_declare")


def _chongdian(view: Mapping[str, Any]) -> tuple[Action, Reason]:
    h = C.parse_counts(view.get("hand") or "")
    pure = [r for r in range(C.TEN, ACE + 1) if h[r] and Play.of(r, h[r]).pure]
    if len(pure) >= 3 and h[ACE] >= 3:
        return CHONGDIAN, R("chongdian", groups=len(pure), aces=h[ACE])
    return PASS, R("no_chongdian")


def _chong_attempt(c: _Ctx, legal: Sequence[Action]) -> tuple[Action, Reason]:
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return _fallback(legal), R("safe")
    best = max(plays, key=lambda q: (c.stand(q, leading=True), -q.size))
    return best, R("chong_attempt", play=str(best), stand=c.stand(best, leading=True))


def _swap(view: Mapping[str, Any]) -> tuple[Action, Reason]:
    """换点: each gives the other their highest card.  Holding a 大王, I would give the best card there is
    and get one no better; without one, I give a 小王 or a 2 and most likely get a joker."""
    h = C.parse_counts(view.get("hand") or "")
    if h[BIG]:
        return PASS, R("no_swap")
    return SWAP, R("swap")


def _buy_four(view: Mapping[str, Any]) -> tuple[Action, Reason]:
    h = C.parse_counts(view.get("hand") or "")
    if rules_of(view).kaidian_needs_four and any(h[r] and Play.of(r, h[r]).pure for r in range(C.TEN, ACE + 1)):
        return BUY_FOUR, R("buy4")
    return PASS, R("no_buy4")


def _choose_return(view: Mapping[str, Any], returns: list[Action]) -> tuple[Action, Reason]:
    """还贡: give back the lowest cards, preferring ones that shorten the hand."""
    h = C.parse_counts(view.get("hand") or "")
    bie_san = rules_of(view).bie_san
    best: tuple[tuple[float, int], Action] | None = None
    for a in returns:
        text = str(a)[len("return ") :]
        try:
            cards = C.parse_counts(text)
        except ValueError:
            continue
        if not all(h[r] >= n for r, n in enumerate(cards)):
            continue
        rest = [h[r] - cards[r] for r in range(C.NUM_RANKS)]
        value = sum(n * (r + 1) ** 2 for r, n in enumerate(cards))
        if bie_san and h[THREE] and not rest[THREE]:
            value += 1000  # keep a 3 for the last play
        key = (value + 5.0 * _plays_needed(rest, bie_san), sum(cards))
        if best is None or key < best[0]:
            best = (key, a)
    if best is None:
        return returns[0], R("return_first")
    return best[1], R("return_low", cards=str(best[1])[len("return ") :])
