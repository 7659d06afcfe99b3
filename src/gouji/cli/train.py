"""``gouji train``: train the learned bot's value network (needs the ``[train]`` extra)."""

from __future__ import annotations

import math
from pathlib import Path

import click

from ..engine.rules import PRESETS


@click.command(short_help="Train the learned bot (Deep Monte-Carlo; needs the [train] extra).")
@click.option(
    "--rules",
    "rules_names",
    default="qingdao,tournament",
    show_default=True,
    help="Presets to train on, comma-separated.",
)
@click.option("--minutes", type=click.FloatRange(min=0.0, min_open=True), required=True, help="Wall-clock time.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Run folder.")
@click.option("--actors", type=click.IntRange(min=1, max=64), default=1, show_default=True, help="Actor processes.")
@click.option(
    "--method",
    type=click.Choice(["paired", "dmc"]),
    default="paired",
    show_default=True,
    help="paired: branch rollouts against the heuristic's choice; dmc: plain returns of whole deals.",
)
@click.option("--eval-minutes", type=float, default=15.0, show_default=True, help="Minutes between evaluations.")
@click.option("--eval-pairs", type=click.IntRange(min=1), default=40, show_default=True, help="Pairs per eval.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--ship", "ship_to", type=click.Path(dir_okay=False, path_type=Path), help="Copy the weights here.")
def train(
    rules_names: str,
    minutes: float,
    out: Path,
    actors: int,
    method: str,
    eval_minutes: float,
    eval_pairs: int,
    seed: int,
    ship_to: Path | None,
) -> None:
    """Train for --minutes, resuming from --out's checkpoint when there is one (a resumed run keeps its
    own settings).  Writes OUT/current.npz (the weights, loadable with numpy alone), OUT/checkpoint.pt,
    snapshots, and the learning curve OUT/curve.csv and OUT/curve.png (duplicate margin against the
    heuristic over training time)."""
    names = tuple(n.strip() for n in rules_names.split(",") if n.strip())
    bad = [n for n in names if n not in PRESETS]
    if not names or bad:
        raise click.BadParameter(
            f"{', '.join(bad) or 'none'}: the presets are {', '.join(PRESETS)}", param_hint="--rules"
        )
    for option, value in (("--minutes", minutes), ("--eval-minutes", eval_minutes)):
        if not 0 < value < math.inf:  # (click's range lets NaN and infinity through)
            raise click.BadParameter(f"{value} is not a number of minutes above 0", param_hint=option)
    from ..lab.learn import dmc  # imports torch lazily

    try:
        import torch  # noqa: F401
    except ImportError:
        raise click.ClickException("gouji train needs PyTorch: pip install -e '.[train]'") from None
    cfg = dmc.TrainConfig(
        rules=names,
        actors=actors,
        method=method,
        eval_minutes=eval_minutes,
        eval_pairs=eval_pairs,
        seed=seed,
    )
    try:
        dmc.train(out, minutes, cfg, log=lambda s: click.echo(s))
    except OSError as e:
        raise click.ClickException(f"{out}: {e.strerror or e}") from None
    if ship_to is not None:
        dmc.ship(out, ship_to)
        click.echo(f"weights copied to {ship_to}")
