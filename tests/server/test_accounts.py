"""Accounts (issue 42) on real server processes: signing up, in and out, sessions in a cookie, seats that
belong to an account and are taken back on another device, throttles and refusals that say nothing of who
exists, deletion, and the operator's command.  (The flow on PostgreSQL too: the in-process test at the end.)"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from websockets.sync.client import connect

from gouji.cli import main

from .test_security import Served, serving

PASSWORD = "correct horse"


@contextmanager
def device(server: Served, client: str = "203.0.113.50") -> Iterator[httpx.Client]:
    """A browser: its own cookies, from ``client``'s address (named to the trusted proxy)."""
    with httpx.Client(base_url=server.base, headers={"X-Forwarded-For": client}, timeout=30) as http:
        yield http


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("accounts"), "--bot-delay", "0") as s:
        yield s


def test_sign_up_in_and_out_with_a_session_cookie(server: Served) -> None:
    with device(server) as a:
        assert a.get("/api/me").status_code == 401
        r = a.post("/api/accounts", json={"name": "  阿明 ", "password": PASSWORD})
        assert r.status_code == 201 and r.json()["name"] == "阿明", r.text
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("gouji_session=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert "Path=/" in cookie and "Max-Age=2592000" in cookie and "Secure" not in cookie  # (plain HTTP here)
        token = a.cookies["gouji_session"]
        assert len(token) >= 40
        me = a.get("/api/me").json()
        assert me["name"] == "阿明" and me["seats"] == []
        # the same name, folded, is taken; a guest's nickname is not a name anyone owns
        for taken in ("阿明", "  阿明"):
            r = a.post("/api/accounts", json={"name": taken, "password": PASSWORD})
            assert r.status_code == 409 and "taken" in r.json()["error"]
        assert a.delete("/api/session").status_code == 204
        assert a.get("/api/me").status_code == 401
    with device(server) as b:  # the old cookie, sent again, is no session
        b.cookies.set("gouji_session", token)
        assert b.get("/api/me").status_code == 401
        b.cookies.set("gouji_session", "forged" * 8)
        assert b.get("/api/me").status_code == 401
        b.cookies.clear()
        r = b.post("/api/session", json={"name": "阿明", "password": PASSWORD})
        assert r.status_code == 200 and b.cookies["gouji_session"] != token
        assert b.get("/api/me").json()["name"] == "阿明"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"name": "x", "password": PASSWORD}, "name must be 2-16 characters"),
        ({"name": "a" * 17, "password": PASSWORD}, "name must be 2-16 characters"),
        ({"name": "a\u200bb", "password": PASSWORD}, "no control, invisible"),
        ({"name": "a\nb", "password": PASSWORD}, "no control, invisible"),
        ({"name": "ann", "password": "short"}, "password must be 8-256 characters"),
        ({"name": "ann", "password": 12345678}, "password"),
        ({"name": "ann"}, "password"),
        ({"name": "ann", "password": PASSWORD, "admin": True}, "unknown fields: admin"),
    ],
)
def test_an_ill_formed_sign_up_is_a_400_naming_the_field(server: Served, body: Any, words: str) -> None:
    with device(server, "203.0.113.51") as a:
        r = a.post("/api/accounts", json=body)
        assert r.status_code == 400 and words in r.json()["error"], r.text
        assert "set-cookie" not in r.headers


