"""``gouji arena``: two bots against each other over duplicate deals, with confidence intervals."""

from __future__ import annotations

import random
from typing import Any

import click

from ..bots import BOTS
from ..engine.rules import RuleSet
from .options import (
    PRESET_CHOICE,
    RULE_OPTION,
    emit,
    progress_bar,
    with_options,
)


@click.command(short_help="Measure two bots against each other with duplicate deals.")
@click.option("--a", "bot_a", required=True, metavar="BOT", help="Bot A (seats 0 2 4 in the first game of a pair).")
@click.option("--b", "bot_b", required=True, metavar="BOT", help="Bot B (seats 1 3 5 in the first game of a pair).")
@click.option("--rules", "preset", type=PRESET_CHOICE, default="qingdao", show_default=True, help="The rule preset.")
@click.option(
    "--deals", type=click.IntRange(min=1), default=100, show_default=True, help="How many deals, each played twice."
)
@click.option("--seed", type=int, default=None, help="Seed of the run (default: a random one, reported).")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes, or Ray actors with --ray (same results) [default: 1; with --ray one per CPU].",
)
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="local",
    default=None,
    metavar="[ADDRESS]",
    help="Spread the pairs over a Ray cluster: a local one, or the one at ADDRESS (auto, ray://host:port). "
    "Needs the rl extra.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@RULE_OPTION
def arena(
    bot_a: str,
    bot_b: str,
    preset: str,
    deals: int,
    seed: int | None,
    jobs: int | None,
    ray_address: str | None,
    as_json: bool,
    options: dict[str, Any],
) -> None:
    """Play --deals duplicate deals between bots --a and --b: every deal twice with the same cards, the teams
    swapping seats, so each bot holds each set of hands once.  Reports per bot the mean place points per
    deal with a 95% confidence interval, the pairs won, mean place, sweeps, 闷, burns and revolutions, and
    A's margin over B per pair.  The same bots, --rules, --deals and --seed give the same figures, whatever
    --jobs and --ray are."""
    from ..lab.arena import arena_tables, run_arena

    for name, hint in ((bot_a, "--a"), (bot_b, "--b")):
        if name not in BOTS:
            raise click.BadParameter(f"no bot {name!r}; the bots are {', '.join(sorted(BOTS))}", param_hint=hint)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    rs = with_options(RuleSet.preset(preset), options)
    bar = progress_bar()
    with bar:
        task = bar.add_task(f"{bot_a} vs {bot_b}: duplicate deals", total=deals)
        try:
            result = run_arena(
                bot_a,
                bot_b,
                rs,
                deals,
                seed,
                jobs=jobs,
                progress=lambda done: bar.update(task, completed=done),
                ray=ray_address,
            )
        except (RuntimeError, ConnectionError) as e:  # Ray missing, or no cluster at the address
            if ray_address is None:
                raise
            raise click.ClickException(str(e)) from None
    title = f"{deals} deals, each played twice with the teams swapped; seed {seed}"
    emit(result.to_dict(), as_json, title, rs, lambda: arena_tables(result))
