"""Sets of deals with tribute and scoring, the duplicate tournament, and their records.

- :class:`Match` is a set (RULES.md sections 12–13): ``set_length`` deals; the first pays no tribute, each
  later one starts with the tribute owed from the deal before (:func:`gouji.tribute.owed`); the 大落 of a
  deal leads the next; team points run across the set.
- :class:`Tournament` is the duplicate match of 比赛规则 (RULES.md section 13): two teams of six in two groups
  of three, two tables, every deal played at both tables with the same cards and the teams swapped,
  small points 6..1, and 3/1/0 match points.
- Both are stored as a **record** (:meth:`Match.record`, :meth:`Tournament.record`): the rules, the seeds
  and the ordered decisions of every deal, with the results, in a versioned JSON document with a
  checksum.  :func:`load_record` replays one exactly and refuses a corrupt or altered file.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .actions import Action
from .deal import SEATS, Deal, IllegalAction, team
from .record_checks import RecordShapeError, check_record
from .rule_bounds import check_value
from .rules import RuleSet, resolve
from .scoring import TOURNAMENT_POINTS, team_points
from .tribute import Payment, owed

RECORD_FORMAT = "gouji-record"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay to what it says."""


def _new_seed() -> int:
    return random.SystemRandom().randrange(2**63)


class Match:
    """A set of deals with tribute (一盘): the deals are played one after the other through ``act``."""

    def __init__(
        self, rules: RuleSet | str | None = "qingdao", seed: int | str | None = None, set_length: int | None = None
    ) -> None:
        self.rules = resolve(rules)
        self.seed: int | str = _new_seed() if seed is None else seed
        self.set_length = self.rules.set_length if set_length is None else set_length
        check_value("set_length", "set_length", self.set_length, int)  # 1 to 20 deals, as the rules allow
        self.deals: list[Deal] = []
        self.points: list[tuple[int, int]] = []
        self._start_deal()

    def deal_seed(self, index: int) -> str:
        """The seed of deal ``index`` (0-based) of this set."""
        return f"{self.seed}/{index}"

    def _start_deal(self) -> None:
        prev = self.deals[-1] if self.deals else None
        leader = None if prev is None else prev.result()["places"][-1]  # the 大落 leads the next deal
        tribute: list[Payment] = owed(self.rules, prev.result()) if prev is not None else []
        self.deals.append(Deal.new(self.rules, seed=self.deal_seed(len(self.deals)), leader=leader, tribute=tribute))

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

    def record(self) -> dict[str, Any]:
        """The set as a record: rules, seeds, every decision, the results, and a checksum."""
        deals = []
        for i, deal in enumerate(self.deals):
            first = deal.events[0]
            entry: dict[str, Any] = {
                "seed": first["seed"],
                "leader": first["leader"],
                "tribute": first["tribute"],
                "actions": _actions(deal),
            }
            if deal.is_over:
                entry["places"] = deal.result()["places"]
                entry["points"] = list(self.points[i])
            deals.append(entry)
        body = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "kind": "set",
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "set_length": self.set_length,
            "deals": deals,
            "totals": list(self.totals),
        }
        return _sign(body)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Match:
        """Replay a set record; raises :class:`RecordError` if it is corrupt or does not replay."""
        body = _check(record, "set")
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
            _replay_actions(entry, i, match.act, deal)
            _check_result(entry, match.deals[i], i, points=match.points[i] if match.deals[i].is_over else None)
        if list(match.totals) != body["totals"]:
            raise RecordError(f"the totals {body['totals']} are not what the deals give ({list(match.totals)})")
        return match


