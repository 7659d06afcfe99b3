"""One deal of Gouji (一局), from the shuffle to the last place: :class:`Deal` and its errors."""

from __future__ import annotations

from .deal import Deal
from .setup import BUY_FOUR_PHASE as SETUP_BUY_FOUR
from .setup import REVOLUTION as SETUP_REVOLUTION
from .state import PLAY, IllegalAction

__all__ = ["PLAY", "SETUP_BUY_FOUR", "SETUP_REVOLUTION", "Deal", "IllegalAction"]
