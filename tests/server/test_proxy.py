"""The client's address behind a reverse proxy (``gouji serve --trusted-proxy``), on a real server process.

The per-client limits key on the client's address.  Behind a reverse proxy every connection comes from the
proxy, so the server may be told to trust it: then (and only for connections from it) the address its
``X-Forwarded-For`` names is the client's.  A header from any other peer is ignored — anyone could write it.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from gouji.server.serve import proxy_options, trusted_proxies

from .conftest import wait_serving


@contextmanager
def serving(tmp_path: Path, *trusted: str) -> Iterator[str]:
    """A server process on 127.0.0.1 allowing each client two tables, trusting these proxies."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path / f"server-{port}.log"
    cmd = [sys.executable, "-m", "gouji.server.serve", "--port", str(port)]
    cmd += ["--database-url", f"sqlite:///{tmp_path / f'{port}.db'}", "--log-level", "warning", "--no-access-log"]
    cmd += ["--create-burst", "2", "--create-rate", "0.0001"]
    if trusted:
        cmd += ["--trusted-proxy", *trusted]
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_serving(proc, base, log)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def creates(base: str, forwarded_for: list[str]) -> list[int]:
    """The status of one table created per entry, each sent with that X-Forwarded-For header."""
    out = []
    for xff in forwarded_for:
        r = httpx.post(f"{base}/api/tables", json={"bots": ["random"] * 6}, headers={"X-Forwarded-For": xff})
        out.append(r.status_code)
    return out


def test_a_trusted_proxys_forwarded_address_is_the_client_and_anyone_elses_header_is_ignored(
    tmp_path: Path,
) -> None:
    ann, bob = "203.0.113.7", "198.51.100.9"
    # the test's connections come from 127.0.0.1: here that is the trusted proxy, so Ann and Bob, whose
    # addresses it forwards, each have their own two tables
    with serving(tmp_path, "127.0.0.1") as base:
        assert creates(base, [ann, ann, ann, bob, bob, f"{bob}, 127.0.0.1"]) == [201, 201, 429, 201, 201, 429]
    # 127.0.0.1 is no trusted proxy (only 10.0.0.0/8 is): the header is a spoof, and every request is the
    # peer's own — two tables in all, whatever address it claims
    with serving(tmp_path, "10.0.0.0/8") as base:
        assert creates(base, [ann, bob, "10.0.0.1", bob]) == [201, 201, 429, 429]
    # no --trusted-proxy: the header is never read
    with serving(tmp_path) as base:
        assert creates(base, [ann, bob, ann]) == [201, 201, 429]


def test_trusted_proxies_are_addresses_or_networks() -> None:
    assert trusted_proxies(["10.0.0.5", "192.168.0.0/16, ::1"]) == ["10.0.0.5/32", "192.168.0.0/16", "::1/128"]
    with pytest.raises(ValueError, match=r"'proxy\.example' is not an IP address or network"):
        trusted_proxies(["proxy.example"])
    assert proxy_options([]) == {"proxy_headers": False}
    assert proxy_options(["10.0.0.5/32"]) == {"proxy_headers": True, "forwarded_allow_ips": ["10.0.0.5/32"]}


def test_gouji_serve_refuses_a_trusted_proxy_that_is_no_address() -> None:
    r = subprocess.run(
        [sys.executable, "-c", "from gouji.cli import main; main()", "serve", "--trusted-proxy", "proxy.example"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "'proxy.example' is not an IP address or network" in r.stderr
