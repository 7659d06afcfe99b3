"""Issue 42's pages in a real browser: sign up, the name in the top bar and at the table, the profile (the places'
chart, the numbers, the recent games, the open seats to go back to), sign out, a wrong password, sign in — one walk
at 390×844 and at 1366×768, in Chinese and in English; axe-core finds nothing on the sign-in and profile pages.
Screenshots go to ``tests/browser/artifacts/``."""

from __future__ import annotations

from typing import Any

import pytest

from gouji.server.limits import PerClient

from .conftest import PHONE, LiveServer, shot
from .test_phone import LAPTOP, axe_violations

WALKS = [(PHONE, "zh-CN"), (PHONE, "en-US"), (LAPTOP, "zh-CN"), (LAPTOP, "en-US")]
PASSWORD = "correct horse 42"
WORDS = {
    "zh": {"sign_in": "登录", "wrong": "名字或密码不对", "deals": "局数"},
    "en": {"sign_in": "Sign in", "wrong": "Wrong name or password", "deals": "Deals"},
}


@pytest.fixture
def allowances(server: LiveServer) -> None:
    """One address makes every account of the session: its sign-up and sign-in allowances start afresh."""
    sessions = server.app.state.sessions
    sessions.sign_ups = PerClient(sessions.sign_ups.rate, sessions.sign_ups.burst)
    sessions.sign_ins = PerClient(sessions.sign_ins.rate, sessions.sign_ins.burst)


def _open_menu(page: Any, item: str) -> None:
    page.click("#account-btn")
    page.wait_for_selector("#account-menu:not([hidden])")
    page.click(item)


