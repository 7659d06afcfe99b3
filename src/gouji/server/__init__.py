"""The game server: tables of six over WebSockets, an HTTP API, and storage on SQLite or PostgreSQL.

- :mod:`.app` — the ASGI app (:func:`create_app`), HTTP routes and the WebSocket endpoint;
- :mod:`.rooms` — a table: the :class:`~gouji.match.Match`, seats and tokens, timers, auto-play, broadcast;
- :mod:`.protocol` — the versioned message schema (``docs/protocol.md``);
- :mod:`.storage` — SQLAlchemy models, the repository, Alembic migrations (``migrations/``);
- :mod:`.serve` — ``gouji serve``: Uvicorn on the app.
"""

from __future__ import annotations

from .app import Limits, create_app

__all__ = ["Limits", "create_app"]
