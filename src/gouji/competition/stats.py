"""Players' statistics (issue 42): what one finished deal, set or duplicate match adds to each seat's counters.

The counters are worked out from the records the server stores (:meth:`Match.record`,
:meth:`Tournament.record`) — never a second truth — and kept up to date incrementally: the server adds
:func:`record_stats` ``(record, k)`` when it stores the record of finished deal ``k`` and
:func:`record_stats` ``(record, None)`` when it stores the finished set or match; :func:`record_totals`
works out the same sums from one record at once (to rebuild them, and to check the increments).

A seat is a ``(table, seat)`` pair: ``table`` is 0 in a set, 0 or 1 (table 1, table 2) in a duplicate match;
the server's ``players`` list of a record names who sat in each (:func:`credit` adds them to accounts).  The
counters of a preset are kept apart by :func:`preset_of`'s name; the total is their :func:`merge`.

Every counter is a whole number, from the view of the seat it is credited to; every dict of counters this
module returns holds all of :data:`COUNTERS`:

- ``deals``: 1 for each finished deal the seat played.
- ``place_1`` … ``place_6``: 1 for the place the seat finished the deal in (头科, 二科, 三科, 四科, 二落, 大落):
  its index in the deal's ``end`` event's ``places``, plus one.
- ``points``: the deal's points of the seat's team (its three seats together), in the unit the set or match
  scores a deal: in a set, the team's entry of :attr:`Match.points` (:func:`gouji.engine.scoring.team_points`:
  the place points times ``base_points``, or the sweep's stake, under ``scoring="set"``; small points 6..1
  under ``scoring="tournament"``); at a table of a duplicate match, the small points (6..1,
  :data:`~gouji.engine.scoring.TOURNAMENT_POINTS`) of the seat's team at that table, whatever the rules' scoring
  (what :meth:`Tournament.deal_points` adds up over both tables).
- ``burns_tried``: the seat's burns (烧牌): ``burn`` events whose ``seat`` is this seat — a counter-burn (反烧,
  ``level`` 2 and more) is a burn of its own.
- ``burns_won``: the seat's burns that succeeded: ``burn_success`` events whose ``seat`` (the burner) is this
  seat — the burner went out before its burn was broken, countered or failed.  (A burn cut short by the
  free-for-all or the deal's end, ``burn_ended``, is tried, not won.)
- ``opened``: ``open`` events whose ``seat`` is this seat: it opened the point (开点) — including the 对头 of a
  冲点 whose three attempts were all beaten, whom the rules count as opened.
- ``men_suffered``: ``smothered`` events whose ``seat`` is this seat: a beaten play left it only 3s (闷).
- ``men_dealt``: ``smothered`` events whose ``by`` is this seat: its play beat the one that left only 3s.
- ``revolutions``: ``revolution`` events whose ``seat`` is this seat (革命) — including a revolution of a deal
  that two revolutions voided (流局, the ``void`` event): it was declared, and the deal dealt again.
- ``sets_won`` / ``sets_drawn`` / ``sets_lost``: 1 in one of them for a finished set, by the record's
  ``totals``, from the side of the seat's team.
- ``matches_won`` / ``matches_drawn`` / ``matches_lost``: 1 in one of them for a finished duplicate match, by
  its ``match_points`` (3/1/0), from the side of the team that held this seat at this table.

The cost of an increment: the record's checksum and shape are checked (one pass over its text), then only deal
``k`` is replayed — from its seed, leader and tribute, which the record keeps for every deal, and its actions
— and its places and points checked against the record's.  One thing a set's deal takes from the deal before is
not in the record: after a sweep (串三户) the next deal may start with 汇5 or a new 亮3 (:class:`Match`); a deal
that follows a sweep is read by replaying the whole set (:meth:`Match.from_record`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..engine.deal import Deal
from ..engine.rules import RuleSet
from ..engine.scoring import TOURNAMENT_POINTS, team_points
from ..engine.seats import SEATS, team
from .duplicate import Tournament
from .loading import load_record, parse_record
from .records import RecordError, check_record_body, check_result, replay_actions
from .sets import Match

PLACES = tuple(f"place_{p}" for p in range(1, SEATS + 1))
DEAL_COUNTERS = (
    "deals",
    *PLACES,
    "points",
    "burns_tried",
    "burns_won",
    "opened",
    "men_suffered",
    "men_dealt",
    "revolutions",
)
"""What one finished deal adds (:func:`deal_stats`)."""
RESULTS = ("won", "drawn", "lost")
COUNTERS = (
    *DEAL_COUNTERS,
    *(f"sets_{r}" for r in RESULTS),
    *(f"matches_{r}" for r in RESULTS),
)
"""Every counter, in the order a counters dict holds them (the module's docstring defines each)."""

Counters = dict[str, int]
SeatKey = tuple[int, int]
"""(table, seat): table 0 in a set."""

_EVENT_COUNTERS = {
    ("burn", "seat"): "burns_tried",
    ("burn_success", "seat"): "burns_won",
    ("open", "seat"): "opened",
    ("smothered", "seat"): "men_suffered",
    ("smothered", "by"): "men_dealt",
    ("revolution", "seat"): "revolutions",
}
"""Which event, by which of its fields naming a seat, counts for which counter."""


def zero() -> Counters:
    """Every counter at 0."""
    return dict.fromkeys(COUNTERS, 0)


def merge(a: Mapping[str, int], b: Mapping[str, int]) -> Counters:
    """The sum of two sets of counters (a counter one of them lacks counts as 0: counters stored before a new
    one was added still merge)."""
    out = zero()
    for counters in (a, b):
        for name, n in counters.items():
            out[name] = out.get(name, 0) + n
    return out


def deal_stats(deal: Deal, seat: int, small_points: bool = False) -> Counters:
    """The counters finished ``deal`` adds for ``seat`` (0-5), from its events and places only.  With
    ``small_points``, ``points`` are the team's small points 6..1 (a table of a duplicate match) instead of the
    deal's points under its rules' scoring (a set)."""
    if deal.places is None:
        raise ValueError("the deal is not over: it adds nothing to the statistics before its places are known")
    if not (isinstance(seat, int) and 0 <= seat < SEATS):
        raise ValueError(f"seat must be 0-5, not {seat!r}")
    out = zero()
    out["deals"] = 1
    out[PLACES[deal.places.index(seat)]] = 1
    if small_points:
        out["points"] = sum(TOURNAMENT_POINTS[p] for p, s in enumerate(deal.places) if team(s) == team(seat))
    else:
        out["points"] = team_points(deal)[team(seat)]
    for e in deal.events:
        for field in ("seat", "by"):
            name = _EVENT_COUNTERS.get((e["type"], field))
            if name is not None and e[field] == seat:
                out[name] += 1
    return out


def record_stats(record: Mapping[str, Any] | str | bytes, deal_index: int | None) -> dict[SeatKey, Counters]:
    """What a stored record adds to each seat's counters: for ``deal_index`` ``k`` (0-based), the counters of
    finished deal ``k`` (at both tables of a duplicate match); for ``None``, the set's or match's result
    (``sets_*`` / ``matches_*``), which the record must show finished.  Call it once with each deal's index as
    that deal's record is stored, and once with ``None`` for the finished set or match: the sums are
    :func:`record_totals`.

    ``record`` is a set record (:meth:`Match.record`, the set up to and including deal ``k`` or more) or a
    duplicate match's (:meth:`Tournament.record`), as a dict or its JSON text.  Raises :class:`RecordError` for
    a record that is corrupt (checksum, shape) or does not replay, ``ValueError`` for a deal it does not hold
    finished."""
    body = _body(record)
    if deal_index is None:
        return _result_stats(body)
    if isinstance(deal_index, bool) or not isinstance(deal_index, int):
        raise ValueError(f"deal_index must be a deal's index (0-based) or None, not {deal_index!r}")
    n = len(body["deals"])
    if not 0 <= deal_index < n:
        raise ValueError(f"deal_index {deal_index} is out of range: this {body['kind']} record holds deals 0-{n - 1}")
    if body["kind"] == "set":
        deal = _set_deal(body, deal_index)
        return {(0, s): deal_stats(deal, s) for s in range(SEATS)}
    pair = _match_deal(body, deal_index)
    return {(t, s): deal_stats(pair[t], s, small_points=True) for t in (0, 1) for s in range(SEATS)}


def record_totals(record: Mapping[str, Any] | str | bytes) -> dict[SeatKey, Counters]:
    """Every counter a record adds up to at once: each finished deal's, and the result if the set or match is
    over — the whole record replayed (:func:`gouji.competition.loading.load_record`)."""
    loaded = load_record(parse_record(record))
    out: dict[SeatKey, Counters] = {}
    if isinstance(loaded, Match):
        out = {(0, s): zero() for s in range(SEATS)}
        for deal in loaded.deals:
            if deal.is_over:
                for s in range(SEATS):
                    out[0, s] = merge(out[0, s], deal_stats(deal, s))
        if loaded.is_over:
            for s in range(SEATS):
                out[0, s] = merge(out[0, s], _outcome("sets", loaded.totals, team(s)))
        return out
    out = {(t, s): zero() for t in (0, 1) for s in range(SEATS)}
    for pair in loaded.tables:
        if all(d.is_over for d in pair):
            for (t, s), counters in out.items():
                out[t, s] = merge(counters, deal_stats(pair[t], s, small_points=True))
    if loaded.is_over:
        for (t, s), counters in out.items():
            out[t, s] = merge(counters, _outcome("matches", loaded.totals, Tournament.team_at(t, s)))
    return out


def credit(
    increments: Mapping[SeatKey, Mapping[str, int]], accounts: Mapping[SeatKey, str | None]
) -> dict[str, Counters]:
    """The increments by account: ``accounts`` names the account in each (table, seat), or None (a bot, a
    guest): those seats' counters go to nobody.  An account in two seats gets both."""
    out: dict[str, Counters] = {}
    for key, counters in increments.items():
        account = accounts.get(key)
        if account is not None:
            out[account] = merge(out.get(account, {}), counters)
    return out


def preset_of(record: Mapping[str, Any]) -> str:
    """The preset a record's rules are (or were derived from): the key of "by preset" statistics."""
    rules = record.get("rules")
    name = rules.get("name") if isinstance(rules, Mapping) else None
    if not isinstance(name, str):
        raise RecordError("the record's rules name no preset")
    return name


def summary(counters: Mapping[str, int]) -> dict[str, Any]:
    """A profile's figures from a seat's (or an account's) counters: the counts, the six places as a list
    (头科 first), and the rates — None where there is nothing to divide by."""
    c = merge(zero(), counters)
    deals = c["deals"]

    def rate(n: int, of: int, digits: int = 3) -> float | None:
        return round(n / of, digits) if of else None

    return {
        "deals": deals,
        "places": [c[p] for p in PLACES],
        "points": c["points"],
        "points_per_deal": rate(c["points"], deals, 2),
        "burns_tried": c["burns_tried"],
        "burns_won": c["burns_won"],
        "burn_rate": rate(c["burns_won"], c["burns_tried"]),
        "opened": c["opened"],
        "open_rate": rate(c["opened"], deals),
        "men_suffered": c["men_suffered"],
        "men_dealt": c["men_dealt"],
        "revolutions": c["revolutions"],
        "sets": {r: c[f"sets_{r}"] for r in RESULTS},
        "matches": {r: c[f"matches_{r}"] for r in RESULTS},
    }


# ---------------------------------------------------------------------------------------------- reading records


def _body(record: Mapping[str, Any] | str | bytes) -> dict[str, Any]:
    """The record checked (format, version, checksum, shape)."""
    record = parse_record(record)
    kind = record.get("kind")
    if kind not in ("set", "tournament"):
        raise RecordError(f"statistics are kept from set and tournament records, not {kind!r} ones")
    body = check_record_body(record, str(kind))
    body["checksum"] = record["checksum"]
    return body


def _set_deal(body: Mapping[str, Any], k: int) -> Deal:
    """Deal ``k`` of a set record (checked, with its checksum), finished: replayed alone, or with the whole
    set after a sweep."""
    deals = body["deals"]
    entry = deals[k]
    if "places" not in entry:
        raise ValueError(f"deal {k} of this set record has not finished: it adds nothing yet")
    if k > 0 and _swept(deals[k - 1]["places"]):
        return Match.from_record(body).deals[k]
    try:
        deal = Deal.new(
            RuleSet.from_dict(body["rules"]), seed=entry["seed"], leader=entry["leader"], tribute=entry["tribute"]
        )
    except ValueError as e:
        raise RecordError(f"deal {k + 1} cannot be dealt: {e}") from None
    replay_actions(entry, k, _actor(deal), deal)
    check_result(entry, deal, k, points=team_points(deal))
    return deal


def _actor(deal: Deal) -> Callable[[str, int], None]:
    def act(text: str, seat: int) -> None:
        deal.act(text, seat=seat)

    return act


def _swept(places: list[int]) -> bool:
    """Whether a deal with these places was a sweep (串三户: one team took the first three places)."""
    return len({team(s) for s in places[:3]}) == 1


def _match_deal(body: Mapping[str, Any], k: int) -> tuple[Deal, Deal]:
    """Deal ``k`` of a duplicate match's record at both tables, finished: each replayed alone (every deal of a
    match is dealt from its seed, seat 0 leading, no tribute)."""
    entry = body["deals"][k]
    rules = RuleSet.from_dict(body["rules"])
    out = []
    for t, table in enumerate(entry["tables"]):
        if "places" not in table:
            raise ValueError(f"deal {k} of this match record has not finished at table {t + 1}: it adds nothing yet")
        deal = Deal.new(rules, seed=entry["seed"], leader=0)
        if "hands" in table and table["hands"] != deal.events[0]["hands"]:
            raise RecordError(f"deal {k + 1}, table {t + 1}: its hands are not what the deal's seed gives")
        replay_actions(table, k, _actor(deal), deal)
        check_result(table, deal, k)
        out.append(deal)
    return out[0], out[1]


def _result_stats(body: Mapping[str, Any]) -> dict[SeatKey, Counters]:
    """The set's or match's result for every seat: the record must show it finished."""
    deals = body["deals"]
    if body["kind"] == "set":
        if len(deals) != body["set_length"] or "places" not in deals[-1]:
            raise ValueError(f"this set record is not finished: {len(deals)} of {body['set_length']} deals begun")
        totals = body["totals"]
        return {(0, s): _outcome("sets", totals, team(s)) for s in range(SEATS)}
    if body.get("match_points") is None:
        raise ValueError("this match record is not finished: it has no match points yet")
    points = body["match_points"]
    return {(t, s): _outcome("matches", points, Tournament.team_at(t, s)) for t in (0, 1) for s in range(SEATS)}


def _outcome(kind: str, totals: Any, side: int) -> Counters:
    """``kind``'s won, drawn or lost for ``side`` (0 or 1) by the two sides' ``totals`` (or match points)."""
    mine, theirs = totals[side], totals[1 - side]
    out = zero()
    out[f"{kind}_{'won' if mine > theirs else 'lost' if mine < theirs else 'drawn'}"] = 1
    return out
