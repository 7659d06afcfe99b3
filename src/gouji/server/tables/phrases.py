"""Quick phrases at the table (issue 29): ``say`` — a player sends one of a fixed set of phrases, and every
connection at the table gets a ``said`` frame (``{"type": "said", "seat", "phrase"}``); each page shows it in
its own language, or not at all when its viewer muted them.

A phrase is an id from :data:`PHRASES`, never free text; a seat may say :data:`BURST` at once and one every
:data:`EVERY` seconds after (``rate_limited`` past it, nothing sent).  Phrases are not changes of the table:
nothing is stored, so the game record holds none (and nothing of anyone's hand).  A duplicate match's table
takes none (:attr:`.table.Room.phrases_allowed`): 000's rules forbid talking (不得交流) while the other table
plays the same cards."""

from __future__ import annotations

from typing import Any

from .. import protocol as P
from ..connection import Connection
from ..limits import TokenBucket
from .table import Room

PHRASES = ("nice", "thanks", "hurry", "oops", "sorry", "wow", "well_played", "gg")
BURST = 3
EVERY = 3.0


def said_frame(seat: int, phrase: str) -> dict[str, Any]:
    return {"type": "said", "v": P.VERSION, "seat": seat, "phrase": phrase}


def say(room: Room, conn: Connection, msg: P.ClientMessage) -> None:
    """``say``: the connection's seat says a phrase to the table; a ProtocolError (nothing sent) for a token
    that is not the seat's, a phrase not in the set, or a seat saying too much too fast."""
    assert msg.token is not None and msg.action is not None
    seat = room.check_token(conn, msg.token, msg.id)
    if not room.phrases_allowed:
        raise P.ProtocolError(
            P.BAD_MESSAGE, "no phrases at a duplicate match's table: its rules forbid talking (不得交流)", msg.id
        )
    if msg.action not in PHRASES:
        raise P.ProtocolError(P.BAD_MESSAGE, f"'phrase' must be one of {', '.join(PHRASES)}", msg.id)
    bucket = room.phrase_buckets.setdefault(seat, TokenBucket(1 / EVERY, BURST))
    if not bucket.take():
        raise P.ProtocolError(P.RATE_LIMITED, f"one phrase every {EVERY:g} s (a few at once)", msg.id)
    text = P.dumps(said_frame(seat, msg.action))
    for c in list(room.conns):
        room.deliver(c, text)
