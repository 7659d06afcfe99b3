"""A hostile client: intents that name their decision, rate limits, bounded tables and ids, clear 4xx errors,
finished and idle tables leaving memory, and the restore of a table whose records a crash left unwritten."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from gouji.bots import BOTS
from gouji.cli import main
from gouji.competition.loading import load_record
from gouji.server import Limits
from gouji.server.messages import protocol as P
from gouji.server.serve import main as serve_main

from ..helpers import wait_until
from .conftest import ROOMY, Player, choose

BOTS4 = [None, None, "random", "random", "random", "random"]
ALL_BOTS = ["random"] * 6


def _my_turn(p: Player, seat: int, timeout: float = 10.0) -> dict[str, Any]:
    """Read frames until the newest says it is ``seat``'s turn; returns that frame."""
    end = time.monotonic() + timeout
    while True:
        p.pending()
        f = p.last_state
        if f is not None and f["turn"]["seat"] == seat and "legal_count" in f["turn"]:
            return f
        assert time.monotonic() < end, "the seat's turn did not come"
        p.until(lambda fr: fr["type"] == "state", end - time.monotonic())


def test_an_intent_naming_its_decision_survives_auto_flips_joins_and_leaves(make_server: Any) -> None:
    """What made every honest intent stale — another seat flipping 托管, people joining and leaving — changes
    the state number but not the decision the seat to act answers."""
    with make_server() as srv:
        out = srv.create(nickname="ann", seat=0, set_length=1, bots=BOTS4)
        code = out["code"]
        bob = srv.join(code, "bob", seat=1)
        with srv.connect(code, out["token"]) as ann, srv.connect(code, bob["token"]) as b:
            frame = None
            # whoever is to act first, answer until it is ann's turn
            while True:
                ann.pending()
                b.pending()
                f = b.last_state
                assert f is not None
                if f["turn"]["seat"] == 1 and "legal_count" in f["turn"]:
                    at = f["state"]
                    b.send(
                        {
                            "type": "act",
                            "action": choose(f["turn"]),
                            "decision": f["turn"]["decision"],
                            "token": b.token,
                        }
                    )
                    b.until(lambda fr, at=at: fr["type"] == "state" and fr["state"] > at)
                    continue
                g = ann.last_state
                if g is not None and g["turn"]["seat"] == 0 and "legal_count" in g["turn"]:
                    frame = g
                    break
                ann.until(lambda fr: fr["type"] == "state", 10)
            decision, state = frame["turn"]["decision"], frame["state"]
            assert isinstance(decision, int) and decision <= state
            # the griefer flips 托管 on and off, leaves, and a friend takes the seat and leaves it
            b.send({"type": "auto", "on": True, "token": b.token})
            b.until(lambda fr: fr["type"] == "state" and fr["state"] > state)
            b.send({"type": "auto", "on": False, "token": b.token})
            wait_until(lambda: srv.lobby().rooms[code].state >= state + 2)
            srv.client.post(f"/api/tables/{code}/leave", json={"token": bob["token"]})
            carl = srv.join(code, "carl")
            srv.client.post(f"/api/tables/{code}/leave", json={"token": carl["token"]})
            wait_until(lambda: srv.lobby().rooms[code].state >= state + 5)
            after = ann.latest_state()
            assert after["state"] > state and after["turn"]["decision"] == decision  # the same decision
            # the state number is stale now, the decision is not
            ann.send({"type": "act", "action": choose(frame["turn"]), "state": state, "token": ann.token})
            assert ann.error()["code"] == P.STALE
            ann.send({"type": "act", "action": choose(frame["turn"]), "decision": decision, "token": ann.token})
            moved = ann.until(lambda fr: fr["type"] == "state" and fr["turn"].get("decision") != decision)
            assert moved["turn"]["decision"] > decision
            # answering the same decision twice: the second is stale
            ann.send({"type": "act", "action": "pass", "decision": decision, "token": ann.token})
            err = ann.error()
            assert err["code"] in (P.STALE, P.NOT_YOUR_TURN)


