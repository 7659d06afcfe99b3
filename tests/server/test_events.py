"""Events of several teams on the server: the schedule, matches started by the organiser (bots, people),
results entering the standings, and a restart."""

from __future__ import annotations

import contextlib
from typing import Any

from gouji.competition.duplicate import Tournament
from gouji.competition.loading import load_record
from gouji.competition.round_robin import Fixture, MatchResult, standings
from gouji.server.tournaments.duplicate import MatchHall, team_at
from gouji.server.tournaments.events import EventHall

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


def played_out(srv: Server, code: str, key: str, timeout: float = 60) -> dict[str, Any]:
    """The event's entry of fixture ``key`` once its match is over (a match of bots plays at its tables, at
    the server's pace: never inside the request that started it)."""
    wait_until(lambda: next(m for m in matches(event(srv, code)) if m["key"] == key)["status"] == "over", timeout)
    return next(m for m in matches(event(srv, code)) if m["key"] == key)


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
            assert played["played_by"] == "bots" and played["match"]["status"] == "playing"
        for m in matches(view):
            assert sum(played_out(srv, code, m["key"])["small_points"]) == 42
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


def seat_bots(view: dict[str, Any]) -> list[list[str | None]]:
    """The bot in each seat of both tables of a match (None: a person's seat)."""
    return [[s["bot"] for s in tb["seats"]] for tb in view["tables"]]


