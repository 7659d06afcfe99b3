"""``gouji tune``: tune the heuristic's weights by CMA-ES on duplicate pairs (needs the ``[tune]`` extra)."""

from __future__ import annotations

import math
from pathlib import Path

import click

from ..engine.rules import PRESETS


@click.command(short_help="Tune the heuristic's weights (CMA-ES on duplicate pairs; needs [tune]).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Run folder.")
@click.option(
    "--rules",
    "rules_names",
    default="qingdao,tournament",
    show_default=True,
    help="Presets to tune on, comma-separated.",
)
@click.option("--generations", type=click.IntRange(min=1), default=None, help="Generations to run now.")
@click.option("--minutes", type=click.FloatRange(min=0.0, min_open=True), default=None, help="Wall-clock time.")
@click.option("--pairs", type=click.IntRange(min=2), default=24, show_default=True, help="Pairs per preset.")
@click.option("--popsize", type=click.IntRange(min=2), default=10, show_default=True, help="Candidates.")
@click.option("--sigma", type=click.FloatRange(min=0.0, min_open=True), default=0.3, show_default=True)
@click.option("--seed", type=click.IntRange(min=0, max=10**6), default=1, show_default=True)
@click.option("--heldout-pairs", type=click.IntRange(min=2), default=200, show_default=True)
@click.option("--no-heldout", is_flag=True, help="Skip the held-out check at the end.")
@click.option("--jobs", type=click.IntRange(min=1, max=64), default=1, show_default=True, help="Processes.")
def tune(
    out: Path,
    rules_names: str,
    generations: int | None,
    minutes: float | None,
    pairs: int,
    popsize: int,
    sigma: float,
    seed: int,
    heldout_pairs: int,
    no_heldout: bool,
    jobs: int,
) -> None:
    """Run CMA-ES over the heuristic's weights for --generations or --minutes (whichever ends first),
    resuming from OUT/state.json when there is one (a resumed run keeps its own settings).  Each
    generation plays fresh deals; OUT/params.json holds the weights of the distribution's mean, and the
    held-out check at the end plays them against the shipped heuristic on deals no generation used."""
    names = tuple(n.strip() for n in rules_names.split(",") if n.strip())
    bad = [n for n in names if n not in PRESETS]
    if not names or bad:
        raise click.BadParameter(
            f"{', '.join(bad) or 'none'}: the presets are {', '.join(PRESETS)}", param_hint="--rules"
        )
    if generations is None and minutes is None:
        raise click.BadParameter("give --generations or --minutes (or both)", param_hint="--generations")
    if minutes is not None and not minutes < math.inf:
        raise click.BadParameter(f"{minutes} is not a number of minutes", param_hint="--minutes")
    from ..lab import tune as T

    cfg = T.TuneConfig(rules=names, pairs=pairs, popsize=popsize, sigma0=sigma, seed=seed, heldout_pairs=heldout_pairs)
    try:
        T.tune(
            out,
            cfg,
            generations=generations,
            minutes=minutes,
            jobs=jobs,
            heldout=not no_heldout,
            log=lambda s: click.echo(s),
        )
    except (RuntimeError, ValueError) as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"{out}: {e.strerror or e}") from None
