"""The browser table in a real browser (Debian's Chromium through Playwright), against the real server.

Screenshots of the key moments are kept in ``tests/browser/artifacts/``.  (``GOUJI_UPDATE_SCREENSHOT=1`` makes
test_card_room.py copy its picture of a deal in play to the README's ``docs/screenshot.png``.)
"""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Any

import pytest

import gouji
from gouji.competition import load_record
from gouji.engine.cards import format_counts, parse_counts

from .conftest import PHONE, SEEDS, LiveServer, shot

DOCS_SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshot.png"
RANK_KEYS = {
    **{c: f"Digit{c}" for c in "23456789"},
    "T": "Digit0",
    "J": "KeyJ",
    "Q": "KeyQ",
    "K": "KeyK",
    "A": "KeyA",
    "X": "KeyX",
    "D": "KeyD",
}

# ------------------------------------------------------------------------------------------ helpers


def create_in_lobby(
    page: Any, nickname: str, *, set_length: int | None = None, seats: dict[int, str] | None = None
) -> str:
    """Open a table through the lobby form: instant bots, no timer; returns its code."""
    page.wait_for_selector("#create-form")
    page.fill("#nickname", nickname)
    page.select_option("#bot-delay", "0")
    page.select_option("#timer", "")
    if set_length is not None:
        page.fill("#set-length", str(set_length))
    if seats:
        page.click("#more-options summary")  # the seats are folded away with the rule options
    for s, v in (seats or {}).items():
        page.select_option(f"#seat-{s}", v)
    page.click("#create-btn")
    page.wait_for_selector(".felt")
    page.wait_for_function("() => window.gouji.view.frame")
    skip_dealing(page)
    # the keyboard starts on the table (a rank of the hand, or the bar), not on the page's body
    page.wait_for_function("() => document.activeElement && document.activeElement !== document.body")
    code: str = page.evaluate("window.gouji.view.code")
    return code


def open_seat(page: Any, code: str, seat: int, token: str, nickname: str) -> None:
    """Sit this browser at a seat taken through the API (as the lobby would have stored it)."""
    page.evaluate(
        "([code, info]) => localStorage.setItem('gouji.seats', JSON.stringify({[code]: info}))",
        [code, {"seat": seat, "token": token, "nickname": nickname}],
    )
    page.goto(f"/?t={code}")
    page.wait_for_function("() => window.gouji.view.frame")
    skip_dealing(page)


def skip_dealing(page: Any) -> None:
    """The cards are dealt with a short animation at the start of a deal: skipped, as a tap would, so that a
    test measures the cards where they lie (test_phone.py's walk sees it run, and skipped by a tap)."""
    page.evaluate("window.gouji.view.stopDealing()")


def state(page: Any) -> int:
    n: int = page.evaluate("window.gouji.view.frame.state")
    return n


def my_turn(page: Any) -> None:
    page.wait_for_selector("#btn-hint:not([disabled]), #summary-continue")


def hand_on_page(page: Any) -> str:
    """The hand as the page shows it: its rank groups and their counts."""
    groups = page.eval_on_selector_all(".hand .group", "els => els.map(e => [e.dataset.rank, +e.dataset.count])")
    return "".join(r * n for r, n in groups)


def act_by_hint(page: Any) -> str:
    """Ask for a hint and take it; returns the hint's reason."""
    before = state(page)
    page.click("#btn-hint")
    page.wait_for_selector(".hinted:not([disabled])")
    reason: str = page.inner_text(".hint-reason")
    page.click(".hinted")
    page.wait_for_function(
        "s => window.gouji.view.frame.state > s || !!document.querySelector('#summary-continue')", arg=before
    )
    return reason


def select_cards(page: Any, text: str) -> None:
    """Select these cards by clicking their rank groups (one click, one card)."""
    if page.is_enabled("#btn-clear"):
        page.click("#btn-clear")
    for r in dict.fromkeys(text):
        for _ in range(text.count(r)):
            page.click(f".hand .group[data-rank='{r}']")