def test_act_needs_a_decision_or_a_state_and_bounds_both() -> None:
    base = {"type": "act", "action": "pass", "token": "t"}
    assert P.parse_client(P.dumps({**base, "decision": 4})).decision == 4
    for bad in ({}, {"decision": -1}, {"decision": 2**60}, {"decision": True}, {"state": "3"}):
        try:
            P.parse_client(P.dumps({**base, **bad}))
        except P.ProtocolError as e:
            assert e.code == P.BAD_MESSAGE and ("decision" in e.message or "state" in e.message)
        else:
            raise AssertionError(f"accepted {bad}")


def test_auto_switches_are_rate_limited_per_seat(make_server: Any) -> None:
    with make_server(limits=Limits(create_burst=100, seat_burst=100, auto_rate=0.01, auto_burst=3)) as srv:
        out = srv.create(nickname="ann", seat=0, set_length=1, bots=[None, *["random"] * 5], bot_delay=5)
        with srv.connect(out["code"], out["token"]) as ann:
            for i in range(3):
                ann.send({"type": "auto", "on": i % 2 == 0, "token": ann.token})
                ann.until(lambda fr: fr["type"] == "state")
            ann.send({"type": "auto", "on": False, "token": ann.token, "id": "flip"})
            err = ann.error()
            assert err["code"] == P.RATE_LIMITED and "auto" in err["message"] and err["id"] == "flip"
        # a second connection on the same seat shares the seat's limit
        with srv.connect(out["code"], out["token"]) as again:
            again.send({"type": "auto", "on": False, "token": again.token})
            assert again.error()["code"] == P.RATE_LIMITED


def test_table_creation_is_limited_per_client(make_server: Any) -> None:
    with make_server(limits=Limits(create_rate=0.01, create_burst=3, waiting_per_client=100)) as srv:
        for _ in range(3):
            srv.create(bots=ALL_BOTS, bot_delay=5)
        r = srv.client.post("/api/tables", json={})
        assert r.status_code == 429 and "too many tables" in r.json()["error"]
    with make_server(limits=Limits(create_burst=100, waiting_per_client=2)) as srv:
        a = srv.create()
        srv.create()
        r = srv.client.post("/api/tables", json={})
        assert r.status_code == 429 and "2 tables waiting" in r.json()["error"]
        srv.client.post(f"/api/tables/{a['code']}/close", json={"owner_token": a["owner_token"]})
        srv.create()  # one closed: another may wait


def test_joins_and_leaves_are_limited_per_client_and_seat(make_server: Any) -> None:
    with make_server(limits=Limits(create_burst=100, seat_rate=0.01, seat_burst=3)) as srv:
        code = srv.create()["code"]
        t = srv.join(code, "a", seat=0)
        srv.client.post(f"/api/tables/{code}/leave", json={"token": t["token"]})
        srv.join(code, "b", seat=0)
        r = srv.client.post(f"/api/tables/{code}/join", json={"nickname": "c"})
        assert r.status_code == 429 and "too often" in r.json()["error"]
        assert srv.client.get(f"/api/tables/{code}").json()["seats"][0]["nickname"] == "b"


def test_a_waiting_table_left_idle_closes_and_leaves_memory(make_server: Any) -> None:
    with make_server(limits=Limits(create_burst=100, waiting_seconds=0.3)) as srv:
        code = srv.create(bots=BOTS4)["code"]
        busy = srv.create(bots=ALL_BOTS, bot_delay=5)["code"]  # playing: never idle-closed
        with srv.connect(code) as watcher:
            closed = watcher.until(lambda f: f["type"] == "closed", 5)
            assert "waited too long" in closed["reason"]
        assert code not in srv.lobby().rooms and busy in srv.lobby().rooms
        assert srv.client.get(f"/api/tables/{code}").json()["status"] == "closed"
        assert srv.client.post(f"/api/tables/{code}/join", json={"nickname": "late"}).status_code == 404


