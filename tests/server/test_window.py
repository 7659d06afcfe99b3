"""Decision windows at the protocol level, without a browser (gouji.server.tables.window).

- no decision with one legal answer ever reaches a person, over whole deals on every preset;
- the seats of one event (a burn offer, a revolution, a 买四 round) are asked at once, and a seat that is not
  asked learns nothing of who is;
- a window's time does not depend on whether anyone could act: it lasts the masking time (bots decide at
  once inside it), with and without a possible burner.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

import gouji
from gouji.bots.heuristic import HeuristicBot
from gouji.server.config import TableConfig
from gouji.server.http.connection import Connection
from gouji.server.messages import protocol as P
from gouji.server.settings import ServerSettings
from gouji.server.tables.state import PLAY_PACE
from gouji.server.tables.table import PASS_PACE, Room, token_hash

T = TypeVar("T")


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """asyncio.run in a thread of its own (the browser tests may leave a running loop in the main thread)."""
    out: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            out.append(asyncio.run(coro))
        except BaseException as e:  # handed to the test's thread
            errors.append(e)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return out[0]


def _room(preset: str, seed: int, bots: tuple[str | None, ...], bot_delay: float = 0.0) -> Room:
    rules = gouji.RuleSet.preset(preset).to_dict()
    config = TableConfig(preset, rules, seed, 1, None, bot_delay, bots)
    return Room(1, "WINDOW", config, "x" * 64, settings=ServerSettings(seeds=lambda: seed))


def _latest(conn: Connection) -> dict[str, Any] | None:
    frame = None
    while not conn.queue.empty():
        item = conn.queue.get_nowait()
        if isinstance(item, str):
            f = json.loads(item)
            if f["type"] == "state":
                frame = f
    return frame


def _six_people_at(room: Room, deal: gouji.Deal) -> list[Connection]:
    """Play ``deal`` at ``room`` with a person at every seat (token ``token-<seat>``): their connections."""
    room.match.deals[-1] = deal
    conns = []
    for s in range(6):
        room.commit("join", s, {"nickname": f"p{s}", "token_hash": token_hash(f"token-{s}")})
        c = Connection(limit=10_000)
        room.attach(c, s, token_hash(f"token-{s}"))
        conns.append(c)
    room.commit("start")
    return conns


async def _six_people(
    preset: str, seed: int, bots: tuple[str | None, ...] = (None,) * 6, frames: list[dict[str, Any]] | None = None
) -> tuple[Room, list[dict[str, Any]], int]:
    """A one-deal set with a person (a test client choosing by the hint) at every seat but the ``bots``'
    (and their frames that asked them in ``frames``); returns the room, every prompt a person got, and how
    many decisions the deal took."""
    room = _room(preset, seed, bots)
    people = [s for s in range(6) if bots[s] is None]
    conns: dict[int, Connection] = {}
    for s in people:
        room.commit("join", s, {"nickname": f"p{s}", "token_hash": token_hash(f"token-{s}")})
    for s in people:
        c = Connection(limit=100_000)
        room.attach(c, s, token_hash(f"token-{s}"))
        conns[s] = c
    if room.status == "waiting":
        room.commit("start")
    prompts: list[dict[str, Any]] = []
    last: list[dict[str, Any] | None] = [None] * 6
    acted: set[tuple[int, int]] = set()
    bot = HeuristicBot()
    for _ in range(200_000):
        if room.status != "playing":
            break
        for s, c in conns.items():
            f = _latest(c) or last[s]
            last[s] = f
            if f is None or "legal_count" not in f["turn"] or (s, f["state"]) in acted:
                continue
            assert f["turn"]["seat"] == s
            prompts.append(f["turn"])
            if frames is not None:
                frames.append(f)
            acted.add((s, f["state"]))
            deal = room.match.current
            action = bot.decide(deal.view(s), deal.legal_actions_of(s), None)  # type: ignore[arg-type]
            msg = P.ClientMessage("act", token=f"token-{s}", action=str(action), state=f["state"])
            room.intent(c, msg)
        await asyncio.sleep(0)
    assert room.status == "over"
    return room, prompts, room.match.deals[0].decisions


def test_a_person_asked_with_a_bot_in_the_window_is_told_it_is_not_on_auto() -> None:
    """``turn.auto`` is about ``turn.seat``: a person the window asks is not played by a bot, even when the
    engine's seat to act in that window is a bot's."""
    frames: list[dict[str, Any]] = []
    bots = (None, "random", None, "random", None, "random")
    for seed in range(3):
        _run(_six_people("qingdao", seed, bots, frames))
    assert all(f["turn"]["auto"] is False for f in frames), [f["turn"] for f in frames if f["turn"]["auto"]][:3]
    behind_a_bot = [f for f in frames if f["view"]["to_act"] is not None and f["view"]["to_act"] % 2 == 1]
    assert behind_a_bot  # (the case: the window asks a person while the engine waits on a bot's answer first)


def test_no_decision_with_one_answer_ever_reaches_a_person_on_every_preset() -> None:
    forced_total = 0
    for preset in gouji.PRESETS:
        _, prompts, decisions = _run(_six_people(preset, seed=11))
        assert prompts, preset
        for turn in prompts:
            assert turn["legal_count"] > 1, (preset, turn)
        # every decision of the deal was made: by a person on a prompt, or given for the seat
        assert len(prompts) < decisions
        forced_total += decisions - len(prompts)
    assert forced_total > 100


def test_the_seats_of_a_burn_offer_are_asked_at_once_and_the_others_learn_nothing() -> None:
    async def run() -> None:
        # seat 0 leads QQQ: seats 2, 4, 1 and 5 are offered the burn; seats 2 and 5 hold beating plays
        hands = ["QQQ5553", "9996", "KKKX8873", "8863", "7763", "AAAX7743"]
        room = _room("qingdao", 1, (None,) * 6)
        deal = gouji.Deal.from_hands(hands, "qingdao", leader=0)
        conns = _six_people_at(room, deal)
        f0 = _latest(conns[0])
        assert f0 is not None and f0["turn"]["legal_count"] > 1
        room.intent(conns[0], P.ClientMessage("act", token="token-0", action="QQQ", state=f0["state"]))
        frames = [_latest(c) for c in conns]
        assert room.window is not None and room.window.kind == "burn"
        assert room.window.seats == [2, 4, 1, 5] and room.window.asked == {2, 5}
        for s, f in enumerate(frames):
            assert f is not None
            turn = f["turn"]
            assert turn["kind"] == "burn" and turn["seats"] == [2, 4, 1, 5]
            if s in (2, 5):
                assert turn["seat"] == s and turn["legal_count"] > 1 and "pass" in turn["choices"]
            else:  # the same public turn whatever the hand: nothing says who was prompted
                assert "legal_count" not in turn and turn["deadline"] is None
                public = {k: v for k, v in turn.items() if k != "forced"}
                assert public == {k: v for k, v in frames[0]["turn"].items() if k != "forced"}
            if s in (4, 1):
                assert turn["forced"] == "pass"
        # both answer; seat 5 first: nothing resolves until seat 2 (first in priority) answers too
        room.intent(conns[5], P.ClientMessage("act", token="token-5", action="burn AAA", state=frames[5]["state"]))
        assert room.window is not None and room.window.asked == {2}
        room.intent(conns[2], P.ClientMessage("act", token="token-2", action="pass", state=frames[2]["state"]))
        await asyncio.sleep(0)
        acts = [(e["seat"], e["action"]) for e in deal.events if e["type"] == "act"]
        assert acts[1:5] == [(2, "pass"), (4, "pass"), (1, "pass"), (5, "burn AAA")]
        assert deal.burner == 5

    _run(run())


def test_a_burn_window_takes_the_masking_time_whether_or_not_anyone_could_burn() -> None:
    mask = 0.03

    async def run() -> list[tuple[str, float, bool, bool]]:
        timings: list[tuple[str, float, bool, bool]] = []
        for seed in range(3):
            room = _room("qingdao", seed, ("heuristic",) * 6, bot_delay=mask)
            room.commit("start")
            for _ in range(20_000):
                if room.status != "playing":
                    break
                await asyncio.sleep(0.01)
            assert room.status == "over"
            timings += room.timings
        return timings

    timings = _run(run())
    burns = [(t, choice) for kind, t, _, choice in timings if kind == "burn"]
    could = [t for t, choice in burns if choice]
    could_not = [t for t, choice in burns if not choice]
    assert could and could_not, "both kinds of burn window occur"
    # (issue 29: all passes take the pass pace, or none right after other passes; a burn taken the whole
    # masking time — test_bots_passes_go_at_the_pass_pace…): whether anyone could burn does not show
    a, b = statistics.median(could), statistics.median(could_not)
    print(
        f"burn windows: {len(could)} with a possible burner, median {a * 1000:.1f} ms; "
        f"{len(could_not)} without, median {b * 1000:.1f} ms (masking time {mask * 1000:.0f} ms)"
    )
    assert abs(a - b) < mask, "a window's time does not tell whether anyone could burn"


def test_bots_passes_go_at_the_pass_pace_and_their_plays_at_the_play_pace() -> None:
    """Issue 29: at a table of bots a window whose answers are all passes (要不起, 不烧) resolves after
    PASS_PACE of the masking time, whether a pass was forced or chosen, and the passes right after it at once
    (one beat); issue 45: a window with a play after PLAY_PACE of it, forced or chosen."""
    mask = 0.08

    async def run() -> list[tuple[list[str], float]]:
        room = _room("qingdao", 5, ("heuristic",) * 6, bot_delay=mask)
        windows: list[tuple[list[str], float]] = []
        real = room._feed

        def feed(w: Any) -> None:
            elapsed = asyncio.get_running_loop().time() - w.opened
            windows.append(([str(a) for a, _ in w.answers.values()], elapsed))
            real(w)

        room._feed = feed  # type: ignore[method-assign]
        room.commit("start")
        for _ in range(20_000):
            if room.status != "playing":
                break
            await asyncio.sleep(0.005)
        assert room.status == "over"
        return windows

    windows = _run(run())
    passed = [all(a == "pass" for a in answers) for answers, _ in windows]
    first = [t for i, (_, t) in enumerate(windows) if passed[i] and (i == 0 or not passed[i - 1])]
    later = [t for i, (_, t) in enumerate(windows) if passed[i] and i and passed[i - 1]]
    others = [t for i, (_, t) in enumerate(windows) if not passed[i]]
    assert first and later and others
    # a run of passes is one beat: the first at the pass pace, the rest at once (medians: a loaded machine
    # may keep a bot thinking past the pace now and then); a play takes the play pace
    assert all(t >= mask * PASS_PACE for t in first), first
    assert statistics.median(first) < mask * PLAY_PACE, first
    assert statistics.median(later) < mask * PASS_PACE, later
    assert all(t >= mask * PLAY_PACE for t in others), others
    assert statistics.median(others) < mask, others


def test_a_timer_that_wakes_early_does_not_hang_the_window(monkeypatch: Any) -> None:
    """The event loop may wake a sleep a little before its time (uvloop does, under Uvicorn). A window's task
    then found the masking time not over and the person's answer not given, and slept an hour; an answer that
    came before the masking time ended left the window to that task: the table hung. Every sleep here wakes
    at half its time; the person answers after that wake and before the masking time ends."""
    real_sleep = asyncio.sleep

    async def early(delay: float, result: Any = None) -> Any:
        return await real_sleep(delay / 2 if 0 < delay < 60 else delay, result)

    async def play() -> int:
        room = _room("qingdao", 11, (None, "random", "random", "random", "random", "random"), bot_delay=0.3)
        room.commit("join", 0, {"nickname": "p0", "token_hash": token_hash("token-0")})
        conn = Connection(limit=100_000)
        room.attach(conn, 0, token_hash("token-0"))
        if room.status == "waiting":
            room.commit("start")
        monkeypatch.setattr(asyncio, "sleep", early)
        answered, last = 0, None
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while answered < 3:
            assert loop.time() < end, "the table hung: a window waited for a task asleep for an hour"
            f = _latest(conn) or last
            last = f
            if f is None or "legal_count" not in f["turn"] or f["turn"]["seat"] != 0:
                await real_sleep(0.01)
                continue
            await real_sleep(0.2)  # after the task's early wake (0.15 s), before the masking time ends (0.3 s)
            deal = room.match.current
            action = HeuristicBot().decide(deal.view(0), deal.legal_actions_of(0), None)  # type: ignore[arg-type]
            room.intent(conn, P.ClientMessage("act", token="token-0", action=str(action), state=f["state"]))
            state = f["state"]
            while (g := _latest(conn)) is None or g["state"] <= state:
                assert loop.time() < end, f"the table hung after the answer at state {state}"
                last = g or last
                await real_sleep(0.01)
            last = g
            answered += 1
        room.shut("test over")
        return answered

    assert _run(play()) == 3
