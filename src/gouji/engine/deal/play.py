"""A play taken (rule book §5): the cards leave the hand, then the burn, the point, 闷, the new top play
and going out, each by its own rule."""

from __future__ import annotations

from .. import cards as C
from ..actions import PASS, YIELD, Action, Burn
from ..plays import Play
from ..seats import FAILED_BURN, OUT, SEATS, opposite
from .smother import Smothering


class Playing(Smothering):
    """A decision in play: a play, a burn, a pass or a yield."""

    def _act_play(self, s: int, a: Action) -> None:
        if isinstance(a, Play):
            self._play(s, a, burn=False)
        elif a is PASS:
            offers = self.round.burn_offers
            if offers:
                offers.pop(0)
                self._after_burn_offer()
            else:
                self._pass(s)
        elif a is YIELD:
            self._yield(s)
        else:
            assert isinstance(a, Burn)
            self.round.burn_offers = []
            self._play(s, a.play, burn=True)

    def _play(self, s: int, play: Play, burn: bool) -> None:
        rules = self.rules
        rd = self.round
        hand = self.hands[s]
        played = self._played
        for r, n in play.parts:  # (the ranks it holds, not all 15: this runs for every play)
            hand[r] -= n
            played[r] += n
        empty = not any(hand)
        prev, prev_seat = rd.top, rd.top_seat
        leading = prev is None

        # (each rule's method is called only when it can apply: this runs for every play)
        failed = self._burn_on_play(s, play, burn, empty, prev_seat) if burn or self.burn is not None else False
        if leading or play.rank == C.FOUR:
            self._open_on_play(s, play, leading)
        if prev is not None and rules.bie_san and self.hands[prev_seat][C.THREE]:
            self._smother(s, prev_seat)

        # the new top play
        if s in rd.yield_left:  # a seat let in by a yield plays: the yielder counts as having passed
            rd.passed |= 1 << rd.yielder
        rd.after_yield = s == rd.yielder
        rd.yielder = -1
        rd.yield_left = []
        rd.top, rd.top_seat = play, s
        rd.passed_top = 0
        rd.protected = False
        if play.gouji and self.yaotou_left[s] > 0 and not self.in_play[opposite(s)]:
            rd.protected = True
            self.yaotou_left[s] -= 1
        if (
            rules.gousiji
            and not rules.bie_san
            and prev is not None
            and prev.gouji
            and play.gouji
            and prev_seat == opposite(s)
            and self.status[prev_seat] == OUT
            and prev_seat in self.out_order[:2]
            and not self.ffa
        ):
            # 001 枣庄 够死级: the 对头's beat of 头科's or 二科's last gouji play is answered only by a burn
            rd.protected = True
            self.events.append({"type": "gousiji", "seat": s})

        if empty:
            self.status[s] = OUT
            self.in_play[s] = False
            self.out_order.append(s)
            self.events.append({"type": "out", "seat": s, "order": len(self.out_order)})
            ch = self.chongdian
            if ch is not None and len(self.out_order) == 1 and ch["seat"] != s and self.in_play[ch["seat"]]:
                self._chongdian_placed(s)
        elif failed:
            self.status[s] = FAILED_BURN
            self.in_play[s] = False
            self.failed_burns.append(s)
        self._check_ffa()
        if self._check_over():
            return
        if play.gouji and not self.ffa:
            rd.burn_offers = self._burn_offers(s, play, empty)
            if rd.burn_offers:
                self.to_act = rd.burn_offers[0]
                return
        self._advance((s + 1) % SEATS)
