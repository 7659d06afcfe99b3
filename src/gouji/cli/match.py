"""The command line of sets and tournaments: ``gouji sim --set``, ``gouji tournament``, ``gouji replay``."""

from __future__ import annotations

import json
import os
import random
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..bots import BOTS, decide, make_bot
from ..competition.sets import Match, RecordError, Tournament, load_record
from ..competition.transcript import format_events
from ..engine.rules import PRESETS, RuleSet, UnknownRules, resolve

TRIBUTE_KINDS = ("men", "shao", "dian", "luo", "sweep")


def _rules(name: str) -> RuleSet:
    try:
        return resolve(name.lower())
    except UnknownRules:
        raise click.BadParameter(f"no preset {name!r}; the presets are {', '.join(PRESETS)}") from None


def parse_rule_options(
    ctx: click.Context | None, param: click.Parameter | None, items: tuple[str, ...]
) -> dict[str, Any]:
    """``--option NAME=VALUE`` items as a dict: VALUE read as JSON (``false``, ``3``, ``[4,2,0,0,-2,-4]``,
    ``{"3":10}``), else taken as a word (``scoring=tournament``)."""
    out: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{item!r}: give NAME=VALUE, e.g. bie_san=false", param_hint="--option")
        try:
            value = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            value = text
        out[name.strip()] = value
    return out


def with_options(rules: RuleSet, options: dict[str, Any]) -> RuleSet:
    """``rules`` with the ``--option`` changes; a refused option is a :class:`click.BadParameter`."""
    try:
        return rules.replace(**options) if options else rules
    except UnknownRules as e:
        raise click.BadParameter(str(e), param_hint="--option") from None


RULE_OPTION = click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    callback=parse_rule_options,
    help="Change one rule option of the preset (repeatable), e.g. bie_san=false or place_points=[6,3,1,-1,-3,-6].",
)


def check_writable(path: Path, option: str = "--record") -> None:
    """Refuse, before any work is done, a path a record cannot be written to (no such directory, a
    directory, no permission): a :class:`click.BadParameter` naming ``option``."""
    parent = path.parent
    if path.is_dir():
        problem = "is a directory"
    elif not parent.is_dir():
        missing = "is not a directory" if parent.exists() else "does not exist"
        problem = f"cannot be written: the directory {parent} {missing}"
    elif not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        problem = "cannot be written: permission denied"
    else:
        return
    raise click.BadParameter(f"{path} {problem}", param_hint=option)


def write_record(path: Path, data: Any) -> None:
    """Store ``data`` as JSON at ``path``; an error writing it is a :class:`click.ClickException`."""
    try:
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    except OSError as e:
        raise click.ClickException(f"{path}: cannot store the record: {e.strerror or e}") from None


