"""Training the 大师 model: the split by chunk, the offline check's arithmetic, a tiny fit that learns."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from gouji.bots.expert import ExpertBot
from gouji.bots.features import ACTION_SIZE, STATE_SIZE
from gouji.bots.learned import QNet
from gouji.cli import main
from gouji.lab import distil as D
from gouji.lab import expert_data as X

torch = pytest.importorskip("torch", reason="training needs the [train] extra (PyTorch)")

from gouji.lab import expert_train as T  # noqa: E402

TINY = T.TrainConfig(hidden=(16, 8), epochs=25, patience=25, batch=64, lr=3e-3)


def synthetic(out: Path, chunks: int = 20, decisions: int = 40, seed: int = 0) -> None:
    """Chunks of made-up labels: four candidates a decision (the first the heuristic's, advantage 0); an
    alternative's advantage is 2 × its action's feature 0 − 1 (and ten times that under ``qingdao``)."""
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    for k in range(chunks):
        rules = k % 2
        states = rng.normal(size=(decisions, STATE_SIZE)).astype(np.float32)
        actions = rng.uniform(size=(decisions * 4, ACTION_SIZE)).astype(np.float32)
        heuristic = np.tile([True, False, False, False], decisions)
        actions[heuristic, 0] = 0.5
        actions[:, -1] = heuristic
        adv = np.where(heuristic, 0.0, (2 * actions[:, 0] - 1) * (10 if rules == 0 else 1)).astype(np.float32)
        arrays = {
            "states": states,
            "actions": actions,
            "deal": np.repeat(np.arange(k * 2, k * 2 + 2), decisions // 2).astype(np.int32),
            "index": np.arange(decisions, dtype=np.int16),
            "seat": np.zeros(decisions, np.int8),
            "kind": np.full(decisions, 3, np.int8),
            "rules": np.full(decisions, rules, np.int8),
            "decision": np.repeat(np.arange(decisions), 4).astype(np.int32),
            "advantage": adv,
            "result": adv,
            "heuristic": heuristic,
            "action": np.asarray(["x"] * (decisions * 4), dtype=np.str_),
        }
        D.write_chunk(out, k, arrays, {"chunk": k})


def test_the_split_keeps_chunks_whole_and_the_limit_takes_the_first(tmp_path: Path) -> None:
    synthetic(tmp_path, decisions=8)
    parts = X.split(X.load(tmp_path))
    chunks = {name: set(p.chunk.tolist()) for name, p in parts.items()}
    assert chunks["validation"] == {16, 17} and chunks["test"] == {8, 9, 18, 19}
    assert chunks["train"] == set(range(20)) - {8, 9, 16, 17, 18, 19}
    for p in parts.values():  # every candidate still points at its own decision
        assert np.all(p.decision < len(p.states)) and p.heuristic.sum() == len(p.states)
    small = X.split(X.load(tmp_path), limit=33)  # 32 labels a chunk: the first two chunks
    assert set(small["train"].chunk.tolist()) == {0, 1} and small["test"].size == parts["test"].size


def labels_of(adv: list[list[float]], rules: list[int], deals: list[int]) -> X.Labels:
    """Hand-made labels: a decision a list of advantages, the first the heuristic's (0)."""
    dec = np.concatenate([[i] * len(a) for i, a in enumerate(adv)]).astype(np.int64)
    flat = np.concatenate([np.asarray(a, np.float32) for a in adv])
    heur = np.concatenate([[True] + [False] * (len(a) - 1) for a in adv])
    n = len(adv)
    return X.Labels(
        np.zeros((n, STATE_SIZE), np.float32),
        np.asarray(rules, np.int64),
        np.asarray(deals, np.int64),
        np.zeros(n, np.int64),
        np.zeros((len(flat), ACTION_SIZE), np.float32),
        dec,
        flat,
        heur,
    )


def test_deviations_are_the_best_predicted_other_candidates_beyond_the_margin() -> None:
    lab = labels_of([[0, 4, -2], [0, -6], [0, 1, 3], [0, 5]], rules=[0, 0, 0, 1], deals=[0, 1, 2, 3])
    pred = np.array([0, 0.5, 0.1, 0, 0.9, 0, 0.2, 0.3, 0, 9], np.float32)
    d = X.deviations(lab, pred, margin=0.25, rules=0)
    # decision 0: best other gap 0.5 → advantage 4; decision 1: gap 0.9 → -6; decision 2: gap 0.3 → 3
    assert (d.decisions, d.count) == (3, 3) and d.mean == pytest.approx(1 / 3) and d.gain == pytest.approx(1 / 3)
    assert d.low <= d.mean <= d.high
    assert X.deviations(lab, pred, margin=0.6, rules=0).count == 1  # only decision 1's gap 0.9
    assert X.deviations(lab, pred, margin=100, rules=0).count == 0
    # by falling gap: -6, then +4, then +3: only all three together gain (+1), so the margin is below 0.3
    m = X.choose_margin(lab, pred, rules=0, least=1)
    assert m < 0.3 and X.deviations(lab, pred, m, 0).count == 3
    assert X.choose_margin(lab, pred, rules=0, least=4) == np.inf  # fewer deviations than asked for
    assert X.choose_margin(labels_of([[0, -1]], [0], [0]), np.array([0, 1], np.float32), 0, least=1) == np.inf


def test_spearman_and_within_decision_correlations() -> None:
    assert X.spearman(np.array([1, 2, 3]), np.array([10, 20, 30])) == pytest.approx(1)
    assert X.spearman(np.array([1, 2, 3]), np.array([3, 2, 1])) == pytest.approx(-1)
    assert np.isnan(X.spearman(np.array([1, 1]), np.array([1, 2])))
    lab = labels_of([[0, 1, 2], [0, -1, -2]], [0, 0], [0, 1])
    pred = np.array([0, 1, 2, 0, -1, -2], np.float32)
    overall, within = X.correlations(lab, pred, 0)
    assert overall == pytest.approx(1) and within == pytest.approx(1)


def test_an_ensemble_is_the_mean_of_its_members() -> None:
    rng = np.random.default_rng(1)

    def net() -> QNet:
        sizes = (STATE_SIZE + ACTION_SIZE, 6, 4, 1)
        return QNet(
            [
                (rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
                for a, b in itertools.pairwise(sizes)
            ]
        )

    nets = [net() for _ in range(3)]
    s = rng.normal(size=STATE_SIZE).astype(np.float32)
    a = rng.normal(size=(5, ACTION_SIZE)).astype(np.float32)
    assert np.allclose(T.ensemble(nets).q(s, a), np.mean([n.q(s, a) for n in nets], 0), atol=1e-4)


def test_a_tiny_fit_learns_and_the_bot_reads_its_margins(tmp_path: Path) -> None:
    synthetic(tmp_path / "labels")
    result = T.train(tmp_path / "labels", tmp_path / "n.npz", config=TINY, log=lambda _: None)
    check = result["check"]
    assert set(check) == {"qingdao", "tournament"}
    for r in check.values():
        assert r["spearman_within"] > 0.8 and r["test"]["count"] > 0 and r["test"]["mean"] > 0
    net = QNet.load(tmp_path / "n.npz")
    assert net.meta["scale"]["qingdao"] > 5 * net.meta["scale"]["tournament"]  # per-preset units
    bot = ExpertBot(net)
    assert set(bot.margins) == {"qingdao", "tournament"}
    assert "| qingdao |" in T.table([result])


def test_the_cli_trains_and_names_a_folder_without_labels(tmp_path: Path) -> None:
    synthetic(tmp_path / "labels", decisions=8)
    few = tmp_path / "few"
    synthetic(few, chunks=8, decisions=8)  # chunks 0-7: training only
    bad = CliRunner().invoke(main, ["distil", "train", "--labels", str(few), "--out", str(tmp_path / "f.npz")])
    assert bad.exit_code == 1 and "has no validation labels" in bad.output and not (tmp_path / "f.npz").exists()
    out = CliRunner().invoke(
        main,
        [
            "distil",
            "train",
            "--labels",
            str(tmp_path / "labels"),
            "--out",
            str(tmp_path / "n.npz"),
            "--epochs",
            "2",
            "--report",
            str(tmp_path / "r.json"),
        ],
    )
    assert out.exit_code == 0, out.output
    assert (tmp_path / "n.npz").exists() and "| tournament |" in out.output
    assert json.loads((tmp_path / "r.json").read_text())["train"]["epochs"] <= 2
    nowhere = tmp_path / "no" / "such" / "n.npz"
    bad = CliRunner().invoke(main, ["distil", "train", "--labels", str(tmp_path / "labels"), "--out", str(nowhere)])
    assert bad.exit_code == 1 and "No such file or directory" in bad.output and not nowhere.parent.exists()
    (tmp_path / "empty").mkdir()
    bad = CliRunner().invoke(main, ["distil", "train", "--labels", str(tmp_path / "empty"), "--out", "x.npz"])
    assert bad.exit_code == 1 and "holds no chunk of labels" in bad.output
    curve = CliRunner().invoke(
        main,
        [
            "distil",
            "curve",
            "--labels",
            str(tmp_path / "labels"),
            "--sizes",
            "40,0",
            "--chunks",
            "20",
            "--report",
            str(tmp_path / "c.json"),
        ],
    )
    assert curve.exit_code == 0, curve.output
    rows = json.loads((tmp_path / "c.json").read_text())
    assert [r["train"]["labels"] for r in rows] == [64, 14 * 32] and all(r["chunks"] == 20 for r in rows)
    bad = CliRunner().invoke(main, ["distil", "curve", "--labels", str(tmp_path / "labels"), "--sizes", "a,b"])
    assert bad.exit_code == 2 and "whole numbers" in bad.output
