"""The constraints file (``constraints.txt``): the versions the tests ran with, which ``make run`` and
``make test`` install (pip's ``-c``) — every dependency of ``pyproject.toml`` pinned there, inside its range."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent


def _pins() -> dict[str, Version]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, pinned = line.partition("==")
            assert pinned and "+" not in pinned, line  # exact versions, no local labels (+cpu)
            pins[canonicalize_name(name)] = Version(pinned)
    return pins


def test_every_dependency_is_pinned_inside_its_range_and_installed_at_that_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in ("test", "rl", "train", "tune"):
        wanted += project["optional-dependencies"][extra]
    pins = _pins()
    assert "gouji" not in pins
    for text in wanted:
        req = Requirement(text)
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is not in constraints.txt"
        assert req.specifier.contains(pins[name], prereleases=True), f"{req.name}=={pins[name]} is not {req.specifier}"
        try:
            installed = Version(version(req.name))
        except PackageNotFoundError:
            continue
        assert Version(installed.base_version) == pins[name], f"{req.name} {installed} installed, {pins[name]} pinned"


def test_the_makefile_installs_with_the_constraints_and_uvicorn_is_the_tested_minor_release() -> None:
    makefile = (ROOT / "Makefile").read_text()
    installs = [line for line in makefile.splitlines() if "pip install" in line and "-e " in line]
    assert installs and all("$(PIN)" in line for line in installs), installs
    assert "PIN := -c constraints.txt" in makefile
    uvicorn = next(
        d for d in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"] if "uvicorn" in d
    )
    low, high = re.findall(r"[<>]=?\s*([\d.]+)", uvicorn)
    assert Version(high).release[:2] == (Version(low).major, Version(low).minor + 1), uvicorn
