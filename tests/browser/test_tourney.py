"""Tournaments in a real browser: a duplicate match of two people and ten bots through the page to its result
(the scorekeeper's view, the wait for the other table, the replay of either table), and a four-team event
run by its organiser from the page to its standings.

``GOUJI_UPDATE_SCREENSHOT=1`` also copies the scorekeeper's view to the README's ``docs/scorekeeper.png``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from gouji.server.duplicate import MatchHall
from gouji.server.events import EventHall

from .conftest import LiveServer, shot
from .test_table import act_by_hint, my_turn

DOCS_SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "scorekeeper.png"


def join_team(page: Any, team_code: str, nickname: str) -> str:
    """Sit down through the lobby's team-code form; returns the table's code."""
    page.wait_for_selector("#team-join-form")
    page.fill("#team-code", team_code)
    page.fill("#team-nickname", nickname)
    page.click("#team-join-btn")
    page.wait_for_selector(".felt")
    page.wait_for_function("() => window.gouji.view.frame")
    code: str = page.evaluate("window.gouji.view.code")
    return code


def play_a_few(page: Any, n: int) -> None:
    for _ in range(n):
        my_turn(page)
        if page.query_selector("#summary-continue"):
            return
        act_by_hint(page)


def test_a_duplicate_match_of_two_people_and_ten_bots_runs_to_its_result(new_page: Any, server: LiveServer) -> None:
    org = new_page()
    org.wait_for_selector("#match-form")
    org.fill("#team-x", "East")
    org.fill("#team-y", "West")
    org.fill("#dup-deals", "1")  # (one deal: table 1 still waits for table 2 to finish it)
    org.select_option("#dup_timer", "")
    org.select_option("#dup_speed", "0")
    org.click("#match-form details summary")
    # who plays, in one choice: one person a table (East's, seat 1 and seat 2), bots for the rest
    org.select_option("#dup-who", "one_per_table")
    chosen = org.eval_on_selector_all("[id^='dup-seat-']", "els => els.map(e => [e.id, e.value])")
    assert [i for i, v in chosen if v == ""] == ["dup-seat-0-0", "dup-seat-1-1"], chosen
    assert all(v == "heuristic" for i, v in chosen if i not in ("dup-seat-0-0", "dup-seat-1-1"))
    for table in (0, 1):
        for seat in range(6):
            person = (table, seat) in ((0, 0), (1, 1))  # both people are team East's; East's bots are random
            east = (table + seat) % 2 == 0
            org.select_option(f"#dup-seat-{table}-{seat}", "" if person else "random" if east else "heuristic")
    org.click("#match-create")
    org.wait_for_selector(".scorekeeper")
    match_code: str = org.evaluate("new URLSearchParams(location.search).get('match')")
    hall = server.lobby.halls.get(match_code, MatchHall)
    codes = org.eval_on_selector_all(".dup-codes .code-text", "els => els.map(e => e.textContent)")
    assert codes[:2] == hall.team_codes() and len(codes) == 4  # (read with the organiser's token)
    assert org.inner_text(".dup-table[data-table='0'] .seat-list li:first-child .team-name") == "East"

    ann = new_page()
    t1 = join_team(ann, codes[0], "Ann")
    bob = new_page()
    t2 = join_team(bob, codes[0], "Bob")
    assert (t1, t2) == (hall.tables[0].code, hall.tables[1].code)
    assert ann.evaluate("window.gouji.view.seat") == 0 and bob.evaluate("window.gouji.view.seat") == 1
    assert "East" in ann.inner_text("#dup-banner")
    # both tables label the sides by the teams sitting there, each team in its colour at both tables: East
    # (red) holds the even seats at table 1 and the odd ones at table 2
    for page, east_seat in ((ann, 0), (bob, 1)):
        page.wait_for_selector(".table-bar .score")
        score = page.inner_text(".table-bar .score")
        assert "East" in score and "West" in score and "红方" not in score, score
        colour = page.eval_on_selector(
            f".seat[data-seat='{east_seat}'] .avatar", "e => getComputedStyle(e).backgroundColor"
        )
        assert colour == "rgb(226, 87, 76)", (east_seat, colour)  # --red

    # Ann plays a few turns, then lets 托管 finish her deal; Bob does nothing: Ann's table waits for his
    play_a_few(ann, 3)
    ann.click("#auto-btn")
    server.wait(lambda: len(hall.tables[0].match.points) == 1, timeout=60, what="table 1 finishing deal 1")
    ann.wait_for_selector("#dup-banner.waiting")
    ann.wait_for_selector("#dup-wait")
    assert "不得交流" in ann.inner_text("#dup-banner")
    shot(ann, "duplicate-waiting")
    assert org.evaluate("document.querySelectorAll('#dup-sheet tbody tr[data-deal]').length") == 0
    # Bob plays a few turns and turns 托管 on too: both tables play on to the end of the match
    play_a_few(bob, 3)
    bob.click("#auto-btn")
    server.wait(lambda: hall.over, timeout=120, what="the end of the match")

    org.wait_for_selector("#dup-result")
    rows = org.eval_on_selector_all(
        "#dup-sheet tbody tr[data-deal]",
        "els => els.map(e => [...e.querySelectorAll('td.num')].map(c => +c.textContent))",
    )
    t = hall.tournament()
    assert rows == [list(p) for p in t.small_points()]
    assert org.inner_text("#dup-total-x") == str(t.totals[0]) and org.inner_text("#dup-total-y") == str(t.totals[1])
    mx, my = t.match_points()
    assert f"East {mx} : {my} West" in org.inner_text("#dup-result")
    org.click("#dup-compare summary")
    path = shot(org, "scorekeeper", full_page=True)
    if os.environ.get("GOUJI_UPDATE_SCREENSHOT"):
        shutil.copyfile(path, DOCS_SCREENSHOT)
    # the people's tables show the match points too, and link to the scorekeeper
    ann.wait_for_selector("#dup-scorekeeper-link")

    # either table of the match replays step by step
    org.wait_for_selector(".replay-links a[href*='table=1']")
    org.click(".replay-links a[href*='table=1']")
    org.wait_for_selector("#rp-step")
    org.click("#rp-last")
    org.wait_for_selector("#rp-result")
    assert "West" in org.inner_text("#rp-result") and "East" in org.inner_text("#rp-result")
    org.click("a[data-table='0']")
    org.wait_for_function("() => new URLSearchParams(location.search).get('table') === '0'")
    org.wait_for_selector("#rp-step")


def test_an_organiser_runs_a_four_team_event_from_the_page(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.wait_for_selector("#event-form")
    page.fill("#ev-teams", "Red, Blue, Gold, Jade")
    page.dispatch_event("#ev-teams", "input")
    for i, bot in enumerate(("heuristic", "random", "random", "heuristic")):
        page.select_option(f"[name=ev_bot_{i}]", bot)
    page.fill("#ev-deals", "1")
    page.click("#event-create")
    page.wait_for_selector(".event-view")
    code: str = page.evaluate("new URLSearchParams(location.search).get('event')")
    assert page.evaluate("document.querySelectorAll('.ev-match').length") == 6
    for started in range(1, 7):  # (each click starts one match; the view drops its button once it re-renders)
        page.click("[data-start]")
        page.wait_for_function(
            "n => document.querySelectorAll(\".ev-match[data-status='over']\").length >= n", arg=started
        )
    page.wait_for_selector("#event-status[data-over='1']")
    teams = page.eval_on_selector_all("#standings tbody tr", "els => els.map(e => e.dataset.team)")
    hall = server.lobby.halls.get(code, EventHall)
    assert teams == [s.team for s in hall.event.standings()]
    assert sorted(teams) == ["Blue", "Gold", "Jade", "Red"]
    shot(page, "event-standings", full_page=True)
    # each match's scorekeeper page is a click away (read from its stored record)
    page.click(".ev-match a.chip")
    page.wait_for_selector("#dup-result")
