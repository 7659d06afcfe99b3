"""gouji.lab.distributed without Ray: in-order results, progress callbacks and errors, serial and processes."""

from __future__ import annotations

import math

import pytest

from gouji.lab.distributed import ProcessWorkers, Workers, map_chunks, workers


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_come_back_in_order(jobs: int) -> None:
    items = list(range(40, 0, -1))
    seen: list[tuple[int, int]] = []
    out = map_chunks(math.factorial, items, jobs=jobs, on_result=lambda i, r: seen.append((i, r)))
    assert out == [math.factorial(n) for n in items]
    assert sorted(seen) == list(enumerate(out))


def test_pool_kinds_and_reuse() -> None:
    assert type(workers(1)) is Workers and workers(None).size == 1
    with workers(2) as pool:
        assert isinstance(pool, ProcessWorkers) and pool.kind == "processes" and pool.size == 2
        assert pool.map(abs, [-1, -2]) == [1, 2]
        assert pool.map(abs, [-3]) == [3]  # the same processes, a second time
        assert pool.map(abs, []) == []


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_in_the_function_is_raised_here(jobs: int) -> None:
    with pytest.raises(ValueError, match="math domain error"):
        map_chunks(math.sqrt, [4.0, -1.0, 9.0], jobs=jobs)


def test_bad_jobs() -> None:
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        workers(0)
