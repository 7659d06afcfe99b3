"""One deal of Gouji: the setup phases, rounds, burning, 闷, 开点, places — every rule of RULES.md 1–11.

A :class:`Deal` has the surface of an OpenSpiel state: :attr:`Deal.to_act`, :meth:`Deal.legal_actions`,
:meth:`Deal.act`, :attr:`Deal.is_over`, :meth:`Deal.view` for what one seat may know, and
:attr:`Deal.events`, the log from which :meth:`Deal.replay` rebuilds the identical deal.

Who is asked to act depends on public information only: a seat is asked whenever the rules let it act
(answer, burn, revolt …), even when its hand holds no play that could — its only action is then
``pass``.  So the order of turns never tells the table anything about a hidden hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import cards as C
from .actions import (
    BUY_FOUR,
    DECLARE,
    PASS,
    REVOLT,
    WUTOU,
    YAOTOU,
    YIELD,
    Action,
    Burn,
    Decision,
    InvalidAction,
    LegalActions,
    Return,
    parse_action,
)
from .deal_checks import check_hands, check_seat, check_viewer
from .plays import Play, beats, responses
from .rules import RuleSet, resolve
from .tribute import Payment

SEATS = 6
PLACE_NAMES = ("头科", "二科", "三科", "四科", "二落", "大落")
PLACE_NAMES_EN = ("first", "second", "third", "fourth", "fifth", "last")

# Phases
SETUP_TRIBUTE_RETURN = "tribute_return"
SETUP_BUY_FOUR = "buy_four"
SETUP_REVOLUTION = "revolution"
SETUP_YAOTOU = "yaotou"
SETUP_XUANDIAN = "xuandian"
PLAY = "play"
OVER = "over"

# Seat status
IN_PLAY = "in_play"
OUT = "out"  # 走科: went out
SMOTHERED = "smothered"  # 闷
FAILED_BURN = "failed_burn"  # 诈烧 / 烧失败
REVOLTED = "revolted"  # 革命


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why.  The deal is left unchanged."""


def opposite(seat: int) -> int:
    """对头: the seat across the table, always an opponent."""
    return (seat + 3) % SEATS


def team(seat: int) -> int:
    """Team 0 is seats 0, 2, 4; team 1 is seats 1, 3, 5."""
    return seat % 2


