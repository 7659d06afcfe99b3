"""The distillation labels (issue 46): a tiny run, what each label means, and resuming after a crash."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from gouji.bots import HeuristicBot, play_deal
from gouji.bots.features import ACTION_SIZE, STATE_SIZE, encode_state
from gouji.cli import main
from gouji.engine.deal import Deal
from gouji.engine.scoring import team_points
from gouji.engine.seats import SEATS, team
from gouji.lab import distil as D

TINY = ("--chunk-deals", "1", "--sample", "0.08", "--candidates", "4", "--seed-prefix", "test46", "--nice", "0")


def labels(out: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["distil", "labels", "--out", str(out), "--hours", "1", *TINY, *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_tiny_run_stores_labels_a_model_can_learn_from_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "labels"
    log = labels(out, "--chunks", "2")
    assert "chunk 0 (qingdao)" in log and "chunk 1 (tournament)" in log and "labels/hour/core" in log
    manifest = json.loads((out / D.MANIFEST).read_text())
    assert manifest["chunks_done"] == [0, 1] and manifest["settings"]["prefix"] == "test46"
    assert manifest["chunks"]["0"]["seeds"] == ["test46/0/0", "test46/0/0"]
    a = D.load_labels(out)
    n, m = len(a["advantage"]), len(a["states"])
    assert m >= 4 and n > m
    assert a["states"].shape == (m, STATE_SIZE) and a["actions"].shape == (n, ACTION_SIZE)
    assert a["heuristic"].sum() == m and not a["advantage"][a["heuristic"]].any()
    assert np.all(a["actions"][a["heuristic"], -1] == 1) and not a["actions"][~a["heuristic"], -1].any()
    heur = np.flatnonzero(a["heuristic"])
    assert np.array_equal(a["advantage"], a["result"] - a["result"][heur[a["decision"]]])
    assert manifest["labels"] == n and manifest["alternatives"] == n - m

    # A crash: chunk 2 written but not yet in the manifest, a temporary file left behind.
    arrays, facts = D.label_chunk(D.Settings(("qingdao", "tournament"), 1, 0.08, 4, "test46"), 2)
    D.write_chunk(out, 2, arrays, facts)
    (out / ".chunk-000003.npz.1.tmp").write_bytes(b"half")
    log = labels(out, "--chunks", "1")
    assert "chunk 3 (tournament)" in log and "chunk 2 " not in log and "chunk 0 " not in log
    manifest = json.loads((out / D.MANIFEST).read_text())
    assert manifest["chunks_done"] == [0, 1, 2, 3]

    other = CliRunner().invoke(
        main, ["distil", "labels", "--out", str(out), "--hours", "1", *TINY[:-2], "--sample", "0.5"]
    )
    assert other.exit_code == 1 and "other settings" in other.output


def test_a_label_is_the_paired_rollout_and_the_state_is_the_seats_view(tmp_path: Path) -> None:
    settings = D.Settings(("tournament",), 1, 0.1, 4, "test46")
    arrays, facts = D.label_chunk(settings, 5)
    again, _ = D.label_chunk(settings, 5)
    assert all(np.array_equal(arrays[k], again[k]) for k in arrays)  # deterministic
    seed = facts["seeds"][0]
    line = play_deal(Deal.new("tournament", seed=seed), [HeuristicBot()] * SEATS, random.Random(0))
    acts = [e for e in line.events if e["type"] == "act"]
    checked = 0
    for i in range(len(arrays["states"])):
        index, seat = int(arrays["index"][i]), int(arrays["seat"][i])
        deal = Deal.from_deal_event(line.events[0])
        for e in acts[: index - 1]:
            deal.act(e["action"], seat=e["seat"])
        assert deal.to_act == seat
        assert np.array_equal(arrays["states"][i], encode_state(deal.view(seat)))
        rows = np.flatnonzero(arrays["decision"] == i)
        assert arrays["action"][rows[0]] == acts[index - 1]["action"]  # the heuristic's choice first
        for r in rows[1:2]:
            branch = Deal.replay(deal.events)
            branch.act(str(arrays["action"][r]))
            play_deal(branch, [HeuristicBot()] * SEATS, random.Random(0))
            assert team_points(branch)[team(seat)] - team_points(line)[team(seat)] == arrays["advantage"][r]
            checked += 1
    assert checked >= 3


def test_bad_presets_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["distil", "labels", "--out", str(tmp_path), "--hours", "1", "--rules", "qingdao,nowhere", "--nice", "0"]
    )
    assert result.exit_code == 1 and "nowhere: the presets are" in result.output
    with pytest.raises(D.LabelsError, match="no chunk"):
        D.load_labels(tmp_path)
