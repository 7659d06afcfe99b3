"""The duplicate match (比赛规则) on the server: two tables, the same cards, the teams swapped.

A :class:`MatchHall` is a match between two teams of six.  Its two tables are ordinary tables of the server
(:class:`DuplicateRoom`, a :class:`~.table.Room` whose set is a :class:`~gouji.match.TournamentTable`), each
with its own join code, seats, tokens, timers and stored events: at table 1 the first group of team X sits
in seats 0, 2, 4 (the rules' 1, 3, 5) and the first group of team Y in 1, 3, 5; at table 2 the second groups
sit the other way round.  Deal ``k`` is dealt from the match's seed at both tables, so the cards of a seat
are the same at both, held by the other team.

**The wait (000: 如另一桌未完，则队员坐于原位置等待，不得交流).** A table that finishes a deal before the other
pauses: its frames say ``table.duplicate.waiting`` and no timer runs, no bot acts and no ready timeout starts
until the other table has finished the same deal; then the pause between two deals goes on as at any table
(the seats say they are ready, or the ready timeout ends it).  The table page offers no chat at all.

**What is hidden.** The other table plays the same cards, so nothing of it reaches a table while the deal is
in play: a table's frames carry the results of a deal only once both tables have finished it, and nobody
watches the tables of a match in progress (a spectator's hello is refused; the scorekeeper's view is the
match's page).  The match's records are served once it is over.

**Storage.** The match is a row of ``tables`` whose configuration has ``kind: "match"`` (its teams, its two
tables' codes, its event), and each table a row with a ``duplicate`` entry in its configuration; after each
deal finished at both tables the match's record (``kind`` ``match``) up to that deal is stored, and the whole
match's record at its end.  A restart replays both tables from their events and joins them again
(:func:`restore_halls`).
"""

from __future__ import annotations

import dataclasses
import functools
import hmac
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ...competition.duplicate import Tournament, TournamentTable
from ...competition.round_robin import check_teams
from ...competition.sets import Match
from ...engine.actions import Action
from ...engine.rules import RuleSet
from ...engine.seats import SEATS
from ..config import TableConfig, parse_table_request
from ..errors import RequestError
from ..halls import MATCH_KIND, Halls
from ..http.connection import Connection, token_hash
from ..lobby import Lobby
from ..messages import protocol as P
from ..messages import schemas as S
from ..replays.api import Replay, ReplayCache
from ..shards import Shard
from ..storage import EventOp, Op, RecordBody, RecordOp, StatusOp, StoredTable
from ..storage.durability import StoreWriter
from ..tables.table import Room, new_token
from .scoresheet import Sheet, stored_view

log = logging.getLogger("gouji.server")

MAX_MATCH_DEALS = S.MAX_MATCH_DEALS


class MatchesEvent(Protocol):
    """The event a match is played in, as the match sees it (:class:`.events.EventHall`)."""

    @property
    def code(self) -> str: ...

    @property
    def owner_hash(self) -> str: ...

    def open_tables(self, halls: Halls) -> int:
        """The tables of its matches in memory and not yet over."""
        ...

    def match_over(self, key: str, match: Tournament) -> list[Op]:
        """The writes of a match's result in the event (none if it has one)."""
        ...

    def match_closed(self, key: str, code: str) -> list[Op]:
        """The writes that free a fixture whose match was closed before it ended."""
        ...


def team_at(table: int, seat: int) -> int:
    """Which team (0 = X, 1 = Y) sits in ``seat`` at ``table`` (0 or 1)."""
    return Tournament.team_at(table, seat)


@dataclass(frozen=True)
class DuplicateConfig(TableConfig):
    """A table of a duplicate match: a table's configuration, which table of which match it is."""

    table: int = 0
    match: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["duplicate"] = {"table": self.table, "match": self.match}
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> DuplicateConfig:
        base = TableConfig.from_dict(d)
        fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(TableConfig)}
        return cls(**fields, table=int(d["duplicate"]["table"]), match=str(d["duplicate"]["match"]))

    def new_match(self) -> Match:
        return TournamentTable(RuleSet.from_dict(self.rules), self.seed, self.set_length, self.table)


