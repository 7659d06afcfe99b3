"""What a stored record adds to its signed-in players' rows, in the record's own transaction (issues 42, 43): the
statistics of the deal (or the set's or match's result), and — for a rated set or match — the ratings.  A
record is stored with them or not at all, so no kill, restart or second shard counts one twice or never."""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...competition.ratings import BOT_RATINGS, NEW, Seat, rate, shown
from ...competition.records import RecordError
from ...competition.stats import credit, merge, preset_of, record_stats
from .models import AccountRow, AccountStatsRow, RatingHistoryRow, RatingRow

log = logging.getLogger("gouji.server")

LISTED_GAMES = 5
"""Rated games an account needs before the leaderboard lists it."""


def add_stats(
    s: Session, deal_index: int | None, players: list[dict[str, Any]], body: dict[str, Any], table_id: int | None = None
) -> None:
    """Add what a record just stored brings to the statistics of the accounts that played in it (its players'
    ``account``), in the record's transaction: a record is stored with its statistics or not at all, so no
    restart, crash or shard counts one twice or never.  A record whose statistics cannot be worked out (one
    that does not replay) is stored all the same, and said in the log."""
    try:
        increments = record_stats(body, deal_index)
    except (RecordError, ValueError) as e:
        log.error("a record's statistics could not be worked out: %s", e)
        return
    seats = {(int(p.get("table", 0)), int(p["seat"])): p.get("account") for p in players}
    by_name = credit(increments, seats)
    if not by_name:
        return
    if deal_index is None:
        rate_result(s, players, body, table_id)
    preset = preset_of(body)
    live = AccountRow.deleted_at.is_(None)
    rows = s.execute(select(AccountRow.id, AccountRow.name).where(AccountRow.name.in_(list(by_name)), live)).all()
    for account_id, name in rows:
        row = select(AccountStatsRow).where(AccountStatsRow.account_id == account_id, AccountStatsRow.preset == preset)
        stats = s.execute(row.with_for_update()).scalar_one_or_none()  # (two shards adding at once: one waits)
        if stats is None:
            s.add(AccountStatsRow(account_id=account_id, preset=preset, counters=merge({}, by_name[name])))
        else:
            stats.counters = merge(stats.counters, by_name[name])


def rated(players: list[dict[str, Any]]) -> bool:
    """Whether a table's result is rated: every seat an account's or a bot of a level (新手, 高手), and one at
    least an account's (a guest's seat, or another bot, makes it unrated)."""
    accounts = [p for p in players if p.get("account")]
    return bool(accounts) and all(p.get("account") or p.get("bot") in BOT_RATINGS for p in players)


def rate_result(s: Session, players: list[dict[str, Any]], body: dict[str, Any], table_id: int | None) -> None:
    """Rate a finished set (its team result: totals) or duplicate match (its comparison: small points over
    both tables), when :func:`rated`: each account's rating row (locked: shards rate one at a time) updated,
    its history added; bots' ratings are fixed."""
    if not rated(players):
        return
    totals = body.get("totals")
    if not isinstance(totals, list) or len(totals) != 2:
        return
    outcome = (totals[0] > totals[1]) - (totals[0] < totals[1])
    names = sorted({str(p["account"]) for p in players if p.get("account")})
    ids = dict(s.execute(select(AccountRow.name, AccountRow.id).where(AccountRow.name.in_(names))).all())
    rows: dict[str, RatingRow] = {}
    for name in names:
        if name not in ids:
            return  # (an account deleted since: the result is not rated)
        row = s.execute(
            select(RatingRow).where(RatingRow.account_id == ids[name]).with_for_update()
        ).scalar_one_or_none()
        if row is None:
            row = RatingRow(account_id=ids[name], mu=NEW[0], sigma=NEW[1], ordinal=NEW[0] - 3 * NEW[1], games=0)
            row.listed = False
            s.add(row)
        rows[name] = row
    teams: tuple[list[Seat], list[Seat]] = ([], [])
    for p in players:
        team = _team(p, body)
        if p.get("account"):
            r = rows[str(p["account"])]
            teams[team].append(Seat(r.mu, r.sigma, str(p["account"])))
        else:
            mu, sigma = BOT_RATINGS[str(p["bot"])]
            teams[team].append(Seat(mu, sigma))
    for name, (mu, sigma) in rate(teams, outcome).items():
        row = rows[name]
        row.mu, row.sigma, row.ordinal = mu, sigma, mu - 3 * sigma
        row.games = (row.games or 0) + 1
        row.listed = row.games >= LISTED_GAMES
        s.add(RatingHistoryRow(account_id=row.account_id, rating=shown(mu, sigma), table_id=table_id))


def _team(player: dict[str, Any], body: dict[str, Any]) -> int:
    """The team (0 or 1) of a record's seat: in a match, by its team's name; in a set, 0 for seats 0, 2, 4."""
    if "team" in player and isinstance(body.get("teams"), list):
        return 0 if player["team"] == body["teams"][0] else 1
    return int(player["seat"]) % 2
