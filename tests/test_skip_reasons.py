"""When the browser tests are skipped, pytest's summary says why (``-rs`` in the project's pytest options)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_skipped_browser_test_says_why() -> None:
    env = {**os.environ, "GOUJI_CHROMIUM": "/nonexistent/chromium"}
    test = "tests/browser/test_table.py::test_an_illegal_selection_cannot_be_sent"
    # no -p xdist: run in one process; the options under test come from pyproject.toml
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", test],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 skipped" in run.stdout
    skipped = [line for line in run.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skipped, f"no skip reason in the summary:\n{run.stdout}"
    if importlib.util.find_spec("playwright") is None:
        assert "Playwright is not installed" in skipped[0]
    else:
        assert "no Chromium at /nonexistent/chromium: apt-get install chromium" in skipped[0]
