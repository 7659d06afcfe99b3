"""Deep Monte-Carlo self-play (DouZero's method) for the learned bot: ``gouji train``.

- **Actors** (separate processes, or Ray actors with ``--ray``) play whole deals.  The learning seats use
  :class:`gouji.bots.learned.LearnedBot` with the newest weights, exploring with probability ``epsilon``
  (a random candidate); during the warm start they follow the heuristic's choice with a probability that
  falls from 1 to 0 (so the first data is played like the heuristic, and the network first learns what
  the heuristic's choices are worth).  Their opponents are drawn from a pool: the learner itself
  (self-play), the heuristic bot, and earlier snapshots of the learner.  Every decision with more than
  one candidate becomes a sample (state vector, chosen action's row); when the deal ends, each sample gets
  its seat's return: its team's points minus the other team's, scaled to about one.
- **The learner** (this process, PyTorch on one thread) keeps the newest samples in a ring buffer and
  fits the network's value of each (state, action) pair to its return by mean squared error, never using a
  sample more than ``reuse`` times on average.  It publishes the weights to the actors as an ``.npz`` file
  (what the shipped bot loads with numpy alone), keeps snapshots for the opponent pool, checkpoints
  everything so a stopped run resumes where it was, and measures the greedy network against the
  heuristic with duplicate deals at intervals: the learning curve, as CSV and PNG.

Nothing here touches a deal's hidden state: actors see what :func:`gouji.bots.decide` gives a bot.
"""

from __future__ import annotations

import csv
import json
import math
import multiprocessing as mp
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...bots import BOTS
from ...bots.features import ACTION_SIZE, STATE_SIZE
from ...bots.learned import LearnedBot, QNet
from .actors import ActorState as ActorState
from .actors import actor_loop as actor_loop
from .actors import paired_deal as paired_deal
from .actors import play_training_deal as play_training_deal
from .config import CHECKPOINT as CHECKPOINT
from .config import CURRENT as CURRENT
from .config import CURVE_CSV as CURVE_CSV
from .config import CURVE_FIELDS as CURVE_FIELDS
from .config import CURVE_PNG as CURVE_PNG
from .config import INPUT as INPUT
from .config import TrainConfig as TrainConfig
from .config import deal_returns as deal_returns
from .config import scale as scale

# ---------------------------------------------------------------------------------------------- learner


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        raise SystemExit("gouji train needs PyTorch: pip install -e '.[train]' (the CPU build is enough)") from None
    return torch


def build_model(hidden: Sequence[int]) -> Any:
    """The value network: an MLP from (state, action) features to one number."""
    torch = _torch()
    layers: list[Any] = []
    width = INPUT
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    layers.append(torch.nn.Linear(width, 1))
    return torch.nn.Sequential(*layers)


def to_qnet(model: Any, meta: dict[str, Any]) -> QNet:
    """The numpy form of a torch model built by :func:`build_model`."""
    lin = [m for m in model if hasattr(m, "weight")]
    layers = [
        (m.weight.detach().cpu().numpy().T.astype(np.float32), m.bias.detach().cpu().numpy().astype(np.float32))
        for m in lin
    ]
    return QNet(layers, meta)


def learn_step(model: Any, opt: Any, x: np.ndarray, y: np.ndarray) -> float:
    """One gradient step of the mean squared error between the model's values of ``x`` and returns ``y``."""
    torch = _torch()
    pred = model(torch.from_numpy(x)).squeeze(1)
    loss = torch.nn.functional.mse_loss(pred, torch.from_numpy(y))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return float(loss.item())