def sent_actions(page: Any) -> list[dict[str, Any]]:
    """Record every ``act`` the page sends on its WebSocket (call before the page connects)."""
    sent: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        def on_frame(payload: Any) -> None:
            try:
                msg = json.loads(payload)
            except (TypeError, ValueError):
                return
            if msg.get("type") == "act":
                sent.append(msg)

        ws.on("framesent", on_frame)

    page.on("websocket", on_ws)
    return sent


def table_in_play(server: LiveServer, **options: Any) -> dict[str, Any]:
    """A table with a person at seat 0 and five bots, straight into play (no revolution, no 宣点)."""
    bots: list[str | None] = ["heuristic"] * 6
    bots[0] = None
    return server.create(
        bots=bots,
        nickname="Ann",
        seat=0,
        bot_delay=0,
        turn_seconds=None,
        options={"revolution": False, "xuandian": False, **options},
    )


# ------------------------------------------------------------------------------------------ the tests


def test_the_next_deal_starts_when_the_person_clicks_ready_and_a_reload_keeps_the_summary(
    new_page: Any, server: LiveServer
) -> None:
    """A whole deal of a two-deal set by the hint: the summary shows who is ready (the bots, not Ann) and
    nothing moves while it is up; its rows are one line each; a reload keeps its places, reasons and the
    tribute the next deal owes; Ann's 继续 starts the next deal."""
    bots: list[str | None] = ["heuristic"] * 6
    bots[0] = None
    t = server.create(
        bots=bots,
        nickname="Ann",
        seat=0,
        bot_delay=0,
        turn_seconds=None,
        set_length=2,
        options={"revolution": False, "xuandian": False},
    )
    code = t["code"]
    room = server.room(code)
    page = new_page()
    sent: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))))
    open_seat(page, code, 0, t["token"], "Ann")
    for _ in range(400):
        my_turn(page)
        if page.query_selector("#summary-continue"):
            break
        act_by_hint(page)
    else:
        raise AssertionError("the deal does not end")
    # the summary shows who is ready; the bots are, Ann is not; the next deal waits
    page.wait_for_selector(".ready-seat")
    marks = page.eval_on_selector_all(".ready-seat", "els => els.map(e => e.dataset.ready)")
    assert marks == ["0", "1", "1", "1", "1", "1"]
    # the ✓ marks are plain text in their row: not the felt's flourishes (.marks .mark), which fade out
    looks = page.eval_on_selector_all(
        ".ready-seat .mark",
        "els => els.map(e => { const s = getComputedStyle(e);"
        " return [s.animationName, s.borderTopStyle, s.opacity]; })",
    )
    assert looks == [["none", "none", "1"]] * 6, looks
    assert room.ready is not None and len(room.match.points) == 1
    state_before = room.state
    shot(page, "ready-gate")
    # each row on one line: place, seat, why and points side by side
    rows = page.eval_on_selector_all(
        ".summary .places li",
        "els => els.map(li => Array.from(li.children).map(c => { const r = c.getBoundingClientRect();"
        " return [c.className, r.top + r.height / 2, r.left, r.right]; }))",
    )
    for cells in rows:
        assert len(cells) == 4 and max(c[1] for c in cells) - min(c[1] for c in cells) < 4, cells
        assert all(a[3] <= b[2] + 1 for a, b in itertools.pairwise(cells)), cells
    # a reload at the end of the deal keeps the places, the reasons and the tribute
    before = page.eval_on_selector_all(".summary .places li", "els => els.map(e => e.textContent)")
    page.reload()
    page.wait_for_selector(".summary .places li")
    after = page.eval_on_selector_all(".summary .places li", "els => els.map(e => e.textContent)")
    assert after == before and len(after) == 6
    owed = [e for e in room.match.deals[1].events if e["type"] == "tribute"]
    lines = page.eval_on_selector_all(".summary .tribute li", "els => els.map(e => e.textContent)")
    assert len(lines) == len(owed)
    if owed:
        assert page.query_selector(".summary .tribute p.muted") is None  # not "不用进贡"
    shot(page, "summary-after-reload")
    assert room.state == state_before  # nothing moved while the summary was up
    page.click("#summary-continue")
    page.wait_for_selector(".summary", state="detached")
    assert any(m.get("type") == "ready" and m.get("token") == t["token"] for m in sent)
    server.wait(lambda: room.ready is None and room.state > state_before + 1, what="the next deal")
    page.wait_for_function("() => window.gouji.view.frame.table.ready === null && window.gouji.view.deal === 1")
    assert page.evaluate("window.gouji.view.frame.deal") == 1


