"""The table's reducer without a server: no event loop, no connection's socket, no database — changes and
intents in, the state, the writes and the frames out (:mod:`gouji.server.tables.state`,
:mod:`gouji.server.tables.frames`)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import gouji
from gouji.engine import cards as C
from gouji.server.config import TableConfig
from gouji.server.http.connection import Connection, token_hash
from gouji.server.messages import protocol as P
from gouji.server.storage import EventOp, RecordOp, StatusOp
from gouji.server.tables.frames import Frames, TableFrames
from gouji.server.tables.state import PASS_PACE, PLAY_PACE, WATCH_PACE

NOW = 1000.0
"""The time the tests give the reducer (it reads no clock)."""


def _table(preset: str = "qingdao", seed: int = 11, set_length: int = 1, turn: float | None = 30.0) -> TableFrames:
    rules = gouji.RuleSet.preset(preset).to_dict()
    return TableFrames(1, "STATE1", TableConfig(preset, rules, seed, set_length, turn, 0.0, (None,) * 6), "x" * 64)


def _seated(t: TableFrames) -> None:
    for s in range(6):
        t.step("join", s, {"nickname": f"p{s}", "token_hash": token_hash(f"t{s}")})
    t.step("start")


def _conn(t: TableFrames, seat: int | None) -> Connection:
    conn = Connection()  # (no socket: nothing is written)
    conn.seat = seat
    conn.token_hash = None if seat is None else t.seats[seat].token_hash
    return conn


def _hands_in(value: Any, out: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """Every value under a key ``hand`` or ``hands`` anywhere in a decoded frame."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("hand", "hands"):
                out.append((k, v))
            _hands_in(v, out)
    elif isinstance(value, list):
        for v in value:
            _hands_in(v, out)
    return out


def _check_frames(t: TableFrames, frames: Frames, leaks: list[str]) -> None:
    """Each seat's frame holds its own hand alone (and the public's none); other seats' hands, as text, are in
    no seat's frame."""
    deal = t.match.current
    dealt = deal.events[0]["hands"]
    for seat in (None, *range(6)):
        text = frames.text(seat)
        found = _hands_in(json.loads(text), [])
        if seat is None:
            if found:
                leaks.append(f"the public frame at state {t.state} holds {found}")
            continue
        mine = {C.format_counts(deal.hands[seat]), json.dumps(dealt[seat]), str(dealt[seat])}
        for key, value in found:
            if key == "hands" or (value != dealt[seat] and str(value) not in mine):
                leaks.append(f"seat {seat}'s frame at state {t.state} holds {key}={value!r}")
        for other in range(6):
            hand = C.format_counts(deal.hands[other])
            if other != seat and len(hand) >= 8 and hand in text:
                leaks.append(f"seat {seat}'s frame at state {t.state} holds seat {other}'s hand")


def _play(t: TableFrames, rng: random.Random, on_change: Any = None) -> int:
    """Play the table's set out through windows, as the I/O shell does: open the window of each decision,
    answer every seat it waits for, feed the answers (one change each).  Returns the windows opened."""
    windows = 0
    while t.status == "playing":
        if t.ready is not None:
            assert t.all_ready() is False  # people's seats say so themselves
            for s in range(6):
                t.step("ready", s)
            assert t.all_ready()
            t.step("resume", None, {"by": "ready"})
            continue
        key = t.window_key()
        assert key is not None
        w = t.new_window(key, NOW, NOW)
        windows += 1
        assert t.window is w and not w.thinking  # (people's seats only: no bot thinks)
        for s in sorted(w.asked):
            legal = t.match.current.legal_actions_of(s)
            w.answers[s] = (legal[rng.randrange(len(legal))], "player")
        w.asked.clear()
        assert w.complete
        t.close_window(w)
        t._resolving = True
        for s, action, by in t.feed_order(w):
            t.step("act", s, {"by": by}, action)
        t._resolving = False
        if on_change is not None:
            on_change(t)
    return windows


