"""``gouji review``: the 复盘 review of one seat in one stored deal (:mod:`gouji.lab.review`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click


@click.command(short_help="Review one seat's decisions in a stored deal (hindsight, all hands known).")
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--deal", type=int, required=True, help="The deal, 1-based (as `gouji replay` numbers them).")
@click.option("--seat", type=int, required=True, help="The seat reviewed, 0-5 (at the table named).")
@click.option("--table", type=int, default=None, help="A duplicate match's record: table 1 or 2.")
@click.option(
    "--set",
    "item",
    type=int,
    default=None,
    help="A file holding several records (gouji sim --set --record writes one a set): which, 1-based.",
)
@click.option("--candidates", type=click.IntRange(min=2, max=32), default=8, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the review as one JSON object.")
def review(
    record: Path, deal: int, seat: int, table: int | None, item: int | None, candidates: int, as_json: bool
) -> None:
    """Review SEAT's decisions in deal DEAL of RECORD (a file from gouji sim, gouji tournament or the
    server's /api/records/ID): each decision's candidates are played out to the end of the deal with the
    heuristic bot in every seat, knowing every hand.  A hindsight judgement, not a rule: see docs/review.md.

    Text: one line a decision that lost points (what was played, what was better, by how much), then the
    seat's total.  --json: {"seat", "deal", "decisions": [{"index", "played", "best", "gain", "mistake",
    ...}], "mistakes", "lost", ...}."""
    from ..lab.review import ReviewError, check_seat, format_review, review_record, to_json

    try:
        check_seat(seat)
        if table is not None and table not in (1, 2):
            raise ReviewError(f"table {table} is out of range: a duplicate match has tables 1 and 2")
        chosen = _pick(_read(record), item, record)
        result = review_record(chosen, deal, seat, table=table, limit=candidates)
    except ReviewError as e:
        raise click.ClickException(f"{record}: {e}") from None
    click.echo(to_json(result) if as_json else format_review(result), nl=as_json)


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise click.ClickException(f"{path}: cannot read the record: {e}") from None


def _pick(data: Any, item: int | None, path: Path) -> Any:
    """The record to review: the file's one record, or record ``item`` (1-based) of a list."""
    from ..lab.review import ReviewError

    if not isinstance(data, list):
        if item not in (None, 1):
            raise ReviewError(f"--set {item} is out of range: the file holds one record")
        return data
    if not data:
        raise ReviewError("the file holds an empty list: no record to review")
    if item is None:
        if len(data) > 1:
            raise ReviewError(f"the file holds {len(data)} records: name one with --set 1 to {len(data)}")
        item = 1
    if not 1 <= item <= len(data):
        raise ReviewError(f"--set {item} is out of range: the file holds records 1 to {len(data)}")
    return data[item - 1]
