"""Issue 14 in a real browser: no needless questions, no traps, fast selection, hints in the player's
language, endings that explain, and the fixes of the issue's list.  Screenshots go to
``tests/browser/artifacts/``."""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gouji
from gouji.bots.heuristic import tuned
from gouji.server.tables.table import PASS_PACE

from .conftest import PHONE, LiveServer, shot
from .test_table import DOCS_SCREENSHOT, open_seat, sent_actions, state


def _person_with_bots(server: LiveServer, **body: Any) -> dict[str, Any]:
    bots: list[str | None] = ["heuristic"] * 6
    bots[0] = None
    defaults: dict[str, Any] = {"bot_delay": 0, "turn_seconds": None, "set_length": 1}
    return server.create(bots=bots, nickname="Ann", seat=0, **{**defaults, **body})


def _put_deal(server: LiveServer, room: Any, deal: Any) -> None:
    """Make ``deal`` the table's current deal (on the server's loop, where the room's timers live): the window
    open is closed and the new deal's first one opens."""

    def put() -> None:
        room.cancel_timer()
        room.match.deals[-1] = deal
        room.commit("auto", 0, {"on": False})

    server.call(put)


def _wait_hand(page: Any, hand: str) -> None:
    """Wait until the page shows these cards as the player's hand and asks the player."""
    page.wait_for_function(
        "want => { const f = window.gouji.view.frame; return !!f && 'legal_count' in f.turn"
        " && [...f.view.hand].sort().join('') === [...want].sort().join(''); }",
        arg=hand,
    )


def _asked(page: Any) -> bool:
    return bool(
        page.evaluate(
            "(() => { const t = window.gouji.view.frame && window.gouji.view.frame.turn;"
            " return !!t && t.seat === window.gouji.view.seat && 'legal_count' in t; })()"
        )
    )


def _wait_decision(page: Any, timeout: float = 30.0) -> str:
    """Wait until this person is asked, or the deal's summary is up: "asked" or "over"."""
    page.wait_for_function(
        "() => !!document.querySelector('#summary-continue') || (() => { const t = window.gouji.view.frame &&"
        " window.gouji.view.frame.turn; return !!t && t.seat === window.gouji.view.seat && 'legal_count' in t })()",
        timeout=timeout * 1000,
    )
    return "over" if page.query_selector("#summary-continue") else "asked"


# A person of their own: a competent player whose weights differ from the hint's, so that it takes the hint's
# advice on most real decisions but not all (on 72-86% of them over the presets, measured on 6 deals each
# without a browser): the clicks it takes are those of its own choices, not of the page's suggestion.
PERSON = tuned(lead_value=0.7, deny=0.25, cost_two=0.7, split=0.6, keep_high=0.25, mate_penalty=0.7, burner_weight=0.6)


def _person_choice(room: Any, seat: int) -> str:
    """What the person chooses, from what the seat sees (its view and its legal actions) and nothing else."""
    deal = room.match.current
    return str(PERSON.decide(deal.view(seat), deal.legal_actions_of(seat), random.Random(0)))


def _wait_suggestion(page: Any) -> None:
    """Wait, as a person looks at the table, until the page has settled what it selects for the player."""
    page.wait_for_function("() => window.gouji.view.suggestedFor === window.gouji.view.frame.state", timeout=10_000)


def _click_like_a_person(page: Any, action: str) -> int:
    """Make ``action`` with the mouse as a person would, from what the page shows now (the selection the page
    may have made for the player included): the fewest clicks the page's gestures allow; returns them."""
    clicks = 0

    def click(sel: str) -> None:
        nonlocal clicks
        page.click(sel)
        clicks += 1

    if action in ("pass", "yield"):
        sel = f".prompt [data-action='{action}']" if page.query_selector(".prompt") else f"#btn-{action}"
        click(sel)
        return clicks
    if page.query_selector(".prompt") and not action.startswith(("return", "burn")) and not action[0].isdigit():
        click(f".prompt [data-action='{action}']")
        return clicks
    cards = action.split(" ", 1)[1] if action.startswith(("burn ", "return ")) else action
    want = gouji.engine.cards.parse_counts(cards)
    order = "3456789TJQKA2XD"
    sel = page.evaluate("window.gouji.view.sel")
    suggested = page.evaluate("window.gouji.view.isSuggestion()")
    other_natural = any(want[r] and not sel[r] for r in range(12))  # a click on it starts a new group
    unwanted_special = any(sel[r] > want[r] for r in range(12, 15))
    unwanted_natural = any(sel[r] and not want[r] for r in range(12))
    if (unwanted_special and not (suggested and other_natural)) or (unwanted_natural and not other_natural):
        click("#btn-clear")  # what is selected is not what the person wants: start over
    for _ in range(40):
        sel = page.evaluate("window.gouji.view.sel")
        if list(sel) == list(want):
            break
        diff = [r for r in range(15) if sel[r] != want[r]]
        r = next((x for x in diff if x < 12 and want[x]), diff[0])  # the natural rank first
        click(f".hand .group[data-rank='{order[r]}']")
    else:
        raise AssertionError(f"could not select {cards}")
    button = "#btn-burn" if action.startswith("burn") else "#btn-return" if action.startswith("return") else "#btn-play"
    click(button)
    if page.query_selector("#confirm-ok"):
        click("#confirm-ok")
    return clicks