def test_changes_number_the_state_and_say_what_to_store() -> None:
    t = _table()
    ops = t.step("join", 2, {"nickname": "Ann", "token_hash": token_hash("secret")})
    assert t.state == 1 and t.seats[2].nickname == "Ann" and t.seat_of_token("secret") == 2
    assert ops == [EventOp(1, 1, "join", 2, {"nickname": "Ann", "token_hash": token_hash("secret")})]
    t.step("auto", 2, {"on": True})
    assert t.seats[2].auto
    t.step("leave", 2)
    assert t.seats[2].nickname is None and not t.seats[2].auto and t.seat_of_token("secret") is None
    assert t.status == "waiting" and t.decision == 0 and t.window_key() is None
    _seated(t)
    assert t.status == "playing" and t.decision == t.state == 10
    assert t.window_key() == (0, t.match.current.decisions)
    with pytest.raises(gouji.IllegalAction):
        t.step("act", (t.match.to_act or 0) + 1, {}, t.match.current.legal_actions()[0])
    assert t.state == 10, "a refused action changes nothing"


def test_a_set_played_through_the_reducer_stores_its_records_and_ends() -> None:
    t = _table(set_length=2, seed=5)
    _seated(t)
    stored: list[Any] = []
    real = t.step

    def step(*a: Any, **kw: Any) -> Any:
        ops = real(*a, **kw)
        stored.extend(ops)
        return ops

    t.step = step  # type: ignore[method-assign]
    assert _play(t, random.Random(1)) > 50
    assert t.status == "over" and len(t.match.points) == 2
    records = [(op.kind, op.deal_index) for op in stored if isinstance(op, RecordOp)]
    assert records == [("deal", 0), ("deal", 1), ("set", None)]
    assert [op for op in stored if isinstance(op, StatusOp)] == [StatusOp(1, "over")]
    states = [op.state for op in stored if isinstance(op, EventOp)]
    assert states == list(range(8, t.state + 1)), "every change is stored, numbered in order"


@pytest.mark.parametrize(("preset", "seed"), [("qingdao", 3), ("shandong", 8), ("heze", 21)])
def test_no_seats_frame_holds_another_seats_hidden_cards(preset: str, seed: int) -> None:
    t = _table(preset, seed)
    _seated(t)
    leaks: list[str] = []
    made = [0]

    def check(t: TableFrames) -> None:
        _check_frames(t, Frames(t, t.new_events()), leaks)
        made[0] += 1

    check(t)
    _play(t, random.Random(seed), check)
    assert made[0] > 50 and not leaks, leaks[:5]
    for seat in range(6):  # the full frames (hello, sync) too
        full = t.state_frame(seat, full=True)
        assert [v for k, v in _hands_in(full, []) if k == "hands"] == []


def test_intents_are_checked_and_a_refused_one_changes_nothing() -> None:
    t = _table()
    _seated(t)
    while True:  # on to a decision with a choice (one with a single answer is made for its seat)
        key = t.window_key()
        assert key is not None
        w = t.new_window(key, NOW, NOW)
        if w.asked:
            break
        t.close_window(w)
        for s, action, by in t.feed_order(w):
            t.step("act", s, {"by": by}, action)
    assert w.deadline == NOW + 30.0 and t.countdown == int((NOW + 30.0) * 1000)
    seat = t.match.to_act
    assert seat is not None and seat in w.asked
    other = (seat + 1) % 6
    legal = t.match.current.legal_actions_of(seat)
    good = P.ClientMessage("act", token=f"t{seat}", action=str(legal[0]), decision=t.decision)
    before = (t.state, t.decision, json.dumps(t.public()))
    for conn, msg, code in [
        (_conn(t, None), good, P.SPECTATOR),
        (_conn(t, seat), good._replace(token="wrong"), P.UNAUTHORIZED),
        (_conn(t, seat), good._replace(decision=t.decision - 1), P.STALE),
        (_conn(t, other), good._replace(token=f"t{other}"), P.NOT_YOUR_TURN),
        (_conn(t, seat), good._replace(action="no such cards"), P.ILLEGAL),
    ]:
        with pytest.raises(P.ProtocolError) as e:
            t.check_act(conn, msg)
        assert e.value.code == code, (msg, e.value.message)
    assert (t.state, t.decision, json.dumps(t.public())) == before
    assert t.check_act(_conn(t, seat), good) == (w, seat, legal[0])
    assert t.check_auto(_conn(t, seat), P.ClientMessage("auto", token=f"t{seat}", on=True)) == (seat, True)
    assert t.check_ready(_conn(t, seat), P.ClientMessage("ready", token=f"t{seat}")) == (seat, False)


