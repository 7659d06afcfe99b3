"""Events of several teams on the server: the round robin of :mod:`gouji.event`, its matches and standings.

An :class:`EventHall` holds a :class:`gouji.event.Event` (the schedule and the standings: the same code as
``gouji event`` on the command line).  Its organiser starts the matches one by one: a match between two
teams with people in them is a duplicate match at two tables (:func:`.duplicate.create_match`), whose result
enters the standings when it ends; a match between two teams of bots is one too, its tables playing at
once at the server's pace (never inside the request that starts it: a 16-deal, 8-deck match is seconds of
the engine).

A client has at most :attr:`.limits.Limits.events_per_client` events open, the server as many as it holds
tables; an event none of whose matches started closes after the waiting time (:meth:`EventHall.expired`).

**Who plays for a team** (``bots``): people (none), a bot standing in for the whole team (its name), or
seat by seat, a list of three, each a bot or a person (null).  The team's ``k``-th seat is seat ``2k`` or
``2k + 1`` (the one the team holds) at both tables of each of its matches; its people's seats wait for people
joining with the team's code (as in any match), its bots' seats are played by those bots.

Stored as a row of ``tables`` with ``kind: "event"`` in its configuration and an event log of its own:
``start`` (a match began: its fixture and code) and ``result`` (its small points); a restart replays them.
The row stays open when the event is over, so that its page is there after a restart.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from collections.abc import Sequence
from typing import Any

from ...bots import BOTS
from ...competition.duplicate import Tournament
from ...competition.round_robin import Event, EventError, Fixture, MatchResult, check_teams
from ...engine.rules import RuleSet
from ...engine.seats import SEATS
from ..config import parse_table_request
from ..errors import RequestError
from ..halls import EVENT_KIND, MATCH_KIND, Halls
from ..http.connection import token_hash
from ..lobby import Lobby, client_key
from ..messages import schemas as S
from ..storage import EventOp, Op, StatusOp, StoredTable
from ..storage.durability import StoreWriter
from ..tables.table import Room, new_token
from .duplicate import DuplicateRoom, MatchHall, create_match, team_at

log = logging.getLogger("gouji.server")

TABLE_FIELDS = ("preset", "options", "turn_seconds", "ready_seconds", "bot_delay", "card_counter")


class EventHall:
    """A round-robin event on the server: its schedule, the matches started, their results, the standings."""

    def __init__(self, row_id: int, code: str, info: dict[str, Any], owner_hash: str, writer: StoreWriter) -> None:
        self.id = row_id
        self.code = code
        self.info = info
        self.owner_hash = owner_hash
        self.writer = writer
        self.event = Event(info["teams"], RuleSet.from_dict(info["rules"]), seed=info["seed"], deals=info["deals"])
        self.bots: dict[str, TeamBots] = dict(info["bots"])
        self.matches: dict[str, str] = {}
        """Fixture key → the code of its match."""
        self.state = 0
        self._lock = asyncio.Lock()
        self.creator: str | None = None
        """Who created it (:func:`.lobby.client_key`): a client has only so many events open."""
        self.last_change = time.monotonic()
        """When it last changed (monotonic seconds; restored: from its last stored change): an event none of
        whose matches started closes after the waiting time (:meth:`expired`)."""

    # ------------------------------------------------------------------ changes

    def change(self, kind: str, data: dict[str, Any]) -> EventOp:
        """Apply one change; returns its write (an event of the event's row)."""
        fixture = self.event.fixture(data["fixture"])
        if kind == "start":
            self.matches[fixture.key] = data["match"]
        elif kind == "cancel":  # its match was closed before it ended: the fixture may be started again
            if self.matches.get(fixture.key) == data["match"]:
                del self.matches[fixture.key]
        elif kind == "result":
            self.event.enter_result(fixture, MatchResult(int(data["x"]), int(data["y"])))
        else:  # pragma: no cover - written by this class only
            raise ValueError(f"unknown event change {kind!r}")
        self.state += 1
        self.last_change = time.monotonic()
        return EventOp(self.id, self.state, kind, None, data)

    async def commit(self, kind: str, data: dict[str, Any]) -> None:
        """Apply one change and wait until it is stored."""
        op = self.change(kind, data)
        await self.writer.call(self.writer.store.write_batch, [op])

    def match_over(self, key: str, match: Tournament) -> list[Op]:
        """A match of the event ended: its small points enter the standings (once); the write goes with
        the match's end, in its transaction."""
        if key in self.event.results:
            return []
        x, y = match.totals
        return [self.change("result", {"fixture": key, "x": x, "y": y})]

    def match_closed(self, key: str, code: str) -> list[Op]:
        """A match of the event was closed before it ended: the write that frees its fixture (none if it
        has a result already)."""
        if key in self.event.results or self.matches.get(key) != code:
            return []
        return [self.change("cancel", {"fixture": key, "match": code})]

    @property
    def tables(self) -> Sequence[Room]:
        """None of its own (:class:`.halls.Hall`): its matches' tables are theirs."""
        return ()

    def close_ops(self) -> list[Op]:
        """The write that closes the event (its matches are closed each on its own)."""
        return [StatusOp(self.id, "closed")]

    def expired(self, cutoff: float) -> bool:
        """Whether no match of it was ever started and it has not changed since ``cutoff``: it closes."""
        return not self.matches and not self.event.results and self.last_change < cutoff

    def open_tables(self, halls: Halls) -> int:
        """The tables of the event's matches in memory and not yet over."""
        return sum(
            1
            for code in self.matches.values()
            if (hall := halls.get(code, MatchHall)) is not None
            for room in hall.tables
            if room.status in ("waiting", "playing")
        )

    @classmethod
    def replay(cls, stored: StoredTable, writer: StoreWriter) -> EventHall:
        hall = cls(stored.id, stored.code, stored.config, stored.owner_hash, writer)
        for ev in stored.events:
            hall.change(ev["kind"], ev["data"])
            hall.state = ev["state"]
        return hall

    # ------------------------------------------------------------------ the organiser's operations

    def check_owner(self, token: str, what: str = "start its matches") -> None:
        """A 403 :class:`RequestError` unless ``token`` is the organiser's."""
        if not hmac.compare_digest(token_hash(token), self.owner_hash):
            raise RequestError(403, f"only the event's organiser can {what}")

    async def start(self, lobby: Lobby, req: S.StartMatch, client: str = "") -> dict[str, Any]:
        """``POST /api/events/{code}/start`` with ``owner_token`` and ``fixture``: start that match.  Two
        teams of bots play it at once; otherwise its two tables open, with bots in the seats of a team that
        has them, and the answer carries the join codes (per team and per table).  ``client`` (the address
        asking) is limited as for any creation (:meth:`.lobby.Lobby.admit`): the tables count toward its
        caps and the event's."""
        self.check_owner(req.owner_token)
        try:
            fixture = self.event.fixture(req.fixture)
        except EventError as e:
            raise RequestError(404, str(e)) from None
        async with self._lock:
            if fixture.key in self.matches:
                raise RequestError(409, f"match {fixture.key} has been started already")
            self._check_bots(fixture)
            request = {k: self.info["table"][k] for k in TABLE_FIELDS if k in self.info["table"]}
            request |= {"teams": [fixture.x, fixture.y], "deals": self.event.deals}
            request["bots"] = self.table_bots(fixture)
            hall, out = await create_match(lobby, request, event=self, fixture=fixture.key, client=client)
            await self.commit("start", {"fixture": fixture.key, "match": hall.code})
            del out["owner_token"]  # the match's organiser is the event's
            bots_only = all(s.bot is not None for r in hall.tables for s in r.seats)
            return {"fixture": fixture.key, **out, "played_by": "bots" if bots_only else "people"}

    def _check_bots(self, fixture: Fixture) -> None:
        """A 409 :class:`RequestError` when a team of the match is played by a bot this server no longer has
        (the event was stored by a server that had it)."""
        for team in (fixture.x, fixture.y):
            for k, bot in enumerate(self.seats(team)):
                if bot is not None and bot not in BOTS:
                    raise RequestError(
                        409,
                        f"team {team!r}: its seat {k + 1} is played by the bot {bot!r}, which this server does "
                        f"not have (its bots: {', '.join(sorted(BOTS))}); the match was not started",
                    )

    def seats(self, team: str) -> list[str | None]:
        """Who plays a team's three seats: a bot's name, or None (a person)."""
        return team_seats(self.bots.get(team))

    def table_bots(self, fixture: Fixture) -> list[list[str | None]]:
        """The bots of a match's two tables, seat by seat (None: a person's seat), as ``POST /api/matches``
        takes them: the team in a seat, and its seat ``seat // 2``."""
        teams = (self.seats(fixture.x), self.seats(fixture.y))
        return [[teams[team_at(t, s)][s // 2] for s in range(SEATS)] for t in (0, 1)]

    async def close(self, lobby: Lobby, owner_token: str) -> dict[str, Any]:
        """``POST /api/events/{code}/close`` with ``owner_token``: the organiser ends the event — its matches
        still in play are closed, and it leaves the server (its stored matches stay)."""
        self.check_owner(owner_token, "close it")
        async with self._lock:
            for code in list(self.matches.values()):
                hall = lobby.halls.get(code, MatchHall)
                if hall is not None and not (hall.over or hall.finishing):
                    lobby.close_hall(hall, "organiser", "the event was closed by its organiser")
            lobby.close_hall(self, "organiser", "closed by its organiser")
        await lobby.writer.drain()
        return {"code": self.code, "closed": True}

    # ------------------------------------------------------------------ what everyone sees

    def public(self, lobby: Lobby) -> dict[str, Any]:
        """The event page: the teams (and which bots stand in), the schedule round by round with each match's
        code, status and result, and the standings."""
        summary = self.event.summary()
        for r in summary["rounds"]:
            for m in r["matches"]:
                code = self.matches.get(m["key"])
                m["match"] = code
                hall = None if code is None else lobby.halls.get(code, MatchHall)
                if m["small_points"] is not None and (hall is None or hall.over):  # (its end stored: shown)
                    m["status"] = "over"
                elif code is None:
                    m["status"] = "not started"
                else:
                    m["status"] = "playing"
                    m["small_points"] = m["match_points"] = None
                    if hall is not None:
                        m["progress"] = [len(t.match.points) for t in hall.tables]
        return {
            "code": self.code,
            "kind": EVENT_KIND,
            "bots": self.bots,
            "preset": self.info["table"].get("preset"),
            **summary,
        }


def parse_event_request(
    data: Any, default_turn: float | None, default_bot_delay: float, default_ready: float | None, seed: int
) -> dict[str, Any]:
    """Validate ``POST /api/events``: ``teams`` (2-16 names), ``deals`` a match (default 4), ``bots`` (team →
    a bot standing in for it, or its three seats, each a bot or null: a person), and the tables' settings
    (``preset``, default ``tournament``, ``options``, timers, ``card_counter``).  Returns the event's stored
    configuration (a team's seats stored as one bot, or None, when all three are the same)."""
    req = S.body(S.CreateEvent, data)
    teams, deals = check_teams(req.teams), req.deals  # (checked by the schema: their names trimmed)
    bots_in = {t: one_or_three(b) for t, b in req.bots.items()}
    table = {k: data[k] for k in TABLE_FIELDS if k in data}
    table["preset"] = req.preset
    config = parse_table_request({**table, "set_length": deals}, default_turn, default_bot_delay, default_ready)
    table |= {
        "turn_seconds": config.turn_seconds,
        "ready_seconds": config.ready_seconds,
        "bot_delay": config.bot_delay,
    }
    return {
        "kind": EVENT_KIND,
        "teams": teams,
        "deals": deals,
        "rules": config.rules,
        "seed": seed,
        "bots": {t: bots_in.get(t) for t in teams},
        "table": table,
    }


TeamBots = str | list[str | None] | None
"""Who plays for a team of an event: a bot for the whole team, its three seats, or None (people)."""


def team_seats(bots: TeamBots) -> list[str | None]:
    """A team's three seats (a bot's name or None, a person's) from what an event stores for it."""
    return list(bots) if isinstance(bots, list) else [bots] * S.TEAM_SEATS


def one_or_three(bots: TeamBots) -> TeamBots:
    """Three seats the same as one (a bot for the whole team, or None: people), else the three."""
    if isinstance(bots, list) and len(set(bots)) == 1:
        return bots[0]
    return bots


async def create_event(lobby: Lobby, data: Any, client: str = "") -> dict[str, Any]:
    """``POST /api/events``: a new event; answers its code and the organiser's secret token (``client`` is
    limited in how fast it creates, as for tables)."""
    st = lobby.settings
    info = parse_event_request(data, st.turn_seconds, st.bot_delay, st.ready_seconds, st.seeds())
    key = client_key(client, lobby.settings.secret)
    events = lobby.halls.all(EventHall)
    mine = sum(1 for e in events if e.creator == key)
    if mine >= lobby.limits.events_per_client:
        raise RequestError(
            429, f"you have {mine} events open (at most {lobby.limits.events_per_client}): close one first"
        )
    if len(events) >= lobby.max_tables:
        raise RequestError(503, "the server has as many events as it can hold")
    lobby.admit(client, 0)
    code = await lobby.new_code()
    owner = new_token()
    row = await lobby.writer.call(lobby.writer.store.create_table, code, info, token_hash(owner), key)
    hall = EventHall(row, code, info, token_hash(owner), lobby.writer)
    hall.creator = key
    lobby.halls.add(hall)
    return {"code": code, "owner_token": owner, "event": hall.public(lobby)}


def event_of(lobby: Lobby, code: str) -> EventHall:
    hall = lobby.halls.get(code, EventHall)
    if hall is None:
        raise RequestError(404, f"no event {code!r}")
    return hall


# ------------------------------------------------------------------------------------------ after a restart


async def restore_halls(lobby: Lobby, stored: list[StoredTable]) -> None:
    """Restore the events and matches among ``stored`` (open rows), each match with both its tables (a table
    that finished already is read from the store too), and join them again."""
    by_code = {st.code: st for st in stored}
    events: dict[str, EventHall] = {}
    for st in stored:
        if st.config.get("kind") == EVENT_KIND:
            try:
                ev = events[st.code] = EventHall.replay(st, lobby.writer)
            except (KeyError, TypeError, ValueError):
                log.exception("event %s cannot be restored", st.code)
                continue
            ev.creator = st.creator
            ev.last_change = lobby.since(st)
    for event in events.values():
        lobby.halls.add(event)
    for st in stored:
        if st.config.get("kind") != MATCH_KIND:
            continue
        try:
            rooms = []
            for tcode in st.config["tables"]:
                tst = by_code.get(tcode) or await lobby.writer.call(lobby.writer.store.stored_table, tcode)
                if tst is None:
                    raise ValueError(f"table {tcode} of match {st.code} is not stored")
                room = DuplicateRoom.replay(tst, lobby.writer, lobby.settings)
                assert isinstance(room, DuplicateRoom)
                lobby.restored(room, tst)
                rooms.append(room)
        except (ValueError, KeyError, TypeError):
            log.exception("match %s cannot be restored", st.code)
            continue
        hall = MatchHall(st.id, st.code, st.config, lobby.writer, st.owner_hash)
        hall.replay_codes(st)
        hall.join_tables(rooms)
        event_code = st.config.get("event")
        hall.event = events.get(event_code) if event_code else None
        lobby.halls.add(hall)
        for room in rooms:
            lobby.keep(room, let_go_when_over=False)
        for room in rooms:
            room.start_timers()
        hall.on_finished = lobby.hall_finished
        if all(r.match.is_over for r in rooms):
            hall.finish_after_restart()