class Person:
    """A person at seat 0 playing whole deals through the page: counts the questions and the clicks."""

    def __init__(self, page: Any, room: Any, suggest: bool = True) -> None:
        self.page, self.room, self.suggest = page, room, suggest
        self.looking: Callable[[], None] | None = None  # called as the person looks at a question
        self.clicks = self.asked = self.agreed = 0
        self.person_s = 0.0

    def decide(self) -> str:
        """Wait for the next question (or the summary: "over") and answer it like a person: "asked"."""
        page = self.page
        if _wait_decision(page, 120) == "over":
            return "over"
        turn = page.evaluate("window.gouji.view.frame.turn")
        assert turn["legal_count"] > 1, f"a question with one answer reached the person: {turn}"
        t0 = time.monotonic()
        if self.suggest:
            _wait_suggestion(page)
        if self.looking is not None:
            self.looking()
        action = _person_choice(self.room, 0)
        self.agreed += action == str(gouji.hint(self.room.match.current, 0).action)
        before = state(page)
        self.clicks += _click_like_a_person(page, action)
        self.asked += 1
        self.person_s += time.monotonic() - t0
        page.wait_for_function(
            "s => window.gouji.view.frame.state > s || !!document.querySelector('#summary-continue')"
            " || window.gouji.view.frame.turn.answered !== undefined",
            arg=before,
        )
        return "asked"

    def figures(self, deal_index: int = 0) -> tuple[int, float, float]:
        """(the seat's decisions in the deal, clicks per question, clicks per decision)."""
        deal = self.room.match.deals[deal_index]
        mine = sum(1 for e in deal.events if e["type"] == "act" and e["seat"] == 0)
        return mine, self.clicks / max(1, self.asked), self.clicks / max(1, mine)


def _set_suggest(page: Any, on: bool) -> None:
    page.evaluate("on => localStorage.setItem('gouji.prefs', JSON.stringify({suggest: on}))", on)


def test_hint_reasons_in_both_languages_with_the_seat_names_shown(new_page: Any, server: LiveServer) -> None:
    t = _person_with_bots(server)
    page = new_page()
    open_seat(page, t["code"], 0, t["token"], "Ann")
    seen_zh = seen_en = False
    for _ in range(200):
        if _wait_decision(page) == "over":
            break
        page.click("#btn-hint")
        page.wait_for_selector(".hint-reason")
        hint = page.evaluate("window.gouji.view.hint")
        zh = page.inner_text(".hint-reason .hint-why").strip()
        assert zh and "seat " not in zh and zh != hint["reason"]
        if hint["code"] == "beat":
            seat = hint["params"]["seat"]
            assert f"机器人 {seat + 1}" in zh  # the seat as shown, not counted from 0
            page.click("#lang-btn")
            en = page.inner_text(".hint-reason .hint-why").strip()
            assert f"Bot {seat + 1}" in en and en.startswith("beat")
            assert page.query_selector(".hinted"), "the hint's highlight survives the change of language"
            shot(page, "hint-english")
            page.click("#lang-btn")
            seen_zh = seen_en = True
            break
        page.click(".hinted")
        page.wait_for_function("s => window.gouji.view.frame.state > s", arg=state(page) - 1)
        time.sleep(0.05)
    assert seen_zh and seen_en


