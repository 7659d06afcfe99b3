"""Events of several teams: the round robin, the standings and every tie-break (rule book §16.4)."""

from __future__ import annotations

import copy
import itertools
import json

import pytest

from gouji.bots import RandomBot
from gouji.competition.records import RecordError, sign
from gouji.competition.round_robin import Event, EventError, Fixture, MatchResult, byes, round_robin, standings


def results(*rows: tuple[str, str, int, int]) -> list[tuple[Fixture, MatchResult]]:
    return [(Fixture(1, i, x, y), MatchResult(sx, sy)) for i, (x, y, sx, sy) in enumerate(rows)]


def table(teams: list[str], rows: list[tuple[Fixture, MatchResult]]) -> list[tuple[str, int, str | None]]:
    return [(s.team, s.rank, s.decided_by) for s in standings(teams, rows)]


# ------------------------------------------------------------------------------ the schedule


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_round_robin_plays_every_pair_once(n: int) -> None:
    teams = [f"T{i}" for i in range(n)]
    rounds = round_robin(teams)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    pairs = [frozenset((f.x, f.y)) for r in rounds for f in r]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, itertools.combinations(teams, 2))))
    for r in rounds:
        playing = [t for f in r for t in (f.x, f.y)]
        assert len(playing) == len(set(playing)), "no team plays twice in a round"
        assert len(byes(teams, r)) == n % 2, "one bye a round when the number of teams is odd"
    if n % 2:
        assert sorted(t for r in rounds for t in byes(teams, r)) == teams, "each team sits out exactly once"
    first = {t: sum(f.x == t for r in rounds for f in r) for t in teams}
    assert all(abs(2 * first[t] - (n - 1)) <= 2 for t in teams), first


def test_bad_teams_are_refused() -> None:
    for teams, msg in (
        (["A"], "2 to 16"),
        (["A", "A"], "same name"),
        (["A", ""], "printable"),
        (["A", "B,C"], "comma"),
        ("AB", "list"),
        ([f"T{i}" for i in range(17)], "2 to 16"),
    ):
        with pytest.raises(EventError, match=msg):
            round_robin(teams)  # type: ignore[arg-type]
    with pytest.raises(EventError, match="deals"):
        Event(["A", "B"], deals=0)


# ------------------------------------------------------------------------------ the standings


def test_standings_by_match_points_3_1_0() -> None:
    rows = results(("A", "B", 100, 68), ("C", "A", 84, 84), ("B", "C", 60, 108))
    s = standings(["A", "B", "C"], rows)
    assert [(r.team, r.match_points, r.won, r.drawn, r.lost) for r in s] == [
        ("C", 4, 1, 1, 0),
        ("A", 4, 1, 1, 0),
        ("B", 0, 0, 0, 2),
    ], "C and A drew: C has more small points"
    a = next(r for r in s if r.team == "A")
    assert (a.played, a.small_points, a.small_against) == (2, 184, 152)


def test_two_way_tie_goes_to_the_match_between_them_before_small_points() -> None:
    rows = results(
        ("A", "B", 85, 83),  # A beats B narrowly
        ("A", "C", 84, 84),
        ("B", "C", 130, 38),
        ("B", "D", 84, 84),
        ("A", "D", 70, 98),
        ("C", "D", 84, 84),
    )
    s = standings(["A", "B", "C", "D"], rows)
    assert [r.match_points for r in s] == [5, 4, 4, 2]
    b = next(r for r in s if r.team == "B")
    a = next(r for r in s if r.team == "A")
    assert b.small_points > a.small_points, "B has more small points..."
    assert table(["A", "B", "C", "D"], rows) == [
        ("D", 1, None),
        ("A", 2, "head-to-head"),  # ... but A beat B
        ("B", 3, "head-to-head"),
        ("C", 4, None),
    ]


def test_two_way_tie_with_a_drawn_match_goes_to_small_points() -> None:
    rows = results(("A", "B", 84, 84), ("A", "C", 90, 78), ("B", "C", 100, 68))
    assert table(["A", "B", "C"], rows) == [("B", 1, "small points"), ("A", 2, "small points"), ("C", 3, None)]


def test_three_way_tie_separated_by_the_matches_among_the_three() -> None:
    rows = results(
        ("A", "B", 90, 78),
        ("A", "C", 90, 78),
        ("B", "C", 90, 78),  # among A, B, C: A 6, B 3, C 0
        ("C", "D", 90, 78),
        ("C", "E", 90, 78),
        ("B", "D", 90, 78),
        ("E", "B", 90, 78),
        ("D", "A", 140, 28),
        ("E", "A", 140, 28),
        ("D", "E", 84, 84),
    )
    teams = ["A", "B", "C", "D", "E"]
    s = standings(teams, rows)
    assert [(r.team, r.match_points) for r in s][:4] == [("E", 7), ("A", 6), ("B", 6), ("C", 6)]
    small = {r.team: r.small_points for r in s}
    assert small["A"] < small["B"] == small["C"], "small points would put A last"
    assert table(teams, rows) == [
        ("E", 1, None),
        ("A", 2, "head-to-head"),
        ("B", 3, "head-to-head"),
        ("C", 4, "head-to-head"),
        ("D", 5, None),
    ]


