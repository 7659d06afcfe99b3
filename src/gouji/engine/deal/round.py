"""The round (一轮, rule book §5.2): who answers next, passing, yielding (让牌), the round's end."""

from __future__ import annotations

from ..seats import SEATS, opposite
from .places import Placing
from .state import PLAY


class Turns(Placing):
    """Whose turn it is: the round's responders, passes, yields, and the next round."""

    def _start_play(self) -> None:
        self.phase = PLAY
        self.setup = None
        self._check_ffa()
        if self._check_over():
            return
        lead = self.first_leader
        if self.chongdian is not None:
            lead = self._chong_leader(self.chongdian["seat"])  # the 冲点 player leads its attempts
        while not self.in_play[lead]:
            lead = (lead + 1) % SEATS
        self.events.append({"type": "play", "leader": lead})
        self._new_round(lead)

    def _new_round(self, leader: int) -> None:
        self.round.start(leader)
        self.to_act = leader
        self._legal = None

    def _pass(self, s: int) -> None:
        rd = self.round
        bit = 1 << s
        rd.passed |= bit
        rd.passed_top |= bit
        if s in rd.yield_left:
            rd.yield_left.remove(s)
            if not rd.yield_left:
                self.to_act = rd.yielder  # the yielder now plays or passes
                return
            self.to_act = rd.yield_left[0]
            return
        if s == rd.yielder:
            rd.yielder = -1
        self._advance((s + 1) % SEATS)

    def _yield(self, s: int) -> None:
        rd = self.round
        rd.yielder = s
        rd.yield_left = [c for c in ((s + 1) % SEATS, (s + 2) % SEATS) if self._may_respond_plain(c)]
        self.events.append({"type": "yield", "seat": s})
        self.to_act = rd.yield_left[0]

    def _may_respond_plain(self, c: int) -> bool:
        rd = self.round
        return self.in_play[c] and c != rd.top_seat and not (rd.passed >> c) & 1

    def _after_burn_offer(self) -> None:
        rd = self.round
        if rd.burn_offers:
            self.to_act = rd.burn_offers[0]
        else:
            self._advance((rd.top_seat + 1) % SEATS)

    def _advance(self, start: int) -> None:
        """Give the turn to the next seat in order that may respond, or end the round."""
        c = self._next_responder(start)
        self._legal = None
        if c >= 0:
            self.to_act = c
        else:
            self._end_round()

    def _next_responder(self, start: int) -> int:
        rd = self.round
        top_seat = rd.top_seat
        top = rd.top
        assert top is not None
        in_play = self.in_play
        if self.ffa:
            pt = rd.passed_top
            for i in range(SEATS):
                c = (start + i) % SEATS
                if c != top_seat and in_play[c] and not (pt >> c) & 1:
                    return c
            return -1
        # headless() only when the 对头 is out of play (inlined: this runs for every response)
        if top.gouji and (rd.protected or in_play[(top_seat + 3) % SEATS] or not self.headless(top_seat)):
            if rd.protected:
                return -1
            opp = opposite(top_seat)
            for i in range(SEATS):
                c = (start + i) % SEATS
                if c == top_seat or not in_play[c]:
                    continue
                if c == opp:
                    if not (rd.passed_top >> c) & 1:
                        return c
                elif not in_play[(c + 3) % SEATS] and not (rd.passed >> c) & 1 and self.headless(c):
                    return c
            return -1
        if rd.after_yield:
            opp = opposite(top_seat)
            return opp if in_play[opp] and not (rd.passed_top >> opp) & 1 else -1
        p = rd.passed
        for i in range(SEATS):
            c = (start + i) % SEATS
            if c != top_seat and in_play[c] and not (p >> c) & 1:
                return c
        return -1

    def _end_round(self) -> None:
        rd = self.round
        top, seat = rd.top, rd.top_seat
        assert top is not None
        leader = seat
        while not self.in_play[leader]:
            leader = (leader + 1) % SEATS
        ch = self.chongdian
        if ch is not None and ch["result"] is None and rd.leader == ch["seat"]:
            c = ch["seat"]
            if seat == c:
                self._end_chongdian("stood")
            else:
                ch["left"] -= 1
                leader = self._chong_leader(leader)
        if leader == seat and top.opens_point(self.rules.kaidian_plays) and self._can_open(seat, rd.protected):
            if self.rules.kaidian_needs_four:
                self._pending_open = seat
            else:
                self._open(seat)
        self.events.append({"type": "round", "leader": leader})
        self._new_round(leader)
