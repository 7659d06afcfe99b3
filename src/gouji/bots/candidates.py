"""The candidates of a decision: a handful of distinct legal actions worth comparing.

The 复盘 review and the distillation labels (:func:`gouji.lab.lookahead.candidates`) compare these by
rollouts with the true hands; the ``expert`` bot (:mod:`gouji.bots.expert`) picks the same ones from a
seat's view and legal actions, so its model is asked about the very candidates it was trained on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.actions import Action, Burn, Decision, Return
from ..engine.cards import RANKS
from ..engine.plays import Play


def kind(action: Action, lead: bool) -> str:
    """The kind of an action, for choosing candidates: a decision by its name (``pass``, ``yield`` …),
    ``return`` (还贡), ``burn`` with what the burn attaches, a lead by the natural rank it leads (``lead 7``,
    ``lead 2``, ``lead jokers``), an answer by what it attaches (``natural``, ``2s``, ``jokers``)."""
    if isinstance(action, Decision):
        return action.text
    if isinstance(action, Return):
        return "return"
    if isinstance(action, Burn):
        return "burn " + _attached(action.play)
    if lead:
        if action.k:
            return f"lead {RANKS[action.rank]}"
        return "lead 2" if action.t and not action.has_joker else "lead jokers"
    return _attached(action)


def _attached(p: Play) -> str:
    return "jokers" if p.has_joker else "2s" if p.t else "natural"


def strength(action: Action) -> tuple[int, ...]:
    """An order of strength within a kind: jokers as they count, then the effective rank, then 2s, size."""
    if isinstance(action, Burn):
        action = action.play
    if isinstance(action, Play):
        return (action.eff_big, action.eff_small, action.value, action.t, action.size)
    if isinstance(action, Return):
        return tuple(reversed(action.counts))
    return ()


def _whole(p: Play) -> tuple[int, int]:
    """How near a lead is to its rank played whole with nothing attached (the natural lead): lower is nearer."""
    return (p.t + p.x + p.d, -p.size)


def is_lead(view: Mapping[str, Any]) -> bool:
    """Whether a seat's view asks for a lead: nothing on the table to beat and no burn offer."""
    return view.get("top") is None and not view.get("burn_offer")


def pick(
    legal: Sequence[Action],
    lead: bool,
    extra: Sequence[Action | None] = (),
    limit: int = 8,
    policy_choice: Action | None = None,
) -> list[Action]:
    """A handful of distinct actions of ``legal``, at most ``limit`` (``extra`` always kept).

    First ``extra`` (what was played, the heuristic's choice: ``None`` entries are skipped) and
    ``policy_choice``, then every legal decision (pass, yield, the setup decisions), then of each kind
    (:func:`kind`) the cheapest and the strongest (:func:`strength`) — for leads (``lead``: nothing on the
    table and no burn offer), of each natural rank the lead nearest to the rank played whole with nothing
    attached, the kinds taken from the lowest and the highest rank inward.
    """
    out: list[Action] = []
    seen: set[str] = set()

    def add(a: Action | None) -> None:
        if a is not None and a.text not in seen and a in legal:
            seen.add(a.text)
            out.append(a)

    for a in extra:
        add(a)
    add(policy_choice)
    groups: dict[str, list[Action]] = {}
    for a in legal:
        if isinstance(a, Decision):
            add(a)
        else:
            groups.setdefault(kind(a, lead), []).append(a)
    picks: list[Action] = []
    if lead and all(k.startswith("lead") for k in groups):
        ordered = sorted(groups.values(), key=lambda g: strength(min(g, key=strength)))
        order = [ordered[i // 2] if i % 2 == 0 else ordered[-1 - i // 2] for i in range(len(ordered))]
        for g in order:
            plays = [a for a in g if isinstance(a, Play)]
            picks.append(min(plays, key=_whole) if plays else g[0])
    else:
        for g in groups.values():
            picks.append(min(g, key=strength))
            picks.append(max(g, key=strength))
    for a in picks:
        if len(out) >= max(limit, len([e for e in extra if e is not None])):
            break
        add(a)
    return out


__all__ = ["is_lead", "kind", "pick", "strength"]
