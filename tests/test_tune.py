"""``gouji tune``: the search space, the objective (the arena's duplicate pairs), a tiny run end to end,
its resumption, and its output read back."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import gouji.bots
from gouji.bots.heuristic import DEFAULT, HeuristicBot, Params
from gouji.cli import main
from gouji.lab import tune as T
from gouji.lab.arena import run_arena


def test_the_origin_is_the_shipped_heuristic_and_points_stay_in_bounds() -> None:
    assert T.decode([0.0] * len(T.TUNED)) == DEFAULT
    far = T.decode([5.0] * len(T.TUNED))
    low = T.decode([-5.0] * len(T.TUNED))
    for name, (lo, hi) in T.BOUNDS.items():
        assert lo <= getattr(far, name) <= hi and lo <= getattr(low, name) <= hi
    assert far.open_min == 0.99 and far.chain_sure == 0.999  # chances stay chances
    assert far.feed_guard == DEFAULT.feed_guard  # not tuned
    with pytest.raises(ValueError, match="coordinates"):
        T.decode([0.0])


def test_the_objective_is_the_arena_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    cand = replace(DEFAULT, lead_value=1.2, cost_two=0.1, deny=0.9)
    monkeypatch.setitem(gouji.bots.BOTS, "cand", lambda: HeuristicBot(cand))
    for preset in ("qingdao", "tournament"):
        arena = run_arena("cand", "heuristic", preset, 3, seed=5)
        assert [T.pair_margin(cand, DEFAULT, preset, 5, i) for i in range(3)] == [p.margin for p in arena.pair_results]
    assert T.pair_margin(DEFAULT, DEFAULT, "qingdao", 5, 0) == 0


def test_score_scales_each_preset() -> None:
    assert T.score({"qingdao": [12, 36], "tournament": [9, -9]}) == pytest.approx((2.0 + 0.0) / 2)


def test_a_tiny_run_end_to_end_resumes_and_reloads(tmp_path: Path) -> None:
    pytest.importorskip("cma")
    out = tmp_path / "run"
    cfg = T.TuneConfig(rules=("qingdao", "tournament"), pairs=2, popsize=2, heldout_pairs=2, seed=3)
    lines: list[str] = []
    state = T.tune(out, cfg, generations=1, jobs=1, log=lines.append)
    assert state.generation == 1 and len(state.history) == 1
    row = state.history[0]
    assert len(row["scores"]) == len(row["points"]) == 2 and max(row["scores"]) == row["best"]
    assert state.heldout is not None and state.heldout["seed"] == 3 * T.SEED_SPAN + T.HELD_OUT
    assert set(state.heldout) >= {"qingdao", "tournament", "score"}
    assert {p.name for p in out.iterdir()} == {"state.json", "params.json", "es.pkl"}
    params = T.load_params(out / "params.json")
    assert isinstance(params, Params) and params == T.decode(state.mean) == T.load_params(out / "state.json")
    assert params != DEFAULT  # one generation moved the mean
    # resumed: the saved settings win over the ones given, the history grows
    state2 = T.tune(out, replace(cfg, pairs=50), generations=1, heldout=False, log=lines.append)
    assert state2.generation == 2 and state2.config.pairs == 2 and len(state2.history) == 2
    assert state2.history[1]["seed"] == 3 * T.SEED_SPAN + 1  # fresh deals each generation
    assert any("resuming" in line for line in lines)
    # without the optimiser's pickle (a fresh clone with state.json alone) it restarts from the mean
    (out / "es.pkl").unlink()
    state3 = T.tune(out, cfg, generations=1, heldout=False, log=lines.append)
    assert state3.generation == 3 and "(new optimiser)" in lines[-2]
    saved = json.loads((out / "state.json").read_text())
    assert saved["generation"] == 3 and saved["params"] == T.params_dict(T.decode(state3.mean))


def test_load_params_refuses_unknown_weights(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"lead_value": 0.5, "nonsense": 1}))
    with pytest.raises(ValueError, match="nonsense"):
        T.load_params(path)
    path.write_text(json.dumps({"lead_value": 0.5}))
    assert T.load_params(path) == replace(DEFAULT, lead_value=0.5)


def test_the_command(tmp_path: Path) -> None:
    pytest.importorskip("cma")
    runner = CliRunner()
    bad = runner.invoke(main, ["tune", "--out", str(tmp_path / "x"), "--rules", "nowhere", "--generations", "1"])
    assert bad.exit_code == 2 and "nowhere" in bad.output
    none = runner.invoke(main, ["tune", "--out", str(tmp_path / "x")])
    assert none.exit_code == 2 and "--generations or --minutes" in none.output
    args = ["tune", "--out", str(tmp_path / "r"), "--rules", "tournament", "--generations", "1"]
    ok = runner.invoke(main, [*args, "--pairs", "2", "--popsize", "2", "--heldout-pairs", "2", "--jobs", "2"])
    assert ok.exit_code == 0, ok.output
    assert "generation 1:" in ok.output and "held-out check" in ok.output
    assert T.load_params(tmp_path / "r" / "params.json") != DEFAULT
