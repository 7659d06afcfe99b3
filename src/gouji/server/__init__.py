"""The game server: tables of six over WebSockets, an HTTP API, and storage on SQLite or PostgreSQL.

- :mod:`.app` — the ASGI app (:func:`create_app`), HTTP routes and the WebSocket endpoint;
- :mod:`.lobby` — every table in memory, and the HTTP API's operations on them (create, join, leave, close);
- :mod:`.settings` — the server's settings in one object (:class:`~.settings.ServerSettings`);
- :mod:`.halls` — the registry of the halls (duplicate matches, events) the lobby owns;
- :mod:`.table_state` — a table's state and its changes, as a reducer (no I/O);
- :mod:`.table_frames` — what a table's connections are sent of its state;
- :mod:`.table` — a table's I/O: connections, timers and windows, the writer and the outbox, the bots;
- :mod:`.config` — a table's configuration and the validation of a creation request;
- :mod:`.connection` — a WebSocket connection's outgoing side (frames written in place or queued);
- :mod:`.durability` — the queue of database writes (:class:`~.durability.StoreWriter`), on a thread;
- :mod:`.writer_process` — the same queue in a process of its own (``gouji serve``'s default on Linux);
- :mod:`.fast_send` — frames written straight to Uvicorn's transport;
- :mod:`.play_socket` — the WebSocket protocol ``gouji serve`` runs: Uvicorn's, with a direct way in for play;
- :mod:`.limits` — what a client may send and how fast;
- :mod:`.errors` — the error the HTTP API answers with, and a server setting it cannot start with;
- :mod:`.protocol` — the versioned message schema (``docs/protocol.md``);
- :mod:`.storage` — SQLAlchemy models, the repository, Alembic migrations (``migrations/``);
- :mod:`.serve` — ``gouji serve``: Uvicorn on the app.
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
