"""Storage: records of finished deals and sets, the games lists, and a restart mid-set restoring a table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Connection

import gouji.server.storage
from gouji.competition.loading import load_record
from gouji.competition.sets import Match
from gouji.server.storage import Store

from ..helpers import wait_until
from .conftest import drive, play_turn


@contextmanager
def at_revision(store: Store, revision: str) -> Iterator[Connection]:
    """A connection in a transaction on ``store``'s database, migrated up to ``revision`` alone (as an older
    server left it), for a test to write rows as that revision had them."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(gouji.server.storage.__file__).parent.parent / "migrations"))
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        yield conn


BOTS5 = [None, "random", "random", "random", "random", "random"]


def test_a_deals_record_text_is_a_set_record_up_to_that_deal() -> None:
    """What a table stores at each deal's end (``Match.record_text``) loads as the set up to that deal."""
    import random

    from gouji.bots import decide, make_bot

    m = Match("qingdao", seed=11, set_length=3)
    bot, rng = make_bot("random"), random.Random(1)
    while len(m.points) < 2:
        m.act(decide(bot, m.current, rng))
    rec = json.loads(m.record_text(0))
    again = load_record(rec)
    assert isinstance(again, Match) and len(again.deals) == 2 and again.deals[0].is_over
    assert rec["totals"] == list(m.points[0]) and len(rec["deals"]) == 1
    assert load_record(m.record_text(1)).totals == m.totals