def test_a_burn_that_cannot_be_carried_is_warned_and_confirmed(new_page: Any, server: LiveServer) -> None:
    """Asked about a burn her jokers cannot carry (she chose to be asked always), Ann is warned and asked to
    confirm. With the default setting (asked to burn only with a chance) the page answers 不烧 for her after a
    person's pause, while the server asks her seat as ever (the window over it unchanged); with jokers to carry
    a burn she is asked."""
    t = _person_with_bots(server)
    room = server.room(t["code"])
    # seat 4 leads QQQ; Ann (seat 0) holds KKK and a single joker for three more plays
    hands = ["KKKX8865543", "9996", "AA76", "8863", "QQQ3", "7543"]
    deal = gouji.Deal.from_hands(hands, "qingdao", leader=4)
    _put_deal(server, room, deal)
    page = new_page()
    sent = sent_actions(page)
    # the person selects on their own, and is asked about every burn
    page.evaluate("() => localStorage.setItem('gouji.prefs', JSON.stringify({suggest: false, burnChanceOnly: false}))")
    open_seat(page, t["code"], 0, t["token"], "Ann")
    server.wait(lambda: room.window is not None and 0 in room.window.asked, what="Ann offered the burn")
    page.wait_for_function("() => window.gouji.view.frame.turn.burn_offer === true")
    page.click(".hand .group[data-rank='K']")  # one click: the three Ks the QQQ needs
    assert page.evaluate("window.gouji.view.sel")[10] == 3
    warn = page.inner_text("#burn-need")
    assert "诈烧" in warn and "大落" in warn
    shot(page, "burn-warning")
    page.click("#btn-burn")
    page.wait_for_selector("#confirm")
    assert "大落" in page.inner_text("#confirm")
    shot(page, "burn-confirm")
    page.click("#confirm-cancel")
    page.wait_for_selector("#confirm", state="detached")
    assert room.window is not None and 0 in room.window.asked  # nothing was sent
    assert not sent

    # the default setting: the same hopeless offer is answered 不烧 by the page, after a person's pause
    _set_suggest(page, False)
    for could in (False, True):
        if could:
            hands = ["KKKX88", *hands[1:]]  # KKK, then X88 carries the burn: asked
        _put_deal(server, room, gouji.Deal.from_hands(hands, "qingdao", leader=4))
        before = len(room.timings)
        sent.clear()
        page.reload()
        server.wait(lambda: room.window is not None and 0 in room.window.asked, what="Ann offered the burn")
        asked = time.monotonic()
        page.wait_for_function(
            "() => { const v = window.gouji && window.gouji.view; return !!(v && v.frame && v.frame.turn.burn_offer); }"
        )
        if could:
            time.sleep(1.6)  # longer than the page's pause (AUTO_DECLINE_MS, at most 1.1 s)
            assert room.window is not None and 0 in room.window.asked and not sent, "Ann could burn: she is asked"
            assert "自动不烧" not in page.inner_text(".status-line")
            break
        assert "自动不烧" in page.inner_text(".status-line")
        shot(page, "burn-auto-decline")
        offer = page.evaluate("window.gouji.view.frame.turn.decision")
        page.wait_for_function("d => window.gouji.view.frame.turn.decision !== d", arg=offer)
        waited = time.monotonic() - asked
        assert [m["action"] for m in sent] == ["pass"] and waited >= 0.48, (sent, waited)  # pause 0.5–1.1 s
        # the server asked Ann's seat and held its window as for anyone asked (prompted, a person's time)
        burn = next(w for w in list(room.timings)[before:] if w[0] == "burn")
        assert burn[2] is True and burn[1] >= 0.48, burn


def test_the_hint_play_is_selected_for_the_player_and_a_double_click_plays_a_rank(
    new_page: Any, server: LiveServer
) -> None:
    """Asked to lead, Ann finds the hint's play selected (a dashed frame): one click on Play sends it. Next
    time a click on another rank starts a selection of its own, and a double click on a rank plays it."""
    t = _person_with_bots(server)
    room = server.room(t["code"])
    hands = ["KKK2X886554", "9996", "AA76", "555863", "999743", "QQQ43"]
    _put_deal(server, room, gouji.Deal.from_hands(hands, "qingdao", leader=0))
    page = new_page()
    sent = sent_actions(page)
    open_seat(page, t["code"], 0, t["token"], "Ann")
    _wait_hand(page, hands[0])
    _wait_suggestion(page)
    hint = str(gouji.hint(room.match.current, 0).action)
    assert gouji.engine.cards.format_counts(tuple(page.evaluate("window.gouji.view.sel"))) == hint == "KKK"
    assert page.query_selector(".hand.suggested") and "提示已选好" in page.inner_text(".hand-info")
    assert page.is_enabled("#btn-play") and page.query_selector("#btn-play.hinted")
    shot(page, "suggestion")
    page.click("#btn-play")  # one click
    server.wait(lambda: any(e.get("seat") == 0 for e in room.match.current.events if e["type"] == "act"))
    assert [m["action"] for m in sent] == ["KKK"]

    _put_deal(server, room, gouji.Deal.from_hands(hands, "qingdao", leader=0))
    page.reload()
    _wait_hand(page, hands[0])
    _wait_suggestion(page)
    page.click(".hand .group[data-rank='8']")  # another rank: the suggestion gives way
    assert gouji.engine.cards.format_counts(tuple(page.evaluate("window.gouji.view.sel"))) == "88"
    assert not page.query_selector(".hand.suggested")
    # the keyboard selects as clicks do: a rank key takes the whole group (one press), again one fewer, and
    # over the hint's suggestion it starts a selection of its own (K over the suggested KKK: KKK, never more)
    sel = lambda: gouji.engine.cards.format_counts(tuple(page.evaluate("window.gouji.view.sel")))  # noqa: E731
    page.keyboard.press("Escape")
    page.keyboard.press("5")
    assert sel() == "55"
    page.keyboard.press("5")
    assert sel() == "5"
    page.keyboard.press("Escape")
    page.evaluate("window.gouji.view.askHint({ soft: true, epoch: window.gouji.view.selEpoch })")
    page.wait_for_selector(".hand.suggested")
    page.keyboard.press("k")
    assert sel() == "KKK" and page.is_enabled("#btn-play")
    page.keyboard.press("8")
    assert sel() == "88" and page.is_enabled("#btn-play")
    page.keyboard.press("Escape")
    page.dblclick(".hand .group[data-rank='5']")
    server.wait(lambda: len(sent) == 2, what="the double click's play")
    assert sent[-1]["action"] == "55"
    # (sent is the page's side: the server takes the message a moment later)
    server.wait(
        lambda: any(e.get("seat") == 0 and e.get("action") == "55" for e in room.match.current.events),
        what="the double click's play at the table",
    )


