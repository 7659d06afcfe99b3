"""The rules engine: cards, plays, actions, the seats, the rule sets, tribute, scoring and one deal.

Everything here is pure game logic with no I/O and no dependency beyond the standard library; the other
packages (``competition``, ``bots``, ``lab``, ``env``, ``server``, ``cli``) are built on it.
"""

from __future__ import annotations

from .actions import PASS, YIELD, Action, Burn, Decision, LegalActions, parse_action
from .cards import RANKS, InvalidCards
from .deal import Deal, IllegalAction
from .plays import InvalidPlay, Play, is_gouji, is_pure_gouji, parse_play
from .plays import beats as _beats
from .rules import PRESETS, InvalidRules, RuleSet, UnknownRules, resolve
from .seats import PLACE_NAMES, SEATS, opposite, team


def beats(b: str | Play, a: str | Play, rules: RuleSet | str | None = "qingdao") -> bool:
    """Whether play ``b`` beats play ``a`` under ``rules`` (a RuleSet or a preset name)."""
    rs = resolve(rules)
    return _beats(parse_play(b), parse_play(a), rs.big_joker_kill, rs.three_small_kill)


__all__ = [
    "PASS",
    "PLACE_NAMES",
    "PRESETS",
    "RANKS",
    "SEATS",
    "YIELD",
    "Action",
    "Burn",
    "Deal",
    "Decision",
    "IllegalAction",
    "InvalidCards",
    "InvalidPlay",
    "InvalidRules",
    "LegalActions",
    "Play",
    "RuleSet",
    "UnknownRules",
    "beats",
    "is_gouji",
    "is_pure_gouji",
    "opposite",
    "parse_action",
    "parse_play",
    "resolve",
    "team",
]
