"""Play beyond one deal: sets with tribute, the duplicate tournament, round-robin events, their records.

- :mod:`.sets` — :class:`Match`, a set of deals with tribute (一盘, rule book §12)
- :mod:`.duplicate` — :class:`Tournament`, the duplicate match of 比赛规则 (§13), and one of its tables
- :mod:`.round_robin` — :class:`Event`, a round robin of duplicate matches and its standings (§16.4)
- :mod:`.records` and :mod:`.record_schema` — the stored form: versions, checksum, the shape of every field
- :mod:`.loading` — :func:`load_record`, any record replayed and checked
- :mod:`.transcript` — a deal's events as text
- :mod:`.stats` — players' statistics: the counters a finished deal, set or match adds, from its record
"""

from __future__ import annotations

from .duplicate import Tournament, TournamentTable
from .loading import load_record
from .records import RecordError
from .round_robin import Event, EventError
from .sets import Match

__all__ = ["Event", "EventError", "Match", "RecordError", "Tournament", "TournamentTable", "load_record"]
