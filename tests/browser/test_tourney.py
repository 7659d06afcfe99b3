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

from gouji.server.tournaments.duplicate import MatchHall
from gouji.server.tournaments.events import EventHall

from .conftest import LiveServer, shot
from .test_phone import axe_violations, set_language
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


# The scorekeeper's words stay whole at a laptop's width: no text of a seat's line or of the sheet's first column
# wrapped (one character a line: "机器人 · 高手" squeezed into a column one glyph wide).
SQUEEZED = """() => {
  const out = [];
  for (const e of document.querySelectorAll('.dup-table .seat-list li > span, .dup-score td:first-child')) {
    const r = document.createRange();
    r.selectNodeContents(e);
    const lines = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.bottom))).size;
    if (lines > 1) out.push([e.textContent.trim(), lines, Math.round(e.getBoundingClientRect().width)]);
  }
  return out;
}"""


def _check_scorekeeper_lines(page: Any) -> None:
    page.wait_for_selector(".dup-table .seat-list li")
    width = page.evaluate("innerWidth")
    assert width == 1366, width
    assert page.evaluate(SQUEEZED) == [], "the scorekeeper's lines squeezed at 1366 px"


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
    _check_scorekeeper_lines(org)

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
    # 总分 at both tables is the match's, as the scorekeeper counts it (each side its team's), not the table's
    for page, table in ((ann, 0), (bob, 1)):
        want = [str(t.totals[k if table == 0 else 1 - k]) for k in (0, 1)]
        page.wait_for_function(
            "w => [...document.querySelectorAll('.table-bar .score .pts')].map((e) => e.textContent).join() === w",
            arg=",".join(want),
        )
        page.wait_for_selector("#summary-totals")
        line = page.inner_text("#summary-totals")
        assert "比赛总分" in line and all(w in line for w in want), (table, line, want)
    _check_scorekeeper_lines(org)
    # the scorekeeper's page is axe-clean in both languages
    assert axe_violations(org) == [], "the scorekeeper"
    set_language(org, "en", ready="#dup-result")
    assert axe_violations(org) == [], "the scorekeeper in English"

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
    page.select_option("[name=ev_speed]", "0")  # (its bots' matches play at two tables, at this pace)
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
    # the event's page is axe-clean in both languages
    assert axe_violations(page) == [], "the event"
    set_language(page, "en", ready="#event-status[data-over='1']")
    assert axe_violations(page) == [], "the event in English"
    # each match's scorekeeper page is a click away (read from its stored record)
    page.click(".ev-match a.chip")
    page.wait_for_selector("#dup-result")


EVENT_LAYOUT = """() => {
  const vw = innerWidth, small = [], off = [];
  const form = document.querySelector('#event-form').getBoundingClientRect();
  for (const e of document.querySelectorAll('#event-form select, #event-form button, #event-form input')) {
    if (!(e.offsetWidth || e.offsetHeight)) continue;
    const b = e.getBoundingClientRect();
    if (b.height < 44 - 0.5) small.push([e.id || e.name, Math.round(b.height)]);
    if (b.left < Math.max(0, form.left) - 1 || b.right > Math.min(vw, form.right) + 1) {
      off.push([e.id || e.name, Math.round(b.left), Math.round(b.right)]);
    }
  }
  return { small, off, scrollW: document.scrollingElement.scrollWidth, vw };
}"""


