"""The server's settings, in one object: built by ``gouji serve`` (or a test) and passed down to the lobby, its
halls and its tables — no module global to set, nothing for a test to patch."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from ..bots import BOTS
from .config import check_table_defaults, new_seed
from .errors import SettingError
from .limits import Limits
from .shards import Shard


@dataclass(frozen=True)
class ServerSettings:
    """What a server runs with.

    ``turn_seconds``, ``bot_delay`` and ``ready_seconds`` are the defaults of tables created without them (a
    ready timeout of None: each table's turn time).  ``auto_bot`` plays for a seat on auto-play (托管) and when
    a person's turn time runs out (``random`` if it is not registered).  ``seeds`` is where every seed comes
    from — a new table's or match's deals, an event's schedule, a table's bots' draws: unpredictable by
    default (:func:`.config.new_seed`); a test passes fixed ones to play the same deals each run.
    ``limits``: what a client may do how fast (:class:`.limits.Limits`); ``max_tables``: the tables held in
    memory at most.  ``shard``: which of several game servers on one PostgreSQL this is (``--shard I/N``):
    it makes only codes of its own and restores only its own tables.  ``secret``: the key of the pseudonyms
    of who created each table (:func:`.lobby.client_key`), kept outside the database (:mod:`.private`); None
    until the app reads it at startup (:func:`.app.create_app`), and for a lobby built without one, a key of
    this process's own."""

    turn_seconds: float | None = 30.0
    bot_delay: float = 0.4
    ready_seconds: float | None = None
    auto_bot: str = "heuristic"
    seeds: Callable[[], int] = new_seed
    limits: Limits = field(default_factory=Limits)
    max_tables: int = 2000
    shard: Shard = field(default_factory=Shard)
    secret: bytes | None = field(default=None, repr=False)
    quickplay_fill_seconds: float = 20.0
    """How long the person waiting longest in quick play waits for people before 高手 fill the table."""
    review_workers: int = 1
    """Worker processes of the 复盘 reviews (:mod:`.review.pool`); ``review_waiting`` more wait their turn."""
    review_waiting: int = 4

    def __post_init__(self) -> None:
        # (else every table left to these defaults would be refused)
        check_table_defaults(self.turn_seconds, self.bot_delay, self.ready_seconds)
        fill = self.quickplay_fill_seconds
        if isinstance(fill, bool) or not isinstance(fill, int | float) or not 0 <= fill <= 3600:
            raise SettingError("quickplay_fill_seconds", f"must be 0 to 3600 seconds, not {fill!r}")
        if isinstance(self.max_tables, bool) or not isinstance(self.max_tables, int) or self.max_tables < 1:
            raise SettingError("max_tables", f"must be an integer of at least 1, not {self.max_tables!r}")
        for name, low in (("review_workers", 1), ("review_waiting", 0)):
            n = getattr(self, name)
            if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= 64:
                raise SettingError(name, f"must be an integer from {low} to 64, not {n!r}")

    def auto_bot_name(self) -> str:
        """:attr:`auto_bot` when it is registered, else ``random``."""
        return self.auto_bot if self.auto_bot in BOTS else "random"

    def replace(self, **changes: object) -> ServerSettings:
        """These settings with ``changes`` (checked again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]
