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

from typing import TYPE_CHECKING, Any

from . import engine as _engine
from .engine import *  # noqa: F403  (the engine's public names are the package's: see __all__)

if TYPE_CHECKING:
    from .bots.hints import hint

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """``gouji.hint`` loads the bots (and numpy) on first use only, so ``import gouji`` stays light."""
    if name == "hint":
        from .bots.hints import hint

        return hint
    raise AttributeError(f"module 'gouji' has no attribute {name!r}")


__all__ = ["hint"]
__all__ += _engine.__all__
