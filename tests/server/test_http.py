"""The HTTP API: creating tables (with validation), joining, leaving, closing, the friends' link."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from gouji.cli import main
from gouji.server.shards import CODE_ALPHABET, CODE_LENGTH

BOTS5 = [None, "random", "random", "random", "random", "random"]


def test_create_table_returns_code_link_and_owner_token(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(preset="tongyong", options={"bie_san": False}, set_length=3, turn_seconds=12, bots=BOTS5)
        code = out["code"]
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
        assert out["link"].endswith(f"/t/{code}")
        assert len(out["owner_token"]) >= 32
        table = srv.client.get(f"/api/tables/{code}").json()
        assert table["status"] == "waiting"
        cfg = table["config"]
        assert cfg["preset"] == "tongyong" and cfg["rules"]["bie_san"] is False and cfg["set_length"] == 3
        assert cfg["turn_seconds"] == 12 and cfg["bots"] == BOTS5
        assert "seed" not in cfg and "seed" not in srv.client.get(f"/api/tables/{code}").text
        assert [s["held"] for s in table["seats"]] == [False, True, True, True, True, True]
        page = srv.client.get(f"/t/{code}", follow_redirects=False)
        assert page.status_code == 307 and page.headers["location"] == f"/?t={code}"
        assert "<html" in srv.client.get("/").text.lower(), "the browser table is served at /"
        assert srv.client.get("/t/ZZZZZZ").status_code == 404
        for path in ("/hall", "/leaderboard", "/quickplay?preset=heze&bots=1"):  # (the page's router reads them)
            assert srv.client.get(path).text == srv.client.get("/").text, path
        # lower-case codes work too
        assert srv.client.get(f"/api/tables/{code.lower()}").json()["code"] == code


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"preset": "nowhere"}, "preset"),
        ({"options": {"no_such_option": True}}, "no rule option"),
        ({"options": {"bie_san": "yes"}}, "bie_san"),
        ({"options": {"luanchan_at": 9}}, "luanchan_at"),
        ({"set_length": 0}, "set_length"),
        ({"set_length": True}, "set_length"),
        ({"turn_seconds": -1}, "turn_seconds"),
        ({"bot_delay": "fast"}, "bot_delay"),
        ({"bots": ["random"]}, "bots"),
        ({"bots": [None, None, None, None, None, "nobody"]}, "no bot"),
        ({"seed": 7}, "unknown fields"),
        # the absurd options of a hostile client: RuleSet refuses each, naming it (no hang, no table that never ends)
        ({"options": {"decks": 1_000_000_000}}, "decks"),
        ({"options": {"decks": 1000}}, "decks"),
        ({"options": {"yaotou_limit": -1}}, "yaotou_limit"),
        ({"options": {"scoring": "nope"}}, "scoring"),
        ({"options": {"place_points": [1]}}, "place_points"),
        ({"options": {"sweep_points": 10**30}}, "sweep_points"),
        ({"options": {"no_three": "maybe"}}, "no_three"),
        ({"options": {"set_length": 0}}, "set_length"),
        ({"nickname": ""}, "nickname"),
    ],
)
def test_create_table_refuses_bad_requests(make_server: Any, body: dict[str, Any], needle: str) -> None:
    with make_server() as srv:
        r = srv.client.post("/api/tables", json=body)
        assert r.status_code == 400, r.text
        assert needle in r.json()["error"]
        assert srv.lobby().rooms == {}


def test_bad_bodies(make_server: Any) -> None:
    with make_server() as srv:
        r = srv.client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 400
        r = srv.client.post("/api/tables", content=b"[" * 20000)
        assert r.status_code == 413
        assert srv.client.post("/api/tables/NOPE12/join", json={"nickname": "a"}).status_code == 404


def test_join_seats_by_nickname_and_refuses_held_seats(make_server: Any) -> None:
    with make_server() as srv:
        code = srv.create(bots=[None, None, "random", "random", "random", "random"])["code"]
        a = srv.join(code, "ann", seat=1)
        assert a["seat"] == 1 and len(a["token"]) >= 32
        assert "taken" in srv.join(code, "bob", seat=1, expect=409)["error"]
        assert "bot" in srv.join(code, "bob", seat=2, expect=409)["error"]
        assert "already" in srv.join(code, "ann", expect=409)["error"]
        srv.join(code, "x" * 40, expect=400)
        srv.join(code, "bob", seat=9, expect=400)
        b = srv.join(code, "bob")
        assert b["seat"] == 0 and b["token"] != a["token"]
        table = srv.client.get(f"/api/tables/{code}").json()
        assert table["status"] == "playing"
        assert [s["nickname"] for s in table["seats"][:2]] == ["bob", "ann"]
        assert a["token"] not in str(table) and b["token"] not in str(table)
        assert "every seat" in srv.join(code, "cat", expect=409)["error"]


def test_creator_can_sit_down_at_once_and_a_table_survives_everyone_leaving(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(nickname="ann", seat=3, bots=[None, None, None, None, None, None])
        code, token = out["code"], out["token"]
        assert out["seat"] == 3
        assert srv.client.post(f"/api/tables/{code}/leave", json={"token": "forged"}).status_code == 403
        r = srv.client.post(f"/api/tables/{code}/leave", json={"token": token})
        assert r.status_code == 200 and r.json()["seat"] == 3
        # the old token no longer holds anything; the table is still there and the seat is free
        assert srv.client.post(f"/api/tables/{code}/leave", json={"token": token}).status_code == 403
        table = srv.client.get(f"/api/tables/{code}").json()
        assert table["status"] == "waiting" and all(not s["held"] for s in table["seats"])
        assert srv.join(code, "bob", seat=3)["seat"] == 3


def test_only_the_creator_closes_a_table(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(bots=BOTS5)
        code = out["code"]
        p = srv.join(code, "ann")
        r = srv.client.post(f"/api/tables/{code}/close", json={"owner_token": p["token"]})
        assert r.status_code == 403
        with srv.connect(code, p["token"]) as ann:
            r = srv.client.post(f"/api/tables/{code}/close", json={"owner_token": out["owner_token"]})
            assert r.status_code == 200 and r.json()["closed"] is True
            closed = ann.until(lambda f: f["type"] == "closed")
            assert closed["table"] == code
        assert srv.client.get(f"/api/tables/{code}").json()["status"] == "closed"
        assert srv.join(code, "bob", expect=404)
        with srv.connect(code, hello=False) as late:
            late.send({"type": "hello", "v": 1})
            assert late.error()["code"] == "no_table"


def test_unknown_record_and_table_games(make_server: Any) -> None:
    with make_server() as srv:
        assert srv.client.get("/api/records/999").status_code == 404
        assert srv.client.get("/api/tables/NOPE12/games").status_code == 404
        assert srv.client.get("/api/players/nobody/games").json() == {"nickname": "nobody", "games": []}


def test_serve_command_is_registered() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for opt in ("--host", "--port", "--database-url"):
        assert opt in result.output


def test_the_real_server_over_loopback(tmp_path: Any) -> None:
    """``python -m gouji.server.serve`` (Uvicorn) answers HTTP and plays over a real WebSocket."""
    import json
    import socket
    import subprocess
    import sys
    import time

    import httpx
    from websockets.sync.client import connect

    from ..helpers import free_port

    port = free_port()
    cmd = [sys.executable, "-m", "gouji.server.serve", "--port", str(port), "--log-level", "warning"]
    cmd += ["--database-url", f"sqlite:///{tmp_path / 'real.db'}", "--turn-seconds", "0", "--bot-delay", "0"]
    server = subprocess.Popen(cmd)
    try:
        end = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < end and server.poll() is None, "the server did not start"
                time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        out = httpx.post(f"{base}/api/tables", json={"nickname": "ann", "bots": BOTS5}).json()
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{out['code']}", open_timeout=5) as ws:
            ws.send(json.dumps({"type": "hello", "v": 1, "token": out["token"]}))
            assert json.loads(ws.recv(timeout=5))["seat"] == 0
            state = json.loads(ws.recv(timeout=5))
            assert state["type"] == "state" and state["view"]["hand"]
            ws.send("x" * 5000)
            assert json.loads(ws.recv(timeout=5))["code"] == "too_large"
            ws.send(json.dumps({"type": "ping", "id": "r"}))
            while (frame := json.loads(ws.recv(timeout=5)))["type"] != "pong":
                pass
            assert frame["id"] == "r"
        assert httpx.get(f"{base}/api/tables/{out['code']}").json()["seats"][0]["nickname"] == "ann"
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert server.returncode in (0, -15)
