"""What a seat may do now (rule book §5–§8, §16): the legal actions, and for any other action the reason it
is refused.

Each rule of a decision in play is stated once, as a method ``_..._rule`` that returns ``None`` when the rule
lets the seat act so, or else its refusal: a template from the table below, filled in (:func:`refusal_text`)
only when a player is shown it.  The legal actions are made by asking the same rules (they enumerate only what
a rule cannot answer one action at a time: the plays a hand can lead, the plays that beat the top), and a
refusal is the first rule that refuses, in the order of :data:`PLAY_RULES` — so a list and a refusal cannot
disagree (``tests/test_legality.py`` and ``tests/test_properties.py`` check every action they try against
both)."""

from __future__ import annotations

from collections.abc import Callable

from .. import cards as C
from ..actions import PASS, YIELD, Action, Burn, InvalidAction, LegalActions, Return, parse_action
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

    def refusal_code(self, seat: int, action: str | Action) -> str | None:
        """The name of the rule that refuses ``seat`` the ``action`` now (a key of :data:`REFUSAL_CODES`:
        ``"threes_last"``, ``"does_not_beat"`` …), ``"not_to_act"`` for a seat the current event does not
        ask, ``"setup"`` for any refusal before play; None when the action is legal.  The conformance suite
        (``docs/conformance.md``) names refusals by these codes."""
        a = parse_action(action)
        if seat not in self.window():
            return "not_to_act"
        if a in self.legal_actions_of(seat):
            return None
        if self.phase != PLAY:
            return "setup"
        to_act, legal = self.to_act, self._legal
        self.to_act, self._legal = seat, None
        try:
            why = self._refusal(seat, a)
        finally:
            self.to_act, self._legal = to_act, legal
        return REFUSAL_CODES.get(why or CANNOT_NOW, "cannot_now")

    def _compute_legal(self) -> LegalActions:
        s = self.to_act
        if s is None:
            return LegalActions([])
        if self.phase != PLAY:
            assert self.setup is not None
            return self.setup.legal(s)
        hand = self.hands[s]
        rd = self.round
        top = rd.top
        rules = self.rules
        if top is None:  # a lead: every play of held cards the rules allow (_play_refusal)
            if self.chongdian is not None and self._attempting_chongdian(s):
                return LegalActions(self._chong_leads(s))
            if rules.bie_san and hand[C.THREE]:  # _threes_rule: 3s only as the last play, all of them
                if only_threes(hand):
                    return LegalActions([Play.of(C.THREE, hand[C.THREE])])
                return LegalActions.leads(hand, allow_threes=False, whole_fours=rules.fours_whole)
            return LegalActions.leads(hand, allow_threes=True, whole_fours=rules.fours_whole)
        # an answer: the held plays that beat the top (_beats_rule; they never hold a 3), and what else is open
        plays = answers(hand, top, rules.big_joker_kill, rules.three_small_kill)
        if rules.fours_whole and hand[C.FOUR]:  # (_fours_rule refuses only plays of 4s)
            plays = [p for p in plays if self._fours_rule(s, p) is None]
        if rd.burn_offers:
            return LegalActions([*[Burn(p) for p in plays], PASS])
        acts: list[Action] = [*plays]
        if rules.opposite_counter_burn and self._burn_rule(s) is None:
            acts += [Burn(p) for p in plays]  # 反稍 by the 对家, beside the plain 解烧
        acts.append(PASS)
        if rd.top_seat == (s + 3) % SEATS and self._yield_rule(s) is None:  # (its first test, saving a call)
            acts.append(YIELD)
        return LegalActions(acts)

    # ------------------------------------------------------------------------------------ the rules

    def _explain(self, s: int, a: Action) -> str:
        """Why ``a`` is not legal for seat ``s`` now: a message a player can act on."""
        if self.phase != PLAY:
            assert self.setup is not None
            return self.setup.explain(s, a, self.legal_actions())
        why = self._refusal(s, a)
        if why is None:  # pragma: no cover - the rules and the legal actions agree (tests/test_legality.py)
            why = CANNOT_NOW
        return refusal_text(why, self, s, a)

    def _refusal(self, s: int, a: Action) -> str | None:
        """The first rule of play that refuses seat ``s`` the action ``a`` now (its template), or None: the
        legal actions are exactly those with none."""
        if isinstance(a, Burn):
            why = self._burn_rule(s)
            return why if why is not None else self._play_refusal(s, a.play)
        if self.round.burn_offers:
            return None if a is PASS else BURN_OFFERED
        if isinstance(a, Play):
            return self._play_refusal(s, a)
        if a is PASS:
            return None if self.round.top is not None else MUST_LEAD
        if a is YIELD:
            return self._yield_rule(s)
        return RETURN_BEFORE_PLAY if isinstance(a, Return) else SETUP_DECISION

    def _play_refusal(self, s: int, p: Play) -> str | None:
        """The first of :data:`PLAY_RULES` that refuses seat ``s`` the play ``p`` now, or None."""
        for rule in PLAY_RULES:
            why = rule(self, s, p)
            if why is not None:
                return why
        return None

    def _held_rule(self, s: int, p: Play) -> str | None:
        """A play is made of the player's own cards."""
        return None if C.contains(self.hands[s], p.counts) else NOT_HELD

    def _threes_rule(self, s: int, p: Play) -> str | None:
        """憋三 (rule book §7): 3s only as the player's last play, all of them and nothing attached."""
        if not (self.rules.bie_san and p.counts[C.THREE]):
            return None
        hand = self.hands[s]
        return None if only_threes(hand) and p.size == p.k == hand[C.THREE] else THREES_LAST

    def _fours_rule(self, s: int, p: Play) -> str | None:
        """4不拆不挂 (``fours_whole``, §16): the 4s are played all together and with nothing attached."""
        if self.rules.fours_whole and p.rank == C.FOUR and not p.size == p.k == self.hands[s][C.FOUR]:
            return FOURS_WHOLE
        return None

    def _attempting_chongdian(self, s: int) -> bool:
        """Whether seat ``s`` is to lead an attempt of its 冲点 (§16.3)."""
        ch = self.chongdian
        return ch is not None and ch["result"] is None and ch["seat"] == s and self.round.top is None

    def _chongdian_rule(self, s: int, p: Play) -> str | None:
        """冲点 (§16.3): an attempt is led with a play that could open the point (:meth:`_chong_leads`)."""
        return CHONGDIAN_LEAD if self._attempting_chongdian(s) and p not in self._chong_leads(s) else None

    def _beats_rule(self, s: int, p: Play) -> str | None:
        """An answer beats the top play (上牌, rule book §4: :func:`gouji.engine.plays.beats`)."""
        top, rules = self.round.top, self.rules
        if top is None or beats(p, top, rules.big_joker_kill, rules.three_small_kill):
            return None
        return CANNOT_MEET if p.size != top.size and not top.eff_big else DOES_NOT_BEAT

    def _burn_rule(self, s: int) -> str | None:
        """烧牌 (§6): a burn answers the offer of a gouji play's burn, or is the 对家's 反稍 of a burner's play
        (``opposite_counter_burn``)."""
        if self.round.burn_offers:
            return None
        if self.rules.opposite_counter_burn and self._opposite_may_counter_burn(s):
            return None
        return NO_BURN

    def _yield_rule(self, s: int) -> str | None:
        """让牌 (§5.2): on a non-gouji play of the seat's 对头, once, outside the free-for-all, while one of the two
        seats between them may still answer it."""
        rd = self.round
        top = rd.top
        if (
            rd.top_seat == (s + 3) % SEATS
            and top is not None
            and not top.gouji
            and not self.ffa
            and not rd.after_yield
            and rd.yielder < 0
            and not rd.burn_offers
            and (self._may_respond_plain((s + 1) % SEATS) or self._may_respond_plain((s + 2) % SEATS))
        ):
            return None
        return NO_YIELD


