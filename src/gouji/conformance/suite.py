"""Conformance suite files (``docs/conformance.md``): reading them, and where the shipped ones are.

A suite file is JSON: ``{"format": "gouji-conformance", "version": 1, "name": …, "cases": [...]}``; each case
has an ``id``, a ``family`` (the rule family it checks), a ``cite`` (the seed sentence or rule-book section it
comes from), the ``rules``, one position (``play``, ``deal``, ``result`` or ``perft``) and an ``expect``."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

FORMAT = "gouji-conformance"
VERSION = 1
POSITIONS = ("play", "deal", "result", "perft")
"""The kinds of position a case may give (exactly one of them)."""


class SuiteError(ValueError):
    """A suite file that does not follow the format: the message names the file, the case and the fault."""


def default_dir() -> Path | None:
    """The suite shipped with the repository (``conformance/v1`` in a source checkout), or None."""
    here = Path(__file__).resolve()
    for root in (here.parents[3], Path.cwd()):
        candidate = root / "conformance" / f"v{VERSION}"
        if candidate.is_dir():
            return candidate
    return None


def suite_files(path: Path | None) -> list[Path]:
    """The suite files at ``path`` (a file, or every ``*.json`` of a directory, sorted); the shipped suite
    when ``path`` is None."""
    if path is None:
        found = default_dir()
        if found is None:
            raise SuiteError("no conformance suite found: give a PATH (a suite file or a directory of them)")
        path = found
    if path.is_dir():
        files = sorted(path.glob("*.json"))
        if not files:
            raise SuiteError(f"{path}: no suite files (*.json) in it")
        return files
    if not path.exists():
        raise SuiteError(f"{path}: no such file or directory")
    return [path]


def load(path: Path) -> dict[str, Any]:
    """One suite file, checked against the format (not against the engine)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise SuiteError(f"{path}: {e}") from None
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise SuiteError(f"{path}: not a conformance suite (its 'format' must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise SuiteError(f"{path}: version {data.get('version')!r}; this runner reads version {VERSION}")
    cases = data.get("cases")
    if not isinstance(cases, list):
        raise SuiteError(f"{path}: 'cases' must be a list")
    seen: set[str] = set()
    for i, case in enumerate(cases):
        check_case(case, f"{path.name} case {i}")
        if case["id"] in seen:
            raise SuiteError(f"{path.name}: case id {case['id']!r} given twice")
        seen.add(case["id"])
    return dict(data)


def check_case(case: Any, where: str) -> None:
    """A case has the keys the format asks for, with one position."""
    if not isinstance(case, Mapping):
        raise SuiteError(f"{where}: a case is an object")
    for key in ("id", "family", "cite", "rules", "expect"):
        if key not in case:
            raise SuiteError(f"{where}: no {key!r}")
    cite = case["cite"]
    if not isinstance(cite, Mapping) or not ({"seed", "quote"} <= set(cite) or "rulebook" in cite):
        raise SuiteError(f"{where} ({case['id']}): 'cite' needs 'seed' and 'quote', or 'rulebook'")
    given = [k for k in POSITIONS if k in case]
    if len(given) != 1:
        raise SuiteError(f"{where} ({case['id']}): give exactly one position of {', '.join(POSITIONS)}")
    if not isinstance(case["expect"], Mapping) or not case["expect"]:
        raise SuiteError(f"{where} ({case['id']}): 'expect' is a non-empty object")


def iter_cases(paths: list[Path]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(file name, case) for every case of the files, in order."""
    for path in paths:
        for case in load(path)["cases"]:
            yield path.name, case
