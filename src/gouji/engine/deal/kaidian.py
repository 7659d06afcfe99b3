"""开点 (rule book §8) and its regional forms (§16.3): opening the point, 开点发4, 无级自开 and 冲点."""

from __future__ import annotations

from .. import cards as C
from ..actions import Action
from ..plays import Play
from ..seats import SEATS, SMOTHERED, opposite, team
from .burn import Burning
from .state import CHONGDIAN_LOST, RESCUED


class OpeningThePoint(Burning):
    """Who may open the point, and opening it; 冲点's attempts and its place."""

    def _can_open(self, s: int, protected: bool) -> bool:
        """Whether seat ``s`` may open the point now (a 要头-protected play counts as having a head)."""
        ch = self.chongdian
        if ch is not None and s in (ch["seat"], opposite(ch["seat"])):
            return False  # the 冲点 settles this pair's point
        return self.rules.may_still_open(self.opened[s], self.forfeited[s], self.ffa, len(self.out_order)) and (
            protected
            or not self.headless(s)
            or (self.rules.open_when_opposite_smothered and self.status[opposite(s)] == SMOTHERED)
        )

    def _open(self, s: int) -> None:
        self.opened[s] = True
        self._pending_open = -1
        self.events.append({"type": "open", "seat": s})

    def begin_chongdian(self, s: int) -> None:
        self.chongdian = {"seat": s, "left": 3, "result": None, "place": None}

    def _chong_leader(self, default: int) -> int:
        """Who leads while a 冲点 is on: the 冲点 player, for its next attempt (依次出3把); once all three are
        beaten — or it holds no play that could open — the 冲点 is lost and the 对头 leads (对家自动开点发4)."""
        ch = self.chongdian
        assert ch is not None
        c: int = ch["seat"]
        if ch["left"] > 0 and self.in_play[c] and self._chong_leads(c):
            return c
        self._end_chongdian("beaten")
        return opposite(c) if self.in_play[opposite(c)] else default

    def _chong_leads(self, s: int) -> list[Action]:
        """The leads of a 冲点 attempt: plays that could open the point."""
        hand, reading = self.hands[s], self.rules.kaidian_plays
        out: list[Action] = []
        for r in range(C.TEN, C.ACE + 1):
            for k in range(1, hand[r] + 1):
                p = Play.of(r, k)
                if p.opens_point(reading):
                    out.append(p)
        return out

    def _end_chongdian(self, result: str) -> None:
        """The 冲点 is decided: "stood" (one attempt stood: the 冲点 player opens), "beaten" (all three
        beaten: the 对头 counts as opened) or "ended" (cut short by the free-for-all or by 头科)."""
        ch = self.chongdian
        assert ch is not None
        ch["result"] = result
        s = ch["seat"]
        self.events.append({"type": "chongdian_end", "seat": s, "result": result})
        if result == "stood":
            if self.rules.kaidian_needs_four:
                self._pending_open = s
            else:
                self._open(s)
        elif result == "beaten":
            self._open(opposite(s))

    def _chongdian_placed(self, first_out: int) -> None:
        """头科 is known: the 冲点 player is rescued (三科) if it is a teammate, else 大落; out of play."""
        ch = self.chongdian
        assert ch is not None
        c = ch["seat"]
        rescued = team(first_out) == team(c)
        ch["place"] = 2 if rescued else SEATS - 1
        self.status[c] = RESCUED if rescued else CHONGDIAN_LOST
        self.in_play[c] = False
        self.events.append({"type": "chongdian_place", "seat": c, "place": ch["place"]})
        if self.burn is not None and self.burn.burner == c:
            self._end_burn("ended")
        if ch["result"] is None:
            self._end_chongdian("ended")

    def self_open(self, s: int) -> None:
        """无级自开: seat ``s`` shows its hand to its 对头; its first lead of 4s opens the point."""
        opp = opposite(s)
        self.self_opening[s] = True
        self.shown[s] = (opp, self.hand(s))
        self.events.append({"type": "selfopen", "seat": s, "to": opp, "hand": self.hand(s)})

    def _open_on_play(self, s: int, play: Play, leading: bool) -> None:
        """What seat ``s``'s play does to the point (开点, rule book §8, §16.3): 无级自开's first lead of 4s
        opens, so does a lead of 4s after a standing pure gouji play (开点发4); other 4s may forfeit it."""
        rules = self.rules
        # 无级自开: the first lead of 4s opens
        if leading and rules.self_open and self.self_opening[s] and play.rank == C.FOUR:
            self.self_opening[s] = False
            if self._can_open(s, False):
                self._open(s)
        # opening the point with a 4 (开点发4), or giving the chance up
        if rules.kaidian_needs_four and play.rank == C.FOUR:
            if (
                leading
                and self._pending_open == s
                and (not rules.kaidian_four_single or (play.k == 1 and play.size == 1))
            ):
                self._open(s)
            elif rules.four_forfeits_kaidian and not self.opened[s] and not self.forfeited[s]:
                self.forfeited[s] = True
                self.events.append({"type": "forfeit", "seat": s})
        if leading:
            self._pending_open = -1