def test_a_seat_belongs_to_its_account_and_is_taken_back_on_another_device(server: Served) -> None:
    with device(server, "203.0.113.52") as phone, device(server, "198.51.100.52") as laptop:
        phone.post("/api/accounts", json={"name": "Bea", "password": PASSWORD})
        table = phone.post(
            "/api/tables", json={"bots": [None] + ["random"] * 5, "nickname": "Bea", "turn_seconds": None}
        ).json()
        code, token = table["code"], table["token"]
        assert table["table"]["seats"][0]["account"] is True
        # a guest with the same nickname elsewhere is a guest: the table shows which is which
        guest = httpx.post(
            server.base + "/api/tables",
            json={"bots": [None] + ["random"] * 5, "nickname": "Bea"},
            headers={"X-Forwarded-For": "198.51.100.99"},
        ).json()
        assert guest["table"]["seats"][0]["account"] is False
        laptop.post("/api/session", json={"name": "bea", "password": PASSWORD})
        seats = laptop.get("/api/me").json()["seats"]
        assert [(s["code"], s["seat"]) for s in seats] == [(code, 0)]
        assert laptop.post(f"/api/tables/{guest['code']}/reclaim").status_code == 404  # not the account's seat
        taken = laptop.post(f"/api/tables/{code}/reclaim").json()
        assert taken["seat"] == 0 and taken["token"] != token
        ws = server.base.replace("http", "ws") + f"/ws/tables/{code}"
        for old, welcome in ((token, False), (taken["token"], True)):
            with connect(ws, open_timeout=10) as c:
                c.send(json.dumps({"type": "hello", "v": 1, "token": old}))
                frame = json.loads(c.recv(timeout=10))
                assert (frame["type"] == "welcome" and frame["seat"] == 0) is welcome, frame
        # someone else signed in takes nothing back
        with device(server, "198.51.100.53") as other:
            other.post("/api/accounts", json={"name": "Cid", "password": PASSWORD})
            assert other.post(f"/api/tables/{code}/reclaim").status_code == 404
        assert httpx.post(server.base + f"/api/tables/{code}/reclaim").status_code == 401


def test_a_guest_who_signs_up_keeps_the_seat_this_browser_holds(server: Served) -> None:
    with device(server, "203.0.113.54") as a:
        table = a.post(
            "/api/tables", json={"bots": [None] + ["random"] * 5, "nickname": "dee", "turn_seconds": None}
        ).json()
        assert table["table"]["seats"][0]["account"] is False
        a.post("/api/accounts", json={"name": "Dee", "password": PASSWORD})
        assert a.post("/api/me/seats", json={"code": table["code"], "token": "nope"}).status_code == 403
        r = a.post("/api/me/seats", json={"code": table["code"], "token": table["token"]})
        assert r.status_code == 200 and r.json()["seat"] == 0
        assert [s["code"] for s in a.get("/api/me").json()["seats"]] == [table["code"]]
        assert a.get(f"/api/tables/{table['code']}").json()["seats"][0]["account"] is True


def test_wrong_passwords_are_throttled_and_say_nothing_of_who_exists(server: Served) -> None:
    with device(server, "203.0.113.55") as a:
        a.post("/api/accounts", json={"name": "Eve", "password": PASSWORD})
    known: list[float] = []
    unknown: list[float] = []
    for i in range(5):  # the name's five wrong passwords, each from its own address (the client's own limit aside)
        for name, times in (("Eve", known), ("Nobody", unknown)):
            t0 = time.perf_counter()
            r = httpx.post(
                server.base + "/api/session",
                json={"name": name, "password": "wrong guess"},
                headers={"X-Forwarded-For": f"192.0.2.{i}"},
            )
            times.append(time.perf_counter() - t0)
            assert r.status_code == 401 and r.json() == {"error": "wrong name or password"}, r.text
    ratio = statistics.median(known) / statistics.median(unknown)
    print(f"wrong password {statistics.median(known):.3f} s, unknown name {statistics.median(unknown):.3f} s")
    assert 0.5 < ratio < 2.0, (known, unknown)
    for name in ("Eve", "Nobody"):  # the sixth: throttled alike, the right password too
        r = httpx.post(
            server.base + "/api/session",
            json={"name": name, "password": PASSWORD},
            headers={"X-Forwarded-For": "192.0.2.99"},
        )
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1, r.text
    # a client signs in only so often, whatever the names
    statuses = [
        httpx.post(
            server.base + "/api/session",
            json={"name": f"n{i}", "password": "wrong guess"},
            headers={"X-Forwarded-For": "192.0.2.200"},
        ).status_code
        for i in range(12)
    ]
    assert statuses[:10] == [401] * 10 and statuses[-1] == 429, statuses
    # and signs up only so often
    with device(server, "192.0.2.201") as b:
        made = [b.post("/api/accounts", json={"name": f"new{i}", "password": PASSWORD}).status_code for i in range(4)]
    assert made == [201, 201, 201, 429], made


