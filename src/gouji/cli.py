"""The ``gouji`` command: ``gouji rules`` shows the rule sets, ``gouji sim`` plays random deals and reports.

:func:`simulate` is the statistics behind ``gouji sim`` as a plain function, for tests and later tools.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import json
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.console import Console, Group
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from . import __version__
from . import rules as rules_module
from .cli_match import RULE_OPTION, with_options
from .deal import PLACE_NAMES, SEATS, Deal, team
from .rules import PRESETS, RuleSet, resolve

BURN_RESULTS = ("success", "broken", "countered", "failed", "ended")
"""How a burn (烧牌) ends, as ``Deal.burns`` records it."""
SEED_STRIDE = 1_000_003
"""Deal ``i`` of a run with seed ``S`` is dealt from seed ``S * SEED_STRIDE + i``."""
MAX_DECISIONS = 200_000
"""A deal taking more decisions than this is an engine bug: :func:`play_random` stops with an error."""
TOURNAMENT_POINTS = (6, 5, 4, 3, 2, 1)
"""Small points for 头科 … 大落 under tournament scoring (比赛规则, rule book §13)."""
_NOT_OPTIONS = ("name", "source", "extra")


# ---------------------------------------------------------------------------------------------- rule sets


def option_names() -> list[str]:
    """The RuleSet options, in declaration order (without ``name``, ``source`` and ``extra``)."""
    return [f.name for f in dataclasses.fields(RuleSet) if f.name not in _NOT_OPTIONS]


@functools.cache
def option_docs() -> dict[str, str]:
    """Each RuleSet field's attribute docstring, first paragraph on one line, read from ``rules.py``."""
    try:
        tree = ast.parse(inspect.getsource(rules_module))
    except (OSError, TypeError):  # pragma: no cover - no source shipped
        return {}
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "RuleSet")
    docs: dict[str, str] = {}
    for stmt, nxt in zip(cls.body, cls.body[1:], strict=False):
        if (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
            and isinstance(nxt.value.value, str)
        ):
            first = inspect.cleandoc(nxt.value.value).split("\n\n")[0]
            docs[stmt.target.id] = " ".join(first.split())
    return docs


