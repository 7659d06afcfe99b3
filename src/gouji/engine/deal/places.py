"""Places (rule book §5.4–§5.5): the free-for-all (四户乱缠), the end of a deal and its six places."""

from __future__ import annotations

from ..seats import IN_PLAY, SEATS, team
from .kaidian import OpeningThePoint
from .state import OVER


class Placing(OpeningThePoint):
    """The free-for-all, the deal's end and its places."""

    def _check_ffa(self) -> None:
        if self.ffa or self._players_left() > self.rules.luanchan_at:
            return
        self.ffa = True
        rd = self.round
        rd.passed = 0
        rd.burn_offers = []
        rd.yielder = -1
        rd.yield_left = []
        self._pending_open = -1
        if self.burn is not None:
            self._end_burn("ended")
        if self.chongdian is not None and self.chongdian["result"] is None:
            self._end_chongdian("ended")
        self.events.append({"type": "free_for_all"})

    def _players_left(self) -> int:
        """The players the free-for-all counts (§5.4): those in play — and a revolutionary too, until somebody
        is placed in play (goes out, is smothered, fails a burn, is 大拉 for want of a 3).  A revolution places
        its player only when the deal ends (四科); 001 章丘 7(8) starts 五户乱缠 when 头科 or 大落 is placed
        ("头科产生后，其他5人是五户乱缠 … 大落产生后，其他5人是五户乱缠"), so a revolution alone starts no
        free-for-all.  Where it starts at four, one revolution and 头科 make four left (000 四户乱缠: "如果有人
        革命，接着打牌中产生了头科，则剩下四人为四户乱缠"), as before."""
        left = sum(self.in_play)
        if self.revolted and left + len(self.revolted) == SEATS:
            return SEATS  # nobody placed yet: the revolutionaries still count
        return left

    def _check_over(self) -> bool:
        """End the deal if the seats in play are all of one team (or none is left); whether it ended."""
        p = self.in_play
        if (p[0] or p[2] or p[4]) and (p[1] or p[3] or p[5]):  # (teams are seats 0 2 4 and 1 3 5)
            return False
        if self.burn is not None:
            self._end_burn("ended")
        self._finish()
        return True

    def _finish(self) -> None:
        slots: list[int | None] = [None] * SEATS
        bottom = SEATS - 1
        ch = self.chongdian
        lost = [ch["seat"]] if ch is not None and ch["place"] == SEATS - 1 else []
        third = self.failed_burns[2:3] if self.rules.failed_burn_third == "sanke" else []
        for s in self.no_three + lost + self.failed_burns + [seat for seat, _ in self.smothered]:
            if s in third and slots[2] is None:
                slots[2] = s  # 001 枣庄: 烧牌失败 … 依次算大落、二落、三科
                continue
            while slots[bottom] is not None:
                bottom -= 1
            slots[bottom] = s
        if ch is not None and ch["place"] == 2:
            free = [i for i in range(SEATS) if slots[i] is None]
            slots[min(free, key=lambda i: (abs(i - 2), -i))] = ch["seat"]
        for s in self.revolted:
            want = 3
            outs = self.out_order
            if len(outs) >= 2 and team(outs[0]) == team(s) and team(outs[1]) == team(s):
                want = 2
            free = [i for i in range(SEATS) if slots[i] is None]
            slot = min(free, key=lambda i: (abs(i - want), -i))
            slots[slot] = s
        for s in self.out_order:
            slots[slots.index(None)] = s
        nxt = (self._last_actor + 1) % SEATS
        holders = [s for s in range(SEATS) if self.status[s] == IN_PLAY]
        holders.sort(key=lambda s: (sum(self.hands[s]), (s - nxt) % SEATS))
        for s in holders:
            slots[slots.index(None)] = s
        places = [s for s in slots if s is not None]
        assert len(places) == SEATS
        self.places = places
        for t in (0, 1):
            if all(team(places[i]) == t for i in range(3)):
                self.sweep = t
        self.phase = OVER
        self.to_act = None
        self._legal = None
        self.events.append({"type": "end", "places": list(places), "sweep": self.sweep})