def test_two_people_at_one_table_each_see_only_their_own_hand(new_page: Any, server: LiveServer) -> None:
    ann = new_page()
    ann_frames: list[str] = []
    ann.on("websocket", lambda ws: ws.on("framereceived", lambda p: ann_frames.append(str(p))))
    code = create_in_lobby(ann, "Ann", seats={3: "person"})
    ann.wait_for_selector(".waiting .code-big")
    assert ann.inner_text(".waiting .code-big") == code

    bob = new_page(path=f"/?t={code}")  # the invite link
    bob_frames: list[str] = []
    bob.on("websocket", lambda ws: ws.on("framereceived", lambda p: bob_frames.append(str(p))))
    bob.wait_for_selector("[data-sit='3']")
    bob.fill("#join-nickname", "Bob")
    bob.click("[data-sit='3']")
    bob.wait_for_selector(".hand .group")
    ann.wait_for_selector(".hand .group")

    room = server.room(code)
    server.wait(lambda: room.status == "playing", what="the table starting")
    deal = room.match.current

    def synced(page: Any, seat: int) -> bool:
        return bool(page.evaluate("window.gouji.view.frame.view.hand") == deal.hand(seat))

    server.wait(lambda: synced(ann, 0) and synced(bob, 3), what="both pages showing the current hands")
    assert parse_counts(hand_on_page(ann)) == parse_counts(deal.hand(0))
    assert parse_counts(hand_on_page(bob)) == parse_counts(deal.hand(3))
    assert ann.evaluate("window.gouji.view.seat") == 0 and bob.evaluate("window.gouji.view.seat") == 3
    # each sees the other's seat with a count, never the cards (unless laid down by a revolution)
    for page, other in ((ann, 3), (bob, 0)):
        if other not in deal.revolted:
            assert page.query_selector(f".seat[data-seat='{other}'] .seat-hand") is None
    assert not any(f'"hand":"{deal.hand(3)}"' in f for f in ann_frames)
    assert not any(f'"hand":"{deal.hand(0)}"' in f for f in bob_frames)
    assert ann.inner_text(".seat[data-seat='3'] .seat-name") == "Bob"
    assert bob.inner_text(".seat[data-seat='0'] .seat-name") == "Ann"
    shot(ann, "two-people-ann")
    shot(bob, "two-people-bob")


def test_an_illegal_selection_cannot_be_sent(new_page: Any, server: LiveServer) -> None:
    t = table_in_play(server)
    page = new_page()
    sent = sent_actions(page)
    open_seat(page, t["code"], 0, t["token"], "Ann")
    room = server.room(t["code"])
    while True:
        my_turn(page)
        frame = page.evaluate("window.gouji.view.frame")
        plays = [c for c in frame["turn"].get("choices") or [] if c not in ("pass", "yield")]
        if not frame["turn"]["burn_offer"] and (frame["view"]["top"] is None or plays):
            break
        act_by_hint(page)  # nothing to play on this one: take the hint (a pass) and wait for a better turn
    hand = frame["view"]["hand"]
    naturals = [r for r in dict.fromkeys(hand) if r in "3456789TJQKA"]
    assert len(naturals) >= 2
    # two natural ranks together are no play: Play stays disabled and Enter sends nothing
    n_sent = len(sent)
    select_cards(page, naturals[0] + naturals[-1])
    assert page.is_disabled("#btn-play") and page.is_disabled("#btn-burn")
    page.keyboard.press("Enter")
    time.sleep(0.3)
    assert len(sent) == n_sent and state(page) == frame["state"]
    shot(page, "illegal-selection")
    # a legal play, selected with the keyboard, enables Play; Enter sends it
    legal = plays[0] if plays else next(r for r in naturals if r != "3" or set(hand) == {"3"})
    page.click("#btn-clear")
    for r in legal:
        page.keyboard.press(RANK_KEYS[r])
    assert format_counts(tuple(page.evaluate("window.gouji.view.sel"))) == format_counts(parse_counts(legal))
    assert page.is_enabled("#btn-play")
    # what the server refuses anyway is shown to the player with the engine's reason
    page.evaluate("window.gouji.view.act('DDDDDDDDDDDD')")
    page.wait_for_selector("#toast.show.error")
    assert "DDDDDDDDDDDD" in page.inner_text("#toast")
    assert room.state == frame["state"]
    # the refused action gave the selection back
    assert format_counts(tuple(page.evaluate("window.gouji.view.sel"))) == format_counts(parse_counts(legal))
    page.keyboard.press("Enter")
    page.wait_for_function("s => window.gouji.view.frame.state > s", arg=frame["state"])
    assert sent[-1]["action"] == str(gouji.parse_play(legal))
    assert sent[-1]["decision"] == frame["turn"]["decision"] and "state" not in sent[-1]
    assert any(e.get("seat") == 0 and e.get("action") == sent[-1]["action"] for e in room.match.deals[0].events)


