"""``gouji conformance``: run a conformance suite (``docs/conformance.md``) against this engine."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..conformance import SuiteError, run


@click.command()
@click.argument("path", required=False, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="print the report as JSON")
@click.option("--family", "families", multiple=True, help="run only the cases of this rule family (repeatable)")
@click.option("-v", "--verbose", is_flag=True, help="list every failing case with what differed")
def conformance(path: Path | None, as_json: bool, families: tuple[str, ...], verbose: bool) -> None:
    """Check this engine against a conformance suite: a suite file, a directory of them, or (no PATH) the suite
    shipped in the repository's conformance/v1.  Exit status 1 when a case fails."""
    try:
        report = run(None if path is None else [path], families or None)
    except SuiteError as e:
        raise click.ClickException(str(e)) from None
    if not report.results:
        raise click.ClickException("no case to run (check --family)")
    if as_json:
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False, indent=1))
    else:
        for name, (passed, total) in report.by("file").items():
            click.echo(f"{name:16} {passed:4} / {total:<4} {'ok' if passed == total else 'FAILED'}")
        failed = report.failed
        for r in failed if verbose else failed[:10]:
            click.echo(f"FAIL {r['id']} ({r['file']}): " + "; ".join(r["failures"]))
        if len(failed) > 10 and not verbose:
            click.echo(f"… and {len(failed) - 10} more (-v lists them all)")
        click.echo(f"{len(report.results) - len(failed)} of {len(report.results)} cases hold")
    if not report.ok:
        raise SystemExit(1)
