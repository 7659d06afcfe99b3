"""The game server: tables of six over WebSockets, an HTTP API, and storage on SQLite or PostgreSQL.

- :mod:`.app` — the ASGI app (:func:`create_app`), HTTP routes and the WebSocket endpoint;
- :mod:`.lobby` — every table in memory, and the HTTP API's operations on them (create, join, leave, close);
- :mod:`.table` — the table state machine: the :class:`~gouji.match.Match`, seats and tokens, timers,
  auto-play, broadcast;
- :mod:`.config` — a table's configuration and the validation of a creation request;
- :mod:`.connection` — a WebSocket connection's outgoing side (frames written in place or queued);
- :mod:`.durability` — the queue of database writes (:class:`~.durability.StoreWriter`), on a thread;
- :mod:`.writer_process` — the same queue in a process of its own (``gouji serve``'s default on Linux);
- :mod:`.play_socket` — the WebSocket protocol ``gouji serve`` runs: Uvicorn's, with a direct way in for play;
- :mod:`.limits` — what a client may send and how fast;
- :mod:`.errors` — the error the HTTP API answers with, and a server setting it cannot start with;
- :mod:`.rooms` — the names of the modules above, for code that imports them from where they were;
- :mod:`.protocol` — the versioned message schema (``docs/protocol.md``);
- :mod:`.storage` — SQLAlchemy models, the repository, Alembic migrations (``migrations/``);
- :mod:`.serve` — ``gouji serve``: Uvicorn on the app.
"""

from __future__ import annotations

from .app import create_app
from .limits import Limits

__all__ = ["Limits", "create_app"]
