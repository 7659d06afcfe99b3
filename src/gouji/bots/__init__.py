"""Bots: players that decide from what a seat may know.

A bot sees one seat's :meth:`gouji.Deal.view` and the legal actions of that seat — never the deal
itself, so it cannot see hidden cards — and returns one of those actions.  :data:`BOTS` lists them by
name (written out here: importing a bot's module registers nothing); :func:`make_bot` builds one and
:func:`play_deal` plays a deal with one bot per seat.  :data:`LEVELS` are the bots offered to people,
weakest first, with their names in Chinese and English.

The interface (:class:`Bot`, :func:`decide`, :func:`play_deal`) is the engine's
(:mod:`gouji.engine.players`).  The modules import in one direction: the bots (:mod:`.random_bot`,
:mod:`.novice`, :mod:`.heuristic`, :mod:`.learned` and :mod:`.expert`, which build on the heuristic) ← this registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine.players import Bot, decide, play_deal
from .beliefs import BeliefBot
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .learned import LearnedBot
from .novice import NoviceBot
from .random_bot import RandomBot

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "novice": NoviceBot,
    "heuristic": HeuristicBot,
    "learned": LearnedBot,
    "beliefs": BeliefBot,
    "expert": ExpertBot,
}
"""Bot factories by name."""


@dataclass(frozen=True)
class Level:
    """A bot offered to people as a level of play."""

    bot: str
    """Its name in :data:`BOTS`."""
    zh: str
    en: str


LEVELS: tuple[Level, ...] = (
    Level("novice", "新手", "Novice"),
    Level("heuristic", "高手", "Skilled"),
)
"""The levels people choose from, weakest first (the strongest bot is ``heuristic``: no bot yet is
measured stronger, see docs/ladder.md)."""


def make_bot(name: str) -> Bot:
    """A new bot of the named kind; an unknown name is a ``ValueError`` listing the known ones."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"no bot {name!r}; the bots are {', '.join(sorted(BOTS))}") from None
    return factory()


def levels() -> list[dict[str, str]]:
    """:data:`LEVELS` as JSON-ready rows: ``{"bot", "zh", "en"}``."""
    return [{"bot": lv.bot, "zh": lv.zh, "en": lv.en} for lv in LEVELS]


__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "ExpertBot",
    "HeuristicBot",
    "LearnedBot",
    "Level",
    "NoviceBot",
    "RandomBot",
    "decide",
    "levels",
    "make_bot",
    "play_deal",
]
