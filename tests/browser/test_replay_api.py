"""The browser table's endpoints (``gouji.server.replays.api``): a finished deal step by step, and hints."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gouji.competition.loading import load_record
from gouji.engine.cards import parse_counts
from gouji.server import create_app

from ..helpers import wait_until
from ..limits import ROOMY
from .conftest import SEEDS, prepare_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = prepare_app(
        create_app(f"sqlite:///{tmp_path / 'g.db'}", turn_seconds=None, bot_delay=0.0, limits=ROOMY, seeds=SEEDS)
    )  # (roomy limits: the tests poll the games list)
    with TestClient(app) as c:
        yield c


def test_a_finished_deal_steps_with_every_hand(client: TestClient) -> None:
    r = client.post("/api/tables", json={"bots": ["heuristic"] * 6, "set_length": 1, "bot_delay": 0})
    code = r.json()["code"]
    wait_until(lambda: client.get(f"/api/tables/{code}").json()["status"] == "over")
    wait_until(lambda: any(g["kind"] == "set" for g in client.get(f"/api/tables/{code}/games").json()["games"]))
    games = client.get(f"/api/tables/{code}/games").json()["games"]
    rid = next(g["id"] for g in games if g["kind"] == "set")
    record = client.get(f"/api/records/{rid}").json()
    deal = load_record(record).deals[0]  # type: ignore[union-attr]

    data = client.get(f"/api/records/{rid}/deals/0").json()
    steps = data["steps"]
    acts = [e for e in deal.events if e["type"] == "act"]
    assert len(steps) == len(acts) + 1
    assert data["places"] == deal.places and data["table"] == code and len(data["players"]) == 6
    assert steps[-1]["view"]["phase"] == "over" and steps[-1]["view"]["places"] == deal.places
    assert all("seed" not in e for s in steps for e in s["events"])
    # every play takes exactly its cards from its player's hand, and nothing else changes in play
    for before, after in itertools.pairwise(steps):
        act = after["events"][0]
        assert act["type"] == "act"
        if before["view"]["phase"] != "play":
            continue
        text = act["action"].removeprefix("burn ")
        taken = parse_counts(text) if text not in ("pass", "yield") else (0,) * 15
        for s in range(6):
            b, a = parse_counts(before["view"]["hands"][s]), parse_counts(after["view"]["hands"][s])
            want = [x - y for x, y in zip(b, taken, strict=True)] if s == act["seat"] else list(b)
            assert list(a) == want
    assert client.get(f"/api/records/{rid}/deals/1").status_code == 404
    assert client.get("/api/records/999/deals/0").status_code == 404


def test_hints_are_for_the_seat_to_act(client: TestClient) -> None:
    bots: list[str | None] = ["heuristic"] * 6
    bots[0] = bots[1] = None
    r = client.post(
        "/api/tables", json={"bots": bots, "nickname": "ann", "seat": 0, "options": {"revolution": False}}
    ).json()
    code = r["code"]
    bob = client.post(f"/api/tables/{code}/join", json={"nickname": "bob", "seat": 1}).json()
    tokens = {0: r["token"], 1: bob["token"]}
    room = client.app.state.lobby.rooms[code]  # type: ignore[attr-defined]
    wait_until(lambda: room.match.to_act in (0, 1))
    seat = room.match.to_act
    hint = client.post(f"/api/tables/{code}/hint", json={"token": tokens[seat]})
    assert hint.status_code == 200, hint.text
    body = hint.json()
    assert body["seat"] == seat and body["state"] == room.state and body["reason"]
    assert body["action"] in room.match.legal_actions().texts()
    assert client.post(f"/api/tables/{code}/hint", json={"token": tokens[1 - seat]}).status_code == 409
    assert client.post(f"/api/tables/{code}/hint", json={"token": "nope"}).status_code == 403
    assert client.post(f"/api/tables/{code}/hint", json={}).status_code == 400
    assert client.post("/api/tables/NOSUCH/hint", json={"token": tokens[seat]}).status_code == 404


def test_the_deals_of_a_set_in_progress_are_served_once_it_is_closed(client: TestClient) -> None:
    r = client.post("/api/tables", json={"bots": ["heuristic"] * 6, "set_length": 3, "bot_delay": 0.01}).json()
    code = r["code"]
    wait_until(lambda: bool(client.get(f"/api/tables/{code}/games").json()["games"]))
    rid = client.get(f"/api/tables/{code}/games").json()["games"][0]["id"]
    assert client.get(f"/api/tables/{code}").json()["status"] == "playing"
    assert client.get(f"/api/records/{rid}/deals/0").status_code == 403
    assert client.post(f"/api/tables/{code}/close", json={"owner_token": r["owner_token"]}).status_code == 200
    wait_until(lambda: client.get(f"/api/records/{rid}/deals/0").status_code == 200, 5)
    assert client.get(f"/api/records/{rid}/deals/0").json()["steps"][-1]["view"]["phase"] == "over"
