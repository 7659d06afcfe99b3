"""The public hall, quick play, ratings and the leaderboard (issue 43), on real server processes; two shards
sharing one queue on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from gouji.competition.ratings import BOT_RATINGS, LADDER_PAIRS, bot_mu_from_ladder, shown, title

from ..helpers import free_port
from .conftest import wait_serving
from .test_accounts import PASSWORD
from .test_security import Served, serving

FILL = "1"


def _signed_up(server: Served, name: str, client: str) -> httpx.Client:
    http = httpx.Client(base_url=server.base, headers={"X-Forwarded-For": client}, timeout=30)
    r = http.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return http


def _seated(http: httpx.Client, ticket: str, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        out: dict[str, Any] = http.get(f"/api/quickplay/{ticket}").json()
        if out["status"] == "seated":
            return out
        assert time.monotonic() < deadline, f"not seated: {out}"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("hall"), "--quickplay-fill-seconds", FILL, "--bot-delay", "0") as s:
        yield s


def test_quick_play_seats_two_people_together_and_fills_with_bots_after_the_wait(server: Served) -> None:
    a, b = _signed_up(server, "qa", "203.0.113.60"), _signed_up(server, "qb", "203.0.113.61")
    with closing(a), closing(b):
        t0 = time.monotonic()
        ta = a.post("/api/quickplay", json={"preset": "qingdao", "bots": True})
        tb = b.post("/api/quickplay", json={"preset": "qingdao", "bots": True})
        assert ta.status_code == tb.status_code == 202
        sa, sb = _seated(a, ta.json()["ticket"]), _seated(b, tb.json()["ticket"])
        took = time.monotonic() - t0
        print(f"two people seated together in {took:.2f} s (fill after {FILL} s)")
        assert sa["table"] == sb["table"] and sa["seat"] != sb["seat"] and float(FILL) <= took < float(FILL) + 2.0
        table = a.get(f"/api/tables/{sa['table']}").json()
        seats = table["seats"]
        assert sorted(s["nickname"] for s in seats if s["nickname"]) == ["qa", "qb"]
        assert [s["bot"] for s in seats].count("heuristic") == 4 and table["rated"] is True
        assert table["status"] == "playing" and table["config"]["public"] is True
        # the seat's token is the ticket's: it says hello as that seat
        with connect(server.base.replace("http", "ws") + f"/ws/tables/{sa['table']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "v": 1, "token": sa["token"]}))
            frame = json.loads(ws.recv(timeout=10))
            assert frame["type"] == "welcome" and frame["seat"] == sa["seat"]
        # the hall lists it, with its people's titles, within a moment
        deadline = time.monotonic() + 5
        while not any(t["code"] == sa["table"] for t in httpx.get(server.base + "/api/hall").json()["tables"]):
            assert time.monotonic() < deadline, "the hall did not list the table"
            time.sleep(0.2)
        listed = next(t for t in httpx.get(server.base + "/api/hall").json()["tables"] if t["code"] == sa["table"])
        people = [s for s in listed["seats"] if s["account"]]
        assert len(people) == 2 and all(s["title"] == {"level": 1, "zh": "秀才", "en": "Scholar"} for s in people)
        assert listed["free"] == 0 and listed["status"] == "playing"


def test_quick_play_refuses_guests_a_second_ticket_and_others_tickets(server: Served) -> None:
    r = httpx.post(
        server.base + "/api/quickplay", json={"preset": "qingdao"}, headers={"X-Forwarded-For": "203.0.113.62"}
    )
    assert r.status_code == 401
    a, b = _signed_up(server, "qc", "203.0.113.63"), _signed_up(server, "qd", "203.0.113.64")
    with closing(a), closing(b):
        ticket = a.post("/api/quickplay", json={"preset": "heze", "bots": False}).json()["ticket"]
        assert a.post("/api/quickplay", json={"preset": "qingdao"}).status_code == 409
        assert b.get(f"/api/quickplay/{ticket}").status_code == 404  # someone else's
        assert a.post("/api/quickplay", json={"preset": "moon"}).status_code == 400
        time.sleep(float(FILL) + 1)
        assert a.get(f"/api/quickplay/{ticket}").json()["status"] == "waiting"  # no bots: it waits for people
        assert a.delete(f"/api/quickplay/{ticket}").status_code == 204
        assert a.get(f"/api/quickplay/{ticket}").status_code == 404
        assert a.post("/api/quickplay", json={"preset": "heze"}).status_code == 202  # one queue at a time, again


def test_a_blocked_person_is_never_seated_with_its_blocker(server: Served) -> None:
    a, b = _signed_up(server, "qe", "203.0.113.65"), _signed_up(server, "qf", "203.0.113.66")
    with closing(a), closing(b):
        assert a.post("/api/me/blocks", json={"name": "qf"}).json() == {"blocks": ["qf"]}
        assert a.post("/api/me/blocks", json={"name": "nobody"}).status_code == 404
        assert a.get("/api/me").json()["blocks"] == ["qf"]
        ta = a.post("/api/quickplay", json={"preset": "zoucheng"}).json()["ticket"]
        tb = b.post("/api/quickplay", json={"preset": "zoucheng"}).json()["ticket"]
        sa, sb = _seated(a, ta), _seated(b, tb)
        assert sa["table"] != sb["table"]
        r = b.post("/api/reports", json={"table": sa["table"], "name": "qe", "reason": "<b>rude</b>"})
        assert r.status_code == 201 and r.json()["reported"] == "qe"
        assert b.post("/api/reports", json={"table": sa["table"], "name": "nobody"}).status_code == 404


def test_the_hall_lists_public_tables_only_and_names_as_text(server: Served) -> None:
    hostile = "<img src=x onerror=alert(1)>"[:24]
    made = httpx.post(
        server.base + "/api/tables",
        json={"bots": [None] + ["random"] * 5, "public": True, "nickname": hostile},
        headers={"X-Forwarded-For": "203.0.113.67"},
    ).json()
    private = httpx.post(
        server.base + "/api/tables", json={"bots": [None] * 6}, headers={"X-Forwarded-For": "203.0.113.67"}
    ).json()
    deadline = time.monotonic() + 5
    while True:
        hall = httpx.get(server.base + "/api/hall", headers={"X-Forwarded-For": "203.0.113.68"})
        codes = [t["code"] for t in hall.json()["tables"]]
        if made["code"] in codes:
            break
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert private["code"] not in codes and hall.headers["content-type"] == "application/json"
    entry = next(t for t in hall.json()["tables"] if t["code"] == made["code"])
    assert entry["seats"][0]["nickname"] == hostile and entry["seats"][0]["account"] is False
    assert entry["status"] == "playing" and entry["preset"] == "qingdao"
    assert hall.json()["online"] >= 0


# ------------------------------------------------------------------------------------------ ratings


def test_the_bots_fixed_ratings_are_the_ladders() -> None:
    assert abs(bot_mu_from_ladder(*LADDER_PAIRS) - BOT_RATINGS["novice"][0]) < 0.05
    assert BOT_RATINGS["novice"][0] < BOT_RATINGS["heuristic"][0]
    assert shown(25.0, 25.0 / 3) == 1000 and title(1000)["zh"] == "秀才" and title(2300)["en"] == "Champion"


def _auto(base: str, code: str, token: str) -> None:
    """Put the token's seat on 托管 (it then plays itself, connected or not)."""
    with connect(base.replace("http", "ws") + f"/ws/tables/{code}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        seat = json.loads(ws.recv(timeout=10))["seat"]
        ws.send(json.dumps({"type": "auto", "on": True, "token": token}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            frame = json.loads(ws.recv(timeout=10))
            table = frame.get("table") or {}
            if any(s["seat"] == seat and s.get("auto") for s in table.get("seats", [])):
                return
        raise AssertionError("the seat did not go on 托管")


def _play_quick(http: httpx.Client, ticket: str, base: str) -> str:
    seat = _seated(http, ticket)
    _auto(base, seat["table"], seat["token"])
    code: str = seat["table"]
    return code


def test_a_rated_set_is_rated_exactly_once_across_a_kill_9(tmp_path: Path) -> None:
    """Two people quick-play a set with 高手 (on 托管, so it plays itself); the server is killed with SIGKILL
    mid-set and started again; once the set ends each has exactly one rated game, one history entry, and its
    rating moved.  A table with a guest is not rated."""
    server = Served(tmp_path, ["--quickplay-fill-seconds", FILL, "--bot-delay", "0.03", "--turn-seconds", "0"])
    server.start()
    try:
        a, b = _signed_up(server, "ra", "203.0.113.70"), _signed_up(server, "rb", "203.0.113.71")
        with closing(a), closing(b):
            tickets = [h.post("/api/quickplay", json={"preset": "tournament"}).json()["ticket"] for h in (a, b)]
            code = _play_quick(a, tickets[0], server.base)
            _play_quick(b, tickets[1], server.base)
            _until_over = time.monotonic() + 120
            while a.get(f"/api/tables/{code}").json()["deals_over"] < 1:  # (a deal's record stored: mid-set)
                assert time.monotonic() < _until_over, "no deal ended"
                time.sleep(0.1)
            assert a.get(f"/api/tables/{code}").json()["status"] == "playing"
            assert server.proc is not None
            server.proc.kill()  # SIGKILL mid-set; 托管 is stored, so the set plays on by itself after the restart
            server.proc.wait()
            server.start()
            deadline = time.monotonic() + 180
            while a.get(f"/api/tables/{code}").json()["status"] != "over":
                assert time.monotonic() < deadline, "the set did not end"
                time.sleep(0.3)
            for name in ("ra", "rb"):
                profile = a.get(f"/api/players/{name}").json()
                assert profile["rated_games"] == 1 and len(profile["history"]) == 1, profile
                assert profile["rating"] != 1000 and profile["history"][0]["rating"] == profile["rating"]
            # a guest at the table: not rated
            guest = a.post(
                "/api/tables", json={"bots": [None, None] + ["heuristic"] * 4, "nickname": "ra", "turn_seconds": None}
            ).json()
            assert guest["table"]["rated"] is False
            httpx.post(
                server.base + f"/api/tables/{guest['code']}/join",
                json={"nickname": "visitor"},
                headers={"X-Forwarded-For": "198.51.100.9"},
            )
            assert a.get(f"/api/tables/{guest['code']}").json()["rated"] is False
    finally:
        server.stop()


def test_the_leaderboard_lists_by_rating_with_ones_own_place(tmp_path: Path) -> None:
    from gouji.server.storage import AccountRow, RatingRow, open_store

    server = Served(tmp_path, [])
    server.start()
    server.stop()
    store = open_store(server.db)
    now = dt.datetime.now(dt.UTC)
    with store.sessions.begin() as s:
        for i in range(30):
            s.add(AccountRow(id=i + 1, name=f"p{i:02d}", name_key=f"p{i:02d}", password_hash="x", created_at=now))
        s.flush()
        for i in range(30):
            mu, sigma = 20 + i * 0.5, 2.0
            s.add(
                RatingRow(
                    account_id=i + 1,
                    mu=mu,
                    sigma=sigma,
                    ordinal=mu - 3 * sigma,
                    games=i % 10,
                    listed=i % 10 >= 5,
                    updated_at=now,
                )
            )
    store.close()
    server.start()
    try:
        board = httpx.get(server.base + "/api/leaderboard?limit=5").json()
        names = [p["name"] for p in board["players"]]
        assert names == ["p29", "p28", "p27", "p26", "p25"] and board["me"] is None
        ratings = [p["rating"] for p in board["players"]]
        assert ratings == sorted(ratings, reverse=True) and board["players"][0]["title"]["level"] >= 1
        all_listed = httpx.get(server.base + "/api/leaderboard?limit=200").json()["players"]
        assert len(all_listed) == 15 and all(int(p["name"][1:]) % 10 >= 5 for p in all_listed)
    finally:
        server.stop()


def test_equal_ratings_share_a_place_in_the_list_as_in_ones_own(tmp_path: Path) -> None:
    from gouji.server.hall.store import leaderboard
    from gouji.server.storage import AccountRow, RatingRow, open_store

    store = open_store(f"sqlite:///{tmp_path / 'board.db'}")
    now = dt.datetime.now(dt.UTC)
    with store.sessions.begin() as s:
        for i, (name, mu) in enumerate([("a", 30.0), ("b", 28.0), ("c", 28.0), ("d", 26.0)], 1):
            s.add(AccountRow(id=i, name=name, name_key=name, password_hash="x", created_at=now))
            s.flush()
            s.add(RatingRow(account_id=i, mu=mu, sigma=2.0, ordinal=mu - 6, games=9, listed=True, updated_at=now))
    try:
        for me in ("b", "c"):
            board = leaderboard(store, 10, me)
            assert [(p["name"], p["place"]) for p in board["players"]] == [("a", 1), ("b", 2), ("c", 2), ("d", 4)]
            assert board["me"]["place"] == 2
        assert leaderboard(store, 10, "d")["me"]["place"] == 4
    finally:
        store.close()


def test_two_shards_share_one_quick_play_queue(db_url: str, tmp_path: Path) -> None:
    """On PostgreSQL, one person queueing on shard 1 and one on shard 2 meet at one table."""
    if not db_url.startswith("postgres"):
        pytest.skip("shards share PostgreSQL")
    env = {**os.environ, "GOUJI_SECRET_FILE": str(tmp_path / "gouji.secret")}
    procs, bases = [], []
    try:
        for i in (1, 2):
            port = free_port()
            log = tmp_path / f"shard{i}.log"
            cmd = [sys.executable, "-m", "gouji.server.serve", "--port", str(port), "--database-url", db_url]
            cmd += ["--shard", f"{i}/2", "--quickplay-fill-seconds", FILL, "--log-level", "warning", "--no-access-log"]
            with log.open("ab") as out:
                procs.append(subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env))
            bases.append(f"http://127.0.0.1:{port}")
            wait_serving(procs[-1], bases[-1], log)
        one = httpx.Client(base_url=bases[0], timeout=30)
        two = httpx.Client(base_url=bases[1], timeout=30)
        with one, two:
            assert one.post("/api/accounts", json={"name": "s1", "password": PASSWORD}).status_code == 201
            assert two.post("/api/accounts", json={"name": "s2", "password": PASSWORD}).status_code == 201
            t1 = one.post("/api/quickplay", json={"preset": "qingdao"}).json()["ticket"]
            t2 = two.post("/api/quickplay", json={"preset": "qingdao"}).json()["ticket"]
            s1, s2 = _seated(one, t1), _seated(two, t2)
            assert s1["table"] == s2["table"]
            # either shard lists it in the hall
            deadline = time.monotonic() + 5
            while not all(
                any(t["code"] == s1["table"] for t in c.get("/api/hall").json()["tables"]) for c in (one, two)
            ):
                assert time.monotonic() < deadline
                time.sleep(0.2)
    finally:
        for p in procs:
            p.terminate()
            p.wait(timeout=30)


def test_a_duplicate_match_is_rated_by_its_comparison(tmp_path: Path) -> None:
    """A match of one signed-in person (team Red, table 1, on 托管) and eleven 高手: rated once it ends, by the
    teams' small points over both tables (the person's rating moves, its history has one entry)."""
    with serving(tmp_path, "--bot-delay", "0") as server:
        http = _signed_up(server, "dm", "203.0.113.80")
        with closing(http):
            bots = [[None] + ["heuristic"] * 5, ["heuristic"] * 6]
            body = {"teams": ["Red", "Blue"], "bots": bots, "deals": 1, "turn_seconds": None}
            match = http.post("/api/matches", json=body).json()
            red = match["team_codes"][0]["code"]
            seat = http.post(f"/api/teams/{red}/join", json={"nickname": "dm", "table": 0, "seat": 0}).json()
            assert http.get(f"/api/tables/{seat['code']}").json()["rated"] is True
            _auto(server.base, seat["code"], seat["token"])
            deadline = time.monotonic() + 120
            while http.get(f"/api/matches/{match['code']}").json()["status"] != "over":
                assert time.monotonic() < deadline, "the match did not end"
                time.sleep(0.3)
            sheet = http.get(f"/api/matches/{match['code']}").json()
            profile = http.get("/api/players/dm").json()
            assert profile["rated_games"] == 1 and len(profile["history"]) == 1
            x, y = sheet["totals"]
            result = "won" if x > y else "lost" if x < y else "drawn"
            print(f"Red {x}:{y} ({result}): rating {profile['rating']}")
            assert profile["stats"]["total"]["matches"][result] == 1 and profile["rating"] != 1000