class Buffer:
    """A ring of the newest samples."""

    def __init__(self, size: int) -> None:
        self.x = np.zeros((size, INPUT), dtype=np.float32)
        self.g = np.zeros(size, dtype=np.float32)
        self.size, self.n, self.i = size, 0, 0

    def add(self, states: np.ndarray, rows: np.ndarray, g: np.ndarray) -> None:
        for k in range(len(g)):
            self.x[self.i, :STATE_SIZE] = states[k]
            self.x[self.i, STATE_SIZE:] = rows[k]
            self.g[self.i] = g[k]
            self.i = (self.i + 1) % self.size
            self.n = min(self.n + 1, self.size)

    def sample(self, batch: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        idx = rng.integers(0, self.n, size=batch)
        return self.x[idx], self.g[idx]


def _atomic_save_npz(net: QNet, path: Path) -> None:
    tmp = path.with_name(path.stem + ".tmp.npz")
    net.save(tmp)
    os.replace(tmp, path)


def evaluate(net: QNet, rules: str, pairs: int, seed: int) -> dict[str, Any]:
    """The greedy network against the heuristic over ``pairs`` duplicate pairs (one process)."""
    from ..arena import run_arena

    BOTS["_training"] = lambda: LearnedBot(net)
    try:
        r = run_arena("_training", "heuristic", rules, pairs, seed, jobs=1)
    finally:
        del BOTS["_training"]
    won = r.teams[0].pairs_won
    lost = r.teams[1].pairs_won
    return {
        "rules": rules,
        "pairs": pairs,
        "margin": r.margin.mean,
        "margin_ci": r.margin.half_width,
        "pairs_won": won,
        "pairs_lost": lost,
        "ties": r.ties,
    }


def plot_curve(out: Path) -> None:
    """Draw the learning curve (duplicate margin against the heuristic per preset) as a PNG."""
    plot_rows(out / CURVE_CSV, out / CURVE_PNG)


def plot_rows(csv_path: Path, png_path: Path) -> None:
    """Draw curve rows (a run's ``curve.csv``, or several runs' rows with a ``method`` column naming each,
    like ``docs/learned-curve.csv``) as margins with their 95% intervals and the share of pairs won."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - the [train] extra brings matplotlib
        return
    rows = list(csv.DictReader(csv_path.open()))
    if not rows:
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    groups: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        label = f"{r['method']}, {r['rules']}" if r.get("method") else r["rules"]
        groups.setdefault(label, []).append(r)
    for label, pts in groups.items():
        x = [float(r["minutes"]) for r in pts]
        m = [float(r["margin"]) for r in pts]
        ci = [float(r["margin_ci"] or 0) for r in pts]
        share = [100 * int(r["pairs_won"]) / max(1, int(r["pairs"])) for r in pts]
        style = "--" if "tournament" in label else "-"
        axes[0].errorbar(x, m, yerr=ci, marker="o", ls=style, capsize=3, label=label)
        axes[1].plot(x, share, marker="o", ls=style, label=label)
    axes[0].axhline(0, color="grey", lw=0.8)
    axes[0].set(xlabel="training minutes", ylabel="margin per duplicate pair vs heuristic", title="margin (95% CI)")
    axes[1].axhline(50, color="grey", lw=0.8)
    axes[1].axhline(60, color="green", lw=0.8, ls=":")
    axes[1].set(xlabel="training minutes", ylabel="% of pairs won vs heuristic", title="pairs won (target 60%)")
    for ax in axes:
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png_path, dpi=90)
    plt.close(fig)


@dataclass
class Progress:
    minutes: float = 0.0
    samples: int = 0
    steps: int = 0
    deals: int = 0
    last_eval: float = -1e9
    last_snapshot: float = 0.0
    losses: list[float] = field(default_factory=list)


def train(
    out: str | Path,
    minutes: float,
    cfg: TrainConfig | None = None,
    log: Callable[[str], None] = print,
    max_samples: int | None = None,
    override: dict[str, Any] | None = None,
) -> Progress:
    """Train for ``minutes`` more minutes (wall clock), resuming from ``out``'s checkpoint if it has one.

    ``max_samples`` stops earlier once the run has learned from that many samples (for tests).
    ``override`` changes fields of a resumed run's own configuration (say, where it branches).
    """
    torch = _torch()
    torch.set_num_threads(1)
    outp = Path(out)
    (outp / "snapshots").mkdir(parents=True, exist_ok=True)
    ck = outp / CHECKPOINT
    prog = Progress()
    if ck.exists():
        saved = torch.load(ck, weights_only=False)
        fields = {**saved["config"], **(override or {})}
        for name in ("rules", "hidden", "branch_kinds"):
            if fields.get(name) is not None:
                fields[name] = tuple(fields[name])
        cfg = TrainConfig(**fields)
        model = build_model(cfg.hidden)
        model.load_state_dict(saved["model"])
        opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
        opt.load_state_dict(saved["optimizer"])
        prog = Progress(**saved["progress"])
        log(f"resuming {outp} at {prog.minutes:.1f} training minutes, {prog.samples} samples")
    else:
        cfg = cfg or TrainConfig()
        torch.manual_seed(cfg.seed)
        model = build_model(cfg.hidden)
        opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
        with (outp / CURVE_CSV).open("w", newline="") as f:
            csv.writer(f).writerow(CURVE_FIELDS)
    meta = {
        "hidden": list(cfg.hidden),
        "rules": list(cfg.rules),
        "state_size": STATE_SIZE,
        "action_size": ACTION_SIZE,
        "method": cfg.method,
        "prior_bonus": cfg.prior_bonus,
    }
    if cfg.branch_kinds is not None:
        meta["deviate_in"] = list(cfg.branch_kinds)  # the network is measured where it was taught

    def publish() -> QNet:
        net = to_qnet(model, {**meta, "minutes": round(prog.minutes, 2), "samples": prog.samples})
        _atomic_save_npz(net, outp / CURRENT)
        return net

    def checkpoint() -> None:
        tmp = ck.with_suffix(".tmp")
        torch.save(
            {
                "config": asdict(cfg),
                "model": model.state_dict(),
                "optimizer": opt.state_dict(),
                "progress": asdict(prog),
            },
            tmp,
        )
        os.replace(tmp, ck)

    net = publish()
    buf = Buffer(cfg.buffer)
    nprng = np.random.default_rng(cfg.seed + prog.steps)
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    q = ctx.Queue(maxsize=64)
    stop = ctx.Event()
    shared_minutes = ctx.Value("d", prog.minutes)
    actors = [
        ctx.Process(target=actor_loop, args=(cfg, str(outp), q, stop, a, shared_minutes), daemon=True)
        for a in range(cfg.actors)
    ]
    for p in actors:
        p.start()
    started = time.monotonic()
    base_minutes = prog.minutes
    stopping = _stop_on_signals()
    last_pub = last_ck = started
    fresh = 0.0
    losses: list[float] = []
    try:
        while True:
            now = time.monotonic()
            prog.minutes = base_minutes + (now - started) / 60
            shared_minutes.value = prog.minutes
            if stopping.is_set() or now - started >= minutes * 60:
                break
            if max_samples is not None and prog.samples >= max_samples:
                break
            got = False
            while True:
                try:
                    st, ar, g, _facts = q.get_nowait()
                except queue.Empty:
                    break
                buf.add(st, ar, g)
                prog.samples += len(g)
                prog.deals += 1
                fresh += len(g)
                got = True
            if buf.n >= cfg.batch and fresh * cfg.reuse >= cfg.batch:
                x, y = buf.sample(cfg.batch, nprng)
                losses.append(learn_step(model, opt, x, y))
                prog.steps += 1
                fresh -= cfg.batch / cfg.reuse
            elif not got:
                time.sleep(0.02)
            if now - last_pub >= cfg.publish_seconds:
                net = publish()
                last_pub = now
                if losses:
                    prog.losses.append(sum(losses) / len(losses))
                    log(
                        f"{prog.minutes:6.1f} min  {prog.deals} deals  {prog.samples} samples  "
                        f"{prog.steps} steps  loss {prog.losses[-1]:.4f}"
                    )
                    losses = []
            if prog.minutes - prog.last_snapshot >= cfg.snapshot_minutes:
                _atomic_save_npz(net, outp / "snapshots" / f"m{int(prog.minutes):04d}.npz")
                prog.last_snapshot = prog.minutes
            if prog.minutes - prog.last_eval >= cfg.eval_minutes and prog.steps > 0:
                net = publish()
                _eval_row(outp, net, cfg, prog, log)
                prog.last_eval = prog.minutes
            if now - last_ck >= cfg.checkpoint_seconds:
                checkpoint()
                last_ck = now
    finally:
        stop.set()
        for p in actors:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
                p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join(timeout=5)
        stopping.restore()
        publish()
        checkpoint()
    return prog


def _stop_on_signals() -> _StopFlag:
    """An event set by SIGTERM or SIGINT, so that a stopped run still writes its checkpoint."""
    import signal

    flag = _StopFlag()

    def handler(signum: int, frame: Any) -> None:
        flag.set()

    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            flag.previous[sig] = signal.signal(sig, handler)
    return flag


class _StopFlag(threading.Event):
    """Set by SIGTERM or SIGINT during a run; :meth:`restore` gives the signals their handlers back."""

    def __init__(self) -> None:
        super().__init__()
        self.previous: dict[int, Any] = {}

    def restore(self) -> None:
        import signal

        for sig, old in self.previous.items():
            signal.signal(sig, old)
        self.previous.clear()


def _eval_row(outp: Path, net: QNet, cfg: TrainConfig, prog: Progress, log: Callable[[str], None]) -> None:
    loss = prog.losses[-1] if prog.losses else math.nan
    for rules in cfg.rules:
        r = evaluate(net, rules, cfg.eval_pairs, cfg.eval_seed)
        row = {
            "minutes": round(prog.minutes, 2),
            "samples": prog.samples,
            "steps": prog.steps,
            "loss": round(loss, 5),
            **r,
        }
        with (outp / CURVE_CSV).open("a", newline="") as f:
            csv.DictWriter(f, CURVE_FIELDS).writerow(row)
        log(
            f"eval {rules}: margin {r['margin']:+.2f} ± {r['margin_ci'] or 0:.2f}, "
            f"won {r['pairs_won']}/{r['pairs']}, lost {r['pairs_lost']}"
        )
    plot_curve(outp)
    (outp / "progress.json").write_text(json.dumps(asdict(prog)))


def ship(out: str | Path, dest: str | Path) -> None:
    """Copy a run's current weights to ``dest`` (e.g. the package's ``learned.npz``)."""
    net = QNet.load(Path(out) / CURRENT)
    net.save(dest)


__all__ = [
    "TrainConfig",
    "build_model",
    "deal_returns",
    "evaluate",
    "paired_deal",
    "play_training_deal",
    "plot_rows",
    "train",
]
