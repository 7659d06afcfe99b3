"""Perft for Gouji: counts of legal actions and of reachable positions, to compare move generators number for
number (``docs/conformance.md``, "perft").

From a deal in play (six hands and a leader) a fixed ``line`` of moves is played; ``line_counts`` is the number
of legal actions at each decision of the line, the one after its last move included.  From the position at the
end of the line, ``paths[n-1]`` is the number of sequences of ``n`` decisions (chess perft's leaf count) and
``positions[n-1]`` the number of distinct positions they reach — a position being the seat to act, the six
hands (as multisets), the play to beat and the seat that made it (see :func:`position_key`)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..engine.deal import Deal
from ..engine.rules import RuleSet

Key = tuple[Any, ...]


def position_key(deal: Deal) -> Key:
    """What makes two positions the same for ``positions``: the seat to act (None once over), the six hands,
    the play to beat (its text, or None) and its seat (-1 when none)."""
    top = deal.top
    return (deal.to_act, tuple(tuple(h) for h in deal.hands), None if top is None else str(top), deal.top_seat)


def start(spec: Mapping[str, Any], rules: RuleSet) -> Deal:
    """The deal a perft case starts from: the hands straight into play, led by ``leader``."""
    return Deal.from_hands(spec["hands"], rules, leader=spec.get("leader", 0))


def line_counts(deal: Deal, line: list[str]) -> list[int]:
    """Plays ``line`` on ``deal``; the number of legal actions before each move and after the last."""
    counts = [len(deal.legal_actions())]
    for move in line:
        deal.act(move)
        counts.append(len(deal.legal_actions()))
    return counts


def explore(deal: Deal, depth: int) -> tuple[list[int], list[int]]:
    """(paths, positions) for 1..``depth`` decisions from ``deal`` (left unchanged)."""
    paths = [0] * depth
    seen: list[set[Key]] = [set() for _ in range(depth)]

    def walk(d: Deal, n: int) -> None:
        for action in list(d.legal_actions()):
            child = copy.deepcopy(d)
            child.act(action)
            paths[n] += 1
            seen[n].add(position_key(child))
            if n + 1 < depth and not child.is_over:
                walk(child, n + 1)

    walk(deal, 0)
    return paths, [len(s) for s in seen]


def count(spec: Mapping[str, Any], rules: RuleSet) -> dict[str, list[int]]:
    """Everything a perft case states, counted by this engine."""
    deal = start(spec, rules)
    out = {"line_counts": line_counts(deal, list(spec.get("line", ())))}
    depth = int(spec.get("depth", 0))
    if depth:
        out["paths"], out["positions"] = explore(deal, depth)
    return out


def check_perft(spec: Mapping[str, Any], expect: Mapping[str, Any], rules: RuleSet) -> list[str]:
    """The disagreements between a perft case's counts and this engine's."""
    got = count(spec, rules)
    out = []
    for key, want in expect.items():
        if key not in got:
            out.append(f"{key}: not a perft count (line_counts, paths, positions)")
        elif list(want) != got[key]:
            first = next((i for i, (a, b) in enumerate(zip(want, got[key], strict=False)) if a != b), None)
            out.append(f"{key}: expected {list(want)}, got {got[key]} (first difference at index {first})")
    return out
