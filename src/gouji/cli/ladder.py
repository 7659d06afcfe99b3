"""``gouji ladder``: every bot against the heuristic and the novice, by duplicate pairs (docs/ladder.md)."""

from __future__ import annotations

from pathlib import Path

import click

from ..engine.rules import PRESETS


@click.command(short_help="Every bot against the heuristic and the novice (duplicate pairs, decision times).")
@click.option("--pairs", type=click.IntRange(min=2), default=200, show_default=True, help="Pairs per rung.")
@click.option("--seed", type=int, default=2026, show_default=True, help="Arena seed (tuning never uses it).")
@click.option("--bots", "bot_names", default=None, help="Bots, comma-separated (default: every registered bot).")
@click.option("--rules", "rules_names", default="qingdao,tournament", show_default=True, help="Presets.")
@click.option("--jobs", type=click.IntRange(min=1, max=64), default=1, show_default=True, help="Processes.")
@click.option("--time-deals", type=click.IntRange(min=1), default=4, show_default=True, help="Deals timed a bot.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("ladder.json"),
    show_default=True,
    help="Results (JSON; a run on the same file resumes).",
)
@click.option("--markdown", "md", type=click.Path(dir_okay=False, path_type=Path), help="Also write the tables here.")
def ladder(
    pairs: int,
    seed: int,
    bot_names: str | None,
    rules_names: str,
    jobs: int,
    time_deals: int,
    out: Path,
    md: Path | None,
) -> None:
    """Play every bot against the heuristic and against the novice on each preset (--pairs duplicate pairs
    a rung), time each bot's decisions, write the results to --out as they come and print the tables."""
    from ..lab import ladder as L

    names = [n.strip() for n in rules_names.split(",") if n.strip()]
    bad = [n for n in names if n not in PRESETS]
    if not names or bad:
        raise click.BadParameter(
            f"{', '.join(bad) or 'none'}: the presets are {', '.join(PRESETS)}", param_hint="--rules"
        )
    bots = [b.strip() for b in bot_names.split(",") if b.strip()] if bot_names else None
    try:
        data = L.run_ladder(out, pairs, seed, bots, names, jobs, time_deals, log=lambda s: click.echo(s, err=True))
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"{out}: {e.strerror or e}") from None
    text = L.markdown(data)
    if md is not None:
        md.write_text(text, encoding="utf-8")
    click.echo(text)
