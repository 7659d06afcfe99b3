"""The heuristic bot: plays Gouji by the lines players teach, from one seat's view alone.

It plans the hand as plays — one per natural rank, with 2s and jokers (the control cards) kept apart —
and estimates, from the card counter (``view["played"]``, the seat's own hand and the card counts), how
likely a play is to stand: for each opponent who may still answer it, the chance that its hidden hand
holds a play that beats it (each opponent's share of the unseen cards drawn binomially).

The lines it follows (the rule book and the regional texts' 技巧, playing tips):

- **Leads**: go out when the hand is one play; otherwise shed the lowest natural group, naked, and keep
  the control cards; open the point early with a pure gouji play that will likely stand (and lead the
  4 after it where ``kaidian_needs_four`` asks, a single one under ``kaidian_four_single``); when big
  jokers (or plays nobody can beat) carry every play but the last, chain out with them; with two plays
  left, lead the likelier to stand and keep the other to go out with; never lead a play of the size of
  an opponent's last cards, gladly one of a teammate's (without 憋三, where counts include unseen 3s).
- **憋三**: 3s go last, so the play before them must stand (else 闷): the bot reserves its safest play
  (a big joker, or everything attached) for that moment, counts the danger of a hand whose last play
  before the 3s could be beaten, and never leaves only 3s behind a play that is likely beaten.  It does
  not beat a teammate who may hold only 3s (that would smother them), and gladly smothers an opponent.
- **Answers**: each answer is scored — a natural group of the right size sheds a play for nothing
  (high groups are worth keeping: they answer later), a split group sheds cards only, 2s and jokers
  cost control, a play that stands wins the round and denies it to the opponent; pass (or yield, 让牌,
  so a teammate gets in first) when nothing scores.  The 对头's gouji plays are answered only when that
  pays; among answers the one the 对头 cannot beat back scores higher (逢Q盖帽).  A teammate's play is
  overtaken only cheaply and surely, or to go out.
- **Burning**: only when every later play but the last can carry a joker (small jokers first, the big
  one kept for the play that must stand), and a teammate's play only when big jokers make the rest
  certain.  With no joker to spare it declines.
- **Before play**: revolt with a hand too weak to place well (no 2, no joker, few As and Ks), keep the
  head (要头), declare the point (宣点) with jokers and 2s enough to stop the 对头's gouji plays, buy a 4
  only when it is needed to open the point; return (还贡) the lowest cards, preferring ones that shorten
  the hand.  The regional decisions of rule book §16: discard the 5s (汇5) — fewer cards to shed; hand a
  teammate's 落贡 back (退贡) — it is the team's either way, and the 大落 needs it more; 无级自开 whenever
  allowed — a hand without gouji plays has nothing to hide worth the point; 冲点 only with three pure
  gouji groups and three As or more, since losing it costs 大落 — and its attempts lead the play most
  likely to stand.  An unknown kind of decision gets a safe legal choice (``pass`` when it is open).
- **Free-for-all**: the same scoring with every seat answering everything: race out.

The weights (:class:`Params`) were tuned by duplicate self-play against earlier versions; against the
random bot the heuristic team wins practically every duplicate pair in every preset.

:meth:`HeuristicBot.explain` returns the action with its reason, a :class:`~gouji.reasons.Reason` (a code
with parameters, used by :func:`gouji.hint`); :meth:`HeuristicBot.choose` gives the reason as an English
line, :meth:`HeuristicBot.decide` drops it.  Decisions are deterministic for a given view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine import cards as C
from ..engine.actions import (
    BUY_FOUR,
    CHONGDIAN,
    DECLARE,
    GIVEBACK,
    HUIWU,
    PASS,
    REVOLT,
    SELFOPEN,
    WUTOU,
    YAOTOU,
    YIELD,
    Action,
    Burn,
    Decision,
)
from ..engine.plays import NO_RANK, Play, parse_play
from ..engine.seats import SEATS
from .reasons import Reason
from .reasons import reason as R

THREE, FOUR, ACE, TWO, SMALL, BIG = C.THREE, C.FOUR, C.ACE, C.TWO, C.SMALL, C.BIG
NAMES = "3456789TJQKA2XD"


@dataclass(frozen=True)
class Params:
    """The weights of the heuristic (tuned by self-play against the random bot and earlier versions)."""

    lead_value: float = 0.4
    """Worth of winning the round (leading the next one), in groups shed."""
    deny: float = 0.45
    """Worth of keeping an opponent from winning the round."""
    cost_two: float = 0.4
    cost_small: float = 1.0
    cost_big: float = 1.5
    """Control cost of spending a 2, a small joker, a big joker in a play."""
    split: float = 0.3
    """Worth of shedding part of a group (it does not shorten the plan)."""
    keep_high: float = 0.12
    """Per rank above 9: worth of keeping a natural group (high groups answer plays later)."""
    mate_penalty: float = 1.2
    """Cost of overtaking a teammate's play."""
    smother: float = 3.0
    """Cost of being smothered (闷), and worth of a safe play before the 3s."""
    burner_weight: float = 0.4
    """How likely a seat able to burn is to burn (it needs the jokers to go on)."""
    open_min: float = 0.7
    """Least chance to stand for leading a pure gouji play to open the point."""
    feed_guard: float = 1.0
    """Lead no play of the size of an opponent's last cards (≤ 4), gladly one of a teammate's
    (1: not under 憋三, where the 3s held are unknown; 2: also under 憋三, counting one 3; 0: never)."""
    yield_value: float = 0.05
    revolt_below: float = 4.5
    declare_at: float = 10.0
    scarce: float = 0.6
    """Share of the control cost counted when control cards are not scarce (no fewer than the groups)."""
    urgency: float = 1.5
    """Factor on ``deny`` when the play's owner has 6 cards or fewer."""
    mates_after_deny: float = 0.5
    """Factor on ``deny`` when a teammate may still answer after me."""
    shed_control: float = 0.6
    """Worth of shedding a play of control cards alone that shortens the plan."""
    chain_sure: float = 0.97
    """Least chance to stand for a play counted sure when chaining out."""


