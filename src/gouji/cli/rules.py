"""``gouji rules``: the rule presets side by side, or one preset with what each option means."""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import json
from typing import Any

import click
from rich import box
from rich.console import Console, Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..engine import rules as rules_module
from ..engine.rules import PRESETS, RuleSet
from .options import (
    PRESET_CHOICE,
)

_NOT_OPTIONS = ("name", "source", "extra")


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
    :mod:`gouji.engine.ruledocs`, the rule book's source) indented below: readable at 80 columns.  ``*`` marks a
    value that differs from qingdao."""
    from ..engine.ruledocs import describe

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


@click.command(
    short_help="Show the rule presets, or one preset's options.",
    help="Show the rule presets side by side, or one PRESET with what each option means.\n\n"
    f"PRESET is one of {', '.join(PRESETS)}.",
)
@click.argument("preset", required=False, type=PRESET_CHOICE, metavar="[PRESET]")
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
