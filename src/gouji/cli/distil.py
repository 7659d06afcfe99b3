"""``gouji distil``: distilling the lookahead into a seat-view model (issue 46); ``labels`` makes its labels."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click


@click.group(short_help="Distil the lookahead (大师): labels from self-play rollouts.")
def distil() -> None:
    """Distil the one-step lookahead with the true hands into a model that sees one seat's view."""


@distil.command(short_help="Label self-play decisions by rollouts; resumable, one .npz a chunk.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Labels folder.")
@click.option("--hours", type=click.FloatRange(min=0.0, min_open=True), required=True, help="Wall-clock budget.")
@click.option("--jobs", type=click.IntRange(min=1, max=64), default=1, show_default=True, help="Processes.")
@click.option(
    "--rules", "rules_names", default="qingdao,tournament", show_default=True, help="Presets, comma-separated."
)
@click.option("--chunk-deals", type=click.IntRange(min=1, max=1000), default=20, show_default=True)
@click.option("--sample", type=click.FloatRange(min=0.0, max=1.0, min_open=True), default=0.25, show_default=True)
@click.option("--candidates", type=click.IntRange(min=2, max=32), default=8, show_default=True)
@click.option("--seed-prefix", default="distil46", show_default=True, help="Seeds are PREFIX/chunk/deal.")
@click.option(
    "--chunks", "max_chunks", type=click.IntRange(min=1), default=None, help="Stop after this many new chunks."
)
@click.option("--nice", "niceness", type=click.IntRange(min=0, max=19), default=10, show_default=True)
def labels(
    out: Path,
    hours: float,
    jobs: int,
    rules_names: str,
    chunk_deals: int,
    sample: float,
    candidates: int,
    seed_prefix: str,
    max_chunks: int | None,
    niceness: int,
) -> None:
    """Play self-play deals with the heuristic in all six seats; at a --sample of the decisions, play each of
    a handful of candidates out to the end with the true hands (the 复盘 review's rollouts) and store its
    advantage over the heuristic's choice, with the seat's observation and the candidate's encoding.

    One compressed .npz a chunk of --chunk-deals deals, written atomically, and OUT/manifest.json; run the
    same command again to resume (the settings must match).  No chunk starts after --hours."""
    from ..lab.distil import LabelsError, Settings, check_rules, run

    try:
        names = check_rules(tuple(n.strip() for n in rules_names.split(",") if n.strip()))
        settings = Settings(names, chunk_deals, sample, candidates, seed_prefix)
        if niceness:
            os.nice(niceness)  # the machine stays usable for tests (the processes it starts inherit it)
        manifest = run(out, settings, hours, jobs, max_chunks, log=lambda line: click.echo(line))
    except LabelsError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"{out}: {e.strerror or e}") from None
    click.echo(
        f"{out}: {manifest['alternatives']} labels (+{manifest['labelled']} of the heuristic's choice) from "
        f"{manifest['deals']} deals in {len(manifest['chunks'])} chunks, {manifest['cpu_seconds']:.0f} s CPU"
    )


_LABELS = click.option(
    "--labels",
    "folder",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    required=True,
    help="Labels folder (gouji distil labels).",
)
_CHUNKS = click.option(
    "--chunks", type=click.IntRange(min=1), default=None, help="Only chunks 0 … N-1 (a folder still growing)."
)
_ENSEMBLE = click.option(
    "--ensemble", "members", type=click.IntRange(min=1, max=16), default=1, show_default=True, help="Networks averaged."
)
_REPORT = click.option(
    "--report", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Also write JSON."
)


@distil.command(short_help="Train the 大师 model on labels; check it on held-out chunks; save the weights.")
@_LABELS
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="Weights (.npz).")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Train on the first chunks holding this many.")
@click.option("--epochs", type=click.IntRange(min=1, max=1000), default=30, show_default=True)
@_ENSEMBLE
@click.option("--seed", type=int, default=0, show_default=True)
@_CHUNKS
@_REPORT
def train(
    folder: Path,
    out: Path,
    limit: int | None,
    epochs: int,
    members: int,
    seed: int,
    chunks: int | None,
    report: Path | None,
) -> None:
    """Train the expert bot's network (needs the [train] extra: torch) on the labels' training chunks, choose
    each preset's margin on the validation chunks and measure the deviations it would make on the test
    chunks (see gouji.lab.expert_data).  Prints the check as a Markdown table."""
    t = _trainer()
    config = t.TrainConfig(epochs=epochs, seed=seed)
    result = _checked(lambda: t.train(folder, out, limit, config, members, click.echo, chunks))
    _finish(t.table([result]), result, report)
    click.echo(f"{out}: the network, its scales and margins")


def _trainer() -> Any:
    try:
        from ..lab import expert_train
    except ImportError as e:  # torch missing
        raise click.ClickException(f"training needs the [train] extra (PyTorch): {e}") from None
    return expert_train


def _checked(work: Callable[[], Any]) -> Any:
    from ..lab.distil import LabelsError

    try:
        return work()
    except LabelsError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"{e.filename or ''}: {e.strerror or e}") from None


def _finish(table: str, result: Any, report: Path | None) -> None:
    click.echo(table)
    if report is not None:
        report.write_text(json.dumps(result, indent=1, default=float) + "\n", encoding="utf-8")


@distil.command(short_help="The learning curve: train at several label counts, check each on held-out chunks.")
@_LABELS
@_CHUNKS
@click.option("--sizes", default="25000,50000,100000,0", show_default=True, help="Training labels (0: all).")
@_ENSEMBLE
@_REPORT
def curve(folder: Path, chunks: int | None, sizes: str, members: int, report: Path | None) -> None:
    """Train at each size (the first training chunks holding that many labels) and print the offline check
    of each as one Markdown table."""
    try:
        counts = [int(s) for s in sizes.split(",") if s.strip()]
    except ValueError:
        raise click.BadParameter(f"{sizes!r}: give whole numbers, comma-separated", param_hint="--sizes") from None
    if not counts or min(counts) < 0:
        raise click.BadParameter(f"{sizes!r}: give label counts ≥ 0, comma-separated", param_hint="--sizes")
    t = _trainer()
    rows = _checked(lambda: t.curve(folder, counts, t.TrainConfig(), members, lambda _: None, chunks))
    _finish(t.table(rows), rows, report)