PLAY_RULES: tuple[Callable[[Legality, int, Play], str | None], ...] = (
    Legality._held_rule,
    Legality._threes_rule,
    Legality._fours_rule,
    Legality._chongdian_rule,
    Legality._beats_rule,
)
"""The rules a play (or a burn's play) must meet, in the order a refusal names the first one it fails."""

# The refusals: {s} the seat, {a} the action (a burn's play for a burn), {top} the play to beat and {by} its
# seat, {hand} the seat's hand.
NOT_HELD = "seat {s} does not hold {a} (holds {hand})"
THREES_LAST = "{a}: 3s may only be played as your last play, all of them and nothing attached (憋三)"
FOURS_WHOLE = "{a}: 4s are played all together and with nothing attached (4不拆不挂)"
CHONGDIAN_LEAD = "{a}: a 冲点 attempt is a gouji play that could open the point (纯够级)"
CANNOT_MEET = "{a} cannot meet {top}: a play is beaten only by one of the same number of cards"
DOES_NOT_BEAT = "{a} does not beat {top}: every card must be higher, jokers beaten only by bigger jokers"
BURN_OFFERED = (
    "seat {s} is being offered a burn of {top} (seat {by}'s gouji play): "
    "answer 'burn <cards>' with a play that beats it, or 'pass'"
)
NO_BURN = (
    "seat {s} cannot burn now: a burn is offered right after a gouji play, before the player's opposite "
    "answers, to seats that have not passed"
)
MUST_LEAD = "seat {s} leads this round and must play: 'pass' is not possible"
NO_YIELD = (
    "seat {s} cannot yield (让牌): yielding is for a non-gouji play by your opposite that the two seats between "
    "you have passed, once, before the free-for-all"
)
SETUP_DECISION = "'{a}' is a setup decision; the deal is in play"
RETURN_BEFORE_PLAY = "'{a}' gives back 落贡 (还贡), which is done before play; the deal is in play"
CANNOT_NOW = "seat {s} cannot {a} now"


REFUSAL_CODES: dict[str, str] = {
    NOT_HELD: "not_held",
    THREES_LAST: "threes_last",
    FOURS_WHOLE: "fours_whole",
    CHONGDIAN_LEAD: "chongdian_lead",
    CANNOT_MEET: "cannot_meet",
    DOES_NOT_BEAT: "does_not_beat",
    BURN_OFFERED: "burn_offered",
    NO_BURN: "no_burn",
    MUST_LEAD: "must_lead",
    NO_YIELD: "no_yield",
    SETUP_DECISION: "setup_decision",
    RETURN_BEFORE_PLAY: "return_before_play",
    CANNOT_NOW: "cannot_now",
}
"""Each refusal of play by its code, the name :meth:`Legality.refusal_code` gives it."""


def refusal_text(template: str, deal: Legality, s: int, a: Action) -> str:
    """A refusal's template filled in for seat ``s`` and the action ``a`` (a burn names its play)."""
    return template.format(
        s=s,
        a=a.play if isinstance(a, Burn) else a,
        top=deal.round.top,
        by=deal.round.top_seat,
        hand=deal.hand(s),
    )
