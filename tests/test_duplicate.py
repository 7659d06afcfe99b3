"""The duplicate match's record (version 2): both tables, the teams in the seats, the hands as dealt; the
duplicate property read from the stored record alone; the comparison deal by deal; `gouji event`."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from gouji.bots import RandomBot
from gouji.cli import main
from gouji.competition.duplicate import Tournament
from gouji.competition.loading import load_record
from gouji.competition.records import RecordError, sign
from gouji.competition.round_robin import Event
from gouji.engine.scoring import TOURNAMENT_POINTS


@pytest.fixture(scope="module")
def played() -> Tournament:
    t = Tournament(seed=11, teams=("East", "West"))
    t.run_bots(RandomBot(), RandomBot(), random.Random(11))
    return t


def resign(body: dict) -> dict:  # type: ignore[type-arg]
    return sign({k: v for k, v in body.items() if k != "checksum"})


def test_the_stored_record_shows_the_same_cards_with_the_teams_swapped(played: Tournament, tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(played.record(), ensure_ascii=False), encoding="utf-8")
    rec = json.loads(path.read_text(encoding="utf-8"))  # read back as stored: no engine object involved
    assert rec["kind"] == "tournament" and rec["version"] == 2 and rec["teams"] == ["East", "West"]
    assert len(rec["deals"]) == 4
    for deal in rec["deals"]:
        one, two = deal["tables"]
        assert one["hands"] == two["hands"], "every hand is the same at both tables"
        assert len(one["hands"]) == 6 and all(one["hands"])
        assert one["teams"] == ["East", "West"] * 3
        assert all(a != b for a, b in zip(one["teams"], two["teams"], strict=True)), "each hand changes team"
        assert one["actions"] != two["actions"]
    hands = [d["tables"][0]["hands"] for d in rec["deals"]]
    assert len({tuple(h) for h in hands}) == 4, "each deal has its own cards"
    again = load_record(path.read_text(encoding="utf-8"))  # and the replay agrees with what is stored
    assert isinstance(again, Tournament)
    for k, pair in enumerate(again.tables):
        for t in (0, 1):
            assert pair[t].events[0]["hands"] == rec["deals"][k]["tables"][t]["hands"]


def test_a_record_whose_tables_were_dealt_differently_is_refused(played: Tournament) -> None:
    rec = played.record()
    bad = copy.deepcopy(rec)
    hands = bad["deals"][1]["tables"][1]["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    with pytest.raises(RecordError, match="hands"):
        load_record(resign(bad))
    bad = copy.deepcopy(rec)
    bad["deals"][0]["tables"][1]["teams"] = bad["deals"][0]["tables"][0]["teams"]
    with pytest.raises(RecordError, match="teams"):
        load_record(resign(bad))


def test_version_1_tournament_records_still_load(played: Tournament) -> None:
    rec = copy.deepcopy(played.record())
    rec["version"] = 1
    for deal in rec["deals"]:
        for table in deal["tables"]:
            del table["teams"], table["hands"]
    old = load_record(resign(rec))
    assert isinstance(old, Tournament) and old.totals == played.totals
    rec["version"] = 3
    with pytest.raises(RecordError, match="version 3 is not supported"):
        load_record(resign(rec))


def test_the_comparison_says_what_each_team_did_with_the_same_cards(played: Tournament) -> None:
    comp = played.comparison()
    assert [c["deal"] for c in comp] == [1, 2, 3, 4]
    for c, (x, y) in zip(comp, played.small_points(), strict=True):
        k = c["deal"] - 1
        for hand in c["hands"]:
            one, two = hand["tables"]
            assert {one["team"], two["team"]} == {"East", "West"}
            for t, side in enumerate((one, two)):
                place = played.tables[k][t].result()["places"].index(hand["seat"])
                assert side["place"] == place + 1 and side["points"] == TOURNAMENT_POINTS[place]
                assert side["plays"] >= 1 and side["passes"] >= 0 and side["burns"] >= 0
        assert sum(s["margin"] for s in c["sides"]) == x - y, "the two sides' margins make the deal's result"
        assert [s["seats"] for s in c["sides"]] == [[0, 2, 4], [1, 3, 5]]
        assert sum(sum(s["points"]) for s in c["sides"]) == 42


def test_gouji_event_plays_a_bot_event_and_prints_the_standings(tmp_path: Path) -> None:
    path = tmp_path / "event.json"
    args = ["event", "--teams", "A,B,C,D", "--bots", "heuristic,random,random,heuristic", "--deals", "1"]
    res = CliRunner().invoke(main, [*args, "--json", "--record", str(path)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert len(data["rounds"]) == 3 and all(len(r["matches"]) == 2 for r in data["rounds"])
    assert data["bots"] == {"A": "heuristic", "B": "random", "C": "random", "D": "heuristic"}
    ranks = [s["team"] for s in data["standings"]]
    assert sorted(ranks) == ["A", "B", "C", "D"] and data["over"]
    event, matches = Event.from_record(json.loads(path.read_text(encoding="utf-8")))
    assert [s.to_dict() for s in event.standings()] == data["standings"] and len(matches) == 6
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0 and "Standings" in text.output and "r3m2" in text.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--teams", "A"], "2 to 16"),
        (["--teams", "A,A"], "same name"),
        (["--teams", "A,B,C", "--bots", "random,random"], "one per team"),
        (["--teams", "A,B", "--bots", "nobody"], "no bot"),
        (["--teams", "A,B", "--rules", "moon"], "no preset"),
        (["--teams", "A,B", "--deals", "0"], "0"),
    ],
)
def test_gouji_event_refuses_bad_input(args: list[str], message: str) -> None:
    res = CliRunner().invoke(main, ["event", *args])
    assert res.exit_code == 2 and message in res.output, res.output


def test_two_tables_played_on_their_own_make_the_same_match_as_the_tournament() -> None:
    from gouji.bots import decide
    from gouji.competition.duplicate import TournamentTable

    one, two = TournamentTable("tournament", 5, 2, 0), TournamentTable("tournament", 5, 2, 1)
    rng = random.Random(5)
    while not one.is_over:  # table 1 plays both deals before table 2 starts: it may run ahead
        one.act(decide(RandomBot(), one.current, rng))
        if len(one.points) == 1:
            partial = Tournament.from_tables(one, two, ("P", "Q"))
            assert partial.small_points() == [] and not partial.is_over
    while not two.is_over:
        two.act(decide(RandomBot(), two.current, rng))
    joined = Tournament.from_tables(one, two, ("P", "Q"))
    assert joined.is_over and len(joined.tables) == 2
    for k in (0, 1):
        assert one.deals[k].events[0]["hands"] == two.deals[k].events[0]["hands"]
        x = sum(p for p, s in zip((6, 5, 4, 3, 2, 1), one.deals[k].result()["places"], strict=True) if s % 2 == 0)
        assert one.points[k][0] == x and sum(one.points[k]) == 21
    # the record replays on the engine's own Tournament: the same match
    again = load_record(json.dumps(joined.record()))
    assert isinstance(again, Tournament) and again.small_points() == joined.small_points()
    assert joined.totals == (one.totals[0] + two.totals[1], one.totals[1] + two.totals[0])
    with pytest.raises(RecordError, match="with the match"):
        one.record()
    with pytest.raises(ValueError, match="two tables"):
        Tournament.from_tables(two, one)


def test_gouji_tournament_compare_shows_what_each_team_did_with_the_same_cards() -> None:
    res = CliRunner().invoke(main, ["tournament", "--bots", "heuristic,random", "--seed", "2", "--compare", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [sum(s["margin"] for s in c["sides"]) for c in data["comparison"]] == [
        x - y for x, y in (r["points"] for r in data["deals"])
    ]
    text = CliRunner().invoke(main, ["tournament", "--bots", "heuristic,random", "--seed", "2", "--compare"])
    assert text.exit_code == 0 and "same cards compared" in text.output and "margin" in text.output
