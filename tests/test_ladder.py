"""``gouji ladder``: the rungs, their figures (the arena's), resuming, the mirror of deterministic bots,
decision times, and the command."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gouji.cli import main
from gouji.lab import ladder as L
from gouji.lab.arena import run_arena


def test_rungs_skip_self_and_play_deterministic_pairs_once() -> None:
    assert L.rungs(["random", "novice", "heuristic"]) == [
        ("random", "heuristic"),
        ("novice", "heuristic"),
        ("random", "novice"),
    ]


def test_a_tiny_ladder_resumes_and_renders(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    lines: list[str] = []
    data = L.run_ladder(out, 3, 9, ["random", "novice", "heuristic"], ["tournament"], time_deals=1, log=lines.append)
    assert len(data["rungs"]) == 3 and json.loads(out.read_text()) == data
    row = next(r for r in data["rungs"] if (r["a"], r["b"]) == ("novice", "heuristic"))
    arena = run_arena("novice", "heuristic", "tournament", 3, 9)
    assert row["margin"] == round(arena.margin.mean, 3) and row["won"] + row["lost"] + row["tied"] == 3
    # the mirror is exact for bots that never use their generator
    back = run_arena("heuristic", "novice", "tournament", 3, 9)
    assert [p.margin for p in back.pair_results] == [-p.margin for p in arena.pair_results]
    assert set(data["times"]) == {f"{b}/tournament" for b in ("random", "novice", "heuristic")}
    assert all(t["decisions"] > 0 and t["p99_ms"] >= t["median_ms"] > 0 for t in data["times"].values())
    lines.clear()
    assert L.run_ladder(out, 3, 9, ["random", "novice", "heuristic"], ["tournament"], time_deals=1, log=lines.append)
    assert lines == []  # nothing left to play
    text = L.markdown(data)
    assert "### Against `heuristic`" in text and "### Against `novice`" in text
    assert "`heuristic` (`novice` vs `heuristic` negated)" in text
    assert f"{-row['margin']:+.2f}" in text


def test_the_command(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = runner.invoke(main, ["ladder", "--rules", "nowhere"])
    assert bad.exit_code == 2 and "nowhere" in bad.output
    nobody = runner.invoke(main, ["ladder", "--bots", "nobody", "--out", str(tmp_path / "x.json")])
    assert nobody.exit_code == 1 and "no bot 'nobody'" in nobody.output
    md = tmp_path / "ladder.md"
    args = ["ladder", "--pairs", "2", "--bots", "random,novice", "--rules", "qingdao", "--time-deals", "1"]
    ok = runner.invoke(main, [*args, "--out", str(tmp_path / "l.json"), "--markdown", str(md)])
    assert ok.exit_code == 0, ok.output
    assert "`random` | qingdao | 2 |" in md.read_text() and "Time per decision" in ok.output