def test_three_way_cycle_goes_to_small_points_then_head_to_head_between_the_two_left() -> None:
    rows = results(
        ("A", "B", 90, 78),  # A beats B
        ("B", "C", 85, 83),  # B beats C
        ("C", "A", 86, 82),  # C beats A: among the three, 3 each
        ("A", "D", 100, 68),
        ("B", "D", 100, 68),
        ("C", "D", 94, 74),
    )
    teams = ["A", "B", "C", "D"]
    s = standings(teams, rows)
    assert [(r.team, r.match_points, r.small_points) for r in s] == [
        ("A", 6, 272),
        ("B", 6, 263),
        ("C", 6, 263),
        ("D", 0, 210),
    ]
    assert table(teams, rows) == [
        ("A", 1, "small points"),
        ("B", 2, "head-to-head"),  # B and C level on small points too: B beat C
        ("C", 3, "head-to-head"),
        ("D", 4, None),
    ]


def test_a_tie_nothing_breaks_shares_the_place() -> None:
    assert table(["A", "B"], results(("A", "B", 84, 84))) == [("A", 1, "tied"), ("B", 1, "tied")]
    rows = results(("A", "B", 84, 84), ("B", "C", 84, 84), ("C", "A", 84, 84), ("A", "D", 100, 68))
    rows += results(("D", "B", 68, 100), ("C", "D", 100, 68))
    assert table(["D", "C", "B", "A"], rows) == [
        ("A", 1, "tied"),
        ("B", 1, "tied"),
        ("C", 1, "tied"),
        ("D", 4, None),
    ]


def test_head_to_head_that_cannot_break_a_tie_leaves_it_to_small_points() -> None:
    # A and B never met yet (mid-event): head-to-head is level at 0, small points decide
    rows = results(("A", "C", 90, 78), ("B", "C", 95, 73))
    assert table(["A", "B", "C"], rows) == [("B", 1, "small points"), ("A", 2, "small points"), ("C", 3, None)]


# ------------------------------------------------------------------------------ a whole event with bots


@pytest.fixture(scope="module")
def bot_event() -> tuple[Event, dict[str, object]]:
    ev = Event(["Red", "Blue", "Gold", "Jade", "Iron"], seed=3, deals=1)
    matches: dict[str, object] = {}
    bots = {t: RandomBot() for t in ev.teams}
    ev.play_bots(bots, done=lambda f, m: matches.__setitem__(f.key, m))
    return ev, matches


def test_a_bot_event_plays_every_match_and_ranks_the_teams(bot_event: tuple[Event, dict[str, object]]) -> None:
    ev, matches = bot_event
    assert ev.is_over and len(matches) == 10
    summary = ev.summary()
    assert [len(r["matches"]) for r in summary["rounds"]] == [2] * 5
    assert all(len(r["byes"]) == 1 for r in summary["rounds"])
    table_ = summary["standings"]
    assert sum(s["played"] for s in table_) == 20
    assert sum(s["small_points"] for s in table_) == 10 * 42, "42 small points a deal (21 at each table)"
    assert [s["match_points"] for s in table_] == sorted((s["match_points"] for s in table_), reverse=True)
    for r in summary["rounds"]:
        for m in r["matches"]:
            assert sum(m["small_points"]) == 42 and m["match_points"] in ([3, 0], [0, 3], [1, 1])


def test_the_same_seed_gives_the_same_event(bot_event: tuple[Event, dict[str, object]]) -> None:
    ev, _ = bot_event
    again = Event(ev.teams, seed=3, deals=1)
    again.play_bots({t: RandomBot() for t in ev.teams})
    assert again.summary() == ev.summary()


def test_event_record_round_trips_and_refuses_tampering(bot_event: tuple[Event, dict[str, object]]) -> None:
    ev, matches = bot_event
    rec = json.loads(json.dumps(ev.record(matches)))  # type: ignore[arg-type]
    again, replayed = Event.from_record(rec)
    assert again.summary() == ev.summary() and set(replayed) == set(matches)
    bad = copy.deepcopy(rec)
    bad["matches"]["r1m1"], bad["matches"]["r1m2"] = bad["matches"]["r1m2"], bad["matches"]["r1m1"]
    body = {k: v for k, v in bad.items() if k != "checksum"}
    with pytest.raises(RecordError, match="r1m"):
        Event.from_record(sign(body))
    bad = copy.deepcopy(rec)
    bad["teams"] = bad["teams"][:1]
    with pytest.raises(RecordError, match="checksum"):
        Event.from_record(bad)


def test_a_result_must_be_the_fixtures_own_match() -> None:
    ev = Event(["A", "B", "C", "D"], seed=1, deals=1)
    f1, f2 = ev.rounds[0]
    m = ev.match(f1)
    with pytest.raises(EventError, match="not over"):
        ev.record_result(f1, m)
    import random

    m.run_bots(RandomBot(), RandomBot(), random.Random(1))
    with pytest.raises(EventError, match="not match"):
        ev.record_result(f2, m)
    with pytest.raises(EventError, match="no match"):
        ev.fixture("r9m9")
    ev.record_result(f1, m)
    assert ev.summary()["rounds"][0]["matches"][0]["small_points"] == list(m.totals)
    with pytest.raises(EventError, match="already"):
        ev.record_result(f1, m)
    assert not ev.is_over