def test_an_event_team_mixed_seat_by_seat_from_the_form(new_page: Any, server: LiveServer) -> None:
    """At 390×844 (Chinese) and 1366×768 (English): an event's team made of a person and two bots of levels
    (one person a table, then one seat changed), a team a bot stands in for and a team of people; the bots are
    offered and shown by level name, never by id; the form fits the screen with 44 px targets; the event page
    says who plays for each team, and the mixed team's match opens its tables with its bots seated and its
    person's seat free for the team's code."""
    for vp, locale, names in (
        ({"width": 390, "height": 844}, "zh-CN", ["红队", "蓝队", "金队"]),
        ({"width": 1366, "height": 768}, "en-US", ["Red", "Blue", "Gold"]),
    ):
        page = new_page(viewport=vp, locale=locale)
        page.wait_for_selector("#event-form")
        page.fill("#ev-teams", ", ".join(names))
        page.dispatch_event("#ev-teams", "input")
        labels = page.eval_on_selector_all("#ev-who-0 option", "els => els.map(e => e.textContent)")
        levels = ["机器人 · 新手", "机器人 · 高手"] if locale == "zh-CN" else ["Bot · Novice", "Bot · Skilled"]
        assert all(x in labels for x in levels), labels
        assert not any(b in x for x in labels for b in ("heuristic", "novice", "random")), labels
        assert not page.is_visible("#ev-seat-0-0")
        # one person a table, bots for the rest; then seat 3 a novice: the team's choice turns to seat by seat
        page.select_option("#ev-who-0", "one_per_table")
        seats = [page.input_value(f"#ev-seat-0-{k}") for k in range(3)]
        assert seats == ["", "heuristic", "heuristic"], seats
        page.select_option("#ev-seat-0-2", "novice")
        assert page.input_value("#ev-who-0") == "custom"
        page.select_option("#ev-who-1", "heuristic")  # a bot stands in for the whole team
        # the names typed again keep the choices made
        page.fill("#ev-teams", ", ".join(names) + ", ")
        page.dispatch_event("#ev-teams", "input")
        assert [page.input_value(f"#ev-seat-0-{k}") for k in range(3)] == ["", "heuristic", "novice"]
        page.fill("#ev-deals", "1")
        page.select_option("#ev_timer", "")
        page.select_option("#ev_speed", "0")
        got = page.evaluate(EVENT_LAYOUT)
        assert not got["small"] and not got["off"] and got["scrollW"] <= vp["width"], got
        page.eval_on_selector("#event-form", "e => e.scrollIntoView()")
        shot(page, f"event-form-mixed-{vp['width']}")
        assert axe_violations(page) == [], "the lobby with an event's teams chosen seat by seat"
        page.click("#event-create")
        page.wait_for_selector(".event-view")
        code: str = page.evaluate("new URLSearchParams(location.search).get('event')")
        hall = server.lobby.halls.get(code, EventHall)
        assert hall.bots == {names[0]: [None, "heuristic", "novice"], names[1]: "heuristic", names[2]: None}
        who = dict(
            page.eval_on_selector_all(
                "#standings tbody tr",
                "els => els.map(e => [e.dataset.team, (e.querySelector('.ev-who-plays') || {}).textContent || ''])",
            )
        )
        person, skilled, novice = ("真人", "高手", "新手") if locale == "zh-CN" else ("a person", "Skilled", "Novice")
        assert who[names[0]] == f"{person} · {skilled} · {novice}", who
        assert who[names[1]] == levels[1] and who[names[2]] == "", who
        # the mixed team's match against the bots: its tables seat the bots and wait for its person
        key = page.get_attribute(
            f".ev-match:has-text('{names[0]} — {names[1]}') [data-start], "
            f".ev-match:has-text('{names[1]} — {names[0]}') [data-start]",
            "data-start",
        )
        page.click(f"[data-start='{key}']")
        page.wait_for_selector(f".ev-match[data-key='{key}'] .ev-codes")
        got = page.evaluate("() => ({ scrollW: document.scrollingElement.scrollWidth })")
        assert got["scrollW"] <= vp["width"], got
        shot(page, f"event-mixed-{vp['width']}", full_page=True)
        match = server.lobby.halls.get(hall.matches[key], MatchHall)
        mix = match.teams.index(names[0])
        for room in match.tables:
            for seat in room.seats:
                if match.tournament().team_at(room.table_index, seat.index) == mix:
                    assert seat.bot == [None, "heuristic", "novice"][seat.index // 2], (room.table_index, seat.index)
                else:
                    assert seat.bot == "heuristic"
            assert room.status == "waiting"
