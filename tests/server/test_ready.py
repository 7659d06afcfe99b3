"""The pause between two deals of a set: the next deal is played once the players are ready (or the ready
timeout runs out); until then nothing moves and ``act`` is refused with ``not_ready``."""

from __future__ import annotations

import time
from typing import Any

from gouji.server.messages import protocol as P

from .conftest import Player, Server, choose, drive

BOTS5 = [None, "random", "random", "random", "random", "random"]
TWO_PEOPLE = [None, "random", "random", None, "random", "random"]


def _snapshot(srv: Server, code: str) -> tuple[int, int, int, list[str]]:
    room = srv.lobby().rooms[code]
    deal = room.match.current
    return room.state, len(room.match.deals), deal.decisions, [deal.hand(s) for s in range(6)]


def _play_to_the_pause(players: dict[int, Player], timeout: float = 30.0) -> dict[int, dict[str, Any]]:
    """Play the seats of ``players`` (never saying ``ready``) until every one of them has a frame showing the
    pause between two deals; returns each seat's first such frame, and leaves the frames after it unread
    (a short ready timeout may end the pause before a busy test reads on: its first frame is not missed)."""
    end = time.monotonic() + timeout
    paused: dict[int, dict[str, Any]] = {}
    while len(paused) < len(players):
        assert time.monotonic() < end, "the deal did not end in time"
        acted = False
        for seat, p in players.items():
            if seat in paused:
                continue
            while (frame := p.poll()) is not None:
                if frame["type"] == "state" and frame["table"]["ready"] is not None:
                    paused[seat] = frame
                    break
            f = p.last_state
            if seat in paused or f is None:
                continue
            if f["turn"]["seat"] == seat and "legal_count" in f["turn"] and p.acted_at != f["state"]:
                p.act(choose(f["turn"]), f["state"])
                acted = True
        if not acted:
            time.sleep(0.002)
    return paused


def _play_goes_on(p: Player, seat: int, resumed: dict[str, Any]) -> None:
    """After the pause: the seat to act is named again, and the next deal moves (the bots, or this seat)."""
    to_act = resumed["turn"]["seat"]
    assert to_act is not None
    if "legal_count" in resumed["turn"]:  # asked (a decision with one answer is made for the seat)
        assert resumed["turn"]["seat"] == seat
        p.act(choose(resumed["turn"]), resumed["state"])
    p.until(lambda fr: fr["type"] == "state" and fr["state"] > resumed["state"])


def _resumed(srv: Any, code: str, done: dict[str, Any], at: int, by: str) -> None:
    """The first frame after the pause (``done``) carries the change ``at``, stored as the pause's end; it
    may carry more (a window whose answers are all given resolves in the same frame)."""
    assert done["state"] >= at and done["table"]["ready"] is None
    (event,) = [e for e in srv.lobby().writer.store.stored_table(code).events if e["state"] == at]
    assert event["kind"] == "resume" and event["data"] == {"by": by}


def _no_state_frames(*players: Player) -> None:
    for p in players:
        assert not [f for f in p.pending() if f["type"] == "state"]


