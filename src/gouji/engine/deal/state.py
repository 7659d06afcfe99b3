"""One deal of Gouji: rounds, burning, 闷, 开点 and places (rule book §5–§11); the before-play phases
are in :mod:`gouji.engine.deal.setup`.

A :class:`Deal` has the surface of an OpenSpiel state: :attr:`Deal.to_act`, :meth:`Deal.legal_actions`,
:meth:`Deal.act`, :attr:`Deal.is_over`, :meth:`Deal.view` for what one seat may know, and
:attr:`Deal.events`, the log from which :meth:`Deal.replay` rebuilds the identical deal.

The state of play is the deal's public facts (who is out, who opened …), the :class:`Round` in progress
and the :class:`BurnInProgress`, if any.

Who is asked to act depends on public information only: a seat is asked whenever the rules let it act
(answer, burn, revolt …), even when its hand holds no play that could — its only action is then
``pass``.  So the order of turns never tells the table anything about a hidden hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .. import cards as C
from ..actions import (
    PASS,
    YIELD,
    Action,
    Burn,
    Decision,
    InvalidAction,
    LegalActions,
    Return,
    parse_action,
)
from ..checks import check_hands, check_seat, check_viewer
from ..plays import Play, beats, responses
from ..rules import RuleSet, resolve
from ..seats import (
    FAILED_BURN,
    IN_PLAY,
    NO_THREE,
    OUT,
    PLACE_NAMES,
    PLACE_NAMES_EN,
    REVOLTED,
    SEATS,
    SMOTHERED,
    opposite,
    team,
)
from ..tribute import Payment
from .setup import BUY_FOUR_PHASE as SETUP_BUY_FOUR
from .setup import REVOLUTION as SETUP_REVOLUTION
from .setup import TRIBUTE_RETURN as SETUP_TRIBUTE_RETURN
from .setup import XUANDIAN as SETUP_XUANDIAN
from .setup import YAOTOU_PHASE as SETUP_YAOTOU
from .setup import Setup, deal_liang_san

PLAY = "play"
OVER = "over"
RESCUED = "rescued"  # 冲点: the 冲点 player's team took 头科, so it is placed 三科 (rule book §16.3)
CHONGDIAN_LOST = "chongdian_lost"  # 冲点: the other team took 头科, so the 冲点 player is 大落

__all__ = [
    "FAILED_BURN",
    "IN_PLAY",
    "NO_THREE",
    "OUT",
    "OVER",
    "PLACE_NAMES",
    "PLACE_NAMES_EN",
    "PLAY",
    "RESCUED",
    "REVOLTED",
    "SEATS",
    "SETUP_BUY_FOUR",
    "SETUP_REVOLUTION",
    "SETUP_TRIBUTE_RETURN",
    "SETUP_XUANDIAN",
    "SETUP_YAOTOU",
    "SMOTHERED",
    "BurnInProgress",
    "Deal",
    "IllegalAction",
    "Round",
    "opposite",
    "team",
]


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why.  The deal is left unchanged."""


def _only_threes(hand: Sequence[int]) -> bool:
    return hand[C.THREE] > 0 and sum(hand) == hand[C.THREE]


class Round:
    """One round (一轮, rule book §5.2) in progress: the top play, who passed, a burn offer, a yield."""

    __slots__ = (
        "after_yield",
        "burn_offers",
        "leader",
        "passed",
        "passed_top",
        "protected",
        "top",
        "top_seat",
        "yield_left",
        "yielder",
    )

    def __init__(self, leader: int = -1) -> None:
        self.start(leader)

    def start(self, leader: int) -> None:
        """Begin a new round led by ``leader`` (the deal keeps one Round and starts it over)."""
        self.leader = leader
        """The seat that leads (led) this round."""
        self.top: Play | None = None
        """The play to beat; None while the leader has not led."""
        self.top_seat = -1
        self.passed = 0
        """Seats (bits) that passed in this round: they may not play again in it (but answer their 对头)."""
        self.passed_top = 0
        """Seats (bits) that passed on the current top play."""
        self.burn_offers: list[int] = []
        """Seats still to be offered a burn of the top play, in priority order."""
        self.yielder = -1
        """The seat that yielded (让牌) on the top play, while the seats it let in decide."""
        self.yield_left: list[int] = []
        """The seats let in by the yield that have not yet decided."""
        self.after_yield = False
        """The top play was made by the yielder after yielding: only its 对头 may answer."""
        self.protected = False
        """The top play is a 要头-protected gouji play: only a burn can beat it."""


