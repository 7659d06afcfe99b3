"""Duplicate matches on the server: two tables, the same cards with the teams swapped, the wait for the other
table, the scorekeeper's view, the stored records, hidden information over both tables, and a restart."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from gouji.competition.duplicate import Tournament
from gouji.competition.loading import load_record
from gouji.server.tournaments.duplicate import MatchHall

from ..helpers import wait_until
from .conftest import Server, drive

# ann holds table 1 seat 0 (team East), bob table 2 seat 1 (team East too); the other ten seats are bots
BOTS = [[None, "heuristic", "random", "heuristic", "random", "heuristic"], ["random", None] + ["random"] * 4]


def api(srv: Server, path: str, body: Any = None, expect: int = 200) -> dict[str, Any]:
    """GET ``path`` (or POST ``body`` to it), expecting status ``expect``; the JSON answer."""
    r = srv.client.get(path) if body is None else srv.client.post(path, json=body)
    assert r.status_code == expect, r.text
    data: dict[str, Any] = r.json()
    return data


def create(srv: Server, **body: Any) -> dict[str, Any]:
    return api(srv, "/api/matches", body, 201)


def team_join(srv: Server, code: str, nickname: str, expect: int = 200, **body: Any) -> dict[str, Any]:
    return api(srv, f"/api/teams/{code}/join", {"nickname": nickname, **body}, expect)


def scorekeeper(srv: Server, code: str) -> dict[str, Any]:
    return api(srv, f"/api/matches/{code}")


def stored_match_records(srv: Server, code: str) -> list[dict[str, Any]]:
    games = srv.client.get(f"/api/tables/{code}/games").json()["games"]
    return [srv.client.get(f"/api/records/{g['id']}").json() | {"_deal": g["deal"]} for g in games]


def test_a_match_of_bots_plays_both_tables_and_stores_the_duplicate_record(make_server: Any) -> None:
    with make_server() as srv:
        out = create(srv, teams=["East", "West"], deals=2, bots={"East": "random", "West": "heuristic"})
        code = out["code"]
        assert [t["team"] for t in out["team_codes"]] == ["East", "West"]
        assert all(len(t["code"]) == 10 for t in out["team_codes"])
        assert len({t["code"] for t in out["table_codes"]} | {code}) == 3
        wait_until(lambda: scorekeeper(srv, code)["status"] == "over", timeout=60)
        view = scorekeeper(srv, code)
        assert len(view["results"]) == 2 and all(sum(r["points"]) == 42 for r in view["results"])
        x, y = view["totals"]
        assert view["match_points"] == ([3, 0] if x > y else [0, 3] if y > x else [1, 1])
        for row in view["results"]:
            for t, places in enumerate(row["places"]):
                assert sorted(p["seat"] for p in places) == list(range(6))
                for p in places:
                    assert p["team"] == ["East", "West"][(p["seat"] + t) % 2]
        # the duplicate property, from the stored records alone
        records = stored_match_records(srv, code)
        assert [r["_deal"] for r in records] == [0, 1, None]
        final = records[-1]
        assert final["kind"] == "tournament" and final["version"] == 2
        for deal in final["deals"]:
            one, two = deal["tables"]
            assert one["hands"] == two["hands"]
            assert all(a != b for a, b in zip(one["teams"], two["teams"], strict=True))
        again = load_record({k: v for k, v in final.items() if k != "_deal"})
        assert isinstance(again, Tournament) and list(again.totals) == view["totals"]
        # the stored record of the first deal holds that deal only, at both tables
        assert len(records[0]["deals"]) == 1 and records[0]["totals"] == view["results"][0]["points"]
        for t in out["table_codes"]:
            assert srv.client.get(f"/api/tables/{t['code']}").json()["status"] == "over"
        # the page replays either table of the match, step by step
        games = srv.client.get(f"/api/tables/{code}/games").json()["games"]
        final_id = games[-1]["id"]
        for table in (0, 1):
            r = srv.client.get(f"/api/records/{final_id}/deals/1?table={table}")
            assert r.status_code == 200, r.text
            rep = r.json()
            assert rep["match"]["seat_teams"] == [["East", "West"], ["West", "East"]][table] * 3
            assert rep["places"] == final["deals"][1]["tables"][table]["places"]
            assert rep["steps"][0]["view"]["hands"] == final["deals"][1]["tables"][table]["hands"]
            assert len(rep["steps"]) == len(final["deals"][1]["tables"][table]["actions"]) + 1
            assert rep["match"]["small_points"] == view["results"][1]["points"]
        assert srv.client.get(f"/api/records/{final_id}/deals/1?table=2").status_code == 400
        assert srv.client.get(f"/api/records/{final_id}/deals/5?table=0").status_code == 404


def test_creating_and_joining_a_match_refuses_bad_requests(make_server: Any) -> None:
    with make_server() as srv:
        for body, message in (
            ({"teams": ["A"]}, "teams must be a list of 2"),
            ({"teams": ["A", "A"]}, "same name"),
            ({"deals": 0}, "deals"),
            ({"bots": {"Z": "random"}}, "no team"),
            ({"bots": [[None] * 6]}, "bots must be a list of 2 (a list of 6"),
            ({"bots": {"X": "nobody"}}, "no bot"),
            ({"preset": "moon"}, "preset"),
            ({"colour": "red"}, "unknown fields"),
        ):
            r = srv.client.post("/api/matches", json=body)
            assert r.status_code == 400 and message in r.json()["error"], (body, r.text)
        out = create(srv, bots=BOTS)  # teams X and Y
        code = out["code"]
        x_code, y_code = (t["code"] for t in out["team_codes"])
        seat = team_join(srv, x_code, "ann")
        assert (seat["table"], seat["seat"], seat["team"]) == (0, 0, "X")
        assert seat["code"] == out["table_codes"][0]["code"] and seat["token"]
        # team X's other free seat is table 2 seat 1; team Y has no free seat
        assert "no free seat" in team_join(srv, y_code, "cy", expect=409)["error"]
        assert "not team X" in team_join(srv, x_code, "cy", expect=409, table=1, seat=0)["error"]
        assert "table must be" in team_join(srv, x_code, "cy", expect=400, table=2)["error"]
        team_join(srv, f"{code}-1", "cy", expect=404)  # (a code derived from the match's is no team's)
        team_join(srv, "NOPE-1", "cy", expect=404)
        assert "nickname" in team_join(srv, x_code, "", expect=400)["error"]
        bob = team_join(srv, x_code, "bob")
        assert (bob["table"], bob["seat"]) == (1, 1)
        assert srv.client.get("/api/matches/NOPE").status_code == 404


def people(srv: Server) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], Any, Any]:
    """A match of two deals with ann and bob seated; also its two tables (rooms)."""
    out = create(srv, teams=["East", "West"], deals=2, bots=BOTS)
    east = out["team_codes"][0]["code"]
    ann = team_join(srv, east, "ann", table=0, seat=0)
    bob = team_join(srv, east, "bob", table=1, seat=1)
    return out, ann, bob, srv.lobby().rooms[ann["code"]], srv.lobby().rooms[bob["code"]]


def hands_of(srv: Server, code: str) -> list[list[str]]:
    """Every deal's dealt hands so far (both tables have the same)."""
    room = srv.lobby().rooms[code]
    return [d.events[0]["hands"] for d in room.match.deals]


