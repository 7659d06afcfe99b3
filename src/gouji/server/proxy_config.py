"""The nginx configuration in front of N game servers (``gouji proxy-config``).

What it prints goes inside the ``http { }`` block of ``nginx.conf`` (its ``map``, ``upstream`` and
``server`` blocks).  A request or WebSocket whose path names a code — ``/api/tables/CODE…``,
``/ws/tables/CODE``, ``/t/CODE``, ``/api/matches/CODE…``, ``/api/events/CODE…``, ``/api/teams/CODE/join`` —
goes to the shard the code's first character names (:mod:`gouji.server.shards`); everything else
(creating a table, match or event, the page, records and players' games, which read the shared database)
to any shard.  Each shard is started with ``--trusted-proxy`` naming the proxy, so it takes the client's
address from ``X-Forwarded-For``.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .shards import MAX_SHARDS, letters_of

CODE_PATHS = ("api/tables", "api/matches", "api/events", "api/teams", "ws/tables", "t")
"""The paths whose next segment is a code (of a table, match, event or team)."""


class ProxyConfigError(ValueError):
    """A shard URL, listen address or certificate the configuration cannot be written with."""


@dataclass(frozen=True)
class Upstream:
    """A shard's ``host:port`` as nginx's ``server`` line takes it."""

    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


_HOST = re.compile(r"^[A-Za-z0-9.-]{1,253}$")
_UNSAFE = re.compile(r"[%{};\s\\\"']")
"""What no host in nginx's configuration may hold: an IPv6 zone id (``%eth0``: Python's ``ipaddress`` takes any
text after it), whitespace, braces, semicolons, quotes — each would end or add a directive."""


def _check_host(host: str, where: str) -> None:
    """A ProxyConfigError naming ``where`` unless ``host`` is an IP address (no zone id) or a host name."""
    if _UNSAFE.search(host):
        raise ProxyConfigError(
            f"{host!r} in {where} is not an address or host name nginx can take: no zone id (%), whitespace, "
            "braces, semicolons or quotes"
        )
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if not _HOST.match(host):
            raise ProxyConfigError(f"{host!r} in {where} is not a host name") from None


def parse_shard_url(url: str) -> Upstream:
    """``http://10.0.0.2:8000`` → its host and port; only plain ``http`` URLs with a port and no path."""
    parts = urlsplit(url.strip())
    try:
        port = parts.port
    except ValueError:
        port = None
    host = parts.hostname or ""
    if parts.scheme != "http" or port is None or parts.path not in ("", "/") or parts.query or not host:
        raise ProxyConfigError(
            f"a shard is an http URL with a host and a port, such as http://10.0.0.2:8000, not {url!r}"
        )
    _check_host(host, repr(url))
    return Upstream(host, port)


def parse_listen(text: str) -> Upstream:
    """``HOST:PORT`` (``0.0.0.0:443``, ``[::]:443``) for nginx's ``listen``."""
    host, colon, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not colon or not port.isdigit() or not 0 < int(port) < 65536 or not host:
        raise ProxyConfigError(f"--listen is HOST:PORT such as 0.0.0.0:443, not {text!r}")
    _check_host(host, f"--listen {text!r}")
    return Upstream(host, int(port))


def nginx_config(
    shards: Sequence[str],
    listen: str,
    server_name: str = "_",
    certificate: Path | None = None,
    certificate_key: Path | None = None,
) -> str:
    """The configuration text for the shards ``shards`` (URLs, shard 1 first), served on ``listen``; with
    ``certificate`` and ``certificate_key`` the server block speaks TLS (``https://``, ``wss://``)."""
    if not 1 <= len(shards) <= MAX_SHARDS:
        raise ProxyConfigError(f"--shards names 1 to {MAX_SHARDS} game servers, not {len(shards)}")
    ups = [parse_shard_url(u) for u in shards]
    if len(set(ups)) != len(ups):
        raise ProxyConfigError("--shards names the same game server twice")
    at = parse_listen(listen)
    if (certificate is None) != (certificate_key is None):
        raise ProxyConfigError("TLS needs both --certificate and --certificate-key")
    if not re.fullmatch(r"[A-Za-z0-9._*-]+", server_name):
        raise ProxyConfigError(f"--server-name is a host name such as gouji.example.org, not {server_name!r}")
    n = len(ups)
    paths = "|".join(CODE_PATHS)
    out = [
        f"# gouji: {n} game server{'s' * (n > 1)} behind nginx, made by `gouji proxy-config`.",
        "# Include this file inside the http { } block of nginx.conf; start each shard with",
        "# --trusted-proxy naming this proxy's address.",
        "",
        "map $http_upgrade $gouji_connection {",
        "    default upgrade;",
        "    ''      close;",
        "}",
        "",
        "upstream gouji_any {",
        *(f"    server {u};" for u in ups),
        "}",
    ]
    for i, u in enumerate(ups, 1):
        out += ["", f"upstream gouji_shard_{i} {{", f"    server {u};", "}"]
    out += [
        "",
        "# a code's first character names its shard (gouji.server.shards)",
        "map $uri $gouji_upstream {",
        *(f'    "~*^/(?:{paths})/[{letters_of(i, n)}]" gouji_shard_{i};' for i in range(1, n + 1)),
        "    default gouji_any;",
        "}",
        "",
        "server {",
    ]
    if certificate is not None and certificate_key is not None:
        out += [
            f"    listen {at} ssl;",
            f"    ssl_certificate {_quoted(certificate)};",
            f"    ssl_certificate_key {_quoted(certificate_key)};",
        ]
    else:
        out.append(f"    listen {at};")
    out += [
        f"    server_name {server_name};",
        "    client_max_body_size 64k;",
        "",
        "    location / {",
        "        proxy_pass http://$gouji_upstream;",
        "        proxy_http_version 1.1;",
        "        proxy_set_header Host $http_host;",
        "        proxy_set_header Upgrade $http_upgrade;",
        "        proxy_set_header Connection $gouji_connection;",
        "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "        proxy_set_header X-Forwarded-Proto $scheme;",
        "        proxy_read_timeout 1h;",
        "        proxy_send_timeout 1h;",
        "    }",
        "}",
        "",
    ]
    return "\n".join(out)


def _quoted(path: Path) -> str:
    text = str(path)
    if any(c in text for c in "\"'\\;{}\n") or not text:
        raise ProxyConfigError(f"a certificate path without quotes, semicolons or braces, not {text!r}")
    return f'"{text}"'


__all__ = ["CODE_PATHS", "ProxyConfigError", "Upstream", "nginx_config", "parse_listen", "parse_shard_url"]
