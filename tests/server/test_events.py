"""Events of several teams on the server: the schedule, matches started by the organiser (bots, people),
results entering the standings, and a restart."""

from __future__ import annotations

import contextlib
from typing import Any

from gouji.competition.duplicate import Tournament
from gouji.competition.loading import load_record
from gouji.competition.round_robin import Fixture, MatchResult, standings
from gouji.server.duplicate import MatchHall

from ..helpers import wait_until
from .conftest import Server
from .test_duplicate import api


def create_event(srv: Server, expect: int = 201, **body: Any) -> dict[str, Any]:
    return api(srv, "/api/events", body, expect)


def event(srv: Server, code: str) -> dict[str, Any]:
    return api(srv, f"/api/events/{code}")


def start(srv: Server, code: str, token: str, fixture: str, expect: int = 200) -> dict[str, Any]:
    return api(srv, f"/api/events/{code}/start", {"owner_token": token, "fixture": fixture}, expect)


def matches(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for r in view["rounds"] for m in r["matches"]]


def test_an_event_of_four_bot_teams_runs_to_its_standings(make_server: Any) -> None:
    with make_server() as srv:
        bots = {"Red": "heuristic", "Blue": "random", "Gold": "random", "Jade": "heuristic"}
        out = create_event(srv, teams=list(bots), deals=1, bots=bots)
        code, token = out["code"], out["owner_token"]
        view = event(srv, code)
        assert [len(r["matches"]) for r in view["rounds"]] == [2, 2, 2]
        assert all(m["status"] == "not started" for m in matches(view))
        assert [s["played"] for s in view["standings"]] == [0, 0, 0, 0]
        for m in matches(view):
            played = start(srv, code, token, m["key"])
            assert played["played_by"] == "bots" and sum(played["small_points"]) == 42
        view = event(srv, code)
        assert view["over"] and all(m["status"] == "over" for m in matches(view))
        # the standings are the engine's, from the results
        results = [
            (Fixture(1, i, m["x"], m["y"]), MatchResult(*m["small_points"])) for i, m in enumerate(matches(view))
        ]
        assert view["standings"] == [s.to_dict() for s in standings(list(bots), results)]
        # every match is stored, and its record replays to its result
        for m in matches(view):
            games = srv.client.get(f"/api/tables/{m['match']}/games").json()["games"]
            rec = srv.client.get(f"/api/records/{games[-1]['id']}").json()
            played_match = load_record(rec)
            assert isinstance(played_match, Tournament) and list(played_match.totals) == m["small_points"]
            assert rec["teams"] == [m["x"], m["y"]]


def test_the_organiser_alone_starts_matches_once(make_server: Any) -> None:
    with make_server() as srv:
        out = create_event(srv, teams=["A", "B", "C"], deals=1, bots={"A": "random", "B": "random", "C": "random"})
        code, token = out["code"], out["owner_token"]
        first = matches(event(srv, code))[0]["key"]
        assert "organiser" in start(srv, code, "nope", first, expect=403)["error"]
        assert "no match" in start(srv, code, token, "r9m9", expect=404)["error"]
        start(srv, code, token, first)
        assert "already" in start(srv, code, token, first, expect=409)["error"]
        assert [len(r["byes"]) for r in event(srv, code)["rounds"]] == [1, 1, 1]
        for body, message in (
            ({"teams": ["A"]}, "2 to 16"),
            ({"teams": ["A", "B"], "bots": {"Z": "random"}}, "no team"),
            ({"teams": ["A", "B"], "bots": {"A": "nobody"}}, "no bot"),
            ({"teams": ["A", "B"], "deals": 99}, "deals"),
            ({"teams": ["A", "B"], "preset": "moon"}, "preset"),
            ({"teams": ["A", "B"], "size": 3}, "unknown"),
        ):
            assert message in create_event(srv, expect=400, **body)["error"], body
        assert srv.client.get("/api/events/NOPE").status_code == 404


def test_a_match_of_people_enters_the_standings_and_the_event_survives_a_restart(make_server: Any) -> None:
    with make_server() as srv:
        bots = {"Bots": "heuristic", "More": "random"}
        out = create_event(srv, teams=["Us", "Bots", "More"], deals=1, bots=bots)
        code, token = out["code"], out["owner_token"]
        ours = next(m for m in matches(event(srv, code)) if "Us" in (m["x"], m["y"]))
        opened = start(srv, code, token, ours["key"])
        assert "owner_token" not in opened and opened["match"]["teams"] == [ours["x"], ours["y"]]
        us = [ours["x"], ours["y"]].index("Us")
        team_code = opened["team_codes"][us]["code"]
        seats = []
        for name in ("a1", "a2", "a3", "a4", "a5", "a6"):
            r = srv.client.post(f"/api/teams/{team_code}/join", json={"nickname": name})
            assert r.status_code == 200, r.text
            seats.append(r.json())
        # team X sits in seats 0, 2, 4 at table 1 and 1, 3, 5 at table 2; team Y the other way round
        assert sorted((s["table"], s["seat"] % 2) for s in seats) == sorted([(0, us)] * 3 + [(1, 1 - us)] * 3)
        view = event(srv, code)
        assert next(m for m in matches(view) if m["key"] == ours["key"])["status"] == "playing"
    with make_server() as srv2:  # a restart while the match waits for its people
        view = event(srv2, code)
        assert next(m for m in matches(view) if m["key"] == ours["key"])["match"] == opened["code"]
        hall = srv2.lobby().halls.get(opened["code"], MatchHall)
        with contextlib.ExitStack() as stack:
            for s in seats:  # everyone of the team turns on auto-play (托管)
                p = stack.enter_context(srv2.connect(s["code"], s["token"]))
                p.send({"type": "auto", "on": True, "token": p.token})
            wait_until(lambda: hall.over, timeout=60)
        view = event(srv2, code)
        mine = next(m for m in matches(view) if m["key"] == ours["key"])
        assert mine["status"] == "over" and sum(mine["small_points"]) == 42
        assert sum(s["played"] for s in view["standings"]) == 2
        rest = [m for m in matches(view) if m["status"] == "not started"]
        start(srv2, code, token, rest[0]["key"])  # the organiser goes on after the restart
    with make_server() as srv3:
        view = event(srv3, code)
        assert sum(m["status"] != "not started" for m in matches(view)) == 2
        finished = srv3.client.get(f"/api/matches/{opened['code']}").json()  # from its stored record
        assert finished["status"] == "over" and finished["totals"] == mine["small_points"]
        assert finished["match_points"] == mine["match_points"] and len(finished["results"]) == 1
