"""The incremental frames a change sends are put together from parts encoded once for every seat: each seat's
text must be exactly its own ``state`` frame (its hand, its card count, its turn, its events) as
:meth:`Room.state_frame` makes it from scratch — for every seat and the spectators, all along a set."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

import pytest

from gouji.server.tables.frames import Frames

from ..helpers import wait_until


@pytest.mark.parametrize(
    ("preset", "card_counter"),
    [("qingdao", True), ("heze", False), ("shandong", True)],  # counts never shown; 无级自开 shows hands
)
def test_every_seats_frame_text_is_its_state_frame(
    make_server: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, preset: str, card_counter: bool
) -> None:
    made: list[int | None] = []
    wrong: list[tuple[int | None, int]] = []
    real = Frames.text

    def checked(self: Any, seat: int | None) -> str:
        text = real(self, seat)
        want = json.loads(json.dumps(self.room.state_frame(seat, events=self.events)))
        if json.loads(text) != want:
            wrong.append((seat, self.room.state))
        made.append(seat)
        return text

    monkeypatch.setattr(Frames, "text", checked)
    with make_server() as srv:
        body = {"preset": preset, "card_counter": card_counter, "set_length": 2, "bots": [None] * 6}
        out = srv.create(nickname="p0", seat=0, **body)
        code = out["code"]
        tokens = [out["token"]] + [srv.join(code, f"p{s}", s)["token"] for s in range(1, 6)]
        room = srv.lobby().rooms[code]
        with contextlib.ExitStack() as stack:
            stack.enter_context(srv.connect(code))  # a spectator
            for token in tokens:  # everyone on 托管: the bots play the set out
                p = stack.enter_context(srv.connect(code, token))
                p.send({"type": "auto", "on": True, "token": token})
            wait_until(lambda: room.status == "over", timeout=120, what="the set's end")
    assert not wrong, wrong[:10]
    assert set(made) == {None, 0, 1, 2, 3, 4, 5} and len(made) > 7 * 50


def test_a_frame_written_straight_to_the_socket_is_the_websocket_librarys_frame() -> None:
    """The server writes a move's frames to Uvicorn's transport itself (``fast_send.ws_text_frame``): the bytes
    must be exactly the text frame the websockets library would have written, at every length encoding."""
    from websockets.frames import Frame, Opcode

    from gouji.server.http.fast_send import ws_text_frame

    for n in (0, 1, 125, 126, 127, 65535, 65536, 200_000):
        for text in (("够级" * n)[:n], "x" * n):  # n characters of 3 bytes each, and n bytes: each boundary
            assert ws_text_frame(text) == Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[]), n


def test_the_table_text_is_the_public_table_after_every_kind_of_change() -> None:
    """``Room.table_text`` keeps the encoded table between two changes during play: after a join, a leave,
    托管 switched on and off (by an ``auto`` change and by an action, ``timeout`` or ``player``), each move,
    the pause between two deals and the end of the set it must still be exactly ``public(config=False)``."""
    import random

    from gouji.engine.rules import resolve
    from gouji.server.config import TableConfig
    from gouji.server.tables.table import Room, token_hash

    from .test_frames import run_async

    checked: list[str] = []

    def same(room: Room, what: str) -> None:
        assert json.loads(room.table_text()) == room.public(config=False), what
        checked.append(what)

    async def main() -> None:
        config = TableConfig("qingdao", resolve("qingdao").to_dict(), 7, 2, None, 0.0, (None,) * 6)
        room = Room(1, "TEXT01", config, "x" * 64)
        for s in range(6):
            room.commit("join", s, {"nickname": f"p{s}", "token_hash": token_hash(f"t{s}")})
            same(room, "join")
        room.commit("start")
        same(room, "start")
        room.commit("leave", 5)
        same(room, "leave")
        room.commit("join", 5, {"nickname": "new", "token_hash": token_hash("t5")})
        same(room, "join again")
        rng = random.Random(3)
        moves = 0
        while room.status == "playing":
            if room.ready is not None:
                for s in range(6):
                    if room.ready is not None and not room.ready[s]:
                        room.commit("ready", s)
                        same(room, "ready")
                continue
            deal = room.match.current
            seat = deal.to_act
            assert seat is not None
            legal = deal.legal_actions_of(seat)
            if moves % 40 == 5:
                room.commit("auto", seat, {"on": not room.seats[seat].auto})
                same(room, "auto change")
            by = ("timeout", "player", "auto")[moves % 3]
            before = room.seats[seat].auto
            room.window = None  # (the test plays the engine's turns itself, past the table's windows)
            room.commit("act", seat, {"by": by}, legal[rng.randrange(len(legal))])
            same(room, "auto by an action" if room.seats[seat].auto != before else "act")
            moves += 1
        same(room, "over")

    run_async(main)
    assert {"join", "leave", "auto change", "auto by an action", "act", "ready", "over"} <= set(checked)
