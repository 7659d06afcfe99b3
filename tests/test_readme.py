"""The README's Python snippets run as written, and the record format of docs/records.md is the one the files have."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gouji.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
TEXT = README.read_text(encoding="utf-8")
RECORDS = (README.parent / "docs" / "records.md").read_text(encoding="utf-8")


def blocks(language: str, text: str = TEXT) -> list[str]:
    """The fenced code blocks in ``language`` of ``text`` (the README), dedented (a block may sit in a list item)."""
    found = []
    for m in re.finditer(rf"^( *)```{language}\n(.*?)^\1```$", text, re.S | re.M):
        indent = len(m.group(1))
        found.append("\n".join(line[indent:] for line in m.group(2).splitlines()))
    return found


PYTHON = blocks("python")


def test_the_readme_has_its_python_snippets() -> None:
    assert len(PYTHON) >= 3


@pytest.mark.parametrize("index", range(len(PYTHON)))
def test_python_snippet_runs(index: int) -> None:
    code = compile(PYTHON[index], f"README.md python block {index + 1}", "exec")
    exec(code, {"__name__": f"readme_{index}"})


def _keys(example: Any, real: Any, where: str) -> None:
    """Every key of the README's example is in the real record and the other way round, recursively."""
    if isinstance(example, dict):
        assert isinstance(real, dict), where
        shown = set(example) - {"…"}
        if "…" in example:  # an elided object: the keys it shows exist
            assert shown <= set(real), f"{where}: {sorted(shown - set(real))} not in the real record"
        else:
            assert shown == set(real), f"{where}: README {sorted(shown)} but the file has {sorted(real)}"
        for key in shown:
            _keys(example[key], real[key], f"{where}.{key}")
    elif isinstance(example, list):
        assert isinstance(real, list), where
        for i, item in enumerate(x for x in example if x != "…"):
            _keys(item, real[i], f"{where}[{i}]")
    elif example != "…":
        assert type(example) is type(real), f"{where}: the README shows {example!r}, the file has {real!r}"


def test_the_record_format_is_the_files(tmp_path: Path) -> None:
    (example_text,) = blocks("json", RECORDS)
    example = json.loads(example_text)
    path = tmp_path / "sets.json"
    result = CliRunner().invoke(main, ["sim", "--set", "--deals", "1", "--seed", "3", "--record", str(path)])
    assert result.exit_code == 0, result.output
    records = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(records, list) and len(records) == 1
    real = records[0]
    _keys(example, real, "record")
    # as docs/records.md says: the set's first deal has no leader (drawn from the seed), the next the 大落 before it
    assert real["deals"][0]["leader"] is None
    assert real["deals"][1]["leader"] == real["deals"][0]["places"][5]
    assert real["checksum"].startswith("sha256:")


def test_the_readme_is_a_front_door() -> None:
    """At most 250 lines, opening with exactly two commands: one runs the table, one runs every test."""
    assert len(TEXT.splitlines()) <= 250
    first = re.search(r"```sh\n(.*?)```", TEXT, re.S)
    assert first is not None and TEXT.index("```sh") < TEXT.index("\n## ")
    commands = [line.split("#")[0].strip() for line in first.group(1).splitlines()]
    assert commands == ["make run", "make test"]


def test_every_link_of_the_readme_and_docs_resolves() -> None:
    """Every relative link (and image) in the README and in docs/*.md names a file of the repository."""
    root = README.parent
    for page in [README, *sorted((root / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text) + re.findall(r'<img src="([^"]+)"', text):
            if "://" in target or target.startswith("mailto:"):
                continue
            assert (page.parent / target).exists(), f"{page.name} links to {target}, which does not exist"
