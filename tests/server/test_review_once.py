"""One review of a deal, not two (issue 44): a deal reviewed by its player at the table while the set is played
is the review its records answer once the set is over — at once, from memory and, after a restart, from the
database, never worked out again; and the reviews kept under the keys before migration 0008 get the deal's
key.  On SQLite, and on PostgreSQL when ``GOUJI_TEST_POSTGRES`` names one."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from gouji.server.storage import Store, migrate

from .test_security import Served
from .test_security_review2 import _hello, _until
from .test_storage import at_revision

DEALS = 20
"""The set's deals: enough that it is still played once ann stops her 托管 after the first."""


def _done_at_once(answer: Any, review: dict[str, Any], where: str) -> None:
    """The first answer is the finished review: nothing was started (a review started answers "pending")."""
    assert answer.status_code == 200, (where, answer.text)
    assert answer.json() == {"state": "done", "review": review}, (where, answer.json().get("state"))


def test_a_deal_reviewed_at_the_table_is_its_records_review_once_the_set_is_over(db_url: str, tmp_path: Path) -> None:
    served = Served(tmp_path, ["--bot-delay", "0", "--review-workers", "1"])
    served.db = db_url
    served.start()
    try:
        body = {"bots": [None] + ["random"] * 5, "turn_seconds": None, "set_length": DEALS, "nickname": "ann"}
        me = served.post("/api/tables", body).json()
        code, token = me["code"], me["token"]
        with _hello(served, code, token) as ws:  # 托管 plays ann's seat through the first deal, then she waits
            ws.send(json.dumps({"type": "auto", "on": True, "token": token}))
            _until(lambda: served.get(f"/api/tables/{code}").json()["deals_over"] >= 1, 120, 0.01)
            ws.send(json.dumps({"type": "auto", "on": False, "token": token}))
            time.sleep(0.5)
        assert served.get(f"/api/tables/{code}").json()["status"] == "playing"
        path = f"/api/tables/{code}/deals/0/review"
        review = None
        deadline = time.monotonic() + 120
        while review is None:  # worked out once, at the table
            state = served.post(path, {"token": token}).json()
            review = state["review"] if state["state"] == "done" else None
            assert time.monotonic() < deadline, "the review took too long"
            time.sleep(0.2)
        assert review["seat"] == 0 and review["deal"] == 0 and "table" not in review
        with _hello(served, code, token) as ws:  # the set plays out
            ws.send(json.dumps({"type": "auto", "on": True, "token": token}))
            _until(lambda: served.get(f"/api/tables/{code}").json()["status"] == "over", 120, 0.05)
        _until(lambda: any(g["kind"] == "set" for g in served.get(f"/api/tables/{code}/games").json()["games"]), 20)
        games = served.get(f"/api/tables/{code}/games").json()["games"]
        assert sorted(g["kind"] for g in games) == ["deal"] * DEALS + ["set"], games
        for i, g in enumerate(games):  # each record holds deal 0: the same review, from memory
            ask = served.get(f"/api/records/{g['id']}/deals/0/review?seat=0", client=f"198.51.100.{i + 1}")
            _done_at_once(ask, review, g["kind"])  # (each asked by another client: the reads' limit is per client)
        later = next(g for g in games if g["kind"] == "deal" and g["deal"] == 0)
        r = served.get(f"/api/records/{later['id']}/deals/1/review?seat=0")  # (deal 1 is not in deal 0's record)
        assert r.status_code == 404 and "no finished deal 1" in r.json()["error"], r.text
        served.restart()  # nothing in memory: from the database
        for i, g in enumerate(sorted(games, key=lambda g: g["kind"] != "set")):
            ask = served.get(f"/api/records/{g['id']}/deals/0/review?seat=0", client=f"198.51.100.{i + 101}")
            _done_at_once(ask, review, f"{g['kind']}, kept")
    finally:
        served.stop()


def test_the_reviews_kept_before_0008_are_kept_by_their_deal(db_url: str) -> None:
    """A set's record's review and a table's (the same deal: one stays), a match table's (its match's key, its
    table said) and one of a record that is gone (dropped)."""
    store = Store(db_url)
    try:
        with at_revision(store, "0007") as conn:
            for code, config in [
                ("SETTBL", {}),
                ("MATCH1", {"kind": "match"}),
                ("MTABLE", {"duplicate": {"table": 1, "match": "MATCH1"}}),
            ]:
                conn.execute(
                    sa.text(
                        "INSERT INTO tables (code, config, owner_hash, status, created_at)"
                        " VALUES (:code, :config, 'owner', 'over', CURRENT_TIMESTAMP)"
                    ),
                    {"code": code, "config": json.dumps(config)},
                )
            conn.execute(
                sa.text(
                    "INSERT INTO records (table_id, kind, deal_index, players, body, created_at)"
                    " VALUES (1, 'set', NULL, '[]', '{}', CURRENT_TIMESTAMP)"
                )
            )
            for key, seat in [
                ("record:1:0:None:3", 3),  # set table 1's deal 0, from its record
                ("table:1:0:3", 3),  # the same deal, from the table: one of the two stays
                ("table:1:1:2", 2),
                ("table:3:0:4", 4),  # table 1 of match 2
                ("record:99:0:None:1", 1),  # its record is gone
            ]:
                conn.execute(
                    sa.text("INSERT INTO reviews (key, body, created_at) VALUES (:key, :body, CURRENT_TIMESTAMP)"),
                    {"key": key, "body": json.dumps({"seat": seat, "decisions": []})},
                )
        migrate(store.engine)
        with store.engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT key, body FROM reviews ORDER BY key")).all()
        kept = {key: json.loads(body) if isinstance(body, str) else body for key, body in rows}
        assert kept == {
            "deal:1:0:None:3": {"seat": 3, "decisions": []},
            "deal:1:1:None:2": {"seat": 2, "decisions": []},
            "deal:2:0:1:4": {"seat": 4, "decisions": [], "table": 1},
        }
    finally:
        store.close()
