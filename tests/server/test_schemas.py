"""One schema for every message (issue 31): the schemas of :mod:`gouji.server.messages.schemas` cover every route that
reads a body and every WebSocket message, ``docs/protocol.md`` says what they say, and a real server process
answers every body and message they refuse — Hypothesis makes them, from the schemas and from arbitrary JSON
— with a 400 (an ``error`` frame), never a 5xx or a traceback, and changes nothing."""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gouji.server import create_app
from gouji.server.config import parse_table_request
from gouji.server.errors import RequestError
from gouji.server.messages import protocol as P
from gouji.server.messages import schema_docs as D
from gouji.server.messages import schemas as S
from gouji.server.tournaments.duplicate import parse_match_request
from gouji.server.tournaments.events import parse_event_request

from .test_security import Served, serving

ROOT = Path(__file__).resolve().parents[2]

# ------------------------------------------------------------------------------------------ the schemas and the docs


def test_every_route_that_reads_a_body_has_a_schema() -> None:
    app = create_app("sqlite://")
    posts = set()
    for route in app.routes:
        for method in getattr(route, "methods", None) or ():
            if method == "POST":
                posts.add(_pattern(route.path))  # type: ignore[attr-defined]
    assert posts == {_pattern(r.split(" ", 1)[1]) for r in S.BODIES}


def _pattern(path: str) -> str:
    """A route's path with its parameters unnamed (``{code}``, ``{deal:int}`` → ``{}``)."""
    out, depth = "", 0
    for ch in path:
        if ch == "{":
            depth += 1
            out += "{}"
        elif ch == "}":
            depth -= 1
        elif not depth:
            out += ch
    return out


def test_the_protocol_doc_carries_the_schemas() -> None:
    """``docs/protocol.md``'s section of every message's fields is the schemas' own (regenerate it with
    ``python -m gouji.server.messages.schema_docs``), and its table of client messages names exactly their
    types."""
    doc = (ROOT / "docs" / "protocol.md").read_text()
    begin, end = doc.index(D.BEGIN) + len(D.BEGIN) + 1, doc.index(D.END)
    stale = "docs/protocol.md differs from the schemas: python -m gouji.server.messages.schema_docs"
    assert doc[begin:end] == D.markdown(), stale
    client = doc[doc.index("### Client → server") : doc.index("### Server → client")]
    rows = [line.split("|")[1].strip().strip("`") for line in client.splitlines() if line.startswith("| `")]
    assert sorted(rows) == sorted(S.CLIENT_TYPES)
    for route in S.BODIES:
        assert f"`{route}`" in doc


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"bots": [[], None, None, None, None, None]},
            "bots[0] must be a bot's name (GET /api/bots) or null, not a JSON array",
        ),
        ({"bots": {"3": {"a": 1}}}, "bots[3] must be a bot's name (GET /api/bots) or null, not a JSON object"),
        ({"bots": {"9": "random"}}, 'bots: its keys may be one of 0, 1, 2, 3, 4, 5, not "9"'),
        ({"set_length": True}, "set_length must be an integer from 1 to 20, not true"),
        ({"turn_seconds": "fast"}, 'turn_seconds must be a number from 0.05 to 3600 or null, not "fast"'),
        ({"seed": 7, "colour": 1}, "unknown fields: colour, seed; the fields are "),
        ([], "the request body is a JSON object"),
    ],
)
def test_a_refused_body_names_the_field_and_what_it_may_be(body: Any, message: str) -> None:
    with pytest.raises(RequestError) as e:
        S.body(S.CreateTable, body)
    assert e.value.status == 400 and e.value.message.startswith(message), e.value.message


# ------------------------------------------------------------------------------------------ a real server

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
"""Arbitrary JSON (integers past 64 bits and infinities, which are no JSON, included)."""


