"""The game server: tables of six over WebSockets, an HTTP API, and storage on SQLite or PostgreSQL.

Its parts, as packages:

- :mod:`.tables` — a table: its state as a reducer (``state``), its frames (``frames``), its decision windows,
  its I/O (``table``: connections, timers, bots, writes) and its quick phrases;
- :mod:`.tournaments` — duplicate matches at two tables, their scoresheet, events of several teams, routes;
- :mod:`.accounts` — accounts, sessions, seats of an account, profiles (issue 42);
- :mod:`.hall` — the public hall, quick play, the leaderboard, blocks and reports (issue 43);
- :mod:`.replays` — deals replayed step by step, hints;
- :mod:`.review` — the 复盘 review of a finished deal, worked out in a bounded pool of worker processes;
- :mod:`.storage` — SQLAlchemy models, the repository, what a record adds to its players' rows, the database's
  writer (a thread or a process), reads off it, backups; Alembic migrations in ``migrations/``;
- :mod:`.messages` — every body and message's schema, refusals in words, the protocol and its reference;
- :mod:`.http` — the door every request passes, a WebSocket's outgoing side and the direct way in.

and, beside them, the server's composition:

- :mod:`.app` — the ASGI app (:func:`create_app`), HTTP routes and the WebSocket endpoint;
- :mod:`.lobby` — every table in memory, and the HTTP API's operations on them (create, join, leave, close);
- :mod:`.halls` — the registry of the halls (duplicate matches, events) the lobby owns;
- :mod:`.settings`, :mod:`.config`, :mod:`.limits`, :mod:`.limit_options`, :mod:`.errors` — settings, a table's
  configuration, what a client may do and how fast, errors;
- :mod:`.private`, :mod:`.bots_api` — the server's secret and private files; the bots' list;
- :mod:`.shards`, :mod:`.proxy_config`, :mod:`.serve` — several servers on one database, nginx, ``gouji serve``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .limits import Limits
    from .settings import ServerSettings

__all__ = ["Limits", "ServerSettings", "create_app"]

_LAZY = {"create_app": ".app", "Limits": ".limits", "ServerSettings": ".settings"}
"""The package's names, imported when first asked for: the ``gouji`` command imports a few light modules of
the package (the limits' options, nginx's configuration) and should not start the whole server to do so."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)