def format_value(name: str, value: Any) -> str:
    """An option's value as short text: ``true``/``false``, ``3×10 4×8`` for removed cards, lists spaced."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if name == "removed":
        return " ".join(f"{rank}×{n}" for rank, n in value) or "none"
    if isinstance(value, tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def presets_tables(per_table: int = 5) -> list[Table]:
    """Every preset side by side, as rule book §14, in tables of ``per_table`` presets that fit an
    80-column terminal: values that differ from qingdao in bold, the same values dimmed."""
    presets = [RuleSet.preset(p) for p in PRESETS]
    base = presets[0]
    names = option_names()
    width = max(len(n) for n in names)
    tables = []
    for start in range(0, len(presets), per_table):
        group = presets[start : start + per_table]
        table = Table(box=box.SIMPLE_HEAD, padding=0, show_edge=False, header_style="bold")
        if start == 0:
            table.title = "Rule presets (bold: differs from qingdao). gouji rules PRESET explains them."
            table.title_justify = "left"
        table.add_column("option", no_wrap=True, style="cyan", width=width)
        for p in group:
            # fixed widths: 28 + 5 × 9 (+1 for "tournament") + 5 gaps = 79 columns; values wrap at spaces
            table.add_column(p.name, width=max(9, len(p.name)), overflow="fold")
        table.add_row("source", *(Text(p.source, style="dim") for p in group), end_section=True)
        for name in names:
            cells = []
            for p in group:
                value = getattr(p, name)
                style = "" if p is base else "bold yellow" if value != getattr(base, name) else "dim"
                # words joined by "_" wrap badly in narrow columns: spaces here, the exact token in `rules PRESET`
                cells.append(Text(format_value(name, value).replace("_", " "), style=style))
            table.add_row(name, *cells)
        tables.append(table)
    return tables


def preset_table(rules: RuleSet) -> Group:
    """One preset's options, each as ``option  value`` with its one-line explanation (from
    :mod:`gouji.ruledocs`, the rule book's source) indented below: readable at 80 columns.  ``*`` marks a
    value that differs from qingdao."""
    from .ruledocs import describe

    base = RuleSet.preset("qingdao")
    parts: list[Any] = [Text(f"{rules.name} — {rules.source}", style="bold"), Text("")]
    width = max(len(n) for n in option_names())
    differs = False
    for name, value, text in describe(rules):
        line = Text(name.ljust(width) + "  ", style="cyan")
        shown = Text(format_value(name, value))
        if value != getattr(base, name):
            differs = True
            shown.stylize("bold yellow")
            shown.append(" *")
        line.append_text(shown)
        parts.append(line)
        parts.append(Padding(Text(text, style="dim"), (0, 0, 0, 4)))
    if differs:
        parts += [Text(""), Text("* differs from qingdao.  docs/rulebook.md explains every rule.")]
    return Group(*parts)


# ---------------------------------------------------------------------------------------------- simulation


def place_score_table(rules: RuleSet) -> tuple[int, ...]:
    """The points each place scores, 头科 first: ``place_points`` under set scoring, 6..1 for tournament."""
    return TOURNAMENT_POINTS if rules.scoring == "tournament" else tuple(rules.place_points)


def play_random(deal: Deal, rng: random.Random) -> None:
    """Play ``deal`` to its end, each decision uniformly at random among the legal actions."""
    while deal.to_act is not None:
        if deal.decisions >= MAX_DECISIONS:
            raise RuntimeError(f"the deal did not end after {MAX_DECISIONS} decisions")
        legal = deal.legal_actions()
        deal.act(legal[rng.randrange(len(legal))])


def random_deal(rules: RuleSet | str, seed: int, i: int) -> Deal:
    """Deal ``i`` of a run with ``seed``, played to its end by uniformly random players.

    The deal is ``Deal.new(rules, seed=seed * SEED_STRIDE + i)``; the players draw from a generator of their
    own seeded from that number, so their choices are not the shuffle's numbers over again.
    """
    n = seed * SEED_STRIDE + i
    deal = Deal.new(rules, seed=n)
    play_random(deal, random.Random(f"players {n}"))
    return deal


def simulate(
    rules: RuleSet | str,
    deals: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``deals`` deals between uniformly random players and gather what happened.

    The deals are ``random_deal(rules, seed, i)`` for i in 0 … deals-1, so a run is reproducible from
    ``seed``.  ``progress`` is called with the number of deals done after each deal.  ``timing`` measures
    the dealing and playing only.

    Returns JSON-serialisable data; everything in it but ``timing`` depends only on the arguments.
    """
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    rs = resolve(rules)
    points = place_score_table(rs)
    place_counts = [[0] * SEATS for _ in range(SEATS)]
    sweeps = [0, 0]
    burns = dict.fromkeys(BURN_RESULTS, 0)
    smothered = revolutions = voids = openings = declarations = decisions = 0
    elapsed = 0.0
    for i in range(deals):
        start = time.perf_counter()
        deal = random_deal(rs, seed, i)
        elapsed += time.perf_counter() - start

        assert deal.places is not None
        for place, seat in enumerate(deal.places):
            place_counts[seat][place] += 1
        if deal.sweep is not None:
            sweeps[deal.sweep] += 1
        for burn in deal.burns:
            burns[burn["result"]] += 1
        smothered += len(deal.smothered)
        # counted from the log, so revolutions of voided deals count too
        revolutions += sum(1 for e in deal.events if e["type"] == "revolution")
        voids += sum(1 for e in deal.events if e["type"] == "void")
        openings += sum(deal.opened)
        declarations += sum(deal.declared)
        decisions += deal.decisions
        if progress is not None:
            progress(i + 1)

    mean_place = [sum((p + 1) * c for p, c in enumerate(place_counts[s])) / deals for s in range(SEATS)]
    seats = [{"seat": s, "team": team(s), "places": place_counts[s], "mean_place": mean_place[s]} for s in range(SEATS)]
    teams = []
    for t in (0, 1):
        members = [s for s in range(SEATS) if team(s) == t]
        total = sum(points[p] * place_counts[s][p] for s in members for p in range(SEATS))
        teams.append(
            {
                "team": t,
                "seats": members,
                "mean_place": sum(mean_place[s] for s in members) / len(members),
                "place_points": total,
                "mean_place_points": total / deals,
                "sweeps": sweeps[t],
            }
        )
    return {
        "rules": rs.name,
        "deals": deals,
        "seed": seed,
        "place_names": list(PLACE_NAMES),
        "place_scores": list(points),
        "seats": seats,
        "teams": teams,
        "burns": {"started": sum(burns.values()), **burns},
        "smothered": smothered,
        "revolutions": revolutions,
        "void_deals": voids,
        "openings": openings,
        "declarations": declarations,
        "decisions": decisions,
        "mean_decisions": decisions / deals,
        "timing": {
            "seconds": elapsed,
            "deals_per_second": deals / elapsed if elapsed else None,
            "decisions_per_second": decisions / elapsed if elapsed else None,
        },
    }