def test_the_join_panel_the_h1_and_the_help(new_page: Any, server: LiveServer) -> None:
    t = server.create(bots=[None, None, "heuristic", "heuristic", "heuristic", "heuristic"], nickname="Ann", seat=0)
    page = new_page(path=f"/t/{t['code']}")
    page.wait_for_selector("[data-sit='1']")
    text = page.inner_text("#join-seats")
    assert "null" not in text and "waiting" not in text and "等人入座" in text
    assert page.query_selector("h1") is not None
    shot(page, "join-panel")
    open_seat(page, t["code"], 0, t["token"], "Ann")
    page.click("#help-btn")
    page.wait_for_selector("#help")
    assert "Enter" in page.inner_text("#help")
    gestures = page.eval_on_selector_all("#gestures li", "els => els.map(e => e.textContent)")
    assert len(gestures) == 8 and any("双击" in g for g in gestures) and any("出牌" in g for g in gestures)
    shot(page, "help")
    assert page.evaluate("document.activeElement.id") == "help-close"
    page.keyboard.press("Escape")
    page.wait_for_selector("#help", state="detached")
    page.click("#lang-btn")
    page.click("#help-btn")
    gestures = page.eval_on_selector_all("#gestures li", "els => els.map(e => e.textContent)")
    assert any(g.startswith("Double-click a rank") for g in gestures) and any("Play" in g for g in gestures)
    page.keyboard.press("Escape")
    page.click("#lang-btn")
    assert page.get_attribute("#status-live", "aria-live") == "polite"


def _rgba(color: str) -> tuple[float, ...]:
    """A computed CSS colour, ``rgb(r, g, b)`` or ``rgba(r, g, b, a)``, as numbers (alpha 1 when not given)."""
    nums = [float(x) for x in color[color.index("(") + 1 : color.index(")")].split(",")]
    return tuple(nums if len(nums) == 4 else [*nums, 1.0])


