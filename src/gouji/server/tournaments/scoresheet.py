"""The scorekeeper's sheet of a duplicate match (记分员): the places at both tables, the small points of every
deal both have finished, the totals, the match points once it is over, and the duplicate comparison — kept deal
by deal for a match in play (:class:`Sheet`), or made once from a finished match's record (:func:`stored_view`)."""

from __future__ import annotations

from typing import Any

import orjson

from ...competition.duplicate import Tournament
from ...competition.records import RecordError
from ..errors import RequestError
from ..halls import MATCH_KIND
from ..replays.api import Replay


class Sheet:
    """The scorekeeper's sheet of a match (:func:`scoresheet`), made deal by deal: a deal's row and comparison
    are worked out once, when both tables have finished it (they never change after), so the sheet of a long
    match costs one deal's work a deal, not the whole match's at every look."""

    def __init__(self, teams: tuple[str, str]) -> None:
        self.teams = teams
        self.rows: list[dict[str, Any]] = []
        self.comparison: list[dict[str, Any]] = []
        self.totals = [0, 0]

    def update(self, t: Tournament) -> Sheet:
        """Add the deals ``t`` has finished at both tables since the last update."""
        seat_teams = [t.seat_teams(i) for i in (0, 1)]
        for k in range(len(self.rows), len(t.small_points())):
            row = t.result_row(k)
            places = [t.tables[k][i].result()["places"] for i in (0, 1)]
            row["places"] = [[{"seat": s, "team": seat_teams[i][s]} for s in places[i]] for i in (0, 1)]
            del row["tables"]
            self.rows.append(row)
            self.comparison.append(t.comparison_entry(k))
            self.totals = [self.totals[0] + row["points"][0], self.totals[1] + row["points"][1]]
        return self

    def small_points(self) -> list[list[int]]:
        return [list(row["points"]) for row in self.rows]

    def match_points(self) -> list[int]:
        x, y = self.totals
        return [3, 0] if x > y else [0, 3] if y > x else [1, 1]

    def view(self, n_deals: int, over: bool) -> dict[str, Any]:
        return {
            "teams": list(self.teams),
            "deals": n_deals,
            "results": self.rows,
            "totals": list(self.totals),
            "match_points": self.match_points() if over else None,
            "comparison": self.comparison,
        }


def scoresheet(t: Tournament, over: bool) -> dict[str, Any]:
    """The scorekeeper's sheet of a match: the places at both tables and the small points of every deal both
    have finished, the totals, the match points once it is over, and the duplicate comparison."""
    return Sheet(t.teams).update(t).view(t.n_deals, over)


def stored_view(info: dict[str, Any], body: dict[str, Any]) -> Replay:
    """A finished match's page from its record (on a thread): replayed by the engine, as JSON."""
    try:
        played = Tournament.from_record(body)
    except RecordError as e:
        raise RequestError(422, f"the match's record does not replay: {e}") from None
    config = info["config"]
    out = {
        "code": info["code"],
        "kind": MATCH_KIND,
        "preset": config.get("preset"),
        "status": "over",
        "event": config.get("event"),
        "fixture": config.get("fixture"),
        "tables": [{"table": i, "code": c} for i, c in enumerate(config.get("tables", []))],
        **scoresheet(played, True),
    }
    return Replay(orjson.dumps(out, option=orjson.OPT_NON_STR_KEYS), None)