class DuplicateRoom(Room):
    """One table of a duplicate match: a table that waits for the other one after each deal."""

    hall: MatchHall | None = None
    expires_when_idle = False
    seated_by_team = True
    phrases_allowed = False  # 000: 不得交流

    @property
    def table_index(self) -> int:
        config = self.config
        assert isinstance(config, DuplicateConfig)
        return config.table

    @staticmethod
    def read_config(stored: dict[str, Any]) -> TableConfig:
        return DuplicateConfig.from_dict(stored)

    def partner(self) -> DuplicateRoom | None:
        return None if self.hall is None else self.hall.tables[1 - self.table_index]

    def ahead(self) -> bool:
        """Whether this table has finished a deal that the other has not: it waits."""
        other = self.partner()
        return other is not None and len(other.match.points) < len(self.match.points)

    def deals_shown(self) -> int:
        return 0 if self.hall is None else self.hall.complete()

    def records_at(self) -> tuple[int, int | None]:
        return (self.id if self.hall is None else self.hall.id), self.table_index  # (the match's records)

    def finished_records(self, deal_index: int) -> list[tuple[str, int | None, RecordBody]]:
        return []  # the match stores the match's records once both tables have played the deal

    def commit(
        self, kind: str, seat: int | None = None, data: dict[str, Any] | None = None, action: Action | None = None
    ) -> None:
        before = len(self.match.points)
        super().commit(kind, seat, data, action)
        if not self.replaying and self.hall is not None and len(self.match.points) > before:
            self.hall.deal_finished(self.table_index)

    def _maybe_resume(self) -> None:
        if not self.ahead():
            super()._maybe_resume()

    def _reschedule(self) -> None:
        if self.status == "playing" and self.ready is not None and self.ahead():
            self.cancel_timer()  # no ready timeout while the other table plays the deal
            return
        super()._reschedule()

    def public(self, config: bool = True) -> dict[str, Any]:
        """The table as everyone may see it, with ``duplicate`` (:meth:`MatchHall.table_info`); its points
        and its last deal's summary (``last_deal``: places, out order, 闷, failed burns, revolts) are those
        of the deals both tables have finished only: nothing of a deal this table finished first is public
        while the other table plays the same cards."""
        out = super().public(config)
        if self.hall is not None:
            complete = self.hall.complete()
            out["duplicate"] = self.hall.table_info(self.table_index)
            last = out["last_deal"]
            if last is not None and last["deal"] >= complete:
                out["last_deal"] = self._make_last_deal(before=complete)
            points = out["points"][:complete]
            out["points"] = points
            out["deals_over"] = len(points)
            out["totals"] = [sum(p[0] for p in points), sum(p[1] for p in points)]
        return out

    def table_text(self) -> str:
        """Made afresh for every frame: the public table says how far the other table is, which no change of
        this one tells."""
        return P.dumps(self.public(config=False))

    def attach(self, conn: Connection, seat: int | None, token_h: str | None) -> None:
        if seat is None and (self.hall is None or not self.hall.over):
            raise P.ProtocolError(
                P.SPECTATOR,
                "the tables of a duplicate match cannot be watched while it is played (the same cards are in "
                "play at the other table): the scorekeeper's page shows the results",
            )
        super().attach(conn, seat, token_h)


TEAM_CODE_LENGTH = 10
"""A team's join code: 10 characters of 31, about 49 bits (its first names the match's shard)."""


