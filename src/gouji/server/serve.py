"""``gouji serve``: run the server with Uvicorn (``python -m gouji.server.serve`` does the same)."""

from __future__ import annotations

import argparse
import gc
import ipaddress
import logging
import os
import sys
from collections.abc import Sequence
from typing import Any

import uvicorn

from ..bots import BOTS
from .app import WRITERS, create_app
from .errors import SettingError
from .http.guard import allowed_origins
from .http.play_socket import PlaySocket
from .limit_options import LIMITS
from .limits import Limits
from .private import SECRET_ENV, SecretError, load_secret, secret_path
from .settings import ServerSettings
from .shards import Shard, ShardError
from .storage import StorageError, normalize_url, open_store

WS_MAX_SIZE = 64 * 1024
"""Uvicorn closes a connection that sends a larger WebSocket frame (the app refuses any over 2 KiB)."""


GC_THRESHOLDS = (10_000, 5, 400)
"""The cyclic garbage collector's thresholds for the server process (Python's are 700, 10, 10).

A game server allocates many short-lived objects per move (frames, views) and holds a large, stable heap
(connections, tables): with the defaults the collector runs hundreds of times a second and walks the whole
heap every few seconds, stopping every table for 100 ms and more (measured with ``benchmarks/bench_server.py``).
Reference counting frees almost everything anyway; these thresholds let the youngest generation fill up
before a collection and make full collections rare (every 20 million allocations, as at 10,000 × 20 × 100).
The middle one is collected every 5 young collections rather than 20: at saturation each of its collections
held the loop 35-80 ms at 20 (timed with ``gc.callbacks``), 15-21 ms at 5, for about the same time in all."""


SWITCH_INTERVAL = 0.001
"""Seconds a thread may hold the interpreter while another waits for it (Python's default is 0.005).

The event loop is always busy on a loaded server; a database writer thread (``--writer thread``) lets go of
the interpreter whenever the database works and then waits this long to get it back.  At 5 ms it fell
thousands of events behind at saturation (``benchmarks/bench_server.py`` reports the events not yet stored);
at 1 ms it keeps within its 20 ms batch.  (The bots' and hints' threads share the interpreter too.)"""


DEFAULT_WRITER = "process" if sys.platform.startswith("linux") else "thread"
"""Where ``gouji serve`` runs the database's transactions: in a process of their own on Linux (where the
kernel can stop it with the server, ``PR_SET_PDEATHSIG``), where they never wait for the event loop's
interpreter lock; on a thread of the server elsewhere."""