class Tournament:
    """The duplicate match of 比赛规则: team X against team Y, two groups of three each, two tables.

    Deal ``k`` is dealt once from the tournament's seed and played at both tables: at table 1 team X's
    first group sits in seats 0, 2, 4 and team Y's in 1, 3, 5; at table 2 the second groups sit the other
    way round, so each team holds each side of every deal once.  Seat 0 leads every deal (000 比赛规则:
    桌子1号首先出牌).  Places score 6..1 small points; after ``deals`` deals the team with more small
    points wins 3 match points, a draw gives 1 each.
    """

    def __init__(
        self,
        rules: RuleSet | str | None = "tournament",
        seed: int | str | None = None,
        deals: int = 4,
        teams: tuple[str, str] = ("X", "Y"),
    ) -> None:
        self.rules = resolve(rules)
        self.seed: int | str = _new_seed() if seed is None else seed
        if deals < 1:
            raise ValueError(f"a tournament match has at least one deal, not {deals}")
        self.n_deals = deals
        self.teams = teams
        self.tables: list[tuple[Deal, Deal]] = []
        self._start_deal()

    def deal_seed(self, index: int) -> str:
        """The seed of deal ``index`` (0-based)."""
        return f"{self.seed}/{index}"

    def _start_deal(self) -> None:
        seed = self.deal_seed(len(self.tables))
        self.tables.append((Deal.new(self.rules, seed=seed, leader=0), Deal.new(self.rules, seed=seed, leader=0)))

    @staticmethod
    def team_at(table: int, seat: int) -> int:
        """Which team (0 = X, 1 = Y) sits in ``seat`` at ``table`` (0 or 1)."""
        return team(seat) if table == 0 else 1 - team(seat)

    @property
    def current(self) -> tuple[Deal, Deal]:
        """The deal being played, at table 1 and table 2."""
        return self.tables[-1]

    @property
    def is_over(self) -> bool:
        """Whether every deal has been played at both tables."""
        return len(self.tables) == self.n_deals and all(d.is_over for d in self.current)

    def act(self, table: int, action: str | Action, seat: int | None = None) -> None:
        """Act at ``table`` (0 or 1) in the current deal; once both tables finish it, deal the next."""
        if table not in (0, 1):
            raise IllegalAction(f"table must be 0 or 1, not {table}")
        self.current[table].act(action, seat=seat)
        if all(d.is_over for d in self.current) and len(self.tables) < self.n_deals:
            self._start_deal()

    def small_points(self) -> list[tuple[int, int]]:
        """(team X, team Y) small points of every finished deal (both tables)."""
        out = []
        for pair in self.tables:
            if not all(d.is_over for d in pair):
                continue
            pts = [0, 0]
            for t, deal in enumerate(pair):
                for place, seat in enumerate(deal.result()["places"]):
                    pts[self.team_at(t, seat)] += TOURNAMENT_POINTS[place]
            out.append((pts[0], pts[1]))
        return out

    @property
    def totals(self) -> tuple[int, int]:
        """Small points so far, (X, Y)."""
        sp = self.small_points()
        return (sum(p[0] for p in sp), sum(p[1] for p in sp))

    def match_points(self) -> tuple[int, int]:
        """3/1/0 match points, (X, Y); only meaningful once the match is over."""
        x, y = self.totals
        return (3, 0) if x > y else (0, 3) if y > x else (1, 1)

    def run_bots(self, bot_x: Any, bot_y: Any, rng: random.Random) -> None:
        """Play the rest of the match with bots: ``bot_x`` decides for every seat of team X, ``bot_y`` for
        team Y (a bot decides from one seat's view only, so one bot object can play many seats)."""
        from .bots import decide

        while not self.is_over:
            for t in (0, 1):
                deal = self.current[t]
                while deal.to_act is not None:
                    bot = bot_x if self.team_at(t, deal.to_act) == 0 else bot_y
                    self.act(t, decide(bot, deal, rng))

    def result_table(self) -> list[dict[str, Any]]:
        """One row per deal: places at both tables (as team letters) and each team's small points."""
        rows = []
        for k, (pts, pair) in enumerate(zip(self.small_points(), self.tables, strict=False)):
            rows.append(
                {
                    "deal": k + 1,
                    "tables": [
                        [self.teams[self.team_at(t, s)] + str(s) for s in pair[t].result()["places"]] for t in (0, 1)
                    ],
                    "points": list(pts),
                }
            )
        return rows

    def record(self) -> dict[str, Any]:
        """The match as a record: rules, seeds, every decision at both tables, results, checksum."""
        deals = []
        for k, pair in enumerate(self.tables):
            deals.append(
                {
                    "seed": self.deal_seed(k),
                    "tables": [
                        {"actions": _actions(d), **({"places": d.result()["places"]} if d.is_over else {})}
                        for d in pair
                    ],
                }
            )
        body = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "kind": "tournament",
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "deals_in_match": self.n_deals,
            "teams": list(self.teams),
            "deals": deals,
            "totals": list(self.totals),
            "match_points": list(self.match_points()) if self.is_over else None,
        }
        return _sign(body)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Tournament:
        """Replay a tournament record; raises :class:`RecordError` if it is corrupt or does not replay."""
        body = _check(record, "tournament")
        teams = body.get("teams", ["X", "Y"])
        t = cls(
            RuleSet.from_dict(body["rules"]),
            seed=body["seed"],
            deals=body["deals_in_match"],
            teams=(teams[0], teams[1]),
        )
        deals = body["deals"]
        if not isinstance(deals, list) or not 1 <= len(deals) <= t.n_deals:
            raise RecordError("the record's deals are not a list of at most the match's deals")
        for k, entry in enumerate(deals):
            if len(t.tables) != k + 1:
                raise RecordError(f"deal {k + 1}: the previous deal did not end at both tables")
            if entry.get("seed") != t.deal_seed(k):
                raise RecordError(f"deal {k + 1}: its seed is not the match's ({t.deal_seed(k)!r})")
            tables = entry.get("tables")
            if not isinstance(tables, list) or len(tables) != 2:
                raise RecordError(f"deal {k + 1}: a tournament deal is played at two tables")
            for table in (0, 1):
                deal = t.tables[k][table]

                def act(text: str, seat: int, table: int = table) -> None:
                    t.act(table, text, seat=seat)

                _replay_actions(tables[table], k, act, deal)
                _check_result(tables[table], deal, k)
        if list(t.totals) != body["totals"]:
            raise RecordError(f"the totals {body['totals']} are not what the deals give ({list(t.totals)})")
        if t.is_over and body.get("match_points") != list(t.match_points()):
            raise RecordError("the match points are not what the deals give")
        return t