def test_a_window_of_bots_passes_goes_at_the_pass_pace() -> None:
    rules = gouji.RuleSet.preset("qingdao").to_dict()
    t = TableFrames(1, "PACE01", TableConfig("qingdao", rules, 4, 1, None, 0.8, ("random",) * 6), "x" * 64)
    t.step("start")
    key = t.window_key()
    assert key is not None
    w = t.new_window(key, NOW, NOW)
    assert t.countdown is None and w.deadline is None, "no person's seat: no countdown"
    assert w.until == NOW + 0.8
    w.answers = {s: (gouji.PASS, "bot") for s in w.seats}
    w.thinking.clear()
    t.pace(w)
    assert w.until == pytest.approx(NOW + 0.8 * PASS_PACE)


def test_a_window_of_bots_with_a_play_goes_at_the_play_pace_and_a_persons_at_the_whole_mask() -> None:
    """Issue 45: a bots' window whose answers hold a play resolves after PLAY_PACE of the masking time, a forced
    play as a chosen one (the time follows the answer, which the frame shows); a window over a person's seat
    keeps the whole masking time whatever its answer."""
    rules = gouji.RuleSet.preset("qingdao").to_dict()
    for bots, paced in ((("random",) * 6, True), ((None,) + ("random",) * 5, False)):
        t = TableFrames(1, "PLAY01", TableConfig("qingdao", rules, 4, 1, None, 0.8, bots), "x" * 64)
        if bots[0] is None:
            t.step("join", 0, {"nickname": "Ann", "token_hash": token_hash("t0")})
        t.step("start")
        key = t.window_key()
        assert key is not None
        w = t.new_window(key, NOW, NOW)
        assert w.until == NOW + 0.8
        play = gouji.parse_action("33")
        for forced in (False, True):
            w.seats, w.until = [0], NOW + 0.8  # (seat 0's play: a bot's, or the person's given for them)
            w.answers = {0: (play, "forced" if forced else "bot")}
            w.thinking.clear()
            w.asked.clear()
            w.prompted.clear()
            t.pace(w)
            expected = NOW + 0.8 * PLAY_PACE if paced else NOW + 0.8
            assert w.until == pytest.approx(expected), (bots[0], forced)


def test_once_every_person_is_out_the_deal_is_watched_at_the_watch_pace() -> None:
    """Issue 29: when every person seated at the table is out of cards, the rest of the deal goes at
    WATCH_PACE of the masking time; while one holds cards, or with no person seated, at the whole of it."""
    rules = gouji.RuleSet.preset("qingdao").to_dict()
    t = TableFrames(1, "WATCH1", TableConfig("qingdao", rules, 4, 1, None, 0.8, (None,) + ("random",) * 5), "x" * 64)
    t.step("join", 0, {"nickname": "Ann", "token_hash": token_hash("t0")})
    t.step("start")
    key = t.window_key()
    assert key is not None
    assert t.new_window(key, NOW, NOW).until == NOW + 0.8, "the person holds cards: the whole masking time"
    hands = t.match.current.hands
    kept = list(hands[0])
    hands[0][:] = [0] * len(kept)  # (as if seat 0 had gone out; the window is opened again)
    assert t.watched(hands)
    assert t.new_window(key, NOW, NOW).until == pytest.approx(NOW + 0.8 * WATCH_PACE)
    hands[0][:] = kept
    assert not t.watched(hands)
    bots = TableFrames(2, "WATCH2", TableConfig("qingdao", rules, 4, 1, None, 0.8, ("random",) * 6), "x" * 64)
    bots.step("start")
    bots.match.current.hands[0][:] = [0] * len(kept)
    assert not bots.watched(bots.match.current.hands), "no person seated: nobody watches, the pace stays"
