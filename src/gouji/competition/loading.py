"""Reading any record back: :func:`load_record` replays a set or a tournament exactly and refuses a corrupt
or altered one."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .duplicate import Tournament
from .records import RECORD_FORMAT, RecordError
from .sets import Match


def parse_record(data: Mapping[str, Any] | str | bytes) -> Mapping[str, Any]:
    """A record as a mapping: JSON text parsed; :class:`RecordError` if it is not a JSON object."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
            raise RecordError(f"the record is not valid JSON: {e}") from None
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    return data


def load_record(data: Mapping[str, Any] | str | bytes) -> Match | Tournament:
    """A set or tournament from its record (a dict or JSON text), replayed and checked."""
    data = parse_record(data)
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a gouji record (format {data.get('format')!r}, expected {RECORD_FORMAT!r})")
    kind = data.get("kind")
    if kind == "set":
        return Match.from_record(data)
    if kind == "tournament":
        return Tournament.from_record(data)
    if kind == "event":
        raise RecordError("this is an event record: read it with gouji.competition.round_robin.Event.from_record")
    raise RecordError(f"unknown record kind {kind!r}: expected 'set' or 'tournament'")
