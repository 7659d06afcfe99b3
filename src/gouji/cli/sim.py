"""``gouji sim``: random deals (or whole sets with tribute, ``--set``) and their statistics.

:func:`simulate` is the statistics behind ``gouji sim`` as a plain function, for tests and later tools;
:func:`simulate_sets` the same for whole sets between two bots.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..bots import BOTS, decide, make_bot
from ..competition.sets import Match
from ..engine.deal import Deal
from ..engine.deal.burn import BURN_END_EVENTS
from ..engine.rules import RuleSet, resolve
from ..engine.scoring import place_scores
from ..engine.seats import PLACE_NAMES, SEATS, team
from .options import (
    PRESET_CHOICE,
    RULE_OPTION,
    check_writable,
    emit,
    progress_bar,
    with_options,
    write_record,
)

BURN_RESULTS = tuple(BURN_END_EVENTS)
"""How a burn (烧牌) ends, as ``Deal.burns`` records it."""
TRIBUTE_KINDS = ("men", "shao", "dian", "luo", "sweep")
SEED_STRIDE = 1_000_003
"""Deal ``i`` of a run with seed ``S`` is dealt from seed ``S * SEED_STRIDE + i``."""
MAX_DECISIONS = 200_000
"""A deal taking more decisions than this is an engine bug: :func:`play_random` stops with an error."""


def place_score_table(rules: RuleSet) -> tuple[int, ...]:
    """The points each place scores, 头科 first: ``place_points`` (times ``base_points``) under set scoring, 6..1
    for tournament."""
    return place_scores(rules)


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


@click.command(short_help="Play random deals and report the statistics.")
@click.option("--rules", "preset", type=PRESET_CHOICE, default="qingdao", show_default=True, help="The rule preset.")
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
    bar = progress_bar()
    with bar:
        task = bar.add_task(f"{rs.name} deals", total=deals)
        stats = simulate(rs, deals, seed, progress=lambda done: bar.update(task, completed=done))
    emit(stats, as_json, f"{deals} random deals, seed {seed}", rs, lambda: report_tables(stats))


def _sim_sets(rs: RuleSet, sets: int, seed: int, bots: str, as_json: bool, record_path: Path | None) -> None:

    names = bots.split(",")
    if len(names) != 2 or any(n not in BOTS for n in names):
        raise click.BadParameter(f"give two bots, e.g. random,random; the bots are {', '.join(sorted(BOTS))}")
    if record_path is not None:
        check_writable(record_path)
    bar = progress_bar()
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
