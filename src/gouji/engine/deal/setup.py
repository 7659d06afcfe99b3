"""The before-play phases of a deal (rule book §5.1), in the order they are played:

1. tribute (进贡, §12) owed from the deal before — first 换点 asked of both seats of each pair that may swap
   (``mutual_point_tribute="agree"``, §16.2) —, paid from the new hands, then 还贡 decisions and 退贡
   (a teammate handing 落贡 back, §16.2);
2. 汇5 (§16.2): after a sweep, the losers may discard their 5s;
3. buying 3s and 4s (买三 / 买四, §9, in the order ``buy_order`` gives);
4. revolution (革命, §10) — two or more void the deal (流局): it is dealt again and every phase starts over;
5. 要头 / 无头 for a revolutionary's 对头 (§10);
6. 冲点 (§16.3) — two asks void the deal too;
7. 宣点 (§8.2);
8. 无级自开 (§16.3).

The first leader may come from the dealing itself (亮3, ``first_leader="liang_san"``): :func:`deal_liang_san`.

:class:`Setup` runs the automatic steps and asks the seats in turn; :class:`gouji.Deal` hands it every
action taken before play.  Who is asked depends on public facts only (rule book §5.1: every seat is asked
about revolution, and about an optional 4), so the order of turns never tells the table about a hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

from .. import cards as C
from ..actions import (
    BUY_FOUR,
    CHONGDIAN,
    DECLARE,
    GIVEBACK,
    HUIWU,
    PASS,
    REVOLT,
    SELFOPEN,
    SWAP,
    WUTOU,
    YAOTOU,
    Action,
    LegalActions,
    Return,
)
from ..plays import Play
from ..rules import RuleSet
from ..seats import NO_THREE, REVOLTED, SEATS, opposite
from ..tribute import Payment

# Phases
SWAP_PHASE = "swap"
TRIBUTE_RETURN = "tribute_return"
GIVEBACK_PHASE = "giveback"
HUIWU_PHASE = "huiwu"
BUY_FOUR_PHASE = "buy_four"
REVOLUTION = "revolution"
YAOTOU_PHASE = "yaotou"
CHONGDIAN_PHASE = "chongdian"
XUANDIAN = "xuandian"
SELFOPEN_PHASE = "selfopen"
PHASES = (
    SWAP_PHASE,
    TRIBUTE_RETURN,
    GIVEBACK_PHASE,
    HUIWU_PHASE,
    BUY_FOUR_PHASE,
    REVOLUTION,
    YAOTOU_PHASE,
    CHONGDIAN_PHASE,
    XUANDIAN,
    SELFOPEN_PHASE,
)
"""Every setup phase, in the order they come."""

FIVE = C.RANK_INDEX["5"]

MAX_VOIDS = 200
"""Void deals in a row, dealt again without anyone deciding, before the deck is judged unplayable."""

START_PLAY: Final = -1
"""What :meth:`Setup.advance` returns when every phase is done: play starts."""
VOID: Final = -2
"""What :meth:`Setup.advance` returns when the deal is void (two revolutions, two 冲点): deal it again."""


class SetupTable(Protocol):
    """What the before-play phases read and change of the deal they run in (:class:`gouji.engine.deal.Deal`
    is one): its public facts and hands, its log, and three steps the deal takes itself."""

    rules: RuleSet
    first_leader: int
    phase: str
    hands: list[list[int]]
    events: list[dict[str, Any]]
    status: list[str]
    in_play: list[bool]
    tribute: list[Payment]
    tribute_paid: list[dict[str, Any]]
    huiwu: list[int]
    revolted: list[int]
    revealed: dict[int, str]
    no_three: list[int]
    buys: list[dict[str, Any]]
    declared: list[bool]
    yaotou_choice: dict[int, str]
    yaotou_left: list[int]

    def hand(self, seat: int) -> str: ...

    def discard(self, seat: int, rank: int) -> int: ...

    def self_open(self, s: int) -> None: ...

    def begin_chongdian(self, s: int) -> None: ...


_WHAT = {
    SWAP_PHASE: "换点 (swapping one card each way with the 对头)",
    BUY_FOUR_PHASE: "buying a 4 (买四)",
    REVOLUTION: "revolution (革命)",
    YAOTOU_PHASE: "要头 or 无头",
    XUANDIAN: "宣点",
    TRIBUTE_RETURN: "还贡 (which cards to give back)",
    GIVEBACK_PHASE: "退贡 (handing a teammate's 落贡 back)",
    HUIWU_PHASE: "汇5 (discarding your 5s)",
    CHONGDIAN_PHASE: "冲点",
    SELFOPEN_PHASE: "无级自开",
}


def _no_two_or_joker(h: Sequence[int]) -> bool:
    return not (h[C.TWO] or h[C.SMALL] or h[C.BIG])


_TWO_OR_JOKER = "holds a 2 or a joker, so it cannot {a}"

SETUP_RULES: dict[str, tuple[Action, Callable[[Sequence[int]], bool], str]] = {
    REVOLUTION: (REVOLT, _no_two_or_joker, _TWO_OR_JOKER),
    CHONGDIAN_PHASE: (CHONGDIAN, _no_two_or_joker, _TWO_OR_JOKER),
    HUIWU_PHASE: (HUIWU, lambda h: h[FIVE] > 0, "holds no 5 to discard"),
    SELFOPEN_PHASE: (
        SELFOPEN,
        lambda h: can_self_open(h),
        "holds a gouji play or no 4, so it cannot open without one (无级自开)",
    ),
    BUY_FOUR_PHASE: (BUY_FOUR, lambda h: not h[C.FOUR], "holds a 4, so it has none to buy"),
}
"""The setup phases whose one action besides ``pass`` depends on the seat's hand: the action, whether a hand
may take it, and why not (``{a}``: the action).  :meth:`Setup.legal` lists the action when the hand may,
:meth:`Setup.explain` words the refusal from the same entry — each rule is stated once."""


class Setup:
    """The before-play phases of one deal: the step reached, the seats still to ask, the 还贡 owed."""

    __slots__ = ("chongdian", "deal", "givebacks", "queue", "returns", "step", "steps", "swaps", "voids")

    def __init__(self, deal: SetupTable) -> None:
        self.deal = deal
        self.step = 0
        """Index of the next automatic step in :attr:`steps`."""
        self.queue: list[int] = []
        """Seats still to decide in the current phase, in order."""
        self.returns: list[tuple[int, int, int]] = []
        """(receiver, payer, cards) of 还贡 still to choose."""
        self.givebacks: list[tuple[int, int, str]] = []
        """(receiver, payer, cards) of 落贡 paid to a teammate, still to keep or hand back."""
        self.chongdian: list[int] = []
        """The seats that asked to 冲点 in this deal."""
        self.swaps: set[int] = set()
        """The seats that agreed to 换点 in this deal."""
        self.voids = 0
        self.steps: tuple[Callable[[], None], ...] = (
            self._swap,
            self._tribute,
            self._giveback,
            self._huiwu,
            self._buying,
            self._revolution,
            self._yaotou,
            self._chongdian,
            self._xuandian,
            self._selfopen,
        )
        """The automatic steps, in order; each may ask seats to decide."""

    # ------------------------------------------------------------------ running

    def advance(self) -> int:
        """Run automatic steps until a seat must decide (returns it), play starts (:data:`START_PLAY`) or the
        deal is void (:data:`VOID`: two revolutions or two 冲点; the deal is dealt again and :meth:`restart`)."""
        d = self.deal
        steps = self.steps
        while True:
            if len(d.revolted) >= 2 or len(self.chongdian) >= 2:
                return VOID
            if self.queue:
                break
            if self.step >= len(steps):
                return START_PLAY
            self.step += 1
            steps[self.step - 1]()
        self.voids = 0
        return self.queue[0]

    def act(self, s: int, a: Action) -> None:
        """Seat ``s`` takes the legal setup action ``a``; the deal then calls :meth:`advance`."""
        d = self.deal
        self.queue.pop(0)
        if d.phase == SWAP_PHASE:
            d.events.append({"type": "point_swap", "seat": s, "agree": a is SWAP})
        if a is PASS:  # most setup decisions decline
            if d.phase == GIVEBACK_PHASE:
                self.givebacks.pop(0)
        elif isinstance(a, Return):
            _, payer, _ = self.returns.pop(0)
            for r, n in enumerate(a.counts):
                d.hands[s][r] -= n
                d.hands[payer][r] += n
            d.events.append({"type": "tribute_return", "from": s, "to": payer, "cards": C.format_counts(a.counts)})
        elif a is BUY_FOUR:
            self._buy(s, C.FOUR)
        elif a is REVOLT:
            self._revolt(s)
        elif a is YAOTOU or a is WUTOU:
            d.yaotou_choice[s] = str(a)
            d.yaotou_left[s] = d.rules.yaotou_limit if a is YAOTOU else 0
        elif a is DECLARE:
            d.declared[s] = True
        elif a is GIVEBACK:
            _, payer, cards = self.givebacks.pop(0)
            counts = C.parse_counts(cards)
            for r, n in enumerate(counts):
                d.hands[s][r] -= n
                d.hands[payer][r] += n
            d.events.append({"type": "tribute_giveback", "from": s, "to": payer, "cards": cards})
        elif a is SWAP:
            self.swaps.add(s)
        elif a is HUIWU:
            n = d.discard(s, FIVE)
            d.events.append({"type": "huiwu", "seat": s, "cards": "5" * n})
        elif a is CHONGDIAN:
            self.chongdian.append(s)
            d.events.append({"type": "chongdian", "seat": s})
        elif a is SELFOPEN:
            d.self_open(s)

    def _ask(self, phase: str, seats: Sequence[int]) -> None:
        self.deal.phase = phase
        self.queue = list(seats)

    def _in_order(self, keep: Callable[[int], bool]) -> list[int]:
        """The seats ``keep`` accepts, in turn order from the first leader."""
        first = self.deal.first_leader
        return [(first + i) % SEATS for i in range(SEATS) if keep((first + i) % SEATS)]

    # ------------------------------------------------------------------ the steps

    def _swap(self) -> None:
        """换点 (000: 可以商议都进或都不进): both seats of each pair owed a one-for-one 点贡 that needs their
        agreement are asked, in turn order from the first leader; it is paid only if both agree."""
        swapping = {p.payer for p in self.deal.tribute if p.swap}
        if swapping:
            self._ask(SWAP_PHASE, self._in_order(lambda s: s in swapping))

    def _tribute(self) -> None:
        """进贡: each payment in order, the payer's highest joker or 2 (or highest card, ``tribute_cards``)
        one card at a time; never a card
        received in this phase (吃了不吐); 抗贡 where the rules have it.  Then 还贡 is asked."""
        d = self.deal
        if not d.tribute:
            return
        hands = d.hands
        received = [[0] * C.NUM_RANKS for _ in range(SEATS)]
        exempt: set[int] = set()
        tribute_ranks = TRIBUTE_RANKS[d.rules.tribute_cards]
        if d.rules.kanggong:
            for s in range(SEATS):
                if hands[s][C.BIG] >= 4:
                    exempt |= {s, (s + 2) % SEATS, (s + 4) % SEATS}
                if hands[s][C.SMALL] >= 4:
                    exempt.add(s)
        for p in d.tribute:
            if p.swap and not {p.payer, p.receiver} <= self.swaps:
                continue  # 换点 declined by one of the pair: neither half is owed
            paid: list[str] = []
            if p.payer not in exempt:
                for _ in range(p.cards):
                    hand, got = hands[p.payer], received[p.payer]
                    card = next((r for r in tribute_ranks if hand[r] > got[r]), None)
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
            d.tribute_paid.append(rec)
            d.events.append(rec)
            if p.returned and paid and not d.rules.no_return:
                self.returns.append((p.receiver, p.payer, len(paid)))
            if p.giveback and paid:
                self.givebacks.append((p.receiver, p.payer, "".join(paid)))
        if self.returns:
            self._ask(TRIBUTE_RETURN, [receiver for receiver, _, _ in self.returns])

    def _giveback(self) -> None:
        """退贡: a teammate who received 落贡 keeps it or hands it back whole (000 山东地区)."""
        if self.givebacks:
            self._ask(GIVEBACK_PHASE, [receiver for receiver, _, _ in self.givebacks])

    def _huiwu(self) -> None:
        """汇5: each seat of the team swept in the deal before may discard its 5s (001 章丘).  Every such
        seat is asked, holding 5s or not, so the turns tell nobody who holds them."""
        d = self.deal
        if d.rules.huiwu and d.huiwu:
            self._ask(HUIWU_PHASE, self._in_order(lambda s: s in d.huiwu))

    def _buying(self) -> None:
        """买三 for every seat without a 3 (with 憋三), then 买四 (asked of every seat where optional)."""
        d = self.deal
        r = d.rules
        if r.bie_san:
            for s in self._in_order(lambda s: True):
                if d.hands[s][C.THREE] == 0:
                    self._buy(s, C.THREE)
        if r.buy_four:
            if r.buy_four_optional:
                # every seat is asked, so the order of turns does not tell who holds no 4
                self._ask(BUY_FOUR_PHASE, self._in_order(lambda s: d.in_play[s]))
            else:
                for s in self._in_order(lambda s: d.in_play[s] and d.hands[s][C.FOUR] == 0):
                    self._buy(s, C.FOUR)

    def _ask_all_in_play(self, phase: str, on: bool) -> None:
        """Where the rule is ``on``, ask every seat in play, in order, whatever its hand (so the turns
        tell nobody who could take the step)."""
        if on:
            d = self.deal
            self._ask(phase, self._in_order(lambda s: d.in_play[s]))

    def _revolution(self) -> None:
        self._ask_all_in_play(REVOLUTION, self.deal.rules.revolution)

    def _yaotou(self) -> None:
        d = self.deal
        self._ask(YAOTOU_PHASE, [opposite(s) for s in d.revolted if d.in_play[opposite(s)]])

    def _chongdian(self) -> None:
        """冲点: every seat in play is asked (only one with no joker and no 2 may ask); two asks void."""
        self._ask_all_in_play(CHONGDIAN_PHASE, self.deal.rules.chongdian)

    def _xuandian(self) -> None:
        d = self.deal
        if self.chongdian:
            d.begin_chongdian(self.chongdian[0])
        if d.rules.xuandian:
            out = d.revolted + d.no_three  # a declaration about an absent player means nothing
            skip = set(out) | {opposite(s) for s in out}
            if self.chongdian:  # the 冲点 settles the pair's point: a declaration about it means nothing
                skip |= {self.chongdian[0], opposite(self.chongdian[0])}
            self._ask(XUANDIAN, self._in_order(lambda s: s not in skip))

    def _selfopen(self) -> None:
        """无级自开: every seat in play is asked; one holding no gouji play and a 4 may show its hand."""
        self._ask_all_in_play(SELFOPEN_PHASE, self.deal.rules.self_open)

    # ------------------------------------------------------------------ helpers

    def _revolt(self, s: int) -> None:
        d = self.deal
        d.revolted.append(s)
        d.status[s] = REVOLTED
        d.in_play[s] = False
        d.revealed[s] = d.hand(s)
        d.events.append({"type": "revolution", "seat": s, "hand": d.hand(s)})

    def count_void(self) -> None:
        """One more void deal in a row; after :data:`MAX_VOIDS` the deck is judged unplayable."""
        self.voids += 1
        if self.voids > MAX_VOIDS:
            raise ValueError(
                f"{MAX_VOIDS} deals in a row were void (two or more revolutions): "
                "this deck and these rules cannot give a playable deal"
            )

    def restart(self) -> None:
        """The deal was dealt again (void): every phase starts over."""
        self.step = 0
        self.queue = []
        self.returns = []
        self.givebacks = []
        self.chongdian = []
        self.swaps = set()

    def _buy(self, s: int, rank: int) -> None:
        """买三 / 买四: get one card of ``rank`` for seat ``s``: bought from an opponent for a 2 (else X,
        else D), or given free by a teammate, in the order of ``buy_order``.  Only a seat holding two or
        more of the rank parts with one."""
        d = self.deal
        hands = d.hands
        hand = hands[s]
        money = next((m for m in (C.TWO, C.SMALL, C.BIG) if hand[m]), None)
        price = money if money is not None or not d.rules.buy_with_highest else highest_card(hand)
        opp = opposite(s)
        sellers = [opp, (opp + 2) % SEATS, (opp + 4) % SEATS]  # the 对头, then 上家 and 下家
        givers = [(s + 2) % SEATS, (s + 4) % SEATS]
        order = d.rules.buy_order
        if order == "opposite_first":
            chain = [(x, True) for x in sellers] + [(x, False) for x in givers]
        elif order == "teammates_second":  # 003 通用: 向对家买 → 联邦送 → 向上家或下家买
            chain = [(opp, True)] + [(x, False) for x in givers] + [(x, True) for x in sellers[1:]]
        else:  # teammates_first, 000 山东地区: 一般同伙送
            chain = [(x, False) for x in givers] + [(x, True) for x in sellers]

        def spare(seat: int) -> bool:
            return d.in_play[seat] and hands[seat][rank] >= 2

        for x, sells in chain:
            if sells and price is None:
                continue
            if spare(x):
                if sells:
                    assert price is not None
                    hand[price] -= 1
                    hands[x][price] += 1
                self._transfer(x, s, rank, paid=price if sells else None, kind="buy" if sells else "give")
                return
        if rank == C.THREE and d.rules.no_three == "last":
            # 000 山东地区: 每人必须有3，否则大拉 — ranked 大落, out of play
            d.no_three.append(s)
            d.status[s] = NO_THREE
            d.in_play[s] = False
            d.events.append({"type": "no_three", "seat": s})
            return
        if rank == C.THREE and money is None and d.rules.no_three == "revolt" and d.rules.revolution:
            # 自动革命 only for a player with no 3, no 2 and no joker (000: 如果自己没有3，又没有钱、大花、小花)
            self._revolt(s)
            return
        if d.rules.no_three == "free" or rank == C.THREE:
            seller = next((x for x in sellers + givers if spare(x)), None)
            if seller is not None:
                self._transfer(seller, s, rank, paid=None, kind="free")
                return
        d.events.append({"type": "buy", "seat": s, "rank": C.RANKS[rank], "from": None, "paid": None})

    def _transfer(self, frm: int, to: int, rank: int, paid: int | None, kind: str) -> None:
        d = self.deal
        d.hands[frm][rank] -= 1
        d.hands[to][rank] += 1
        rec = {
            "type": "buy",
            "kind": kind,
            "seat": to,
            "rank": C.RANKS[rank],
            "from": frm,
            "paid": C.RANKS[paid] if paid is not None else None,
        }
        d.buys.append(rec)
        d.events.append(rec)

    # ------------------------------------------------------------------ legal actions

    def legal(self, s: int) -> LegalActions:
        """The actions open to seat ``s`` in the current setup phase."""
        d = self.deal
        phase = d.phase
        if phase == YAOTOU_PHASE:
            return LegalActions([YAOTOU, WUTOU])
        if phase == XUANDIAN:
            return LegalActions([DECLARE, PASS])
        if phase == TRIBUTE_RETURN:
            _, payer, n = self.returns[0]
            hand = d.hands[s]
            if d.rules.return_held_ranks_only:
                # 001 青岛: 被还贡者没有的牌不能还贡 — unless the receiver holds too few such cards
                held = [k if d.hands[payer][r] else 0 for r, k in enumerate(hand)]
                if sum(held) >= n:
                    hand = held
            return LegalActions([Return(c) for c in _multisets(hand, n)])
        if phase == SWAP_PHASE:
            return LegalActions([SWAP, PASS])
        if phase == GIVEBACK_PHASE:
            return LegalActions([GIVEBACK, PASS])
        action, may, _ = SETUP_RULES[phase]
        return LegalActions([action, PASS] if may(d.hands[s]) else [PASS])

    def explain(self, s: int, a: Action, legal: Sequence[Action]) -> str:
        """Why ``a`` is not legal for seat ``s`` in this phase."""
        phase = self.deal.phase
        options = ", ".join(str(x) for x in legal)
        if phase == TRIBUTE_RETURN:
            n = self.returns[0][2]
            return f"seat {s} gives back {n} card{'s' * (n > 1)} of its own (还贡): answer 'return <cards>'"
        extra = ""
        rule = SETUP_RULES.get(phase)
        if rule is not None and a is rule[0] and not rule[1](self.deal.hands[s]):
            extra = f": seat {s} " + rule[2].format(a=a)
        return f"seat {s} is deciding {_WHAT[phase]}{extra}; the choices are {options}"


TRIBUTE_RANKS: dict[str, tuple[int, ...]] = {
    "money": (C.BIG, C.SMALL, C.TWO),
    "highest": tuple(range(C.NUM_RANKS - 1, -1, -1)),
}
"""The ranks a tribute may be paid in, highest first, for each value of ``tribute_cards``."""


def highest_card(hand: Sequence[int]) -> int | None:
    """The rank of the highest card of ``hand`` (jokers and 2s included), None for an empty hand: the price
    of a 3 or 4 for a buyer with no money under ``buy_with_highest`` (001 菏泽: 没大王用最大牌)."""
    return next((r for r in range(C.NUM_RANKS - 1, -1, -1) if hand[r]), None)


def can_self_open(h: Sequence[int]) -> bool:
    """无级自开: the hand holds no gouji play at all (no 2, no joker, fewer than 2 As, 2 Ks, 3 Qs, 4 Js
    and 5 10s) and a 4 to open with."""
    if h[C.TWO] or h[C.SMALL] or h[C.BIG] or not h[C.FOUR]:
        return False
    return not any(h[r] and Play.of(r, h[r]).gouji for r in range(C.TEN, C.ACE + 1))


def deal_liang_san(deck: C.Counts, first: int, rng: random.Random) -> tuple[list[C.Counts], int | None, int]:
    """Deal one card at a time from seat ``first`` with the 3s' suits (rule book §16.1, 亮3 / 顶班): the
    first seat to hold two 3s of one suit takes the lead, and a seat that comes to hold more 3s of one suit
    than the leader has shown takes it over.  Suits go round the 3s of the deck (♠♥♣♦ ♠♥…), and matter
    for nothing else.  Returns the hands, the leader (None if nobody held two 3s of a suit) and how many
    3s of one suit the leader showed."""
    cards = [(r, i % 4) for r in range(C.NUM_RANKS) for i in range(deck[r])]
    rng.shuffle(cards)
    hands = [[0] * C.NUM_RANKS for _ in range(SEATS)]
    suits = [[0] * 4 for _ in range(SEATS)]
    leader: int | None = None
    shown = 1
    for i, (r, suit) in enumerate(cards):
        seat = (first + i) % SEATS
        hands[seat][r] += 1
        if r == C.THREE:
            suits[seat][suit] += 1
            if suits[seat][suit] > shown:
                leader, shown = seat, suits[seat][suit]
    return [tuple(h) for h in hands], leader, shown if leader is not None else 0


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