def test_reload_mid_deal_restores_the_table(new_page: Any, server: LiveServer) -> None:
    t = table_in_play(server)
    page = new_page()
    open_seat(page, t["code"], 0, t["token"], "Ann")
    for _ in range(3):
        my_turn(page)
        act_by_hint(page)
    my_turn(page)
    before = page.evaluate("window.gouji.view.frame")
    log_before = page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)")
    hand_before = hand_on_page(page)
    page.reload()
    page.wait_for_function("() => window.gouji.view.frame")
    my_turn(page)
    after = page.evaluate("window.gouji.view.frame")
    assert after["state"] == before["state"] and after["full"] is True
    assert after["view"]["hand"] == before["view"]["hand"] and hand_on_page(page) == hand_before
    assert page.evaluate("window.gouji.view.seat") == 0
    assert page.inner_text(".seat.pos0 .seat-name") == "Ann"
    assert page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)") == log_before
    assert page.is_enabled("#btn-hint")
    act_by_hint(page)  # and play goes on
    shot(page, "after-reload")


def test_a_replay_steps_through_a_finished_deal(new_page: Any, server: LiveServer) -> None:
    code = server.create(bots=["heuristic"] * 6, set_length=1, bot_delay=0, turn_seconds=None)["code"]
    server.wait(lambda: server.request(f"/api/tables/{code}")["status"] == "over", what="the bots' set")
    server.wait(lambda: any(g["kind"] == "set" for g in server.request(f"/api/tables/{code}/games")["games"]))
    rid = next(g["id"] for g in server.request(f"/api/tables/{code}/games")["games"] if g["kind"] == "set")
    deal = load_record(server.request(f"/api/records/{rid}")).deals[0]  # type: ignore[union-attr]
    page = new_page(path=f"/?replay={rid}&deal=0")
    page.wait_for_selector("#rp-step")

    def hands() -> list[str]:
        return list(page.eval_on_selector_all(".felt .seat .mini-hand", "els => els.map(e => e.dataset.hand)"))

    first = hands()
    assert len(first) == 6 and sum(len(h) for h in first) == deal.rules.deck_size
    assert page.is_disabled("#rp-back")
    # forward to the first play: its player's hand loses exactly those cards
    seen = [first]
    while True:
        page.click("#rp-forward")
        seen.append(hands())
        text = page.inner_text("#rp-text")
        if seen[-1] != seen[-2] and " 出 " in text:
            break
        assert len(seen) < 80
    i = len(seen) - 1
    decisions = sum(1 for e in deal.events if e["type"] == "act")
    assert page.inner_text("#rp-step") == f"第 {i}/{decisions} 步"
    changed = [s for s in range(6) if seen[-1][s] != seen[-2][s]]
    assert len(changed) == 1
    shot(page, "replay")
    page.click("#rp-back")
    assert hands() == seen[-2]
    page.keyboard.press("ArrowRight")
    assert hands() == seen[-1]
    page.keyboard.press("End")
    page.wait_for_selector("#rp-result")
    names = page.eval_on_selector_all("#rp-result .places .who", "els => els.map(e => e.textContent)")
    assert names == [f"机器人 {s + 1}" for s in deal.places]
    assert page.is_disabled("#rp-forward")
    shot(page, "replay-end")


