"""The halls' registry: what the lobby holds besides its tables — the duplicate matches
(:class:`.tournaments.duplicate.MatchHall`) and the events of several teams
(:class:`.tournaments.events.EventHall`), by code.

The lobby owns one :class:`Halls` and knows a hall only as this module's :class:`Hall`: its code, its tables
(a match's two; an event holds none of its own) and the writes that close it.  So the lobby imports no hall,
and the halls reach the lobby through its public operations alone (a new code, a table kept in memory, a
table or hall closed)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from .storage import Op
from .tables.table import Room

MATCH_KIND = "match"
EVENT_KIND = "event"


class Hall(Protocol):
    """A hall as the lobby sees it."""

    @property
    def code(self) -> str: ...

    @property
    def tables(self) -> Sequence[Room]:
        """Its tables in memory (held by the lobby too, by their own codes)."""
        ...

    def close_ops(self) -> list[Op]:
        """The writes that close it before it ended (its row's status, and what its closing changes
        elsewhere)."""
        ...

    def expired(self, cutoff: float) -> bool:
        """Whether it closes for having waited since ``cutoff`` (monotonic seconds) with nothing started."""
        ...


H = TypeVar("H", bound=Hall)


def is_hall_row(config: Mapping[str, Any]) -> bool:
    """Whether a stored row (its configuration) is a match, an event or a table of a match: restored with the
    halls, not as a table of its own."""
    return config.get("kind") in (MATCH_KIND, EVENT_KIND) or "duplicate" in config


class Halls:
    """Every hall in memory, by code, and which hall each of their tables belongs to."""

    def __init__(self) -> None:
        self._by_code: dict[str, Hall] = {}
        self._of_table: dict[str, Hall] = {}

    def add(self, hall: Hall) -> None:
        """Hold ``hall`` (its tables, as they are now, are known as its)."""
        self._by_code[hall.code] = hall
        for room in hall.tables:
            self._of_table[room.code] = hall

    def remove(self, hall: Hall) -> None:
        """Let ``hall`` go (if it is the one held under its code)."""
        if self._by_code.get(hall.code) is hall:
            del self._by_code[hall.code]
            for room in hall.tables:
                if self._of_table.get(room.code) is hall:
                    del self._of_table[room.code]

    def get(self, code: str, kind: type[H]) -> H | None:
        """The hall of this code (any case) if it is a ``kind``, else None."""
        hall = self._by_code.get(code.upper())
        return hall if isinstance(hall, kind) else None

    def holds(self, hall: Hall) -> bool:
        return self._by_code.get(hall.code) is hall

    def owning(self, table_code: str) -> Hall | None:
        """The hall whose table has this code, or None."""
        return self._of_table.get(table_code)

    def all(self, kind: type[H]) -> list[H]:
        return [h for h in self._by_code.values() if isinstance(h, kind)]

    def __iter__(self) -> Iterator[Hall]:
        return iter(list(self._by_code.values()))

    def __len__(self) -> int:
        return len(self._by_code)
