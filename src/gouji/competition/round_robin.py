"""Events of several teams (rule book §16.4): a round robin of duplicate matches, and standings.

000 比赛规则: 胜一场积大比分3分，平为1分，负者0分。出现相同积分，看胜负关系。 An :class:`Event` schedules every team
against every other once (:func:`round_robin`; with an odd number of teams one team sits out each round, a
bye, which scores nothing); each fixture is a :class:`~gouji.competition.sets.Tournament` (two tables, the same cards,
teams swapped) whose seed follows from the event's seed, so an event replays exactly.

The standings (:func:`standings`) rank the teams by match points (3 win / 1 draw / 0 loss).  Teams level on
match points are separated by **the result between them**: the match points each scored in the matches
among the tied teams only (head-to-head, over all the tied teams at once).  Teams still level are separated
by their **small points** (小分) over all their matches.  Whenever a criterion splits a group, every part
that is still tied starts again from head-to-head among its own members (so a three-way tie that small points
cut to two teams is settled between those two by the match they played).  Teams that nothing separates
share the place.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.rules import RuleSet, resolve
from .duplicate import Tournament
from .records import RECORD_FORMAT, RecordError, check_record_body, new_seed, sign

MAX_TEAMS = 16
MAX_TEAM_NAME = 24


class EventError(ValueError):
    """An event that cannot be made, or a result that does not belong to it."""


@dataclass(frozen=True)
class Fixture:
    """A match of the schedule: in round ``round`` (1-based), team ``x`` (甲队, listed first) against ``y``."""

    round: int
    index: int
    """Its place in the round (0-based)."""
    x: str
    y: str

    @property
    def key(self) -> str:
        """A short name for the fixture: ``"r2m1"`` is round 2, match 1."""
        return f"r{self.round}m{self.index + 1}"

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "round": self.round, "index": self.index, "x": self.x, "y": self.y}


@dataclass(frozen=True)
class MatchResult:
    """The small points of a finished match, (x, y); match points follow (3/1/0)."""

    x_points: int
    y_points: int

    @property
    def match_points(self) -> tuple[int, int]:
        x, y = self.x_points, self.y_points
        return (3, 0) if x > y else (0, 3) if y > x else (1, 1)


def check_teams(teams: Sequence[str]) -> list[str]:
    """Team names: 2 to 16 distinct names of 1-24 printable characters (no commas); raises :class:`EventError`."""
    if isinstance(teams, str) or not isinstance(teams, Sequence):
        raise EventError("teams must be a list of team names")
    names = [t.strip() if isinstance(t, str) else t for t in teams]
    for name in names:
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_TEAM_NAME or not name.isprintable() or "," in name:
            raise EventError(f"a team name is 1-{MAX_TEAM_NAME} printable characters without a comma, not {name!r}")
    if len(set(names)) != len(names):
        raise EventError("two teams have the same name")
    if not 2 <= len(names) <= MAX_TEAMS:
        raise EventError(f"an event has 2 to {MAX_TEAMS} teams, not {len(names)}")
    return names


def round_robin(teams: Sequence[str]) -> list[list[Fixture]]:
    """Every team against every other once, in rounds (the circle method).

    With ``n`` teams there are ``n - 1`` rounds of ``n / 2`` matches when ``n`` is even, and ``n`` rounds of
    ``(n - 1) / 2`` matches when it is odd (each team then has one bye).  The first-listed team (甲队) of a
    fixture is the one listed first less often so far, so each team is 甲队 in about half of its matches."""
    names = check_teams(teams)
    circle: list[str | None] = list(names) + ([None] if len(names) % 2 else [])
    n = len(circle)
    rounds = []
    first = dict.fromkeys(names, 0)
    for r in range(n - 1):
        fixtures: list[Fixture] = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None or b is None:
                continue
            if first[a] > first[b] or (first[a] == first[b] and r % 2):
                a, b = b, a
            first[a] += 1
            fixtures.append(Fixture(r + 1, len(fixtures), a, b))
        rounds.append(fixtures)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def byes(teams: Sequence[str], fixtures: Iterable[Fixture]) -> list[str]:
    """The teams that play in none of ``fixtures`` (a round's bye)."""
    playing = {t for f in fixtures for t in (f.x, f.y)}
    return [t for t in teams if t not in playing]


@dataclass
class Standing:
    """A team's line of the standings."""

    team: str
    rank: int
    """1-based; teams that nothing separates share a rank."""
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: int = 0
    small_points: int = 0
    small_against: int = 0
    decided_by: str | None = None
    """What placed the team against those level with it on match points: ``"head-to-head"``,
    ``"small points"``, ``"tied"`` (nothing did), or None (no team had its match points)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "team": self.team,
            "rank": self.rank,
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "match_points": self.match_points,
            "small_points": self.small_points,
            "small_against": self.small_against,
            "decided_by": self.decided_by,
        }


def standings(teams: Sequence[str], results: Iterable[tuple[Fixture, MatchResult]]) -> list[Standing]:
    """The standings after ``results``: by match points, then head-to-head among the tied, then small points."""
    played = list(results)
    rows = {t: Standing(t, 0) for t in teams}
    for f, r in played:
        for name, mine, theirs, mp in (
            (f.x, r.x_points, r.y_points, r.match_points[0]),
            (f.y, r.y_points, r.x_points, r.match_points[1]),
        ):
            row = rows[name]
            row.played += 1
            row.match_points += mp
            row.small_points += mine
            row.small_against += theirs
            row.won += mp == 3
            row.drawn += mp == 1
            row.lost += mp == 0

    def head_to_head(group: Sequence[str]) -> dict[str, int]:
        members = set(group)
        points = dict.fromkeys(group, 0)
        for f, r in played:
            if f.x in members and f.y in members:
                points[f.x] += r.match_points[0]
                points[f.y] += r.match_points[1]
        return points

    def order(group: list[str], decided: dict[str, str]) -> list[list[str]]:
        """``group`` (level on match points) in order, as a list of classes that nothing separates."""
        if len(group) == 1:
            return [group]
        h2h = head_to_head(group)
        for name, key in (("head-to-head", h2h), ("small points", {t: rows[t].small_points for t in group})):
            parts = _split(group, key)
            if len(parts) > 1:
                for t in group:
                    decided[t] = name
                return [c for part in parts for c in order(part, decided)]
        for t in group:
            decided[t] = "tied"
        return [sorted(group)]

    decided: dict[str, str] = {}
    classes = []
    for level in _split(list(teams), {t: rows[t].match_points for t in teams}):
        classes.extend(order(level, decided))
    out = []
    rank = 1
    for cls in classes:
        for t in cls:
            row = rows[t]
            row.rank = rank
            row.decided_by = decided.get(t)
            out.append(row)
        rank += len(cls)
    return out


def _split(group: list[str], key: Mapping[str, int]) -> list[list[str]]:
    """``group`` in classes of equal ``key``, highest first (each class keeps the order of ``group``)."""
    values = sorted({key[t] for t in group}, reverse=True)
    return [[t for t in group if key[t] == v] for v in values]


class Event:
    """A round-robin event of duplicate matches between ``teams``.

    ``match(fixture)`` makes the fixture's :class:`~gouji.competition.sets.Tournament` (the same one every time: its
    seed is the event's seed, the round and the match); ``record_result`` enters a finished one;
    ``standings()`` ranks the teams by what has been entered so far."""

    def __init__(
        self,
        teams: Sequence[str],
        rules: RuleSet | str | None = "tournament",
        seed: int | str | None = None,
        deals: int = 4,
    ) -> None:
        self.teams = check_teams(teams)
        self.rules = resolve(rules)
        self.seed: int | str = new_seed() if seed is None else seed
        if not isinstance(deals, int) or isinstance(deals, bool) or not 1 <= deals <= 20:
            raise EventError(f"a match of an event has 1 to 20 deals, not {deals!r}")
        self.deals = deals
        self.rounds = round_robin(self.teams)
        self.results: dict[str, MatchResult] = {}

    @property
    def fixtures(self) -> list[Fixture]:
        return [f for r in self.rounds for f in r]

    def fixture(self, key: str) -> Fixture:
        """The fixture named ``key`` (``"r1m2"``); raises :class:`EventError`."""
        for f in self.fixtures:
            if f.key == key:
                return f
        raise EventError(f"no match {key!r} in this event")

    def match_seed(self, fixture: Fixture) -> str:
        return f"{self.seed}/{fixture.key}"

    def match(self, fixture: Fixture) -> Tournament:
        """The fixture's duplicate match, not yet played."""
        return Tournament(self.rules, seed=self.match_seed(fixture), deals=self.deals, teams=(fixture.x, fixture.y))

    def record_result(self, fixture: Fixture, match: Tournament) -> MatchResult:
        """Enter a finished match of ``fixture``; raises :class:`EventError` if it is not that fixture's."""
        if fixture not in self.fixtures:
            raise EventError(f"match {fixture.key} is not in this event")
        if not match.is_over:
            raise EventError(f"match {fixture.key} is not over")
        if match.teams != (fixture.x, fixture.y) or match.seed != self.match_seed(fixture):
            raise EventError(f"this is not match {fixture.key} of the event ({fixture.x} against {fixture.y})")
        if match.rules != self.rules or match.n_deals != self.deals:
            raise EventError(f"match {fixture.key} was not played under the event's rules and deals")
        x, y = match.totals
        return self.enter_result(fixture, MatchResult(x, y))

    def enter_result(self, fixture: Fixture, result: MatchResult) -> MatchResult:
        """Enter the result of ``fixture`` played elsewhere (a match of people on the server, whose seed is
        its own); raises :class:`EventError` for a fixture not of this event or already entered."""
        if fixture not in self.fixtures:
            raise EventError(f"match {fixture.key} is not in this event")
        if fixture.key in self.results:
            raise EventError(f"match {fixture.key} has its result already")
        self.results[fixture.key] = result
        return result

    def standings(self) -> list[Standing]:
        return standings(self.teams, [(self.fixture(k), r) for k, r in self.results.items()])

    @property
    def is_over(self) -> bool:
        return len(self.results) == len(self.fixtures)

    def summary(self) -> dict[str, Any]:
        """The schedule round by round (with each result, byes), and the standings."""
        rounds: list[dict[str, Any]] = []
        for r in self.rounds:
            matches = []
            for f in r:
                d = f.to_dict()
                res = self.results.get(f.key)
                d["small_points"] = None if res is None else [res.x_points, res.y_points]
                d["match_points"] = None if res is None else list(res.match_points)
                matches.append(d)
            rounds.append(
                {"round": r[0].round if r else len(rounds) + 1, "matches": matches, "byes": byes(self.teams, r)}
            )
        return {
            "teams": self.teams,
            "rules": self.rules.name,
            "deals": self.deals,
            "rounds": rounds,
            "standings": [s.to_dict() for s in self.standings()],
            "over": self.is_over,
        }

    def play_bots(
        self,
        bots: Mapping[str, Any],
        rng: Callable[[Fixture], random.Random] | None = None,
        done: Callable[[Fixture, Tournament], None] | None = None,
    ) -> list[Tournament]:
        """Play every match not yet entered with bots (``bots[team]`` decides for all six of a team's seats)
        and enter it; ``done`` is told of each finished match.  Returns the matches played."""
        played = []
        for f in self.fixtures:
            if f.key in self.results:
                continue
            m = self.play_fixture(f, bots, rng(f) if rng else random.Random(f"event {self.seed}/{f.key}"))
            played.append(m)
            if done is not None:
                done(f, m)
        return played

    def play_fixture(
        self, fixture: Fixture, bots: Mapping[str, Any], rng: random.Random, enter: bool = True
    ) -> Tournament:
        """Play ``fixture``'s match with bots (``bots[team]`` for all six seats of a team, or a list of three:
        its seats, as :meth:`Tournament.run_bots` takes them) and, with ``enter``, enter its result."""
        m = self.match(fixture)
        m.run_bots(bots[fixture.x], bots[fixture.y], rng)
        if enter:
            self.record_result(fixture, m)
        return m

    def record(self, matches: Mapping[str, Tournament]) -> dict[str, Any]:
        """The event as a record: its teams, rules, seed and deals, and the records of the finished matches."""

        body = {
            "format": RECORD_FORMAT,
            "version": 1,
            "kind": "event",
            "teams": self.teams,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "deals": self.deals,
            "matches": {k: matches[k].record() for k in self.results if k in matches},
        }
        return sign(body)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> tuple[Event, dict[str, Tournament]]:
        """An event and its matches from its record, every match replayed and checked."""

        body = check_record_body(record, "event")
        try:
            event = cls(body["teams"], RuleSet.from_dict(body["rules"]), seed=body["seed"], deals=body["deals"])
        except (KeyError, TypeError, ValueError) as e:
            raise RecordError(f"the event record cannot be read: {e}") from None
        matches = {}
        for key, rec in dict(body.get("matches", {})).items():
            try:
                m = Tournament.from_record(rec)
                event.record_result(event.fixture(key), m)
            except EventError as e:
                raise RecordError(f"match {key}: {e}") from None
            matches[key] = m
        return event, matches


__all__ = ["Event", "EventError", "Fixture", "MatchResult", "Standing", "byes", "round_robin", "standings"]
