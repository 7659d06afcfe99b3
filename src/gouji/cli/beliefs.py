"""``gouji beliefs``: train the learned beliefs on self-play labels (:mod:`gouji.lab.beliefs`)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..engine.rules import PRESETS


@click.command(short_help="Train the learned beliefs (can this seat beat that play?) on self-play labels.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="Model (JSON).")
@click.option(
    "--rules", "rules_names", default="qingdao,tournament", show_default=True, help="Presets, comma-separated."
)
@click.option("--deals", type=click.IntRange(min=1), default=400, show_default=True, help="Deals per preset.")
@click.option("--check-deals", type=click.IntRange(min=1), default=40, show_default=True, help="Held out, per preset.")
@click.option("--seed", type=click.IntRange(min=0, max=10**6), default=1, show_default=True)
@click.option("--ridge", type=click.FloatRange(min=0.0), default=1e-3, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1, max=64), default=1, show_default=True, help="Processes.")
def beliefs(out: Path, rules_names: str, deals: int, check_deals: int, seed: int, ridge: float, jobs: int) -> None:
    """Play --deals self-play deals of each preset with the heuristic, label every question "does this seat
    hold a play that beats this one?" with the hidden hand's true answer, fit the logistic model, and check
    its log-loss against the binomial answer's on --check-deals other deals (seed + 1).  OUT is what
    ``gouji.bots.beliefs.Beliefs.load`` reads."""
    names = tuple(n.strip() for n in rules_names.split(",") if n.strip())
    bad = [n for n in names if n not in PRESETS]
    if not names or bad:
        raise click.BadParameter(
            f"{', '.join(bad) or 'none'}: the presets are {', '.join(PRESETS)}", param_hint="--rules"
        )
    if not out.parent.is_dir():
        raise click.BadParameter(f"{out.parent} is not a folder", param_hint="--out")
    from ..lab import beliefs as B

    train = B.collect(names, deals, seed, jobs)
    check = B.collect(names, check_deals, seed + 1, jobs)
    model = B.fit(train, ridge=ridge)
    report = B.evaluate(model, check)
    model.meta.update({"rules": list(names), "seed": seed, "check": report})
    try:
        out.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    except OSError as e:
        raise click.ClickException(f"{out}: {e.strerror or e}") from None
    click.echo(
        f"{report['rows']} held-out questions: log-loss {report['loss_model']:.4f} "
        f"(the binomial answer {report['loss_binomial']:.4f}); model written to {out}"
    )