class MatchHall:
    """A duplicate match between two teams at two tables, and its scorekeeper's view (记分员).

    Each team's seats are taken with the team's join code: a random secret (not derived from the match's
    public code), stored with the match, given to its organiser only (at creation and by
    :func:`team_codes`), which the organiser may replace (:meth:`rotate`; the old one stops working)."""

    def __init__(self, row_id: int, code: str, info: dict[str, Any], writer: StoreWriter, owner_hash: str = "") -> None:
        self.id = row_id
        self.code = code
        self.owner_hash = owner_hash
        """The hash of its organiser's token (an event's match: the event's organiser closes it)."""
        self.info = info
        codes = info.get("team_codes")
        self.codes: list[str] = (
            [str(c) for c in codes]
            if isinstance(codes, list) and len(codes) == 2
            else [Shard().new_code(TEAM_CODE_LENGTH) for _ in range(2)]  # a match stored before codes were
        )
        self.state = 0
        """The number of the hall's last change stored as an event of its row (a rotated code)."""
        self.teams: tuple[str, str] = (info["teams"][0], info["teams"][1])
        self.writer = writer
        self.tables: list[DuplicateRoom] = []
        self.over = False
        """Whether the end of the match is stored (and may be shown)."""
        self.finishing = False
        self.event: MatchesEvent | None = None
        self.on_finished: Callable[[MatchHall], None] | None = None
        self._sheet = Sheet(self.teams)
        """Called once the end of the match is stored and sent (the lobby lets its tables go later)."""

    @property
    def fixture(self) -> str | None:
        key: str | None = self.info.get("fixture")
        return key

    def join_tables(self, tables: list[DuplicateRoom]) -> None:
        self.tables = tables
        for room in tables:
            room.hall = self

    def team_codes(self) -> list[str]:
        """The join code of each team (secret: its organiser's to hand out)."""
        return list(self.codes)

    def team_of(self, code: str) -> int | None:
        """The team (0 or 1) whose join code ``code`` is (any case), else None; compared in constant time."""
        given = code.upper().encode()
        hits = [hmac.compare_digest(given, c.encode()) for c in self.codes]
        return hits.index(True) if any(hits) else None

    def rotate(self, team: int, new: str) -> EventOp:
        """Team ``team`` gets the join code ``new``; the old one stops working.  Returns the write."""
        self.codes[team] = new
        self.state += 1
        return EventOp(self.id, self.state, "team_code", team, {"code": new})

    def replay_codes(self, stored: StoredTable) -> None:
        """The codes as the stored changes of the hall's row left them (after a restart)."""
        for ev in stored.events:
            if ev["kind"] == "team_code":
                self.codes[int(ev["seat"])] = str(ev["data"]["code"])
            self.state = max(self.state, int(ev["state"]))

    def seat_teams(self, table: int) -> list[str]:
        return [self.teams[team_at(table, s)] for s in range(SEATS)]

    def tournament(self) -> Tournament:
        """The match so far: the deals finished at both tables (shared with the tables: read only)."""
        one, two = (r.match for r in self.tables)
        assert isinstance(one, TournamentTable) and isinstance(two, TournamentTable)
        return Tournament.from_tables(one, two, self.teams, finished=True)

    def complete(self) -> int:
        """How many deals both tables have finished."""
        return min(len(r.match.points) for r in self.tables)

    def table_info(self, table: int) -> dict[str, Any]:
        """``table.duplicate`` in a table's frames: which match, who sits where, whether the table waits for
        the other, and the results of the deals both tables have finished (never the other table's deal in
        play)."""
        sheet = self.sheet()
        return {
            "match": self.code,
            "table": table,
            "teams": list(self.teams),
            "seat_teams": self.seat_teams(table),
            "waiting": self.tables[table].ahead(),
            "deals": self.n_deals,
            "complete": len(sheet.rows),
            "small_points": sheet.small_points(),
            "totals": list(sheet.totals),
            "match_points": sheet.match_points() if self.over else None,
        }

    @property
    def n_deals(self) -> int:
        return self.tables[0].config.set_length

    def sheet(self) -> Sheet:
        """The scoresheet so far, brought up to the deals both tables have finished (one deal's work each)."""
        if len(self._sheet.rows) < self.complete():
            self._sheet.update(self.tournament())
        return self._sheet

    def deal_finished(self, table: int) -> None:
        """Table ``table`` finished a deal: if the other has finished it too, the deal is scored at both —
        its record is stored, and once it is, the table that waited plays on (or the match ends)."""
        me, other = self.tables[table], self.tables[1 - table]
        if len(other.match.points) < len(me.match.points):
            return  # this table waits (its frames say so)
        k = len(me.match.points) - 1
        last = all(r.match.is_over for r in self.tables)
        ops: list[Op] = [self._record_op(k)]
        if last:
            ops += self._finish_ops()
        self.writer.commit(ops, lambda: self._scored(other, me, last))

    def _scored(self, other: DuplicateRoom, me: DuplicateRoom, last: bool) -> None:
        if last:
            self.over = True  # stored: now it may be shown
            for r in self.tables:
                r.broadcast()
            if self.on_finished is not None:
                self.on_finished(self)
            return
        other.start_timers()  # its pause may end now: timers, bots and the ready timeout start
        other.broadcast()
        me.broadcast()

    def players(self) -> list[dict[str, Any]]:
        return [
            {"table": r.table_index, "seat": s.index, "team": self.seat_teams(r.table_index)[s.index]}
            | {"nickname": s.nickname, "bot": s.bot}
            | ({"account": s.account} if s.account else {})
            for r in self.tables
            for s in r.seats
        ]

    def _record_op(self, deal_index: int | None) -> RecordOp:
        return RecordOp(self.id, MATCH_KIND, deal_index, self.players(), self.tournament().record())

    def _finish_ops(self) -> list[Op]:
        """Both tables played every deal: the match's record, its status, and its result in the event."""
        self.finishing = True
        ops: list[Op] = [self._record_op(None)]
        if self.event is not None and self.fixture is not None:
            ops += self.event.match_over(self.fixture, self.tournament())
        ops.append(StatusOp(self.id, "over"))
        return ops

    def close_ops(self) -> list[Op]:
        """The writes that close the match before it ended: its status; in its event, its fixture may be
        started again."""
        ops: list[Op] = [StatusOp(self.id, "closed")]
        if self.event is not None and self.fixture is not None:
            ops += self.event.match_closed(self.fixture, self.code)
        return ops

    def expired(self, cutoff: float) -> bool:
        """Never on its own: its tables' waiting and absence close it (:meth:`.lobby.Lobby.expire_idle`)."""
        return False

    def finish_after_restart(self) -> None:
        """The server stopped after both tables' last moves but before the match's end was stored."""
        if not self.finishing:
            self.writer.commit(self._finish_ops(), lambda: self._scored(self.tables[1], self.tables[0], True))

    def public(self) -> dict[str, Any]:
        """The scorekeeper's view: both tables, the places and small points of every deal both have finished,
        the totals, and once the match is over its result and match points (3/1/0)."""
        tables = []
        for r in self.tables:
            teams = self.seat_teams(r.table_index)
            tables.append(
                {
                    "table": r.table_index,
                    "code": r.code,
                    "status": r.status,
                    "deals_finished": len(r.match.points),
                    "waiting": r.ahead(),
                    "seats": [{**s.public(), "team": teams[s.index]} for s in r.seats],
                }
            )
        return {
            "code": self.code,
            "kind": MATCH_KIND,
            "teams": list(self.teams),
            "preset": self.info.get("preset"),
            "status": "over" if self.over else "playing",
            "event": self.info.get("event"),
            "fixture": self.fixture,
            "tables": tables,
            **self.sheet().view(self.n_deals, self.over),
        }