def test_password_change_sign_out_everywhere_and_deletion(server: Served) -> None:
    with device(server, "203.0.113.56") as a, device(server, "198.51.100.56") as b:
        a.post("/api/accounts", json={"name": "Fay", "password": PASSWORD})
        b.post("/api/session", json={"name": "Fay", "password": PASSWORD})
        r = a.post("/api/me/password", json={"password": "wrong guess", "new_password": "another one"})
        assert r.status_code == 401 and a.get("/api/me").status_code == 200
        r = a.post("/api/me/password", json={"password": PASSWORD, "new_password": "short"})
        assert r.status_code == 400 and "new_password" in r.json()["error"]
        assert a.post("/api/me/password", json={"password": PASSWORD, "new_password": "another one"}).status_code == 200
        assert a.get("/api/me").status_code == 200 and b.get("/api/me").status_code == 401  # the other session ended
        b.post("/api/session", json={"name": "Fay", "password": "another one"})
        assert a.delete("/api/session?everywhere=1").status_code == 204
        assert b.get("/api/me").status_code == 401
        b.post("/api/session", json={"name": "Fay", "password": "another one"})
        assert b.request("DELETE", "/api/me", json={"password": "wrong guess"}).status_code == 401
        assert b.request("DELETE", "/api/me", json={"password": "another one"}).status_code == 204
        assert b.get("/api/me").status_code == 401
        assert b.post("/api/session", json={"name": "Fay", "password": "another one"}).status_code == 401
        assert httpx.get(server.base + "/api/players/Fay").status_code == 404
        # its name is held a while: nobody takes it at once
        assert b.post("/api/accounts", json={"name": "fay", "password": PASSWORD}).status_code == 409