def test_a_restored_waiting_table_idle_too_long_closes(make_server: Any, db_url: str) -> None:
    with make_server() as srv:
        code = srv.create(bots=BOTS4)["code"]
    engine = sa.create_engine(db_url)
    with engine.begin() as c:  # it was created two hours ago
        c.execute(sa.text("UPDATE tables SET created_at = :t"), {"t": "2000-01-01 00:00:00"})
    engine.dispose()
    with make_server(limits=Limits(waiting_seconds=3600)) as srv:
        wait_until(lambda: code not in srv.lobby().rooms, 10, "the idle restored table closing")
        assert srv.client.get(f"/api/tables/{code}").json()["status"] == "closed"


def test_a_finished_table_leaves_memory_and_is_served_from_storage(make_server: Any) -> None:
    with make_server(limits=Limits(create_burst=100, over_seconds=0.2)) as srv:
        code = srv.create(bots=ALL_BOTS, set_length=1)["code"]
        with srv.connect(code) as watcher:
            closed = watcher.until(lambda f: f["type"] == "closed", 30)
            assert closed["reason"] == "the set is over"
            last = [f for f in watcher.frames if f["type"] == "state"][-1]
            assert last["table"]["status"] == "over"
        assert code not in srv.lobby().rooms
        table = srv.client.get(f"/api/tables/{code}").json()
        assert table["status"] == "over" and "seed" not in table["config"]
        games = srv.client.get(f"/api/tables/{code}/games").json()["games"]
        assert [g["kind"] for g in games] == ["deal", "set"]
        assert load_record(srv.client.get(f"/api/records/{games[-1]['id']}").json()).is_over
        with srv.connect(code, hello=False) as late:
            late.send({"type": "hello", "v": 1})
            err = late.error()
            assert err["code"] == P.GAME_OVER and "games" in err["message"]


def _hostile_requests(code: str) -> Iterator[tuple[str, str, Any]]:
    yield "post", "/api/tables", b"not json"
    yield "post", "/api/tables", b"[1, 2, 3]"
    yield "post", "/api/tables", b"[" * 100_000
    yield "post", "/api/tables", {"options": []}
    yield "post", "/api/tables", {"options": {"decks": None}}
    yield "post", "/api/tables", {"bots": {"9": "random"}}
    yield "post", "/api/tables", {"nickname": "x" * 500}
    yield "post", "/api/tables", {"nickname": 7}
    yield "post", "/api/tables", {"seat": 9, "nickname": "a"}
    yield "post", "/api/tables", b'{"ready_seconds": 1e999}'
    yield "post", f"/api/tables/{code}/join", {"nickname": "a", "seat": 10**40}
    yield "post", f"/api/tables/{code}/join", {"nickname": ["a"]}
    yield "post", f"/api/tables/{code}/join", b"\xff\xfe"
    yield "post", f"/api/tables/{code}/leave", {"token": {"a": 1}}
    yield "post", f"/api/tables/{code}/close", {"owner_token": 5}
    yield "post", f"/api/tables/{code}/hint", {"token": None}
    yield "post", "/api/tables/" + "Z" * 5000 + "/join", {"nickname": "a"}
    yield "get", "/api/tables/" + "%00" * 10, None
    yield "get", "/api/tables/ZZZZZZ/games", None
    yield "get", "/api/records/0", None
    yield "get", "/api/records/" + "9" * 400, None
    yield "get", "/api/records/" + "9" * 400 + "/deals/0", None
    yield "get", "/api/records/1/deals/" + "9" * 400, None