async def match_view(lobby: Lobby, code: str, client: str | None, cache: ReplayCache) -> dict[str, Any] | Replay:
    """``GET /api/matches/{code}``: a match in memory (its sheet is kept deal by deal: :meth:`MatchHall.sheet`),
    or a finished one from its stored record — replayed once, on a thread (:class:`..replays.api.ReplayCache`:
    a 16-deal, 8-deck match is seconds of the engine), and served as the same bytes after.  Each answer is
    one of ``client``'s reads (:mod:`.reads`)."""
    hall = lobby.halls.get(code, MatchHall)
    if hall is not None:
        if client is not None:
            lobby.reader.admit(client)
        return hall.public()
    key = ("match", code.upper())
    found = cache.get(key)
    if found is not None:
        if client is not None:
            lobby.reader.admit(client)
        return found
    store = lobby.writer.store
    info = await lobby.reader.call(client, store.table_info, code.upper())
    if info is None or info["config"].get("kind") != MATCH_KIND or info["status"] != "over":
        raise RequestError(404, f"no match {code!r}")
    games = await lobby.reader.call(None, store.table_games, info["code"])
    final = [g for g in games or [] if g["kind"] == MATCH_KIND and g["deal"] is None]
    body = await lobby.reader.call(None, store.record, final[-1]["id"]) if final else None
    if body is None:
        raise RequestError(404, f"match {code!r} has no stored record")
    return await cache.make(key, functools.partial(stored_view, info, body), keep=True)


# ------------------------------------------------------------------------------------------ creating one


