"""The structure of a set or tournament record, checked before it is replayed.

A record whose checksum was recomputed after an edit still has to have the right shape: every key
present, every value of the right type and within bounds.  :func:`check_record` names the path of the
first bad field, e.g. ``deals[2].actions[5]: expected [seat, action], not [9, 'pass']``, so a broken
record is refused with a message instead of failing somewhere inside the replay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.rule_bounds import INT_BOUNDS, UnknownRules, show
from ..engine.rules import RuleSet

MAX_TEXT = 200
"""Longest text field (a seed, an action, a team name)."""
MAX_DEALS = 1000
"""Most deals a record may hold."""
MAX_ACTIONS = 200_000
"""Most decisions a deal of a record may hold (more than any deal takes: see ``gouji.cli.MAX_DECISIONS``)."""
MAX_POINTS = 10**9
"""Largest team total a record may state."""


class RecordShapeError(ValueError):
    """A record field that is missing or of the wrong type; the message starts with its path."""


class Spec:
    """What one field must be; :meth:`check` raises :class:`RecordShapeError` naming ``path``."""

    desc = "a value"

    def check(self, path: str, value: Any) -> None:
        if not self.ok(value):
            raise RecordShapeError(f"{path}: expected {self.desc}, not {show(value)}")

    def ok(self, value: Any) -> bool:  # pragma: no cover - every spec overrides check or ok
        return True


class Int(Spec):
    def __init__(self, lo: int, hi: int, desc: str | None = None) -> None:
        self.lo, self.hi = lo, hi
        self.desc = desc or f"a whole number from {lo} to {hi}"

    def ok(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and self.lo <= value <= self.hi


class Text(Spec):
    desc = f"text of at most {MAX_TEXT} characters"

    def ok(self, value: Any) -> bool:
        return isinstance(value, str) and len(value) <= MAX_TEXT


class Bool(Spec):
    desc = "true or false"

    def ok(self, value: Any) -> bool:
        return isinstance(value, bool)


class Either(Spec):
    """Any one of several specs (``None`` for null)."""

    def __init__(self, *options: Spec | None) -> None:
        self.options = options
        self.desc = " or ".join("null" if o is None else o.desc for o in options)

    def ok(self, value: Any) -> bool:
        return any(value is None if o is None else _passes(o, value) for o in self.options)


class ListOf(Spec):
    def __init__(self, item: Spec, max_len: int, min_len: int = 0) -> None:
        self.item, self.min_len, self.max_len = item, min_len, max_len
        self.desc = f"a list of {min_len} to {max_len} entries" if min_len else f"a list of at most {max_len} entries"

    def check(self, path: str, value: Any) -> None:
        if not isinstance(value, list) or not self.min_len <= len(value) <= self.max_len:
            raise RecordShapeError(f"{path}: expected {self.desc}, not {show(value)}")
        for i, v in enumerate(value):
            self.item.check(f"{path}[{i}]", v)


class Row(Spec):
    """A list of a fixed length, entry ``i`` as ``items[i]``.  With ``whole`` a bad entry refuses the row
    as a whole, named by ``desc`` (``[seat, action]``); without, the entry is named by its own path."""

    def __init__(self, items: Sequence[Spec], desc: str, whole: bool = True) -> None:
        self.items, self.desc, self.whole = items, desc, whole

    def check(self, path: str, value: Any) -> None:
        if not isinstance(value, list) or len(value) != len(self.items):
            raise RecordShapeError(f"{path}: expected {self.desc}, not {show(value)}")
        if self.whole:
            if not all(_passes(s, v) for s, v in zip(self.items, value, strict=True)):
                raise RecordShapeError(f"{path}: expected {self.desc}, not {show(value)}")
            return
        for i, (s, v) in enumerate(zip(self.items, value, strict=True)):
            s.check(f"{path}[{i}]", v)


class Obj(Spec):
    """An object with ``required`` keys and perhaps ``optional`` ones (other keys are left alone)."""

    desc = "an object"

    def __init__(self, required: Mapping[str, Spec], optional: Mapping[str, Spec] | None = None) -> None:
        self.required, self.optional = dict(required), dict(optional or {})

    def check(self, path: str, value: Any) -> None:
        if not isinstance(value, Mapping):
            raise RecordShapeError(f"{path}: expected an object, not {show(value)}")
        for key, spec in self.required.items():
            if key not in value:
                raise RecordShapeError(f"{_join(path, key)}: missing")
            spec.check(_join(path, key), value[key])
        for key, spec in self.optional.items():
            if key in value:
                spec.check(_join(path, key), value[key])


class Rules(Spec):
    """Rule options that :meth:`gouji.RuleSet.from_dict` accepts."""

    def check(self, path: str, value: Any) -> None:
        try:
            RuleSet.from_dict(value)
        except UnknownRules as e:
            raise RecordShapeError(f"{path}: {e}") from None


def _passes(spec: Spec, value: Any) -> bool:
    try:
        spec.check("", value)
    except RecordShapeError:
        return False
    return True


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


SEAT = Int(0, 5, "a seat 0-5")
SEED = Either(Int(-(10**100), 10**100, "a whole number of at most 100 digits"), Text())
POINTS = Int(-MAX_POINTS, MAX_POINTS)
TEAM_POINTS = Row([POINTS, POINTS], "[team 0 points, team 1 points]")
ACTIONS = ListOf(Row([SEAT, Text()], "[seat, action]"), MAX_ACTIONS)
PLACES = Row([SEAT] * 6, "six seats, 头科 first")
PAYMENT = Obj({"kind": Text(), "payer": SEAT, "receiver": SEAT, "cards": Int(0, 1000)}, {"returned": Bool()})
SET_LENGTH = Int(*INT_BOUNDS["set_length"])

SET_RECORD = Obj(
    {
        "rules": Rules(),
        "seed": SEED,
        "set_length": SET_LENGTH,
        "deals": ListOf(
            Obj(
                {"seed": SEED, "leader": Either(SEAT, None), "tribute": ListOf(PAYMENT, 100), "actions": ACTIONS},
                {"places": PLACES, "points": TEAM_POINTS},
            ),
            MAX_DEALS,
            min_len=1,
        ),
        "totals": TEAM_POINTS,
    }
)

TOURNAMENT_TABLE = Obj(
    {"actions": ACTIONS},
    {"places": PLACES, "teams": Row([Text()] * 6, "six team names"), "hands": Row([Text()] * 6, "six hands")},
)
"""A table of a tournament deal; version 2 adds the team in each seat and the hands as dealt."""

TOURNAMENT_RECORD = Obj(
    {
        "rules": Rules(),
        "seed": SEED,
        "deals_in_match": Int(1, MAX_DEALS),
        "deals": ListOf(
            Obj(
                {
                    "seed": SEED,
                    "tables": Row([TOURNAMENT_TABLE] * 2, "two tables", whole=False),
                }
            ),
            MAX_DEALS,
            min_len=1,
        ),
        "totals": TEAM_POINTS,
    },
    {"teams": Row([Text(), Text()], "two team names"), "match_points": Either(TEAM_POINTS, None)},
)


EVENT_RECORD = Obj(
    {
        "teams": ListOf(Text(), 16, min_len=2),
        "rules": Rules(),
        "seed": SEED,
        "deals": Int(1, MAX_DEALS),
        "matches": Obj({}),
    }
)
"""An event of several teams (:mod:`gouji.competition.round_robin`): its matches are tournament records,
checked as they load."""

RECORDS = {"set": SET_RECORD, "tournament": TOURNAMENT_RECORD, "event": EVENT_RECORD}


def check_record(body: Mapping[str, Any], kind: str) -> None:
    """Check the fields of a record of ``kind`` ("set", "tournament" or "event"); raises
    :class:`RecordShapeError` naming the first bad field's path."""
    RECORDS.get(kind, TOURNAMENT_RECORD).check("", body)


__all__ = ["RecordShapeError", "check_record"]
