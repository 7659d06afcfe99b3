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
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...bots import BOTS
from ...bots.features import ACTION_SIZE, STATE_SIZE
from ...bots.heuristic import HeuristicBot
from ...bots.learned import LearnedBot, QNet, decision_kind
from ...engine.deal import Deal
from ...engine.scoring import team_points
from ...engine.seats import SEATS, team

INPUT = STATE_SIZE + ACTION_SIZE
CURRENT = "current.npz"
CHECKPOINT = "checkpoint.pt"
CURVE_CSV = "curve.csv"
CURVE_PNG = "curve.png"
CURVE_FIELDS = (
    "minutes",
    "samples",
    "steps",
    "loss",
    "rules",
    "pairs",
    "margin",
    "margin_ci",
    "pairs_won",
    "pairs_lost",
    "ties",
)


@dataclass
class TrainConfig:
    """Everything a training run is made of (stored in its checkpoint; a resumed run keeps its own)."""

    rules: tuple[str, ...] = ("qingdao", "tournament")
    method: str = "paired"
    """``paired`` (the default: branch rollouts against the heuristic's choice) or ``dmc`` (plain returns)."""
    branch: float = 0.08
    """``paired``: the chance that a decision with several candidates is branched."""
    branch_kinds: tuple[str, ...] | None = None
    """``paired``: the kinds of decision (:func:`gouji.bots.learned.decision_kind`) that may be branched
    (None: every kind) — those where the shipped bot may overrule the heuristic."""
    focus: float = 0.5
    """``paired``: the share of branches that try the network's best alternative (the rest: a random one)."""
    prior_bonus: float = 0.02
    """The shipped bot plays another candidate than the heuristic's only when it is valued this much higher."""
    hidden: tuple[int, ...] = (256, 128, 64)
    lr: float = 3e-4
    batch: int = 512
    buffer: int = 200_000
    reuse: float = 4.0
    """Train steps are limited to ``reuse × new samples / batch``: each sample is used about this often."""
    epsilon: float = 0.06
    warm_minutes: float = 10.0
    """The heuristic-following probability falls from 1 to 0 over this much training time."""
    selfplay: float = 0.4
    """Share of deals where all six seats learn; the rest are learner team vs a pool opponent."""
    snapshot_share: float = 0.3
    """Among pool deals, the share against an earlier snapshot (the rest against the heuristic)."""
    actors: int = 1
    publish_seconds: float = 20.0
    checkpoint_seconds: float = 120.0
    eval_minutes: float = 10.0
    eval_pairs: int = 60
    eval_seed: int = 99
    snapshot_minutes: float = 10.0
    seed: int = 1
    ray: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def scale(rules_name: str) -> float:
    """Returns are divided by this: the spread of a deal's point difference under the preset."""
    return 9.0 if rules_name == "tournament" else 12.0


def deal_returns(deal: Deal) -> list[float]:
    """Each seat's return: its team's points minus the other team's, scaled (see :func:`scale`)."""
    pts = team_points(deal)
    s = scale(deal.rules.name)
    diff = (pts[0] - pts[1]) / s
    return [diff if team(seat) == 0 else -diff for seat in range(SEATS)]


# ---------------------------------------------------------------------------------------------- actors


@dataclass
class ActorState:
    net: QNet | None = None
    mtime: float = -1.0
    snapshots: list[Path] = field(default_factory=list)


def _load_current(out: Path, st: ActorState) -> None:
    path = out / CURRENT
    try:
        m = path.stat().st_mtime
    except FileNotFoundError:
        return
    if m != st.mtime:
        st.net = QNet.load(path)
        st.mtime = m
        st.snapshots = sorted((out / "snapshots").glob("*.npz"))