def test_the_return_prompt_is_opaque_and_disabled_buttons_look_disabled(new_page: Any, server: LiveServer) -> None:
    """The 还贡 prompt hides the felt behind it (an opaque background, nothing drawn over it), and a disabled
    button looks disabled (faded, grey, a not-allowed cursor) and sends nothing."""
    t = _person_with_bots(server)
    room = server.room(t["code"])
    # Ann received a 落贡 from seat 3 and gives one card back (还贡)
    owed = [gouji.engine.tribute.Payment(kind="luo", payer=3, receiver=0, cards=1, returned=True)]
    _put_deal(server, room, gouji.Deal.new("qingdao", seed=1, tribute=owed))
    page = new_page()
    _set_suggest(page, False)
    sent = sent_actions(page)
    open_seat(page, t["code"], 0, t["token"], "Ann")
    page.wait_for_selector(".prompt")
    assert page.evaluate("window.gouji.view.frame.view.phase") == "tribute_return"
    style = page.eval_on_selector(
        ".prompt",
        "e => { const s = getComputedStyle(e); return [s.opacity, s.backgroundColor, s.backdropFilter]; }",
    )
    assert float(style[0]) == 1 and _rgba(style[1])[3] == 1, f"the 还贡 prompt is see-through: {style}"
    covered = page.eval_on_selector(
        ".prompt",
        """e => { const r = e.getBoundingClientRect(); const out = [];
            for (const fx of [0.1, 0.5, 0.9]) for (const fy of [0.1, 0.5, 0.9]) {
              const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
              if (!e.contains(hit)) out.push(hit && hit.className); }
            return out; }""",
    )
    assert not covered, f"drawn over the 还贡 prompt: {covered}"
    shot(page, "return-prompt")

    def look(sel: str) -> dict[str, str]:
        return dict(
            page.eval_on_selector(
                sel,
                "e => { const s = getComputedStyle(e); return {opacity: s.opacity, filter: s.filter,"
                " cursor: s.cursor, shadow: s.boxShadow}; }",
            )
        )

    assert page.is_disabled("#btn-return") and page.is_enabled("#btn-hint")
    off, on = look("#btn-return"), look("#btn-hint")
    assert float(off["opacity"]) <= 0.5 and "grayscale" in off["filter"] and off["cursor"] == "not-allowed", off
    assert off["shadow"] == "none", off
    assert float(on["opacity"]) == 1 and on["filter"] == "none" and on["cursor"] == "pointer", on
    page.click("#btn-return", force=True)
    time.sleep(0.2)
    assert not sent and room.match.current.phase == "tribute_return"


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two client rectangles overlap by more than a pixel."""
    return not (
        a["right"] <= b["left"] + 1
        or b["right"] <= a["left"] + 1
        or a["bottom"] <= b["top"] + 1
        or b["bottom"] <= a["top"] + 1
    )


def test_on_a_phone_no_boxes_overlap_in_a_burn_with_the_timer_running(browser: Any, server: LiveServer) -> None:
    """390×844: seat 3 led 555, seat 4 beat it with 999 (bubbles), seat 5 played QQQ (够级) and the burn is
    offered to Ann with her timer running: the status pill, the prompt and the bubbles cover no seat, no count
    and not Ann's timer; the status is announced to screen readers."""
    t = _person_with_bots(server, turn_seconds=120)
    room = server.room(t["code"])
    deal = gouji.Deal.from_hands(["KKKX8865543", "9996", "AA76", "555863", "999743", "QQQ43"], "qingdao", leader=3)
    for play in ("555", "999", "QQQ"):
        deal.act(play)
    assert 0 in deal.window()
    _put_deal(server, room, deal)
    ctx = browser.new_context(viewport=PHONE, locale="zh-CN", base_url=server.url, has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        page.goto("/")
        # (Ann's jokers cannot carry the burn: asked about it all the same, as she chose)
        page.evaluate("() => localStorage.setItem('gouji.prefs', JSON.stringify({burnChanceOnly: false}))")
        open_seat(page, t["code"], 0, t["token"], "Ann")
        page.wait_for_function("() => window.gouji.view.frame.turn.burn_offer === true")
        page.wait_for_selector(".seat.me .timer")
        page.tap(".hand .group[data-rank='K']")  # the burn's need is shown too
        page.wait_for_selector("#burn-need")
        shot(page, "card-room-phone-burn")
        boxes = page.evaluate(
            """() => { const r = (e) => e.getBoundingClientRect().toJSON();
                const all = (sel) => Array.from(document.querySelectorAll(sel)).map((e) =>
                  ({ seat: e.closest('.seat') ? e.closest('.seat').dataset.seat : null, text: e.textContent,
                     box: r(e) }));
                return { seats: all('.felt .seat'), counts: all('.felt .seat .count'), bubbles: all('.felt .bubble'),
                  badges: all('.felt .seat .badge'), timer: all('.seat.me .timer'), status: all('.status-line'),
                  top: all('.top-play'), prompt: all('.prompt'), hand: all('.hand .group'),
                  chips: all('.table-bar .chip') }; }"""
        )
        assert len(boxes["bubbles"]) == 2 and boxes["timer"] and boxes["status"]
        seats, me = boxes["seats"], next(b for b in boxes["seats"] if b["seat"] == "0")
        for i, a in enumerate(seats):
            for b in seats[i + 1 :]:
                assert not _overlap(a["box"], b["box"]), ("seats", a["seat"], b["seat"])
        for chip in boxes["chips"]:  # the bar's buttons (help, leave …) stay clickable
            for seat in seats:
                assert not _overlap(chip["box"], seat["box"]), ("seat", seat["seat"], "covers", chip["text"])
        for pill in boxes["status"] + boxes["top"] + boxes["prompt"]:
            for other in [*seats, *boxes["timer"], *boxes["counts"]]:
                assert not _overlap(pill["box"], other["box"]), (pill["text"], "covers", other["seat"], other["text"])
        for bubble in boxes["bubbles"]:
            for other in [*boxes["counts"], *boxes["timer"]]:
                assert not _overlap(bubble["box"], other["box"]), ("a bubble covers", other, bubble)
            for seat in seats:  # a bubble stays within its own seat's box
                if seat["seat"] != bubble["seat"]:
                    assert not _overlap(bubble["box"], seat["box"]), ("a bubble covers seat", seat["seat"])
        for badge in boxes["badges"] + boxes["timer"]:  # the pills of a seat stay on its own box
            own = next(b["box"] for b in seats if b["seat"] == badge["seat"])
            assert badge["box"]["left"] >= own["left"] - 1 and badge["box"]["right"] <= own["right"] + 1, badge
            assert badge["box"]["top"] >= own["top"] - 1 and badge["box"]["bottom"] <= own["bottom"] + 1, badge
        felt_bottom = me["box"]["bottom"]
        assert all(g["box"]["top"] >= felt_bottom for g in boxes["hand"]), "the hand is below the felt"
        status = page.text_content(".status-line")
        assert status and page.text_content("#status-live") == status  # announced (aria-live)
    finally:
        ctx.close()


def _take_hint(page: Any) -> None:
    """Ask for the hint, take it, and wait for the table to move on."""
    before = state(page)
    page.click("#btn-hint")
    page.wait_for_selector(".hinted:not([disabled])")
    page.click(".hinted")
    if page.query_selector("#confirm-ok"):
        page.click("#confirm-ok")
    page.wait_for_function(
        "s => window.gouji.view.frame.state > s || !!document.querySelector('#summary-continue')", arg=before
    )


def _play_by_hint_to_the_summary(page: Any) -> None:
    for _ in range(400):
        if _wait_decision(page) == "over":
            return
        _take_hint(page)
    raise AssertionError("the deal does not end")


def test_the_english_log_says_you_pass_and_setup_passes_leave_no_bubbles(new_page: Any, server: LiveServer) -> None:
    t = _person_with_bots(server)
    page = new_page(locale="en-US")
    page.evaluate("localStorage.setItem('gouji.lang', 'en')")
    open_seat(page, t["code"], 0, t["token"], "Ann")
    # before play (revolution and 宣点 on by default) no "no" leaves a bubble
    if page.evaluate("window.gouji.view.frame.view.phase") != "play":
        assert page.query_selector(".felt .bubble") is None or all(
            b not in ("Pass", "过")
            for b in page.eval_on_selector_all(".felt .bubble", "els => els.map(e => e.textContent)")
        )
    for _ in range(200):
        lines = page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)")
        if any(line.startswith("you ") for line in lines):
            break
        if _wait_decision(page) == "over":
            break
        _take_hint(page)
    lines = page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)")
    assert any(line.startswith("you ") for line in lines)
    assert not any(line.startswith("you passes") or line.startswith("you plays") for line in lines)


