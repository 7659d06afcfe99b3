"""The before-play phases of a deal (rule book §5.1), in the order they are played:

1. tribute (进贡, §12) owed from the deal before, paid from the new hands, then 还贡 decisions;
2. buying 3s and 4s (买三 / 买四, §9);
3. revolution (革命, §10) — two or more void the deal (流局): it is dealt again and every phase starts over;
4. 要头 / 无头 for a revolutionary's 对头 (§10);
5. 宣点 (§8.2).

:class:`Setup` runs the automatic steps and asks the seats in turn; :class:`gouji.Deal` hands it every
action taken before play.  Who is asked depends on public facts only (rule book §5.1: every seat is asked
about revolution, and about an optional 4), so the order of turns never tells the table about a hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from . import cards as C
from .actions import BUY_FOUR, DECLARE, PASS, REVOLT, WUTOU, YAOTOU, Action, LegalActions, Return
from .table import REVOLTED, SEATS, opposite

if TYPE_CHECKING:
    from .deal import Deal

# Phases
TRIBUTE_RETURN = "tribute_return"
BUY_FOUR_PHASE = "buy_four"
REVOLUTION = "revolution"
YAOTOU_PHASE = "yaotou"
XUANDIAN = "xuandian"
PHASES = (TRIBUTE_RETURN, BUY_FOUR_PHASE, REVOLUTION, YAOTOU_PHASE, XUANDIAN)
"""Every setup phase, in the order they come."""

MAX_VOIDS = 200
"""Void deals in a row, dealt again without anyone deciding, before the deck is judged unplayable."""

_WHAT = {
    BUY_FOUR_PHASE: "buying a 4 (买四)",
    REVOLUTION: "revolution (革命)",
    YAOTOU_PHASE: "要头 or 无头",
    XUANDIAN: "宣点",
    TRIBUTE_RETURN: "还贡 (which cards to give back)",
}


class Setup:
    """The before-play phases of one deal: the step reached, the seats still to ask, the 还贡 owed."""

    __slots__ = ("deal", "queue", "returns", "step", "voids")

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.step = 0
        """Index of the next automatic step in :meth:`_steps`."""
        self.queue: list[int] = []
        """Seats still to decide in the current phase, in order."""
        self.returns: list[tuple[int, int, int]] = []
        """(receiver, payer, cards) of 还贡 still to choose."""
        self.voids = 0

    def _steps(self) -> tuple[Callable[[], None], ...]:
        return (self._tribute, self._buying, self._revolution, self._yaotou, self._xuandian)

    # ------------------------------------------------------------------ running

    def advance(self) -> None:
        """Run automatic steps until a seat must decide (it becomes ``to_act``) or play starts; two
        revolutions void the deal and it is dealt again, in a loop (never by recursion)."""
        d = self.deal
        d._legal = None
        steps = self._steps()
        while True:
            if len(d.revolted) >= 2:
                self._void()
                continue
            if self.queue:
                break
            if self.step >= len(steps):
                d._start_play()
                return
            self.step += 1
            steps[self.step - 1]()
        self.voids = 0
        d.to_act = self.queue[0]

    def act(self, s: int, a: Action) -> None:
        """Seat ``s`` takes the legal setup action ``a``."""
        d = self.deal
        self.queue.pop(0)
        if isinstance(a, Return):
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
        self.advance()

    def _ask(self, phase: str, seats: Sequence[int]) -> None:
        self.deal.phase = phase
        self.queue = list(seats)

    def _in_order(self, keep: Callable[[int], bool]) -> list[int]:
        """The seats ``keep`` accepts, in turn order from the first leader."""
        first = self.deal.first_leader
        return [(first + i) % SEATS for i in range(SEATS) if keep((first + i) % SEATS)]

    # ------------------------------------------------------------------ the steps

    def _tribute(self) -> None:
        """进贡: each payment in order, the payer's highest joker or 2 one card at a time; never a card
        received in this phase (吃了不吐); 抗贡 where the rules have it.  Then 还贡 is asked."""
        d = self.deal
        if not d.tribute:
            return
        hands = d.hands
        received = [[0] * C.NUM_RANKS for _ in range(SEATS)]
        exempt: set[int] = set()
        if d.rules.kanggong:
            for s in range(SEATS):
                if hands[s][C.BIG] >= 4:
                    exempt |= {s, (s + 2) % SEATS, (s + 4) % SEATS}
                if hands[s][C.SMALL] >= 4:
                    exempt.add(s)
        for p in d.tribute:
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
            d.tribute_paid.append(rec)
            d.events.append(rec)
            if p.returned and paid and not d.rules.no_return:
                self.returns.append((p.receiver, p.payer, len(paid)))
        if self.returns:
            self._ask(TRIBUTE_RETURN, [receiver for receiver, _, _ in self.returns])

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

    def _revolution(self) -> None:
        d = self.deal
        if d.rules.revolution:
            self._ask(REVOLUTION, self._in_order(lambda s: d.in_play[s]))

    def _yaotou(self) -> None:
        d = self.deal
        self._ask(YAOTOU_PHASE, [opposite(s) for s in d.revolted if d.in_play[opposite(s)]])

    def _xuandian(self) -> None:
        d = self.deal
        if d.rules.xuandian:
            skip = set(d.revolted) | {opposite(s) for s in d.revolted}
            self._ask(XUANDIAN, self._in_order(lambda s: s not in skip))

    # ------------------------------------------------------------------ helpers

    def _revolt(self, s: int) -> None:
        d = self.deal
        d.revolted.append(s)
        d.status[s] = REVOLTED
        d.in_play[s] = False
        d.revealed[s] = d.hand(s)
        d.events.append({"type": "revolution", "seat": s, "hand": d.hand(s)})

    def _void(self) -> None:
        """Two or more revolutions void the deal (流局): deal again from the same generator, and start
        every phase over (tribute is paid again from the new hands)."""
        d = self.deal
        self.voids += 1
        if self.voids > MAX_VOIDS:
            raise ValueError(
                f"{MAX_VOIDS} deals in a row were void (two or more revolutions): "
                "this deck and these rules cannot give a playable deal"
            )
        rng = d._rng
        assert rng is not None, "revolutions only happen in deals with setup phases"
        hands = C.deal_hands(d._deck, SEATS, d.first_leader, rng)
        d.events.append({"type": "void", "revolted": list(d.revolted), "hands": [C.format_counts(h) for h in hands]})
        d._redeal(hands)
        self.step = 0
        self.queue = []
        self.returns = []

    def _buy(self, s: int, rank: int) -> None:
        """买三 / 买四: get one card of ``rank`` for seat ``s``, paying a 2 (else X, else D) to an opponent."""
        d = self.deal
        hands = d.hands
        hand = hands[s]
        money = next((m for m in (C.TWO, C.SMALL, C.BIG) if hand[m]), None)
        opp = opposite(s)
        sellers = [opp, (opp + 2) % SEATS, (opp + 4) % SEATS]
        givers = [(s + 2) % SEATS, (s + 4) % SEATS]

        def spare(seat: int) -> bool:
            return d.in_play[seat] and hands[seat][rank] >= 2

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
        if phase == REVOLUTION:
            h = d.hands[s]
            can = not (h[C.TWO] or h[C.SMALL] or h[C.BIG])
            return LegalActions([REVOLT, PASS] if can else [PASS])
        if phase == YAOTOU_PHASE:
            return LegalActions([YAOTOU, WUTOU])
        if phase == XUANDIAN:
            return LegalActions([DECLARE, PASS])
        if phase == TRIBUTE_RETURN:
            n = self.returns[0][2]
            return LegalActions([Return(c) for c in _multisets(d.hands[s], n)])
        return LegalActions([PASS] if d.hands[s][C.FOUR] else [BUY_FOUR, PASS])

    def explain(self, s: int, a: Action, legal: Sequence[Action]) -> str:
        """Why ``a`` is not legal for seat ``s`` in this phase."""
        phase = self.deal.phase
        options = ", ".join(str(x) for x in legal)
        if phase == TRIBUTE_RETURN:
            n = self.returns[0][2]
            return f"seat {s} gives back {n} card{'s' * (n > 1)} of its own (还贡): answer 'return <cards>'"
        extra = ""
        if a is BUY_FOUR:
            extra = f": seat {s} holds a 4, so it has none to buy"
        if a is REVOLT:
            extra = f": seat {s} holds a 2 or a joker, so it cannot revolt"
        return f"seat {s} is deciding {_WHAT[phase]}{extra}; the choices are {options}"


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