def play_training_deal(
    cfg: TrainConfig, net: QNet, snapshots: Sequence[Path], follow: float, rng: random.Random
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """One deal for the learner: (states, action rows, returns) of its seats' decisions, and facts."""
    rules = cfg.rules[rng.randrange(len(cfg.rules))]
    deal = Deal.new(rules, seed=rng.getrandbits(48))
    learner = LearnedBot(net, epsilon=cfg.epsilon)
    heuristic = HeuristicBot()
    learning = [True] * SEATS
    opponent = "self"
    bots: list[Any] = [learner] * SEATS
    if rng.random() >= cfg.selfplay:
        side = rng.randrange(2)
        if snapshots and rng.random() < cfg.snapshot_share:
            opp: Any = LearnedBot(QNet.load(snapshots[rng.randrange(len(snapshots))]))
            opponent = "snapshot"
        else:
            opp = heuristic
            opponent = "heuristic"
        for s in range(SEATS):
            if s % 2 != side:
                bots[s] = opp
                learning[s] = False
    states: list[np.ndarray] = []
    rows: list[np.ndarray] = []
    seats: list[int] = []
    while True:
        to_act = deal.to_act
        if to_act is None:
            break
        s = to_act
        legal = deal.legal_actions()
        bot = bots[s]
        if len(legal) == 1:
            deal.act(legal[0])
            continue
        view = deal.view(s)
        if learning[s]:
            action, cands, state, arows, i = learner.evaluate(view, legal, rng)
            if follow > 0 and rng.random() < follow:
                prior = next((j for j in range(len(cands)) if arows[j, -1] > 0), None)
                if prior is not None and rng.random() >= cfg.epsilon:
                    action, i = cands[prior], prior
            if len(cands) > 1:
                states.append(state)
                rows.append(arows[i])
                seats.append(s)
        else:
            action = bot.decide(view, legal, rng)
        deal.act(action)
    ret = deal_returns(deal)
    n = len(seats)
    st = np.stack(states) if n else np.zeros((0, STATE_SIZE), np.float32)
    ar = np.stack(rows) if n else np.zeros((0, ACTION_SIZE), np.float32)
    g = np.asarray([ret[s] for s in seats], dtype=np.float32)
    return st, ar, g, {"rules": rules, "opponent": opponent, "decisions": deal.decisions}


def paired_deal(
    cfg: TrainConfig, net: QNet, rng: random.Random
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """One deal of paired rollouts: the advantage of alternatives over the heuristic's choice.

    The main line is played by the heuristic bot in every seat.  At some decisions (chance ``branch``)
    the deal is copied, the seat plays an alternative candidate instead — the network's favourite one or
    a random one — and the copy is played to its end by the heuristic too.  Both lines share everything
    but that one action (the heuristic is deterministic), so the difference of the seat's returns is the
    alternative's advantage with little noise: the sample (state, alternative) gets that difference, and
    (state, heuristic's choice) gets 0.  The network so learns where the heuristic's choice can be bettered.
    """
    import copy

    rules = cfg.rules[rng.randrange(len(cfg.rules))]
    deal = Deal.new(rules, seed=rng.getrandbits(48))
    learner = LearnedBot(net)
    learner.kinds = None  # branch wherever ``branch_kinds`` says, whatever the network's own ``deviate_in``
    heuristic = learner.prior
    states: list[np.ndarray] = []
    rows: list[np.ndarray] = []
    seats: list[int] = []
    alt_returns: list[float | None] = []
    while True:
        to_act = deal.to_act
        if to_act is None:
            break
        legal = deal.legal_actions()
        if len(legal) == 1:
            deal.act(legal[0])
            continue
        view = deal.view(to_act)
        if rng.random() >= cfg.branch or (cfg.branch_kinds is not None and decision_kind(view) not in cfg.branch_kinds):
            deal.act(heuristic.choose(view, legal)[0])
            continue
        _, cands, state, arows, _ = learner.evaluate(view, legal)
        prior = next((j for j in range(len(cands)) if arows[j, -1] > 0), None)
        if prior is None or len(cands) < 2:
            deal.act(heuristic.choose(view, legal)[0])
            continue
        others = [j for j in range(len(cands)) if j != prior]
        if rng.random() < cfg.focus:
            q = net.q(state, arows[others])
            alt = others[int(np.argmax(q))]
        else:
            alt = others[rng.randrange(len(others))]
        branch = copy.deepcopy(deal)
        branch.act(cands[alt])
        while True:
            s2 = branch.to_act
            if s2 is None:
                break
            legal2 = branch.legal_actions()
            branch.act(legal2[0] if len(legal2) == 1 else heuristic.choose(branch.view(s2), legal2)[0])
        g_alt = deal_returns(branch)[to_act]
        for j, g in ((prior, None), (alt, g_alt)):
            states.append(state)
            rows.append(arows[j])
            seats.append(to_act)
            alt_returns.append(g)
        deal.act(cands[prior])
    ret = deal_returns(deal)
    n = len(seats)
    st = np.stack(states) if n else np.zeros((0, STATE_SIZE), np.float32)
    ar = np.stack(rows) if n else np.zeros((0, ACTION_SIZE), np.float32)
    adv = np.asarray([0.0 if g is None else g - ret[s] for s, g in zip(seats, alt_returns, strict=True)], np.float32)
    return st, ar, adv, {"rules": rules, "opponent": "heuristic", "decisions": deal.decisions}


def actor_loop(cfg: TrainConfig, out: str, q: Any, stop: Any, actor: int, start_minutes: Any) -> None:
    """An actor process: play deals with the newest weights and send their samples to the learner."""
    import signal

    # A forked actor inherits the learner's signal handlers (which only set a flag of the learner's):
    # SIGTERM must end it, and Ctrl-C is the learner's to handle (it stops the actors).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    q.cancel_join_thread()  # at exit, never wait to flush samples the learner no longer reads
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    rng = random.Random(f"actor {cfg.seed}:{actor}:{time.time_ns()}")
    st = ActorState()
    path = Path(out)
    parent = os.getppid()
    while not stop.is_set() and os.getppid() == parent:  # an orphaned actor stops too
        _load_current(path, st)
        if st.net is None:
            time.sleep(0.2)
            continue
        minutes = float(start_minutes.value)
        follow = max(0.0, 1.0 - minutes / cfg.warm_minutes) if cfg.warm_minutes > 0 else 0.0
        if cfg.method == "paired":
            sample = paired_deal(cfg, st.net, rng)
        else:
            sample = play_training_deal(cfg, st.net, st.snapshots, follow, rng)
        while not stop.is_set():
            try:
                q.put(sample, timeout=0.5)
                break
            except queue.Full:
                continue


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
