"""What a seat asked to choose is told of its choices, so that its page re-implements no rule of the game
(issue 29): every legal action, compactly when there are many, and what a burn needs.

All of it comes from the seat's own hand and its own legal actions, and goes only into that seat's ``turn``
(:meth:`~gouji.server.tables.table.Room.turn_info`): nothing of another seat's cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import sub
from typing import Any

from ...engine import cards as C
from ...engine.actions import Burn, LegalActions
from ...engine.plays import NO_RANK

BURN_NEEDS_CAP = 256
"""A burn offer's needs are listed for at most this many burns (a burn offer rarely has a tenth of it)."""


def legal_set(legal: LegalActions) -> dict[str, Any]:
    """The legal actions compactly (``turn.legal``, sent when they are too many to list): ``explicit``, the
    texts of the actions listed one by one (answers, burns, decisions), and ``blocks``, the leads as boxes
    ``[rank, k0, kn, t0, tn, xn, dn, skip]`` — every play of ``rank`` (``""``: none) ×k, 2×t, X×x and D×d
    with ``k0 <= k < k0 + kn``, ``t0 <= t < t0 + tn``, ``x < xn``, ``d < dn``, but the empty play when
    ``skip`` (:attr:`LegalActions.blocks`)."""
    return {
        "explicit": [str(a) for a in legal.explicit],
        "blocks": [
            ["" if b.rank == NO_RANK else C.RANKS[b.rank], b.k0, b.kn, b.t0, b.tn, b.xn, b.dn, b.skip]
            for b in legal.blocks
        ],
    }


def plays_needed(hand: Sequence[int], bie_san: bool) -> int:
    """How many plays empty ``hand`` at best: one per natural rank (2s and jokers ride along; under 憋三 the
    3s are a play of their own, the last)."""
    natural = hand[C.FOUR if bie_san else C.THREE : C.ACE + 1]
    groups = len(natural) - natural.count(0)  # (the ranks held: the same as counting them one by one)
    n = groups
    if not groups and (hand[C.TWO] or hand[C.SMALL] or hand[C.BIG]):
        n = 1
    if bie_san and hand[C.THREE]:
        n += 1
    return n


def burn_need(rest: Sequence[int], bie_san: bool) -> list[int]:
    """What a burner left with ``rest`` needs to carry the burn (every play but the last holds a joker):
    ``[plays left, jokers they need, jokers held]``."""
    after = plays_needed(rest, bie_san) if any(rest) else 0
    return [after, max(0, after - 1), rest[C.SMALL] + rest[C.BIG]]


def burn_needs(hand: Sequence[int], legal: LegalActions, bie_san: bool) -> dict[str, list[int]]:
    """For each burn offered (by its cards' text): :func:`burn_need` of the hand it leaves."""
    out: dict[str, list[int]] = {}
    for a in legal.explicit:
        if isinstance(a, Burn):
            out[str(a.play)] = burn_need(list(map(sub, hand, a.play.counts)), bie_san)
            if len(out) >= BURN_NEEDS_CAP:
                break
    return out
