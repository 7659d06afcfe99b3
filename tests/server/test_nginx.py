"""The hosting guide's files, run: Debian's nginx with ``deploy/nginx-gouji.conf`` and a self-signed certificate
in front of a real server process started with ``deploy/gouji.service``'s options (docs/hosting.md).

Only what a test cannot have is changed in the shipped files: the ports (free ones on 127.0.0.1, IPv4 only),
the certificate's paths, the database (an SQLite file) and the program (this interpreter).  Then:

- the page over HTTPS (with the server's security headers and nginx's HSTS); plain HTTP redirects to it;
- a whole deal over ``wss://`` through nginx (a person's seat, from the browser's origin, against five bots);
- the client's address is the one nginx saw (``--trusted-proxy 127.0.0.1``; the clients connect from other
  loopback addresses, 127.0.0.3 and up, so each is told apart from nginx's own 127.0.0.1) — in the server's
  access log, and the link it hands out is the public ``https://`` one;
- an ``X-Forwarded-For`` written by a client is ignored: through nginx (which writes the header afresh) and
  straight to the server from a peer that is not the trusted proxy.

Skipped when nginx is missing (``make test`` installs it as root) — except under ``CI=true``, where it fails
(``tests/server/nginx.py``).  The certificate is trustme's (``tests/server/tls.py``).
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from ..helpers import free_port
from .conftest import choose, wait_serving
from .nginx import need_nginx, nginx_conf
from .tls import self_signed

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx-gouji.conf"
UNIT = ROOT / "deploy" / "gouji.service"
BACKUP = ROOT / "deploy" / "gouji-backup.service"
PROGRAM = "/opt/gouji/venv/bin/gouji"
"""Where the unit runs gouji from (the guide's virtualenv)."""


def replaced(text: str, old: str, new: str, count: int = 1) -> str:
    """``text`` with ``old`` replaced by ``new``, which must occur exactly ``count`` times."""
    assert text.count(old) == count, f"the shipped file no longer has {count} × {old!r}"
    return text.replace(old, new)


def exec_start() -> list[str]:
    """The unit's ExecStart, as argv."""
    lines = [line for line in UNIT.read_text().splitlines() if line.startswith("ExecStart=")]
    assert len(lines) == 1
    return shlex.split(lines[0].removeprefix("ExecStart="))


def option(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1]


@dataclass
class Site:
    https: str
    http: str
    direct: str
    port: int
    tls: ssl.SSLContext
    server_log: Path


def _wait_port(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    end = time.monotonic() + 20
    while True:
        assert proc.poll() is None, f"nginx exited: {log.read_text(errors='replace')[-2000:]}"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            assert time.monotonic() < end, "nginx did not listen"
            time.sleep(0.05)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    nginx = need_nginx()
    tmp = tmp_path_factory.mktemp("nginx")
    cert, key = self_signed(tmp / "tls")

    # the server, as the unit starts it
    argv = exec_start()
    assert argv[:2] == [PROGRAM, "serve"]
    assert option(argv, "--host") == "127.0.0.1" and option(argv, "--trusted-proxy") == "127.0.0.1"
    upstream = int(option(argv, "--port"))
    port = free_port()
    argv[argv.index("--port") + 1] = str(port)
    argv[argv.index("--database-url") + 1] = f"sqlite:///{tmp / 'gouji.db'}"
    cmd = [sys.executable, "-c", "from gouji.cli import main; main()", *argv[1:]]
    server_log = tmp / "server.log"

    # nginx, with the shipped site
    https, http = free_port(), free_port()
    conf = SITE.read_text()
    conf = replaced(conf, f"server 127.0.0.1:{upstream};", f"server 127.0.0.1:{port};")
    conf = replaced(conf, "listen 80;", f"listen 127.0.0.1:{http};")
    conf = replaced(conf, "listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;")
    conf = replaced(conf, "listen [::]:80;", "")
    conf = replaced(conf, "listen [::]:443 ssl;", "")
    conf = replaced(conf, "/etc/letsencrypt/live/gouji.example.org/fullchain.pem", str(cert))
    conf = replaced(conf, "/etc/letsencrypt/live/gouji.example.org/privkey.pem", str(key))
    conf = nginx_conf(tmp, conf.replace("\n", "\n    "))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        with server_log.open("ab") as out:
            procs.append(subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=tmp))
        with (tmp / "nginx.out").open("ab") as out:
            nginx_cmd = [nginx, "-p", str(tmp), "-c", str(conf), "-e", str(tmp / "error.log"), "-g", "daemon off;"]
            procs.append(subprocess.Popen(nginx_cmd, stdout=out, stderr=subprocess.STDOUT))
        server, proxy = procs
        wait_serving(server, f"http://127.0.0.1:{port}", server_log)
        _wait_port(https, proxy, tmp / "error.log")
        tls = ssl.create_default_context(cafile=str(tmp / "tls" / "ca.pem"))
        yield Site(
            f"https://127.0.0.1:{https}", f"http://127.0.0.1:{http}", f"http://127.0.0.1:{port}", https, tls, server_log
        )
    finally:
        for p in reversed(procs):
            p.send_signal(signal.SIGQUIT if p is not procs[0] else signal.SIGTERM)  # (SIGQUIT: nginx's graceful stop)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def client(site: Site, source: str) -> httpx.Client:
    """An HTTPS client of the site, connecting from the loopback address ``source``."""
    transport = httpx.HTTPTransport(verify=site.tls, local_address=source)
    return httpx.Client(transport=transport, trust_env=False, timeout=10)


def logged(site: Site, pattern: str, timeout: float = 5.0) -> list[str]:
    """The server's log lines matching ``pattern`` (waiting a moment for the first)."""
    end = time.monotonic() + timeout
    while True:
        lines = [line for line in site.server_log.read_text(errors="replace").splitlines() if re.search(pattern, line)]
        if lines or time.monotonic() > end:
            return lines
        time.sleep(0.05)


def test_the_page_is_served_over_https_and_plain_http_redirects_to_it(site: Site) -> None:
    with client(site, "127.0.0.3") as c:
        page = c.get(f"{site.https}/")
        assert page.status_code == 200 and "够级" in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["strict-transport-security"] == "max-age=31536000"
        assert c.get(f"{site.https}/table.js").status_code == 200
    r = httpx.get(f"{site.http}/t/ABC?x=1", trust_env=False)
    assert r.status_code == 301 and r.headers["location"] == "https://127.0.0.1/t/ABC?x=1"


def test_a_whole_deal_over_wss_through_nginx_with_the_clients_own_address(site: Site) -> None:
    with client(site, "127.0.0.3") as c:
        # (no masking time: a person's answers resolve their windows at once)
        made = c.post(
            f"{site.https}/api/tables", json={"bots": [None] + ["random"] * 5, "set_length": 1, "bot_delay": 0}
        )
        assert made.status_code == 201, made.text
        code = made.json()["code"]
        # the link is the public one: the scheme nginx was reached by, the Host the browser sent
        assert made.json()["link"] == f"https://127.0.0.1:{site.port}/t/{code}"
        token = c.post(f"{site.https}/api/tables/{code}/join", json={"nickname": "ann", "seat": 0}).json()["token"]
    acted, frames, last = 0, 0, None
    url = f"wss://127.0.0.1:{site.port}/ws/tables/{code}"
    origin = f"https://127.0.0.1:{site.port}"  # a browser's, on the page: the server accepts its own origin
    with connect(url, ssl=site.tls, origin=origin, source_address=("127.0.0.3", 0), proxy=None) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        answered: set[int] = set()
        end = time.monotonic() + 60
        while last is None or last["table"]["status"] != "over":
            assert time.monotonic() < end, "the deal did not end within 60 s"
            frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if frame["type"] == "error":
                raise AssertionError(frame)
            if frame["type"] != "state":
                continue
            frames, last = frames + 1, frame
            turn = frame["turn"]
            if turn["seat"] == 0 and "legal_count" in turn and turn["decision"] not in answered:
                answered.add(turn["decision"])
                ws.send(
                    json.dumps({"type": "act", "action": choose(turn), "decision": turn["decision"], "token": token})
                )
                acted += 1
    assert last is not None and last["table"]["deals_over"] == 1 and acted >= 1 and frames > 20
    # the server saw each request, and the WebSocket, come from the client's address, not from nginx's
    assert logged(site, rf"127\.0\.0\.3\D.*POST /api/tables/{code}/join"), "the join, from the client's address"
    ws_lines = logged(site, rf"WebSocket /ws/tables/{code}\b")
    assert ws_lines and all("127.0.0.3" in line for line in ws_lines), ws_lines


def test_an_x_forwarded_for_written_by_a_client_is_ignored(site: Site) -> None:
    # through nginx: it writes the header afresh, so the server sees the address nginx saw
    with client(site, "127.0.0.4") as c:
        r = c.get(f"{site.https}/api/tables/SPOOFA", headers={"X-Forwarded-For": "203.0.113.77"})
        assert r.status_code == 404
    lines = logged(site, r"/api/tables/SPOOFA\b")
    assert lines and all("127.0.0.4" in line and "203.0.113.77" not in line for line in lines), lines
    # straight to the server, from a peer that is not the trusted proxy: the header is not read
    direct = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.5"), trust_env=False)
    with direct:
        r = direct.get(f"{site.direct}/api/tables/SPOOFB", headers={"X-Forwarded-For": "203.0.113.78"})
        assert r.status_code == 404
    lines = logged(site, r"/api/tables/SPOOFB\b")
    assert lines and all("127.0.0.5" in line and "203.0.113.78" not in line for line in lines), lines
    # while the trusted proxy's own header is read (nginx's connections come from 127.0.0.1)
    with httpx.Client(trust_env=False) as local:
        r = local.get(f"{site.direct}/api/tables/SPOOFC", headers={"X-Forwarded-For": "203.0.113.79"})
        assert r.status_code == 404
    assert any("203.0.113.79" in line for line in logged(site, r"/api/tables/SPOOFC\b"))


def test_the_units_and_the_site_agree_and_the_units_are_valid(tmp_path: Path) -> None:
    argv = exec_start()
    upstream = option(argv, "--port")
    assert f"server 127.0.0.1:{upstream};" in SITE.read_text()  # nginx sends to where the server listens
    url = option(argv, "--database-url")
    backup_line = next(line for line in BACKUP.read_text().splitlines() if line.startswith("ExecStart="))
    assert f'--database-url "{url}"' in backup_line  # the backup copies the database the server uses
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("no systemd-analyze (apt-get install systemd): the units' syntax is not checked")
    units = []
    for unit in (UNIT, BACKUP, BACKUP.with_suffix(".timer")):
        units.append(tmp_path / unit.name)  # (verify wants the programs to exist)
        units[-1].write_text(unit.read_text().replace(PROGRAM, sys.executable))
    r = subprocess.run([analyze, "verify", *map(str, units)], capture_output=True, text=True, timeout=60)
    problems = [line for line in r.stderr.splitlines() if "gouji" in line]
    assert r.returncode == 0 and not problems, r.stderr


def test_the_backup_units_command_writes_the_days_backup(tmp_path: Path) -> None:
    from gouji.server.storage import open_store
    from gouji.server.storage.backup import backup_kind

    db = f"sqlite:///{tmp_path / 'gouji.db'}"
    open_store(db).close()
    line = next(line for line in BACKUP.read_text().splitlines() if line.startswith("ExecStart="))
    argv = shlex.split(line.removeprefix("ExecStart="))
    assert argv[:2] == ["/bin/sh", "-c"]
    script = replaced(argv[2], PROGRAM, f"{shlex.quote(sys.executable)} -c 'from gouji.cli import main; main()'")
    script = replaced(script, "postgresql+psycopg://gouji@/gouji?host=/run/postgresql", db)
    script = replaced(script, "/var/lib/gouji/backups", str(tmp_path)).replace("%%", "%")  # (systemd's escape)
    r = subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    day = subprocess.run(["date", "+%a"], capture_output=True, text=True, check=True).stdout.strip()
    assert backup_kind(tmp_path / f"gouji-{day}.backup") == "sqlite"


def test_the_guide_uses_every_shipped_file_and_names_none_that_is_missing() -> None:
    guide = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    named = set(re.findall(r"deploy/[A-Za-z0-9_.-]+\.[a-z]+", guide))
    shipped = {f"deploy/{p.name}" for p in (ROOT / "deploy").iterdir()}
    assert named == shipped, (named - shipped, shipped - named)
    # the guide's URL of the database is the units'
    assert option(exec_start(), "--database-url") in guide


def test_the_session_cookie_is_secure_behind_the_tls_proxy(site: Site) -> None:
    """Issue 42: a session made over HTTPS (nginx's ``X-Forwarded-Proto``) is a ``Secure`` cookie; the page's
    own POST passes the Origin check through the proxy."""
    origin = f"https://127.0.0.1:{site.port}"
    with client(site, "127.0.0.4") as c:
        r = c.post(
            f"{site.https}/api/accounts", json={"name": "tls", "password": "over https"}, headers={"Origin": origin}
        )
        assert r.status_code == 201, r.text
        cookie = r.headers["set-cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
        assert c.get(f"{site.https}/api/me").json()["name"] == "tls"
        r = c.post(
            f"{site.https}/api/accounts",
            json={"name": "evil", "password": "over https"},
            headers={"Origin": "https://evil.example"},
        )
        assert r.status_code == 403
