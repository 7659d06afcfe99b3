"""The names that lived here before the server was split by concern, for code that imports them from here.

- :mod:`.connection` — a WebSocket connection's outgoing side (:class:`Connection`);
- :mod:`.config` — table configuration and the validation of a creation request (:class:`TableConfig`);
- :mod:`.table` — the table state machine (:class:`Room`): seats, tokens, timers, auto-play, broadcast;
- :mod:`.lobby` — every table in memory and the HTTP API's operations on them (:class:`Lobby`);
- :mod:`.durability` — the queue of database writes (:class:`Writer`);
- :mod:`.limits` — what a client may send (:class:`Limits`);
- :mod:`.errors` — :class:`RequestError`.
"""

from __future__ import annotations

from .config import MAX_NICKNAME, MAX_SET_LENGTH, TableConfig, parse_table_request, valid_nickname
from .connection import Connection, SendText, token_hash
from .errors import RequestError
from .lobby import CODE_ALPHABET, CODE_LENGTH, Lobby
from .table import AUTO_BOT, CHOICES_CAP, SAMPLE_SIZE, Room, Seat, auto_bot_name, new_token

__all__ = [
    "AUTO_BOT",
    "CHOICES_CAP",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "MAX_NICKNAME",
    "MAX_SET_LENGTH",
    "SAMPLE_SIZE",
    "Connection",
    "Lobby",
    "RequestError",
    "Room",
    "Seat",
    "SendText",
    "TableConfig",
    "auto_bot_name",
    "new_token",
    "parse_table_request",
    "token_hash",
    "valid_nickname",
]
