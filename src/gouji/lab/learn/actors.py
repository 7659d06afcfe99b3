"""The actors of Deep Monte-Carlo training: processes (or Ray actors) playing whole deals with the newest
weights and sending the learner their samples."""

from __future__ import annotations

import os
import queue
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...bots.features import ACTION_SIZE, STATE_SIZE
from ...bots.heuristic import HeuristicBot
from ...bots.learned import LearnedBot, QNet, decision_kind
from ...engine.deal import Deal
from ...engine.seats import SEATS
from ..lookahead import Lookahead, history_key
from .config import CURRENT, TrainConfig, deal_returns, score_returns


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
    rules = cfg.rules[rng.randrange(len(cfg.rules))]
    deal = Deal.new(rules, seed=rng.getrandbits(48))
    learner = LearnedBot(net)
    learner.kinds = None  # branch wherever ``branch_kinds`` says, whatever the network's own ``deviate_in``
    heuristic = learner.prior
    lookahead = Lookahead(heuristic)  # (one rollout a branch: gouji.lab.lookahead)
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
        g_alt = score_returns(lookahead.rollout(deal, cands[alt], history_key(deal)), rules)[to_act]
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
