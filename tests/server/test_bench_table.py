"""``benchmarks/bench_table.py``: the table code's cost per move, in process, the same moves for the same seed
(so that ``--instructions`` can count what a move takes, whatever the machine's load)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_table.py"


def _run(*args: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--json", *args], capture_output=True, text=True, timeout=300, check=True
    )
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_it_plays_the_moves_asked_and_the_same_ones_for_the_same_seed() -> None:
    one = _run("--tables", "3", "--moves", "400", "--seed", "7")
    assert one["tables"] == 3 and one["moves"] == 400
    assert one["cpu_us_per_move"] > 0
    assert one["frame_bytes_per_move"] > 6 * 500  # six seats' frames a move, each the whole incremental view
    assert one["writer_bytes_per_move"] > 0
    again = _run("--tables", "3", "--moves", "400", "--seed", "7")
    other = _run("--tables", "3", "--moves", "400", "--seed", "8")
    same = ("frame_bytes_per_move", "writer_bytes_per_move")
    assert [again[k] for k in same] == [one[k] for k in same]
    assert [other[k] for k in same] != [one[k] for k in same]


def test_bad_arguments_are_refused() -> None:
    for args, said in ((["--moves", "0"], "--moves is 5 to 10,000,000, not 0"), (["--tables", "0"], "--tables is 1")):
        out = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and said in out.stderr, out.stderr


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="--instructions needs valgrind")
def test_instructions_a_move_are_counted() -> None:
    # the two runs' start-ups differ by some 15 million instructions from one run to the next (measured): the
    # 240 moves between them (about a million instructions each) keep the difference well inside the bounds,
    # where the 48 of --moves 60 once gave -130,094 a move in CI
    result = _run("--tables", "2", "--moves", "300", "--instructions")
    assert 100_000 < result["instructions_per_move"] < 100_000_000


def test_the_receive_benchmark_feeds_every_message_both_ways() -> None:
    """``benchmarks/bench_receive.py``: every message it feeds is taken by the handler, with the protocol's
    framing and through the library's parser alike (it raises otherwise), and it prints a figure for each."""
    bench = BENCH.parent / "bench_receive.py"
    out = subprocess.run(
        [sys.executable, str(bench), "--json", "--connections", "20", "--rounds", "3", "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result = json.loads(out.stdout)
    assert result["connections"] == 20 and result["rounds"] == 3
    assert set(result["us_per_message"]) == {"framing", "library"}
    assert all(v > 0 for v in result["us_per_message"].values())
    bad = subprocess.run([sys.executable, str(bench), "--connections", "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--connections 1-100,000" in bad.stderr