def tune_interpreter() -> None:
    """Set :data:`GC_THRESHOLDS` and :data:`SWITCH_INTERVAL`, and move what exists at startup (modules, the
    app) out of the collector's sight (``gc.freeze``): it lives as long as the process."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)


def trusted_proxies(values: Sequence[str]) -> list[str]:
    """The ``--trusted-proxy`` values as addresses and networks (``10.0.0.5``, ``10.0.0.0/8``, ``::1``; a
    value may list several, comma-separated); ValueError naming a value that is neither."""
    out: list[str] = []
    for value in values:
        for item in (v.strip() for v in value.split(",")):
            try:
                out.append(str(ipaddress.ip_network(item, strict=False)))
            except ValueError:
                raise ValueError(f"{item!r} is not an IP address or network (e.g. 10.0.0.0/8)") from None
    return out


def check_shard(database_url: str, shard: Shard) -> None:
    """Several game servers share one PostgreSQL database; a StorageError for ``--shard`` on SQLite (a
    file that one process writes)."""
    if shard.count > 1 and normalize_url(database_url).startswith("sqlite"):
        raise StorageError(
            f"--shard {shard} needs PostgreSQL (--database-url postgresql://…): several game servers share "
            "one database, and an SQLite file is written by one process"
        )


def proxy_options(trusted: Sequence[str]) -> dict[str, Any]:
    """Uvicorn's options for the client's address: the socket's peer, unless the peer is one of the
    ``trusted`` proxies — then the address its ``X-Forwarded-For`` names (the last one in it that is not a
    trusted proxy itself).  With none trusted the header is never read: anyone could write it."""
    if not trusted:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": list(trusted)}


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str = "sqlite:///gouji.db",
    *,
    settings: ServerSettings | None = None,
    log_level: str = "info",
    access_log: bool = True,
    trusted_proxy: Sequence[str] = (),
    writer: str | None = None,
    allowed_origin: Sequence[str] = (),
    secret_file: str | None = None,
) -> None:
    """Serve until interrupted, with ``settings`` (:class:`~.settings.ServerSettings`).  ``trusted_proxy``:
    the reverse proxies (addresses or networks) whose ``X-Forwarded-For`` names the client, for the
    per-client limits (:func:`proxy_options`).  ``writer``: where the database's transactions run
    (:func:`~gouji.server.app.create_app`); by default :data:`DEFAULT_WRITER`.  ``secret_file``: the
    server's secret (:mod:`.private`; a :class:`~.private.SecretError` if it cannot be made or read)."""
    logging.basicConfig(level=getattr(logging, log_level.upper(), logging.INFO))
    settings = settings or ServerSettings()
    check_shard(database_url, settings.shard)
    proxies = trusted_proxies(trusted_proxy)
    open_store(database_url).close()  # a clear StorageError now rather than a traceback from the app's startup
    if settings.secret is None:
        settings = settings.replace(secret=load_secret(secret_path(database_url, secret_file)))
    app = create_app(database_url, settings, writer=writer or DEFAULT_WRITER, allowed_origins=allowed_origin)
    tune_interpreter()
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        log_level=log_level,
        access_log=access_log,
        lifespan="on",
        ws=PlaySocket,  # Uvicorn's sans-I/O WebSocket protocol, with the direct way in for play
        # frames are small JSON on a local network or the internet alike; compressing each one for each
        # connection cost a fifth of the server's time per move (benchmarks/bench_server.py)
        ws_per_message_deflate=False,
        **proxy_options(proxies),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gouji.server.serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--database-url", default="sqlite:///gouji.db")
    parser.add_argument("--turn-seconds", type=float, default=30.0, help="default turn timer (0: none)")
    parser.add_argument("--bot-delay", type=float, default=0.4, help="default masking time of a window (正常)")
    parser.add_argument(
        "--ready-seconds", type=float, default=None, help="default wait for the players between deals (turn time)"
    )
    parser.add_argument(
        "--auto-bot",
        default="heuristic",
        choices=[name for name in BOTS if name != "random"],
        help="the bot that plays for a seat on auto-play (托管)",
    )
    for name, kind, text in LIMITS:
        parser.add_argument("--" + name.replace("_", "-"), type=kind, default=getattr(Limits, name), help=text)
    parser.add_argument("--max-tables", type=int, default=2000, help="tables the server holds at most")
    parser.add_argument(
        "--quickplay-fill-seconds", type=float, default=20.0, help="quick play's wait before 高手 fill a table"
    )
    parser.add_argument("--review-workers", type=int, default=1, help="worker processes of the 复盘 reviews")
    parser.add_argument("--review-waiting", type=int, default=4, help="reviews waiting for a worker at most")
    parser.add_argument(
        "--trusted-proxy",
        action="extend",
        nargs="+",
        default=[],
        metavar="ADDR",
        help="a reverse proxy (address or network) whose X-Forwarded-For names the client (per-client limits)",
    )
    parser.add_argument(
        "--allowed-origin",
        action="extend",
        nargs="+",
        default=[],
        metavar="URL",
        help="an origin (https://gouji.example) whose pages may use the server, besides the one its Host names",
    )
    parser.add_argument(
        "--writer", choices=WRITERS, default=DEFAULT_WRITER, help="where the database's transactions run"
    )
    parser.add_argument(
        "--secret-file",
        default=os.environ.get(SECRET_ENV) or None,
        metavar="PATH",
        help=f"the server's secret, made there if missing (${SECRET_ENV}; default: beside an SQLite database, "
        "else gouji.secret here)",
    )
    parser.add_argument(
        "--shard", default="1/1", help="game server I of N on one PostgreSQL (I/N); its codes and tables only"
    )
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--no-access-log", action="store_true")
    args = parser.parse_args(argv)
    try:
        shard = Shard.parse(args.shard)
    except ShardError as e:
        parser.error(f"--shard: {e}")
    turn_seconds = args.turn_seconds or None
    try:
        limits = Limits(**{name: getattr(args, name) for name, _, _ in LIMITS})
        settings = ServerSettings(
            turn_seconds=turn_seconds,
            bot_delay=args.bot_delay,
            ready_seconds=args.ready_seconds,
            auto_bot=args.auto_bot,
            limits=limits,
            max_tables=args.max_tables,
            shard=shard,
            quickplay_fill_seconds=args.quickplay_fill_seconds,
            review_workers=args.review_workers,
            review_waiting=args.review_waiting,
        )
    except SettingError as e:
        parser.error(f"{e.option} {e.message}")
    try:
        trusted_proxies(args.trusted_proxy)
    except ValueError as e:
        parser.error(f"--trusted-proxy: {e}")
    try:
        allowed_origins(args.allowed_origin)
    except ValueError as e:
        parser.error(f"--allowed-origin: {e}")
    try:
        run(
            args.host,
            args.port,
            args.database_url,
            settings=settings,
            log_level=args.log_level,
            access_log=not args.no_access_log,
            trusted_proxy=args.trusted_proxy,
            writer=args.writer,
            allowed_origin=args.allowed_origin,
            secret_file=args.secret_file,
        )
    except (StorageError, SecretError) as e:
        parser.exit(2, f"{parser.prog}: {e}\n")


if __name__ == "__main__":
    main()