@pytest.mark.parametrize(("viewport", "locale"), WALKS, ids=[f"{vp['width']}-{loc[:2]}" for vp, loc in WALKS])
def test_sign_up_play_a_deal_see_the_profile_sign_out_and_in(
    new_page: Any, server: LiveServer, allowances: None, viewport: dict[str, int], locale: str
) -> None:
    lang = locale[:2]
    words = WORDS[lang]
    name = f"{'安' if lang == 'zh' else 'Ann'}{viewport['width']}"
    page = new_page(viewport=viewport, locale=locale)

    # a guest holds a seat at a table waiting for a friend: once signed up, the seat is the account's
    bots: list[str | None] = [None, None] + ["heuristic"] * 4
    waiting = server.create(bots=bots, nickname=name, seat=0, set_length=1, turn_seconds=None)
    page.evaluate(
        "([code, info]) => localStorage.setItem('gouji.seats', JSON.stringify({[code]: info}))",
        [waiting["code"], {"seat": 0, "token": waiting["token"], "nickname": name}],
    )

    # the guest's lobby offers 登录 / Sign in, a link and no more
    page.goto("/")
    page.wait_for_selector("#sign-in-link")
    assert page.inner_text("#sign-in-link").strip() == words["sign_in"]
    page.click("#sign-in-link")
    page.wait_for_selector("#account-form[data-mode='signin']")
    assert page.get_attribute("#acc-name", "autocomplete") == "username"
    assert page.get_attribute("#acc-password", "autocomplete") == "current-password"
    assert axe_violations(page) == [], "the sign-in page"
    shot(page, f"account-signin-{viewport['width']}-{lang}")

    # sign up: the name in the top bar, the guest's seat the account's
    page.click("#to-signup")
    page.wait_for_selector("#account-form[data-mode='signup']")
    assert page.get_attribute("#acc-password", "autocomplete") == "new-password"
    page.fill("#acc-name", name)
    page.fill("#acc-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#account-btn")
    assert name in page.inner_text("#account-btn")
    server.wait(lambda: server.room(waiting["code"]).seats[0].account == name, what="the guest's seat claimed")

    # the lobby's nickname fields take the name; a table opened shows the seat as an account's
    page.wait_for_selector("#create-btn")
    assert page.input_value("#nickname") == name and page.input_value("#join-nickname") == name
    page.fill("#set-length", "1")
    page.select_option("#bot-delay", "0")
    page.click("#create-btn")
    page.wait_for_function("() => window.gouji.view.frame")
    code = page.evaluate("window.gouji.view.code")
    assert page.eval_on_selector(".seat.me .seat-name", "e => e.classList.contains('account')")
    shot(page, f"account-table-{viewport['width']}-{lang}")
    # 托管 plays the person's deal; the 1-deal set ends
    page.click("#auto-btn")
    server.wait(lambda: server.room(code).status == "over", timeout=60, what="the 1-deal set's end")

    # the profile: one deal in the chart and the numbers, the game listed, the waiting table's seat to go back to
    page.goto("/")
    page.wait_for_selector("#account-btn")
    _open_menu(page, "#menu-profile")
    page.wait_for_selector("#places-chart")
    counts = page.eval_on_selector_all("#places-chart .bar-col", "els => els.map((e) => +e.dataset.count)")
    assert len(counts) == 6 and sum(counts) == 1, counts
    assert page.get_attribute("#places-chart .bars", "role") == "img"
    assert page.inner_text("#stat-list [data-stat='deals'] dt") == words["deals"]
    assert page.inner_text("#stat-list [data-stat='deals'] dd") == "1"
    assert page.query_selector("#profile-recent a[href^='/?replay=']")
    assert page.query_selector(f"#profile-seats .continue[data-code='{waiting['code']}']")
    assert axe_violations(page) == [], "the profile"
    shot(page, f"account-profile-{viewport['width']}-{lang}", full_page=True)

    # continue: the seat on this device with a new token
    page.click(f"#profile-seats .continue[data-code='{waiting['code']}']")
    page.wait_for_function("() => window.gouji.view && window.gouji.view.frame")
    token = page.evaluate(f"JSON.parse(localStorage.getItem('gouji.seats'))['{waiting['code']}'].token")
    assert token and token != waiting["token"]
    assert page.evaluate("window.gouji.view.seat") == 0

    # sign out from the menu: 登录 / Sign in again
    page.goto("/")
    page.wait_for_selector("#account-btn")
    page.click("#account-btn")
    page.wait_for_selector("#account-menu:not([hidden])")
    shot(page, f"account-menu-{viewport['width']}-{lang}")
    page.click("#menu-sign-out")
    page.wait_for_selector("#sign-in-link")

    # a wrong password is told in words; the right one signs in
    page.click("#sign-in-link")
    page.wait_for_selector("#account-form[data-mode='signin']")
    page.fill("#acc-name", name)
    page.fill("#acc-password", "not the password")
    page.click("#account-submit")
    page.wait_for_selector("#account-error:not([hidden])")
    assert page.inner_text("#account-error") == words["wrong"]
    assert axe_violations(page) == [], "the sign-in page with its error"
    page.fill("#acc-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#account-btn")
    assert name in page.inner_text("#account-btn")


def test_the_menu_changes_the_password_and_deletes_the_account(
    new_page: Any, server: LiveServer, allowances: None
) -> None:
    """Signed in: the menu's 修改密码 refuses a wrong current password in words and takes the right one; 注销账号
    asks for the password, then the account is gone (its name signs in no more) and the page is a guest's."""
    page = new_page(viewport=PHONE, locale="zh-CN")
    page.goto("/?account=signup")
    page.fill("#acc-name", "Dora")
    page.fill("#acc-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#account-btn")

    _open_menu(page, "#menu-password")
    page.wait_for_selector("#account-form[data-mode='password']")
    assert page.get_attribute("#acc-password", "autocomplete") == "current-password"
    assert page.get_attribute("#acc-new_password", "autocomplete") == "new-password"
    page.fill("#acc-password", "not the password")
    page.fill("#acc-new_password", "a new password 7")
    page.click("#account-submit")
    page.wait_for_selector("#account-error:not([hidden])")
    assert page.inner_text("#account-error") == "密码不对"
    page.fill("#acc-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#profile-stats")  # (the own profile, after the change)

    _open_menu(page, "#menu-delete")
    page.wait_for_selector("#account-form[data-mode='delete']")
    assert axe_violations(page) == [], "the delete page"
    page.fill("#acc-password", "a new password 7")
    page.click("#account-submit")
    page.wait_for_selector("#sign-in-link")
    page.goto("/?player=Dora")
    page.wait_for_selector("#profile .error")