def _pct(n: int, of: int) -> str:
    return f"{100 * n / of:.1f}%" if of else "—"


def _rate(x: float | None) -> str:
    return "—" if x is None else f"{x:,.0f}"


def report_tables(stats: dict[str, Any]) -> list[Table]:
    """``simulate`` output as rich tables: places by seat, teams, events, speed."""
    deals: int = stats["deals"]
    names: Sequence[str] = stats["place_names"]

    places = Table(title="Places by seat", title_justify="left")
    places.add_column("seat", justify="right")
    places.add_column("team", justify="right")
    for name in names:
        places.add_column(name, justify="right")
    places.add_column("mean place", justify="right")
    for row in stats["seats"]:
        places.add_row(str(row["seat"]), str(row["team"]), *(str(c) for c in row["places"]), f"{row['mean_place']:.2f}")
    places.caption = "mean place: 1 = 头科 … 6 = 大落"

    teams = Table(title="Teams", title_justify="left")
    for col in ("team", "seats", "mean place", "place points / deal", "sweeps (串三户)"):
        teams.add_column(col, justify="right")
    for row in stats["teams"]:
        teams.add_row(
            str(row["team"]),
            " ".join(str(s) for s in row["seats"]),
            f"{row['mean_place']:.2f}",
            f"{row['mean_place_points']:+.3f}",
            f"{row['sweeps']} ({_pct(row['sweeps'], deals)})",
        )
    teams.caption = "place points: " + " ".join(
        f"{n} {p:+d}" for n, p in zip(names, stats["place_scores"], strict=True)
    )

    events = Table(title="Events", title_justify="left")
    events.add_column("event")
    events.add_column("count", justify="right")
    events.add_column("per deal", justify="right")
    burns = stats["burns"]
    rows: list[tuple[str, int]] = [("burns started (烧牌)", burns["started"])]
    labels = {
        "success": "succeeded (烧成功)",
        "broken": "broken (解烧)",
        "countered": "counter-burned (反烧)",
        "failed": "failed (烧失败)",
        "ended": "ended by the deal / free-for-all",
    }
    rows += [(f"  {labels[r]}", burns[r]) for r in BURN_RESULTS]
    rows += [
        ("smothered (闷)", stats["smothered"]),
        ("revolutions (革命)", stats["revolutions"]),
        ("void deals (流局)", stats["void_deals"]),
        ("openings (开点)", stats["openings"]),
        ("declarations (宣点)", stats["declarations"]),
    ]
    for label, n in rows:
        events.add_row(label, str(n), f"{n / deals:.3f}")

    timing = stats["timing"]
    speed = Table(title="Speed", title_justify="left")
    speed.add_column("decisions / deal", justify="right")
    speed.add_column("deals / s", justify="right")
    speed.add_column("decisions / s", justify="right")
    speed.add_column("seconds", justify="right")
    speed.add_row(
        f"{stats['mean_decisions']:.1f}",
        _rate(timing["deals_per_second"]),
        _rate(timing["decisions_per_second"]),
        f"{timing['seconds']:.2f}",
    )
    return [places, teams, events, speed]


# ---------------------------------------------------------------------------------------------- commands

_PRESET = click.Choice(PRESETS, case_sensitive=False)


