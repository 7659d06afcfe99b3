"""Issue 29 in a real browser: presence — every seat's countdown seen by the others, the 托管 banner.
(The summary's tribute reasons and the replay right after a deal: test_phone.py's whole deal.)"""

from __future__ import annotations

import json
import re
from typing import Any

from .conftest import LiveServer, shot
from .test_table import open_seat


def test_a_second_player_sees_the_countdown_and_the_offline_mark(new_page: Any, server: LiveServer) -> None:
    """Two people (seats 0 and 3) with a 60 s timer: while Ann is asked, Bob's page shows her seat's
    countdown (the table's public timer), and Ann's own timer says the same.  Then Ann closes her page: Bob
    sees 断线 on her seat and, in the centre, that the table waits for her and when 托管 takes over; it clears
    when she comes back."""
    bots: list[str | None] = ["heuristic", "heuristic", "heuristic", None, "heuristic", "heuristic"]
    bots[0] = None
    t = server.create(
        bots=bots,
        nickname="Ann",
        seat=0,
        bot_delay=0,
        turn_seconds=60,
        set_length=1,
        options={"revolution": False, "xuandian": False},
    )
    bob_seat = server.request(f"/api/tables/{t['code']}/join", {"seat": 3, "nickname": "Bob"})
    ann = new_page()
    open_seat(ann, t["code"], 0, t["token"], "Ann")
    bob = new_page()
    open_seat(bob, t["code"], 3, bob_seat["token"], "Bob")
    # whoever of the two is asked first: the other sees that seat's countdown
    ann.wait_for_function(
        "() => { const t = window.gouji.view.frame.turn; return t && (t.seat === 0 || t.seat === 3); }",
        timeout=30_000,
    )
    asked = ann.evaluate("window.gouji.view.frame.turn.seat")
    me, other = (ann, bob) if asked == 0 else (bob, ann)
    timer = f".seat[data-seat='{asked}'] .timer"
    other.wait_for_selector(timer)
    seen = int(re.sub(r"\D", "", other.inner_text(timer)))
    own = int(re.sub(r"\D", "", me.inner_text(".seat.me .timer")))
    assert 20 <= seen <= 60 and abs(seen - own) <= 2, (seen, own)
    shot(other, "presence-countdown")

    offline = ".seat[data-seat='0'] .b-offline"
    assert bob.query_selector(offline) is None
    ann.close()
    bob.wait_for_selector(offline)
    assert bob.inner_text(offline) == "断线"
    assert bob.query_selector(".seat[data-seat='3'] .b-offline") is None  # (his own seat is online)
    # the table waits for Ann: Bob's centre line says so, and when 托管 takes over her seat
    assert asked == 0, "the seed asks Ann first"
    bob.wait_for_selector(".status-line.absent .absent-left:not(:empty)")
    line = bob.inner_text(".status-line.absent")
    left = re.search(r"(\d+) 秒后托管", line)
    assert line.startswith("等待 Ann（断线）") and left and 20 <= int(left[1]) <= 60, line
    shot(bob, "presence-offline")
    back = new_page()
    open_seat(back, t["code"], 0, t["token"], "Ann")
    bob.wait_for_selector(offline, state="detached")
    assert back.query_selector(".b-offline") is None
    assert bob.query_selector(".status-line.absent") is None


def test_auto_play_says_how_many_moves_it_made_with_one_tap_to_take_over(new_page: Any, server: LiveServer) -> None:
    """Ann turns 托管 on: a banner counts the moves it makes for her (never more than it made), with one tap to
    take the seat back."""
    bots: list[str | None] = ["heuristic"] * 6
    bots[0] = None
    t = server.create(bots=bots, nickname="Ann", seat=0, bot_delay=0.05, turn_seconds=None, set_length=3)
    page = new_page()
    open_seat(page, t["code"], 0, t["token"], "Ann")
    page.click("#auto-btn")
    # (bots flood the page with frames: poll on a timer, not on animation frames)
    page.wait_for_function(
        "() => { const b = document.querySelector('#auto-return');"
        " return b && !b.hidden && /[1-9]/.test(b.textContent); }",
        polling=100,
        timeout=30_000,
    )
    moves = int(re.sub(r"\D", "", page.inner_text("#auto-return .auto-text")))
    room = server.room(t["code"])
    made = sum(1 for d in room.match.deals for e in d.events if e.get("type") == "act" and e.get("seat") == 0)
    assert 1 <= moves <= made, (moves, made)
    shot(page, "auto-return-banner")
    page.click("#auto-take-back")
    page.wait_for_function("() => document.querySelector('#auto-return').hidden", polling=100)
    assert not room.seats[0].auto


