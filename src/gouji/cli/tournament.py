"""``gouji tournament``: a duplicate match (比赛规则) between two bot teams."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..bots import BOTS, make_bot
from ..competition.duplicate import Tournament
from .options import (
    RULE_OPTION,
    check_writable,
    preset_rules,
    with_options,
    write_record,
)


@click.command()
@click.option("--bots", "bots", default="heuristic,random", show_default=True, help="team X's bot,team Y's bot")
@click.option("--rules", "rules_name", default="tournament", show_default=True, help="rule preset")
@click.option("--deals", default=4, show_default=True, type=int, help="deals in the match")
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path), help="store the record")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
@click.option("--compare", is_flag=True, help="also show what each team did with the same cards")
@RULE_OPTION
def tournament(
    bots: str,
    rules_name: str,
    deals: int,
    seed: int,
    record_path: Path | None,
    as_json: bool,
    compare: bool,
    options: dict[str, Any],
) -> None:
    """A duplicate tournament match (比赛规则) between two bot teams: every deal at two tables with
    the same cards and the teams swapped; small points 6..1, match points 3/1/0."""
    rules = with_options(preset_rules(rules_name), options)
    names = bots.split(",")
    if len(names) != 2 or any(n not in BOTS for n in names):
        raise click.BadParameter(f"give two bots, e.g. heuristic,random; the bots are {', '.join(sorted(BOTS))}")
    if deals < 1:
        raise click.BadParameter("deals must be at least 1")
    if record_path is not None:
        check_writable(record_path)
    t = Tournament(rules, seed=seed, deals=deals)
    t.run_bots(make_bot(names[0]), make_bot(names[1]), random.Random(f"tournament {seed}"))
    if record_path is not None:
        write_record(record_path, t.record())
    rows = t.result_table()
    if as_json:
        out = {"teams": names, "deals": rows, "totals": t.totals, "match_points": t.match_points()}
        if compare:
            out["comparison"] = t.comparison()
        click.echo(json.dumps(out))
        return
    console = Console()
    table = Table(
        title=f"Duplicate match, {rules.name}, seed {seed}: X = {names[0]}, Y = {names[1]}", title_justify="left"
    )
    table.add_column("deal", justify="right")
    table.add_column("table 1 places (头科 → 大落)")
    table.add_column("table 2 places")
    table.add_column("X", justify="right")
    table.add_column("Y", justify="right")
    for r in rows:
        table.add_row(
            str(r["deal"]),
            " ".join(r["tables"][0]),
            " ".join(r["tables"][1]),
            str(r["points"][0]),
            str(r["points"][1]),
        )
    x, y = t.totals
    mx, my = t.match_points()
    table.add_row("total", "", "", str(x), str(y))
    table.add_row("match points", "", "", str(mx), str(my))
    console.print(table)
    console.print("places read as team letter + seat: X0 is team X in seat 0")
    if compare:
        from .event import comparison_table

        console.print(comparison_table(t))
