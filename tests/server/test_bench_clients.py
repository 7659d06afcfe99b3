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
from gouji.server.config import TableConfig
from gouji.server.messages import protocol as P

from .test_frames import run_async

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _bench(name: str = "bench_server") -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _frames_of_a_set(preset: str, seed: int) -> list[str]:
    """Every frame six seats get over a set of two deals played at random (in process, no writer)."""
    texts: list[str] = []

    async def play() -> None:
        def write_now(text: str) -> bool:
            texts.append(text)
            return True

        rules = gouji.RuleSet.preset(preset).to_dict()
        config = TableConfig(preset, rules, seed, 2, None, 0.0, (None,) * 6)
        room, conns = _bench("bench_table").seated_room(1, config, write_now, lambda s: f"t{s}")
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
    # (a presence frame — a seat's connection came or went — is read whole, and the bots skip it)
    assert {"welcome", "state", "pause"} <= kinds <= {"welcome", "state", "pause", "presence"}
