"""Training the 大师 model (issue 46): a seat's view and a candidate → its advantage over the heuristic.

A small multi-layer perceptron over the state row and the candidate's action row (the ``learned`` bot's
features, :mod:`gouji.bots.features`: what one seat may know), trained with PyTorch on the CPU (one
thread) on the labels of :mod:`gouji.lab.distil` — Huber loss on the advantage in each preset's unit (its
spread: ``qingdao`` counts place points, about six times ``tournament``'s small points), early stopping
on the validation chunks.  It is saved as a :class:`gouji.bots.learned.QNet` (``.npz``, numpy forward pass),
with the preset scales and the margins the offline check (:func:`gouji.lab.expert_data.check`) chose on
validation in its meta.  Needs the ``[train]`` extra (torch), imported only when training.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..bots.features import ACTION_SIZE, STATE_SIZE
from ..bots.learned import QNet
from .expert_data import Labels, check, load, scales, split, targets


@dataclass(frozen=True)
class TrainConfig:
    hidden: tuple[int, ...] = (256, 128)
    epochs: int = 30
    patience: int = 3
    batch: int = 512
    lr: float = 1e-3
    weight_decay: float = 1e-5
    huber: float = 1.0
    seed: int = 0
    threads: int = 1


def _tensors(labels: Labels, scale: dict[str, float]) -> tuple[Any, Any, Any, Any]:
    import torch

    return (
        torch.from_numpy(labels.states),
        torch.from_numpy(labels.actions),
        torch.from_numpy(labels.decision),
        torch.from_numpy(targets(labels, scale)),
    )


def fit(
    train: Labels,
    validation: Labels,
    config: TrainConfig = TrainConfig(),
    log: Callable[[str], None] = print,
) -> tuple[QNet, dict[str, Any]]:
    """Train a network on ``train``, stopping when the ``validation`` loss stops falling; the network with
    the lowest validation loss and the training's facts."""
    import torch
    from torch import nn

    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    scale = scales(train)
    sizes = (STATE_SIZE + ACTION_SIZE, *config.hidden, 1)
    mods: list[nn.Module] = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        mods.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            mods.append(nn.ReLU())
    model = nn.Sequential(*mods)
    opt = torch.optim.Adam(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    loss_fn = nn.HuberLoss(delta=config.huber)
    ts, ta, td, ty = _tensors(train, scale)
    vs, va, vd, vy = _tensors(validation, scale)

    def val_loss() -> float:
        with torch.no_grad():
            out = model(torch.cat([vs[vd], va], 1))[:, 0]
            return float(loss_fn(out, vy))

    best, best_state, stale, epoch = float("inf"), None, 0, 0
    gen = torch.Generator().manual_seed(config.seed)
    t0 = time.process_time()
    for epoch in range(1, config.epochs + 1):
        model.train()
        perm = torch.randperm(train.size, generator=gen)
        total = 0.0
        for i in range(0, train.size, config.batch):
            idx = perm[i : i + config.batch]
            x = torch.cat([ts[td[idx]], ta[idx]], 1)
            loss = loss_fn(model(x)[:, 0], ty[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        model.eval()
        v = val_loss()
        log(f"epoch {epoch}: train loss {total / train.size:.4f}, validation loss {v:.4f}")
        if v < best - 1e-5:
            best, stale = v, 0
            best_state = {k: t.clone() for k, t in model.state_dict().items()}
        else:
            stale += 1
            if stale >= config.patience:
                break
    assert best_state is not None
    model.load_state_dict(best_state)
    linears = [m for m in model if isinstance(m, nn.Linear)]
    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears]
    facts = {
        "labels": train.size,
        "decisions": len(train.states),
        "chunks": sorted({int(c) for c in train.chunk}),
        "epochs": epoch,
        "validation_loss": best,
        "cpu_seconds": round(time.process_time() - t0, 1),
        "config": asdict(config),
    }
    meta = {"kind": "expert", "scale": scale, "train": facts}
    return QNet(layers, meta), facts


def ensemble(nets: Sequence[QNet]) -> QNet:
    """One network whose value is the mean of ``nets``' (same shapes): their first layers side by side,
    the hidden ones block-diagonal, the last ones stacked and divided by their number — the bot's numpy
    forward pass computes the average in one go."""
    if not nets:
        raise ValueError("an ensemble needs at least one network")
    n = len(nets)
    w0 = np.concatenate([np.concatenate([m.w_state, m.w_action]) for m in nets], 1)
    layers = [(w0, np.concatenate([m.b0 for m in nets]))]
    for i in range(len(nets[0].rest)):
        ws, bs = [m.rest[i][0] for m in nets], [m.rest[i][1] for m in nets]
        last = i == len(nets[0].rest) - 1
        if last:
            layers.append((np.concatenate(ws, 0) / n, np.mean(bs, 0)))
        else:
            big = np.zeros((sum(w.shape[0] for w in ws), sum(w.shape[1] for w in ws)), np.float32)
            r = c = 0
            for w in ws:
                big[r : r + w.shape[0], c : c + w.shape[1]] = w
                r, c = r + w.shape[0], c + w.shape[1]
            layers.append((big, np.concatenate(bs)))
    return QNet([(w.astype(np.float32), b.astype(np.float32)) for w, b in layers], dict(nets[0].meta))


def train(
    folder: Path,
    out: Path | None,
    limit: int | None = None,
    config: TrainConfig = TrainConfig(),
    members: int = 1,
    log: Callable[[str], None] = print,
    chunks: int | None = None,
) -> dict[str, Any]:
    """Train on ``folder``'s training chunks (the first holding ``limit`` labels, or all) — ``members``
        networks of successive seeds, averaged (:func:`ensemble`) —, check on the held-out ones, and save the
        network with its margins to ``out`` (when given); ``chunks``: only chunks ``0 … chunks - 1`` (a folder that
    is still growing, read as it was).  Returns the report."""
    labels = load(folder, None if chunks is None else range(chunks))
    parts = split(labels, limit)
    for name, p in parts.items():
        if p.size == 0:
            from .distil import LabelsError

            raise LabelsError(f"{folder} has no {name} labels (chunks are split by number: see expert_data)")
    nets = []
    for i in range(members):
        net, facts = fit(parts["train"], parts["validation"], replace(config, seed=config.seed + i), log)
        nets.append(net)
    net = ensemble(nets) if members > 1 else nets[0]
    net.meta["members"] = members
    report = check(net, parts)
    net.meta["check"] = report
    if out is not None:
        net.save(out)
    return {
        "train": facts,
        "check": report,
        "test_labels": parts["test"].size,
        "chunks": len(np.unique(labels.chunk)),
    }


def curve(
    folder: Path,
    sizes: Sequence[int],
    config: TrainConfig = TrainConfig(),
    members: int = 1,
    log: Callable[[str], None] = print,
    chunks: int | None = None,
) -> list[dict[str, Any]]:
    """The learning curve: one :func:`train` a size (``0``: all the training labels), nothing saved."""
    return [train(folder, None, n or None, config, members, log, chunks) for n in sizes]


def table(rows: Sequence[dict[str, Any]]) -> str:
    """The learning curve as a Markdown table (test labels; margins from validation)."""
    head = (
        "| training labels | preset | Spearman (all) | Spearman (within decisions) | margin | deviations a decision "
        "| their mean true advantage [95%] | gain a decision |\n|---|---|---|---|---|---|---|---|"
    )
    lines = [head]
    for row in rows:
        for name, r in row["check"].items():
            d = r["test"]
            m = "never" if not np.isfinite(r["margin"]) else f"{r['margin']:.2f}"
            mean = "—" if d["count"] == 0 else f"{d['mean']:+.2f} [{d['low']:+.2f}, {d['high']:+.2f}]"
            lines.append(
                f"| {row['train']['labels']:,} | {name} | {r['spearman']:.3f} | {r['spearman_within']:.3f} | {m} "
                f"| {d['count'] / max(d['decisions'], 1):.3f} ({d['count']} of {d['decisions']}) | {mean} "
                f"| {d['gain']:+.3f} |"
            )
    return "\n".join(lines)


__all__ = ["TrainConfig", "curve", "ensemble", "fit", "table", "train"]
