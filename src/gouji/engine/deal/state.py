"""The state of one deal (rule book §5–§11): the public facts, the hands, the round in progress
(:class:`Round`, §5.2) and the burn in progress (:class:`BurnInProgress`, §6).

The rules that change this state are in the modules named after them (:mod:`.burn`, :mod:`.kaidian`,
:mod:`.smother`, :mod:`.places`, :mod:`.round`, :mod:`.play`), what a seat may do in :mod:`.legality`, what a
seat may see in :mod:`.views`; :class:`gouji.engine.deal.Deal` is the whole.  Each module's class extends
the one below it, in this order: state, burn, kaidian, places, round, smother, play, legality, views, deal."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .. import cards as C
from ..actions import LegalActions
from ..checks import check_seat
from ..plays import Play
from ..rules import RuleSet
from ..seats import IN_PLAY, SEATS, SMOTHERED
from ..tribute import Payment
from .setup import Setup

PLAY = "play"
OVER = "over"
RESCUED = "rescued"  # 冲点: the 冲点 player's team took 头科, so it is placed 三科 (rule book §16.3)
CHONGDIAN_LOST = "chongdian_lost"  # 冲点: the other team took 头科, so the 冲点 player is 大落


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why.  The deal is left unchanged."""


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


class DealState:
    """One deal's state and the plain questions about it."""

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

    def discard(self, seat: int, rank: int) -> int:
        """Seat ``seat`` discards every card of ``rank`` it holds (汇5 discards the 5s): they count as played.
        Returns how many."""
        n = self.hands[seat][rank]
        self.hands[seat][rank] = 0
        self._played[rank] += n
        return n