def test_every_hostile_request_is_a_4xx_naming_what_was_wrong(make_server: Any) -> None:
    with make_server() as srv:
        code = srv.create(bots=BOTS4)["code"]
        for method, path, body in _hostile_requests(code):
            if method == "get":
                r = srv.client.get(path)
            elif isinstance(body, bytes):
                r = srv.client.post(path, content=body)
            else:
                r = srv.client.post(path, json=body)
            assert 400 <= r.status_code < 500, (path, body, r.status_code, r.text[:200])
            assert r.json()["error"], (path, body)
        assert srv.client.get(f"/api/players/{'n' * 300}/games").json()["games"] == []


def test_a_request_body_is_capped_while_it_streams(make_server: Any) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(1000):  # 64 MB if it were all read, with no length declared
            yield b" " * 65536

    with make_server() as srv:
        r = srv.client.post("/api/tables", content=chunks())
        assert r.status_code == 413 and "at most" in r.json()["error"]
        r = srv.client.post("/api/tables", content=b"{}", headers={"content-length": "99999999"})
        assert r.status_code == 413


def test_a_table_whose_deal_ending_move_has_no_record_gets_it_rebuilt_at_restart(make_server: Any, db_url: str) -> None:
    """A database written before records went into the move's transaction (or edited by hand): the table is
    stored as open, its set's last move stored but not its records.  The restart rebuilds them from the moves,
    marks the table over, and its records are served."""
    with make_server(limits=ROOMY) as srv:
        code = srv.create(bots=ALL_BOTS, set_length=1)["code"]
        wait_until(lambda: code not in srv.lobby().rooms or srv.lobby().rooms[code].status == "over", 30)
        wait_until(lambda: len(srv.client.get(f"/api/tables/{code}/games").json()["games"]) == 2)
    engine = sa.create_engine(db_url)
    with engine.begin() as c:
        c.execute(sa.text("DELETE FROM record_players"))
        c.execute(sa.text("DELETE FROM record_summaries"))
        c.execute(sa.text("DELETE FROM records"))
        c.execute(sa.text("UPDATE tables SET status = 'open'"))
    engine.dispose()
    with make_server() as srv:
        assert code not in srv.lobby().rooms  # restored as over: not kept in memory
        assert srv.client.get(f"/api/tables/{code}").json()["status"] == "over"
        games = srv.client.get(f"/api/tables/{code}/games").json()["games"]
        assert [g["kind"] for g in games] == ["deal", "set"]
        body = srv.client.get(f"/api/records/{games[-1]['id']}")
        assert body.status_code == 200 and load_record(body.json()).is_over