def _seat_bots(req: S.CreateMatch, teams: list[str]) -> list[list[str | None]]:
    """The bots of both tables, seat by seat: ``bots`` is two lists of six (table 1, table 2), or an object
    team name → bot name (the bot stands in for the whole team)."""
    bots = req.bots
    if bots is None:
        return [[None] * SEATS, [None] * SEATS]
    if isinstance(bots, dict):
        return [[bots.get(teams[team_at(t, s)]) for s in range(SEATS)] for t in (0, 1)]
    return [list(bots[0]), list(bots[1])]


def parse_match_request(
    data: Any,
    default_turn: float | None,
    default_bot_delay: float,
    default_ready: float | None,
    seeds: Callable[[], int] | None = None,
) -> tuple[list[str], list[TableConfig]]:
    """Validate ``POST /api/matches`` (:class:`.schemas.CreateMatch`): the two teams and the configuration of
    each table (one seed: the first table's, of ``seeds`` when given)."""
    req = S.body(S.CreateMatch, data)
    teams = check_teams(req.teams)  # (checked by the schema: their names trimmed)
    base = {k: v for k, v in data.items() if k in S.TableSettings.__struct_fields__}
    configs = []
    for bots in _seat_bots(req, teams):
        request = {**base, "preset": req.preset, "set_length": req.deals, "bots": bots}
        config = parse_table_request(request, default_turn, default_bot_delay, default_ready)
        configs.append(config if seeds is None else dataclasses.replace(config, seed=seeds()))
    seed = configs[0].seed  # both tables deal the same cards
    return teams, [dataclasses.replace(c, seed=seed) for c in configs]


async def create_match(
    lobby: Lobby, data: Any, event: MatchesEvent | None = None, fixture: str | None = None, client: str = ""
) -> tuple[MatchHall, dict[str, Any]]:
    """``POST /api/matches``: a new match with its two tables; answers its code, the organiser's secret
    token, a join code per team and per table.  ``client`` (the address asking — for an event's match, its
    organiser's) is limited as for tables (:meth:`.lobby.Lobby.admit`: its two tables count toward the
    client's caps, and the event's)."""
    st = lobby.settings
    teams, configs = parse_match_request(data, st.turn_seconds, st.bot_delay, st.ready_seconds, st.seeds)
    key = lobby.admit(client, 2, None if event is None else (event.code, event.open_tables(lobby.halls)))
    codes: list[str] = []
    while len(codes) < 3:
        code = await lobby.new_code()
        if code not in codes:
            codes.append(code)
    code, table_codes = codes[0], codes[1:]
    owner = new_token()
    info = {
        "kind": MATCH_KIND,
        "teams": teams,
        "team_codes": [st.shard.new_code(TEAM_CODE_LENGTH) for _ in range(2)],
        "tables": table_codes,
        "deals": configs[0].set_length,
        "preset": configs[0].preset,
        "event": None if event is None else event.code,
        "fixture": fixture,
    }
    store = lobby.writer.store
    hall_id = await lobby.writer.call(store.create_table, code, info, token_hash(owner), key)
    hall = MatchHall(hall_id, code, info, lobby.writer, token_hash(owner))
    rooms = []
    for t, tcode in enumerate(table_codes):
        config = DuplicateConfig(**{f.name: getattr(configs[t], f.name) for f in dataclasses.fields(TableConfig)})
        config = dataclasses.replace(config, table=t, match=code)
        nobody = token_hash(new_token())  # a table of a match is not closed on its own
        table_id = await lobby.writer.call(store.create_table, tcode, config.to_dict(), nobody, key)
        rooms.append(DuplicateRoom(table_id, tcode, config, nobody, lobby.writer, st))
    hall.join_tables(rooms)
    hall.event = event
    hall.on_finished = lobby.hall_finished
    lobby.halls.add(hall)
    for room in rooms:
        lobby.keep(room, key, let_go_when_over=False)
    for room in rooms:
        if not any(s.bot is None for s in room.seats):
            room.commit("start")
    await lobby.writer.drain()
    return hall, {"code": code, "owner_token": owner, **_codes(hall), "match": hall.public()}


def _codes(hall: MatchHall) -> dict[str, Any]:
    return {
        "team_codes": [{"team": name, "code": c} for name, c in zip(hall.teams, hall.team_codes(), strict=True)],
        "table_codes": [{"table": r.table_index, "code": r.code} for r in hall.tables],
    }


