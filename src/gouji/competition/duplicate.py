"""The duplicate match of 比赛规则 (rule book §13): two teams of six in two groups of three, two tables,
every deal played at both with the same cards and the teams swapped; small points 6..1, match points 3/1/0.

The server plays the two tables as two :class:`TournamentTable` sets; :class:`Tournament` holds both."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..engine.actions import PASS, Action, Burn, parse_action
from ..engine.deal import Deal, IllegalAction
from ..engine.players import decide
from ..engine.plays import Play
from ..engine.rules import RuleSet, resolve
from ..engine.scoring import TOURNAMENT_POINTS
from ..engine.seats import SEATS, team
from .records import (
    RECORD_FORMAT,
    TOURNAMENT_RECORD_VERSION,
    RecordError,
    check_record_body,
    check_result,
    deal_actions,
    new_seed,
    replay_actions,
    sign,
)
from .sets import Match


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
        self.seed: int | str = new_seed() if seed is None else seed
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
        return [self.deal_points(k) for k, pair in enumerate(self.tables) if all(d.is_over for d in pair)]

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
        team Y (a bot decides from one seat's view only, so one bot object can play many seats).  A team's
        bots may also be a list of three, its seats: the ``k``-th plays seat ``2k`` or ``2k + 1`` (the one the
        team holds) at both tables."""
        while not self.is_over:
            for t in (0, 1):
                deal = self.current[t]
                while deal.to_act is not None:
                    seat = deal.to_act
                    bot = bot_x if self.team_at(t, seat) == 0 else bot_y
                    if isinstance(bot, list | tuple):
                        bot = bot[seat // 2]
                    self.act(t, decide(bot, deal, rng))

    def result_table(self) -> list[dict[str, Any]]:
        """One row per deal: places at both tables (as team letters) and each team's small points."""
        return [self.result_row(k) for k in range(len(self.small_points()))]

    def result_row(self, k: int) -> dict[str, Any]:
        """Deal ``k``'s row of :meth:`result_table` (a deal finished at both tables)."""
        pair = self.tables[k]
        return {
            "deal": k + 1,
            "tables": [[self.teams[self.team_at(t, s)] + str(s) for s in pair[t].result()["places"]] for t in (0, 1)],
            "points": list(self.deal_points(k)),
        }

    def deal_points(self, k: int) -> tuple[int, int]:
        """(team X, team Y) small points of deal ``k`` (finished at both tables)."""
        pts = [0, 0]
        for t, deal in enumerate(self.tables[k]):
            for place, seat in enumerate(deal.result()["places"]):
                pts[self.team_at(t, seat)] += TOURNAMENT_POINTS[place]
        return (pts[0], pts[1])

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
        return sign(body)

    def seat_teams(self, table: int) -> list[str]:
        """The team (by name) in each seat 0-5 at ``table`` (0 or 1)."""
        return [self.teams[self.team_at(table, s)] for s in range(SEATS)]

    def _table_entry(self, table: int, deal: Deal) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "teams": self.seat_teams(table),
            "hands": list(deal.events[0]["hands"]),
            "actions": deal_actions(deal),
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
        return [self.comparison_entry(k) for k, pair in enumerate(self.tables) if all(d.is_over for d in pair)]

    def comparison_entry(self, k: int) -> dict[str, Any]:
        """Deal ``k``'s entry of :meth:`comparison` (a deal finished at both tables)."""
        pair = self.tables[k]
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
        return {"deal": k + 1, "hands": hands, "sides": sides}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Tournament:
        """Replay a tournament record; raises :class:`RecordError` if it is corrupt or does not replay."""
        body = check_record_body(record, "tournament")
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
                replay_actions(tables[table], k, act, deal)
                check_result(tables[table], deal, k)
        if list(t.totals) != body["totals"]:
            raise RecordError(f"the totals {body['totals']} are not what the deals give ({list(t.totals)})")
        if t.is_over and body.get("match_points") != list(t.match_points()):
            raise RecordError("the match points are not what the deals give")
        return t


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
