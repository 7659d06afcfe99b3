"""Records (rule book §12-13 as stored): the versioned, checksummed JSON documents of sets, tournaments
and events, and the pieces that write and replay them."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Mapping
from typing import Any

import orjson

from ..engine.deal import Deal, IllegalAction
from .record_schema import RecordShapeError, check_record

RECORD_FORMAT = "gouji-record"
RECORD_VERSION = 1
"""The version of set records."""
TOURNAMENT_RECORD_VERSION = 2
"""The version of tournament records: 2 adds, for each table of each deal, the team in every seat and the
hands as dealt, so the duplicate property can be checked from the record alone.  Version 1 records (without
them) still load."""
READABLE_VERSIONS = {"set": (1,), "tournament": (1, 2), "event": (1,)}
"""The record versions this code reads, by kind (``event`` records are read by :mod:`gouji.competition.round_robin`)."""


class RecordError(ValueError):
    """A record that cannot be read or does not replay to what it says."""


def new_seed() -> int:
    return random.SystemRandom().randrange(2**63)


def deal_actions(deal: Deal) -> list[list[Any]]:
    return [[e["seat"], e["action"]] for e in deal.events if e["type"] == "act"]


def canonical(body: Mapping[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def entry_text(entry: Mapping[str, Any]) -> bytes:
    """A deal entry's canonical text (:func:`canonical`'s bytes), written by orjson, ten times as fast as
    the standard library: an entry holds only strings, integers, booleans, nulls, lists and objects with
    string keys, which both write alike (tests/test_match.py checks it for every preset); an integer beyond
    64 bits, which orjson refuses, goes the standard way.  Copied to its own size: a finished deal keeps its
    text, and orjson's bytes keep the buffer it wrote them in (32 KiB for a 2 KB entry)."""
    try:
        return bytes(memoryview(orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)))
    except TypeError:
        return canonical(entry)


NO_DEALS = b'{"deals":[]'
"""The start of a set record's canonical text without its deals."""


def sign(body: dict[str, Any]) -> dict[str, Any]:
    body["checksum"] = "sha256:" + hashlib.sha256(canonical(body)).hexdigest()
    return body


def check_record_body(record: Mapping[str, Any], kind: str) -> dict[str, Any]:
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a gouji record (format {record.get('format')!r}, expected {RECORD_FORMAT!r})")
    if record.get("kind") != kind:
        raise RecordError(f"this is a {record.get('kind')!r} record, not a {kind!r} one")
    versions = READABLE_VERSIONS[kind]
    if record.get("version") not in versions:
        readable = ", ".join(map(str, versions))
        raise RecordError(f"{kind} record version {record.get('version')!r} is not supported (this reads {readable})")
    body = {k: v for k, v in record.items() if k != "checksum"}
    want = "sha256:" + hashlib.sha256(canonical(body)).hexdigest()
    if record.get("checksum") != want:
        raise RecordError("the record's checksum does not match its content: it is corrupt or was altered")
    try:
        check_record(body, kind)  # every field present and of its type, before anything replays
    except RecordShapeError as e:
        raise RecordError(str(e)) from None
    return body


def replay_actions(entry: Mapping[str, Any], index: int, act: Callable[[str, int], None], deal: Deal) -> None:
    actions = entry.get("actions")
    if not isinstance(actions, list):
        raise RecordError(f"deal {index + 1}: no list of actions")
    for n, item in enumerate(actions):
        try:
            seat, text = item
            act(text, seat)
        except (IllegalAction, TypeError, ValueError) as e:
            raise RecordError(f"deal {index + 1}, decision {n + 1} ({item!r}) does not replay: {e}") from None
    if "places" in entry and not deal.is_over:
        raise RecordError(f"deal {index + 1}: the record says it ended but its decisions do not end it")


def check_result(entry: Mapping[str, Any], deal: Deal, index: int, points: tuple[int, int] | None = None) -> None:
    if not deal.is_over:
        if "places" in entry:
            raise RecordError(f"deal {index + 1} did not end")
        return
    if entry.get("places") != deal.result()["places"]:
        raise RecordError(f"deal {index + 1}: the places {entry.get('places')} are not what the decisions give")
    if points is not None and entry.get("points") != list(points):
        raise RecordError(f"deal {index + 1}: the points {entry.get('points')} are not what the places give")