def check_hidden(frames: list[str], seat: int, hands: Callable[[], list[list[str]]]) -> None:
    """No frame to ``seat`` carries the dealt hand of another seat, at either table (the same cards)."""
    for deal in hands():
        assert any(deal[seat] in text for text in frames), "the seat's own hand is in its frames, as dealt"
    for text in frames:
        for deal in hands():
            for other, hand in enumerate(deal):
                if other != seat:
                    assert hand not in text, f"a frame to seat {seat} holds seat {other}'s hand"


def test_a_table_that_finishes_first_waits_for_the_other_and_nothing_of_it_leaks(make_server: Any) -> None:
    with make_server() as srv:
        out, ann_seat, bob_seat, room1, room2 = people(srv)
        t1, t2 = ann_seat["code"], bob_seat["code"]
        with srv.connect(t1, ann_seat["token"]) as ann, srv.connect(t2, bob_seat["token"]) as bob:
            # ann plays deal 1 to its end while bob does nothing: table 2 stands still at bob's turn
            drive({0: ann}, lambda: len(room1.match.points) == 1)
            # table 2 stands at a real question of bob's (inside a window its seat to act may be another)
            wait_until(
                lambda: (room2.window is not None and 1 in room2.window.asked) or len(room2.match.points) == 1,
                timeout=40,
            )
            f = ann.until(lambda fr: fr["type"] == "state" and fr["table"]["duplicate"]["waiting"])
            assert f["table"]["ready"] is not None and f["turn"]["seat"] is None
            assert f["table"]["duplicate"]["complete"] == 0 and f["table"]["duplicate"]["small_points"] == []
            ann.send({"type": "ready", "token": ann.token})
            wait_until(lambda: room1.ready is not None and room1.ready[0])
            ann.act("pass", room1.state)
            assert ann.error()["code"] == "not_ready"
            assert room1.ready is not None and room1.deadline is None, "no ready timeout while the other plays"
            assert scorekeeper(srv, out["code"])["results"] == [], "the deal is not scored before both finish"
            for code in (t1, t2):  # nor does either table's public answer score it
                public = api(srv, f"/api/tables/{code}")
                assert public["points"] == [] and public["totals"] == [0, 0] and public["deals_over"] == 0
            # bob finishes deal 1: the deal is scored at both tables, and table 1 plays on
            drive({1: bob}, lambda: len(room2.match.points) == 1)
            f = ann.until(lambda fr: fr["type"] == "state" and fr["table"]["ready"] is None)
            assert f["table"]["duplicate"]["waiting"] is False
            assert f["table"]["duplicate"]["complete"] == 1
            view = scorekeeper(srv, out["code"])
            assert len(view["results"]) == 1 and view["tables"][0]["waiting"] is False
            # both play the last deal to the end of the match
            drive({0: ann, 1: bob}, lambda: room1.status == "over" and room2.status == "over", timeout=60)
            wait_until(lambda: scorekeeper(srv, out["code"])["status"] == "over")
            f = ann.until(lambda fr: fr["type"] == "state" and fr["table"]["duplicate"]["match_points"] is not None)
            bob.until(lambda fr: fr["type"] == "state" and fr["table"]["duplicate"]["match_points"] is not None)
            assert f["table"]["duplicate"]["complete"] == 2
            check_hidden(ann.raw, 0, lambda: hands_of(srv, t1))
            check_hidden(bob.raw, 1, lambda: hands_of(srv, t2))
            # every frame's view and events are of its own table: a state frame carries its own hand only
            for p, seat in ((ann, 0), (bob, 1)):
                for fr in p.frames:
                    if fr["type"] == "state":
                        assert "hands" not in fr["view"] and fr["view"].get("seat") == seat
        assert hands_of(srv, t1) == hands_of(srv, t2), "the same cards at both tables"


