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
from ..actions import ACTION_TYPES, Action, InvalidAction, parse_action
from ..checks import check_hands, check_seat
from ..rules import RuleSet, resolve
from ..seats import SEATS
from ..tribute import Payment
from .setup import START_PLAY, VOID, Setup, deal_liang_san
from .state import PLAY, IllegalAction
from .views import Views


class Deal(Views):
    """One deal.  Build with :meth:`Deal.new` (shuffle, deal and every before-play phase) or
    :meth:`Deal.from_hands` (straight into play)."""

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
        liang_san_from: int | None = None,
    ) -> Deal:
        """Shuffle and deal from ``seed``, then run every before-play phase the rules ask for: the
        ``tribute`` owed from the deal before (进贡, with 还贡 decisions), buying 3s and 4s, revolution (two
        revolutions void the deal and it is dealt again, tribute paid again), 要头/无头 and 宣点.

        ``leader`` is the first leader (上班); ``None`` draws a seat from the seed, as for the first deal
        of a match — or, with ``first_leader="liang_san"``, the seed draws the seat dealing starts from
        and 亮3 / 顶班 decides (see :func:`gouji.engine.deal.setup.deal_liang_san`).  ``huiwu``: the seats that may
        discard their 5s (汇5, after being swept).  ``liang_san_from`` (with ``leader=None`` and
        ``first_leader="liang_san"``): the seat dealing starts from, instead of one drawn from the seed — a 重新开牌
        (001 青岛 上班: 首次开牌或重新开牌后 … 亮3).  The same arguments always give the same deal.
        """
        rs = resolve(rules)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        rng = random.Random(seed)
        first = rng.randrange(SEATS) if leader is None else check_seat(leader, "leader")
        if liang_san_from is not None and leader is None:
            first = check_seat(liang_san_from, "liang_san_from")
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
        if liang_san_from is not None:
            event["liang_san_from"] = liang_san_from
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
            return cls.new(
                rules,
                seed=first["seed"],
                leader=first.get("leader"),
                tribute=tribute,
                huiwu=huiwu,
                liang_san_from=first.get("liang_san_from"),
            )
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
        if isinstance(evs[0].get("rules"), Mapping):
            # a log older than some option: the options it predates take their defaults, old names their new
            # ones (RuleSet.from_dict) — its rules compare as the rule set they make
            evs[0]["rules"] = deal.rules.to_dict()
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
        if isinstance(action, ACTION_TYPES):  # (parse_action, inlined for the action objects: every decision)
            a: Action = action
        else:
            try:
                a = parse_action(action)
            except InvalidAction as e:
                raise IllegalAction(str(e)) from None
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if a not in legal:
            raise IllegalAction(self._explain(s, a))
        self._legal = None
        self.decisions += 1
        self.events.append({"type": "act", "seat": s, "action": a.text})
        self._last_actor = s
        if self.phase == PLAY:
            self._act_play(s, a)
        else:
            assert self.setup is not None
            self.setup.act(s, a)
            self._drive_setup()

    def _run_setup(self) -> None:
        self.setup = Setup(self)
        self._drive_setup()

    def _redeal(self, hands: Sequence[Sequence[int]]) -> None:
        """Start the deal over with new hands (a void deal dealt again), keeping its log and its setup."""
        keep = (self.events, self.decisions, self.tribute, self._rng, self.setup, self.huiwu)
        self.__init__(self.rules, hands, self.first_leader)  # type: ignore[misc]
        self.events, self.decisions, self.tribute, self._rng, self.setup, self.huiwu = keep

    def _drive_setup(self) -> None:
        """Run the before-play phases until a seat must decide or play starts; a void deal (two revolutions,
        two 冲点) is dealt again and every phase starts over, in a loop (never by recursion)."""
        setup = self.setup
        assert setup is not None
        self._legal = None
        while True:
            outcome = setup.advance()
            if outcome == VOID:
                self._void(setup)
            elif outcome == START_PLAY:
                self._start_play()
                return
            else:
                self.to_act = outcome
                return

    def _void(self, setup: Setup) -> None:
        """Two or more revolutions (or 冲点s) void the deal (流局): deal again from the same generator, and
        start every phase over (tribute is paid again from the new hands)."""
        setup.count_void()
        rng = self._rng
        assert rng is not None, "revolutions only happen in deals with setup phases"
        hands = C.deal_hands(self._deck, SEATS, self.first_leader, rng)
        self.events.append(
            {"type": "void", "revolted": list(self.revolted), "hands": [C.format_counts(h) for h in hands]}
        )
        self._redeal(hands)
        setup.restart()


def _payments(tribute: Sequence[Payment | Mapping[str, Any]]) -> list[Payment]:
    return [p if isinstance(p, Payment) else Payment.from_dict(p) for p in tribute]


def _seats(seats: Sequence[int]) -> list[int]:
    out = sorted(set(seats))
    for s in out:
        if not isinstance(s, int) or not 0 <= s < SEATS:
            raise ValueError(f"huiwu: {s!r} is not a seat 0-5")
    return out