def test_a_waiting_table_tells_no_deal_yet(new_page: Any, server: LiveServer) -> None:
    t = server.create(bots=[None, None, "heuristic", "heuristic", "heuristic", "heuristic"], nickname="Ann", seat=0)
    page = new_page()
    open_seat(page, t["code"], 0, t["token"], "Ann")
    page.wait_for_selector(".waiting")
    lines = page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)")
    assert lines == ["人齐了才开始：发牌、买三都在那之后"]  # no "… 买了一张 3" of a seat nobody sits at yet


def test_settings_ask_single_and_sound(new_page: Any, server: LiveServer) -> None:
    t = _person_with_bots(server)
    room = server.room(t["code"])
    page = new_page()
    open_seat(page, t["code"], 0, t["token"], "Ann")
    page.click("#settings-btn")
    page.wait_for_selector("#settings")
    page.check("#pref-ask-single")
    server.wait(lambda: room.seats[0].ask_single, what="the server to hear the setting")
    page.check("#pref-sound")
    page.uncheck("#pref-suggest")
    assert page.is_checked("#pref-burn-chance")  # (asked to burn only with a chance: on by default)
    page.uncheck("#pref-burn-chance")
    prefs = page.evaluate("JSON.parse(localStorage.getItem('gouji.prefs'))")
    assert prefs == {"sound": True, "askSingle": True, "suggest": False, "burnChanceOnly": False}
    shot(page, "settings")
    page.click("#settings-close")


