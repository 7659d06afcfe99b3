"""Issue 43's pages in a real browser, one walk at 390×844 in Chinese and one at 1366×768 in English: two people
signed up (each in a browser of their own) find the lobby's quick play; one queues alone and sees the time waited,
the queue restarted and queued again, and leaves in one tap; both quick play ``qingdao`` with bots and are seated
at one rated table, each other's titles beside the names; one blocks the other (whose phrases it then no longer
sees) and reports it; the hall lists the table with its titles, a waiting table to sit at in one tap and a table in
play to watch; the leaderboard lists the seeded ratings with one's own place marked; the profile draws the rating's
history.  axe-core finds nothing on the queue, the hall and the leaderboard.  Screenshots go to
``tests/browser/artifacts/``."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import pytest

from gouji.server.accounts.store import reports
from gouji.server.messages.schemas import name_key
from gouji.server.storage import AccountRow, RatingHistoryRow, RatingRow, Store

from .conftest import PHONE, LiveServer, shot
from .test_accounts_pages import PASSWORD, allowances  # noqa: F401 (a fixture)
from .test_phone import LAPTOP, axe_violations

WALKS = [(PHONE, "zh-CN"), (LAPTOP, "en-US")]
WORDS = {
    "zh": {"rated": "计分", "scholar": "秀才", "doctor": "进士", "watch": "观战"},
    "en": {"rated": "Rated", "scholar": "Scholar", "doctor": "Doctor", "watch": "Watch"},
}
# the leaderboard's seeded players: name → (mu, sigma); each listed, with 12 rated games
BOARD = {"Lin": (33.0, 2.0), "Mei": (30.0, 2.0), "Zhou": (24.0, 4.0)}
MINE = (27.0, 3.0)  # (shown 1720: 进士 / Doctor, third on the board above)
HISTORY = [1000, 1080, 1210, 1150, 1390, 1720]


def _seed(store: Store, ratings: dict[str, tuple[float, float]], history: dict[str, list[int]]) -> None:
    """Each named account (made when missing) listed at its rating, with its rating's history."""
    now = dt.datetime.now(dt.UTC)
    with store.sessions.begin() as s:
        for name, (mu, sigma) in ratings.items():
            account = s.query(AccountRow).filter(AccountRow.name == name).one_or_none()
            if account is None:
                account = AccountRow(name=name, name_key=name_key(name), password_hash="x", created_at=now)
                s.add(account)
                s.flush()
            row = s.get(RatingRow, account.id) or RatingRow(account_id=account.id)
            row.mu, row.sigma, row.ordinal, row.games, row.listed, row.updated_at = (
                mu,
                sigma,
                mu - 3 * sigma,
                12,
                True,
                now,
            )
            s.add(row)
            for i, rating in enumerate(history.get(name, [])):
                s.add(RatingHistoryRow(account_id=account.id, rating=rating, at=now - dt.timedelta(days=10 - i)))


def _on_writer(server: LiveServer, fn: Any, *args: Any) -> Any:
    lobby = server.lobby
    return asyncio.run_coroutine_threadsafe(lobby.writer.call(fn, lobby.writer.store, *args), server.loop).result(15)


def _sign_up(page: Any, name: str) -> None:
    status = page.evaluate(
        """async ([name, password]) => (await fetch('/api/accounts', { method: 'POST',
             headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password }) })).status""",
        [name, PASSWORD],
    )
    assert status == 201, status


def _status(page: Any, method: str, path: str) -> int:
    status: int = page.evaluate("async ([m, p]) => (await fetch(p, { method: m })).status", [method, path])
    return status


def _ticket(page: Any) -> str | None:
    return page.evaluate("(JSON.parse(sessionStorage.getItem('gouji.quickplay')) || {}).ticket || null")  # type: ignore[no-any-return]


