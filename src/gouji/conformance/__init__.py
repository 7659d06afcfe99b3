"""The conformance suite (``docs/conformance.md``): rule cases and perft counts any Gouji implementation can be
checked against, and the runner that checks this engine.

``run(paths)`` runs suite files and returns a :class:`Report`; ``gouji conformance`` is its command."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .check import run_case
from .suite import SuiteError, default_dir, iter_cases, load, suite_files


@dataclass
class Report:
    """What a run found: every case's outcome, and the counts by file and by family."""

    results: list[dict[str, Any]] = field(default_factory=list)

    @property
    def failed(self) -> list[dict[str, Any]]:
        return [r for r in self.results if r["failures"]]

    @property
    def ok(self) -> bool:
        return bool(self.results) and not self.failed

    def by(self, key: str) -> dict[str, tuple[int, int]]:
        """(passed, total) for each file (``key="file"``) or family (``key="family"``)."""
        total = Counter(r[key] for r in self.results)
        bad = Counter(r[key] for r in self.failed)
        return {k: (n - bad[k], n) for k, n in sorted(total.items())}

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": len(self.results) - len(self.failed),
            "total": len(self.results),
            "files": {k: {"passed": p, "total": n} for k, (p, n) in self.by("file").items()},
            "families": {k: {"passed": p, "total": n} for k, (p, n) in self.by("family").items()},
            "failures": [{k: r[k] for k in ("file", "id", "family", "failures")} for r in self.failed],
        }


def run(paths: Iterable[Path] | None = None, families: Iterable[str] | None = None) -> Report:
    """Run the cases of ``paths`` (the shipped suite when None), only those of ``families`` if given."""
    files = suite_files(None) if paths is None else [f for p in paths for f in suite_files(p)]
    wanted = set(families) if families is not None else None
    report = Report()
    for name, case in iter_cases(files):
        if wanted is not None and case["family"] not in wanted:
            continue
        report.results.append({"file": name, "id": case["id"], "family": case["family"], "failures": run_case(case)})
    return report


__all__ = ["Report", "SuiteError", "default_dir", "load", "run", "run_case", "suite_files"]