def test_every_preset_a_whole_deal_like_a_person_few_clicks_and_no_question_with_one_answer(
    new_page: Any, server: LiveServer
) -> None:
    """A person of their own plays a whole deal of every preset by mouse: no question with one answer reaches
    the page, and the clicks per decision (and per question) stay within the issue's 1.5.  In the first
    (qingdao, the default) the README's picture is taken — a question with a play to beat and the hint's play
    selected — and the summary says why each seat placed where it did, with the focus on it."""
    page = new_page()
    frames: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        def keep(payload: Any) -> None:
            try:
                f = json.loads(payload)
            except (TypeError, ValueError):
                return
            if f.get("type") == "state":
                frames.append(f["turn"])

        ws.on("framereceived", keep)

    page.on("websocket", on_ws)
    figures: dict[str, tuple[int, int, int, int, float, float]] = {}
    shots: list[Path] = []
    reasons: list[str] = []
    for preset in gouji.PRESETS:
        t = _person_with_bots(server, preset=preset)
        room = server.room(t["code"])
        open_seat(page, t["code"], 0, t["token"], "Ann")
        person = Person(page, room)
        first = preset == next(iter(gouji.PRESETS))

        def looking(person: Person = person) -> None:
            reasons.append(page.evaluate("window.gouji.view.hintText()"))  # every hint says why
            # a deal in full swing, the person asked to beat a play, the hint's play selected: the README's picture
            if shots or person.asked < 6 or not page.evaluate("window.gouji.view.isSuggestion()"):
                return
            if not page.evaluate("!!window.gouji.view.frame.view.top"):
                return
            time.sleep(0.5)  # the last play has landed
            page.wait_for_selector(".marks", state="detached", timeout=5_000)  # and its marks have faded
            shots.append(shot(page, "card-room-desktop"))
            if os.environ.get("GOUJI_UPDATE_SCREENSHOT"):
                shutil.copyfile(shots[0], DOCS_SCREENSHOT)

        if first:
            person.looking = looking
        for _ in range(400):
            if person.decide() == "over":
                break
        else:
            raise AssertionError("the deal does not end")
        mine, per_question, per_decision = person.figures()
        assert person.asked < mine, (preset, person.asked, mine)  # some decisions had one answer, made for Ann
        figures[preset] = (person.clicks, person.asked, person.agreed, mine, per_question, per_decision)
        if first:
            assert shots, "no question with a play to beat and the hint's play selected"
            shot(page, "card-room-summary")
            # the summary says why each seat placed where it did, and has the focus
            whys = page.eval_on_selector_all(".summary .places .why", "els => els.map(e => e.textContent)")
            assert len(whys) == 6 and all(whys)
            assert page.evaluate("document.activeElement.classList.contains('summary')")
            assert len(reasons) == person.asked and all(reasons), reasons
            deal = room.match.deals[0]
            names = page.eval_on_selector_all(".summary .places .who", "els => els.map(e => e.textContent)")
            assert names == ["你" if s == 0 else f"机器人 {s + 1}" for s in deal.places]
            points = page.inner_text(".summary .deal-points")
            assert f"红方 {room.match.points[0][0]}" in points and f"蓝方 {room.match.points[0][1]}" in points
            # the deal's log was shown as it went, ending with the deal's end
            log = page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)")
            assert log[-1] == "本局结束" and any(line.startswith("你 出") for line in log)
            # once the set is over, its deals can be replayed from the summary
            page.wait_for_selector(".replay-links a")
            page.click(".replay-links a")
            page.wait_for_selector("#rp-step")
    print("\nclicks of a person playing a whole deal (preset: clicks / questions (hint's advice taken) / decisions)")
    for preset, (clicks, asked, agreed, mine, per_question, per_decision) in figures.items():
        print(
            f"  {preset:<11} {clicks:3d} / {asked:3d} ({agreed:3d}) / {mine:3d}: "
            f"{per_question:.2f} per question, {per_decision:.2f} per decision"
        )
    for preset, (*_, per_question, per_decision) in figures.items():
        assert per_decision <= 1.5 and per_question <= 1.5, (preset, per_question, per_decision)
    prompts = [turn for turn in frames if "legal_count" in turn]
    assert prompts and all(turn["legal_count"] > 1 for turn in prompts)
    shown = [turn for turn in frames if turn.get("forced")]
    assert shown, "the page was told of decisions made for it (要不起), never asked them"


# Every frame the page receives, with the page's own clock: what a player's browser can time.
FRAME_CLOCK = """
window.__frames = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (m) => {
      try {
        const f = JSON.parse(m.data);
        if (f.type === "state") window.__frames.push({ t: performance.now(), state: f.state, turn: f.turn });
      } catch (e) {}
    });
  }
};
"""


