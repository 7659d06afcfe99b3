"""The incremental frames a change sends are put together from parts encoded once for every seat: each seat's
text must be exactly its own ``state`` frame (its hand, its card count, its turn, its events) as
:meth:`Room.state_frame` makes it from scratch — for every seat and the spectators, all along a set."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

import pytest

from gouji.server import table as table_module

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
    real = table_module._Frames.text

    def checked(self: Any, seat: int | None) -> str:
        text = real(self, seat)
        want = json.loads(json.dumps(self.room.state_frame(seat, events=self.events)))
        if json.loads(text) != want:
            wrong.append((seat, self.room.state))
        made.append(seat)
        return text

    monkeypatch.setattr(table_module._Frames, "text", checked)
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
    """The server writes a move's frames to Uvicorn's transport itself (``app.ws_text_frame``): the bytes
    must be exactly the text frame the websockets library would have written, at every length encoding."""
    from websockets.frames import Frame, Opcode

    from gouji.server.app import ws_text_frame

    for n in (0, 1, 125, 126, 127, 65535, 65536, 200_000):
        text = ("够级" * n)[:n]
        assert ws_text_frame(text) == Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[]), n
