"""Play beyond one deal: sets with tribute, the duplicate tournament, round-robin events, their records."""

from __future__ import annotations

from .round_robin import Event, EventError
from .sets import Match, RecordError, Tournament, TournamentTable, load_record

__all__ = ["Event", "EventError", "Match", "RecordError", "Tournament", "TournamentTable", "load_record"]
