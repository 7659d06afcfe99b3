"""``gouji event``: a whole round-robin event of duplicate matches between bot teams, and its standings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..bots import BOTS, make_bot
from ..competition.duplicate import Tournament
from ..competition.round_robin import Event, EventError
from ..engine.rules import PRESETS, UnknownRules, resolve


def event_bots(teams: list[str], bots: str) -> dict[str, str]:
    """Which bot plays for each team: one name for every team, or one per team in the order of ``teams``."""
    names = [b.strip() for b in bots.split(",")]
    if len(names) == 1:
        names = names * len(teams)
    if len(names) != len(teams):
        raise click.BadParameter(
            f"give one bot for every team or one per team ({len(teams)}), not {len(names)}", param_hint="--bots"
        )
    for n in names:
        if n not in BOTS:
            raise click.BadParameter(f"no bot {n!r}; the bots are {', '.join(sorted(BOTS))}", param_hint="--bots")
    return dict(zip(teams, names, strict=True))


def schedule_table(summary: dict[str, Any]) -> Table:
    """The schedule with the results: one row per match."""
    table = Table(title="Schedule and results (small points, match points)", title_justify="left")
    for col in ("round", "match", "甲 (X)", "乙 (Y)", "small points", "match points", "bye"):
        table.add_column(col)
    for r in summary["rounds"]:
        for i, m in enumerate(r["matches"]):
            sp = "" if m["small_points"] is None else f"{m['small_points'][0]} : {m['small_points'][1]}"
            mp = "" if m["match_points"] is None else f"{m['match_points'][0]} : {m['match_points'][1]}"
            bye = ", ".join(r["byes"]) if i == 0 else ""
            table.add_row(str(r["round"]), m["key"], m["x"], m["y"], sp, mp, bye)
    return table


def standings_table(summary: dict[str, Any]) -> Table:
    """The standings: rank, team, record, match points, small points, and what broke a tie."""
    table = Table(title="Standings", title_justify="left")
    for col, justify in (
        ("rank", "right"),
        ("team", "left"),
        ("played", "right"),
        ("W-D-L", "right"),
        ("match points", "right"),
        ("small points", "right"),
        ("against", "right"),
        ("tie broken by", "left"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for s in summary["standings"]:
        table.add_row(
            str(s["rank"]),
            s["team"],
            str(s["played"]),
            f"{s['won']}-{s['drawn']}-{s['lost']}",
            str(s["match_points"]),
            str(s["small_points"]),
            str(s["small_against"]),
            s["decided_by"] or "",
        )
    return table


def comparison_table(match: Tournament) -> Table:
    """The duplicate comparison of ``gouji tournament --compare``: each team's small points with the same
    hands, deal by deal and side by side, and the places each hand took at both tables."""
    x, y = match.teams
    table = Table(title="The same cards compared (small points with the same hands)", title_justify="left")
    for col in ("deal", "hands of seats", x, y, "margin", "places of each hand: table 1 / table 2"):
        table.add_column(col, justify="right" if col in (x, y, "margin") else "left")
    for c in match.comparison():
        for side in c["sides"]:
            places = ", ".join(
                f"{s}: {c['hands'][s]['tables'][0]['team']} {c['hands'][s]['tables'][0]['place']}"
                f" / {c['hands'][s]['tables'][1]['team']} {c['hands'][s]['tables'][1]['place']}"
                for s in side["seats"]
            )
            table.add_row(
                str(c["deal"]),
                " ".join(str(s) for s in side["seats"]),
                str(side["points"][0]),
                str(side["points"][1]),
                f"{side['margin']:+d}",
                places,
            )
    return table


@click.command(short_help="Play a round-robin event of duplicate matches between bot teams.")
@click.option("--teams", required=True, help="the team names, comma-separated (2 to 16)")
@click.option("--bots", default="heuristic", show_default=True, help="one bot for every team, or one per team (a,b,…)")
@click.option("--rules", "rules_name", default="tournament", show_default=True, help="rule preset")
@click.option("--deals", default=4, show_default=True, type=click.IntRange(1, 20), help="deals in each match")
@click.option("--seed", default=1, show_default=True, type=int)
@click.option(
    "--record", "record_path", type=click.Path(dir_okay=False, path_type=Path), help="store the event's record"
)
@click.option("--json", "as_json", is_flag=True, help="print the schedule, results and standings as JSON")
def event(
    teams: str, bots: str, rules_name: str, deals: int, seed: int, record_path: Path | None, as_json: bool
) -> None:
    """A round robin of duplicate matches (比赛规则) between TEAMS, every team played by a bot: each match
    is two tables with the same cards and the teams swapped.  Prints the standings by match points
    (3/1/0), ties broken head-to-head among the tied teams, then by small points (rule book §16.4)."""
    try:
        rules = resolve(rules_name.lower())
    except UnknownRules:
        raise click.BadParameter(
            f"no preset {rules_name!r}; the presets are {', '.join(PRESETS)}", param_hint="--rules"
        ) from None
    try:
        ev = Event(teams.split(","), rules, seed=seed, deals=deals)
    except EventError as e:
        raise click.BadParameter(str(e), param_hint="--teams") from None
    chosen = event_bots(ev.teams, bots)
    players = {t: make_bot(b) for t, b in chosen.items()}
    matches: dict[str, Tournament] = {}
    ev.play_bots(players, done=lambda f, m: matches.__setitem__(f.key, m))
    if record_path is not None:
        record_path.write_text(json.dumps(ev.record(matches), ensure_ascii=False), encoding="utf-8")
    summary = ev.summary()
    summary["bots"] = chosen
    summary["seed"] = seed
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False))
        return
    console = Console()
    console.print(
        f"[bold]Event[/] of {len(ev.teams)} teams, {rules.name}, {deals} deals a match, seed {seed}: "
        + ", ".join(f"{t} = {b}" for t, b in chosen.items())
    )
    console.print(schedule_table(summary))
    console.print(standings_table(summary))