def _emit(data: Any, as_json: bool, title: str, rules: RuleSet, tables: Callable[[], Sequence[Table]]) -> None:
    """Print a command's results: one JSON object, or a title line and rich tables."""
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    out = Console()
    out.print(f"[bold]{rules.name}[/] ({rules.source}): {title}")
    for table in tables():
        out.print()
        out.print(table)


def _progress() -> Progress:
    """A progress bar on stderr, shown only when stderr is a terminal, gone when done."""
    err = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gouji")
def main() -> None:
    """Shandong Gouji (够级): the rule sets, and a simulator of random deals."""


@main.command(
    short_help="Show the rule presets, or one preset's options.",
    help="Show the rule presets side by side, or one PRESET with what each option means.\n\n"
    f"PRESET is one of {', '.join(PRESETS)}.",
)
@click.argument("preset", required=False, type=_PRESET, metavar="[PRESET]")
@click.option("--json", "as_json", is_flag=True, help="Print the options as JSON.")
def rules(preset: str | None, as_json: bool) -> None:
    """Show the rule presets side by side, or one PRESET with what each option means."""
    if as_json:
        data: Any = RuleSet.preset(preset).to_dict() if preset else {p: RuleSet.preset(p).to_dict() for p in PRESETS}
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    console = Console()
    if preset:
        console.print(preset_table(RuleSet.preset(preset)))
        return
    for i, table in enumerate(presets_tables()):
        if i:
            console.print()
        console.print(table)


@main.command(short_help="Play random deals and report the statistics.")
@click.option("--rules", "preset", type=_PRESET, default="qingdao", show_default=True, help="The rule preset.")
@click.option("--deals", type=click.IntRange(min=1), default=100, show_default=True, help="How many deals.")
@click.option("--seed", type=int, default=None, help="Seed of the run (default: a random one, reported).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as one JSON object.")
@click.option("--set", "sets", is_flag=True, help="Play whole sets of deals with tribute: --deals counts sets.")
@click.option("--bots", default="random,random", show_default=True, help="With --set: team 0's bot,team 1's bot.")
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With --set: store the sets' records (a JSON list) for `gouji replay`.",
)
@RULE_OPTION
def sim(
    preset: str,
    deals: int,
    seed: int | None,
    as_json: bool,
    sets: bool,
    bots: str,
    record_path: Path | None,
    options: dict[str, Any],
) -> None:
    """Play --deals deals between uniformly random players and report how places fell, burns, 闷,
    revolutions, openings and the speed.  With --set, play --deals whole sets (set_length deals each, with
    tribute) and report the set totals and the tribute paid.  The same --rules, --deals and --seed give the
    same figures."""
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    rs = with_options(RuleSet.preset(preset), options)
    if sets:
        _sim_sets(rs, deals, seed, bots, as_json, record_path)
        return
    if record_path is not None:
        raise click.BadParameter("--record needs --set (single random deals are not stored)", param_hint="--record")
    bar = _progress()
    with bar:
        task = bar.add_task(f"{rs.name} deals", total=deals)
        stats = simulate(rs, deals, seed, progress=lambda done: bar.update(task, completed=done))
    _emit(stats, as_json, f"{deals} random deals, seed {seed}", rs, lambda: report_tables(stats))


@main.command(short_help="Measure two bots against each other with duplicate deals.")
@click.option("--a", "bot_a", required=True, metavar="BOT", help="Bot A (seats 0 2 4 in the first game of a pair).")
@click.option("--b", "bot_b", required=True, metavar="BOT", help="Bot B (seats 1 3 5 in the first game of a pair).")
@click.option("--rules", "preset", type=_PRESET, default="qingdao", show_default=True, help="The rule preset.")
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
    from .arena import arena_tables, run_arena
    from .bots import BOTS

    for name, hint in ((bot_a, "--a"), (bot_b, "--b")):
        if name not in BOTS:
            raise click.BadParameter(f"no bot {name!r}; the bots are {', '.join(sorted(BOTS))}", param_hint=hint)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    rs = with_options(RuleSet.preset(preset), options)
    bar = _progress()
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
    _emit(result.to_dict(), as_json, title, rs, lambda: arena_tables(result))


