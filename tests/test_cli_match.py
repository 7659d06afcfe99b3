"""`gouji sim --set`, `gouji tournament` and `gouji replay`."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gouji.cli import main
from gouji.competition.loading import load_record


def test_sim_set_plays_whole_sets_and_stores_records(tmp_path: Path) -> None:
    path = tmp_path / "sets.json"
    res = CliRunner().invoke(main, ["sim", "--set", "--deals", "2", "--seed", "3", "--json", "--record", str(path)])
    assert res.exit_code == 0, res.output
    stats = json.loads(res.output)
    assert stats["sets"] == 2 and stats["deals"] == 10
    assert len(stats["totals"]) == 2
    assert stats["team_points"] == [sum(t[0] for t in stats["totals"]), sum(t[1] for t in stats["totals"])]
    assert sum(stats["tribute_paid"].values()) > 0
    records = json.loads(path.read_text(encoding="utf-8"))
    assert [list(load_record(r).totals) for r in records] == stats["totals"]
    again = CliRunner().invoke(main, ["sim", "--set", "--deals", "2", "--seed", "3", "--json"])
    assert {k: v for k, v in json.loads(again.output).items() if k != "timing"} == {
        k: v for k, v in stats.items() if k != "timing"
    }


def test_sim_record_needs_set(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["sim", "--deals", "1", "--record", str(tmp_path / "x.json")])
    assert res.exit_code == 2 and "--set" in res.output


def test_tournament_prints_the_result_table(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    res = CliRunner().invoke(
        main, ["tournament", "--bots", "random,random", "--seed", "4", "--json", "--record", str(path)]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert len(data["deals"]) == 4
    assert all(sum(r["points"]) == 42 for r in data["deals"])
    assert data["match_points"] in ([3, 0], [0, 3], [1, 1])
    assert list(load_record(path.read_text(encoding="utf-8")).totals) == data["totals"]
    table = CliRunner().invoke(main, ["tournament", "--bots", "random,random", "--seed", "4"])
    assert "match points" in table.output and "total" in table.output


def test_tournament_rejects_bad_bots() -> None:
    res = CliRunner().invoke(main, ["tournament", "--bots", "random"])
    assert res.exit_code == 2 and "two bots" in res.output
    res = CliRunner().invoke(main, ["tournament", "--bots", "random,nobody"])
    assert res.exit_code == 2


def test_replay_prints_hands_plays_and_tribute(tmp_path: Path) -> None:
    path = tmp_path / "sets.json"
    CliRunner().invoke(main, ["sim", "--set", "--deals", "1", "--seed", "5", "--record", str(path)])
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code == 0, res.output
    assert res.output.count("-- deal ") == 5
    assert "seat 0 (36):" in res.output and "tribute" in res.output and "deal over" in res.output
    one = CliRunner().invoke(main, ["replay", str(path), "--deal", "2"])
    assert one.output.count("-- deal ") == 1


def test_replay_refuses_an_altered_record(tmp_path: Path) -> None:
    path = tmp_path / "sets.json"
    CliRunner().invoke(main, ["sim", "--set", "--deals", "1", "--seed", "5", "--record", str(path)])
    records = json.loads(path.read_text(encoding="utf-8"))
    records[0]["totals"][0] += 4
    path.write_text(json.dumps(records), encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code == 1 and "refused" in res.output and "checksum" in res.output
    path.write_text("{not json", encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code == 1 and "cannot read" in res.output
