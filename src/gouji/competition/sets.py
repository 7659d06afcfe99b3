"""Sets of deals with tribute and scoring, the duplicate tournament, and their records.

- :class:`Match` is a set (rule book §12–13): ``set_length`` deals; the first pays no tribute, each
  later one starts with the tribute owed from the deal before (:func:`gouji.engine.tribute.owed`); the 大落 of a
  deal leads the next; team points run across the set.
- :class:`Tournament` is the duplicate match of 比赛规则 (rule book §13): two teams of six in two groups
  of three, two tables, every deal played at both tables with the same cards and the teams swapped,
  small points 6..1, and 3/1/0 match points.
- Both are stored as a **record** (:meth:`Match.record`, :meth:`Tournament.record`): the rules, the seeds
  and the ordered decisions of every deal, with the results, in a versioned JSON document with a
  checksum.  :func:`load_record` replays one exactly and refuses a corrupt or altered file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.deal import Deal
from ..engine.rule_bounds import check_value
from ..engine.rules import RuleSet, resolve
from ..engine.scoring import team_points
from ..engine.seats import SEATS, team
from ..engine.tribute import Payment, owed
from .records import (
    NO_DEALS,
    RECORD_FORMAT,
    RECORD_VERSION,
    RecordError,
    canonical,
    check_record_body,
    check_result,
    deal_actions,
    entry_text,
    new_seed,
    replay_actions,
)


class Match:
    """A set of deals with tribute (一盘): the deals are played one after the other through ``act``."""

    def __init__(
        self, rules: RuleSet | str | None = "qingdao", seed: int | str | None = None, set_length: int | None = None
    ) -> None:
        self.rules = resolve(rules)
        self.seed: int | str = new_seed() if seed is None else seed
        self.set_length = self.rules.set_length if set_length is None else set_length
        check_value("set_length", "set_length", self.set_length, int)  # 1 to 20 deals, as the rules allow
        self.deals: list[Deal] = []
        self.points: list[tuple[int, int]] = []
        self._texts: dict[int, bytes] = {}
        """The canonical texts of the finished deals' record entries (:meth:`record`)."""
        self._start_deal()

    def deal_seed(self, index: int) -> str:
        """The seed of deal ``index`` (0-based) of this set."""
        return f"{self.seed}/{index}"

    def _start_deal(self) -> None:
        rules = self.rules
        prev = self.deals[-1] if self.deals else None
        leader: int | None = None
        tribute: list[Payment] = []
        huiwu: list[int] = []
        liang_san_from: int | None = None
        if prev is not None:
            result = prev.result()
            leader = result["places"][-1]  # the 大落 leads the next deal
            tribute = owed(rules, result)
            sweep = result["sweep"]
            if sweep is not None and rules.sweep_restart_leader:
                # 000 大纲: 出现串三户 … 重新开牌由首开牌人的下家进行
                leader = (result["first_leader"] + 1) % SEATS
                if rules.first_leader == "liang_san":
                    # 001 青岛 上班: 首次开牌或重新开牌后 … 亮3 — dealt from that seat, 亮3 / 顶班 decides
                    leader, liang_san_from = None, leader
            if sweep is not None and rules.huiwu:
                if self.sweep_streak() >= 3:
                    # 001 章丘: 连续3盘后重新开始，即第四盘以新游戏开始 — as a first deal: no tribute, no 汇5
                    leader, tribute = None, []
                else:
                    huiwu = [s for s in range(SEATS) if team(s) != sweep]  # 输的一方可以汇5
        self.deals.append(
            Deal.new(
                rules,
                seed=self.deal_seed(len(self.deals)),
                leader=leader,
                tribute=tribute,
                huiwu=huiwu,
                liang_san_from=liang_san_from,
            )
        )

    def sweep_streak(self) -> int:
        """How many deals in a row, ending with the last one played, the same team swept (串三户) — counted
        from the last new start (a first deal, or the deal after a third sweep in a row with 汇5)."""
        streak, last = 0, None
        for deal in self.deals:
            sweep = deal.sweep if deal.is_over else None
            if sweep is None:
                streak = 0
            elif sweep == last and streak < 3:
                streak += 1
            else:
                streak = 1  # another team, or the first sweep after a new start
            last = sweep
        return streak

    @property
    def current(self) -> Deal:
        """The deal being played (the last one once the set is over)."""
        return self.deals[-1]

    @property
    def is_over(self) -> bool:
        """Whether every deal of the set has been played."""
        return len(self.deals) == self.set_length and self.current.is_over

    @property
    def to_act(self) -> int | None:
        """The seat to decide in the current deal; None once the set is over."""
        return self.current.to_act

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the current deal."""
        return self.current.legal_actions()

    def act(self, action: str | Action, seat: int | None = None) -> None:
        """Act in the current deal; when it ends, score it and deal the next (with its tribute)."""
        deal = self.current
        deal.act(action, seat=seat)
        if deal.is_over:
            self.points.append(team_points(deal))
            if len(self.deals) < self.set_length:
                self._start_deal()

    @property
    def totals(self) -> tuple[int, int]:
        """Team points so far: (team 0 = seats 0, 2, 4; team 1 = seats 1, 3, 5)."""
        return (sum(p[0] for p in self.points), sum(p[1] for p in self.points))

    def record(self, upto: int | None = None) -> dict[str, Any]:
        """The set as a record: rules, seeds, every decision, the results, and a checksum.  With ``upto``, the
        set up to and including finished deal ``upto`` (0-based): the later deals left out, the totals of these
        deals — a record that :meth:`from_record` reads as the set stopped there (a server stores one as each
        deal ends)."""
        if upto is not None and not 0 <= upto < len(self.points):
            raise ValueError(f"deal {upto} has not finished: {len(self.points)} deals of this set have")
        n = len(self.deals) if upto is None else upto + 1
        deals = []
        texts = []
        for i, deal in enumerate(self.deals[:n]):
            entry, text = self._deal_entry(i, deal)
            deals.append(entry)
            texts.append(text)
        body = self._record_body(n)
        text = self._canonical_text(body, texts)
        body["deals"] = deals
        body["checksum"] = "sha256:" + hashlib.sha256(text).hexdigest()
        return body

    def record_text(self, upto: int) -> bytes:
        """The signed record of the set up to and including finished deal ``upto`` as its JSON text (UTF-8;
        keys sorted, no spaces): the same document as :meth:`record` ``(upto=upto)``, put together from the
        finished deals' kept texts — no deal's entry is made again, so a set's record stored at each deal's
        end costs the same at its last deal as at its first (the server stores this text)."""
        if not 0 <= upto < len(self.points):
            raise ValueError(f"deal {upto} has not finished: {len(self.points)} deals of this set have")
        texts = [self._texts.get(i) or self._deal_entry(i, self.deals[i])[1] for i in range(upto + 1)]
        text = self._canonical_text(self._record_body(upto + 1), texts)
        checksum = "sha256:" + hashlib.sha256(text).hexdigest()
        return b'{"checksum":"' + checksum.encode() + b'",' + text[1:]  # ("checksum" sorts before "deals")

    def _record_body(self, n: int) -> dict[str, Any]:
        """A set record of the first ``n`` deals without its deals and checksum."""
        points = self.points[:n]
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "kind": "set",
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "set_length": self.set_length,
            "deals": [],
            "totals": [sum(p[0] for p in points), sum(p[1] for p in points)],
        }

    @staticmethod
    def _canonical_text(body: dict[str, Any], texts: list[bytes]) -> bytes:
        """The canonical text of a set record whose ``deals`` (an empty list in ``body``) have these texts:
        put together from them (a finished deal's is made once) — "deals" sorts first of the body's keys, so
        the text of the rest begins with their empty list (tests/test_match.py checks it against the whole
        text's)."""
        rest = canonical(body)
        return b"".join((b'{"deals":[', b",".join(texts), b"]", rest[len(NO_DEALS) :]))

    def _deal_entry(self, i: int, deal: Deal) -> tuple[dict[str, Any], bytes]:
        """Deal ``i``'s entry in the set's record and its canonical text, which a finished deal keeps (a set's
        record is made again as each of its deals ends; the text is the costly part, and a seventh of the
        entry's memory)."""
        first = deal.events[0]
        entry: dict[str, Any] = {
            "seed": first["seed"],
            "leader": first["leader"],
            "tribute": first["tribute"],
            "actions": deal_actions(deal),
        }
        if not deal.is_over:
            return entry, entry_text(entry)
        entry["places"] = deal.result()["places"]
        entry["points"] = list(self.points[i])
        text = self._texts.get(i)
        if text is None:
            text = self._texts[i] = entry_text(entry)
        return entry, text

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Match:
        """Replay a set record; raises :class:`RecordError` if it is corrupt or does not replay."""
        body = check_record_body(record, "set")
        match = cls(RuleSet.from_dict(body["rules"]), seed=body["seed"], set_length=body["set_length"])
        deals = body["deals"]
        if not isinstance(deals, list) or not 1 <= len(deals) <= match.set_length:
            raise RecordError("the record's deals are not a list of at most set_length deals")
        for i, entry in enumerate(deals):
            deal = match.current
            if len(match.deals) != i + 1:
                raise RecordError(f"deal {i + 1}: the previous deal did not end where the record says")
            first = deal.events[0]
            for key in ("seed", "leader", "tribute"):
                if first[key] != entry.get(key):
                    raise RecordError(f"deal {i + 1}: its {key} is not what the set gives ({first[key]!r})")
            replay_actions(entry, i, match.act, deal)
            check_result(entry, match.deals[i], i, points=match.points[i] if match.deals[i].is_over else None)
        if list(match.totals) != body["totals"]:
            raise RecordError(f"the totals {body['totals']} are not what the deals give ({list(match.totals)})")
        return match
