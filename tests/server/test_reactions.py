"""Reactions (issue 45): an emote is a ``say`` of an id from :data:`gouji.server.tables.phrases.EMOTES`, shown to the
table as a ``said`` frame of kind ``emote``; validated, rate-limited with the phrases, refused at a duplicate
match's table — on a real server process."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gouji.server.tables.phrases import BURST, EMOTES, PHRASES

from .test_security import serving
from .test_security_review2 import _hello, _match_with_people


def _next(ws: Any, pred: Callable[[dict[str, Any]], bool], frames: int = 80) -> dict[str, Any]:
    """The first frame of `ws` that `pred` takes (state frames pass by)."""
    for _ in range(frames):
        frame: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if pred(frame):
            return frame
    raise AssertionError("no such frame")


def _say(ws: Any, token: str, phrase: str, id: str) -> None:
    ws.send(json.dumps({"type": "say", "phrase": phrase, "token": token, "id": id}))


def test_an_emote_reaches_the_table_rate_limited_and_never_at_a_match(tmp_path: Path) -> None:
    assert not set(EMOTES) & set(PHRASES)
    with serving(tmp_path, "--bot-delay", "0") as server:
        bots: list[str | None] = ["random"] * 6
        bots[0] = bots[3] = None
        body = {"bots": bots, "nickname": "ann", "seat": 0, "bot_delay": 0, "turn_seconds": None, "set_length": 1}
        ann = server.post("/api/tables", body).json()
        bob = server.post(f"/api/tables/{ann['code']}/join", {"seat": 3, "nickname": "bob"}).json()
        with _hello(server, ann["code"], ann["token"]) as a, _hello(server, ann["code"], bob["token"]) as b:
            _next(a, lambda f: f["type"] == "state")
            _next(b, lambda f: f["type"] == "state")
            _say(a, ann["token"], "heart", "e1")
            said = _next(b, lambda f: f["type"] == "said")
            assert said == {"type": "said", "v": 1, "seat": 0, "phrase": "heart", "kind": "emote"}, said
            # an id of neither set: refused, nothing sent
            _say(a, ann["token"], "poo", "e2")
            refused = _next(a, lambda f: f["type"] == "error")
            assert refused["code"] == "bad_message" and refused["id"] == "e2" and "heart" in refused["message"]
            # phrases and emotes share one bucket: BURST at once, then rate_limited
            for i in range(BURST + 1):
                _say(a, ann["token"], "nice" if i % 2 else "star", f"e{3 + i}")
            limited = _next(a, lambda f: f["type"] == "error")
            assert limited["code"] == "rate_limited" and "emote" in limited["message"], limited
            kinds = [_next(b, lambda f: f["type"] == "said")["kind"] for _ in range(BURST - 1)]
            assert kinds == ["emote", "phrase"], kinds  # (heart took one of the BURST)
        # a duplicate match's table: no emotes either (不得交流)
        alice = _match_with_people(server)["alice"]
        with _hello(server, alice["code"], alice["token"]) as ws:
            _say(ws, alice["token"], "smile", "m1")
            frame = _next(ws, lambda f: f["type"] in ("error", "said"))
            assert frame["type"] == "error" and frame["code"] == "bad_message" and "不得交流" in frame["message"], frame