def test_the_next_deal_waits_until_every_person_is_ready(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(set_length=2, bots=TWO_PEOPLE)
        code = out["code"]
        a, b = srv.join(code, "ann", seat=0), srv.join(code, "bob", seat=3)
        room = srv.lobby().rooms[code]
        with srv.connect(code, a["token"]) as ann, srv.connect(code, b["token"]) as bob, srv.connect(code) as spec:
            frames = _play_to_the_pause({0: ann, 3: bob})
            f = frames[0]
            state = room.state
            assert frames[3]["state"] == f["state"] == state
            gate = f["table"]["ready"]
            assert gate == {"seats": [False, True, True, False, True, True], "deadline": None}
            assert f["table"]["deals_over"] == 1 and f["deal"] == 1 and len(room.match.deals) == 2
            assert any(e["type"] == "end" and e["deal"] == 0 for e in f["events"])
            # nobody is to act during the pause
            assert f["turn"]["seat"] is None and "legal_count" not in f["turn"]
            assert srv.client.get(f"/api/tables/{code}").json()["ready"] == gate
            for token in (a["token"], b["token"]):  # no hint while nobody is to act
                assert srv.client.post(f"/api/tables/{code}/hint", json={"token": token}).status_code == 409
            before = _snapshot(srv, code)
            # the bots do not move, and no timer plays for anyone
            time.sleep(0.3)
            assert _snapshot(srv, code) == before
            _no_state_frames(ann, bob)
            # an act for the new deal is refused, changing nothing
            to_act = room.match.to_act
            assert to_act is not None
            who, token = (bob, b["token"]) if to_act == 3 else (ann, a["token"])
            legal = room.match.current.legal_actions().texts()
            who.send({"type": "act", "action": legal[0], "state": state, "token": token, "id": "x"})
            err = who.error()
            assert err["code"] == P.NOT_READY and err["state"] == state and err["id"] == "x"
            assert "ready" in err["message"]
            # ready from a spectator, with a forged token, with another seat's token, or without a token
            spec.send({"type": "ready", "token": a["token"]})
            assert spec.error()["code"] == P.SPECTATOR
            ann.send({"type": "ready", "token": "forged" * 5})
            assert ann.error()["code"] == P.UNAUTHORIZED
            ann.send({"type": "ready", "token": b["token"]})
            assert ann.error()["code"] == P.UNAUTHORIZED
            ann.send({"type": "ready"})
            assert ann.error()["code"] == P.BAD_MESSAGE
            assert _snapshot(srv, code) == before
            _no_state_frames(ann, bob)
            # ann is ready: one change, every connection sees it; the pause goes on (bob is not)
            ann.send({"type": "ready", "token": a["token"]})
            g = bob.until(lambda fr: fr["type"] == "state")
            assert g["state"] == state + 1
            assert g["table"]["ready"]["seats"] == [True, True, True, False, True, True]
            assert g["turn"]["seat"] is None
            assert spec.until(lambda fr: fr["type"] == "state")["state"] == state + 1
            # ready again: idempotent, no change (the seat gets the current state)
            ann.pending()
            ann.send({"type": "ready", "token": a["token"]})
            again = ann.until(lambda fr: fr["type"] == "state")
            assert again["state"] == state + 1 and room.state == state + 1
            time.sleep(0.2)
            assert room.state == state + 1 and room.match.current.decisions == before[2]
            # bob is ready: the pause ends (a change of its own) and the next deal is played
            bob.send({"type": "ready", "token": b["token"]})
            done = ann.until(lambda fr: fr["type"] == "state" and fr["table"]["ready"] is None)
            _resumed(srv, code, done, state + 3, "ready")
            ready_frame = next(fr for fr in ann.frames if fr["type"] == "state" and fr["state"] == state + 2)
            assert all(ready_frame["table"]["ready"]["seats"])
            drive({0: ann, 3: bob}, lambda: room.status == "over")
            assert len(room.match.points) == 2 and room.ready is None

            def over(fr: dict[str, Any]) -> bool:
                return fr["type"] == "state" and fr["table"]["status"] == "over"

            # drive stops once the table is over: its last frame may already have been read, or still come
            end = next((fr for fr in ann.frames if over(fr)), None) or ann.until(over)
            assert end["table"]["ready"] is None  # the set is over: no pause after the last deal
            # ready after the set is over
            ann.send({"type": "ready", "token": a["token"]})
            assert ann.error()["code"] == P.GAME_OVER


def test_one_person_with_five_bots_ends_the_pause_alone(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(nickname="ann", set_length=2, bots=BOTS5)
        code, token = out["code"], out["token"]
        room = srv.lobby().rooms[code]
        with srv.connect(code, token) as ann:
            # ready while play goes on changes nothing
            ann.send({"type": "ready", "token": token})
            assert ann.until(lambda fr: fr["type"] == "state")["table"]["ready"] is None
            f = _play_to_the_pause({0: ann})[0]
            state = f["state"]
            assert f["table"]["ready"]["seats"] == [False] + [True] * 5
            time.sleep(0.2)
            assert room.state == state
            ann.send({"type": "ready", "token": token})
            done = ann.until(lambda fr: fr["type"] == "state" and fr["table"]["ready"] is None)
            _resumed(srv, code, done, state + 2, "ready")
            _play_goes_on(ann, 0, done)


def test_the_ready_timeout_ends_the_pause(make_server: Any) -> None:
    with make_server(ready_seconds=0.3) as srv:
        out = srv.create(nickname="ann", set_length=2, bots=BOTS5)
        code, token = out["code"], out["token"]
        assert out["table"]["config"]["ready_seconds"] == 0.3 and out["table"]["config"]["turn_seconds"] is None
        room = srv.lobby().rooms[code]
        with srv.connect(code, token) as ann:
            f = _play_to_the_pause({0: ann})[0]
            deadline = f["table"]["ready"]["deadline"]
            assert deadline is not None and -1 < deadline / 1000 - time.time() <= 0.35
            assert f["turn"]["deadline"] is None
            done = ann.until(lambda fr: fr["type"] == "state" and fr["table"]["ready"] is None, timeout=5)
            _resumed(srv, code, done, f["state"] + 1, "timeout")
            assert room.ready is None
            assert not done["table"]["seats"][0]["auto"]  # the timeout does not put the seat on 托管
            _play_goes_on(ann, 0, done)


def test_the_ready_timeout_defaults_to_the_turn_time(make_server: Any) -> None:
    with make_server() as srv:
        assert srv.create(turn_seconds=12, bots=BOTS5)["table"]["config"]["ready_seconds"] == 12
        assert srv.create(turn_seconds=12, ready_seconds=40, bots=BOTS5)["table"]["config"]["ready_seconds"] == 40
        assert srv.create(bots=BOTS5)["table"]["config"]["ready_seconds"] is None
        srv.create(expect=400, ready_seconds="soon", bots=BOTS5)


def test_seats_on_auto_play_and_empty_seats_count_as_ready(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(set_length=2, bots=TWO_PEOPLE)
        code = out["code"]
        a, b = srv.join(code, "ann", seat=0), srv.join(code, "bob", seat=3)
        room = srv.lobby().rooms[code]
        with srv.connect(code, a["token"]) as ann, srv.connect(code, b["token"]) as bob:
            state = _play_to_the_pause({0: ann, 3: bob})[0]["state"]
            bob.send({"type": "auto", "on": True, "token": b["token"]})
            g = ann.until(lambda fr: fr["type"] == "state")
            assert g["state"] == state + 1 and g["table"]["ready"]["seats"] == [False] + [True] * 5
        # ann leaves: her seat is empty, so every seat is ready and the next deal goes on
        r = srv.client.post(f"/api/tables/{code}/leave", json={"token": a["token"]})
        assert r.status_code == 200
        assert room.ready is None and room.state >= state + 3  # left, resumed, and the bots play on


def test_a_restart_mid_pause_restores_the_pause(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(set_length=2, bots=TWO_PEOPLE)
        code = out["code"]
        a, b = srv.join(code, "ann", seat=0), srv.join(code, "bob", seat=3)
        room = srv.lobby().rooms[code]
        with srv.connect(code, a["token"]) as ann, srv.connect(code, b["token"]) as bob:
            state = _play_to_the_pause({0: ann, 3: bob})[0]["state"]
            ann.send({"type": "ready", "token": a["token"]})
            bob.until(lambda fr: fr["type"] == "state" and fr["state"] == state + 1)
        record = room.match.record()
    with make_server() as srv2:
        room2 = srv2.lobby().rooms[code]
        assert room2.state == state + 1 and room2.match.record() == record
        assert room2.ready == [True, False, False, False, False, False]
        with srv2.connect(code, b["token"]) as bob:
            full = bob.frames[1]
            assert full["state"] == state + 1
            assert full["table"]["ready"]["seats"] == [True, True, True, False, True, True]
            assert full["turn"]["seat"] is None
            time.sleep(0.2)
            assert room2.state == state + 1  # the bots wait after a restart too
            bob.send({"type": "ready", "token": b["token"]})
            done = bob.until(lambda fr: fr["type"] == "state" and fr["table"]["ready"] is None)
            _resumed(srv2, code, done, state + 3, "ready")