DEFAULT = Params()


# ------------------------------------------------------------------------------------------------ odds


def _binom(n: int, p: float) -> list[float]:
    """The binomial pmf of n draws with chance p."""
    if n <= 0:
        return [1.0]
    if p >= 1.0:
        return [0.0] * n + [1.0]
    if p <= 0.0:
        return [1.0] + [0.0] * n
    q = 1.0 - p
    out = [q**n]
    ratio = p / q
    for k in range(1, n + 1):
        out.append(out[-1] * ratio * (n - k + 1) / k)
    return out


class _Odds:
    """What one hidden hand may hold: per rank, how many cards (binomial over its share of the unseen)."""

    __slots__ = ("_cache", "cdf", "kill", "pmf")

    def __init__(self, unseen: Sequence[int], share: float, kill: bool) -> None:
        self.pmf = [_binom(n, share) for n in unseen]
        cdf = []
        for pm in self.pmf:
            acc, row = 0.0, []
            for x in pm:
                acc += x
                row.append(acc)
            row[-1] = 1.0
            cdf.append(row)
        self.cdf = cdf
        self.kill = kill
        self._cache: dict[tuple[int, int, int], float] = {}

    def ge(self, r: int, k: int) -> float:
        """P(holds at least k cards of rank r)."""
        if k <= 0:
            return 1.0
        row = self.cdf[r]
        return 1.0 - row[k - 1] if k - 1 < len(row) else 0.0

    def _max_ge(self, v: int, j: int) -> float:
        """P(some natural rank above v is held j times or more)."""
        if j <= 0:
            return 1.0
        prod = 1.0
        for r in range(max(v + 1, FOUR), ACE + 1):
            row = self.cdf[r]
            if j - 1 < len(row):
                prod *= row[j - 1]
        return 1.0 - prod

    def _fill(self, k: int, v: int, use_x: bool) -> float:
        """P(small jokers (if usable) + 2s (if usable) + the longest natural rank above v >= k)."""
        key = (k, v, use_x)
        got = self._cache.get(key)
        if got is not None:
            return got
        pa = self.pmf[SMALL] if use_x else [1.0]
        if 0 <= v < TWO:
            p2 = self.pmf[TWO]
            conv = [0.0] * (len(pa) + len(p2) - 1)
            for i, a in enumerate(pa):
                if a:
                    for j, b in enumerate(p2):
                        conv[i + j] += a * b
            pa = conv
            total = 0.0
            for a, pr in enumerate(pa):
                if pr > 1e-9:
                    total += pr * self._max_ge(v, k - a)
        else:
            total = sum(pa[k:]) if k < len(pa) else 0.0
        self._cache[key] = total
        return total

    def beat(self, q: Play) -> float:
        """P(this hand holds a play that beats q)."""
        if q.eff_big:
            if not self.kill:
                return 0.0
            pd = self.ge(BIG, 2 * q.eff_big)
            if q.body == 0:
                return pd
            return pd * self._fill(q.body, q.value, False)
        xs = q.eff_small
        need = q.size - xs
        pmf_d = self.pmf[BIG]
        total = 0.0
        for d in range(xs, len(pmf_d)):
            pd = pmf_d[d]
            if pd < 1e-12:
                continue
            k = need - (d - xs)
            total += pd if k <= 0 else pd * self._fill(k, q.value, xs == 0)
        return min(1.0, total)


