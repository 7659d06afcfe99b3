"""Training (Deep Monte-Carlo): samples from deals, a learning step that fits, checkpoints that resume."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import numpy as np
import pytest

from gouji.bots.features import ACTION_SIZE, STATE_SIZE
from gouji.bots.learned import LearnedBot, QNet
from gouji.engine.seats import SEATS

torch = pytest.importorskip("torch", reason="training needs the [train] extra (PyTorch)")

from gouji.lab.learn import dmc  # noqa: E402


def tiny_net(seed: int = 0) -> QNet:
    torch.manual_seed(seed)
    return dmc.to_qnet(dmc.build_model((16, 8)), {})


def test_a_training_deal_gives_samples_with_zero_sum_returns() -> None:
    cfg = dmc.TrainConfig(selfplay=1.0, rules=("qingdao",))
    st, ar, g, facts = dmc.play_training_deal(cfg, tiny_net(), [], follow=0.5, rng=random.Random(3))
    assert st.shape == (len(g), STATE_SIZE) and ar.shape == (len(g), ACTION_SIZE)
    assert len(g) > 20 and facts["opponent"] == "self"
    assert np.isfinite(st).all() and np.isfinite(ar).all()
    # self-play: both teams' samples, and a team's return is the other's negated
    assert set(np.unique(np.round(g, 6))) <= {round(float(v), 6) for v in (g.max(), -g.max())}


def test_returns_are_the_team_margin_scaled() -> None:
    from gouji.bots import make_bot, play_deal
    from gouji.engine.deal import Deal
    from gouji.engine.scoring import team_points

    deal = play_deal(Deal.new("tournament", seed=2), [make_bot("heuristic")] * 6, random.Random(2))
    r = dmc.deal_returns(deal)
    pts = team_points(deal)
    assert r[0] == pytest.approx((pts[0] - pts[1]) / 9) and r[1] == -r[0]
    assert sum(r) == pytest.approx(0) and len(r) == SEATS


def test_the_learning_step_fits_the_returns() -> None:
    cfg = dmc.TrainConfig(selfplay=1.0, rules=("tournament",))
    rng = random.Random(1)
    buf = dmc.Buffer(5000)
    for _ in range(4):
        buf.add(*dmc.play_training_deal(cfg, tiny_net(), [], follow=1.0, rng=rng)[:3])
    assert buf.n >= 200  # a few hundred decisions
    torch.manual_seed(0)
    model = dmc.build_model((32, 16))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    x, y = buf.x[: buf.n], buf.g[: buf.n]
    first = dmc.learn_step(model, opt, x, y)
    for _ in range(150):
        last = dmc.learn_step(model, opt, x, y)
    assert last < 0.7 * first


def test_train_writes_a_checkpoint_and_resumes(tmp_path: Path) -> None:
    cfg = dmc.TrainConfig(
        hidden=(16,), batch=64, actors=1, eval_minutes=0.0, eval_pairs=1, publish_seconds=0.5, rules=("qingdao",)
    )
    out = tmp_path / "run"
    p1 = dmc.train(out, 3.0, cfg, log=lambda _: None, max_samples=300)
    assert p1.samples >= 300 and p1.steps > 0
    for name in ("checkpoint.pt", "current.npz", "curve.csv", "curve.png"):
        assert (out / name).exists(), name
    rows = list(csv.DictReader((out / "curve.csv").open()))
    assert rows and {r["rules"] for r in rows} == {"qingdao"}
    net = QNet.load(out / "current.npz")
    assert net.meta["samples"] == p1.samples
    LearnedBot(net)  # a usable bot
    p2 = dmc.train(out, 3.0, None, log=lambda _: None, max_samples=p1.samples + 200)
    assert p2.samples >= p1.samples + 200 and p2.steps > p1.steps and p2.minutes > p1.minutes


def test_paired_rollouts_give_advantages_over_the_heuristic() -> None:
    cfg = dmc.TrainConfig(branch=0.3, rules=("tournament",))
    st, ar, adv, facts = dmc.paired_deal(cfg, tiny_net(), random.Random(4))
    assert len(adv) >= 4 and len(adv) % 2 == 0 and facts["opponent"] == "heuristic"
    prior_rows, alt_rows = ar[0::2], ar[1::2]
    assert (prior_rows[:, -1] == 1).all() and (alt_rows[:, -1] == 0).all()  # the heuristic's choice, then another
    assert (adv[0::2] == 0).all()  # the heuristic's choice has advantage 0 by definition
    assert np.array_equal(st[0::2], st[1::2])  # both rows of a pair share the state
    assert np.abs(adv[1::2]).max() <= 2 * 18 / 9  # within the range of a tournament deal's margin
    # a deviation changes the deal: not every alternative is worth exactly what the heuristic's choice is
    assert (adv[1::2] != 0).any()


def test_the_cli_refuses_unknown_presets() -> None:
    from click.testing import CliRunner

    from gouji.cli import main

    out = CliRunner().invoke(main, ["train", "--rules", "nowhere", "--minutes", "1", "--out", "x"])
    assert out.exit_code == 2 and "nowhere" in out.output


def test_paired_rollouts_branch_only_where_asked() -> None:
    from gouji.bots.learned import decision_kind

    cfg = dmc.TrainConfig(branch=1.0, branch_kinds=("burn",), rules=("qingdao",))
    seen: list[str] = []
    real = dmc.LearnedBot.evaluate

    def spy(self: LearnedBot, view, legal, rng=None):  # type: ignore[no-untyped-def]
        seen.append(decision_kind(view))
        return real(self, view, legal, rng)

    dmc.LearnedBot.evaluate = spy  # type: ignore[method-assign]
    try:
        samples = 0
        for seed in range(6):
            _st, ar, adv, _facts = dmc.paired_deal(cfg, tiny_net(), random.Random(seed))
            samples += len(adv)
            assert (ar[:, 1] == 1).sum() + (ar[:, 2] == 1).sum() == len(adv)  # burn or pass rows only
    finally:
        dmc.LearnedBot.evaluate = real  # type: ignore[method-assign]
    assert seen and set(seen) == {"burn"}  # every branch was a burn offer
    assert samples > 0


def test_a_resumed_run_takes_overrides(tmp_path: Path) -> None:
    cfg = dmc.TrainConfig(
        hidden=(16,), batch=64, actors=1, eval_minutes=0.0, eval_pairs=1, publish_seconds=0.5, rules=("tournament",)
    )
    out = tmp_path / "run"
    p1 = dmc.train(out, 3.0, cfg, log=lambda _: None, max_samples=200)
    over = {"branch_kinds": ["burn", "lead"], "focus": 0.9}
    dmc.train(out, 3.0, None, log=lambda _: None, max_samples=p1.samples + 100, override=over)
    saved = torch.load(out / "checkpoint.pt", weights_only=False)
    assert tuple(saved["config"]["branch_kinds"]) == ("burn", "lead") and saved["config"]["focus"] == 0.9
    assert saved["config"]["hidden"] == [16] or tuple(saved["config"]["hidden"]) == (16,)  # kept its own
    assert QNet.load(out / "current.npz").meta["deviate_in"] == ["burn", "lead"]  # measured where it was taught


def test_paired_rollouts_branch_where_the_network_may_not_overrule() -> None:
    """A network shipped to overrule only burns still gives labels for leads when asked to."""
    net = tiny_net()
    net.meta["deviate_in"] = ["burn"]
    cfg = dmc.TrainConfig(branch=0.5, branch_kinds=("lead",), rules=("tournament",))
    _st, ar, adv, _facts = dmc.paired_deal(cfg, net, random.Random(2))
    assert len(adv) > 0 and (ar[:, 0] + ar[:, 2] + ar[:, 3] >= 1).all()  # plays, passes or yields: leads


def test_curves_of_several_runs_plot_from_one_csv(tmp_path: Path) -> None:
    """docs/learned-curve.png is drawn from docs/learned-curve.csv: rows of several runs, named by method."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "learned-curve.csv"
    rows = list(csv.DictReader(docs.open()))
    assert rows and all(r["method"] and r["rules"] in ("qingdao", "tournament") for r in rows)
    png = tmp_path / "curve.png"
    dmc.plot_rows(docs, png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_run_gives_the_signals_back_and_its_actors_die_on_sigterm(tmp_path: Path) -> None:
    """A run installs its own SIGTERM/SIGINT handlers (to checkpoint before stopping) and restores the old
    ones when it returns; an actor forked while such a handler is installed still dies on SIGTERM (an
    inherited flag-setting handler once left a stopped actor hanging for ever)."""
    import multiprocessing as mp
    import signal

    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    cfg = dmc.TrainConfig(hidden=(8,), batch=32, eval_minutes=0.0, eval_pairs=1, publish_seconds=0.5)
    dmc.train(tmp_path / "run", 2.0, cfg, log=lambda _: None, max_samples=60)
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before

    flag = dmc._stop_on_signals()  # the learner's handlers, as during a run
    try:
        ctx = mp.get_context("fork")
        q, stop = ctx.Queue(maxsize=1), ctx.Event()
        p = ctx.Process(target=dmc.actor_loop, args=(cfg, str(tmp_path / "run"), q, stop, 0, ctx.Value("d", 0.0)))
        p.start()
        q.get(timeout=60)  # it plays (and then waits on the full queue)
        p.terminate()
        p.join(timeout=10)
        alive = p.is_alive()
        if alive:
            p.kill()
        assert not alive and p.exitcode == -signal.SIGTERM
    finally:
        flag.restore()
    assert not flag.is_set()
