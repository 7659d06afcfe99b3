"""``benchmarks/bench_server.py``'s client bots read only the parts of a frame they act on (``_parts``): those
parts must be what the whole frame says, for every frame a set sends."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson

import gouji
from gouji.server import protocol as P
from gouji.server.config import TableConfig
from gouji.server.connection import Connection
from gouji.server.table import Room, token_hash

from .test_frames import run_async

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_server.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_server", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_server"] = module
    spec.loader.exec_module(module)
    return module


def _frames_of_a_set(preset: str, seed: int) -> list[str]:
    """Every frame six seats get over a set of two deals played at random (in process, no writer)."""
    texts: list[str] = []

    async def play() -> None:
        async def send(text: str) -> None:  # (never used: every frame is written at once)
            raise AssertionError("a frame waited")

        def write_now(text: str) -> bool:
            texts.append(text)
            return True

        rules = gouji.RuleSet.preset(preset).to_dict()
        room = Room(1, "BENCH1", TableConfig(preset, rules, seed, 2, None, 0.0, (None,) * 6), "x" * 64)
        conns = []
        for s in range(6):
            room.commit("join", s, {"nickname": f"p{s}", "token_hash": token_hash(f"t{s}")})
            conn = Connection(limit=10_000, send=send, write_now=write_now)
            room.attach(conn, s, token_hash(f"t{s}"))
            conns.append(conn)
        room.commit("start")
        rng = random.Random(seed)
        while room.status == "playing":
            if room.ready is not None:
                s = room.ready.index(False)
                room.mark_ready(conns[s], P.parse_client(orjson.dumps({"type": "ready", "token": f"t{s}"}).decode()))
                continue
            w = room.window
            assert w is not None and w.asked
            s = min(w.asked)
            legal = room.match.current.legal_actions_of(s)
            action = str(legal[rng.randrange(len(legal))])
            intent = {"type": "act", "action": action, "decision": room.decision, "token": f"t{s}"}
            room.intent(conns[s], P.parse_client(orjson.dumps(intent).decode()))

    run_async(play)
    return texts


def test_a_client_bot_reads_of_each_frame_what_the_whole_frame_says() -> None:
    parts = _bench()._parts
    kinds: set[str] = set()
    for preset, seed in (("qingdao", 3), ("tournament", 4)):
        texts = _frames_of_a_set(preset, seed)
        assert len(texts) > 500
        for text in texts:
            whole: dict[str, Any] = orjson.loads(text)
            mine = parts(text.encode())
            paused = whole["type"] == "state" and whole["table"]["ready"] is not None
            kinds.add("pause" if paused else whole["type"])
            assert mine["type"] == whole["type"]
            if whole["type"] != "state":
                assert mine == whole
                continue
            assert mine["state"] == whole["state"] and mine["turn"] == whole["turn"]
            assert mine["table"]["ready"] == whole["table"]["ready"]
            if whole["table"]["ready"] is not None:
                assert mine == whole  # (the pause between two deals: read whole)
    assert kinds == {"welcome", "state", "pause"}
