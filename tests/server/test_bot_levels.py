"""The bots offered to people: ``GET /api/bots`` names the levels in both languages, and ``novice`` (新手)
is accepted wherever ``heuristic`` is — a table's seats, a match, an event, and 托管 (``--auto-bot``)."""

from __future__ import annotations

from typing import Any

from click.testing import CliRunner

from gouji.bots import BOTS, LEVELS, NoviceBot, make_bot
from gouji.cli import main
from gouji.server.settings import ServerSettings

from .test_duplicate import api
from .test_events import create_event, event, matches, played_out, start


def test_the_levels_are_served_in_both_languages(make_server: Any) -> None:
    with make_server() as srv:
        data = api(srv, "/api/bots")
        assert data["levels"][:2] == [
            {"bot": "novice", "zh": "新手", "en": "Novice"},
            {"bot": "heuristic", "zh": "高手", "en": "Skilled"},
        ]
        assert [lv["bot"] for lv in data["levels"]] == [lv.bot for lv in LEVELS]
        assert data["bots"] == ["novice", "heuristic", "beliefs", "expert", "learned", "random"]  # levels, then by name
        assert set(data["bots"]) == set(BOTS)
        assert data["auto"] == "heuristic"
    with make_server(auto_bot="novice") as srv:  # (gouji serve --auto-bot novice)
        assert api(srv, "/api/bots")["auto"] == "novice"
        assert srv.client.post("/api/bots", json={}).status_code == 405


def test_novice_sits_at_tables_matches_and_events(make_server: Any) -> None:
    with make_server() as srv:
        out = srv.create(preset="qingdao", bots=[None, "novice", "novice", "heuristic", "novice", "novice"])
        cfg = srv.client.get(f"/api/tables/{out['code']}").json()["config"]
        assert cfg["bots"] == [None, "novice", "novice", "heuristic", "novice", "novice"]
        seats = [[None, "novice", "random", "novice", "random", "novice"], ["novice", None] + ["novice"] * 4]
        match = api(srv, "/api/matches", {"teams": ["X", "Y"], "deals": 1, "bots": seats}, 201)
        assert api(srv, f"/api/matches/{match['code']}")["code"] == match["code"]
        bots = {"Low": "novice", "High": "heuristic"}
        ev = create_event(srv, teams=list(bots), deals=1, bots=bots)
        for m in matches(event(srv, ev["code"])):
            played = start(srv, ev["code"], ev["owner_token"], m["key"])
            assert played["played_by"] == "bots"
            played_out(srv, ev["code"], m["key"])
        assert event(srv, ev["code"])["over"]


def test_novice_plays_on_auto() -> None:
    assert CliRunner().invoke(main, ["serve", "--help"]).output.count("novice") >= 1
    settings = ServerSettings(auto_bot="novice")
    assert settings.auto_bot_name() == "novice"
    assert isinstance(make_bot(settings.auto_bot_name()), NoviceBot)