def simulate_sets(
    rules: RuleSet | str,
    sets: int,
    seed: int,
    bots: tuple[str, str] = ("random", "random"),
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``sets`` whole sets (with tribute) between two bots (team 0, team 1) and gather statistics:
    each set's totals, the tribute paid by kind, 还贡, and the speed.  Also returns the records."""
    if sets < 1:
        raise ValueError(f"sets must be at least 1, not {sets}")
    rs = resolve(rules)
    players = (make_bot(bots[0]), make_bot(bots[1]))
    totals: list[list[int]] = []
    owed: Counter[str] = Counter()
    paid: Counter[str] = Counter()
    unpaid = returns = deals = decisions = 0
    records = []
    start = time.perf_counter()
    for i in range(sets):
        rng = random.Random(f"set players {seed}/{i}")
        match = Match(rs, seed=f"{seed}/{i}")
        while not match.is_over:
            deal = match.current
            seat = deal.to_act
            assert seat is not None
            match.act(decide(players[seat % 2], deal, rng))
        totals.append(list(match.totals))
        for deal in match.deals:
            deals += 1
            decisions += deal.decisions
            for e in deal.events:
                if e["type"] == "tribute":
                    owed[e["kind"]] += e["owed"]
                    paid[e["kind"]] += len(e["cards"])
                    unpaid += len(e["cards"]) < e["owed"]
                elif e["type"] == "tribute_return":
                    returns += 1
        records.append(match.record())
        if progress is not None:
            progress(i + 1)
    elapsed = time.perf_counter() - start
    wins = [sum(1 for t in totals if t[k] > t[1 - k]) for k in (0, 1)]
    return {
        "rules": rs.name,
        "sets": sets,
        "set_length": rs.set_length,
        "seed": seed,
        "bots": list(bots),
        "totals": totals,
        "team_points": [sum(t[k] for t in totals) for k in (0, 1)],
        "sets_won": wins,
        "tribute_owed": {k: owed[k] for k in TRIBUTE_KINDS},
        "tribute_paid": {k: paid[k] for k in TRIBUTE_KINDS},
        "tribute_short": unpaid,
        "returns": returns,
        "deals": deals,
        "decisions": decisions,
        "timing": {"seconds": elapsed, "deals_per_second": deals / elapsed if elapsed else None},
        "records": records,
    }


def print_sets(stats: dict[str, Any], console: Console) -> None:
    """The tables of ``gouji sim --set``."""
    n = stats["sets"]
    console.print(
        f"[bold]{stats['rules']}[/]: {n} sets of {stats['set_length']} deals with tribute, seed {stats['seed']}, "
        f"team 0 {stats['bots'][0]} vs team 1 {stats['bots'][1]}"
    )
    teams = Table(title="Sets", title_justify="left")
    for col in ("team", "points in all", "points / set", "sets won"):
        teams.add_column(col, justify="right")
    for k in (0, 1):
        teams.add_row(
            str(k), f"{stats['team_points'][k]:+d}", f"{stats['team_points'][k] / n:+.2f}", str(stats["sets_won"][k])
        )
    console.print(teams)
    trib = Table(title="Tribute (cards)", title_justify="left")
    names = {"men": "闷贡", "shao": "烧贡", "dian": "点贡", "luo": "落贡", "sweep": "串三户"}
    for col in ("kind", "owed", "paid"):
        trib.add_column(col, justify="right")
    for kind in TRIBUTE_KINDS:
        trib.add_row(f"{names[kind]} ({kind})", str(stats["tribute_owed"][kind]), str(stats["tribute_paid"][kind]))
    console.print(trib)
    t = stats["timing"]
    console.print(
        f"payments short of a joker or 2: {stats['tribute_short']}; 还贡 given: {stats['returns']}; "
        f"{stats['deals']} deals, {stats['decisions'] / max(1, stats['deals']):.1f} decisions/deal, "
        f"{t['deals_per_second'] or 0:.0f} deals/s"
    )


def register(main: click.Group) -> None:
    """Add ``tournament`` and ``replay`` to the ``gouji`` command group."""

    @main.command()
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
        rules = with_options(_rules(rules_name), options)
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

    @main.command()
    @click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
    @click.option("--deal", "only", type=click.IntRange(min=1), help="print only this deal (1-based)")
    def replay(path: Path, only: int | None) -> None:
        """Print a stored set or tournament deal by deal: the hands, the tribute, each decision, places.

        The record is replayed and checked first; a corrupt or altered record is refused."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
            raise click.ClickException(f"{path}: cannot read the record: {e}") from None
        records = data if isinstance(data, list) else [data]
        if not records:
            raise click.ClickException(f"{path}: the file holds an empty list: no record to replay")
        loaded: list[Match | Tournament] = []
        for n, rec in enumerate(records):
            try:
                loaded.append(load_record(rec))
            except RecordError as e:
                raise click.ClickException(f"{path}: record {n + 1} is refused: {e}") from None
        most = max(len(r.deals) if isinstance(r, Match) else len(r.tables) for r in loaded)
        if only is not None and only > most:
            raise click.BadParameter(
                f"{only} is out of range: the records of {path} hold deals 1 to {most}", param_hint="--deal"
            )
        for n, played in enumerate(loaded):
            _print_record(n, played, only)


def _print_record(n: int, loaded: Match | Tournament, only: int | None) -> None:
    """Record ``n`` of a file (0-based), deal by deal; only deal ``only`` (1-based) when given."""
    if isinstance(loaded, Match):
        click.echo(f"== set {n + 1}: {loaded.rules.name}, seed {loaded.seed}, totals {list(loaded.totals)}")
        games = [(f"deal {i + 1}", d) for i, d in enumerate(loaded.deals)]
    else:
        click.echo(f"== tournament: {loaded.rules.name}, seed {loaded.seed}, totals {list(loaded.totals)}")
        games = [
            (f"deal {k + 1}, table {t + 1}", d) for k, pair in enumerate(loaded.tables) for t, d in enumerate(pair)
        ]
    for label, deal in games:
        number = int(label.split()[1].rstrip(","))
        if only is not None and number != only:
            continue
        click.echo(f"-- {label}")
        click.echo(format_events(deal.events), nl=False)
