"""Shards' codes (``gouji.server.shards``) and ``gouji proxy-config``: the printed nginx configuration passes
``nginx -t`` and, run by a real nginx, sends each code's requests to its shard and the rest to any."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from gouji.cli import main
from gouji.server.proxy_config import ProxyConfigError, nginx_config
from gouji.server.shards import CODE_ALPHABET, MAX_SHARDS, Shard, ShardError, letters_of, shard_of

from ..helpers import free_port
from .nginx import check_conf, running_nginx


@pytest.mark.parametrize("count", range(1, MAX_SHARDS + 1))
def test_the_shards_share_the_alphabet_and_make_only_their_own_codes(count: int) -> None:
    owned = [letters_of(i, count) for i in range(1, count + 1)]
    assert sorted("".join(owned)) == sorted(CODE_ALPHABET), "every first character belongs to exactly one shard"
    assert all(owned), "each shard owns at least one character"
    for i in range(1, count + 1):
        shard = Shard(i, count)
        for _ in range(20):
            code = shard.new_code()
            assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
            assert shard.owns(code) and shard.owns(code.lower()) and shard_of(code, count) == i
            assert not any(Shard(j, count).owns(code) for j in range(1, count + 1) if j != i)


def test_a_shard_is_parsed_and_refused_with_what_was_wrong() -> None:
    assert Shard.parse("2/3") == Shard(2, 3) and str(Shard(2, 3)) == "2/3" and Shard() == Shard(1, 1)
    for text, says in (
        ("3", "I/N such as 1/2"),
        ("a/b", "I/N such as 1/2"),
        ("0/2", "the index is 1 to 2"),
        ("3/2", "the index is 1 to 2"),
        ("1/0", "a shard count is 1 to 16"),
        ("1/17", "a shard count is 1 to 16"),
    ):
        with pytest.raises(ShardError, match=says):
            Shard.parse(text)
    assert shard_of("", 2) is None and shard_of("0ABCDE", 2) is None  # no shard makes these


def test_proxy_config_refuses_bad_input_naming_it() -> None:
    runner = CliRunner()
    for args, says in (
        (["--shards", "ftp://a:1"], "an http URL with a host and a port"),
        (["--shards", "http://a"], "an http URL with a host and a port"),
        (["--shards", "http://a:1/x"], "an http URL with a host and a port"),
        (["--shards", "http://a:1,http://a:1"], "the same game server twice"),
        (["--shards", "http://a:1", "--listen", "nowhere"], "HOST:PORT"),
        (["--shards", "http://a:1", "--certificate", "c.pem"], "both --certificate and --certificate-key"),
        (["--shards", "http://a:1", "--server-name", "a;b"], "--server-name"),
        (["--shards", ",".join(f"http://h{i}:1" for i in range(17))], "1 to 16 game servers"),
    ):
        run = runner.invoke(main, ["proxy-config", *args])
        assert run.exit_code == 2 and says in run.output, (args, run.output)
    with pytest.raises(ProxyConfigError, match="semicolons"):
        nginx_config(["http://a:1"], "0.0.0.0:443", certificate=Path("a;b"), certificate_key=Path("k"))


@pytest.mark.parametrize(
    ("args", "bad"),
    [
        # the review's: an IPv6 zone id (which Python's ipaddress takes with any text after the %) landed verbatim
        (["--shards", "http://[fe80::1%x;}evil]:8000"], "'fe80::1%x;}evil'"),
        (["--shards", "http://10.0.0.2:8000,http://[fe80::1%eth0]:8000"], "'fe80::1%eth0'"),
        (["--shards", "http://[fe80::1%25eth0]:8000"], "'fe80::1%25eth0'"),
        (["--shards", "http://[::1]:8000", "--listen", "[fe80::1%eth0]:443"], "'fe80::1%eth0' in --listen"),
        (["--shards", "http://[::1]:8000", "--listen", "[::1%x{}]:443"], "'::1%x{}' in --listen"),
    ],
)
def test_proxy_config_refuses_zone_ids_and_what_would_end_a_directive(args: list[str], bad: str) -> None:
    run = CliRunner().invoke(main, ["proxy-config", *args])
    assert run.exit_code == 2 and bad in run.output and "no zone id (%)" in run.output, run.output
    assert "server " not in run.output  # (nothing printed but the refusal)


def test_proxy_config_passes_the_host_the_browser_sent_with_its_port() -> None:
    """The review's: ``Host $host`` drops the port, so behind the output on a port other than 80 or 443 the
    page's own POSTs (and WebSockets) were refused by the server's Origin check; ``$http_host`` keeps it."""
    conf = nginx_config(["http://127.0.0.1:8001"], "127.0.0.1:8080")
    assert "proxy_set_header Host $http_host;" in conf and "Host $host;" not in conf


def test_a_page_behind_proxy_config_on_another_port_may_post_and_open_websockets(tmp_path: Path) -> None:
    """A real server behind a real nginx with ``gouji proxy-config``'s output on a port of its own: the page's
    POST, sent with the page's origin (``http://127.0.0.1:PORT``), creates a table, and its WebSocket opens."""
    from websockets.sync.client import connect

    from .test_security import serving

    with serving(tmp_path) as server:
        port = free_port()
        origin = f"http://127.0.0.1:{port}"
        conf = nginx_config([server.base], f"127.0.0.1:{port}")
        with running_nginx(tmp_path / "nginx", conf, port), httpx.Client(base_url=origin, timeout=30) as web:
            made = web.post("/api/tables", json={"bots": [None] + ["random"] * 5}, headers={"Origin": origin})
            assert made.status_code == 201, made.text
            ws_url = f"ws://127.0.0.1:{port}/ws/tables/{made.json()['code']}"
            with connect(ws_url, origin=origin, open_timeout=10) as ws:  # type: ignore[arg-type]
                ws.send('{"type": "hello", "v": 1}')
                assert '"welcome"' in ws.recv(timeout=10)