def test_the_operator_disables_enables_and_resets_an_account(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        with device(server) as a:
            a.post("/api/accounts", json={"name": "Gus", "password": PASSWORD})
        db = server.db

        def gouji(*args: str) -> Any:
            return CliRunner().invoke(main, ["accounts", *args, "--database-url", db])

        listed = gouji("list")
        assert listed.exit_code == 0 and "Gus\t" in listed.output and "1 accounts" in listed.output
        assert gouji("disable", "nobody").exit_code != 0
        assert gouji("disable", "gus").exit_code == 0
        time.sleep(0.1)
        with device(server) as a:
            r = a.post("/api/session", json={"name": "Gus", "password": PASSWORD})
            assert r.status_code == 403 and "disabled" in r.json()["error"]
        assert gouji("enable", "Gus").exit_code == 0
        reset = gouji("reset-password", "Gus")
        temp = reset.output.split("temporary password ")[1].split()[0]
        with device(server) as a:
            assert a.post("/api/session", json={"name": "Gus", "password": PASSWORD}).status_code == 401
            assert a.post("/api/session", json={"name": "Gus", "password": temp}).status_code == 200
        log = server.log.read_text()
        assert PASSWORD not in log and temp not in log and "gouji_session" not in log


def test_accounts_on_every_database(make_server: Any) -> None:
    """The same flow in process, on SQLite and (in CI) PostgreSQL."""
    with make_server() as srv:
        c = srv.client
        assert c.post("/api/accounts", json={"name": "Hal", "password": PASSWORD}).status_code == 201
        table = c.post("/api/tables", json={"bots": [None] + ["random"] * 5, "nickname": "Hal"}).json()
        assert c.get("/api/me").json()["seats"][0]["code"] == table["code"]
        assert c.delete("/api/session").status_code == 204
        assert c.post("/api/session", json={"name": "HAL", "password": PASSWORD}).status_code == 200
        assert c.get("/api/players/hal").json()["name"] == "Hal"
        assert c.get("/api/players/nobody").status_code == 404


def _play_a_set(server: Served, http: httpx.Client, name: str, preset: str) -> str:
    """A set of two deals with five bots, the signed-in ``name`` on 托管 in seat 0: its table's code."""
    body = {"bots": [None] + ["heuristic"] * 5, "nickname": name, "turn_seconds": None, "set_length": 2}
    table = http.post("/api/tables", json={**body, "preset": preset}).json()
    with connect(server.base.replace("http", "ws") + f"/ws/tables/{table['code']}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": table["token"]}))
        ws.send(json.dumps({"type": "auto", "on": True, "token": table["token"]}))
        deadline = time.monotonic() + 120
        while http.get(f"/api/tables/{table['code']}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the set did not end"
            time.sleep(0.2)
    code: str = table["code"]
    return code


def test_statistics_add_up_to_the_records_and_survive_a_restart_and_a_restore(tmp_path: Path) -> None:
    """The profile's statistics, added to as each record is stored, equal a recomputation from the stored
    records themselves (the whole set replayed), by preset and in total — and stay so after a restart and in a
    database restored from a backup."""
    from gouji.competition.stats import merge, record_totals, summary

    with serving(tmp_path, "--bot-delay", "0") as server, device(server) as http:
        http.post("/api/accounts", json={"name": "Ivy", "password": PASSWORD})
        codes = {preset: _play_a_set(server, http, "Ivy", preset) for preset in ("qingdao", "tournament")}
        expected: dict[str, dict[str, int]] = {}
        for preset, code in codes.items():
            games = http.get(f"/api/tables/{code}/games").json()["games"]
            whole = [g for g in games if g["kind"] == "set"]
            record = http.get(f"/api/records/{whole[0]['id']}").json()
            expected[preset] = record_totals(record)[(0, 0)]
        total = merge(expected["qingdao"], expected["tournament"])
        profile = http.get("/api/players/ivy").json()
        assert profile["stats"]["presets"] == {p: summary(c) for p, c in expected.items()}
        assert profile["stats"]["total"] == summary(total) and profile["stats"]["total"]["deals"] == 4
        assert {g["table"] for g in profile["recent"]} == set(codes.values())
        server.restart()
        assert httpx.get(server.base + "/api/players/Ivy").json()["stats"] == profile["stats"]
        backup = tmp_path / "backup.db"
        assert CliRunner().invoke(main, ["backup", "--to", str(backup), "--database-url", server.db]).exit_code == 0
    restored = f"sqlite:///{tmp_path / 'restored.db'}"
    assert CliRunner().invoke(main, ["restore", str(backup), "--database-url", restored]).exit_code == 0
    again = Served(tmp_path, [])
    again.db = restored
    again.start()
    try:
        assert httpx.get(again.base + "/api/players/Ivy").json()["stats"] == profile["stats"]
    finally:
        again.stop()


def test_the_account_flow_on_a_real_server_on_every_database(db_url: str, tmp_path: Path) -> None:
    """Sign-up, sign-in, a seat taken back on another device, deletion — on a server process, on SQLite and
    (in CI) PostgreSQL."""
    server = Served(tmp_path, ["--bot-delay", "0"])
    server.db = db_url
    server.start()
    try:
        with device(server, "203.0.113.90") as a, device(server, "198.51.100.90") as b:
            assert a.post("/api/accounts", json={"name": "Pat", "password": PASSWORD}).status_code == 201
            table = a.post("/api/tables", json={"bots": [None] + ["random"] * 5, "nickname": "Pat"}).json()
            assert b.post("/api/session", json={"name": "pat", "password": "wrong guess"}).status_code == 401
            assert b.post("/api/session", json={"name": "pat", "password": PASSWORD}).status_code == 200
            assert b.post(f"/api/tables/{table['code']}/reclaim").json()["seat"] == 0
            assert b.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
            assert a.get("/api/me").status_code == 401 and b.get("/api/players/Pat").status_code == 404
    finally:
        server.stop()