def test_quick_phrases_reach_the_table_rate_limited_and_mutable_per_viewer(new_page: Any, server: LiveServer) -> None:
    """Ann says 好牌！: Bob sees it at her seat (in his language), the server's record has no trace of it; a
    seat saying too much too fast is refused (rate_limited) and nothing reaches the others; Bob may hide
    them for himself. Ann's reaction (an emote) pops up at her seat on Bob's page until he hides those too."""
    bots: list[str | None] = ["heuristic"] * 6
    bots[0] = bots[3] = None
    t = server.create(bots=bots, nickname="Ann", seat=0, bot_delay=0, turn_seconds=None, set_length=1)
    bob_seat = server.request(f"/api/tables/{t['code']}/join", {"seat": 3, "nickname": "Bob"})
    ann = new_page()
    open_seat(ann, t["code"], 0, t["token"], "Ann")
    bob = new_page(locale="en-US")
    bob_frames: list[str] = []
    bob.on("websocket", lambda ws: ws.on("framereceived", lambda p: bob_frames.append(str(p))))
    open_seat(bob, t["code"], 3, bob_seat["token"], "Bob")
    ann.click("#phrase-btn")
    ann.click("#phrases [data-phrase='nice']")
    bob.wait_for_selector(".seat[data-seat='0'] .said[data-phrase='nice']")
    assert bob.inner_text(".seat[data-seat='0'] .said") == "Nice cards!"
    shot(bob, "phrase-seen")
    # three at once at most: the rest are refused and reach nobody
    for _ in range(4):
        ann.evaluate("window.gouji.view.say('wow')")
    ann.wait_for_function("() => document.querySelector('#toast').textContent.includes('太快')")
    said = [f for f in bob_frames if '"type":"said"' in f]
    assert 1 <= len(said) <= 3, said
    room = server.room(t["code"])
    assert all("said" not in json.dumps(e) for e in room.match.current.events)
    # Bob hides the phrases: the next one shows nothing on his page
    bob.click("#phrase-btn")
    bob.check("#mute-phrases")
    bob.click("#phrases-close")
    n = len(bob_frames)
    server.call(lambda: room.phrase_buckets[0].refund())  # (as 3 s would: the rate limit lets one more through)
    ann.evaluate("window.gouji.view.say('gg')")
    for _ in range(100):  # (Playwright hands over the frames while it is called)
        if any('"phrase":"gg"' in f for f in bob_frames[n:]):
            break
        bob.wait_for_timeout(100)
    assert any('"phrase":"gg"' in f for f in bob_frames[n:]), "the phrase's frame reaches Bob"
    assert bob.query_selector(".said[data-phrase='gg']") is None
    # reactions (issue 45): Ann sends an emote from the same box; Bob sees it pop up at her seat, then hides
    # the emotes for himself (a setting of their own) and the next one shows nothing
    server.call(lambda: room.phrase_buckets[0].refund())
    ann.click("#phrase-btn")
    shot(ann, "emote-box")
    assert ann.eval_on_selector_all("#emotes .btn", "els => els.map(e => e.getBoundingClientRect().height >= 44)")
    ann.click("#emotes [data-emote='heart']")
    bob.wait_for_selector(".seat[data-seat='0'] .said.emote[data-emote='heart']")
    assert bob.get_attribute(".said.emote", "title") == "Love it"
    bob.wait_for_timeout(700)  # (its pop is over)
    shot(bob, "emote-seen")
    bob.click("#phrase-btn")
    assert not bob.is_checked("#mute-emotes")
    bob.check("#mute-emotes")
    bob.click("#phrases-close")
    bob.wait_for_selector(".said.emote", state="detached")
    n = len(bob_frames)
    server.call(lambda: room.phrase_buckets[0].refund())
    ann.evaluate("window.gouji.view.say('star')")
    for _ in range(100):
        if any('"phrase":"star"' in f for f in bob_frames[n:]):
            break
        bob.wait_for_timeout(100)
    assert any('"kind":"emote"' in f for f in bob_frames[n:]), "the emote's frame reaches Bob"
    assert bob.query_selector(".said.emote") is None
