"""The pace of a deal for a person at the table (issue 29): a scripted person who answers each question in
about 1.5 s plays a whole deal of each preset at the default speed (正常: bots and masking 0.4 s, a 30 s turn
timer) against five heuristic bots, over the server's real WebSocket protocol (docs/protocol.md).

For each preset it prints the deal's wall time (from its first frame to its end), the share of it spent
waiting for the others (everything but the person's own answering time), the questions the person was asked
(decisions with one legal answer are given for them and not asked), and the taps a question takes on the
page (the person takes the hint: the page has selected its play already, so one tap on 出牌, or one on the
question's button).  The tables play at once on one server (each table waits on its own timers, so the deals
do not slow each other down beyond the bots' thinking).

    .venv/bin/python benchmarks/bench_table_pace.py [--presets qingdao,tournament] [--think 1.5]
        [--bot-delay 0.4] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import socket
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn
import websockets

from gouji.engine.rules import PRESETS
from gouji.server import create_app
from gouji.server.http.play_socket import PlaySocket


class Server:
    """The app served by Uvicorn on a free loopback port, in this process's event loop."""

    def __init__(self, bot_delay: float, turn_seconds: float) -> None:
        db = Path(tempfile.mkdtemp(prefix="gouji-pace-")) / "pace.db"
        self.app = create_app(f"sqlite:///{db}", turn_seconds=turn_seconds, bot_delay=bot_delay)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(self.app, log_level="warning", ws=PlaySocket, access_log=False, lifespan="on")
        self.server = uvicorn.Server(config)

    async def start(self) -> None:
        self.task = asyncio.create_task(self.server.serve(sockets=[self.sock]))
        while not self.server.started:
            await asyncio.sleep(0.02)

    async def stop(self) -> None:
        self.server.should_exit = True
        await self.task

    async def post(self, path: str, body: dict[str, Any]) -> Any:
        def call() -> Any:
            req = urllib.request.Request(
                f"http://127.0.0.1:{self.port}{path}",
                data=json.dumps(body).encode(),
                headers={"content-type": "application/json"},
                method="POST",
            )
            try:
                with urllib.request.urlopen(req, timeout=30) as res:
                    return json.loads(res.read())
            except urllib.error.HTTPError as e:
                return {"status": e.code}

        return await asyncio.to_thread(call)


def _auto_decline_seconds() -> float:
    """The page's mean pause before it answers a hopeless burn offer 不烧: the middle of ``AUTO_DECLINE_MS``
    in table/common.js, read from the page itself so that the bench follows it."""
    common = Path(__file__).resolve().parents[1] / "src/gouji/server/static/table/common.js"
    found = re.search(r"AUTO_DECLINE_MS = \[(\d+), (\d+)\]", common.read_text())
    if found is None:
        raise SystemExit(f"no AUTO_DECLINE_MS = [lo, hi] in {common}")
    return (int(found[1]) + int(found[2])) / 2000


AUTO_DECLINE_S = _auto_decline_seconds()


def hopeless_burn(turn: dict[str, Any]) -> bool:
    """The page's test (table/actions.js, hopelessBurn): a burn offer of which every burn listed needs more
    jokers than the hand keeps."""
    if not turn.get("burn_offer"):
        return False
    burns = [c for c in turn.get("choices") or (turn.get("legal") or {}).get("explicit") or [] if c.startswith("burn ")]
    needs = list((turn.get("burn_needs") or {}).values())
    return bool(burns) and len(needs) == len(burns) and all(jokers < needed for _, needed, jokers in needs)


