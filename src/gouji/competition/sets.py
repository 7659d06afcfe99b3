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
import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import orjson

from ..engine.actions import PASS, Action, Burn, parse_action
from ..engine.deal import Deal, IllegalAction
from ..engine.plays import Play
from ..engine.rule_bounds import check_value
from ..engine.rules import RuleSet, resolve
from ..engine.scoring import TOURNAMENT_POINTS, team_points
from ..engine.seats import SEATS, team
from ..engine.tribute import Payment, owed
from .record_schema import RecordShapeError, check_record

RECORD_FORMAT = "gouji-record"
RECORD_VERSION = 1
"""The version of set records."""
TOURNAMENT_RECORD_VERSION = 2
"""The version of tournament records: 2 adds, for each table of each deal, the team in every seat and the
hands as dealt, so the duplicate property can be checked from the record alone.  Version 1 records (without
them) still load."""
READABLE_VERSIONS = {"set": (1,), "tournament": (1, 2), "event": (1,)}
"""The record versions this code reads, by kind (``event`` records are read by :mod:`gouji.competition.round_robin`)."""


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
        rest = _canonical(body)
        return b"".join((b'{"deals":[', b",".join(texts), b"]", rest[len(_NO_DEALS) :]))

    def _deal_entry(self, i: int, deal: Deal) -> tuple[dict[str, Any], bytes]:
        """Deal ``i``'s entry in the set's record and its canonical text, which a finished deal keeps (a set's
        record is made again as each of its deals ends; the text is the costly part, and a seventh of the
        entry's memory)."""
        first = deal.events[0]
        entry: dict[str, Any] = {
            "seed": first["seed"],
            "leader": first["leader"],
            "tribute": first["tribute"],
            "actions": _actions(deal),
        }
        if not deal.is_over:
            return entry, _entry_text(entry)
        entry["places"] = deal.result()["places"]
        entry["points"] = list(self.points[i])
        text = self._texts.get(i)
        if text is None:
            text = self._texts[i] = _entry_text(entry)
        return entry, text

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


class TournamentTable(Match):
    """One table of a duplicate match played on its own: deal ``k`` is dealt from ``f"{seed}/{k}"`` (the same
    cards as :class:`Tournament` deals at both tables), seat 0 leads every deal, no tribute, and ``points``
    are the small points (6..1) of seats 0, 2, 4 and of seats 1, 3, 5 at this table.

    The server plays the two tables of a match as two of these (each may run a deal ahead of the other while
    its players wait); :meth:`Tournament.from_tables` puts them together for scoring and the record."""

    def __init__(self, rules: RuleSet | str | None, seed: int | str, deals: int, table: int) -> None:
        if table not in (0, 1):
            raise ValueError(f"a duplicate match has tables 0 and 1, not {table}")
        self.table = table
        super().__init__(rules, seed=seed, set_length=deals)

    def _start_deal(self) -> None:
        self.deals.append(Deal.new(self.rules, seed=self.deal_seed(len(self.deals)), leader=0))

    def act(self, action: str | Action, seat: int | None = None) -> None:
        """Act in the current deal; when it ends, score its small points and deal the next."""
        deal = self.current
        deal.act(action, seat=seat)
        if deal.is_over:
            pts = [0, 0]
            for place, s in enumerate(deal.result()["places"]):
                pts[s % 2] += TOURNAMENT_POINTS[place]
            self.points.append((pts[0], pts[1]))
            if len(self.deals) < self.set_length:
                self._start_deal()

    def record(self, upto: int | None = None) -> dict[str, Any]:
        """A table alone has no record of its own: its match's (:meth:`Tournament.from_tables`) holds it."""
        raise RecordError("one table of a duplicate match is recorded with the match: Tournament.from_tables")


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

    @classmethod
    def from_tables(
        cls, one: TournamentTable, two: TournamentTable, teams: tuple[str, str] = ("X", "Y"), finished: bool = False
    ) -> Tournament:
        """The match of two tables played on their own, with the deals both have finished (and, unless
        ``finished``, the deal in progress when neither has finished it: then both are at the same deal).
        The deals are shared with the tables, not copied: read the result, do not act on it."""
        if (one.table, two.table) != (0, 1) or one.seed != two.seed or one.rules != two.rules:
            raise ValueError("these are not the two tables of one match")
        if one.set_length != two.set_length:
            raise ValueError("the two tables do not play the same number of deals")
        done = min(len(one.points), len(two.points))
        pairs = [(one.deals[k], two.deals[k]) for k in range(done)]
        if not finished and done < one.set_length and len(one.deals) == len(two.deals) == done + 1:
            pairs.append((one.deals[done], two.deals[done]))
        if not pairs:  # nothing played yet: a fresh match
            return cls(one.rules, seed=one.seed, deals=one.set_length, teams=teams)
        t = cls.__new__(cls)  # the tables' deals, without dealing a first pair anew
        t.rules, t.seed, t.n_deals, t.teams, t.tables = one.rules, one.seed, one.set_length, teams, pairs
        return t

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
        from ..bots import decide

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
                    "tables": [self._table_entry(t, d) for t, d in enumerate(pair)],
                }
            )
        body = {
            "format": RECORD_FORMAT,
            "version": TOURNAMENT_RECORD_VERSION,
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

    def seat_teams(self, table: int) -> list[str]:
        """The team (by name) in each seat 0-5 at ``table`` (0 or 1)."""
        return [self.teams[self.team_at(table, s)] for s in range(SEATS)]

    def _table_entry(self, table: int, deal: Deal) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "teams": self.seat_teams(table),
            "hands": list(deal.events[0]["hands"]),
            "actions": _actions(deal),
        }
        if deal.is_over:
            entry["places"] = deal.result()["places"]
        return entry

    def comparison(self) -> list[dict[str, Any]]:
        """The duplicate comparison (比较), deal by deal: what each team did with the same cards.

        For every finished deal, one entry per hand (seat 0-5, the same cards at both tables) with, at each
        table, the team that held it, its place (1 = 头科), small points, and how many plays, passes and
        burns it made; and one entry per side of the deal (the hands of seats 0, 2, 4 and of seats 1, 3, 5)
        with the small points each team scored holding that side, and team X's margin over team Y with it.
        """
        out = []
        for k, pair in enumerate(self.tables):
            if not all(d.is_over for d in pair):
                continue
            hands: list[dict[str, Any]] = []
            for seat in range(SEATS):
                hands.append(
                    {
                        "seat": seat,
                        "tables": [_seat_summary(pair[t], seat, self.teams[self.team_at(t, seat)]) for t in (0, 1)],
                    }
                )
            sides = []
            for first in (0, 1):
                seats = [first, first + 2, first + 4]
                by_team = [0, 0]
                for t in (0, 1):
                    by_team[self.team_at(t, first)] = sum(hands[s]["tables"][t]["points"] for s in seats)
                sides.append({"seats": seats, "points": by_team, "margin": by_team[0] - by_team[1]})
            out.append({"deal": k + 1, "hands": hands, "sides": sides})
        return out

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

                _check_table(tables[table], t, table, k, body["version"])
                _replay_actions(tables[table], k, act, deal)
                _check_result(tables[table], deal, k)
        if list(t.totals) != body["totals"]:
            raise RecordError(f"the totals {body['totals']} are not what the deals give ({list(t.totals)})")
        if t.is_over and body.get("match_points") != list(t.match_points()):
            raise RecordError("the match points are not what the deals give")
        return t


