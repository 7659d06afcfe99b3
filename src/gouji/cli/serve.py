"""``gouji serve``: the web table's server (HTTP API, WebSocket play, the database)."""

from __future__ import annotations

from typing import Any

import click

from ..bots import BOTS
from ..server.limit_options import LIMITS


def _limit_options(f: Any) -> Any:
    for name, kind, text in reversed(LIMITS):
        f = click.option(
            "--" + name.replace("_", "-"),
            name,
            type=kind,
            default=None,
            help=f"Limit: {text}.  [default: the server's]",
        )(f)
    return f


@click.command(short_help="Run the game server (HTTP API and WebSocket play).")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="The port.")
@click.option(
    "--database-url",
    default="sqlite:///gouji.db",
    show_default=True,
    help="SQLAlchemy URL of the database: SQLite, or postgresql+psycopg://user@host/db.",
)
@click.option(
    "--turn-seconds",
    type=click.FloatRange(0, 3600),
    default=30.0,
    show_default=True,
    help="Default turn timer of new tables; when it runs out the heuristic bot plays (托管). 0: no timer.",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 10),
    default=0.4,
    show_default=True,
    help="Default masking time of new tables: a bot's play shows this long (正常; its passes a quarter).",
)
@click.option(
    "--ready-seconds",
    type=click.FloatRange(0.05, 3600),
    default=None,
    help="Default wait for the players between two deals of a set.  [default: the table's turn time]",
)
@click.option(
    "--auto-bot",
    type=click.Choice([name for name in BOTS if name != "random"]),
    default="heuristic",
    show_default=True,
    help="The bot that plays for a seat on auto-play (托管).",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxy",
    multiple=True,
    metavar="ADDR",
    help="A reverse proxy (address or network; repeat for more) whose X-Forwarded-For header names the client "
    "for the per-client limits.  [default: none: the limits key on the connection's own address]",
)
@click.option(
    "--allowed-origin",
    "allowed_origin",
    multiple=True,
    metavar="URL",
    help="An origin (https://gouji.example; repeat for more) whose pages may use the server besides the one "
    "its Host header names (behind a proxy that rewrites Host).  [default: none]",
)
@click.option(
    "--writer",
    type=click.Choice(["thread", "process"]),
    default=None,
    help="Where the database's transactions run: a process of their own, or a thread of the server.  "
    "[default: process on Linux, thread elsewhere]",
)
@click.option(
    "--shard",
    default="1/1",
    show_default=True,
    help="Game server I of N sharing one PostgreSQL database (see gouji proxy-config): it makes only codes of "
    "its own and restores only its own tables.",
)
@click.option(
    "--secret-file",
    envvar="GOUJI_SECRET_FILE",
    metavar="PATH",
    default=None,
    help="The server's secret, which keys the stored pseudonyms of who created each table; made there (0600) "
    "if missing.  Game servers sharing one PostgreSQL database are given the same file.  "
    "[env: GOUJI_SECRET_FILE; default: beside an SQLite database (gouji.db → gouji.secret), else gouji.secret "
    "in the working directory]",
)
@click.option(
    "--max-tables", type=click.IntRange(1), default=2000, show_default=True, help="Tables held in memory at most."
)
@click.option(
    "--quickplay-fill-seconds",
    type=float,
    default=20.0,
    show_default=True,
    help="Quick play: seconds the person waiting longest waits for people before 高手 bots fill the table.",
)
@click.option(
    "--review-workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Worker processes that work out the 复盘 reviews of finished deals.",
)
@click.option(
    "--review-waiting",
    type=click.IntRange(0, 64),
    default=4,
    show_default=True,
    help="Reviews that may wait for a worker; one more is refused (503) rather than queued.",
)
@click.option(
    "--log-level",
    type=click.Choice(["critical", "error", "warning", "info", "debug", "trace"]),
    default="info",
    show_default=True,
    help="Uvicorn's log level.",
)
@click.option("--no-access-log", is_flag=True, help="Log no line per HTTP request.")
@_limit_options
def serve(
    host: str,
    port: int,
    database_url: str,
    turn_seconds: float,
    bot_delay: float,
    ready_seconds: float | None,
    auto_bot: str,
    trusted_proxy: tuple[str, ...],
    allowed_origin: tuple[str, ...],
    writer: str | None,
    shard: str,
    secret_file: str | None,
    max_tables: int,
    quickplay_fill_seconds: float,
    review_workers: int,
    review_waiting: int,
    log_level: str,
    no_access_log: bool,
    **limits: Any,
) -> None:
    """Run the game server: tables of six with bots and people, play over WebSockets, every finished deal
    and set stored as its record.  Starts on an SQLite file by default, with nothing to set up; the same
    code runs on PostgreSQL with --database-url postgresql+psycopg://…

    The timers are defaults: a table's creator may choose its own."""
    from ..server.errors import SettingError
    from ..server.http.guard import allowed_origins
    from ..server.limits import Limits
    from ..server.private import SecretError
    from ..server.serve import run, trusted_proxies
    from ..server.settings import ServerSettings
    from ..server.shards import Shard, ShardError
    from ..server.storage import StorageError

    try:
        where = Shard.parse(shard)
    except ShardError as e:
        raise click.BadParameter(str(e), param_hint="--shard") from None

    try:  # (click's ranges let NaN through, and a turn time under 0.05 s is no table's)
        settings = ServerSettings(
            turn_seconds=turn_seconds or None,
            bot_delay=bot_delay,
            ready_seconds=ready_seconds,
            auto_bot=auto_bot,
            shard=where,
            limits=Limits(**{k: v for k, v in limits.items() if v is not None}),
            max_tables=max_tables,
            quickplay_fill_seconds=quickplay_fill_seconds,
            review_workers=review_workers,
            review_waiting=review_waiting,
        )
    except SettingError as e:
        raise click.BadParameter(e.message, param_hint=e.option) from None
    try:
        trusted_proxies(trusted_proxy)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--trusted-proxy") from None
    try:
        allowed_origins(allowed_origin)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--allowed-origin") from None

    try:
        run(
            host,
            port,
            database_url,
            settings=settings,
            trusted_proxy=trusted_proxy,
            allowed_origin=allowed_origin,
            writer=writer,
            log_level=log_level,
            access_log=not no_access_log,
            secret_file=secret_file,
        )
    except (StorageError, SecretError) as e:
        raise click.ClickException(str(e)) from None
