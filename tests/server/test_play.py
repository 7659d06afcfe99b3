"""Play over the WebSocket: every message type and error, hidden cards, timers and 托管, reconnecting."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from gouji.server.messages import protocol as P

from .conftest import Player, Server, choose, drive, play_turn

BOTS5 = [None, "random", "random", "random", "random", "random"]


def _snapshot(srv: Server, code: str) -> tuple[int, int, int, list[str]]:
    room = srv.lobby().rooms[code]
    deal = room.match.current
    return room.state, len(room.match.deals), deal.decisions, [deal.hand(s) for s in range(6)]


def _my_turn(p: Player, seat: int, timeout: float = 10.0) -> dict[str, Any]:
    p.pending()
    f = p.last_state
    if f is not None and f["turn"]["seat"] == seat and "legal_count" in f["turn"]:
        return f
    return p.until(
        lambda fr: fr["type"] == "state" and fr["turn"]["seat"] == seat and "legal_count" in fr["turn"], timeout
    )


def test_hello_welcome_full_state_ping_sync(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(nickname="ann", bots=BOTS5)
        code = out["code"]
        with srv.connect(code, out["token"], hello=False) as ann:
            ann.send({"type": "hello", "v": 1, "token": out["token"], "id": "h1"})
            welcome = ann.recv()
            assert welcome == {
                "type": "welcome",
                "v": 1,
                "table": code,
                "role": "player",
                "seat": 0,
                "nickname": "ann",
            }
            first = ann.recv()
            assert first["type"] == "state" and first["full"] is True and first["v"] == P.VERSION
            view = first["view"]
            assert isinstance(view["log"], list) and view["log"][0]["type"] == "deal"
            assert first["table"]["seats"][0]["nickname"] == "ann"
            assert first["table"]["config"]["bots"] == BOTS5 and "rule_options" in view
            # once it is seat 0's turn (no timer), the table stands still: the views are the engine's
            mine = _my_turn(ann, 0)
            room = srv.lobby().rooms[code]
            assert mine["state"] == room.state and mine["view"]["seat"] == 0
            assert mine["view"]["hand"] == room.match.current.hand(0)
            ann.act(choose(mine["turn"]), mine["state"])
            nxt = ann.until(lambda f: f["type"] == "state" and f["state"] > mine["state"])
            assert nxt["full"] is False and "config" not in nxt["table"] and "rule_options" not in nxt["view"]
            assert nxt["events"][0]["type"] == "act" and nxt["events"][0]["seat"] == 0
            ann.send({"type": "ping", "id": "p1"})
            assert ann.until(lambda f: f["type"] == "pong") == {"type": "pong", "v": 1, "id": "p1"}
            ann.send({"type": "sync"})
            again = ann.until(lambda f: f["type"] == "state" and f["full"])
            assert nxt["state"] <= again["state"] <= srv.lobby().rooms[code].state
        # a spectator gets the public view: no hand at all
        with srv.connect(code) as spec:
            assert spec.frames[0]["role"] == "spectator" and spec.frames[0]["seat"] is None
            v = spec.frames[1]["view"]
            assert v["seat"] is None and "hand" not in v
            assert all("hand" not in e or e["type"] == "revolution" for e in v["log"])  # 革命 is public


def test_every_error_is_refused_and_changes_nothing(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(bots=[None, None, "random", "random", "random", "random"])
        code = out["code"]
        a = srv.join(code, "ann", seat=0)
        # before the table starts
        with srv.connect(code, a["token"]) as ann:
            ann.act("pass", ann.frames[-1]["state"])
            assert ann.error()["code"] == P.NOT_STARTED
        b = srv.join(code, "bob", seat=1)
        with srv.connect(code, a["token"]) as ann, srv.connect(code, b["token"]) as bob, srv.connect(code) as spec:

            def anns_turn() -> bool:
                ann.pending()
                last = ann.last_state
                return last is not None and last["turn"]["seat"] == 0 and "legal_count" in last["turn"]

            drive({1: bob}, anns_turn)  # bob (and the bots) bring the turn round to ann
            f = ann.last_state
            assert f is not None
            before = _snapshot(srv, code)
            state = f["state"]
            cases: list[tuple[Player, Any, str]] = [
                (ann, "{nope", P.BAD_JSON),
                (ann, "[1, 2]", P.BAD_JSON),
                (ann, {"type": "dance"}, P.BAD_MESSAGE),
                (ann, {"type": "act", "state": state, "token": a["token"]}, P.BAD_MESSAGE),
                (ann, {"type": "act", "action": "pass", "token": a["token"]}, P.BAD_MESSAGE),
                (ann, {"type": "act", "action": "pass", "state": "1", "token": a["token"]}, P.BAD_MESSAGE),
                (ann, {"type": "act", "action": "pass", "state": state}, P.BAD_MESSAGE),
                (ann, {"type": "auto", "on": "yes", "token": a["token"]}, P.BAD_MESSAGE),
                (ann, {"type": "ping", "id": 5}, P.BAD_MESSAGE),
                (ann, "x" * (P.MAX_MESSAGE_BYTES + 1), P.TOO_LARGE),
                (ann, {"type": "hello", "v": 1, "token": a["token"]}, P.HELLO_FIRST),
                # a forged token, and bob's token on ann's connection
                (ann, {"type": "act", "action": "pass", "state": state, "token": "forged" * 5}, P.UNAUTHORIZED),
                (ann, {"type": "act", "action": "pass", "state": state, "token": b["token"]}, P.UNAUTHORIZED),
                (ann, {"type": "auto", "on": True, "token": b["token"]}, P.UNAUTHORIZED),
                (ann, {"type": "act", "action": "pass", "state": state - 1, "token": a["token"]}, P.STALE),
                (ann, {"type": "act", "action": "pass", "state": state + 1, "token": a["token"]}, P.STALE),
                (ann, {"type": "act", "action": "ZZZ", "state": state, "token": a["token"]}, P.ILLEGAL),
                (ann, {"type": "act", "action": "burn", "state": state, "token": a["token"]}, P.ILLEGAL),
                (ann, {"type": "act", "action": "DDDDDDDDD", "state": state, "token": a["token"]}, P.ILLEGAL),
                (bob, {"type": "act", "action": "pass", "state": state, "token": b["token"]}, P.NOT_YOUR_TURN),
                (spec, {"type": "act", "action": "pass", "state": state, "token": a["token"]}, P.SPECTATOR),
            ]
            for who, msg, code_expected in cases:
                who.pending()
                who.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))
                err = who.error()
                assert err["code"] == code_expected, (msg, err)
                assert err["state"] == state and err["message"]
                assert _snapshot(srv, code) == before, msg
            # the error names the message it answers
            ann.send({"type": "act", "action": "pass", "state": 0, "token": a["token"], "id": "m7"})
            assert ann.error()["id"] == "m7"
            # none of it produced a state frame; a legal action does
            assert not [fr for fr in ann.pending() + bob.pending() if fr["type"] == "state"]
            ann.act(choose(f["turn"]), state)
            nxt = ann.until(lambda fr: fr["type"] == "state")
            assert nxt["state"] > state
            assert any(e["type"] == "act" and e["seat"] == 0 for e in nxt["events"])


def test_protocol_errors_before_hello(make_server: Any) -> None:
    with make_server() as srv:
        code = srv.create(bots=BOTS5)["code"]
        with srv.connect(code, hello=False) as p:
            p.send({"type": "ping"})
            assert p.error()["code"] == P.HELLO_FIRST
            p.send({"type": "hello", "v": 2})
            assert p.error()["code"] == P.VERSION_MISMATCH
            p.send({"type": "hello"})
            assert p.error()["code"] == P.BAD_MESSAGE
            p.send({"type": "hello", "v": 1, "token": "not-a-token"})
            err = p.error()
            assert err["code"] == P.UNAUTHORIZED and err["state"] is None
            p.send({"type": "hello", "v": 1})  # still free to watch
            assert p.recv()["role"] == "spectator"
        with srv.connect("NOPE99", hello=False) as p:
            p.send({"type": "hello", "v": 1})
            assert p.error()["code"] == P.NO_TABLE


def _walk_hands(obj: Any, path: str = "") -> list[tuple[str, Any]]:
    found = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("hand", "hands", "seed", "token", "token_hash"):
                found.append((f"{path}.{k}", v))
            found.extend(_walk_hands(v, f"{path}.{k}"))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found.extend(_walk_hands(v, f"{path}[{i}]"))
    return found


def test_two_players_never_receive_each_others_cards(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(set_length=2, bots=[None, "random", "random", None, "random", "random"])
        code = out["code"]
        a, b = srv.join(code, "ann", seat=0), srv.join(code, "bob", seat=3)
        room = srv.lobby().rooms[code]
        with srv.connect(code, a["token"]) as ann, srv.connect(code, b["token"]) as bob:
            players = {0: ann, 3: bob}
            assert drive(players, lambda: len(room.match.deals) >= 2 and room.match.current.decisions >= 20) > 10
            for p in players.values():
                p.send({"type": "sync"})
                p.until(lambda f: f["type"] == "state" and f["full"])
            hands = {
                s: [e["hands"][s] for d in room.match.deals for e in d.events if e["type"] in ("deal", "void")]
                for s in range(6)
            }
            # a revolutionary lays the hand down for all to see (革命)
            revealed = {e["hand"] for d in room.match.deals for e in d.events if e["type"] == "revolution"}
        for seat, p in players.items():
            other = 3 if seat == 0 else 0
            other_token = b["token"] if seat == 0 else a["token"]
            states = [f for f in p.frames if f["type"] == "state"]
            assert len(states) > 20
            for text, frame in zip(p.raw, p.frames, strict=True):
                assert other_token not in text
                assert out["owner_token"] not in text
                assert str(room.config.seed) not in text
                for hand in hands[other]:
                    assert hand in revealed or hand not in text
                for where, value in _walk_hands(frame):
                    assert not where.endswith(("hands", "seed", "token", "token_hash")), where
                    if where.endswith(".hand") and ".log[" not in where and ".events[" not in where:
                        assert where == ".view.hand", where
                        assert frame["view"]["seat"] == seat
                    elif where.endswith(".hand"):
                        event = frame
                        for part in where.strip(".").split(".")[:-1]:
                            name, _, idx = part.partition("[")
                            event = event[name][int(idx[:-1])] if idx else event[name]
                        # a deal's (or a voided deal's) hand is the seat's own; a revolutionary's is public
                        assert event["type"] in ("deal", "void", "revolution"), event
                        if event["type"] in ("deal", "void"):
                            assert value in hands[seat]
            # every view is the seat's own
            assert all(f["view"]["seat"] == seat for f in states)
            assert {f["view"]["hand"] for f in states if f["full"]} <= {
                room.match.deals[i].hand(seat) for i in range(len(room.match.deals))
            } | {f["view"]["hand"] for f in states}


def test_turn_details_only_for_the_seat_to_act(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(bots=[None, None, "random", "random", "random", "random"])
        code = out["code"]
        a, b = srv.join(code, "ann", seat=0), srv.join(code, "bob", seat=1)
        room = srv.lobby().rooms[code]
        with srv.connect(code, a["token"]) as ann, srv.connect(code, b["token"]) as bob:
            players = {0: ann, 1: bob}
            drive(players, lambda: room.match.current.decisions >= 60 or room.status != "playing")
            for p in players.values():
                for fr in p.frames:
                    turn = fr.get("turn", {})
                    if "legal_count" not in turn:
                        continue
                    if turn["choices"] is None:
                        assert turn["legal_count"] > 64 and 0 < len(turn["sample"]) <= 16
                    else:
                        assert len(turn["choices"]) == turn["legal_count"]
                        assert turn["can_pass"] == ("pass" in turn["choices"])
                        assert turn["can_yield"] == ("yield" in turn["choices"])
            for p in players.values():
                for fr in p.frames:
                    if fr["type"] == "state" and fr["turn"]["seat"] != fr["view"]["seat"]:
                        assert "legal_count" not in fr["turn"] and "choices" not in fr["turn"]
            assert any(fr["type"] == "state" and "legal_count" in fr["turn"] for fr in ann.frames + bob.frames)


def test_a_lead_with_many_actions_is_sent_as_a_count_and_a_sample() -> None:
    import random

    from gouji.engine.actions import parse_action
    from gouji.server.config import TableConfig
    from gouji.server.tables.table import CHOICES_CAP, SAMPLE_SIZE, Room

    config = TableConfig(
        "qingdao", __import__("gouji").RuleSet.preset("qingdao").to_dict(), 5, 1, None, 0.0, (None,) * 6
    )
    room = Room(1, "ABCDEF", config, "x" * 64)
    room.status = "playing"
    rng = random.Random(3)
    deal = room.match.current
    while not (deal.top is None and deal.phase == "play" and len(deal.legal_actions()) > CHOICES_CAP):
        legal = deal.legal_actions()
        room.match.act(legal[rng.randrange(len(legal))])
    seat = deal.to_act
    turn = room.state_frame(seat)["turn"]
    assert turn["seat"] == seat and turn["legal_count"] == len(deal.legal_actions())
    assert turn["choices"] is None and len(turn["sample"]) == SAMPLE_SIZE
    assert all(parse_action(a) in deal.legal_actions() for a in turn["sample"])
    other = room.state_frame((seat + 1) % 6)["turn"]
    assert other["seat"] == seat and "legal_count" not in other and "sample" not in other
    public = room.state_frame(None)
    assert "hand" not in public["view"] and "legal_count" not in public["turn"]


def test_timeout_auto_play_and_the_players_return(make_server: Any) -> None:
    with make_server() as srv:
        # long enough that the returning player's answer beats the timer on a loaded machine
        out = srv.create(nickname="ann", set_length=3, turn_seconds=1.5, bot_delay=0.01, bots=BOTS5)
        code, token = out["code"], out["token"]
        with srv.connect(code, token) as ann:
            f = _my_turn(ann, 0)
            deadline = f["turn"]["deadline"]
            assert deadline is not None and -1 < deadline / 1000 - time.time() <= 1.55
            assert f["turn"]["auto"] is False
            # do nothing: the timer runs out, the bot plays for seat 0 and the seat goes to auto-play
            auto = ann.until(lambda fr: fr["type"] == "state" and fr["table"]["seats"][0]["auto"], timeout=5)
            assert any(e["type"] == "act" and e["seat"] == 0 for e in auto["events"])
            stored = srv.lobby().rooms[code]
            # while on auto-play, seat 0's turns are played without waiting for the timer
            n0 = stored.match.current.decisions
            ann.until(lambda fr: fr["type"] == "state" and fr["state"] > auto["state"] + 20, timeout=10)
            assert stored.match.current.decisions > n0 or len(stored.match.deals) > 1
            # the player comes back
            ann.send({"type": "auto", "on": False, "token": token})
            back = ann.until(lambda fr: fr["type"] == "state" and not fr["table"]["seats"][0]["auto"])
            assert back["state"] > auto["state"]
            f = _my_turn(ann, 0)
            assert f["turn"]["auto"] is False and f["turn"]["deadline"] is not None
            ann.act(choose(f["turn"]), f["state"])
            done = ann.until(lambda fr: fr["type"] == "state" and fr["state"] > f["state"])
            assert any(e["type"] == "act" and e["seat"] == 0 for e in done["events"])
            assert done["table"]["seats"][0]["auto"] is False
            # 托管 can also be asked for
            ann.send({"type": "auto", "on": True, "token": token})
            on = ann.until(lambda fr: fr["type"] == "state" and fr["table"]["seats"][0]["auto"])
            assert on["state"] > done["state"]


def test_reconnect_mid_deal_gets_the_full_view(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(nickname="ann", bots=BOTS5)
        code, token = out["code"], out["token"]
        with srv.connect(code, token) as ann:
            for _ in range(3):
                play_turn(ann, 0)
            ann.until(lambda f: f["type"] == "state" and f["state"] > (ann.acted_at or 0))
        room = srv.lobby().rooms[code]
        assert not any(c.seat == 0 for c in room.conns)
        end = time.monotonic() + 40  # generous: the machine may be shared
        # on to a real choice of seat 0 (no timer), or to the pause after the deal: a seat that never had a
        # real choice in the rest of the deal is never asked, and the next deal waits for it to be ready
        while (room.window is None or 0 not in room.window.asked) and room.ready is None:
            assert time.monotonic() < end
            time.sleep(0.005)
        with srv.connect(code, token) as again:
            welcome, full = again.frames[0], again.frames[1]
            assert welcome["seat"] == 0 and welcome["nickname"] == "ann"
            assert full["full"] is True and full["state"] == room.state
            assert full["view"]["hand"] == room.match.current.hand(0)
            assert full["view"]["log"] == room.match.current.view(0)["log"]
            if full["table"]["ready"] is not None:
                again.send({"type": "ready", "token": token})
            play_turn(again, 0, timeout=40)
            after = again.until(lambda f: f["type"] == "state" and f["state"] > full["state"])
            assert after["state"] > full["state"]


@pytest.mark.parametrize("bad", ["garbage", "x" * 3000])
def test_a_burst_of_bad_messages_closes_that_connection_only(make_server: Any, bad: str) -> None:
    with make_server() as srv:
        out = srv.create(nickname="ann", bots=BOTS5)
        other = srv.create(nickname="bob", bots=BOTS5)
        with srv.connect(out["code"], out["token"]) as ann, srv.connect(other["code"], other["token"]) as bob:
            start = time.monotonic()
            closed = False
            for _ in range(200):
                try:
                    ann.ws.send_text(bad)
                except Exception:
                    break
            errors = []
            try:
                while True:
                    errors.append(ann.recv(2))
            except Exception:
                closed = ann.closed is not None
            assert closed and ann.closed == 1008
            codes = {e["code"] for e in errors if e["type"] == "error"}
            assert codes <= {P.BAD_JSON, P.TOO_LARGE, P.RATE_LIMITED}
            assert len(errors) < 60  # refused quickly, not answered 200 times
            # the other table goes on at once
            bob.send({"type": "ping", "id": "still-there"})
            assert bob.until(lambda f: f["type"] == "pong")["id"] == "still-there"
            play_turn(bob, 0)
            assert bob.until(lambda f: f["type"] == "state" and f["state"] > (bob.acted_at or 0))
            assert time.monotonic() - start < 10


def test_rate_limit_refuses_a_flood_of_valid_messages(make_server: Any) -> None:
    from gouji.server import Limits

    with make_server(limits=Limits(rate=1, burst=10, bad_burst=100)) as srv:
        out = srv.create(nickname="ann", bots=BOTS5)
        with srv.connect(out["code"], out["token"]) as ann:
            start = time.monotonic()
            for i in range(30):
                ann.send({"type": "ping", "id": str(i)})
            frames = [ann.until(lambda f: f["type"] in ("pong", "error")) for _ in range(30)]
            refilled = int(time.monotonic() - start) + 1
            pongs = [f for f in frames if f["type"] == "pong"]
            limited = [f for f in frames if f["type"] == "error" and f["code"] == P.RATE_LIMITED]
            assert 9 <= len(pongs) <= 9 + refilled and len(limited) == 30 - len(pongs)  # hello took one
            assert [f["id"] for f in pongs][:9] == [str(i) for i in range(9)]
