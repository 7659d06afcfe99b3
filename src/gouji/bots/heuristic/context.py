"""One decision's facts, read from the seat's view: the hand, the card counts, the odds of each hidden hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...engine import cards as C
from ...engine.plays import Play, parse_play
from ...engine.rules import RuleSet
from ...engine.seats import SEATS
from .hands import THREE
from .odds import _binom, _Odds
from .params import Params

_LAST_RULES: list[tuple[Mapping[str, Any], RuleSet]] = []
"""The last rule options read and their rule set (most decisions in a row are of one deal)."""


def rules_of(view: Mapping[str, Any]) -> RuleSet:
    """The rule set of ``view`` (its ``rule_options``; the engine's defaults for options it lacks)."""
    ro: Mapping[str, Any] = view.get("rule_options") or {}
    if _LAST_RULES:
        last, rules = _LAST_RULES[0]
        if ro == last:
            return rules
    rules = RuleSet.from_dict(ro)
    _LAST_RULES[:] = [(dict(ro), rules)]  # a copy: options changed in place are read anew
    return rules


class _Ctx:
    """One decision's facts, read from the view."""

    def __init__(self, view: Mapping[str, Any], params: Params) -> None:
        self.p = params
        seat = int(view["seat"])
        self.seat = seat
        self.opp = (seat + 3) % SEATS
        self.hand = list(C.parse_counts(view.get("hand") or ""))
        rules = rules_of(view)
        self.rules = rules
        self.bie_san = rules.bie_san
        self.kill = rules.big_joker_kill
        players: list[Mapping[str, Any]] = list(view.get("players") or [])
        self.players = players
        self.in_play = [p.get("status") == "in_play" for p in players]
        self.headless = [bool(p.get("headless")) for p in players]
        me = players[seat] if seat < len(players) else {}
        self.burning = bool(me.get("burning"))
        top = view.get("top")
        self.top: Play | None = parse_play(top) if top else None
        ts = view.get("top_seat")
        self.top_seat: int = int(ts) if ts is not None else -1
        self.passed = frozenset(int(s) for s in view.get("passed") or ())
        self.ffa = bool(view.get("free_for_all"))
        self.out_order = list(view.get("out_order") or [])
        self.view = view
        # the card counter: cards not in my hand, not played, not laid down by a revolutionary
        deck = C.build_deck(rules.decks, rules.removed_counts)
        played = C.parse_counts(view.get("played") or "")
        unseen = [deck[r] - played[r] - self.hand[r] for r in range(C.NUM_RANKS)]
        for p in players:
            rev = p.get("revealed")
            if rev and p.get("status") == "revolted":
                for r, n in enumerate(C.parse_counts(rev)):
                    unseen[r] -= n
        self.unseen = [max(0, u) for u in unseen]
        self.counts = self._counts(view)
        self._odds: dict[int, _Odds] = {}

    # -- card counts

    def _counts(self, view: Mapping[str, Any]) -> list[float]:
        players = self.players
        known: list[float | None] = []
        for s, p in enumerate(players):
            n = p.get("cards")
            known.append(float(n) if n is not None else (0.0 if not self.in_play[s] else None))
        if all(k is not None for k in known):
            return [k if k is not None else 0.0 for k in known]
        log = view.get("log")
        from_log = _counts_from_log(log) if log else None
        out: list[float] = []
        missing = []
        for s, k in enumerate(known):
            if k is None and from_log is not None and from_log[s] >= 0:
                k = float(from_log[s])
            if k is None:
                missing.append(s)
                k = 0.0
            out.append(k)
        if missing:
            rest = sum(self.unseen) - sum(out[s] for s in range(SEATS) if s != self.seat and self.in_play[s])
            floor = 11.0 if self.rules.show_counts == "at_or_below_10" else 1.0
            share = max(floor, rest / len(missing))
            for s in missing:
                out[s] = share
        return out

    # -- relations

    def mate(self, s: int) -> bool:
        return s % 2 == self.seat % 2

    def owner(self) -> int:
        """Who leads next if nobody beats the top play: its player, or (gone out) the next seat in play."""
        s = self.top_seat
        if s < 0:
            return self.seat
        for i in range(SEATS):
            c = (s + i) % SEATS
            if self.in_play[c] or c == self.seat:
                return c
        return s

    def odds(self, s: int) -> _Odds:
        o = self._odds.get(s)
        if o is None:
            total = sum(self.unseen)
            share = min(1.0, self.counts[s] / total) if total else 0.0
            o = self._odds[s] = _Odds(self.unseen, share, self.kill)
        return o

    def opponents(self) -> list[int]:
        return [
            s for s in ((self.seat + 1) % SEATS, (self.seat + 3) % SEATS, (self.seat + 5) % SEATS) if self.in_play[s]
        ]

    def may_burn(self, s: int) -> bool:
        if self.headless[s]:
            return False
        p = self.players[s]
        return self.rules.burner_standing(bool(p.get("opened")), bool(p.get("forfeited")), bool(self.out_order))

    def stand(self, q: Play, leading: bool, final: bool | None = None) -> float:
        """The chance that no opponent beats q (played by me now; ``final``: it empties my hand)."""
        if q.eff_big and not self.kill:
            return 1.0
        sp = 1.0
        for s, w in self.answerers(q, leading, final):
            sp *= 1.0 - self.answer_chance(s, q, w)
        return sp

    def answerers(self, q: Play, leading: bool, final: bool | None = None) -> list[tuple[int, float]]:
        """The opponents who may answer q (played by me now), each with how likely it is to answer when it
        can: 1, or ``burner_weight`` for a seat that could answer a gouji play only by burning it."""
        me = self.seat
        passed = self.passed
        if final is None:
            final = sum(self.hand) == q.size
        protected = (
            q.gouji
            and not self.in_play[self.opp]
            and int(self.players[me].get("yaotou_left") or 0) > 0
            and not self.ffa
        )
        out = []
        for s in self.opponents():
            if self.ffa:
                w = 1.0
            elif q.gouji and not self.headless[me]:
                if s == self.opp:
                    w = 0.0 if protected else 1.0
                elif self.headless[s]:
                    w = 0.0 if protected or (not leading and s in passed) else 1.0
                elif final or (not leading and s in passed) or not self.may_burn(s):
                    w = 0.0
                else:
                    w = self.p.burner_weight
            else:
                w = 0.0 if (not leading and s in passed) else 1.0
            if w:
                out.append((s, w))
        return out

    def answer_chance(self, s: int, q: Play, w: float) -> float:
        """The chance that seat s answers q, ``w`` being how likely it answers when it can (the binomial odds
        that it can, times w; a subclass may know better)."""
        return w * self.beat_chance(s, q)

    def beat_chance(self, s: int, q: Play) -> float:
        """The chance that seat s holds a play that beats q (the binomial odds; a subclass may know better)."""
        return self.odds(s).beat(q)

    def only_threes_left(self, s: int) -> float:
        """The chance that seat s, still in play, holds only 3s.

        Under 憋三 every player keeps at least one 3 and 3s are never played but last, so they pile up:
        a player's 3s are modelled as one plus a binomial share of the spare unseen 3s."""
        if not self.bie_san or not self.in_play[s] or s == self.seat:
            return 0.0
        n = round(self.counts[s])
        if n <= 0:
            return 0.0
        if n == 1:
            return 1.0
        others = [o for o in range(SEATS) if o != self.seat and self.in_play[o]]
        dead = sum(round(self.counts[o]) for o in range(SEATS) if self.players[o].get("status") == "smothered")
        extra = self.unseen[THREE] - dead - len(others)
        if extra < n - 1:
            return 0.0
        pm = _binom(extra, 1.0 / len(others))
        return sum(pm[n - 1 :])

    # -- the opening (开点)

    def can_open(self) -> bool:
        me = self.players[self.seat]
        return not self.headless[self.seat] and self.rules.may_still_open(
            bool(me.get("opened")), bool(me.get("forfeited")), self.ffa, len(self.out_order)
        )

    def opens(self, q: Play) -> bool:
        return q.opens_point(self.rules.kaidian_plays)

    def pending_open(self) -> bool:
        """Whether my last play opened the point but for the 4 I must lead now (开点发4)."""
        if not self.rules.kaidian_needs_four or not self.can_open():
            return False
        log = self.view.get("log")
        if not log:
            return False
        last: tuple[int, str] | None = None
        for e in reversed(log):
            kind = e.get("type")
            if kind == "round":
                if int(e.get("leader", -1)) != self.seat:
                    return False
                continue
            if kind == "act":
                text = str(e.get("action", ""))
                if text in _DECISIONS or text.startswith("return"):
                    continue
                if text.startswith("burn"):
                    text = text[4:].strip()
                last = (int(e.get("seat", -1)), text)
                break
            if kind in ("deal", "play"):
                return False
        if last is None or last[0] != self.seat:
            return False
        try:
            return self.opens(parse_play(last[1]))
        except ValueError:
            return False


_CLOSE = {1: 1.0, 2: 0.7, 3: 0.4}
"""How near the end a hand with this many plays before its 3s is (weights the danger of 闷)."""

_QUIET = frozenset(
    {"play", "round", "yield", "out", "open", "forfeit", "smothered", "free_for_all", "end", "revolution"}
)
"""Log events that move no card between hands."""

_DECISIONS = frozenset({"pass", "yield", "revolt", "yaotou", "wutou", "declare", "buy4"})


def _counts_from_log(log: Sequence[Mapping[str, Any]]) -> list[int] | None:
    """Each seat's card count, worked out from the public log (as a patient counter at the table would)."""
    counts: list[int] | None = None
    for e in log:
        kind = e.get("type")
        if kind in ("deal", "void"):
            sizes = e.get("sizes")
            if not sizes or len(sizes) != SEATS:
                return None
            counts = [int(n) for n in sizes]
        elif counts is None:
            continue
        elif kind == "buy":
            frm = e.get("from")
            if frm is not None and e.get("paid") is None:
                counts[int(e["seat"])] += 1
                counts[int(frm)] -= 1
        elif kind == "act":
            text = str(e.get("action", ""))
            if text in _DECISIONS:
                continue
            if text.startswith("return"):
                return None  # tribute moves cards we cannot follow here
            if text.startswith("burn"):
                text = text[4:].strip()
            counts[int(e["seat"])] -= len(text)
        elif kind not in _QUIET and not str(kind).startswith("burn"):
            return None  # an event that may move cards in ways not followed here
    return counts
