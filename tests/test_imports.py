"""The package's import structure: no cycles between modules (lazy and TYPE_CHECKING imports included), and
``import gouji`` loads the engine only.  The layers themselves are import-linter's contracts (pyproject.toml,
``make lint``)."""

from __future__ import annotations

import subprocess
import sys

import grimp
import pytest

KNOWN_CYCLES: list[set[str]] = []
"""Cycles left for their owners to break: none."""


def strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """The groups of modules that import each other, directly or not (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[set[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1 or node in edges.get(node, ()):
                    groups.append(group)
    return groups


def test_strongly_connected_finds_a_cycle_and_only_it() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert sorted(map(sorted, strongly_connected(edges))) == [["a", "b", "c"], ["e"]]


def test_no_import_cycles() -> None:
    graph = grimp.build_graph("gouji", cache_dir=None)
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    cycles = strongly_connected(edges)
    unexpected = [sorted(c) for c in cycles if c not in KNOWN_CYCLES]
    assert not unexpected, f"import cycles: {unexpected}"


@pytest.mark.parametrize("heavy", ["numpy", "gouji.bots", "gouji.competition", "gouji.server", "orjson"])
def test_import_gouji_loads_the_engine_only(heavy: str) -> None:
    code = "import sys, gouji; print(' '.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "gouji.engine.deal" in loaded
    assert heavy not in loaded


def test_gouji_hint_is_loaded_on_first_use() -> None:
    import gouji
    from gouji.bots.hints import hint

    assert gouji.hint is hint
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        gouji.nope  # noqa: B018


@pytest.mark.parametrize("heavy", ["starlette", "uvicorn", "sqlalchemy", "gouji.server.app", "torch", "ray"])
def test_the_command_starts_without_the_server(heavy: str) -> None:
    """``gouji --help`` (every command registered) loads none of the server's web stack nor the research
    libraries: the server's package names its exports lazily (it took 1.1 s before, 0.4 s after)."""
    code = "import sys, gouji.cli.app; print(' '.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "gouji.cli.serve" in loaded and "gouji.server.limit_options" in loaded
    assert heavy not in loaded


def test_the_server_package_names_its_exports_on_first_use() -> None:
    import gouji.server
    from gouji.server.app import create_app
    from gouji.server.limits import Limits

    assert gouji.server.create_app is create_app and gouji.server.Limits is Limits
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        gouji.server.nope  # noqa: B018