def test_chinese_and_english_labels_switch(new_page: Any, server: LiveServer) -> None:
    page = new_page()
    page.wait_for_selector("#create-btn")
    assert page.inner_text("#create-btn") == "开桌" and page.inner_text("#lang-btn") == "English"
    page.click("#lang-btn")
    assert page.inner_text("#create-btn") == "Open the table" and page.inner_text("#lang-btn") == "中文"
    shot(page, "lobby-english")
    t = table_in_play(server)
    open_seat(page, t["code"], 0, t["token"], "Ann")  # the choice is kept
    page.wait_for_selector("#btn-play")
    assert page.inner_text("#btn-play") == "Play" and page.inner_text("#btn-hint") == "Hint"
    assert page.inner_text(".tab[data-tab='log']") == "Log"
    assert any(
        line.startswith("Play begins")
        for line in page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)")
    )
    page.click("#lang-btn")
    assert page.inner_text("#btn-play") == "出牌" and page.inner_text("#btn-hint") == "提示"
    assert page.inner_text(".tab[data-tab='log']") == "牌局记录"
    assert page.inner_text(".tab[data-tab='counter']") == "记牌器"
    assert any(
        line.startswith("开始出牌")
        for line in page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)")
    )


def test_card_counter_shows_what_is_still_out(new_page: Any, server: LiveServer) -> None:
    t = table_in_play(server)
    page = new_page()
    open_seat(page, t["code"], 0, t["token"], "Ann")
    for _ in range(2):
        my_turn(page)
        act_by_hint(page)
    my_turn(page)
    page.click(".tab[data-tab='counter']")
    cells = page.eval_on_selector_all(".counter-cell", "els => els.map(e => [e.dataset.rank, +e.dataset.left])")
    assert [r for r, _ in cells] == [*"DX2AKQJT98765", "4", "3"]
    deal = server.room(t["code"]).match.current
    frame = page.evaluate("window.gouji.view.frame")
    deck = [4 * 4] * 13 + [4, 4]
    played, mine = parse_counts(frame["view"]["played"]), parse_counts(deal.hand(0))
    for r, left in cells:
        i = "3456789TJQKA2XD".index(r)
        assert left == deck[i] - played[i] - mine[i]
    shot(page, "card-counter")


