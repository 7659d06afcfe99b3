"""gouji — Shandong Gouji (够级): the six-player, four-deck, three-against-three card game.

The public API::

    import gouji
    gouji.parse_play("22333")                        # a Play; raises gouji.InvalidPlay
    gouji.beats("DD999", "XX888", rules="qingdao")   # bool
    gouji.is_gouji("TTTT2"); gouji.is_pure_gouji("QQQ")
    gouji.PRESETS; gouji.RuleSet.preset("tongyong").replace(bie_san=False)
    deal = gouji.Deal.new(rules="qingdao", seed=7)
    deal.to_act, deal.legal_actions(), deal.act("QQQ"), deal.view(seat), deal.events
"""

from __future__ import annotations

from .actions import PASS, YIELD, Action, Burn, Decision, LegalActions, parse_action
from .cards import RANKS, InvalidCards
from .deal import PLACE_NAMES, Deal, IllegalAction, opposite, team
from .hints import hint
from .plays import InvalidPlay, Play, is_gouji, is_pure_gouji, parse_play
from .plays import beats as _beats
from .rules import PRESETS, InvalidRules, RuleSet, UnknownRules, resolve

__version__ = "0.1.0"


def beats(b: str | Play, a: str | Play, rules: RuleSet | str | None = "qingdao") -> bool:
    """Whether play ``b`` beats play ``a`` under ``rules`` (a RuleSet or a preset name)."""
    return _beats(parse_play(b), parse_play(a), resolve(rules).big_joker_kill)


__all__ = [
    "PASS",
    "PLACE_NAMES",
    "PRESETS",
    "RANKS",
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
    "hint",
    "is_gouji",
    "is_pure_gouji",
    "opposite",
    "parse_action",
    "parse_play",
    "team",
]
