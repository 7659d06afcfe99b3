"""Presence (issue 29): a person's seat with no connection is 断线 to everyone — said by a ``presence`` frame when
a connection comes or goes, and by every ``state`` frame's table; never a change of the table (not stored)."""

from __future__ import annotations

from typing import Any


def offline_of(frame: dict[str, Any]) -> list[int]:
    """The seats a frame's table marks offline (``"offline": true``; a seat with a connection has no mark)."""
    seats = frame["table"]["seats"]
    assert all(s.get("offline", True) is True for s in seats), "a seat's mark is true or absent"
    return [s["seat"] for s in seats if s.get("offline")]


def test_a_seat_without_a_connection_is_offline_to_the_others_until_it_returns(make_server: Any) -> None:
    with make_server() as server:
        bots: list[str | None] = ["heuristic"] * 6
        bots[0] = bots[3] = None
        t = server.create(bots=bots, nickname="ann", seat=0)
        bob = server.join(t["code"], "bob", seat=3)
        with server.connect(t["code"], t["token"]) as ann:
            first = ann.frames[-1]
            assert offline_of(first) == [3], "bob holds a seat and has no connection yet"
            assert all("offline" not in s for s in first["table"]["seats"] if s["bot"] is not None)
            with server.connect(t["code"], bob["token"]) as b:
                assert offline_of(b.frames[-1]) == []  # bob's own full frame
                seen = ann.until(lambda f: f["type"] == "presence")
                assert seen["offline"] == []
                state = server.lobby().rooms[t["code"]].state
                with server.connect(t["code"]) as watcher:  # a spectator changes nobody's presence
                    assert offline_of(watcher.frames[-1]) == []
                    watcher.send({"type": "sync"})
                    assert offline_of(watcher.until(lambda f: f["type"] == "state")) == []
                assert server.lobby().rooms[t["code"]].state == state, "presence is no change of the table"
            gone = ann.until(lambda f: f["type"] == "presence")
            assert gone["offline"] == [3]
            ann.send({"type": "sync"})
            assert offline_of(ann.until(lambda f: f["type"] == "state")) == [3]
            assert not [f for f in ann.frames if f["type"] == "presence" and f is not seen and f is not gone]