def test_finished_deals_and_sets_are_stored_and_served(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(nickname="zoe", set_length=2, turn_seconds=0.05, bot_delay=0, bots=BOTS5)
        code = out["code"]
        room = srv.lobby().rooms[code]
        wait_until(lambda: room.status == "over")
        wait_until(lambda: len(srv.client.get(f"/api/tables/{code}/games").json()["games"]) == 3)
        games = srv.client.get(f"/api/tables/{code}/games").json()["games"]
        assert [(g["kind"], g["deal"]) for g in games] == [("deal", 0), ("deal", 1), ("set", None)]
        assert games[0]["players"][0]["nickname"] == "zoe" and games[0]["players"][1]["bot"] == "random"
        mine = srv.client.get("/api/players/zoe/games").json()["games"]
        assert {g["id"] for g in mine} == {g["id"] for g in games}
        full = srv.client.get(f"/api/records/{games[-1]['id']}").json()
        m = load_record(full)
        assert isinstance(m, Match) and m.is_over and list(m.totals) == games[-1]["totals"]
        assert full == room.match.record()
        first = load_record(srv.client.get(f"/api/records/{games[0]['id']}").json())
        assert first.deals[0].is_over and first.deals[0].result()["places"] == room.match.deals[0].result()["places"]
        assert srv.client.get(f"/api/tables/{code}").json()["status"] == "over"


def test_records_of_a_set_in_progress_are_not_served(make_server: Any) -> None:
    """A record holds the set's seed, from which every later deal of the set follows."""
    with make_server() as srv:
        out = srv.create(nickname="zoe", set_length=3, turn_seconds=0.05, bot_delay=0, bots=BOTS5)
        code = out["code"]
        room = srv.lobby().rooms[code]
        wait_until(lambda: len(room.match.points) >= 1)
        srv.client.post(f"/api/tables/{code}/leave", json={"token": out["token"]})
        games: list[dict[str, Any]] = []

        def listed() -> bool:
            games[:] = srv.client.get(f"/api/tables/{code}/games").json()["games"]
            return bool(games)

        wait_until(listed)
        # the status as the API answers it (stored: the room's own may be ahead of its last commit)
        if srv.client.get(f"/api/tables/{code}").json()["status"] != "over":
            r = srv.client.get(f"/api/records/{games[0]['id']}")
            assert r.status_code == 403 and "over" in r.json()["error"]
            srv.client.post(f"/api/tables/{code}/close", json={"owner_token": out["owner_token"]})
        r = srv.client.get(f"/api/records/{games[0]['id']}")
        assert r.status_code == 200 and load_record(r.json()).deals[0].is_over


def test_a_restart_mid_set_restores_the_table(make_server: Any, db_url: str) -> None:
    with make_server() as srv:
        out = srv.create(nickname="ann", set_length=3, bots=BOTS5)
        code, token = out["code"], out["token"]
        spare = srv.join(code, "bob", expect=409)  # every seat is held
        assert "error" in spare
        room = srv.lobby().rooms[code]
        with srv.connect(code, token) as ann:
            drive({0: ann}, lambda: len(room.match.deals) >= 2 and room.match.current.decisions >= 5)
            # seat 0 has no timer: once it is asked to choose, the table stands still
            wait_until(lambda: room.window is not None and 0 in room.window.asked)
        state, record = room.state, room.match.record()
        hand0 = room.match.current.hand(0)
        games_before = srv.client.get(f"/api/tables/{code}/games").json()["games"]
        assert [g["kind"] for g in games_before] == ["deal"] * len(room.match.points)
        assert [g["deal"] for g in games_before] == list(range(len(room.match.points)))
    # the same database, a new server
    with make_server() as srv2:
        room2 = srv2.lobby().rooms[code]
        assert room2.state == state and room2.status == "playing"
        assert room2.match.record() == record
        assert room2.match.current.hand(0) == hand0
        assert srv2.client.get(f"/api/tables/{code}").json()["state"] == state
        assert srv2.client.get(f"/api/tables/{code}/games").json()["games"] == games_before
        with srv2.connect(code, token) as ann:
            full = ann.frames[1]
            assert full["state"] == state and full["view"]["hand"] == hand0
            assert full["view"]["log"] == room2.match.current.view(0)["log"]
            assert full["table"]["seats"][0]["nickname"] == "ann"
            # the token still holds the seat, and play goes on
            f = play_turn(ann, 0)
            nxt = ann.until(lambda fr: fr["type"] == "state" and fr["state"] > f["state"])
            assert any(e["type"] == "act" and e["seat"] == 0 for e in nxt["events"])
            wait_until(lambda: room2.window is not None and 0 in room2.window.asked)
        state2 = room2.state
    # and once more: the actions taken after the first restart were stored too
    with make_server() as srv3:
        assert srv3.lobby().rooms[code].state == state2
        srv3.client.post(f"/api/tables/{code}/close", json={"owner_token": out["owner_token"]})
    with make_server() as srv4:
        assert code not in srv4.lobby().rooms  # closed tables are not restored
        assert srv4.client.get(f"/api/tables/{code}").json()["status"] == "closed"


def test_migrations_are_idempotent_and_tokens_are_stored_hashed(db_url: str, make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(nickname="ann", bots=BOTS5)
    store = Store(db_url)
    try:
        store.migrate()
        store.migrate()
        (table,) = store.open_tables()
        assert table.code == out["code"]
        blob = str(table.config) + str(table.events) + table.owner_hash
        assert out["token"] not in blob and out["owner_token"] not in blob
        assert any(e["kind"] == "join" and len(e["data"]["token_hash"]) == 64 for e in table.events)
    finally:
        store.close()


def test_a_changes_writes_are_one_transaction(db_url: str) -> None:
    """The event of a deal's last move and its record go in together or not at all."""
    import pytest
    from sqlalchemy.exc import IntegrityError

    from gouji.server.storage import EventOp, RecordOp, StatusOp

    store = Store(db_url)
    store.migrate()
    table_id = store.create_table("ABCDEF", {"x": 1}, "owner")
    with pytest.raises(IntegrityError):  # the record names no table: the whole batch is refused
        store.write_batch([EventOp(table_id, 1, "act", 0, {}), RecordOp(table_id + 99, "deal", 0, [], {})])
    assert store.open_tables()[0].events == [] and store.table_games("ABCDEF") == []
    store.write_batch(
        [EventOp(table_id, 1, "act", 0, {}), RecordOp(table_id, "deal", 0, [], {}), StatusOp(table_id, "over")]
    )
    assert store.open_tables() == [] and len(store.table_games("ABCDEF") or []) == 1
    store.close()


def test_a_database_of_the_first_schema_is_upgraded_to_one_index_on_events(db_url: str) -> None:
    """Revision 0002 drops the index on ``table_events.table_id`` alone (the unique (table_id, state) index
    finds a table's events): a database made by 0001, with its events, upgrades and keeps them."""
    import sqlalchemy as sa

    from gouji.server.storage import EventOp, migrate

    store = Store(db_url)
    try:
        with at_revision(store, "0001") as conn:
            # (the row as 0001 has it: today's model has columns that revision lacks)
            conn.execute(
                sa.text(
                    "INSERT INTO tables (code, config, owner_hash, status, created_at)"
                    " VALUES ('ABCDEF', '{\"x\": 1}', 'owner', 'open', CURRENT_TIMESTAMP)"
                )
            )
            table_id = conn.execute(sa.text("SELECT id FROM tables")).scalar_one()
        store.write_batch([EventOp(table_id, n, "act", 0, {"action": "pass"}) for n in (1, 2)])

        def indexes() -> set[str]:
            return {str(i["name"]) for i in sa.inspect(store.engine).get_indexes("table_events")}

        assert "ix_table_events_table_id" in indexes()
        migrate(store.engine)
        assert "ix_table_events_table_id" not in indexes()
        assert [e["state"] for e in store.open_tables()[0].events] == [1, 2]
        with pytest.raises(sa.exc.IntegrityError):  # the unique index is still there
            store.write_batch([EventOp(table_id, 2, "act", 0, {"action": "pass"})])
    finally:
        store.close()


def _checkouts(store: Store) -> list[str]:
    """Each connection the store's pool hands out ("out") and takes back ("in"), from now on, in order."""
    import sqlalchemy as sa

    seen: list[str] = []
    sa.event.listen(store.engine, "checkout", lambda *_: seen.append("out"))
    sa.event.listen(store.engine, "checkin", lambda *_: seen.append("in"))
    return seen


def _table_with_groups(store: Store, groups: int) -> tuple[int, list[str]]:
    """A new table in a migrated ``store`` and ``groups`` groups of one event each written for it, one by one:
    the table's id and what the pool handed out and took back while they were written (:func:`_checkouts`)."""
    from gouji.server.storage import EventOp

    store.migrate()
    table_id = store.create_table("ABCDEF", {"x": 1}, "owner")
    seen = _checkouts(store)
    for n in range(1, groups + 1):
        store.write_batch([EventOp(table_id, n, "act", 0, {"action": "pass"})])
    return table_id, seen


def test_groups_of_events_in_a_row_are_written_on_the_connection_of_the_group_before(db_url: str) -> None:
    """A group of events alone goes on the connection the last one went on: the pool checks a connection it
    hands out (on PostgreSQL a round trip to the server), which every group would otherwise wait for."""
    store = Store(db_url)
    try:
        _, seen = _table_with_groups(store, 5)
        assert seen == ["out"]  # one connection for the five groups, still kept
        assert [e["state"] for e in store.open_tables()[0].events] == [1, 2, 3, 4, 5]
        store.close()
        assert seen[-1] == "in"  # closing the store gives the kept connection back
    finally:
        store.close()


def test_a_group_after_a_long_pause_takes_a_checked_connection(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept connection idle for longer than ``KEEP_WRITING_CONNECTION`` (a database or a proxy may have
    closed it) goes back to the pool, and the group takes one the pool checks."""
    monkeypatch.setattr(gouji.server.storage.store, "KEEP_WRITING_CONNECTION", 0.0)
    store = Store(db_url)
    try:
        _, seen = _table_with_groups(store, 3)
        assert seen == ["out", "in", "out", "in", "out"]
        assert [e["state"] for e in store.open_tables()[0].events] == [1, 2, 3]
    finally:
        store.close()


def test_a_kept_connection_the_database_dropped_costs_one_try_and_nothing_else(db_url: str) -> None:
    """The database drops the kept connection (PostgreSQL: its backend terminated; SQLite: the driver's
    connection closed): the next group fails once, the writer's retry stores it on a new connection, and no
    event is lost or written twice."""
    import sqlalchemy as sa

    from gouji.server.storage import EventOp
    from gouji.server.storage.durability import write_retrying

    store = Store(db_url)
    try:
        table_id, _ = _table_with_groups(store, 1)
        kept = store._writing
        assert kept is not None
        if store.engine.dialect.name == "postgresql":
            cur = kept.cursor()
            cur.execute("SELECT pg_backend_pid()")
            pid = cur.fetchone()[0]
            cur.close()
            kept.commit()
            admin = sa.create_engine(db_url, isolation_level="AUTOCOMMIT")
            try:
                with admin.connect() as c:
                    assert c.execute(sa.text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar() is True
                    gone = "SELECT count(*) FROM pg_stat_activity WHERE pid = :p"
                    wait_until(lambda: c.execute(sa.text(gone), {"p": pid}).scalar() == 0, timeout=10)
            finally:
                admin.dispose()
        else:
            kept.dbapi_connection.close()
        failures: list[Exception] = []

        def failed(exc: Exception, pause: float) -> bool:
            failures.append(exc)
            return len(failures) < 3  # (a connection kept after its failure would fail every try)

        assert write_retrying(store, [EventOp(table_id, 2, "act", 0, {"action": "pass"})], failed)
        assert len(failures) == 1 and isinstance(failures[0], sa.exc.DBAPIError)
        store.write_batch([EventOp(table_id, 3, "act", 0, {"action": "pass"})])
        assert [e["state"] for e in store.open_tables()[0].events] == [1, 2, 3]
    finally:
        store.close()


def test_records_stored_before_the_summaries_get_theirs(db_url: str) -> None:
    """Revision 0004 keeps a narrow table of the records' summaries, which the game lists read (never a
    record's body): the records already stored get theirs."""
    import sqlalchemy as sa

    from gouji.server.storage import migrate

    store = Store(db_url)
    try:
        with at_revision(store, "0003") as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO tables (code, config, owner_hash, status, created_at)"
                    " VALUES ('OLDSET', '{}', 'owner', 'over', CURRENT_TIMESTAMP)"
                )
            )
            conn.execute(
                sa.text(
                    "INSERT INTO records (table_id, kind, deal_index, players, body, created_at)"
                    " VALUES (1, 'set', NULL, :players, :body, CURRENT_TIMESTAMP)"
                ),
                {"players": '[{"seat": 0, "nickname": "ann"}]', "body": '{"totals": [5, -5]}'},
            )
            conn.execute(
                sa.text("INSERT INTO record_players (record_id, nickname, seat, bot) VALUES (1, 'ann', 0, false)")
            )
        migrate(store.engine)
        games = store.player_games("ann")
        assert [(g["table"], g["kind"], g["totals"]) for g in games] == [("OLDSET", "set", [5, -5])]
        assert store.table_games("OLDSET") == games
        # a player's games do not name a table still open: its code would seat whoever found them
        with store.engine.begin() as conn:
            conn.execute(sa.text("UPDATE tables SET status = 'open' WHERE code = 'OLDSET'"))
        assert [g["table"] for g in store.player_games("ann")] == [None]
        assert [g["table"] for g in store.table_games("OLDSET") or []] == ["OLDSET"]
    finally:
        store.close()


def test_a_table_whose_bot_the_server_no_longer_has_is_restored(
    make_server: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A table stored by a server that had a bot, restored by one that does not: the table comes back and
    the auto-play bot plays that seat (before: the table was not restored at all)."""
    from gouji import bots as registry

    with make_server() as srv:
        out = srv.create(nickname="ann", bots=[None, "novice", "random", "novice", "random", "novice"])
        code, token = out["code"], out["token"]
        room = srv.lobby().rooms[code]
        with srv.connect(code, token) as ann:
            drive({0: ann}, lambda: room.match.current.decisions >= 6)
        state = room.state
    monkeypatch.delitem(registry.BOTS, "random")
    with caplog.at_level("WARNING", logger="gouji.server"), make_server() as srv2:
        room2 = srv2.lobby().rooms[code]
        assert room2.state == state and room2.status == "playing"
        assert "seat 2's bot 'random' is not on this server; heuristic plays it" in caplog.text
        with srv2.connect(code, token) as ann:  # and play goes on past the seats of the missing bot
            drive({0: ann}, lambda: room2.match.current.decisions >= 30 or room2.status != "playing")
        assert room2.state > state