# ---------------------------------------------------------------------------------------------- records


def _actions(deal: Deal) -> list[list[Any]]:
    return [[e["seat"], e["action"]] for e in deal.events if e["type"] == "act"]


def _canonical(body: Mapping[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _sign(body: dict[str, Any]) -> dict[str, Any]:
    body["checksum"] = "sha256:" + hashlib.sha256(_canonical(body)).hexdigest()
    return body


def _check(record: Mapping[str, Any], kind: str) -> dict[str, Any]:
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a gouji record (format {record.get('format')!r}, expected {RECORD_FORMAT!r})")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported (this is {RECORD_VERSION})")
    if record.get("kind") != kind:
        raise RecordError(f"this is a {record.get('kind')!r} record, not a {kind!r} one")
    body = {k: v for k, v in record.items() if k != "checksum"}
    want = "sha256:" + hashlib.sha256(_canonical(body)).hexdigest()
    if record.get("checksum") != want:
        raise RecordError("the record's checksum does not match its content: it is corrupt or was altered")
    try:
        check_record(body, kind)  # every field present and of its type, before anything replays
    except RecordShapeError as e:
        raise RecordError(str(e)) from None
    return body


def _replay_actions(entry: Mapping[str, Any], index: int, act: Callable[[str, int], None], deal: Deal) -> None:
    actions = entry.get("actions")
    if not isinstance(actions, list):
        raise RecordError(f"deal {index + 1}: no list of actions")
    for n, item in enumerate(actions):
        try:
            seat, text = item
            act(text, seat)
        except (IllegalAction, TypeError, ValueError) as e:
            raise RecordError(f"deal {index + 1}, decision {n + 1} ({item!r}) does not replay: {e}") from None
    if "places" in entry and not deal.is_over:
        raise RecordError(f"deal {index + 1}: the record says it ended but its decisions do not end it")


def _check_result(entry: Mapping[str, Any], deal: Deal, index: int, points: tuple[int, int] | None = None) -> None:
    if not deal.is_over:
        if "places" in entry:
            raise RecordError(f"deal {index + 1} did not end")
        return
    if entry.get("places") != deal.result()["places"]:
        raise RecordError(f"deal {index + 1}: the places {entry.get('places')} are not what the decisions give")
    if points is not None and entry.get("points") != list(points):
        raise RecordError(f"deal {index + 1}: the points {entry.get('points')} are not what the places give")


def load_record(data: Mapping[str, Any] | str | bytes) -> Match | Tournament:
    """A set or tournament from its record (a dict or JSON text), replayed and checked."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
            raise RecordError(f"the record is not valid JSON: {e}") from None
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a gouji record (format {data.get('format')!r}, expected {RECORD_FORMAT!r})")
    kind = data.get("kind")
    if kind == "set":
        return Match.from_record(data)
    if kind == "tournament":
        return Tournament.from_record(data)
    raise RecordError(f"unknown record kind {kind!r}: expected 'set' or 'tournament'")


__all__ = ["SEATS", "Match", "RecordError", "Tournament", "load_record"]