def test_serve_says_why_a_database_cannot_be_used() -> None:
    for url, needle in [
        ("bogus://x", "not a database this server knows"),
        ("not a url", "not a database URL"),
        ("postgresql://gouji:secret@127.0.0.1:1/gouji", "cannot reach the database"),
    ]:
        r = CliRunner().invoke(main, ["serve", "--database-url", url, "--port", "1"])
        assert r.exit_code != 0 and needle in r.output, r.output
        assert "Traceback" not in r.output and "secret" not in r.output


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--turn-seconds", "nan"], "--turn-seconds"),
        (["--turn-seconds", "0.01"], "--turn-seconds"),  # (0 is no timer; 0.01 is no table's)
        (["--bot-delay", "nan"], "--bot-delay"),
        (["--ready-seconds", "nan"], "--ready-seconds"),
    ],
)
def test_serve_refuses_defaults_that_every_new_table_would_be_refused(
    args: list[str], option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server started with a default no table may have would answer every ``POST /api/tables`` that leaves
    it out with a 400 (before: ``gouji serve --turn-seconds nan`` started, and refused every such table)."""
    r = CliRunner().invoke(main, ["serve", *args, "--port", "1"])
    assert r.exit_code == 2 and f"Invalid value for {option}" in r.output and "Traceback" not in r.output, r.output
    with pytest.raises(SystemExit) as e:
        serve_main([*args, "--port", "1"])
    assert e.value.code == 2 and f"error: {option} must be a number from" in capsys.readouterr().err


def test_create_app_refuses_defaults_that_every_new_table_would_be_refused() -> None:
    from gouji.server.app import create_app
    from gouji.server.errors import SettingError

    for kw, name in [
        ({"turn_seconds": float("nan")}, "turn_seconds"),
        ({"turn_seconds": 0.01}, "turn_seconds"),
        ({"bot_delay": 11.0}, "bot_delay"),
        ({"bot_delay": float("inf")}, "bot_delay"),
        ({"ready_seconds": 0.0}, "ready_seconds"),
    ]:
        with pytest.raises(SettingError) as e:
            create_app("sqlite://", **kw)  # type: ignore[arg-type]
        assert e.value.name == name and str(e.value).startswith(f"{name} must be a number from")
    create_app("sqlite://", turn_seconds=None, bot_delay=0.0, ready_seconds=3600.0)  # (the edges are tables')


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("rate", float("nan")),
        ("rate", 0.0),
        ("burst", 0.5),
        ("bad_rate", -1.0),
        ("queue", 0),
        ("queue", 2.5),
        ("hello_seconds", float("inf")),
        ("create_rate", float("nan")),
        ("create_burst", 0.0),
        ("waiting_per_client", 0),
        ("seat_rate", -0.1),
        ("seat_burst", float("nan")),
        ("auto_rate", 0.0),
        ("auto_burst", 0.9),
        ("waiting_seconds", 0.0),
        ("over_seconds", -1.0),
        ("rate", True),
    ],
)
def test_limits_refuse_values_no_server_can_work_with(field: str, value: Any) -> None:
    from gouji.server.errors import SettingError

    with pytest.raises(SettingError) as e:
        Limits(**{field: value})
    assert e.value.name == field and str(e.value).startswith(f"{field} must be")


def test_serve_names_the_limit_it_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    for args, needle in [
        (["--rate", "nan"], "--rate must be a finite number above 0"),
        (["--waiting-per-client", "0"], "--waiting-per-client must be an integer of at least 1"),
        (["--seat-burst", "0.5"], "--seat-burst must be a finite number of at least 1"),
        (["--waiting-seconds", "inf"], "--waiting-seconds must be a finite number above 0"),
    ]:
        with pytest.raises(SystemExit) as e:
            serve_main([*args, "--port", "1"])
        assert e.value.code == 2 and needle in capsys.readouterr().err, args
    Limits(over_seconds=0.0, queue=1, burst=1.0)  # (the least that works)


class _BlockingBot:
    """A bot that thinks until the test lets it answer."""

    name = "blocking"
    thinking = threading.Event()
    release = threading.Event()

    def decide(self, view: Any, legal: Any, rng: Any) -> Any:
        type(self).thinking.set()
        type(self).release.wait(10)
        return legal[0]


def test_a_bot_thinks_off_the_event_loop(make_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a bot thinks, the server goes on serving: a hello at another table is answered."""
    monkeypatch.setitem(BOTS, "blocking", _BlockingBot)
    _BlockingBot.thinking.clear()
    _BlockingBot.release.clear()
    with make_server() as srv:
        other = srv.create(bots=BOTS4)["code"]
        code = srv.create(bots=["blocking"] * 6, set_length=1)["code"]
        assert _BlockingBot.thinking.wait(10)
        try:
            with srv.connect(other) as watcher:  # welcome and the full view: the loop is not held
                assert watcher.last_state is not None and not _BlockingBot.release.is_set()
                r = srv.client.get(f"/api/tables/{code}")
                # started; decisions with one answer were made for the seats, the bot has not answered
                room = srv.lobby().rooms[code]
                assert r.status_code == 200 and r.json()["state"] == room.state
                assert room.window is not None and room.window.thinking
        finally:
            _BlockingBot.release.set()
        wait_until(lambda: srv.lobby().rooms[code].state > 1, 10, "the bot's move")
