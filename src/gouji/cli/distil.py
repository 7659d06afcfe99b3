"""``gouji distil``: distilling the lookahead into a seat-view model (issue 46); ``labels`` makes its labels."""

from __future__ import annotations

import os
from pathlib import Path

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