async def play_deal(srv: Server, preset: str, think: float, bot_delay: float, turn_seconds: float) -> dict[str, Any]:
    """One deal of ``preset``: the person at seat 0 answers each question after ``think`` seconds, with the
    hint's choice."""
    bots: list[str | None] = ["heuristic"] * 6
    bots[0] = None
    t = await srv.post(
        "/api/tables",
        {
            "preset": preset,
            "bots": bots,
            "nickname": "Ann",
            "seat": 0,
            "bot_delay": bot_delay,
            "turn_seconds": turn_seconds,
            "set_length": 1,
        },
    )
    code, token = t["code"], t["token"]
    questions = 0
    declined = 0
    answering = 0.0
    taps = 0
    start = None
    answered: set[int] = set()
    out_at = None  # when the person's hand emptied (the rest of the deal they watch)
    async with websockets.connect(f"ws://127.0.0.1:{srv.port}/ws/tables/{code}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        msg_id = 0
        async for raw in ws:
            f = json.loads(raw)
            if f.get("type") != "state":
                continue
            if start is None:
                start = time.monotonic()
            if out_at is None and f["view"]["players"][0].get("cards") == 0:
                out_at = time.monotonic()
            if any(e.get("type") == "end" for e in f.get("events") or []) or f["table"]["status"] == "over":
                break
            turn = f.get("turn") or {}
            decision = turn.get("decision")
            if turn.get("seat") != 0 or "legal_count" not in turn or decision in answered:
                continue
            answered.add(decision)
            asked = time.monotonic()
            if hopeless_burn(turn):
                # the page's default (issue 45): a burn the hand cannot carry is answered 不烧 for the person
                # after a person's pause; not a question, and the time is waiting
                await asyncio.sleep(AUTO_DECLINE_S)
                msg_id += 1
                decline = {"type": "act", "action": "pass", "decision": decision, "token": token, "id": f"a{msg_id}"}
                await ws.send(json.dumps(decline))
                declined += 1
                continue
            questions += 1
            hint: dict[str, Any] = {}
            for _ in range(50):  # (the server works out a few hints at once: busy is asked again)
                hint = await srv.post(f"/api/tables/{code}/hint", {"token": token})
                if "action" in hint or hint.get("status") not in (429, 503):
                    break
                await asyncio.sleep(0.1)
            action = hint.get("action") or (turn.get("choices") or turn.get("sample"))[0]
            await asyncio.sleep(max(0.0, asked + think - time.monotonic()))
            msg_id += 1
            await ws.send(
                json.dumps({"type": "act", "action": action, "decision": decision, "token": token, "id": f"a{msg_id}"})
            )
            taps += 1  # the hint's play is selected for the person: one tap on 出牌 (or on the question's button)
            answering += time.monotonic() - asked
    end = time.monotonic()
    wall = end - (start or end)
    # what the deal's time went on, from the table's own record of its windows (kind, seconds, prompted, choice)
    room = srv.app.state.lobby.rooms.get(code)
    timings = list(room.timings) if room is not None else []
    person = sum(sec for _, sec, prompted, _ in timings if prompted)
    bots_chose = [sec for _, sec, prompted, choice in timings if not prompted and choice]
    no_choice = [sec for _, sec, prompted, choice in timings if not prompted and not choice]
    return {
        "preset": preset,
        "wall_s": round(wall, 1),
        "waiting_share": round((wall - answering) / wall, 3) if wall else None,
        "questions": questions,
        "auto_declined": declined,
        "taps_per_question": round(taps / questions, 2) if questions else None,
        "after_out_s": round(end - out_at, 1) if out_at is not None else 0.0,
        "windows": len(timings),
        "person_windows_s": round(person, 1),
        "bot_choice_windows": len(bots_chose),
        "bot_choice_s": round(sum(bots_chose), 1),
        "no_choice_windows": len(no_choice),
        "no_choice_s": round(sum(no_choice), 1),
    }


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--think", type=float, default=1.5, help="the person's seconds a question")
    ap.add_argument("--bot-delay", type=float, default=0.4, help="the table's speed (正常 = 0.4)")
    ap.add_argument("--turn-seconds", type=float, default=30.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    srv = Server(args.bot_delay, args.turn_seconds)
    await srv.start()
    try:
        results = await asyncio.gather(
            *(play_deal(srv, p, args.think, args.bot_delay, args.turn_seconds) for p in args.presets.split(",") if p)
        )
    finally:
        await srv.stop()
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"a person answering in {args.think} s, bots at {args.bot_delay} s, one deal of each preset:")
    print(
        f"{'preset':<12} {'wall s':>7} {'waiting':>8} {'questions':>10} {'不烧 auto':>9} {'taps/q':>7}   "
        "windows: the person's s, "
        "bots choosing n/s, nobody choosing n/s"
    )
    for r in results:
        print(
            f"{r['preset']:<12} {r['wall_s']:>7.1f} {r['waiting_share']:>8.0%} {r['questions']:>10} "
            f"{r['auto_declined']:>9} "
            f"{r['taps_per_question']:>7}   {r['person_windows_s']:>5.1f} s, {r['bot_choice_windows']:>3}/"
            f"{r['bot_choice_s']:.1f} s, {r['no_choice_windows']:>3}/{r['no_choice_s']:.1f} s"
        )
    walls = sorted(r["wall_s"] for r in results)
    print(f"median wall {walls[len(walls) // 2]:.1f} s, longest {walls[-1]:.1f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(main())
