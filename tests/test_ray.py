"""The Ray actor layer and ``gouji arena --ray`` on a local Ray instance (the rl extra).

One Ray instance serves the whole module (``ray.init(num_cpus=2)``); every test here is in one xdist group
so that the instance starts once per test run.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gouji.lab.arena import run_arena
from gouji.lab.distributed import LOCAL, RayWorkers, workers

from .test_arena import run

ray = pytest.importorskip("ray", reason="Ray is not installed: the rl extra (pip install -e '.[test,rl]')")
pytestmark = pytest.mark.xdist_group("ray")


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[Any]:
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=100 * 2**20)
    yield ray
    if started:
        ray.shutdown()


def test_actors_map_in_order_and_are_reused() -> None:
    items = list(range(30, 0, -1))
    seen: list[int] = []
    with workers(2, ray=LOCAL) as pool:
        assert isinstance(pool, RayWorkers) and pool.kind == "ray" and pool.size == 2
        assert pool.map(math.factorial, items, lambda i, r: seen.append(i)) == [math.factorial(n) for n in items]
        assert sorted(seen) == list(range(len(items)))
        assert pool.map(abs, [-5, 6]) == [5, 6]
        with pytest.raises(ValueError, match="math domain error"):
            pool.map(math.sqrt, [1.0, -1.0])
    assert ray.is_initialized()  # the pool used the running instance and leaves it running
    with workers(None, ray=LOCAL) as pool:
        assert pool.size == 2  # one actor per CPU of the instance
    with workers(8, ray=LOCAL) as pool:
        assert pool.size == 2  # never more actors than CPUs: the others would never start


def test_ray_arena_equals_the_single_process_arena() -> None:
    for rules in ("qingdao", "tournament"):
        single = run_arena("heuristic", "random", rules, 6, 11)
        spread = run_arena("heuristic", "random", rules, 6, 11, jobs=2, ray=LOCAL)
        assert (spread.backend, spread.jobs, single.backend) == ("ray", 2, "serial")
        assert spread.outcome() == single.outcome()


def test_cli_ray_flag() -> None:
    args = ["arena", "--a", "random", "--b", "random", "--deals", "4", "--seed", "2", "--json"]
    ray_run = run(*args, "--ray")
    assert ray_run.exit_code == 0, ray_run.output
    data = json.loads(ray_run.output)
    assert data["timing"]["backend"] == "ray" and data["timing"]["jobs"] == 2
    jobs_run = json.loads(run(*args, "--jobs", "2").output)
    assert jobs_run["timing"]["backend"] == "processes"
    for d in (data, jobs_run):
        del d["timing"]
    assert data == jobs_run


def readme_example() -> str:
    """The Python block after ``<!-- env-example -->`` in the README."""
    text = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    after = text.split("<!-- env-example -->", 1)[1]
    return after.split("```python\n", 1)[1].split("```", 1)[0]


def test_readme_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code = readme_example()
    assert len(code.splitlines()) <= 30
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    rewards = {line.split()[0]: float(line.split()[1]) for line in out[:6]}
    assert sorted(rewards) == [f"seat_{s}" for s in range(6)] and sum(rewards.values()) == 0
    assert out[6].startswith("167957 pass ")
    assert out[7].endswith(" ray")