# ------------------------------------------------------------------------------------------------ hands


def _groups(h: Sequence[int], bie_san: bool) -> list[int]:
    """The natural ranks held, lowest first (3s left out under 憋三: they are the final play)."""
    return [r for r in range(FOUR if bie_san else THREE, ACE + 1) if h[r]]


def _flex(h: Sequence[int]) -> int:
    return h[TWO] + h[SMALL] + h[BIG]


def _plays_needed(h: Sequence[int], bie_san: bool) -> int:
    """How many plays empty the hand at best: one per natural rank (2s and jokers ride along)."""
    g = len(_groups(h, bie_san))
    n = g
    if g == 0 and _flex(h):
        n = 1
    if bie_san and h[THREE]:
        n += 1
    return n


def _minus(h: Sequence[int], q: Play) -> list[int]:
    return [a - b for a, b in zip(h, q.counts, strict=True)]


def _whole(h: Sequence[int], bie_san: bool) -> Play | None:
    """The hand as one play, if it is one."""
    nat = [r for r in range(THREE, ACE + 1) if h[r]]
    if len(nat) > 1:
        return None
    if nat and nat[0] == THREE and bie_san and _flex(h):
        return None
    if not nat and not _flex(h):
        return None
    r = nat[0] if nat else NO_RANK
    return Play.of(r, h[r] if nat else 0, h[TWO], h[SMALL], h[BIG])


def _only_threes(h: Sequence[int]) -> bool:
    return h[THREE] > 0 and sum(h) == h[THREE]


def _with(r: int, k: int, t: int = 0, x: int = 0, d: int = 0) -> Play | None:
    try:
        return Play.of(r, k, t, x, d)
    except ValueError:
        return None


def _pct(sp: float) -> float:
    """A chance as a reason's parameter (two decimals)."""
    return round(sp, 2)


# ------------------------------------------------------------------------------------------------ context


class _Ctx:
    """One decision's facts, read from the view."""

    def __init__(self, view: Mapping[str, Any], params: Params) -> None:
        self.p = params
        seat = int(view["seat"])
        self.seat = seat
        self.opp = (seat + 3) % SEATS
        self.hand = list(C.parse_counts(view.get("hand") or ""))
        ro: Mapping[str, Any] = view.get("rule_options") or {}
        self.ro = ro
        self.bie_san = bool(ro.get("bie_san", False))
        self.kill = bool(ro.get("big_joker_kill", False))
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
        decks = int(ro.get("decks", 4))
        deck = [4 * decks] * C.NUM_RANKS
        deck[SMALL] = deck[BIG] = decks
        removed = ro.get("removed") or {}
        if isinstance(removed, Mapping):
            for ch, n in removed.items():
                r = C.RANK_INDEX.get(str(ch))
                if r is not None:
                    deck[r] -= int(n)
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
            floor = 11.0 if self.ro.get("show_counts") == "at_or_below_10" else 1.0
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
        ro = self.ro
        if self.headless[s]:
            return False
        if ro.get("burn_before_first_out") and self.out_order:
            return False
        if ro.get("burn_needs_kaidian"):
            p = self.players[s]
            if not (p.get("opened") or (ro.get("burn_after_four_forfeit") and p.get("forfeited"))):
                return False
        return True

    def stand(self, q: Play, leading: bool, final: bool | None = None) -> float:
        """The chance that no opponent beats q (played by me now; ``final``: it empties my hand)."""
        if q.eff_big and not self.kill:
            return 1.0
        me = self.seat
        passed = self.passed
        if final is None:
            final = sum(self.hand) == q.size
        sp = 1.0
        protected = (
            q.gouji
            and not self.in_play[self.opp]
            and int(self.players[me].get("yaotou_left") or 0) > 0
            and not self.ffa
        )
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
                sp *= 1.0 - w * self.odds(s).beat(q)
        return sp

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
        ro = self.ro
        return (
            not me.get("opened")
            and not me.get("forfeited")
            and not self.ffa
            and not self.headless[self.seat]
            and len(self.out_order) < int(ro.get("kaidian_until_out", 2))
        )

    def opens(self, q: Play) -> bool:
        return q.opens_point(str(self.ro.get("kaidian_plays", "pure")))

    def pending_open(self) -> bool:
        """Whether my last play opened the point but for the 4 I must lead now (开点发4)."""
        if not self.ro.get("kaidian_needs_four") or not self.can_open():
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


# ------------------------------------------------------------------------------------------------ the bot


