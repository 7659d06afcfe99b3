"""``POST /api/tables`` refuses rule options that RuleSet's validation refuses, with a 400 naming the option
(issue 12 item 3: never a 500, a hang, or a table that can never finish)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ({"decks": 1_000_000_000}, "decks: 1000000000 is not allowed: expected a whole number from 1 to 8"),
        ({"decks": 1000}, "decks"),
        ({"decks": 1}, "bie_san"),
        ({"place_points": [1]}, "place_points"),
        ({"scoring": "nope"}, "scoring: 'nope' is not allowed"),
        ({"yaotou_limit": -1}, "yaotou_limit: -1 is not allowed"),
        ({"set_length": 0}, "set_length"),
        ({"sweep_points": 10**30}, "sweep_points"),
        ({"no_three": "sometimes"}, "no_three"),
        ({"removed": {"3": 99}}, "removed"),
        ({"removed": {"D": 1}}, "removed"),
        ({"tribute_order": ["men", "men", "dian", "luo"]}, "tribute_order"),
        ({"kaidian_plays": "pure_only"}, "kaidian_plays: 'pure_only' is not allowed"),
        ({"kaidian_allows_money": "yes"}, "kaidian_allows_money: 'yes' is not allowed"),
        ({"kaidian_allows_money": True, "kaidian_plays": "any"}, "give kaidian_plays alone"),
    ],
)
def test_bad_rule_options_are_a_400_naming_the_option(make_server: Any, options: dict[str, Any], needle: str) -> None:
    with make_server() as srv:
        r = srv.client.post("/api/tables", json={"options": options})
        assert r.status_code == 400, r.text
        assert needle in r.json()["error"]
        assert srv.lobby().rooms == {}


def test_options_within_the_bounds_make_a_table(make_server: Any) -> None:
    with make_server() as srv:
        options = {"decks": 8, "place_points": [6, 3, 1, -1, -3, -6], "tribute_order": ["luo", "dian", "shao", "men"]}
        out = srv.create(options=options)
        assert out["code"]
        assert srv.client.get(f"/api/tables/{out['code']}").json()["config"]["rules"]["decks"] == 8


def test_which_plays_open_is_an_option_and_the_old_name_still_works(make_server: Any) -> None:
    """``kaidian_plays`` through the API; an old client's ``kaidian_allows_money`` is read as it (issue 34)."""
    with make_server() as srv:
        for options, reading in (
            ({"kaidian_plays": "no_jokers_no_single_two"}, "no_jokers_no_single_two"),
            ({"kaidian_allows_money": True}, "money"),
            ({"kaidian_allows_money": False}, "pure"),
        ):
            out = srv.create(preset="zaozhuang", options=options)
            rules = srv.client.get(f"/api/tables/{out['code']}").json()["config"]["rules"]
            assert rules["kaidian_plays"] == reading and "kaidian_allows_money" not in rules