def _only_threes(hand: Sequence[int]) -> bool:
    return hand[C.THREE] > 0 and sum(hand) == hand[C.THREE]


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
        self._queue: list[int] = []
        self._rng: random.Random | None = None
        self.tribute: list[Payment] = []
        self.tribute_paid: list[dict[str, Any]] = []
        self._returns: list[tuple[int, int, int]] = []  # (receiver, payer, cards) of 还贡 still to choose
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
        self.places: list[int] | None = None
        self.sweep: int | None = None
        # round state
        self.ffa = False
        self.top: Play | None = None
        self.top_seat = -1
        self._passed = 0  # seats that passed in this round (bits)
        self._passed_top = 0  # seats that passed on the current top play (bits)
        self._burn_queue: list[int] = []
        self._yielder = -1
        self._yield_left: list[int] = []
        self._after_yield = False
        self._protected = False
        self._pending_open = -1
        self.burner = -1
        self._burn: dict[str, Any] | None = None
        self.to_act: int | None = None
        self._last_actor = leader
        self._legal: LegalActions | None = None
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
    ) -> Deal:
        """A deal from six given hands (texts or count vectors); seat ``leader`` leads first.

        By default it goes straight into play: no buying, revolution, 宣点 or tribute.  With ``setup``
        the before-play phases run as in :meth:`new` (with ``tribute`` owed); should two revolutions void
        the deal, it is dealt again from ``seed``.
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
        elif tribute:
            raise ValueError("tribute is paid in the setup phases: pass setup=True with it")
        deal.events.append(event)
        if setup:
            deal._rng = random.Random(seed)
            deal._deck = tuple(sum(h[r] for h in counts) for r in range(C.NUM_RANKS))
            deal._setup()
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
    ) -> Deal:
        """Shuffle and deal from ``seed``, then run every before-play phase the rules ask for: the
        ``tribute`` owed from the deal before (进贡, with 还贡 decisions), buying 3s and 4s, revolution (two
        revolutions void the deal and it is dealt again, tribute paid again), 要头/无头 and 宣点.

        ``leader`` is the first leader (上班); ``None`` draws a seat from the seed, as for the first deal
        of a match.  The same rules, seed and leader always give the same deal.
        """
        rs = resolve(rules)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        rng = random.Random(seed)
        first = rng.randrange(SEATS) if leader is None else check_seat(leader, "leader")
        deck = C.build_deck(rs.decks, rs.removed_counts)
        hands = C.deal_hands(deck, SEATS, first, rng)
        deal = cls(rs, hands, first)
        deal._rng = rng
        deal._deck = deck
        deal.tribute = _payments(tribute)
        deal.events.append(
            {
                "type": "deal",
                "mode": "seed",
                "rules": rs.to_dict(),
                "seed": seed,
                "leader": leader,
                "first_leader": first,
                "hands": [C.format_counts(h) for h in hands],
                "tribute": [p.to_dict() for p in deal.tribute],
            }
        )
        deal._setup()
        return deal

    _deck: C.Counts = C.EMPTY

    @classmethod
    def from_deal_event(cls, first: Mapping[str, Any]) -> Deal:
        """The deal as its first event (``events[0]``, type "deal") starts it, before any decision."""
        if first.get("type") != "deal":
            raise ValueError("a deal's events start with its 'deal' event")
        rules = RuleSet.from_dict(first["rules"])
        tribute = first.get("tribute", ())
        if first.get("mode") == "seed":
            return cls.new(rules, seed=first["seed"], leader=first.get("leader"), tribute=tribute)
        return cls.from_hands(
            first["hands"],
            rules,
            leader=first["leader"],
            setup=first.get("setup", False),
            seed=first.get("seed"),
            tribute=tribute,
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
        }

    def headless(self, seat: int) -> bool:
        """无头: the seat's opposite is no longer in play (and no 要头 protection is left)."""
        seat = check_seat(seat)
        return not self.in_play[(seat + 3) % SEATS] and self.yaotou_left[seat] <= 0

    def legal_actions(self) -> LegalActions:
        """The actions open to :attr:`to_act` (empty once the deal is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    @property
    def burn_offered(self) -> bool:
        """Whether the seat to act is being offered the burn (烧牌) of a gouji play."""
        return bool(self._burn_queue)

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
        if self.phase == PLAY and self._burn_queue:
            return list(self._burn_queue)
        if self.phase in (SETUP_REVOLUTION, SETUP_BUY_FOUR):
            return list(self._queue)
        return [s]

    def legal_actions_of(self, seat: int) -> LegalActions:
        """The actions seat ``seat`` of :meth:`window` will have when it is asked; ``ValueError`` for a seat
        the current event does not ask."""
        if seat == self.to_act:
            return self.legal_actions()
        if seat not in self.window():
            raise ValueError(f"seat {seat} is not asked about the current event")
        to_act = self.to_act
        self.to_act = seat  # every seat of a window has the same kind of decision: compute it as if asked
        try:
            return self._compute_legal()
        finally:
            self.to_act = to_act

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
            self._act_setup(s, a)

    # ------------------------------------------------------------------ setup phases

    def _setup(self) -> None:
        if self.tribute:
            self._pay_tribute()
            if self._returns:
                self.phase = SETUP_TRIBUTE_RETURN
                self._queue = [receiver for receiver, _, _ in self._returns]
                self._next_setup()
                return
        self._buying()

    def _pay_tribute(self) -> None:
        """进贡: each payment in order, the payer's highest joker or 2 one card at a time; never a card
        received in this phase (吃了不吐); 抗贡 where the rules have it."""
        hands = self.hands
        received = [[0] * C.NUM_RANKS for _ in range(SEATS)]
        exempt: set[int] = set()
        if self.rules.kanggong:
            for s in range(SEATS):
                if hands[s][C.BIG] >= 4:
                    exempt |= {s, (s + 2) % SEATS, (s + 4) % SEATS}
                if hands[s][C.SMALL] >= 4:
                    exempt.add(s)
        for p in self.tribute:
            paid: list[str] = []
            if p.payer not in exempt:
                for _ in range(p.cards):
                    hand, got = hands[p.payer], received[p.payer]
                    card = next((r for r in (C.BIG, C.SMALL, C.TWO) if hand[r] > got[r]), None)
                    if card is None:
                        break
                    hand[card] -= 1
                    hands[p.receiver][card] += 1
                    received[p.receiver][card] += 1
                    paid.append(C.RANKS[card])
            rec = {
                "type": "tribute",
                "kind": p.kind,
                "from": p.payer,
                "to": p.receiver,
                "owed": p.cards,
                "cards": "".join(paid),
                "exempt": p.payer in exempt,
            }
            self.tribute_paid.append(rec)
            self.events.append(rec)
            if p.returned and paid and not self.rules.no_return:
                self._returns.append((p.receiver, p.payer, len(paid)))

    def _buying(self) -> None:
        r = self.rules
        order = [(self.first_leader + i) % SEATS for i in range(SEATS)]
        if r.bie_san:
            for s in order:
                if self.hands[s][C.THREE] == 0:
                    self._buy(s, C.THREE)
        if r.buy_four:
            lacking = [s for s in order if self.in_play[s] and self.hands[s][C.FOUR] == 0]
            if r.buy_four_optional:
                # every seat is asked, so the order of turns does not tell who holds no 4
                self._queue = [s for s in order if self.in_play[s]]
                self.phase = SETUP_BUY_FOUR
            else:
                for s in lacking:
                    self._buy(s, C.FOUR)
        if self._void_if_needed():
            return
        if self.phase == PLAY:
            self._after_buying()
        else:
            self._next_setup()

    def _after_buying(self) -> None:
        if self.rules.revolution:
            self.phase = SETUP_REVOLUTION
            self._queue = [
                (self.first_leader + i) % SEATS for i in range(SEATS) if self.in_play[(self.first_leader + i) % SEATS]
            ]
        else:
            self._after_revolution()
            return
        self._next_setup()

    def _after_revolution(self) -> None:
        self._queue = [opposite(s) for s in self.revolted if self.in_play[opposite(s)]]
        if self._queue:
            self.phase = SETUP_YAOTOU
            self._next_setup()
            return
        self._after_yaotou()

    def _after_yaotou(self) -> None:
        if self.rules.xuandian:
            self.phase = SETUP_XUANDIAN
            skip = set(self.revolted) | {opposite(s) for s in self.revolted}
            self._queue = [
                (self.first_leader + i) % SEATS for i in range(SEATS) if (self.first_leader + i) % SEATS not in skip
            ]
            self._next_setup()
            return
        self._start_play()

    def _next_setup(self) -> None:
        """Hand the turn to the next seat of the current setup phase, or move to the next phase."""
        self._legal = None
        if self._queue:
            self.to_act = self._queue[0]
            return
        phase = self.phase
        if phase == SETUP_TRIBUTE_RETURN:
            self.phase = PLAY
            self._buying()
        elif phase == SETUP_BUY_FOUR:
            self.phase = PLAY
            self._after_buying()
        elif phase == SETUP_REVOLUTION:
            self._after_revolution()
        elif phase == SETUP_YAOTOU:
            self._after_yaotou()
        else:
            self._start_play()

    def _act_setup(self, s: int, a: Action) -> None:
        self._queue.pop(0)
        if isinstance(a, Return):
            _, payer, _ = self._returns.pop(0)
            for r, n in enumerate(a.counts):
                self.hands[s][r] -= n
                self.hands[payer][r] += n
            self.events.append({"type": "tribute_return", "from": s, "to": payer, "cards": C.format_counts(a.counts)})
        elif a is BUY_FOUR:
            self._buy(s, C.FOUR)
        elif a is REVOLT:
            self._revolt(s)
            if self._void_if_needed():
                return
        elif a is YAOTOU or a is WUTOU:
            self.yaotou_choice[s] = str(a)
            self.yaotou_left[s] = self.rules.yaotou_limit if a is YAOTOU else 0
        elif a is DECLARE:
            self.declared[s] = True
        self._next_setup()

    def _revolt(self, s: int) -> None:
        self.revolted.append(s)
        self.status[s] = REVOLTED
        self.in_play[s] = False
        self.revealed[s] = self.hand(s)
        self.events.append({"type": "revolution", "seat": s, "hand": self.hand(s)})

    def _void_if_needed(self) -> bool:
        """Two or more revolutions void the deal (流局): deal again from the same generator."""
        if len(self.revolted) < 2:
            return False
        rng = self._rng
        assert rng is not None, "revolutions only happen in deals with setup phases"
        hands = C.deal_hands(self._deck, SEATS, self.first_leader, rng)
        self.events.append(
            {"type": "void", "revolted": list(self.revolted), "hands": [C.format_counts(h) for h in hands]}
        )
        keep_events = self.events
        keep_decisions = self.decisions
        tribute = self.tribute
        self.__init__(self.rules, hands, self.first_leader)  # type: ignore[misc]
        self.tribute = tribute
        self._rng = rng
        self.events = keep_events
        self.decisions = keep_decisions
        self._setup()
        return True

    def _buy(self, s: int, rank: int) -> None:
        """买三 / 买四: get one card of ``rank`` for seat ``s``, paying a 2 (else X, else D) to an opponent."""
        hands = self.hands
        hand = hands[s]
        money = next((m for m in (C.TWO, C.SMALL, C.BIG) if hand[m]), None)
        opp = opposite(s)
        sellers = [opp, (opp + 2) % SEATS, (opp + 4) % SEATS]
        givers = [(s + 2) % SEATS, (s + 4) % SEATS]

        def spare(seat: int) -> bool:
            return self.in_play[seat] and hands[seat][rank] >= 2

        seller = next((x for x in sellers if spare(x)), None) if money is not None else None
        if seller is not None:
            assert money is not None
            hand[money] -= 1
            hands[seller][money] += 1
            self._transfer(seller, s, rank, paid=money, kind="buy")
            return
        giver = next((x for x in givers if spare(x)), None)
        if giver is not None:
            self._transfer(giver, s, rank, paid=None, kind="give")
            return
        if rank == C.THREE and self.rules.no_three == "revolt" and self.rules.revolution:
            self._revolt(s)
            return
        if self.rules.no_three == "free" or rank == C.THREE:
            seller = next((x for x in sellers + givers if spare(x)), None)
            if seller is not None:
                self._transfer(seller, s, rank, paid=None, kind="free")
                return
        self.events.append({"type": "buy", "seat": s, "rank": C.RANKS[rank], "from": None, "paid": None})

    def _transfer(self, frm: int, to: int, rank: int, paid: int | None, kind: str) -> None:
        self.hands[frm][rank] -= 1
        self.hands[to][rank] += 1
        rec = {
            "type": "buy",
            "kind": kind,
            "seat": to,
            "rank": C.RANKS[rank],
            "from": frm,
            "paid": C.RANKS[paid] if paid is not None else None,
        }
        self.buys.append(rec)
        self.events.append(rec)

    # ------------------------------------------------------------------ rounds

    def _start_play(self) -> None:
        self.phase = PLAY
        self._queue = []
        self._check_ffa()
        if self._check_over():
            return
        lead = self.first_leader
        while not self.in_play[lead]:
            lead = (lead + 1) % SEATS
        self.events.append({"type": "play", "leader": lead})
        self._new_round(lead)

    def _new_round(self, leader: int) -> None:
        self.top = None
        self.top_seat = -1
        self._passed = 0
        self._passed_top = 0
        self._burn_queue = []
        self._yielder = -1
        self._yield_left = []
        self._after_yield = False
        self._protected = False
        self.to_act = leader
        self._legal = None

    def _act_play(self, s: int, a: Action) -> None:
        if a is PASS:
            if self._burn_queue:
                self._burn_queue.pop(0)
                self._after_burn_offer()
            else:
                self._pass(s)
        elif a is YIELD:
            self._yield(s)
        elif isinstance(a, Burn):
            self._burn_queue = []
            self._play(s, a.play, burn=True)
        else:
            assert isinstance(a, Play)
            self._play(s, a, burn=False)

    def _pass(self, s: int) -> None:
        bit = 1 << s
        self._passed |= bit
        self._passed_top |= bit
        if s in self._yield_left:
            self._yield_left.remove(s)
            if not self._yield_left:
                self.to_act = self._yielder  # the yielder now plays or passes
                return
            self.to_act = self._yield_left[0]
            return
        if s == self._yielder:
            self._yielder = -1
        self._advance((s + 1) % SEATS)

    def _yield(self, s: int) -> None:
        self._yielder = s
        self._yield_left = [c for c in ((s + 1) % SEATS, (s + 2) % SEATS) if self._may_respond_plain(c)]
        self.events.append({"type": "yield", "seat": s})
        self.to_act = self._yield_left[0]

    def _may_respond_plain(self, c: int) -> bool:
        return self.in_play[c] and c != self.top_seat and not (self._passed >> c) & 1

    def _play(self, s: int, play: Play, burn: bool) -> None:
        rules = self.rules
        hand = self.hands[s]
        played = self._played
        for r, n in enumerate(play.counts):
            if n:
                hand[r] -= n
                played[r] += n
        empty = not any(hand)
        prev, prev_seat = self.top, self.top_seat
        leading = prev is None

        # the burn in progress, if any
        failed = False
        burn_rec = self._burn
        if burn_rec is not None:
            if s == self.burner:
                if empty:
                    self._end_burn("success")
                elif not play.has_joker:
                    self._end_burn("failed")
                    failed = True
            elif prev_seat == self.burner:
                self._end_burn("countered" if burn else "broken")
        if burn:
            level = burn_rec["level"] + 1 if burn_rec is not None and burn_rec["burner"] == prev_seat else 1
            self.burner = s
            self._burn = {"burner": s, "burned": prev_seat, "level": level, "play": str(play), "result": None}
            self.events.append({"type": "burn", "seat": s, "burned": prev_seat, "level": level})
            if empty:
                self._end_burn("success")

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
        if prev is not None and rules.bie_san and self.in_play[prev_seat] and _only_threes(self.hands[prev_seat]):
            self.smothered.append((prev_seat, s))
            self.status[prev_seat] = SMOTHERED
            self.in_play[prev_seat] = False
            self.events.append({"type": "smothered", "seat": prev_seat, "by": s})

        # the new top play
        if s in self._yield_left:  # a seat let in by a yield plays: the yielder counts as having passed
            self._passed |= 1 << self._yielder
        self._after_yield = s == self._yielder
        self._yielder = -1
        self._yield_left = []
        self.top, self.top_seat = play, s
        self._passed_top = 0
        self._protected = False
        if play.gouji and self.yaotou_left[s] > 0 and not self.in_play[opposite(s)]:
            self._protected = True
            self.yaotou_left[s] -= 1

        if empty:
            self.status[s] = OUT
            self.in_play[s] = False
            self.out_order.append(s)
            self.events.append({"type": "out", "seat": s, "order": len(self.out_order)})
        elif failed:
            self.status[s] = FAILED_BURN
            self.in_play[s] = False
            self.failed_burns.append(s)
        self._check_ffa()
        if self._check_over():
            return
        if play.gouji and not self.ffa:
            self._burn_queue = self._burn_offers(s, play, empty)
            if self._burn_queue:
                self.to_act = self._burn_queue[0]
                return
        self._advance((s + 1) % SEATS)

    def _end_burn(self, result: str) -> None:
        rec = self._burn
        assert rec is not None
        rec["result"] = result
        self.burns.append(rec)
        self.events.append({"type": "burn_" + result, "seat": rec["burner"], "burned": rec["burned"]})
        self._burn = None
        self.burner = -1

    def _burn_offers(self, s: int, play: Play, final: bool) -> list[int]:
        """The seats that may burn ``play`` of seat ``s``, in priority order: the player's own team first
        (联邦烧牌优先), then the others, each in turn order from the player."""
        rules = self.rules
        if final or (self.headless(s) and not self._protected):
            return []
        if rules.burn_before_first_out and self.out_order:
            return []
        out = []
        opp = opposite(s)
        for c in ((s + 2) % SEATS, (s + 4) % SEATS, (s + 1) % SEATS, (s + 5) % SEATS):
            if c == opp or not self.in_play[c] or (self._passed >> c) & 1 or self.headless(c):
                continue
            if rules.burn_needs_kaidian and not (
                self.opened[c] or (rules.burn_after_four_forfeit and self.forfeited[c])
            ):
                continue
            out.append(c)
        return out

    def _after_burn_offer(self) -> None:
        if self._burn_queue:
            self.to_act = self._burn_queue[0]
        else:
            self._advance((self.top_seat + 1) % SEATS)

    def _advance(self, start: int) -> None:
        """Give the turn to the next seat in order that may respond, or end the round."""
        c = self._next_responder(start)
        self._legal = None
        if c >= 0:
            self.to_act = c
        else:
            self._end_round()

    def _next_responder(self, start: int) -> int:
        top_seat = self.top_seat
        top = self.top
        assert top is not None
        in_play = self.in_play
        if self.ffa:
            pt = self._passed_top
            for i in range(SEATS):
                c = (start + i) % SEATS
                if c != top_seat and in_play[c] and not (pt >> c) & 1:
                    return c
            return -1
        if top.gouji and (self._protected or not self.headless(top_seat)):
            if self._protected:
                return -1
            opp = opposite(top_seat)
            for i in range(SEATS):
                c = (start + i) % SEATS
                if c == top_seat or not in_play[c]:
                    continue
                if c == opp:
                    if not (self._passed_top >> c) & 1:
                        return c
                elif self.headless(c) and not (self._passed >> c) & 1:
                    return c
            return -1
        if self._after_yield:
            opp = opposite(top_seat)
            return opp if in_play[opp] and not (self._passed_top >> opp) & 1 else -1
        p = self._passed
        for i in range(SEATS):
            c = (start + i) % SEATS
            if c != top_seat and in_play[c] and not (p >> c) & 1:
                return c
        return -1

    def _end_round(self) -> None:
        top, seat = self.top, self.top_seat
        assert top is not None
        leader = seat
        while not self.in_play[leader]:
            leader = (leader + 1) % SEATS
        if (
            leader == seat
            and top.opens_point(self.rules.kaidian_allows_money)
            and self._can_open(seat, self._protected)
        ):
            if self.rules.kaidian_needs_four:
                self._pending_open = seat
            else:
                self._open(seat)
        self.events.append({"type": "round", "leader": leader})
        self._new_round(leader)

    def _can_open(self, s: int, protected: bool) -> bool:
        """Whether seat ``s`` may open the point now (a 要头-protected play counts as having a head)."""
        return (
            not self.opened[s]
            and not self.ffa
            and len(self.out_order) < self.rules.kaidian_until_out
            and (protected or not self.headless(s))
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
        self._passed = 0
        self._burn_queue = []
        self._pending_open = -1
        self._yielder = -1
        self._yield_left = []
        if self._burn is not None:
            self._end_burn("ended")
        self.events.append({"type": "free_for_all"})

    def _check_over(self) -> bool:
        teams = {s % 2 for s in range(SEATS) if self.in_play[s]}
        if len(teams) > 1:
            return False
        if self._burn is not None:
            self._end_burn("ended")
        self._finish()
        return True

    def _finish(self) -> None:
        slots: list[int | None] = [None] * SEATS
        bottom = SEATS - 1
        for s in self.failed_burns + [seat for seat, _ in self.smothered]:
            while slots[bottom] is not None:
                bottom -= 1
            slots[bottom] = s
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
            if phase == SETUP_REVOLUTION:
                h = self.hands[s]
                can = not (h[C.TWO] or h[C.SMALL] or h[C.BIG])
                return LegalActions([REVOLT, PASS] if can else [PASS])
            if phase == SETUP_YAOTOU:
                return LegalActions([YAOTOU, WUTOU])
            if phase == SETUP_XUANDIAN:
                return LegalActions([DECLARE, PASS])
            if phase == SETUP_TRIBUTE_RETURN:
                n = self._returns[0][2]
                return LegalActions([Return(c) for c in _multisets(self.hands[s], n)])
            return LegalActions([PASS] if self.hands[s][C.FOUR] else [BUY_FOUR, PASS])
        hand = self.hands[s]
        top = self.top
        if top is None:
            if self.rules.bie_san and hand[C.THREE]:
                if _only_threes(hand):
                    return LegalActions([Play.of(C.THREE, hand[C.THREE])])
                return LegalActions.leads(hand, allow_threes=False)
            return LegalActions.leads(hand, allow_threes=True)
        kill = self.rules.big_joker_kill
        if self._burn_queue:
            acts: list[Action] = [Burn(p) for p in responses(hand, top, kill)]
            acts.append(PASS)
            return LegalActions(acts)
        acts = list(responses(hand, top, kill))
        acts.append(PASS)
        if self._can_yield(s):
            acts.append(YIELD)
        return LegalActions(acts)

    def _can_yield(self, s: int) -> bool:
        top = self.top
        if self.ffa or top is None or top.gouji or self._after_yield or self._yielder >= 0:
            return False
        if self.top_seat != opposite(s):
            return False
        return self._may_respond_plain((s + 1) % SEATS) or self._may_respond_plain((s + 2) % SEATS)

    def _explain(self, s: int, a: Action) -> str:
        """Why ``a`` is not legal for seat ``s`` now: a message a player can act on."""
        phase = self.phase
        legal = self.legal_actions()
        if phase != PLAY:
            options = ", ".join(str(x) for x in legal)
            what = {
                SETUP_BUY_FOUR: "buying a 4 (买四)",
                SETUP_REVOLUTION: "revolution (革命)",
                SETUP_YAOTOU: "要头 or 无头",
                SETUP_XUANDIAN: "宣点",
                SETUP_TRIBUTE_RETURN: "还贡 (which cards to give back)",
            }[phase]
            extra = ""
            if a is BUY_FOUR:
                extra = f": seat {s} holds a 4, so it has none to buy"
            if phase == SETUP_TRIBUTE_RETURN:
                n = self._returns[0][2]
                return f"seat {s} gives back {n} card{'s' * (n > 1)} of its own (还贡): answer 'return <cards>'"
            if a is REVOLT:
                extra = f": seat {s} holds a 2 or a joker, so it cannot revolt"
            return f"seat {s} is deciding {what}{extra}; the choices are {options}"
        top = self.top
        if self._burn_queue:
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
        if top is None:
            return f"{p} is not a lead seat {s} can make"  # pragma: no cover - every held shape is a lead
        if not beats(p, top, self.rules.big_joker_kill):
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
        # The loop inlines count_visible and headless (the server builds views on every change).
        place_of = {s: i for i, s in enumerate(self.places)} if self.places else {}
        status, hands, in_play, yaotou_left = self.status, self.hands, self.in_play, self.yaotou_left
        opened, forfeited, declared = self.opened, self.forfeited, self.declared
        yaotou_choice, revealed, burner = self.yaotou_choice, self.revealed, self.burner
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
                    "headless": not in_play[(s + 3) % SEATS] and yaotou_left[s] <= 0 and playing,
                    "yaotou": yaotou_choice.get(s),
                    "yaotou_left": yaotou_left[s],
                    "burning": burner == s,
                    "place": place_of.get(s),
                    "revealed": revealed.get(s),
                }
            )
        v: dict[str, Any] = {
            "seat": seat,
            "rules": self.rules.name,
            "phase": self.phase,
            "to_act": self.to_act,
            "first_leader": self.first_leader,
            "players": players,
            "top": str(self.top) if self.top is not None else None,
            "top_seat": self.top_seat if self.top is not None else None,
            "top_gouji": bool(self.top is not None and self.top.gouji),
            "passed": [s for s in range(SEATS) if (self._passed | self._passed_top) >> s & 1],
            "burn_offer": bool(self._burn_queue),
            "yielder": self._yielder if self._yielder >= 0 else None,
            "after_yield": self._after_yield,
            "free_for_all": self.ffa,
            "out_order": list(self.out_order),
            "places": list(self.places) if self.places else None,
            "sweep": self.sweep,
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
        return kind not in ("deal", "void", "tribute_return") and not (
            kind == "act" and e["action"].startswith("return ")
        )

    @staticmethod
    def public_event(e: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """One event of the log as seat ``seat`` (None: the public) may see it: the deal event with only
        that seat's hand, a 还贡 with its cards only for the two players concerned; the rest as it is."""
        kind = e["type"]
        if kind == "act" and e["action"].startswith("return ") and seat != e["seat"]:
            return {"type": "act", "seat": e["seat"], "action": "return", "cards": len(e["action"]) - 7}
        if kind == "tribute_return" and seat not in (e["from"], e["to"]):
            return {"type": kind, "from": e["from"], "to": e["to"], "cards": len(e["cards"])}
        if kind in ("deal", "void"):
            hands = e["hands"]
            out: dict[str, Any] = {"type": kind, "sizes": [len(h) for h in hands]}
            if kind == "deal":
                out["first_leader"] = e.get("first_leader", e.get("leader"))
            else:
                out["revolted"] = e["revolted"]
            if seat is not None:
                out["hand"] = hands[seat]
            return out
        return dict(e)


def _payments(tribute: Sequence[Payment | Mapping[str, Any]]) -> list[Payment]:
    return [p if isinstance(p, Payment) else Payment.from_dict(p) for p in tribute]


def _multisets(hand: Sequence[int], n: int, start: int = 0) -> list[tuple[int, ...]]:
    """Every way to choose ``n`` cards from ``hand`` (as count vectors), lowest ranks first."""
    out: list[tuple[int, ...]] = []

    def rec(r: int, left: int, acc: list[int]) -> None:
        if left == 0:
            out.append(tuple(acc))
            return
        if r == C.NUM_RANKS:
            return
        for k in range(min(hand[r], left), -1, -1):
            acc[r] = k
            rec(r + 1, left - k, acc)
        acc[r] = 0

    rec(start, n, [0] * C.NUM_RANKS)
    out.sort(key=lambda c: [-x for x in c])
    return out
