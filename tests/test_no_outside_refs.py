"""Nothing in the project points outside it: the rule book lives in docs/, so no tracked file may cite the rule
specification or the regional source texts the project was written from by their paths or file names."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Built from pieces, so that this file does not match itself.
FORBIDDEN = (
    "../" + "shared",
    "shared/" + "RULES",
    "RULES" + ".md",
    "STYLE" + ".md",
    "000_" + "7db8426745bf2412",
    "001_" + "d2be036b8ed7990b",
    "003_" + "e0d58fa65ad08339",
)


def tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no list of tracked files")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in out.decode().split("\0") if name]


def test_no_tracked_file_points_outside_the_project() -> None:
    hits = []
    for path in tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # binary files (the screenshot), and files deleted but not yet committed
        for number, line in enumerate(text.splitlines(), 1):
            hits += [f"{path.relative_to(ROOT)}:{number}: {word}" for word in FORBIDDEN if word in line]
    assert not hits, "files that point outside the project (cite 'rule book §N' instead):\n" + "\n".join(hits)
