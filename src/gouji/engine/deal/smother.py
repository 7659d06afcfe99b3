"""闷 and 憋三 (rule book §7): 3s only as the last play, and a player left with only 3s smothered."""

from __future__ import annotations

from collections.abc import Sequence

from .. import cards as C
from ..seats import SMOTHERED, opposite
from .round import Turns


def only_threes(hand: Sequence[int]) -> bool:
    """With 憋三 (rule book §7): the hand holds 3s and nothing else."""
    return hand[C.THREE] > 0 and sum(hand) == hand[C.THREE]


class Smothering(Turns):
    """闷: a beaten play that left only 3s smothers its player."""

    def _smother(self, s: int, prev_seat: int) -> None:
        """闷 (rule book §7): with 憋三, the play seat ``s`` beat left its player only 3s: that player is out of
        play, ranked at the bottom.  Called (by :meth:`_play`) only under 憋三, when a play beat the play of
        ``prev_seat`` and that player still holds 3s: what is checked here is the rest."""
        rules = self.rules
        if (
            self.in_play[prev_seat]
            and only_threes(self.hands[prev_seat])
            and (rules.smother_by == "anyone" or (s == opposite(prev_seat)) == (rules.smother_by == "opposite_only"))
        ):
            self.smothered.append((prev_seat, s))
            self.status[prev_seat] = SMOTHERED
            self.in_play[prev_seat] = False
            self.events.append({"type": "smothered", "seat": prev_seat, "by": s})
