"""Burning (烧牌, rule book §6): who is offered the burn of a gouji play, a burn's start and its end."""

from __future__ import annotations

from typing import Final, Literal

from ..plays import Play
from ..seats import SEATS, opposite
from .state import BurnInProgress, DealState

BurnResult = Literal["success", "broken", "countered", "failed", "ended"]
"""How a burn ends: its burner went out (success), a play over the burner broke it (broken) or burned it
in turn (countered), the burner played without a joker (failed), or the deal moved past it (ended)."""

BURN_END_EVENTS: Final[dict[BurnResult, str]] = {
    "success": "burn_success",
    "broken": "burn_broken",
    "countered": "burn_countered",
    "failed": "burn_failed",
    "ended": "burn_ended",
}
"""The log's event for each end of a burn."""


class Burning(DealState):
    """The burn: offers, and the burn in progress from its burning play to its result."""

    def _end_burn(self, result: BurnResult) -> None:
        """The burn in progress ends with ``result``: in :attr:`burns` and as its event in the log."""
        current = self.burn
        assert current is not None
        self.burns.append(current.record(result))
        self.events.append({"type": BURN_END_EVENTS[result], "seat": current.burner, "burned": current.burned})
        self.burn = None

    def _burn_offers(self, s: int, play: Play, final: bool) -> list[int]:
        """The seats that may burn ``play`` of seat ``s``, in priority order: the player's own team first
        (联邦烧牌优先), then the others, each in turn order from the player."""
        rules = self.rules
        rd = self.round
        if final or (self.headless(s) and not rd.protected):
            return []
        anyone_out = bool(self.out_order)
        out = []
        opp = opposite(s)
        if rules.burn_priority == "team_first":
            order: tuple[int, ...] = ((s + 2) % SEATS, (s + 4) % SEATS, (s + 1) % SEATS, (s + 5) % SEATS)
        else:  # 000 第十条: 无联邦烧牌优先，按上下家的顺序顺烧
            order = ((s + 1) % SEATS, (s + 2) % SEATS, (s + 4) % SEATS, (s + 5) % SEATS)
        in_play = self.in_play
        for c in order:
            if (
                c == opp
                or not in_play[c]
                or (rd.passed >> c) & 1
                or (not in_play[(c + 3) % SEATS] and self.headless(c))
            ):
                continue
            if not rules.burner_standing(self.opened[c], self.forfeited[c], anyone_out):
                continue
            out.append(c)
        return out

    def _opposite_may_counter_burn(self, s: int) -> bool:
        """反稍 by the 对家 (``opposite_counter_burn``, 000 山东地区: 如果被对家反稍则进对家两倍的贡): seat ``s``, the
        burner's own 对头, answering the burner's play, may burn it instead of breaking the burn — under the
        conditions any burner has (not in the free-for-all, the preset's ``burn_needs_kaidian`` and
        ``burn_before_first_out``)."""
        burn, rules = self.burn, self.rules
        if burn is None or self.round.top_seat != burn.burner or s != opposite(burn.burner) or self.ffa:
            return False
        return rules.burner_standing(self.opened[s], self.forfeited[s], bool(self.out_order))

    def _burn_on_play(self, s: int, play: Play, burn: bool, empty: bool, prev_seat: int) -> bool:
        """What seat ``s``'s play does to the burn in progress, or the burn it starts (烧牌, rule book §6):
        the burner going out succeeds, its play without a joker fails (returns True), a play over the burner
        breaks it (or counters it, if itself a burn)."""
        failed = False
        current = self.burn
        if current is not None:
            if s == current.burner:
                if empty:
                    self._end_burn("success")
                elif not play.has_joker:
                    self._end_burn("failed")
                    failed = True
            elif prev_seat == current.burner:
                self._end_burn("countered" if burn else "broken")
        if burn:
            level = current.level + 1 if current is not None and current.burner == prev_seat else 1
            self.burn = BurnInProgress(s, prev_seat, level, play)
            self.events.append({"type": "burn", "seat": s, "burned": prev_seat, "level": level})
            if empty:
                self._end_burn("success")
        return failed