def _sim_sets(rs: RuleSet, sets: int, seed: int, bots: str, as_json: bool, record_path: Path | None) -> None:
    from .bots import BOTS
    from .cli_match import check_writable, print_sets, simulate_sets, write_record

    names = bots.split(",")
    if len(names) != 2 or any(n not in BOTS for n in names):
        raise click.BadParameter(f"give two bots, e.g. random,random; the bots are {', '.join(sorted(BOTS))}")
    if record_path is not None:
        check_writable(record_path)
    bar = _progress()
    with bar:
        task = bar.add_task(f"{rs.name} sets", total=sets)
        stats = simulate_sets(rs, sets, seed, (names[0], names[1]), lambda done: bar.update(task, completed=done))
    records = stats.pop("records")
    if record_path is not None:
        write_record(record_path, records)
    if as_json:
        click.echo(json.dumps(stats, ensure_ascii=False, indent=2))
        return
    print_sets(stats, Console())


@main.command(short_help="Run the game server (HTTP API and WebSocket play).")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="The port.")
@click.option(
    "--database-url",
    default="sqlite:///gouji.db",
    show_default=True,
    help="SQLAlchemy URL of the database: SQLite, or postgresql+psycopg://user@host/db.",
)
@click.option(
    "--turn-seconds",
    type=click.FloatRange(0, 3600),
    default=30.0,
    show_default=True,
    help="Default turn timer of new tables; when it runs out the heuristic bot plays (托管). 0: no timer.",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 10),
    default=0.5,
    show_default=True,
    help="Default seconds a bot waits before it acts.",
)
@click.option(
    "--ready-seconds",
    type=click.FloatRange(0.05, 3600),
    default=None,
    help="Default wait for the players between two deals of a set.  [default: the table's turn time]",
)
@click.option(
    "--auto-bot",
    type=click.Choice(["novice", "heuristic", "learned"]),
    default="heuristic",
    show_default=True,
    help="The bot that plays for a seat on auto-play (托管).",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxy",
    multiple=True,
    metavar="ADDR",
    help="A reverse proxy (address or network; repeat for more) whose X-Forwarded-For header names the client "
    "for the per-client limits.  [default: none: the limits key on the connection's own address]",
)
@click.option(
    "--writer",
    type=click.Choice(["thread", "process"]),
    default=None,
    help="Where the database's transactions run: a process of their own, or a thread of the server.  "
    "[default: process on Linux, thread elsewhere]",
)
def serve(
    host: str,
    port: int,
    database_url: str,
    turn_seconds: float,
    bot_delay: float,
    ready_seconds: float | None,
    auto_bot: str,
    trusted_proxy: tuple[str, ...],
    writer: str | None,
) -> None:
    """Run the game server: tables of six with bots and people, play over WebSockets, every finished deal
    and set stored as its record.  Starts on an SQLite file by default, with nothing to set up; the same
    code runs on PostgreSQL with --database-url postgresql+psycopg://…

    The timers are defaults: a table's creator may choose its own."""
    from .server import table as table_module
    from .server.config import check_table_defaults
    from .server.errors import SettingError
    from .server.serve import run, trusted_proxies
    from .server.storage import StorageError

    try:  # (click's ranges let NaN through, and a turn time under 0.05 s is no table's)
        check_table_defaults(turn_seconds or None, bot_delay, ready_seconds)
    except SettingError as e:
        raise click.BadParameter(e.message, param_hint=e.option) from None
    table_module.AUTO_BOT = auto_bot
    try:
        trusted_proxies(trusted_proxy)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--trusted-proxy") from None

    try:
        run(
            host,
            port,
            database_url,
            turn_seconds=turn_seconds or None,
            bot_delay=bot_delay,
            ready_seconds=ready_seconds,
            trusted_proxy=trusted_proxy,
            writer=writer,
        )
    except StorageError as e:
        raise click.ClickException(str(e)) from None


def _register() -> None:
    from . import cli_event, cli_match, cli_train, cli_tune

    cli_match.register(main)
    cli_event.register(main)
    cli_train.register(main)
    cli_tune.register(main)


_register()