def test_a_burn_window_lasts_as_long_in_the_browser_with_or_without_a_possible_burner(
    browser: Any, server: LiveServer
) -> None:
    """Ann (seat 0) leads QQQ, a 够级 play: the burn offer goes to seats 2, 4, 1 and 5 (bots). In one deal two
    of them could burn, in the other none: the time Ann's page sees from her play to the offer's end is the same
    (the pass pace), so it does not tell whether anyone could.  (Timed from her play, not from the offer's
    first frame: a page busy when that frame comes would see the offer shorter than the server held it.)"""
    mask = 0.4
    t = _person_with_bots(server, bot_delay=mask, options={"revolution": False, "xuandian": False})
    room = server.room(t["code"])
    hands = {
        True: ["QQQ5553", "9996", "KKK8873", "8863", "7763", "AAA7743"],  # seats 2 and 5 could burn
        False: ["QQQ5553", "9996", "KK8873", "8863", "7763", "AA7743"],  # nobody could
    }
    ctx = browser.new_context(locale="zh-CN", base_url=server.url)
    ctx.add_init_script(FRAME_CLOCK)
    seen: dict[bool, list[float]] = {True: [], False: []}
    try:
        page = ctx.new_page()
        page.goto("/")
        for _ in range(3):
            for could in (True, False):
                _put_deal(server, room, gouji.Deal.from_hands(hands[could], "qingdao", leader=0))
                open_seat(page, t["code"], 0, t["token"], "Ann")
                page.wait_for_function(
                    "() => window.gouji.view.frame.turn.seat === 0 && 'legal_count' in window.gouji.view.frame.turn"
                    " && window.gouji.view.frame.view.hand === 'QQQ5553'"
                )
                before = len(room.timings)
                page.evaluate("window.__frames.length = 0")
                page.evaluate("window.__played = performance.now(); window.gouji.view.act('QQQ')")
                # the felt marks Ann's QQQ 够级 as the frame's view says it is (the page decides no rule)
                page.wait_for_selector(".marks .mark-gouji", state="attached")
                if not seen[True]:
                    shot(page, "gouji-mark")
                    # (issue 45) a newer play on the felt takes the centre from a mark shown MARK_MIN_MS (600 ms)
                    # or longer, not from a younger one: bots play every 0.2 s, and a mark lasts 1.3 s
                    newer = """() => { const v = window.gouji.view, f = v.frame;
                        const age = performance.now() - v.markShownAt;
                        v.frame = { ...f, view: { ...f.view, top: '55', top_seat: 3 } };  // (a newer play: seat 3's)
                        v.lastTopPlay = null; v.animateTop(); v.frame = f;
                        return [age, !!document.querySelector('.marks .mark')]; }"""
                    age, kept = page.evaluate(newer)
                    assert kept or age >= 600, ("a young mark gave way", age)
                    page.wait_for_function("() => performance.now() - window.gouji.view.markShownAt >= 650")
                    age, kept = page.evaluate(newer)
                    assert not kept, ("a mark outlived a newer play", age)
                # the offer's end: the first frame of another decision
                page.wait_for_function(
                    "() => { const f = window.__frames; const i = f.findIndex((x) => x.turn.kind === 'burn');"
                    " return i >= 0 && f.slice(i).some((x) => x.turn.decision !== f[i].turn.decision); }"
                )
                frames = page.evaluate("window.__frames")
                i = next(k for k, f in enumerate(frames) if f["turn"]["kind"] == "burn")
                end = next(f for f in frames[i:] if f["turn"]["decision"] != frames[i]["turn"]["decision"])
                offer = frames[i : frames.index(end)]
                assert all("legal_count" not in f["turn"] for f in offer), "Ann is not asked about the burn"
                seen[could].append((end["t"] - page.evaluate("window.__played")) / 1000)
                burns = [w for w in list(room.timings)[before:] if w[0] == "burn"]
                assert burns and burns[0][3] is could  # the server saw the deal as meant: a choice, or none
                server.wait(lambda: room.window is None or room.window.kind != "burn", what="the burn window's end")
        with_burner, without = statistics.median(seen[True]), statistics.median(seen[False])
        print(
            f"\nthe burn window as Ann's page sees it: {with_burner * 1000:.0f} ms with a possible burner "
            f"({', '.join(f'{x * 1000:.0f}' for x in seen[True])}), {without * 1000:.0f} ms without "
            f"({', '.join(f'{x * 1000:.0f}' for x in seen[False])}); masking time {mask * 1000:.0f} ms"
        )
        # an offer to bots alone that all pass ends after the pass pace (a quarter of the masking time, whether or
        # not a bot could burn): the page sees its end at least that long after Ann's play
        pace = mask * PASS_PACE
        assert with_burner >= pace and without >= pace
        assert abs(with_burner - without) < mask / 2, "the window's time tells whether anyone could burn"
    finally:
        ctx.close()


def test_a_no_before_play_leaves_no_bubble_and_clears_none(new_page: Any) -> None:
    """The felt's last acts (render.js trackLastActs): before play a "no" (不革命, 不宣, 不买) leaves no 过
    bubble and clears none; once play begins, a pass is shown, and a seat's plays of the round are kept."""
    page = new_page()
    last = page.evaluate(
        """async () => {
            const m = await import('/render.js');
            const last = {};
            const seen = [];
            const feed = (ev) => { m.trackLastActs(last, ev); seen.push(JSON.stringify(last)); };
            feed({ type: 'deal' });
            feed({ type: 'act', seat: 1, action: 'pass' });    // 不革命
            feed({ type: 'act', seat: 2, action: 'declare' }); // 宣点
            feed({ type: 'act', seat: 3, action: 'pass' });    // 不宣
            feed({ type: 'play', leader: 2 });
            feed({ type: 'act', seat: 2, action: '55' });
            feed({ type: 'act', seat: 3, action: 'pass' });
            feed({ type: 'act', seat: 2, action: '66' });
            return seen.map((s) => JSON.parse(s));
        }"""
    )
    assert [{k: v for k, v in x.items() if k not in ("setup", "plays")} for x in last] == [
        {},
        {},
        {"2": "declare"},
        {"2": "declare"},
        {},
        {"2": "55"},
        {"2": "55", "3": "pass"},
        {"2": "66", "3": "pass"},
    ]
    # each seat's plays of the round (issue 45: the round stays readable until it ends)
    assert last[-1]["plays"] == {"2": ["55", "66"], "3": ["pass"]}, last[-1]