def test_a_team_of_people_and_bots_seat_by_seat_plays_its_fixtures(make_server: Any) -> None:
    """A team's three seats each a person or a bot of a level: its matches open with its bots seated and its
    people's seats free for its code (the tables wait for them), then play to the end; against a team of bots
    a team whose seats are all bots (of different levels) is played at once, each seat by its own bot."""
    with make_server() as srv:
        bots = {"Mix": [None, "novice", "heuristic"], "Bots": "heuristic", "Levels": ["novice", "heuristic", "novice"]}
        out = create_event(srv, teams=["Mix", "Bots", "Levels"], deals=1, bots=bots)
        code, token = out["code"], out["owner_token"]
        assert out["event"]["bots"] == bots
        fixtures = {frozenset((m["x"], m["y"])): m for m in matches(event(srv, code))}
        # Levels (all bots) against Bots: played by the engine at once, Levels' seats by their own bots
        m = fixtures[frozenset(("Levels", "Bots"))]
        played = start(srv, code, token, m["key"])
        assert played["played_by"] == "bots"
        assert sum(played_out(srv, code, m["key"])["small_points"]) == 42
        games = srv.client.get(f"/api/tables/{played['code']}/games").json()["games"]
        seated = {(p["table"], p["seat"]): p["bot"] for p in games[-1]["players"]}
        assert len(seated) == 12
        for (t, s), bot in seated.items():
            team = m["x"] if team_at(t, s) == 0 else m["y"]
            assert bot == (bots["Levels"][s // 2] if team == "Levels" else "heuristic"), (t, s, bot)
        # Mix against Bots: two tables, Mix's first seat a person's at each, its other seats its bots
        m = fixtures[frozenset(("Mix", "Bots"))]
        opened = start(srv, code, token, m["key"])
        mix = [m["x"], m["y"]].index("Mix")
        view = api(srv, f"/api/matches/{opened['code']}")
        for t, six in enumerate(seat_bots(view)):
            for s, bot in enumerate(six):
                want = bots["Mix"][s // 2] if team_at(t, s) == mix else "heuristic"
                assert bot == want, (t, s, bot)
        hall = srv.lobby().halls.get(opened["code"], MatchHall)
        # the tables wait for Mix's people: nothing has changed at either, no bot has played
        assert [(r.status, r.state) for r in hall.tables] == [("waiting", 0), ("waiting", 0)]
        team_code = opened["team_codes"][mix]["code"]
        people = [api(srv, f"/api/teams/{team_code}/join", {"nickname": "p1", "table": 0})]
        # table 1 has its people and plays (its bots up to the person's turn); table 2 still waits for its own
        wait_until(lambda: hall.tables[0].status == "playing", timeout=10)
        assert (hall.tables[1].status, hall.tables[1].state) == ("waiting", 0)
        people.append(api(srv, f"/api/teams/{team_code}/join", {"nickname": "p2", "table": 1}))
        assert [(p["table"], p["seat"] // 2) for p in people] == [(0, 0), (1, 0)]
        assert all(team_at(p["table"], p["seat"]) == mix for p in people)
        # the bots' seats are not a person's to take: the team has no free seat left
        assert "no free seat" in api(srv, f"/api/teams/{team_code}/join", {"nickname": "p3"}, 409)["error"]
        with contextlib.ExitStack() as stack:
            for p in people:  # both people let 托管 play: the match runs to its end with the bots
                c = stack.enter_context(srv.connect(p["code"], p["token"]))
                c.send({"type": "auto", "on": True, "token": c.token})
            wait_until(lambda: hall.over, timeout=60)
        mine = next(x for x in matches(event(srv, code)) if x["key"] == m["key"])
        assert mine["status"] == "over" and sum(mine["small_points"]) == 42
        view = api(srv, f"/api/matches/{opened['code']}")
        assert [[s["nickname"] for s in tb["seats"] if s["nickname"]] for tb in view["tables"]] == [["p1"], ["p2"]]
    with make_server() as srv2:  # after a restart the teams are the same, seat by seat
        assert event(srv2, code)["bots"] == bots
        m = fixtures[frozenset(("Mix", "Levels"))]
        opened = start(srv2, code, token, m["key"])
        mix = [m["x"], m["y"]].index("Mix")
        for t, six in enumerate(seat_bots(api(srv2, f"/api/matches/{opened['code']}"))):
            assert six == [bots["Mix" if team_at(t, s) == mix else "Levels"][s // 2] for s in range(6)], (t, six)


def test_a_team_refused_seat_by_seat_names_the_field_and_changes_nothing(make_server: Any) -> None:
    with make_server() as srv:
        before = (len(srv.lobby().halls.all(EventHall)), len(srv.lobby().rooms))
        for bots, message in (
            ({"A": ["heuristic", None]}, "bots['A'] must be a bot's name (GET /api/bots) or three seats (a list of 3"),
            ({"A": ["heuristic", None, None, None]}, "not a JSON array of 4"),
            ({"A": ["heuristic", None, "nobody"]}, "bots['A'][2]: no bot 'nobody'"),
            ({"A": [None, 7, None]}, "bots['A'][1] must be a bot's name"),
            ({"A": {"1": "novice"}}, "bots['A'] must be"),
            ({"Z": [None, "novice", None]}, "bots: no team 'Z'"),
        ):
            refused = create_event(srv, expect=400, teams=["A", "B"], bots=bots)["error"]
            assert refused.startswith(message) or message in refused, (bots, refused)
        assert (len(srv.lobby().halls.all(EventHall)), len(srv.lobby().rooms)) == before
        # three seats the same are one bot for the team (or people)
        out = create_event(srv, teams=["A", "B"], bots={"A": ["novice"] * 3, "B": [None] * 3})
        assert out["event"]["bots"] == {"A": "novice", "B": None}


def test_a_bot_the_server_no_longer_has_is_named_and_nothing_starts(make_server: Any, monkeypatch: Any) -> None:
    """An event stored while a bot was registered (an upgrade or downgrade since): starting one of its matches
    names the team, the seat and the bot, and starts nothing; with the bot back it starts."""
    from gouji import bots as registry

    with make_server() as srv:
        out = create_event(srv, teams=["A", "B"], deals=1, bots={"A": "heuristic", "B": ["random", None, None]})
        code, token = out["code"], out["owner_token"]
        key = matches(event(srv, code))[0]["key"]
        random_bot = registry.BOTS["random"]
        monkeypatch.delitem(registry.BOTS, "random")
        err = start(srv, code, token, key, expect=409)["error"]
        assert "'B'" in err and "seat 1" in err and "'random'" in err and "not started" in err
        assert matches(event(srv, code))[0]["status"] == "not started"
        registry.BOTS["random"] = random_bot
        assert start(srv, code, token, key)["match"]["teams"] == ["A", "B"]
        assert matches(event(srv, code))[0]["status"] == "playing"
