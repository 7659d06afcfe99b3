"""``gouji proxy-config``: the nginx configuration in front of several game servers (shards)."""

from __future__ import annotations

from pathlib import Path

import click

from ..server.proxy_config import ProxyConfigError, nginx_config


@click.command("proxy-config", short_help="Print nginx's configuration for game servers behind it.")
@click.option(
    "--shards",
    required=True,
    help="The game servers' URLs, shard 1 first, comma-separated: http://10.0.0.2:8000,http://10.0.0.3:8000.",
)
@click.option("--listen", default="0.0.0.0:80", show_default=True, help="HOST:PORT nginx listens on.")
@click.option("--server-name", default="_", show_default=True, help="nginx's server_name (the site's host name).")
@click.option("--certificate", type=click.Path(path_type=Path), help="TLS certificate (PEM, full chain).")
@click.option("--certificate-key", type=click.Path(path_type=Path), help="Its private key (PEM).")
def proxy_config(
    shards: str, listen: str, server_name: str, certificate: Path | None, certificate_key: Path | None
) -> None:
    """Print the map, upstream and server blocks that send every request and WebSocket for a code to its
    shard (``gouji serve --shard I/N``), and the rest to any shard.  Include the output inside the http { }
    block of nginx.conf; start each shard with --trusted-proxy naming this proxy."""
    urls = [u for u in (part.strip() for part in shards.split(",")) if u]
    try:
        click.echo(nginx_config(urls, listen, server_name, certificate, certificate_key), nl=False)
    except ProxyConfigError as e:
        raise click.UsageError(str(e)) from None