def _organiser(hall: MatchHall, data: Any, what: str) -> None:
    """A 403 unless ``data`` carries the ``owner_token`` of the match's organiser (an event's match: the
    event's organiser's too)."""
    token = data.get("owner_token") if isinstance(data, dict) else None
    owners = [hall.owner_hash] + ([hall.event.owner_hash] if hall.event is not None else [])
    if not isinstance(token, str) or not any(hmac.compare_digest(token_hash(token), h) for h in owners if h):
        raise RequestError(403, f"only the match's organiser can {what}")


async def team_codes(lobby: Lobby, code: str, data: Any) -> dict[str, Any]:
    """``POST /api/matches/{code}/codes`` with ``owner_token``: the organiser reads the teams' join codes
    (and the tables'); with ``rotate`` (0 or 1, a team) that team's code is replaced first — the old one
    stops working at once.  Anyone else gets a 403, which says nothing of the codes."""
    hall = match_of(lobby, code)
    _organiser(hall, data, "read its join codes")
    rotate = data.get("rotate")
    if rotate is not None:
        if isinstance(rotate, bool) or rotate not in (0, 1):
            raise RequestError(400, "rotate must be 0 or 1 (a team), or left out")
        if hall.over or hall.finishing:
            raise RequestError(409, "the match is over")
        op = hall.rotate(rotate, lobby.settings.shard.new_code(TEAM_CODE_LENGTH))
        await lobby.writer.call(lobby.writer.store.write_batch, [op])
    return {"code": hall.code, **_codes(hall)}


async def close_match(lobby: Lobby, code: str, data: Any) -> dict[str, Any]:
    """``POST /api/matches/{code}/close`` with ``owner_token``: its organiser (an event's match: the event's)
    closes a match that has not ended — both tables; in an event, its fixture may be started again."""
    hall = match_of(lobby, code)
    _organiser(hall, data, "close it")
    if hall.over or hall.finishing:
        raise RequestError(409, "the match is over")
    lobby.close_hall(hall, "organiser", "closed by its organiser")
    await lobby.writer.drain()
    return {"code": hall.code, "closed": True}


def match_of(lobby: Lobby, code: str) -> MatchHall:
    hall = lobby.halls.get(code, MatchHall)
    if hall is None:
        raise RequestError(404, f"no match {code!r}")
    return hall


async def join_team(
    lobby: Lobby, team_code: str, req: S.JoinTeam, client: str = "", account: str | None = None
) -> dict[str, Any]:
    """``POST /api/teams/{code}/join``: take a free seat of the team (at either table, or the ``table`` and
    ``seat`` asked for); answers the table's code, the seat and its secret token."""
    found = [(h, t) for h in lobby.halls.all(MatchHall) if (t := h.team_of(team_code)) is not None]
    if not found:
        raise RequestError(404, "no such team code")  # (nothing said of the code: it may be a guess)
    hall, team = found[0]
    me = S.name_key(req.name)
    seated = [(r, s.index) for r in hall.tables for s in r.seats if s.nickname and S.name_key(s.nickname) == me]
    if seated:  # one person plays at one table: at the other they would hold the cards their opponents hold here
        r, s = seated[0]
        raise RequestError(409, f"{req.name!r} already sits at table {r.table_index + 1} of this match (seat {s + 1})")
    want_table, want_seat = req.table, req.seat
    free = [
        (r, s.index)
        for r in hall.tables
        for s in r.seats
        if team_at(r.table_index, s.index) == team and s.bot is None and s.nickname is None
    ]
    chosen = [(r, s) for r, s in free if want_table in (None, r.table_index) and want_seat in (None, s)]
    if want_seat is not None and want_table is not None and team_at(want_table, want_seat) != team:
        raise RequestError(409, f"seat {want_seat} of table {want_table + 1} is not team {hall.teams[team]}'s")
    if not chosen:
        raise RequestError(409, f"no free seat of team {hall.teams[team]}" + (" there" if free else ""))
    room, seat = chosen[0]
    out = await lobby.join(room.code, req.name, seat, client, by_team=True, account=account)
    return {**out, "table": room.table_index, "team": hall.teams[team], "match": hall.code}