def test_the_printed_configuration_passes_nginx_t(tmp_path: Path) -> None:
    """Plain and with TLS (a self-signed certificate), for one and for several shards on other hosts."""
    from .tls import self_signed

    cert, key = self_signed(tmp_path / "tls")
    tls = ["--certificate", str(cert), "--certificate-key", str(key)]
    runner = CliRunner()
    for n, (shards, extra) in enumerate(
        (
            ("http://127.0.0.1:8001", []),
            ("http://10.0.0.2:8000,http://10.0.0.3:8000,http://[::1]:8002", ["--server-name", "gouji.example.org"]),
            ("http://127.0.0.1:8001,http://127.0.0.1:8002", tls),
        )
    ):
        run = runner.invoke(main, ["proxy-config", "--shards", shards, "--listen", "127.0.0.1:18443", *extra])
        assert run.exit_code == 0, run.output
        checked = check_conf(tmp_path / f"t{n}", run.output)
        assert checked.returncode == 0, checked.stderr


class _Echo(BaseHTTPRequestHandler):
    """A stand-in shard: answers every request with its shard number, the path and X-Forwarded-For."""

    shard = 0

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        body = json.dumps({"shard": self.shard, "path": self.path, "xff": self.headers.get("X-Forwarded-For")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def _shards(n: int) -> Iterator[list[str]]:
    servers = []
    for i in range(1, n + 1):
        handler = type(f"Echo{i}", (_Echo,), {"shard": i})
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    try:
        yield [f"http://127.0.0.1:{s.server_address[1]}" for s in servers]
    finally:
        for s in servers:
            s.shutdown()
            s.server_close()


def test_nginx_sends_each_code_to_its_shard_and_the_rest_to_any(tmp_path: Path) -> None:
    with _shards(3) as urls:
        port = free_port()
        conf = nginx_config(urls, f"127.0.0.1:{port}")
        with running_nginx(tmp_path / "nginx", conf, port), httpx.Client(base_url=f"http://127.0.0.1:{port}") as c:
            for i in range(1, 4):
                code = Shard(i, 3).new_code()
                for path in (
                    f"/api/tables/{code}",
                    f"/api/tables/{code.lower()}/join",
                    f"/ws/tables/{code}",
                    f"/t/{code}",
                    f"/api/matches/{code}",
                    f"/api/events/{code}/start",
                    f"/api/teams/{code}/join",
                    f"/api/tables/{code}/deals/1/replay",
                ):
                    got = c.post(path, json={}) if path.endswith(("join", "start", "replay")) else c.get(path)
                    assert got.json()["shard"] == i, (path, got.json())
            # creations, records, players' games and the page go to any shard: all of them take some
            seen = {c.post("/api/tables", json={}).json()["shard"] for _ in range(12)}
            seen |= {c.get(p).json()["shard"] for p in ("/", "/api/records/1", "/api/players/ann/games") * 4}
            assert seen == {1, 2, 3}
            # the client's address is passed on, after whatever the client wrote (the shard trusts only the last)
            echoed = c.get(f"/api/tables/{Shard(1, 3).new_code()}", headers={"X-Forwarded-For": "6.6.6.6"}).json()
            assert echoed["xff"] == "6.6.6.6, 127.0.0.1"


def test_tls_helper_is_usable(tmp_path: Path) -> None:
    from .tls import self_signed

    cert, key = self_signed(tmp_path)
    assert cert.read_text().startswith("-----BEGIN CERTIFICATE-----") and key.stat().st_mode & 0o077 == 0