class Hall:
    """A server process with a table waiting for a player (one seat taken), a match and an event waiting,
    and what it takes to see that none of them changed."""

    def __init__(self, server: Served) -> None:
        self.server = server
        table = self.post("/api/tables", {"bots": [None, None, *["random"] * 4], "turn_seconds": None})
        self.code = table.json()["code"]
        self.token = self.post(f"/api/tables/{self.code}/join", {"nickname": "ann", "seat": 0}).json()["token"]
        match = self.post("/api/matches", {"teams": ["X", "Y"]}).json()
        self.match, self.match_owner = match["code"], match["owner_token"]
        self.team = match["team_codes"][0]["code"]
        event = self.post("/api/events", {"teams": ["A", "B", "C"]}).json()
        self.event, self.event_owner = event["code"], event["owner_token"]
        self.paths = {
            "POST /api/tables": "/api/tables",
            "POST /api/tables/{code}/join": f"/api/tables/{self.code}/join",
            "POST /api/tables/{code}/leave": f"/api/tables/{self.code}/leave",
            "POST /api/tables/{code}/close": f"/api/tables/{self.code}/close",
            "POST /api/tables/{code}/hint": f"/api/tables/{self.code}/hint",
            "POST /api/tables/{code}/deals/{n}/replay": f"/api/tables/{self.code}/deals/0/replay",
            "POST /api/tables/{code}/deals/{n}/review": f"/api/tables/{self.code}/deals/0/review",
            "POST /api/matches": "/api/matches",
            "POST /api/matches/{code}/close": f"/api/matches/{self.match}/close",
            "POST /api/matches/{code}/codes": f"/api/matches/{self.match}/codes",
            "POST /api/teams/{code}/join": f"/api/teams/{self.team}/join",
            "POST /api/events": "/api/events",
            "POST /api/events/{code}/start": f"/api/events/{self.event}/start",
            "POST /api/events/{code}/close": f"/api/events/{self.event}/close",
            "POST /api/accounts": "/api/accounts",
            "POST /api/session": "/api/session",
            "POST /api/me/password": "/api/me/password",
            "POST /api/me/seats": "/api/me/seats",
            "POST /api/me/blocks": "/api/me/blocks",
            "POST /api/tables/{code}/reclaim": f"/api/tables/{self.code}/reclaim",
            "POST /api/quickplay": "/api/quickplay",
            "POST /api/reports": "/api/reports",
        }
        assert set(self.paths) == set(S.BODIES)

    def post(self, path: str, body: Any, raw: bytes | None = None) -> httpx.Response:
        client = (
            f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"  # (no client's limits)
        )
        if raw is not None:
            return self.server.post(path, content=raw, client=client, headers={"content-type": "application/json"})
        r = self.server.post(path, body, client=client)
        assert r.status_code < 300, (path, r.text)
        return r

    def check_log(self) -> None:
        log = self.server.log.read_text()
        assert "Traceback" not in log and "failed" not in log, log[-3000:]

    def snapshot(self) -> Any:
        """Everything the refused inputs must leave as it was: the public views and the stored rows."""
        views = [self.server.get(p).json() for p in (f"/api/tables/{self.code}", f"/api/matches/{self.match}")]
        views.append(self.server.get(f"/api/events/{self.event}").json())
        with sqlite3.connect(self.server.db.removeprefix("sqlite:///")) as db:
            rows = [db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("tables", "table_events")]
        return views, rows


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with serving(tmp_path_factory.mktemp("schemas")) as server:
        yield Hall(server)


def _refused_locally(route: str, data: Any) -> bool:
    """Whether the server's own validation refuses ``data`` as ``route``'s body (the semantic checks too:
    rule options, team names), so that it must change nothing."""
    try:
        if route == "POST /api/tables":
            parse_table_request(data, 30.0, 0.5)
        elif route == "POST /api/matches":
            parse_match_request(data, 30.0, 0.5, None)
        elif route == "POST /api/events":
            parse_event_request(data, 30.0, 0.5, None, 1)
        else:
            S.body(S.BODIES[route], data)
    except RequestError:
        return True
    return False


@st.composite
def bodies(draw: st.DrawFn) -> tuple[str, Any]:
    """A route and a body: arbitrary JSON, or an object of the route's fields (and maybe one more) with
    arbitrary values, or a near miss — one field of a good body changed."""
    route = draw(st.sampled_from(sorted(S.BODIES)))
    fields = sorted(S.BODIES[route].__struct_fields__)
    kind = draw(st.sampled_from(("json", "fields", "one")))
    if kind == "json" or not fields:  # (a body of no fields: anything but {} is refused)
        return route, draw(JSON)
    if kind == "fields":
        keys = st.sampled_from(fields) | st.text(max_size=8)
        return route, draw(st.dictionaries(keys, JSON, max_size=5))
    good = {
        "nickname": "bob",
        "token": "t" * 8,
        "owner_token": "o" * 8,
        "fixture": "r1m1",
        "teams": ["A", "B"],
    }
    body = {k: v for k, v in good.items() if k in fields}
    body[draw(st.sampled_from(fields))] = draw(JSON)
    return route, body