def test_on_a_phone(browser: Any, server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # a fixed deal (seed 1): a random one once left the hint button disabled in a setup question (CI, 20:03)
    SEEDS.restart(always=1)
    ctx = browser.new_context(viewport=PHONE, locale="zh-CN", base_url=server.url, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        page.goto("/")
        page.wait_for_selector("#create-form")
        shot(page, "lobby-phone", full_page=True)
        code = create_in_lobby(page, "Ann", set_length=1)
        while True:
            my_turn(page)
            if page.evaluate("window.gouji.view.frame.view.phase") == "play":
                break
            if page.query_selector(".prompt") is not None:
                shot(page, "prompt-phone")
            act_by_hint(page)
        width = PHONE["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for sel in (".hand .group", ".actions .btn", ".felt .seat"):
            for box in page.eval_on_selector_all(sel, "els => els.map(e => e.getBoundingClientRect().toJSON())"):
                assert box["x"] >= -1 and box["x"] + box["width"] <= width + 1, (sel, box)
        # the selection's count badge on the group nearest the right edge stays on the screen too
        # (once the hint's suggestion has come: it redraws the hand)
        page.wait_for_function("() => window.gouji.view.suggestedFor === window.gouji.view.frame.state")
        rank = page.evaluate(
            """() => [...document.querySelectorAll('.hand .group')]
                .reduce((a, g) => (g.getBoundingClientRect().right > a.getBoundingClientRect().right ? g : a))
                .dataset.rank"""
        )
        right = f".hand .group[data-rank='{rank}']"
        if page.get_attribute(right, "data-sel") in (None, "0"):
            page.tap(right)
        page.wait_for_selector(f"{right} .sel-n")
        badge = page.eval_on_selector_all(".hand .group .sel-n", "els => els.map(e => e.getBoundingClientRect().right)")
        assert badge and max(badge) <= width, badge
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.click("#btn-clear")
        group = page.query_selector(".hand .group")
        rank = group.get_attribute("data-rank")
        group.tap()
        assert page.get_attribute(f".hand .group[data-rank='{rank}']", "data-sel") == "1"
        shot(page, "table-phone")
        assert server.room(code).status == "playing"
    finally:
        ctx.close()


def test_the_regional_setup_decisions_have_prompts(new_page: Any, server: LiveServer) -> None:
    """shandong asks every seat about 冲点 and 无级自开 (rule book §16.3): the person at seat 0 gets a prompt
    with the step (when its hand allows it) and a decline, and declining moves the deal on."""
    bots: list[str | None] = ["heuristic"] * 6
    bots[0] = None
    # A decision with one answer is made for the person unless they ask to be asked (the page's setting):
    # ask at once, before the first window's masking time (bot_delay) is over, so every step reaches the page.
    t = server.create(preset="shandong", bots=bots, nickname="Ann", seat=0, bot_delay=1.0, turn_seconds=None)
    server.room(t["code"]).seats[0].ask_single = True
    page = new_page()
    open_seat(page, t["code"], 0, t["token"], "Ann")
    seen: set[str] = set()
    for _ in range(20):
        my_turn(page)
        phase = page.evaluate("window.gouji.view.frame.view.phase")
        if phase == "play" or page.query_selector("#summary-continue"):
            break
        page.wait_for_selector(".prompt")
        if phase in ("chongdian", "selfopen"):
            seen.add(phase)
            choices = page.evaluate("window.gouji.view.frame.turn.choices")
            assert page.inner_text(".prompt h3").strip()
            step = page.query_selector(f".prompt button[data-action='{phase}']")
            assert (step is not None) == (phase in choices)
            shot(page, f"prompt-{phase}")
        before = state(page)
        page.click(".prompt button[data-action='pass']")
        page.wait_for_function(f"() => window.gouji.view.frame.state > {before}")
    assert seen == {"chongdian", "selfopen"}


def test_a_hint_the_server_cannot_give_now_says_why_and_the_suggestion_is_skipped(
    new_page: Any, server: LiveServer
) -> None:
    """The hint's refusals: 429 (one for this seat is being worked out) and 503 (the server is busy with
    hints) make a clicked hint say so in the page's language, with no play chosen for the player; 409 (the
    table moved on) shows nothing; the automatic suggestion, refused, is skipped without a word."""
    answer = {"status": 429}
    asked: list[int] = []

    def refuse(route: Any) -> None:
        asked.append(answer["status"])
        route.fulfill(status=answer["status"], content_type="application/json", body='{"error": "no"}')

    page = new_page()
    page.route("**/api/tables/*/hint", refuse)
    t = table_in_play(server)
    open_seat(page, t["code"], 0, t["token"], "Ann")
    my_turn(page)
    page.wait_for_function("() => window.gouji.view.suggestedFor === window.gouji.view.frame.state")
    assert asked == [429]  # the suggestion asked, and was refused: nothing selected, nothing said
    assert page.query_selector(".hint-reason") is None and page.evaluate("window.gouji.view.sel.every(n => !n)")
    assert page.inner_text("#toast") == ""

    def click_hint(status: int) -> str:
        answer["status"] = status
        page.evaluate("document.getElementById('toast').textContent = ''")
        n = len(asked)
        page.click("#btn-hint")
        for _ in range(200):  # until the page has its answer (then a moment to show what it shows)
            if len(asked) > n:
                break
            page.wait_for_timeout(20)
        page.wait_for_timeout(150)
        assert asked[n:] == [status]
        assert page.query_selector(".hint-reason") is None  # no "first legal choice" in its place
        assert page.evaluate("window.gouji.view.sel.every(n => !n)")
        return page.inner_text("#toast")

    assert click_hint(429) == "提示正在计算，请稍候"
    assert click_hint(503) == "服务器正忙，请稍后再点提示"
    assert click_hint(409) == ""
    page.click("#lang-btn")
    assert click_hint(503) == "The server is busy: ask for the hint again in a moment"
    assert click_hint(429) == "Your hint is still being worked out: a moment"
