"""What a seat may do now (rule book §5–§8): the legal actions, and for any other action the reason it is
refused — from the same facts, so the two cannot disagree."""

from __future__ import annotations

from .. import cards as C
from ..actions import PASS, YIELD, Action, Burn, Decision, InvalidAction, LegalActions, Return, parse_action
from ..plays import Play, answers, beats
from ..seats import SEATS
from .play import Playing
from .setup import BUY_FOUR_PHASE as SETUP_BUY_FOUR
from .setup import REVOLUTION as SETUP_REVOLUTION
from .smother import only_threes
from .state import PLAY


class Legality(Playing):
    """The legal actions of the seat to act (and of a window's other seats), and refusals."""

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
                if only_threes(hand):
                    return LegalActions([Play.of(C.THREE, hand[C.THREE])])
                return LegalActions.leads(hand, allow_threes=False, whole_fours=rules.fours_whole)
            return LegalActions.leads(hand, allow_threes=True, whole_fours=rules.fours_whole)
        plays = answers(hand, top, rules.big_joker_kill, rules.three_small_kill)
        if rules.fours_whole and hand[C.FOUR]:
            plays = [p for p in plays if p.rank != C.FOUR or p.size == p.k == hand[C.FOUR]]
        if rd.burn_offers:
            return LegalActions([*[Burn(p) for p in plays], PASS])
        acts: list[Action] = [*plays]
        if rules.opposite_counter_burn and self._opposite_may_counter_burn(s):
            acts += [Burn(p) for p in acts if isinstance(p, Play)]  # 反稍 by the 对家, beside the plain 解烧
        acts.append(PASS)
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