def test_nobody_watches_a_table_of_a_match_in_progress(make_server: Any) -> None:
    with make_server() as srv:
        _, ann_seat, *_ = people(srv)
        with srv.connect(ann_seat["code"], None, hello=False) as watcher:
            watcher.send({"type": "hello", "v": 1})
            err = watcher.error()
            assert err["code"] == "spectator" and "scorekeeper" in err["message"]


def test_a_restart_mid_match_resumes_both_tables(make_server: Any) -> None:
    with make_server() as srv:
        out, ann_seat, bob_seat, room1, room2 = people(srv)
        t1, t2 = ann_seat["code"], bob_seat["code"]
        with srv.connect(t1, ann_seat["token"]) as ann, srv.connect(t2, bob_seat["token"]) as bob:
            drive({0: ann}, lambda: len(room1.match.points) == 1)  # table 1 waits for table 2
            drive({1: bob}, lambda: room2.match.current.decisions > 6)
            # on to a real question of seat 1 (a decision with one answer is made for it)
            wait_until(lambda: room2.window is not None and 1 in room2.window.asked, timeout=40)
        states = (room1.state, room2.state)
        events2 = list(room2.match.current.events)
        hand = room2.match.current.hand(1)
    with make_server() as srv2:
        lobby = srv2.lobby()
        hall = lobby.halls.get(out["code"], MatchHall)
        r1, r2 = lobby.rooms[t1], lobby.rooms[t2]
        assert hall.tables == [r1, r2] and (r1.state, r2.state) == states
        assert r2.match.current.events == events2 and r2.match.current.hand(1) == hand
        assert r1.ahead() and r1.ready is not None, "table 1 still waits for table 2"
        with srv2.connect(t1, ann_seat["token"]) as ann, srv2.connect(t2, bob_seat["token"]) as bob:
            assert ann.frames[1]["table"]["duplicate"]["waiting"] is True
            drive({1: bob}, lambda: len(r2.match.points) == 1)
            drive({0: ann, 1: bob}, lambda: hall.over, timeout=60)
        view = scorekeeper(srv2, out["code"])
        assert view["status"] == "over" and len(view["results"]) == 2
        final = stored_match_records(srv2, out["code"])[-1]
        assert final["_deal"] is None and final["totals"] == view["totals"]
        assert json.dumps(final["deals"][0]["tables"][0]["hands"]) == json.dumps(
            final["deals"][0]["tables"][1]["hands"]
        )


def test_the_scorekeeper_view_has_both_tables(make_server: Any) -> None:
    with make_server() as srv:
        out, *_ = people(srv)
        view = scorekeeper(srv, out["code"])
        assert view["teams"] == ["East", "West"] and view["deals"] == 2 and view["preset"] == "tournament"
        assert [t["table"] for t in view["tables"]] == [0, 1]
        assert view["tables"][0]["seats"][0]["nickname"] == "ann"
        assert [s["team"] for s in view["tables"][1]["seats"]] == ["West", "East"] * 3
        assert view["match_points"] is None and view["status"] == "playing"