@pytest.mark.usefixtures("allowances")
@pytest.mark.parametrize(("viewport", "locale"), WALKS, ids=[f"{vp['width']}-{loc[:2]}" for vp, loc in WALKS])
def test_quick_play_the_hall_and_the_leaderboard(
    new_page: Any, server: LiveServer, viewport: dict[str, int], locale: str
) -> None:
    lang, w = locale[:2], viewport["width"]
    words = WORDS[lang]
    # (names of their own: the browser tests share one server, and the accounts' walk signs up Ann{w})
    ann, bob = (f"甲{w}厅", f"乙{w}厅") if lang == "zh" else (f"Ava{w}", f"Ben{w}")
    a = new_page(viewport=viewport, locale=locale)
    b = new_page(viewport=viewport, locale=locale)
    a.wait_for_selector("#qp-sign-in")  # (a guest's quick play: a line and a link to sign in)
    assert not a.query_selector("#qp-start")
    _sign_up(a, ann)
    _sign_up(b, bob)
    _on_writer(server, _seed, {**BOARD, ann: MINE}, {ann: HISTORY})

    # the lobby: quick play (a preset, bots may fill) and the hall's and the leaderboard's links
    a.goto("/")
    a.wait_for_selector("#quickplay-form")
    assert a.query_selector("#hall-link") and a.query_selector("#leaderboard-link")
    a.eval_on_selector("#quickplay", "e => e.scrollIntoView()")
    shot(a, f"hall-lobby-{w}-{lang}")

    # alone in a queue without bots: the time waited, a button to leave
    a.select_option("#qp-preset", "heze")
    a.uncheck("#qp-bots")
    a.click("#qp-start")
    a.wait_for_function("() => (JSON.parse(sessionStorage.getItem('gouji.quickplay')) || {}).ticket")
    assert a.evaluate("location.pathname + location.search") == "/quickplay?preset=heze&bots=0"
    a.wait_for_function("() => /[1-9]$/.test(document.querySelector('#qp-clock').textContent)")
    assert axe_violations(a) == [], "the queue"
    shot(a, f"hall-queue-{w}-{lang}")
    # the server forgets the ticket (as a restart would): the page says so and queues again, once
    first = _ticket(a)
    assert _status(a, "DELETE", f"/api/quickplay/{first}") == 204
    a.wait_for_selector("#qp-notice")
    a.wait_for_function(
        "(old) => { const s = JSON.parse(sessionStorage.getItem('gouji.quickplay')); return s && s.ticket !== old; }",
        arg=first,
    )
    again = _ticket(a)
    assert again != first and _status(a, "GET", f"/api/quickplay/{again}") == 200
    a.click("#qp-leave")
    a.wait_for_selector("#quickplay-form")
    assert _status(a, "GET", f"/api/quickplay/{again}") == 404, "left the queue"

    # both quick play qingdao with bots: one table, rated, each other's titles beside the names
    for page in (a, b):
        page.goto("/quickplay?preset=qingdao&bots=1")
        page.wait_for_selector("#qp-clock")
    for page in (a, b):
        page.wait_for_function("() => window.gouji.view && window.gouji.view.frame", timeout=30_000)
    code = a.evaluate("window.gouji.view.code")
    assert b.evaluate("window.gouji.view.code") == code
    seat_b = b.evaluate("window.gouji.view.seat")
    assert a.evaluate(f"JSON.parse(localStorage.getItem('gouji.seats'))['{code}'].token")
    assert a.eval_on_selector(".table-bar .rated-chip", "e => e.textContent") == words["rated"]
    a.wait_for_selector(f".seat[data-seat='{seat_b}'] .seat-title .title-chip")
    assert a.inner_text(f".seat[data-seat='{seat_b}'] .seat-title") == words["scholar"]
    assert a.inner_text(".seat.me .seat-title") == words["doctor"]
    shot(a, f"hall-table-{w}-{lang}")

    # Bob's phrases reach Ann until she blocks him from the menu on his name; then she reports him
    b.evaluate("window.gouji.view.say('thanks')")
    a.wait_for_selector(f".seat[data-seat='{seat_b}'] .said[data-phrase='thanks']")
    a.click(f".seat-name-btn[data-seat='{seat_b}']")
    a.wait_for_selector("#people-menu")
    shot(a, f"hall-people-menu-{w}-{lang}")
    a.click("#pm-block")
    a.wait_for_function(f"() => !document.querySelector('#people-menu') && window.gouji.view.speakerHidden({seat_b})")
    assert a.evaluate("fetch('/api/me').then((r) => r.json()).then((me) => me.blocks)") == [bob]
    b.evaluate("window.gouji.view.say('gg')")
    a.wait_for_timeout(1500)
    assert not a.query_selector(".said[data-phrase='gg']"), "a blocked account's phrase is shown"
    a.click(f".seat-name-btn[data-seat='{seat_b}']")
    a.click("#pm-report-open")
    a.fill("#pm-reason", "rude phrases")
    a.click("#pm-send")
    a.wait_for_function("() => !document.querySelector('#people-menu')")
    server.wait(lambda: any(r["reported"] == bob for r in _on_writer(server, reports)), what="the report stored")

    # the hall: the quick play table with its titles, a waiting table to sit at, a table in play to watch
    waiting = server.create(public=True, bots=[None, None] + ["heuristic"] * 4, set_length=1)
    playing = server.create(public=True, bots=[None] + ["heuristic"] * 5, nickname="Guest", seat=0, set_length=1)
    b.goto("/hall")
    for c in (code, waiting["code"], playing["code"]):
        b.wait_for_selector(f"#hall-tables li[data-code='{c}']", timeout=20_000)
    ours = f"#hall-tables li[data-code='{code}']"
    assert b.get_attribute(ours, "data-status") == "playing"
    titles = b.eval_on_selector_all(f"{ours} .title-chip", "els => els.map((e) => e.textContent)")
    assert sorted(titles) == sorted([words["doctor"], words["scholar"]]), titles
    assert b.query_selector(f"{ours} a.hall-go"), "Bob's own seat: back to it"
    assert b.query_selector(f"#hall-tables li[data-code='{playing['code']}'] a.hall-watch")
    assert b.inner_text("#hall-online")
    assert axe_violations(b) == [], "the hall"
    shot(b, f"hall-{w}-{lang}", full_page=True)
    b.click(f"#hall-tables li[data-code='{waiting['code']}'] .hall-sit")
    b.wait_for_function("() => window.gouji.view && window.gouji.view.frame")
    assert b.evaluate("window.gouji.view.code") == waiting["code"]
    assert server.room(waiting["code"]).seats[b.evaluate("window.gouji.view.seat")].account == bob
    b.goto("/hall")
    b.click(f"#hall-tables li[data-code='{playing['code']}'] a.hall-watch")
    b.wait_for_function("() => window.gouji.view && window.gouji.view.frame")
    assert b.evaluate("[window.gouji.view.code, window.gouji.view.seat]") == [playing["code"], None]

    # the leaderboard: by rating, Ann's row marked with her place
    a.goto("/leaderboard")
    a.wait_for_selector("#lb-table")
    names = a.eval_on_selector_all("#lb-table tbody tr:not(.gap) .name", "els => els.map((e) => e.textContent)")
    assert names.index("Lin") < names.index("Mei") < names.index(ann) < names.index("Zhou"), names
    assert a.inner_text("#lb-table tr.me .name") == ann
    place = a.get_attribute("#lb-table tr.me", "data-place")
    assert place and place in a.inner_text("#lb-mine")
    assert axe_violations(a) == [], "the leaderboard"
    shot(a, f"hall-leaderboard-{w}-{lang}", full_page=True)

    # the profile: the rating, its title and its history as a chart
    a.click("#lb-table tr.me a")
    a.wait_for_selector("#rating-chart svg")
    assert a.inner_text("#rating-value") == "1720"
    assert a.get_attribute("#rating-chart svg", "role") == "img"
    shot(a, f"hall-profile-{w}-{lang}")
