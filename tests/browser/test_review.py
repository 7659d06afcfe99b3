"""The 复盘 review beside a replay (issue 44, item 3), in a browser: a finished set of the Skilled bots (高手) and
the novice, reviewed for a novice's seat — the progress while it runs, its mistakes marked on the timeline and
listed, and at a mistake the played and the better play on the cards with the sentence of what it changes, in
Chinese at 390×844 and in English at 1366×768; axe-core finds nothing; no seat's box covers another's, and on
a wide screen (1366×768, 1280×720, 1920×1080) every seat stays on the felt.  Screenshots:
``tests/browser/artifacts/review-*.png``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conftest import PHONE, LiveServer, shot
from .test_phone import LAPTOP, axe_violations

WIDE = [LAPTOP, {"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]
"""The wide screens the replay's felt is measured at, with the review's box and note beside and under it."""

SEAT_BOXES = """() => ({
  holder: document.querySelector('.felt-holder').getBoundingClientRect().toJSON(),
  seats: [...document.querySelectorAll('.felt .seat')]
    .map((e) => ({seat: e.dataset.seat, ...e.getBoundingClientRect().toJSON()})),
})"""


def _finished_set(server: LiveServer) -> int:
    """A one-deal set of the heuristic in seats 0, 2, 4 and the novice in 1, 3, 5, played out: its record id."""
    t = server.create(bots=["heuristic", "novice"] * 3, set_length=1, bot_delay=0)
    code = t["code"]
    server.wait(lambda: server.request(f"/api/tables/{code}")["status"] == "over", 60, "the set's end")
    games: list[dict[str, Any]] = []

    def stored() -> bool:
        games[:] = server.request(f"/api/tables/{code}/games")["games"]
        return any(g["kind"] == "set" for g in games)

    server.wait(stored, 20, "the set's record")
    return int(next(g["id"] for g in games if g["kind"] == "set"))


def _seats_apart(page: Any, where: str, on_felt: bool) -> None:
    """No two seats' boxes (each with its open hand) intersect; ``on_felt``: each lies within the felt's holder
    too (not over the bar above it or the replay's controls under it)."""
    got = page.evaluate(SEAT_BOXES)
    seats, holder = got["seats"], got["holder"]
    assert len(seats) == 6, (where, seats)
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            side_by_side = a["right"] <= b["left"] or b["right"] <= a["left"]
            assert side_by_side or a["bottom"] <= b["top"] or b["bottom"] <= a["top"], (where, a, b)
        if on_felt:
            inside = holder["left"] <= a["left"] and a["right"] <= holder["right"]
            assert inside and holder["top"] <= a["top"] and a["bottom"] <= holder["bottom"], (where, a, holder)


def _wide_apart(page: Any, name: str, note: Any = None) -> None:
    """The seats apart and on the felt at each wide screen, and the review's ``note`` (if any) seen whole
    without scrolling; the page is left at 1366×768."""
    for size in WIDE:
        page.set_viewport_size(size)
        page.wait_for_function("w => innerWidth === w", arg=size["width"])
        _seats_apart(page, f"{name} {size}", on_felt=True)
        box = note.bounding_box() if note is not None else None
        assert note is None or (box is not None and box["y"] + box["height"] <= size["height"]), (size, box)
    page.set_viewport_size(LAPTOP)
    page.wait_for_function("w => innerWidth === w", arg=LAPTOP["width"])


def _walk(page: Any, lang: str, name: str) -> None:
    page.wait_for_selector("#rp-review-box")
    progress = page.locator("#rp-review-box .review-progress")
    # the first mistakes are listed while the review still runs (or it was quick and is done already)
    page.wait_for_selector("#rp-review-box .review-list button", timeout=120_000)
    if progress.count():
        assert progress.locator("progress").count() == 1
    page.wait_for_selector("#rp-review-box .review-summary", timeout=120_000)
    marks = page.locator(".review-marks .review-mark")
    buttons = page.locator("#rp-review-box .review-list button")
    assert marks.count() == buttons.count() > 0
    first = buttons.first
    step = int(first.get_attribute("data-step") or "0")
    shot(page, name + "-list", full_page=True)
    first.click()
    note = page.locator("#rp-review-note")
    note.wait_for()
    assert f"{step}/" in page.locator("#rp-step").inner_text()  # the replay went to the mistake's step
    assert page.evaluate("new URL(location.href).searchParams.get('step')") == str(step)
    why = note.locator(".review-why").inner_text()
    better = note.locator(".review-better")
    assert better.locator(".card").count() > 0 or better.locator(".review-words").count() == 1
    if lang == "zh":
        assert "换成" in why and "多得" in why, why
        assert "事后诸葛亮" in page.locator(".review-caveat").inner_text()
    else:
        assert "would have" in why, why
        assert "Hindsight" in page.locator(".review-caveat").inner_text()
    for el in [first, page.locator("#rp-review")]:  # touch targets
        box = el.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
    assert axe_violations(page) == [], name
    if lang == "zh":
        _seats_apart(page, name, on_felt=False)
    else:  # the review's box beside the felt and its note under it leave the least room for the open hands
        _wide_apart(page, name, note)
    note.scroll_into_view_if_needed()
    shot(page, name)


def test_a_review_marks_mistakes_and_shows_the_better_play(server: LiveServer, new_page: Callable[..., Any]) -> None:
    rid = _finished_set(server)
    page = new_page(viewport=PHONE, locale="zh-CN", path=f"/?replay={rid}&deal=0&review=1")
    _walk(page, "zh", "review-phone-zh")
    page = new_page(viewport=LAPTOP, locale="en-US", path=f"/?replay={rid}&deal=0")
    page.wait_for_selector("#rp-review")
    _wide_apart(page, "the replay without its review, every hand full")
    page.locator("select.perspective").select_option("3")
    page.locator("#rp-review").click()
    assert page.evaluate("new URL(location.href).searchParams.get('review')") == "3"
    _walk(page, "en", "review-desktop-en")
