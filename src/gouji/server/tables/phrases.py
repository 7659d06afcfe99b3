"""Quick phrases and reactions at the table (issues 29, 45): ``say`` — a player sends one of a fixed set of
phrases (:data:`PHRASES`) or of emotes (:data:`EMOTES`, a small animated picture), and every connection at the
table gets a ``said`` frame (``{"type": "said", "seat", "phrase", "kind": "phrase" | "emote"}``); each page
shows it in its own language, or not at all when its viewer muted that kind.

A phrase or an emote is an id, never free text; a seat may say :data:`BURST` at once and one every
:data:`EVERY` seconds after, phrases and emotes together (``rate_limited`` past it, nothing sent).  Neither
is a change of the table: nothing is stored, so the game record holds none (and nothing of anyone's hand).
A duplicate match's table takes none (:attr:`.table.Room.phrases_allowed`): 000's rules forbid talking
(不得交流) while the other table plays the same cards."""

from __future__ import annotations

from typing import Any

from ..http.connection import Connection
from ..limits import TokenBucket
from ..messages import protocol as P
from .table import Room

PHRASES = ("nice", "thanks", "hurry", "oops", "sorry", "wow", "well_played", "gg")
EMOTES = ("heart", "smile", "sad", "star", "flower", "victory")
BURST = 3
EVERY = 3.0


def said_frame(seat: int, phrase: str) -> dict[str, Any]:
    kind = "emote" if phrase in EMOTES else "phrase"
    return {"type": "said", "v": P.VERSION, "seat": seat, "phrase": phrase, "kind": kind}


def say(room: Room, conn: Connection, msg: P.ClientMessage) -> None:
    """``say``: the connection's seat says a phrase, or shows an emote, to the table; a ProtocolError (nothing
    sent) for a token that is not the seat's, an id in neither set, or a seat saying too much too fast."""
    assert msg.token is not None and msg.action is not None
    seat = room.check_token(conn, msg.token, msg.id)
    if not room.phrases_allowed:
        why = "no phrases or emotes at a duplicate match's table: its rules forbid talking (不得交流)"
        raise P.ProtocolError(P.BAD_MESSAGE, why, msg.id)
    if msg.action not in PHRASES and msg.action not in EMOTES:
        raise P.ProtocolError(
            P.BAD_MESSAGE, f"'phrase' must be one of {', '.join(PHRASES)} or an emote: {', '.join(EMOTES)}", msg.id
        )
    bucket = room.phrase_buckets.setdefault(seat, TokenBucket(1 / EVERY, BURST))
    if not bucket.take():
        raise P.ProtocolError(P.RATE_LIMITED, f"one phrase or emote every {EVERY:g} s (a few at once)", msg.id)
    text = P.dumps(said_frame(seat, msg.action))
    for c in list(room.conns):
        room.deliver(c, text)
