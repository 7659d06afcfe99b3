"""What the commands share: the rule options (``--rules``, ``--option NAME=VALUE``), records on disk,
printing results and the progress bar."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..engine.rules import PRESETS, RuleSet, UnknownRules, resolve

PRESET_CHOICE = click.Choice(PRESETS, case_sensitive=False)


def emit(data: Any, as_json: bool, title: str, rules: RuleSet, tables: Callable[[], Sequence[Table]]) -> None:
    """Print a command's results: one JSON object, or a title line and rich tables."""
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    out = Console()
    out.print(f"[bold]{rules.name}[/] ({rules.source}): {title}")
    for table in tables():
        out.print()
        out.print(table)


def progress_bar() -> Progress:
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


def preset_rules(name: str) -> RuleSet:
    """The preset ``name`` (any case); an unknown one is a :class:`click.BadParameter`."""
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
