"""Debian's nginx for the tests: ``benchmarks/nginx_front.py``'s runner, which the load benchmark uses too.

Outside CI a missing nginx skips the test, saying why; under ``CI=true`` it fails (``make test`` installs
nginx from Debian's packages when run as root, so CI must have it)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "nginx_front", Path(__file__).resolve().parents[2] / "benchmarks" / "nginx_front.py"
)
assert _spec is not None and _spec.loader is not None
front = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(front)


def need_nginx() -> str:
    """The nginx binary, or skip (outside CI) / fail (under CI) saying why."""
    try:
        path: str = front.need_nginx()
    except FileNotFoundError as e:
        if os.environ.get("CI"):
            pytest.fail(str(e))
        pytest.skip(str(e))
    return path


def nginx_conf(prefix: Path, http_block: str) -> Path:
    """A whole nginx.conf around ``http_block``, everything under ``prefix``."""
    conf: Path = front.nginx_conf(prefix, http_block)
    return conf


def check_conf(prefix: Path, http_block: str) -> subprocess.CompletedProcess[str]:
    """``nginx -t`` on ``http_block`` inside a whole configuration."""
    need_nginx()
    result: subprocess.CompletedProcess[str] = front.check_conf(prefix, http_block)
    return result


def running_nginx(prefix: Path, http_block: str, port: int) -> AbstractContextManager[int]:
    """nginx in the foreground with ``http_block`` until the block ends; ``port`` is where it listens."""
    need_nginx()
    runner: AbstractContextManager[int] = front.running_nginx(prefix, http_block, port)
    return runner


__all__ = ["check_conf", "need_nginx", "nginx_conf", "running_nginx"]
