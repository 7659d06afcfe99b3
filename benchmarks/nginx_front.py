"""Debian's nginx in front of game servers, for the benchmarks and the tests: run from a temporary prefix (its
configuration, pid, logs and temp files all under one folder), in the foreground, stopped at the end.
``http_block`` is what goes inside ``http { }`` — ``gouji proxy-config``'s output."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

NGINX = os.environ.get("GOUJI_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"


def need_nginx() -> str:
    """The nginx binary; FileNotFoundError saying how to get it."""
    if os.path.exists(NGINX):
        return NGINX
    raise FileNotFoundError(f"no nginx at {NGINX}: apt-get install nginx (or set GOUJI_NGINX)")


def nginx_conf(prefix: Path, http_block: str) -> Path:
    """A whole nginx.conf around ``http_block`` (what goes inside ``http { }``), everything under ``prefix``."""
    prefix.mkdir(parents=True, exist_ok=True)
    temps = "\n".join(
        f"    {kind}_temp_path {prefix / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = prefix / "nginx.conf"
    conf.write_text(
        f"""worker_processes auto;
worker_rlimit_nofile 16384;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
{temps}
{http_block}
}}
""",
        encoding="utf-8",
    )
    return conf


def check_conf(prefix: Path, http_block: str) -> subprocess.CompletedProcess[str]:
    """``nginx -t`` on ``http_block`` inside a whole configuration."""
    conf = nginx_conf(prefix, http_block)
    return subprocess.run(
        [need_nginx(), "-t", "-p", str(prefix), "-e", str(prefix / "error.log"), "-c", str(conf)],
        capture_output=True,
        text=True,
        timeout=30,
    )


@contextmanager
def running_nginx(prefix: Path, http_block: str, port: int) -> Iterator[int]:
    """nginx in the foreground with ``http_block``, until the block ends; ``port`` is where it listens.
    Yields the master process's pid."""
    conf = nginx_conf(prefix, http_block)
    cmd = [need_nginx(), "-p", str(prefix), "-e", str(prefix / "error.log"), "-c", str(conf), "-g", "daemon off;"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            if proc.poll() is not None:
                log = (prefix / "error.log").read_text(errors="replace") if (prefix / "error.log").exists() else ""
                err = proc.stderr.read() if proc.stderr else ""
                raise AssertionError(f"nginx exited {proc.returncode}: {err}{log}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError("nginx did not start listening within 20 s") from None
                time.sleep(0.05)
        yield proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()
