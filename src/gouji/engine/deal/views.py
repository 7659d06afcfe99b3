"""What a seat may see (rule book §1, hidden information): its own hand and the public facts, and the
log as that seat may read it."""

from __future__ import annotations

from typing import Any

from .. import cards as C
from ..checks import check_seat, check_viewer
from ..seats import OUT, REVOLTED, SEATS
from .legality import Legality
from .state import PLAY


class Views(Legality):
    """A seat's view of the deal, and the log filtered for it."""

    def count_visible(self, seat: int | None, of: int) -> int | None:
        """The card count of seat ``of`` as seat ``seat`` (None: the public) sees it.

        A player's own count is always known, a player who went out holds 0 and a revolutionary's hand
        lies face up; otherwise ``show_counts`` decides (None when hidden)."""
        seat, of = check_viewer(seat), check_seat(of, "of")
        n = sum(self.hands[of])
        status = self.status[of]
        if seat == of or status == REVOLTED:
            return n
        if status == OUT:
            return 0
        mode = self.rules.show_counts
        if mode == "always" or (mode == "at_or_below_10" and n <= 10):
            return n
        return None

    def view(self, seat: int | None, log: bool = True) -> dict[str, Any]:
        """Everything seat ``seat`` may know, as JSON-serialisable data; ``None`` gives the public view.

        Holds the seat's own hand and what is public — plays, passes, yields, burns, places, revealed
        revolution hands, counts as ``show_counts`` allows, the cards played so far (the card counter,
        记牌器) — and nothing else.  ``log=False`` leaves out the event log (bots that need only the
        state save the work of copying it).
        """
        seat = check_viewer(seat)
        # The loop inlines count_visible (the server builds views on every change).
        place_of = {s: i for i, s in enumerate(self.places)} if self.places else {}
        status, hands, in_play, yaotou_left = self.status, self.hands, self.in_play, self.yaotou_left
        opened, forfeited, declared = self.opened, self.forfeited, self.declared
        yaotou_choice, revealed, burner, shown = self.yaotou_choice, self.revealed, self.burner, self.shown
        mode = self.rules.show_counts
        playing = self.phase == PLAY
        players = []
        for s in range(SEATS):
            n = sum(hands[s])
            st = status[s]
            if seat == s or st == REVOLTED:
                cards: int | None = n
            elif st == OUT:
                cards = 0
            elif mode == "always" or (mode == "at_or_below_10" and n <= 10):
                cards = n
            else:
                cards = None
            players.append(
                {
                    "seat": s,
                    "team": s % 2,
                    "status": st,
                    "cards": cards,
                    "opened": opened[s],
                    "forfeited": forfeited[s],
                    "declared": declared[s],
                    "headless": playing and not in_play[(s + 3) % SEATS] and self.headless(s),
                    "yaotou": yaotou_choice.get(s),
                    "yaotou_left": yaotou_left[s],
                    "burning": burner == s,
                    "place": place_of.get(s),
                    "revealed": revealed.get(s),
                    "selfopen": s in shown,
                    "shown": shown[s][1] if s in shown and shown[s][0] == seat else None,
                }
            )
        rd = self.round
        top = rd.top
        v: dict[str, Any] = {
            "seat": seat,
            "rules": self.rules.name,
            "phase": self.phase,
            "to_act": self.to_act,
            "first_leader": self.first_leader,
            "players": players,
            "top": str(top) if top is not None else None,
            "top_seat": rd.top_seat if top is not None else None,
            "top_gouji": bool(top is not None and top.gouji),
            "passed": [s for s in range(SEATS) if (rd.passed | rd.passed_top) >> s & 1],
            "burn_offer": bool(rd.burn_offers),
            "yielder": rd.yielder if rd.yielder >= 0 else None,
            "after_yield": rd.after_yield,
            "free_for_all": self.ffa,
            "out_order": list(self.out_order),
            "places": list(self.places) if self.places else None,
            "sweep": self.sweep,
            "chongdian": dict(self.chongdian) if self.chongdian is not None else None,
            "played": C.format_counts(self._played),
            "rule_options": self._rule_options,
        }
        if log:
            v["log"] = [self.public_event(e, seat) for e in self.events]
        if seat is not None:
            v["hand"] = self.hand(seat)
        return v

    @staticmethod
    def event_same_for_all(e: dict[str, Any]) -> bool:
        """Whether :meth:`public_event` gives every seat (and the public) the same of this event."""
        kind = e["type"]
        return kind not in ("deal", "void", "tribute_return", "selfopen") and not (
            kind == "act" and e["action"].startswith("return ")
        )

    @staticmethod
    def public_event(e: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """One event of the log as seat ``seat`` (None: the public) may see it: the deal event with only
        that seat's hand, a 还贡 with its cards only for the two players concerned, a hand shown in
        无级自开 only to its player and their 对头; the rest as it is."""
        kind = e["type"]
        if kind == "selfopen" and seat not in (e["seat"], e["to"]):
            return {"type": kind, "seat": e["seat"], "to": e["to"]}
        if kind == "act" and e["action"].startswith("return ") and seat != e["seat"]:
            return {"type": "act", "seat": e["seat"], "action": "return", "cards": len(e["action"]) - 7}
        if kind == "tribute_return" and seat not in (e["from"], e["to"]):
            return {"type": kind, "from": e["from"], "to": e["to"], "cards": len(e["cards"])}
        if kind in ("deal", "void"):
            hands = e["hands"]
            out: dict[str, Any] = {"type": kind, "sizes": [len(h) for h in hands]}
            if kind == "deal":
                out["first_leader"] = e.get("first_leader", e.get("leader"))
                if "liang_san" in e:
                    out["liang_san"] = e["liang_san"]  # 亮3: shown to the table
                if "huiwu" in e:
                    out["huiwu"] = e["huiwu"]
            else:
                out["revolted"] = e["revolted"]
            if seat is not None:
                out["hand"] = hands[seat]
            return out
        return dict(e)
