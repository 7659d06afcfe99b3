"""``gouji replay``: a stored set or tournament, deal by deal, checked as it loads."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..competition.duplicate import Tournament
from ..competition.loading import load_record
from ..competition.records import RecordError
from ..competition.sets import Match
from ..competition.transcript import format_events


@click.command()
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