# ---------------------------------------------------------------------------------------------- records


def _seat_summary(deal: Deal, seat: int, team_name: str) -> dict[str, Any]:
    """One seat's part of a finished deal: place (1-6), small points and what it did."""
    place = deal.result()["places"].index(seat)
    plays = passes = burns = 0
    for e in deal.events:
        if e["type"] == "act" and e["seat"] == seat:
            action = parse_action(e["action"])
            passes += action is PASS
            plays += isinstance(action, Play)
            burns += isinstance(action, Burn)
    return {
        "team": team_name,
        "place": place + 1,
        "points": TOURNAMENT_POINTS[place],
        "plays": plays,
        "passes": passes,
        "burns": burns,
    }


def _check_table(entry: Mapping[str, Any], t: Tournament, table: int, index: int, version: int) -> None:
    """A version 2 table entry names the team in each seat and the hands as dealt: both must be the match's."""
    if version < 2:
        return
    if entry.get("teams") != t.seat_teams(table):
        raise RecordError(f"deal {index + 1}, table {table + 1}: its seats' teams are not the match's")
    if entry.get("hands") != list(t.tables[index][table].events[0]["hands"]):
        raise RecordError(f"deal {index + 1}, table {table + 1}: its hands are not what the deal's seed gives")


def _actions(deal: Deal) -> list[list[Any]]:
    return [[e["seat"], e["action"]] for e in deal.events if e["type"] == "act"]


def _canonical(body: Mapping[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _entry_text(entry: Mapping[str, Any]) -> bytes:
    """A deal entry's canonical text (:func:`_canonical`'s bytes), written by orjson, ten times as fast as
    the standard library: an entry holds only strings, integers, booleans, nulls, lists and objects with
    string keys, which both write alike (tests/test_match.py checks it for every preset); an integer beyond
    64 bits, which orjson refuses, goes the standard way.  Copied to its own size: a finished deal keeps its
    text, and orjson's bytes keep the buffer it wrote them in (32 KiB for a 2 KB entry)."""
    try:
        return bytes(memoryview(orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)))
    except TypeError:
        return _canonical(entry)


_NO_DEALS = b'{"deals":[]'
"""The start of a set record's canonical text without its deals."""


def _sign(body: dict[str, Any]) -> dict[str, Any]:
    body["checksum"] = "sha256:" + hashlib.sha256(_canonical(body)).hexdigest()
    return body


def _check(record: Mapping[str, Any], kind: str) -> dict[str, Any]:
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a gouji record (format {record.get('format')!r}, expected {RECORD_FORMAT!r})")
    if record.get("kind") != kind:
        raise RecordError(f"this is a {record.get('kind')!r} record, not a {kind!r} one")
    versions = READABLE_VERSIONS[kind]
    if record.get("version") not in versions:
        readable = ", ".join(map(str, versions))
        raise RecordError(f"{kind} record version {record.get('version')!r} is not supported (this reads {readable})")
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
    if kind == "event":
        raise RecordError("this is an event record: read it with gouji.competition.round_robin.Event.from_record")
    raise RecordError(f"unknown record kind {kind!r}: expected 'set' or 'tournament'")


__all__ = ["SEATS", "Match", "RecordError", "Tournament", "TournamentTable", "load_record"]