class HeuristicBot:
    """Plays by a hand plan, the card counter and the players' rules of thumb; see the module docstring."""

    name = "heuristic"
    wants_log = True

    def __init__(self, params: Params | None = None, strict: bool = False) -> None:
        self.params = params or DEFAULT
        self.strict = strict
        """Raise on an internal error instead of falling back to a safe legal action (for tests)."""

    def decide(self, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        return self.choose(view, legal)[0]

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> tuple[Action, str]:
        """The action and a one-line reason a player can read (English)."""
        action, why = self.explain(view, legal)
        return action, why.text

    def explain(self, view: Mapping[str, Any], legal: Sequence[Action]) -> tuple[Action, Reason]:
        """The action and why, as a :class:`~gouji.reasons.Reason` (a code with parameters)."""
        if len(legal) == 0:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            only = legal[0]
            return only, R("only", action=str(only))
        try:
            action, why = self._choose(view, legal)
        except Exception:
            if self.strict:
                raise
            action, why = _fallback(legal), R("safe")
        if action not in legal:  # never hand back an illegal action
            if self.strict:
                raise AssertionError(f"heuristic chose {action}, not legal")
            action, why = _fallback(legal), R("safe")
        return action, why

    # -- dispatch

    def _choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> tuple[Action, Reason]:
        phase = view.get("phase")
        if phase != "play":  # a lead set may hold thousands of plays: never scan it
            returns = [a for a in legal if str(a).startswith("return ")]
            if returns:
                return _choose_return(view, returns)
        if phase == "revolution" and REVOLT in legal:
            return self._revolution(view)
        if YAOTOU in legal:
            return YAOTOU, R("yaotou")
        if WUTOU in legal:
            return WUTOU, R("wutou")
        if DECLARE in legal:
            return self._declare(view)
        if BUY_FOUR in legal:
            return self._buy_four(view)
        if HUIWU in legal:
            return HUIWU, R("huiwu")
        if GIVEBACK in legal:
            return GIVEBACK, R("giveback")
        if SELFOPEN in legal:
            return SELFOPEN, R("selfopen")
        if CHONGDIAN in legal:
            return self._chongdian(view)
        if phase != "play":
            return _fallback(legal), R("safe")
        c = _Ctx(view, self.params)
        if view.get("burn_offer"):
            return self._burn(c, legal)
        ch = view.get("chongdian")
        if c.top is None and ch and ch.get("seat") == c.seat and ch.get("result") is None:
            return self._chong_attempt(c, legal)
        if c.top is None:
            return self._lead(c, legal)
        return self._respond(c, legal)

    # -- before play

    def _strength(self, h: Sequence[int]) -> float:
        return 3.0 * h[BIG] + 2.0 * h[SMALL] + 1.0 * h[TWO] + 0.5 * h[ACE] + 0.25 * h[ACE - 1]

    def _revolution(self, view: Mapping[str, Any]) -> tuple[Action, Reason]:
        h = C.parse_counts(view.get("hand") or "")
        bie_san = bool((view.get("rule_options") or {}).get("bie_san"))
        groups = len(_groups(h, bie_san))
        high = h[ACE] + 0.5 * h[ACE - 1] + 0.25 * h[ACE - 2]
        score = high - 0.25 * max(0, groups - 8)
        if score < self.params.revolt_below:
            return REVOLT, R("revolt", aces=h[ACE], kings=h[ACE - 1])
        return PASS, R("no_revolt", aces=h[ACE], kings=h[ACE - 1])

    def _declare(self, view: Mapping[str, Any]) -> tuple[Action, Reason]:
        h = C.parse_counts(view.get("hand") or "")
        s = self._strength(h)
        if s >= self.params.declare_at:
            return DECLARE, R("declare")
        return PASS, R("no_declare")

    def _chongdian(self, view: Mapping[str, Any]) -> tuple[Action, Reason]:
        h = C.parse_counts(view.get("hand") or "")
        pure = [r for r in range(C.TEN, ACE + 1) if h[r] and Play.of(r, h[r]).pure]
        if len(pure) >= 3 and h[ACE] >= 3:
            return CHONGDIAN, R("chongdian", groups=len(pure), aces=h[ACE])
        return PASS, R("no_chongdian")

    def _chong_attempt(self, c: _Ctx, legal: Sequence[Action]) -> tuple[Action, Reason]:
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return _fallback(legal), R("safe")
        best = max(plays, key=lambda q: (c.stand(q, leading=True), -q.size))
        return best, R("chong_attempt", play=str(best), stand=c.stand(best, leading=True))

    def _buy_four(self, view: Mapping[str, Any]) -> tuple[Action, Reason]:
        ro = view.get("rule_options") or {}
        h = C.parse_counts(view.get("hand") or "")
        if ro.get("kaidian_needs_four") and any(h[r] and Play.of(r, h[r]).pure for r in range(C.TEN, ACE + 1)):
            return BUY_FOUR, R("buy4")
        return PASS, R("no_buy4")

    # -- leading

    def _lead(self, c: _Ctx, legal: Sequence[Action]) -> tuple[Action, Reason]:
        h = c.hand
        p = self.params
        if c.burning:
            return self._burn_lead(c, legal)
        whole = _whole(h, c.bie_san)
        if whole is not None and whole in legal:
            return whole, R("lead_out", play=str(whole))
        groups = _groups(h, c.bie_san)
        threes = c.bie_san and h[THREE] > 0

        # 开点发4: the opening stood; now the 4 completes it
        if groups and groups[0] == FOUR and c.pending_open():
            single = bool(c.ro.get("kaidian_four_single"))
            q = Play.of(FOUR, 1 if single else h[FOUR])
            if q in legal:
                return q, R("open_four", play=str(q))

        # 憋三: the play before the 3s must stand
        if threes and len(groups) <= 3:
            got = self._lead_before_threes(c, legal, groups)
            if got is not None:
                return got

        # chain out: plays that surely stand carry all but the last one
        got = self._chain(c, legal, groups, threes)
        if got is not None:
            return got

        # two plays left: lead the one that stands, keep the other to go out with
        if not threes and len(groups) == 2:
            best: tuple[float, Play] | None = None
            for r in groups:
                q = Play.of(r, h[r], h[TWO], h[SMALL], h[BIG])
                sp = c.stand(q, True)
                if best is None or sp > best[0]:
                    best = (sp, q)
            if best is not None and best[1] in legal:
                other = next(r for r in groups if r != best[1].rank)
                return best[1], R("last_two", play=str(best[1]), stand=_pct(best[0]), keep=NAMES[other])

        # 开点: a pure gouji play that will likely stand
        keep_fours = False
        if c.can_open() and not c.ffa:
            needs_four = bool(c.ro.get("kaidian_needs_four"))
            if not needs_four or h[FOUR]:
                best_open: tuple[float, Play] | None = None
                for r in groups:
                    q = Play.of(r, h[r])
                    if c.opens(q):
                        sp = c.stand(q, True)
                        if best_open is None or sp > best_open[0] or (sp == best_open[0] and r < best_open[1].rank):
                            best_open = (sp, q)
                if best_open is not None:
                    keep_fours = needs_four
                    if best_open[0] >= p.open_min and best_open[1] in legal and len(groups) > 1:
                        q = best_open[1]
                        return q, R("open", play=str(q), stand=_pct(best_open[0]))

        # the lowest group, naked: keep the control cards for later
        order = [r for r in groups if not (keep_fours and r == FOUR and len(groups) > 1)] or groups
        feed: dict[int, str] = {}  # play sizes that would let a player with that many cards go out
        if p.feed_guard and (not c.bie_san or p.feed_guard > 1):
            keep3 = 1 if c.bie_san else 0  # under 憋三 a player's last cards include a 3
            for s in range(SEATS):
                n = round(c.counts[s]) - keep3
                if s != c.seat and c.in_play[s] and 0 < n <= 4:
                    feed.setdefault(n, "mate" if c.mate(s) else "opp")
            if feed:
                order.sort(key=lambda r: {"opp": 2, "mate": 0}.get(feed.get(h[r], ""), 1))
        for r in order:
            q = Play.of(r, h[r])
            if q in legal:
                rest = _minus(h, q)
                if c.bie_san and _only_threes(rest) and c.stand(q, True) < 0.5:
                    continue
                size = feed.get(h[r])
                mate_n = h[r] if size == "mate" else 0
                opp_n = h[groups[0]] if not mate_n and r != groups[0] and feed.get(h[groups[0]]) == "opp" else 0
                keep = []
                if h[BIG] or h[SMALL]:
                    keep.append("jokers")
                if h[TWO]:
                    keep.append("twos")
                return q, R("lead_low", play=str(q), lowest=r == groups[0], mate_n=mate_n, opp_n=opp_n, keep=keep)
        if h[TWO] or h[SMALL] or h[BIG]:
            q2 = _with(NO_RANK, 0, h[TWO], h[SMALL], h[BIG])
            if q2 is not None and q2 in legal:
                return q2, R("lead_control", play=str(q2))
        return _fallback(legal), R("safe")

    def _anchors(self, c: _Ctx, h: Sequence[int]) -> list[tuple[float, int, int, Play]]:
        """Plays that could be the last one before the 3s: (chance to stand, size, value, play), safest
        first, then the biggest (it takes more cards out with it) and the highest (the low ones lead)."""
        t, x, d = h[TWO], h[SMALL], h[BIG]
        out: list[tuple[float, int, int, Play]] = []
        cands: list[Play | None] = []
        for r in _groups(h, True):
            cands.append(_with(r, h[r], t, x, d))
            if d and (t or x):
                cands.append(_with(r, h[r], 0, 0, d))
        if t or x or d:
            cands.append(_with(NO_RANK, 0, t, x, d))
            if d and (t or x):
                cands.append(_with(NO_RANK, 0, 0, 0, d))
        for q in cands:
            if q is not None:
                out.append((round(c.stand(q, True, final=False), 2), q.size, q.value, q))
        out.sort(key=lambda a: a[:3], reverse=True)
        return out

    def _danger(self, c: _Ctx, h: Sequence[int]) -> float:
        """憋三: the cost of a hand whose last play before the 3s may be beaten (闷), near the end."""
        if not c.bie_san or not h[THREE]:
            return 0.0
        n = _plays_needed(h, True) - 1
        close = _CLOSE.get(n, 0.0)
        if not close:
            return 0.0
        anchors = self._anchors(c, h)
        best = anchors[0][0] if anchors else 0.0
        return self.params.smother * close * (1.0 - best)

    def _lead_before_threes(self, c: _Ctx, legal: Sequence[Action], groups: list[int]) -> tuple[Action, Reason] | None:
        """憋三 endgame: reserve the safest play as the last one before the 3s; lead the rest first."""
        h = c.hand
        anchors = self._anchors(c, h)
        if not anchors:
            return None
        sp, _, _, anchor = anchors[0]
        rest = _minus(h, anchor)
        rest[THREE] = 0
        if not any(rest):
            if anchor in legal:
                return anchor, R("anchor", play=str(anchor), stand=_pct(sp))
            return None
        # lead from the rest: its lowest group naked, or its control cards
        rg = _groups(rest, True)
        if rg:
            q = Play.of(rg[0], rest[rg[0]])
        else:
            q2 = _with(NO_RANK, 0, rest[TWO], rest[SMALL], rest[BIG])
            if q2 is None:
                return None
            q = q2
        if q in legal:
            return q, R("keep_anchor", play=str(q), anchor=str(anchor))
        return None

    def _chain(self, c: _Ctx, legal: Sequence[Action], groups: list[int], threes: bool) -> tuple[Action, Reason] | None:
        """Lead out when plays that surely stand (naturally, or with a big joker) carry all but the last."""
        h = c.hand
        if not groups:
            return None
        sure: list[int] = []
        unsure: list[int] = []
        for r in groups:
            (sure if c.stand(Play.of(r, h[r]), True) >= self.params.chain_sure else unsure).append(r)
        # every unsure play must stand but the last one (under 憋三 the 3s are the last one)
        need = max(0, len(unsure) - (0 if threes else 1))
        if need > (0 if c.kill else h[BIG]):
            return None
        if sure:
            q = Play.of(sure[0], h[sure[0]])  # a naturally safe play first: keep the big jokers
            if q in legal:
                return q, R("chain_sure", play=str(q))
        elif need:
            q = Play.of(unsure[0], h[unsure[0]], 0, 0, 1)
            if q in legal:
                return q, R("chain_joker", play=str(q))
        return None

    # -- answering

    def _respond(self, c: _Ctx, legal: Sequence[Action]) -> tuple[Action, Reason]:
        p = self.params
        h = c.hand
        top = c.top
        assert top is not None
        can_yield = YIELD in legal
        plays = [a for a in legal if isinstance(a, Play)]
        if c.burning:
            plays = [q for q in plays if q.has_joker or q.size == sum(h)]
        if not plays:
            return self._no_play(c, legal, can_yield, "nothing_beats")
        owner = c.owner()
        mate = c.mate(owner) and owner != c.seat
        top_in = 0 <= c.top_seat < SEATS and c.in_play[c.top_seat]
        threes_risk = c.only_threes_left(c.top_seat) if top_in else 0.0
        if mate and (threes_risk >= 0.1 or (c.bie_san and top_in and c.counts[c.top_seat] <= 4)):
            return self._no_play(c, legal, can_yield, "mate_threes")
        total = sum(h)
        for q in plays:
            if q.size == total:
                return q, R("go_out", play=str(q))
        n_ctrl = h[TWO] + h[SMALL] + h[BIG]
        before = _plays_needed(h, c.bie_san)
        groups = len(_groups(h, c.bie_san))
        scarce = 1.0 if n_ctrl < groups else p.scarce
        mates_after = self._mates_after(c)
        opp_n = c.counts[owner] if not mate else 99.0
        urgency = p.urgency if opp_n <= 6 else 1.0
        deny = 0.0 if mate else p.deny * urgency * (p.mates_after_deny if mates_after else 1.0)
        smother_gain = 0.0 if mate else p.smother * threes_risk
        danger0 = self._danger(c, h)

        def spent(q: Play) -> float:
            return scarce * (q.t * p.cost_two + q.x * p.cost_small + q.d * p.cost_big)

        def cheap(q: Play) -> float:
            return spent(q) + (0.3 if q.k and q.k < h[q.rank] else 0.0)

        cands = sorted(plays, key=lambda q: (cheap(q), q.value, q.size))[:8]
        best: tuple[float, Play, float, float] | None = None
        for q in cands:
            after = _minus(h, q)
            dg = before - _plays_needed(after, c.bie_san)
            shed = p.split
            if dg > 0:
                shed = 1.0 - p.keep_high * max(0, q.rank - 6) if q.k else p.shed_control
            sp = c.stand(q, False)
            score = shed + sp * (p.lead_value + deny) - spent(q) + smother_gain
            risk = 0.0  # what it does to the last play before the 3s (憋三)
            if c.bie_san and _only_threes(after):
                risk = p.smother * (2.0 * sp - 1.0)
            elif danger0 or c.bie_san:
                risk = danger0 - self._danger(c, after)
            score += risk
            if mate:
                score -= p.mate_penalty
            if best is None or score > best[0]:
                best = (score, q, sp, risk)
        assert best is not None
        score, q, sp, risk = best
        floor = p.yield_value if can_yield else 0.0
        if score > floor:
            stand = _pct(sp)
            if mate:
                return q, R("over_mate", play=str(q), stand=stand)
            if smother_gain >= 0.5 * p.smother:
                return q, R("smother", seat=c.top_seat, top=str(top), play=str(q))
            if c.bie_san and _only_threes(_minus(h, q)):
                return q, R("threes_next", play=str(q), stand=stand)
            if top.gouji and c.top_seat == c.opp:
                return q, R("answer_opp", play=str(q), stand=stand)
            natural = not (q.t or q.x or q.d)
            return q, R("beat", seat=c.top_seat, top=str(top), play=str(q), natural=natural, stand=stand)
        if mate and not top_in:
            return self._no_play(c, legal, can_yield, "mate_out", seat=c.top_seat)
        if mate:
            return self._no_play(c, legal, can_yield, "mate_top")
        if risk < -0.5:
            why = "smother_risk" if _only_threes(_minus(h, q)) else "bie_san_risk"
            return self._no_play(c, legal, can_yield, why, play=str(q))
        if top.gouji and c.top_seat == c.opp:
            return self._no_play(c, legal, can_yield, "opp_gouji_cost", top=str(top))
        if not (q.t or q.x or q.d):
            return self._no_play(c, legal, can_yield, "break_group", play=str(q))
        return self._no_play(c, legal, can_yield, "control_cost", top=str(top))

    def _mates_after(self, c: _Ctx) -> bool:
        """Whether a teammate may still answer the top play after me in this round."""
        top = c.top
        if top is None or c.ffa:
            return False
        if top.gouji and not c.headless[c.top_seat]:
            return any(
                c.headless[s] and c.in_play[s] and s not in c.passed
                for s in (c.seat + 2, c.seat + 4)
                for s in [s % SEATS]
            )
        for s in ((c.seat + 2) % SEATS, (c.seat + 4) % SEATS):
            if c.in_play[s] and s not in c.passed and s != c.top_seat:
                return True
        return False

    def _no_play(
        self, c: _Ctx, legal: Sequence[Action], can_yield: bool, why: str, **params: Any
    ) -> tuple[Action, Reason]:
        if can_yield:
            return YIELD, R("yield", why=why, **params)
        if PASS in legal:
            return PASS, R("pass", why=why, **params)
        return _fallback(legal), R("safe")

    # -- burning

    def _burn_ok(self, c: _Ctx, rest: Sequence[int]) -> tuple[bool, bool]:
        """Whether a burner left with ``rest`` can put a joker in every play but the last (and whether
        the big jokers make every such play certain)."""
        if not any(rest):
            return True, True
        groups = _groups(rest, c.bie_san)
        threes = c.bie_san and rest[THREE] > 0
        jokers = rest[SMALL] + rest[BIG]
        if threes:
            non_final = len(groups) if groups else (1 if rest[TWO] or jokers else 0)
        else:
            if len(groups) <= 1:
                return True, True
            non_final = len(groups) - 1
        ok = jokers >= non_final
        sure = ok and not c.kill and rest[BIG] >= non_final
        return ok, sure

    def carryable(self, view: Mapping[str, Any], action: Burn | Play) -> bool:
        """Whether the seat of ``view`` could carry a burn to its end after ``action`` (a burn taken, or a
        play of its own burn): the hand left holds a joker for every play but the last.  A burn that
        cannot be carried is a 诈烧."""
        c = _Ctx(view, self.params)
        rest = _minus(c.hand, action.play if isinstance(action, Burn) else action)
        return self._burn_ok(c, rest)[0]

    def _burn(self, c: _Ctx, legal: Sequence[Action]) -> tuple[Action, Reason]:
        burns = [a for a in legal if isinstance(a, Burn)]
        top = c.top
        if not burns or top is None:
            return PASS, R("pass", why="no_burn")
        mate = c.mate(c.top_seat)
        best: tuple[tuple[int, int, int, float], Burn, bool] | None = None
        total = sum(c.hand)
        for b in burns:
            q = b.play
            rest = _minus(c.hand, q)
            if q.size == total:
                return b, R("burn_out", top=str(top), play=str(q))
            ok, sure = self._burn_ok(c, rest)
            if not ok or (mate and not sure):
                continue
            key = (0 if sure else 1, q.x + q.d, q.t, -(q.value if q.k else 0))
            if best is None or key < best[0]:
                best = (key, b, sure)
        if best is None:
            if not (c.hand[SMALL] or c.hand[BIG]):
                return PASS, R("pass", why="no_jokers")
            if mate:
                return PASS, R("pass", why="mate_stands")
            return PASS, R("pass", why="few_jokers")
        b = best[1]
        return b, R("burn", top=str(top), play=str(b.play), sure=best[2])

    def _burn_lead(self, c: _Ctx, legal: Sequence[Action]) -> tuple[Action, Reason]:
        """Burning: every play but the last carries a joker — small ones first, the big one last."""
        h = c.hand
        whole = _whole(h, c.bie_san)
        if whole is not None and whole in legal:
            return whole, R("burn_lead_out", play=str(whole))
        groups = _groups(h, c.bie_san)
        threes = c.bie_san and h[THREE] > 0
        x, d = h[SMALL], h[BIG]
        if threes and len(groups) <= 1:
            r = groups[0] if groups else NO_RANK
            q = _with(r, h[r] if groups else 0, h[TWO], x, d)
            if q is not None and q in legal:
                return q, R("burn_lead_threes", play=str(q))
        if groups:
            r = groups[0]
            remaining = len(groups) - 1 if not threes else len(groups)
            use_x = x > 0 and (d == 0 or d >= remaining or not c.bie_san or remaining > 1)
            q = _with(r, h[r], 0, 1, 0) if use_x else _with(r, h[r], 0, 0, 1 if d else 0)
            if q is not None and q.has_joker and q in legal:
                return q, R("burn_lead_joker", play=str(q))
        q = _with(NO_RANK, 0, h[TWO], x, d)
        if q is not None and q.has_joker and q in legal:
            return q, R("burn_lead_control", play=str(q))
        # No joker left and more than one play: whatever is led breaks the burn (诈烧).  Lead the strongest
        # play (the biggest group with every 2), the one the opponents find hardest to beat, and say so.
        if groups:
            r = max(groups, key=lambda g: (h[g], g))
            q = _with(r, h[r], h[TWO])
        if q is not None and q in legal:
            return q, R("burn_lost", play=str(q))
        action = _fallback(legal)
        return action, R("burn_lost", play=str(action))


# ------------------------------------------------------------------------------------------------ odds and ends


def _fallback(legal: Sequence[Action]) -> Action:
    """A sensible legal action when nothing better is known: decline if possible, else the first."""
    if PASS in legal:
        return PASS
    if len(legal) <= 256:  # a lead set may hold thousands of plays: never scan it
        for a in legal:
            if isinstance(a, Decision):
                return a
    return legal[0]


def _choose_return(view: Mapping[str, Any], returns: list[Action]) -> tuple[Action, Reason]:
    """还贡: give back the lowest cards, preferring ones that shorten the hand."""
    h = C.parse_counts(view.get("hand") or "")
    bie_san = bool((view.get("rule_options") or {}).get("bie_san"))
    best: tuple[tuple[float, int], Action] | None = None
    for a in returns:
        text = str(a)[len("return ") :]
        try:
            cards = C.parse_counts(text)
        except ValueError:
            continue
        if not all(h[r] >= n for r, n in enumerate(cards)):
            continue
        rest = [h[r] - cards[r] for r in range(C.NUM_RANKS)]
        value = sum(n * (r + 1) ** 2 for r, n in enumerate(cards))
        if bie_san and h[THREE] and not rest[THREE]:
            value += 1000  # keep a 3 for the last play
        key = (value + 5.0 * _plays_needed(rest, bie_san), sum(cards))
        if best is None or key < best[0]:
            best = (key, a)
    if best is None:
        return returns[0], R("return_first")
    return best[1], R("return_low", cards=str(best[1])[len("return ") :])


def tuned(**changes: Any) -> HeuristicBot:
    """A heuristic bot with some weights changed (for experiments)."""
    return HeuristicBot(replace(DEFAULT, **changes))


__all__ = ["DEFAULT", "HeuristicBot", "Params", "tuned"]