def test_refused_bodies_are_a_400_and_change_nothing(hall: Hall) -> None:
    before = hall.snapshot()

    @settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(case=bodies())
    def send(case: tuple[str, Any]) -> None:
        route, data = case
        assume(_refused_locally(route, data))
        r = hall.post(hall.paths[route], None, raw=json.dumps(data).encode())
        assert r.status_code == 400, (route, data, r.status_code, r.text)
        assert r.json()["error"], (route, data)

    send()
    assert hall.snapshot() == before
    hall.check_log()


def test_refused_queries_are_a_400(hall: Hall) -> None:
    for value in ("2", "-1", "x", "1.5", "", "9" * 40):
        r = hall.server.get(f"/api/records/1/deals/0?table={value}")
        assert r.status_code == 400 and r.json()["error"].startswith("table must be"), (value, r.text)


@st.composite
def messages(draw: st.DrawFn) -> str:
    """A client message: arbitrary JSON, or one of a message type's fields (and maybe others) with arbitrary
    values, or a good message with one field changed."""
    kind = draw(st.sampled_from(("json", "fields", "one")))
    schema = draw(st.sampled_from(S.CLIENT_MESSAGES))
    tag = str(schema.__struct_config__.tag)
    fields = sorted(set(schema.__struct_fields__) | {"type"})
    if kind == "json":
        data = draw(JSON)
    elif kind == "fields":
        data = {"type": tag, **draw(st.dictionaries(st.sampled_from(fields) | st.text(max_size=6), JSON, max_size=4))}
    else:
        good = {"type": tag, "v": 1, "token": "t" * 8, "action": "pass", "decision": 1, "on": True}
        good |= {"ask_single": True, "phrase": "nice"}
        data = {k: v for k, v in good.items() if k in fields}
        data[draw(st.sampled_from(fields))] = draw(JSON)
    return json.dumps(data, ensure_ascii=False)


def _refused_message(text: str) -> bool:
    try:
        P.parse_client(text)
    except P.ProtocolError:
        return True
    return False


class Socket:
    """A connection to the hall's table that has said hello as its seat, opened again after 15 refusals
    (a connection refused 20 times in a burst is closed)."""

    def __init__(self, hall: Hall) -> None:
        self.hall, self.ws, self.refused = hall, None, 0

    def send(self, text: str) -> dict[str, Any]:
        from websockets.sync.client import connect

        if self.ws is None or self.refused >= 15:
            if self.ws is not None:
                self.ws.close()
            client = f"10.9.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"
            url = f"ws://127.0.0.1:{self.hall.server.port}/ws/tables/{self.hall.code}"
            self.ws = connect(url, additional_headers={"X-Forwarded-For": client}, open_timeout=10)
            self.ws.send(orjson.dumps({"type": "hello", "v": 1, "token": self.hall.token}).decode())
            assert orjson.loads(self.ws.recv(timeout=10))["type"] == "welcome"
            assert orjson.loads(self.ws.recv(timeout=10))["type"] == "state"
            self.refused = 0
        self.ws.send(text)
        frame: dict[str, Any] = orjson.loads(self.ws.recv(timeout=10))
        self.refused += 1
        return frame

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


def test_refused_messages_are_an_error_frame_and_change_nothing(hall: Hall) -> None:
    before = hall.snapshot()
    sock = Socket(hall)

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(text=messages())
    def send(text: str) -> None:
        assume(_refused_message(text))
        frame = sock.send(text)
        assert frame["type"] == "error", (text, frame)
        assert frame["code"] in (P.BAD_JSON, P.BAD_MESSAGE, P.VERSION_MISMATCH, P.TOO_LARGE), (text, frame)
        assert frame["message"]

    try:
        send()
    finally:
        sock.close()
    assert hall.snapshot() == before
    hall.check_log()