class BurnInProgress:
    """A burn (烧牌, rule book §6) from its burning play until it succeeds, breaks, fails or is countered."""

    __slots__ = ("burned", "burner", "level", "play")

    def __init__(self, burner: int, burned: int, level: int, play: Play) -> None:
        self.burner = burner
        self.burned = burned
        self.level = level
        """1 for a burn, one more for each counter-burn of a burn (烧贡 doubles)."""
        self.play = play

    def record(self, result: str) -> dict[str, Any]:
        """The burn as the deal's result lists it."""
        return {
            "burner": self.burner,
            "burned": self.burned,
            "level": self.level,
            "play": str(self.play),
            "result": result,
        }


class Deal:
    """One deal.  Build with :meth:`Deal.new` (shuffle, deal and every before-play phase) or
    :meth:`Deal.from_hands` (straight into play)."""

    # ------------------------------------------------------------------ construction

    def __init__(self, rules: RuleSet, hands: Sequence[Sequence[int]], leader: int) -> None:
        if len(hands) != SEATS:
            raise ValueError(f"a deal needs {SEATS} hands, got {len(hands)}")
        if not 0 <= leader < SEATS:
            raise ValueError(f"leader must be a seat 0-5, not {leader}")
        self.rules = rules
        self.first_leader = leader
        self.hands: list[list[int]] = [list(h) for h in hands]
        self.status = [IN_PLAY] * SEATS
        self.in_play = [True] * SEATS
        self.events: list[dict[str, Any]] = []
        self.phase = PLAY
        self.setup: Setup | None = None
        """The before-play phases, while they run (None for a deal straight into play)."""
        self._rng: random.Random | None = None
        self.tribute: list[Payment] = []
        self.tribute_paid: list[dict[str, Any]] = []
        # public facts the next layers need
        self.out_order: list[int] = []
        self.smothered: list[tuple[int, int]] = []  # (smothered seat, the seat that beat them)
        self.failed_burns: list[int] = []
        self.revolted: list[int] = []
        self.revealed: dict[int, str] = {}
        self.declared = [False] * SEATS
        self.opened = [False] * SEATS
        self.forfeited = [False] * SEATS
        self.yaotou_left = [0] * SEATS
        self.yaotou_choice: dict[int, str] = {}
        self.burns: list[dict[str, Any]] = []
        self.buys: list[dict[str, Any]] = []
        self.no_three: list[int] = []  # 大拉 for holding no 3 (no_three = "last")
        self.huiwu: list[int] = []  # the seats that may discard their 5s (汇5), from the deal before
        self.chongdian: dict[str, Any] | None = None  # 冲点: seat, attempts left, result, place
        self.self_opening = [False] * SEATS  # 无级自开 declared: the seat's first lead of 4s opens
        self.shown: dict[int, tuple[int, str]] = {}  # seat → (the seat it showed its hand to, the hand)
        self.places: list[int] | None = None
        self.sweep: int | None = None
        # the state of play
        self.ffa = False
        self.round = Round()
        self.burn: BurnInProgress | None = None
        self._pending_open = -1  # the seat whose standing pure gouji play opens if its next lead is 4s
        self.to_act: int | None = None
        self._last_actor = leader
        self._legal: LegalActions | None = None
        self._legal_of: tuple[int, dict[int, LegalActions]] = (-1, {})
        """The legal actions of the window's other seats, made at decision ``[0]`` (:meth:`legal_actions_of`)."""
        self.decisions = 0
        self._played = [0] * C.NUM_RANKS
        self._rule_options = rules.to_dict()

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[str | Sequence[int]],
        rules: RuleSet | str | None = "qingdao",
        leader: int = 0,
        setup: bool = False,
        seed: int | str | None = None,
        tribute: Sequence[Payment | Mapping[str, Any]] = (),
        huiwu: Sequence[int] = (),
    ) -> Deal:
        """A deal from six given hands (texts or count vectors); seat ``leader`` leads first.

        By default it goes straight into play: no buying, revolution, 宣点 or tribute.  With ``setup``
        the before-play phases run as in :meth:`new` (with ``tribute`` owed and the ``huiwu`` seats that
        may discard their 5s); should two revolutions void the deal, it is dealt again from ``seed``.
        """
        rs = resolve(rules)
        counts = check_hands(hands, rs)
        leader = check_seat(leader, "leader")
        deal = cls(rs, counts, leader)
        event: dict[str, Any] = {
            "type": "deal",
            "mode": "hands",
            "rules": rs.to_dict(),
            "leader": leader,
            "hands": [C.format_counts(h) for h in counts],
        }
        if setup:
            event["setup"] = True
            event["seed"] = seed
            deal.tribute = _payments(tribute)
            event["tribute"] = [p.to_dict() for p in deal.tribute]
            if huiwu:
                deal.huiwu = _seats(huiwu)
                event["huiwu"] = list(deal.huiwu)
        elif tribute or huiwu:
            raise ValueError("tribute and 汇5 come in the setup phases: pass setup=True with them")
        deal.events.append(event)
        if setup:
            deal._rng = random.Random(seed)
            deal._deck = tuple(sum(h[r] for h in counts) for r in range(C.NUM_RANKS))
            deal._run_setup()
        else:
            deal._start_play()
        return deal

    @classmethod
    def new(
        cls,
        rules: RuleSet | str | None = "qingdao",
        seed: int | str | None = None,
        leader: int | None = None,
        tribute: Sequence[Payment | Mapping[str, Any]] = (),
        huiwu: Sequence[int] = (),
    ) -> Deal:
        """Shuffle and deal from ``seed``, then run every before-play phase the rules ask for: the
        ``tribute`` owed from the deal before (进贡, with 还贡 decisions), buying 3s and 4s, revolution (two
        revolutions void the deal and it is dealt again, tribute paid again), 要头/无头 and 宣点.

        ``leader`` is the first leader (上班); ``None`` draws a seat from the seed, as for the first deal
        of a match — or, with ``first_leader="liang_san"``, the seed draws the seat dealing starts from
        and 亮3 / 顶班 decides (see :func:`gouji.engine.deal.setup.deal_liang_san`).  ``huiwu``: the seats that may
        discard their 5s (汇5, after being swept).  The same arguments always give the same deal.
        """
        rs = resolve(rules)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        rng = random.Random(seed)
        first = rng.randrange(SEATS) if leader is None else check_seat(leader, "leader")
        deck = C.build_deck(rs.decks, rs.removed_counts)
        liang: dict[str, Any] | None = None
        if leader is None and rs.first_leader == "liang_san":
            hands, holder, shown = deal_liang_san(deck, first, rng)
            liang = {"dealt_from": first, "seat": holder, "threes": shown}
            if holder is not None:
                first = holder
        else:
            hands = C.deal_hands(deck, SEATS, first, rng)
        deal = cls(rs, hands, first)
        deal._rng = rng
        deal._deck = deck
        deal.tribute = _payments(tribute)
        deal.huiwu = _seats(huiwu)
        event: dict[str, Any] = {
            "type": "deal",
            "mode": "seed",
            "rules": rs.to_dict(),
            "seed": seed,
            "leader": leader,
            "first_leader": first,
            "hands": [C.format_counts(h) for h in hands],
            "tribute": [p.to_dict() for p in deal.tribute],
        }
        if liang is not None:
            event["liang_san"] = liang
        if deal.huiwu:
            event["huiwu"] = list(deal.huiwu)
        deal.events.append(event)
        deal._run_setup()
        return deal

    _deck: C.Counts = C.EMPTY

    @classmethod
    def from_deal_event(cls, first: Mapping[str, Any]) -> Deal:
        """The deal as its first event (``events[0]``, type "deal") starts it, before any decision."""
        if not isinstance(first, Mapping) or first.get("type") != "deal":
            raise ValueError("a deal's events start with its 'deal' event")
        need = ("rules", "seed") if first.get("mode") == "seed" else ("rules", "hands", "leader")
        missing = [k for k in need if k not in first]
        if missing:
            raise ValueError(f"the 'deal' event lacks {', '.join(repr(k) for k in missing)}")
        if not isinstance(first["rules"], Mapping):
            raise ValueError("the 'deal' event's 'rules' must be an object")
        rules = RuleSet.from_dict(first["rules"])
        tribute = first.get("tribute", ())
        huiwu = first.get("huiwu", ())
        if first.get("mode") == "seed":
            return cls.new(rules, seed=first["seed"], leader=first.get("leader"), tribute=tribute, huiwu=huiwu)
        return cls.from_hands(
            first["hands"],
            rules,
            leader=first["leader"],
            setup=first.get("setup", False),
            seed=first.get("seed"),
            tribute=tribute,
            huiwu=huiwu,
        )

    @classmethod
    def replay(cls, events: Iterable[Mapping[str, Any]]) -> Deal:
        """Rebuild a deal from its :attr:`events`; raises ``ValueError`` if they are not a true log."""
        evs = [dict(e) for e in events]
        if not evs:
            raise ValueError("a deal's events start with its 'deal' event")
        deal = cls.from_deal_event(evs[0])
        for i, e in enumerate(evs):
            if e.get("type") == "act":
                try:
                    deal.act(e["action"], seat=e["seat"])
                except (IllegalAction, KeyError) as err:
                    raise ValueError(f"event {i} does not replay: {err}") from None
        if deal.events != evs:
            n = next(
                (i for i, (a, b) in enumerate(zip(deal.events, evs, strict=False)) if a != b),
                min(len(deal.events), len(evs)),
            )
            raise ValueError(f"the events do not replay: they differ from event {n} on")
        return deal

    # ------------------------------------------------------------------ public surface

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended (places are then known)."""
        return self.phase == OVER

    def hand(self, seat: int) -> str:
        """That seat's cards, as text (highest first)."""
        seat = check_seat(seat)
        return C.format_counts(self.hands[seat])

    def hand_counts(self, seat: int) -> C.Counts:
        """That seat's cards as per-rank counts."""
        seat = check_seat(seat)
        return tuple(self.hands[seat])

    def played_counts(self) -> C.Counts:
        """The cards played so far per rank (the card counter, 记牌器): public, the view's ``played``."""
        return tuple(self._played)

    def card_count(self, seat: int) -> int:
        """How many cards a seat holds."""
        seat = check_seat(seat)
        return sum(self.hands[seat])

    def result(self) -> dict[str, Any]:
        """What the next deal and the scores need from this finished deal, as plain data: places, who
        went out in which order, who smothered whom, the burns, who opened and declared the point, who
        revolted, and the sweeping team (or None)."""
        if self.places is None:
            raise ValueError("the deal is not over: it has no result yet")
        return {
            "places": list(self.places),
            "out_order": list(self.out_order),
            "smothered": [list(p) for p in self.smothered],
            "failed_burns": list(self.failed_burns),
            "burns": [dict(b) for b in self.burns],
            "opened": list(self.opened),
            "declared": list(self.declared),
            "revolted": list(self.revolted),
            "sweep": self.sweep,
            "first_leader": self.first_leader,
            "no_three": list(self.no_three),
            "chongdian": dict(self.chongdian) if self.chongdian is not None else None,
        }

    def headless(self, seat: int) -> bool:
        """无头: the seat's opposite is no longer in play (and no 要头 protection is left; with
        ``smothered_keeps_head`` a smothered 对头 still counts as there, 憋三留头)."""
        seat = check_seat(seat)
        if self.in_play[(seat + 3) % SEATS] or self.yaotou_left[seat] > 0:
            return False
        return not self.rules.smothered_keeps_head or self.status[(seat + 3) % SEATS] != SMOTHERED

    def legal_actions(self) -> LegalActions:
        """The actions open to :attr:`to_act` (empty once the deal is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    @property
    def burn_offered(self) -> bool:
        """Whether the seat to act is being offered the burn (烧牌) of a gouji play."""
        return bool(self.round.burn_offers)

    def window(self) -> list[int]:
        """The seats the current event asks, one after another, the seat to act first: every seat still
        offered the burn of a gouji play (in priority order), every seat still to answer a revolution (革命)
        or a 买四 round (in turn order); else the seat to act alone (empty once the deal is over).

        Each of them has its own :meth:`legal_actions_of`, which no earlier answer of the window changes
        (an answer may only end the window: a burn taken, a deal voided), so a server may collect the
        answers at once and feed them in this order."""
        s = self.to_act
        if s is None:
            return []
        if self.phase == PLAY and self.round.burn_offers:
            return list(self.round.burn_offers)
        if self.phase in (SETUP_REVOLUTION, SETUP_BUY_FOUR) and self.setup is not None:
            return list(self.setup.queue)
        return [s]

    def legal_actions_of(self, seat: int) -> LegalActions:
        """The actions seat ``seat`` of :meth:`window` will have when it is asked; ``ValueError`` for a seat
        the current event does not ask."""
        if seat == self.to_act:
            return self.legal_actions()
        at, made = self._legal_of
        if at != self.decisions:  # (every change of the deal is a decision taken: what was made is void)
            made = {}
            self._legal_of = (self.decisions, made)
        legal = made.get(seat)
        if legal is not None:
            return legal
        if seat not in self.window():
            raise ValueError(f"seat {seat} is not asked about the current event")
        to_act = self.to_act
        self.to_act = seat  # every seat of a window has the same kind of decision: compute it as if asked
        try:
            legal = made[seat] = self._compute_legal()
        finally:
            self.to_act = to_act
        return legal

    def refusal(self, seat: int, action: str | Action) -> str:
        """Why ``action`` is not one of :meth:`legal_actions_of` ``seat`` now: the message :meth:`act`
        would give that seat."""
        try:
            a = parse_action(action)
        except InvalidAction as e:
            return str(e)
        if seat not in self.window():
            return f"seat {seat} is not to act: it is seat {self.to_act}'s turn"
        to_act, legal = self.to_act, self._legal
        self.to_act, self._legal = seat, None
        try:
            return self._explain(seat, a)
        finally:
            self.to_act, self._legal = to_act, legal

    def act(self, action: str | Action, seat: int | None = None) -> None:
        """Take an action for the seat to act (or check that ``seat`` is that seat).

        Raises :class:`IllegalAction` with a reason, leaving the deal as it was, when the action is
        malformed, out of turn or not allowed by the rules.
        """
        s = self.to_act
        if s is None:
            raise IllegalAction("the deal is over: nobody can act")
        if seat is not None and seat != s:
            raise IllegalAction(f"seat {seat} cannot act now: it is seat {s}'s turn")
        try:
            a = parse_action(action)
        except InvalidAction as e:
            raise IllegalAction(str(e)) from None
        legal = self.legal_actions()
        if a not in legal:
            raise IllegalAction(self._explain(s, a))
        self._legal = None
        self.decisions += 1
        self.events.append({"type": "act", "seat": s, "action": str(a)})
        self._last_actor = s
        if self.phase == PLAY:
            self._act_play(s, a)
        else:
            assert self.setup is not None
            self.setup.act(s, a)

    @property
    def top(self) -> Play | None:
        """The play to beat in the round in progress (None when the leader is to lead)."""
        return self.round.top

    @property
    def top_seat(self) -> int:
        """Who made :attr:`top` (-1 when there is none)."""
        return self.round.top_seat

    @property
    def burner(self) -> int:
        """The seat burning now (-1 when no burn is in progress)."""
        burn = self.burn
        return burn.burner if burn is not None else -1

    # ------------------------------------------------------------------ before play

    def _run_setup(self) -> None:
        self.setup = Setup(self)
        self.setup.advance()

    def _redeal(self, hands: Sequence[Sequence[int]]) -> None:
        """Start the deal over with new hands (a void deal dealt again), keeping its log and its setup."""
        keep = (self.events, self.decisions, self.tribute, self._rng, self.setup, self.huiwu)
        self.__init__(self.rules, hands, self.first_leader)  # type: ignore[misc]
        self.events, self.decisions, self.tribute, self._rng, self.setup, self.huiwu = keep

    # ------------------------------------------------------------------ rounds

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

    # ------------------------------------------------------------------ 冲点 and 无级自开 (rule book §16.3)

    def _begin_chongdian(self, s: int) -> None:
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

    def _play(self, s: int, play: Play, burn: bool) -> None:
        rules = self.rules
        rd = self.round
        hand = self.hands[s]
        played = self._played
        for r, n in enumerate(play.counts):
            if n:
                hand[r] -= n
                played[r] += n
        empty = not any(hand)
        prev, prev_seat = rd.top, rd.top_seat
        leading = prev is None

        # the burn in progress, if any
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

        # the play beaten: 闷 (smothered) when it left only 3s
        if (
            prev is not None
            and rules.bie_san
            and self.in_play[prev_seat]
            and _only_threes(self.hands[prev_seat])
            and (rules.smother_by == "anyone" or (s == opposite(prev_seat)) == (rules.smother_by == "opposite_only"))
        ):
            self.smothered.append((prev_seat, s))
            self.status[prev_seat] = SMOTHERED
            self.in_play[prev_seat] = False
            self.events.append({"type": "smothered", "seat": prev_seat, "by": s})

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

    def _end_burn(self, result: str) -> None:
        current = self.burn
        assert current is not None
        self.burns.append(current.record(result))
        self.events.append({"type": "burn_" + result, "seat": current.burner, "burned": current.burned})
        self.burn = None

    def _burn_offers(self, s: int, play: Play, final: bool) -> list[int]:
        """The seats that may burn ``play`` of seat ``s``, in priority order: the player's own team first
        (联邦烧牌优先), then the others, each in turn order from the player."""
        rules = self.rules
        rd = self.round
        if final or (self.headless(s) and not rd.protected):
            return []
        if rules.burn_before_first_out and self.out_order:
            return []
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
            if rules.burn_needs_kaidian and not (
                self.opened[c] or (rules.burn_after_four_forfeit and self.forfeited[c])
            ):
                continue
            out.append(c)
        return out

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

    def _can_open(self, s: int, protected: bool) -> bool:
        """Whether seat ``s`` may open the point now (a 要头-protected play counts as having a head)."""
        ch = self.chongdian
        if ch is not None and s in (ch["seat"], opposite(ch["seat"])):
            return False  # the 冲点 settles this pair's point
        return (
            not self.opened[s]
            and not self.ffa
            and len(self.out_order) < self.rules.kaidian_until_out
            and (
                protected
                or not self.headless(s)
                or (self.rules.open_when_opposite_smothered and self.status[opposite(s)] == SMOTHERED)
            )
            and not self.forfeited[s]
        )

    def _open(self, s: int) -> None:
        self.opened[s] = True
        self._pending_open = -1
        self.events.append({"type": "open", "seat": s})

    def _check_ffa(self) -> None:
        if self.ffa or sum(self.in_play) > self.rules.luanchan_at:
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

    def _check_over(self) -> bool:
        teams = {s % 2 for s in range(SEATS) if self.in_play[s]}
        if len(teams) > 1:
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

    # ------------------------------------------------------------------ legal actions

    def _compute_legal(self) -> LegalActions:
        s = self.to_act
        if s is None:
            return LegalActions([])
        phase = self.phase
        if phase != PLAY:
            assert self.setup is not None
            return self.setup.legal(s)
        hand = self.hands[s]
        rd = self.round
        top = rd.top
        rules = self.rules
        if top is None:
            ch = self.chongdian
            if ch is not None and ch["result"] is None and ch["seat"] == s:
                return LegalActions(self._chong_leads(s))  # 冲点: a play that could open the point
            if rules.bie_san and hand[C.THREE]:
                if _only_threes(hand):
                    return LegalActions([Play.of(C.THREE, hand[C.THREE])])
                return LegalActions.leads(hand, allow_threes=False, whole_fours=rules.fours_whole)
            return LegalActions.leads(hand, allow_threes=True, whole_fours=rules.fours_whole)
        answers: Iterable[Play] = responses(hand, top, rules.big_joker_kill, rules.three_small_kill)
        if rules.fours_whole and hand[C.FOUR]:
            answers = [p for p in answers if p.rank != C.FOUR or p.size == p.k == hand[C.FOUR]]
        if rd.burn_offers:
            return LegalActions([*(Burn(p) for p in answers), PASS])
        acts: list[Action] = [*answers, PASS]
        # 让牌 (inlined: this runs for every answer): a non-gouji play of my 对头, once, outside the free-for-all
        if (
            rd.top_seat == (s + 3) % SEATS
            and not top.gouji
            and not self.ffa
            and not rd.after_yield
            and rd.yielder < 0
            and (self._may_respond_plain((s + 1) % SEATS) or self._may_respond_plain((s + 2) % SEATS))
        ):
            acts.append(YIELD)
        return LegalActions(acts)

    def _explain(self, s: int, a: Action) -> str:
        """Why ``a`` is not legal for seat ``s`` now: a message a player can act on."""
        phase = self.phase
        legal = self.legal_actions()
        if phase != PLAY:
            assert self.setup is not None
            return self.setup.explain(s, a, legal)
        top = self.top
        if self.round.burn_offers:
            if isinstance(a, Burn):
                return self._explain_play(s, a.play, top, burning=True)
            return (
                f"seat {s} is being offered a burn of {top} (seat {self.top_seat}'s gouji play): "
                f"answer 'burn <cards>' with a play that beats it, or 'pass'"
            )
        if isinstance(a, Burn):
            return (
                f"seat {s} cannot burn now: a burn is offered right after a gouji play, before the "
                "player's opposite answers, to seats that have not passed"
            )
        if a is PASS:
            return f"seat {s} leads this round and must play: 'pass' is not possible"
        if a is YIELD:
            return (
                f"seat {s} cannot yield (让牌): yielding is for a non-gouji play by your opposite that the "
                "two seats between you have passed, once, before the free-for-all"
            )
        if isinstance(a, Decision):
            return f"'{a}' is a setup decision; the deal is in play"
        if isinstance(a, Return):
            return f"'{a}' gives back 落贡 (还贡), which is done before play; the deal is in play"
        assert isinstance(a, Play)
        return self._explain_play(s, a, top, burning=False)

    def _explain_play(self, s: int, p: Play, top: Play | None, burning: bool) -> str:
        hand = self.hands[s]
        if not C.contains(hand, p.counts):
            return f"seat {s} does not hold {p} (holds {self.hand(s)})"
        if self.rules.bie_san and p.counts[C.THREE]:
            return f"{p}: 3s may only be played as your last play, all of them and nothing attached (憋三)"
        if self.rules.fours_whole and p.rank == C.FOUR:
            return f"{p}: 4s are played all together and with nothing attached (4不拆不挂)"
        ch = self.chongdian
        if top is None and ch is not None and ch["result"] is None and ch["seat"] == s:
            return f"{p}: a 冲点 attempt is a gouji play that could open the point (纯够级)"
        if top is None:
            return f"{p} is not a lead seat {s} can make"  # pragma: no cover - every held shape is a lead
        if not beats(p, top, self.rules.big_joker_kill, self.rules.three_small_kill):
            if p.size != top.size and not top.eff_big:
                return f"{p} cannot meet {top}: a play is beaten only by one of the same number of cards"
            return f"{p} does not beat {top}: every card must be higher, jokers beaten only by bigger jokers"
        return f"seat {s} cannot play {p} now"  # pragma: no cover

    # ------------------------------------------------------------------ views

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


def _payments(tribute: Sequence[Payment | Mapping[str, Any]]) -> list[Payment]:
    return [p if isinstance(p, Payment) else Payment.from_dict(p) for p in tribute]


def _seats(seats: Sequence[int]) -> list[int]:
    out = sorted(set(seats))
    for s in out:
        if not isinstance(s, int) or not 0 <= s < SEATS:
            raise ValueError(f"huiwu: {s!r} is not a seat 0-5")
    return out
