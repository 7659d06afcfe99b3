"""The cost of reading a client's WebSocket message (issue 31): decode + validate, three ways, in one run.

The server parses every message a player sends (an ``act`` per move); this compares, on the same messages:

- ``hand``: the hand-written parser the server had before issue 31 (orjson, then a check per field; kept
  here as it was, as the floor to compare against);
- ``msgspec``: ``msgspec.json.Decoder`` of a tagged union of ``msgspec.Struct`` (one per message type, the
  bounds as ``Meta``), then the same :class:`~gouji.server.messages.protocol.ClientMessage`;
- ``pydantic``: a ``pydantic.TypeAdapter`` of a discriminated union of ``BaseModel`` (the bounds as
  ``Field``, strict), ``validate_json``, then the same ``ClientMessage`` (pydantic is in the ``bench`` extra);
- ``server``: ``protocol.parse_client`` as the server runs it now (msgspec, the structs of
  ``gouji.server.messages.schemas``, and on a refusal the words naming the field).

The messages are the browser table's own (``static/table.js``: an ``act`` with its decision, token and id;
``ready``, ``auto``, ``prefs``, ``say``, ``ping``, ``hello``), mostly ``act``, as in play; and a second mix of
refused ones (a mistyped field, an unknown type, not JSON).  Each way runs every message of the mix,
``--rounds`` times, alternating with the others, ``--repeat`` times; printed: microseconds a message (the
median of the repeats) and each way's ratio to ``hand``.

    .venv/bin/python benchmarks/bench_messages.py [--rounds 20000] [--repeat 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

import msgspec
import orjson
import pydantic

from gouji.server.messages import protocol as P

TOKEN = secrets.token_urlsafe(24)

GOOD: list[dict[str, Any]] = [
    {"type": "act", "action": "QQQ", "decision": 55, "token": TOKEN, "id": "a1"},
    {"type": "act", "action": "pass", "decision": 56, "token": TOKEN, "id": "a2"},
    {"type": "act", "action": "burn KKK", "decision": 57, "token": TOKEN, "id": "a3"},
    {"type": "act", "action": "DX2222", "decision": 1234, "token": TOKEN, "id": "a4"},
    {"type": "act", "action": "pass", "state": 90, "token": TOKEN},
    {"type": "act", "action": "55", "decision": 91, "token": TOKEN, "id": "a5"},
    {"type": "ready", "token": TOKEN, "id": "r1"},
    {"type": "auto", "on": False, "token": TOKEN},
    {"type": "prefs", "ask_single": True, "token": TOKEN},
    {"type": "say", "phrase": "nice", "token": TOKEN, "id": "s1"},
    {"type": "ping", "id": "p1"},
    {"type": "hello", "v": 1, "token": TOKEN},
]
BAD: list[str | dict[str, Any]] = [
    {"type": "act", "action": "QQQ", "decision": "55", "token": TOKEN},
    {"type": "act", "action": "", "decision": 5, "token": TOKEN},
    {"type": "act", "action": "QQQ", "decision": -1, "token": TOKEN},
    {"type": "act", "action": "QQQ", "token": TOKEN},
    {"type": "auto", "on": 1, "token": TOKEN},
    {"type": "launch", "token": TOKEN},
    {"type": "ready"},
    "[1, 2, 3]",
    "{not json",
]


def _texts(messages: list[Any]) -> list[str]:
    return [m if isinstance(m, str) else orjson.dumps(m).decode() for m in messages]


# ------------------------------------------------------------------------------------------ the hand-written parser


def _hand_str(msg: dict[str, Any], key: str, limit: int, ref: str | None, required: bool) -> str | None:
    value = msg.get(key)
    if value is None:
        if required:
            raise P.ProtocolError(P.BAD_MESSAGE, f"{msg['type']!r} needs a {key!r} string", ref)
        return None
    if not isinstance(value, str) or not value or len(value) > limit:
        raise P.ProtocolError(P.BAD_MESSAGE, f"{key!r} must be a string of 1-{limit} characters", ref)
    return value


def _hand_counter(msg: dict[str, Any], key: str, ref: str | None) -> int | None:
    value = msg.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= P.MAX_COUNTER:
        raise P.ProtocolError(P.BAD_MESSAGE, f"{key!r} must be an integer from 0 to {P.MAX_COUNTER}", ref)
    return value


def hand_parse(text: str | bytes) -> P.ClientMessage:
    """``protocol.parse_client`` as it was before issue 31."""
    if len(text) > P.MAX_MESSAGE_BYTES:
        raise P.ProtocolError(P.TOO_LARGE, "too large")
    try:
        msg = orjson.loads(text)
    except (orjson.JSONDecodeError, ValueError, RecursionError):
        raise P.ProtocolError(P.BAD_JSON, "a message is one JSON object") from None
    if not isinstance(msg, dict):
        raise P.ProtocolError(P.BAD_JSON, "a message is one JSON object")
    raw_id = msg.get("id")
    ref = raw_id if isinstance(raw_id, str) and len(raw_id) <= P.MAX_ID_CHARS else None
    if raw_id is not None and ref is None:
        raise P.ProtocolError(P.BAD_MESSAGE, "'id' must be a short string")
    kind = msg.get("type")
    if kind not in P.CLIENT_TYPES:
        raise P.ProtocolError(P.BAD_MESSAGE, "'type' must be one of …", ref)
    if kind == "hello":
        v = msg.get("v")
        if not isinstance(v, int) or isinstance(v, bool):
            raise P.ProtocolError(P.BAD_MESSAGE, "'hello' needs 'v'", ref)
        if v != P.VERSION:
            raise P.ProtocolError(P.VERSION_MISMATCH, "version", ref)
        token = _hand_str(msg, "token", P.MAX_TOKEN_CHARS, ref, required=False)
        return P.ClientMessage("hello", id=ref, token=token, version=v)
    if kind == "act":
        action = _hand_str(msg, "action", P.MAX_ACTION_CHARS, ref, required=True)
        token = _hand_str(msg, "token", P.MAX_TOKEN_CHARS, ref, required=True)
        decision = _hand_counter(msg, "decision", ref)
        state = _hand_counter(msg, "state", ref)
        if decision is None and state is None:
            raise P.ProtocolError(P.BAD_MESSAGE, "'act' needs 'decision'", ref)
        return P.ClientMessage("act", id=ref, token=token, action=action, state=state, decision=decision)
    if kind in ("auto", "prefs"):
        key = "on" if kind == "auto" else "ask_single"
        on = msg.get(key)
        if not isinstance(on, bool):
            raise P.ProtocolError(P.BAD_MESSAGE, f"{kind!r} needs {key!r}", ref)
        token = _hand_str(msg, "token", P.MAX_TOKEN_CHARS, ref, required=True)
        return P.ClientMessage(kind, id=ref, token=token, on=on)
    if kind == "ready":
        token = _hand_str(msg, "token", P.MAX_TOKEN_CHARS, ref, required=True)
        return P.ClientMessage("ready", id=ref, token=token)
    if kind == "say":
        phrase = _hand_str(msg, "phrase", 32, ref, required=True)
        token = _hand_str(msg, "token", P.MAX_TOKEN_CHARS, ref, required=True)
        return P.ClientMessage("say", id=ref, token=token, action=phrase)
    return P.ClientMessage(kind, id=ref)


# ------------------------------------------------------------------------------------------ msgspec

Id = Annotated[str, msgspec.Meta(max_length=P.MAX_ID_CHARS)]
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=P.MAX_TOKEN_CHARS)]
Counter = Annotated[int, msgspec.Meta(ge=0, le=P.MAX_COUNTER)]


class _Base(msgspec.Struct, tag_field="type", frozen=True, kw_only=True):
    id: Id | None = None


class MHello(_Base, tag="hello", frozen=True):
    v: int
    token: Token | None = None


class MAct(_Base, tag="act", frozen=True):
    action: Annotated[str, msgspec.Meta(min_length=1, max_length=P.MAX_ACTION_CHARS)]
    token: Token
    decision: Counter | None = None
    state: Counter | None = None


class MAuto(_Base, tag="auto", frozen=True):
    on: bool
    token: Token


class MPrefs(_Base, tag="prefs", frozen=True):
    ask_single: bool
    token: Token


class MReady(_Base, tag="ready", frozen=True):
    token: Token


class MSay(_Base, tag="say", frozen=True):
    phrase: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
    token: Token


class MSync(_Base, tag="sync", frozen=True):
    pass


class MPing(_Base, tag="ping", frozen=True):
    pass


_M_DECODER = msgspec.json.Decoder(MHello | MAct | MAuto | MPrefs | MReady | MSay | MSync | MPing)


def msgspec_parse(text: str | bytes) -> P.ClientMessage:
    if len(text) > P.MAX_MESSAGE_BYTES:
        raise P.ProtocolError(P.TOO_LARGE, "too large")
    try:
        m = _M_DECODER.decode(text)
    except msgspec.ValidationError as e:
        raise P.ProtocolError(P.BAD_MESSAGE, str(e)) from None
    except msgspec.DecodeError:
        raise P.ProtocolError(P.BAD_JSON, "a message is one JSON object") from None
    if type(m) is MAct:
        if m.decision is None and m.state is None:
            raise P.ProtocolError(P.BAD_MESSAGE, "'act' needs 'decision'", m.id)
        return P.ClientMessage("act", m.id, m.token, None, m.action, m.state, m.decision)
    if type(m) is MReady:
        return P.ClientMessage("ready", m.id, m.token)
    if type(m) is MAuto:
        return P.ClientMessage("auto", m.id, m.token, on=m.on)
    if type(m) is MPrefs:
        return P.ClientMessage("prefs", m.id, m.token, on=m.ask_single)
    if type(m) is MSay:
        return P.ClientMessage("say", m.id, m.token, action=m.phrase)
    if type(m) is MHello:
        if m.v != P.VERSION:
            raise P.ProtocolError(P.VERSION_MISMATCH, "version", m.id)
        return P.ClientMessage("hello", m.id, m.token, version=m.v)
    return P.ClientMessage(type(m).__struct_config__.tag, m.id)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------ pydantic

PId = Annotated[str, pydantic.Field(max_length=P.MAX_ID_CHARS)]
PToken = Annotated[str, pydantic.Field(min_length=1, max_length=P.MAX_TOKEN_CHARS)]
PCounter = Annotated[int, pydantic.Field(ge=0, le=P.MAX_COUNTER, strict=True)]
PBool = Annotated[bool, pydantic.Field(strict=True)]


class _PBase(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(frozen=True, strict=True)
    id: PId | None = None


class PHello(_PBase):
    type: Literal["hello"]
    v: int
    token: PToken | None = None


class PAct(_PBase):
    type: Literal["act"]
    action: Annotated[str, pydantic.Field(min_length=1, max_length=P.MAX_ACTION_CHARS)]
    token: PToken
    decision: PCounter | None = None
    state: PCounter | None = None


class PAuto(_PBase):
    type: Literal["auto"]
    on: PBool
    token: PToken


class PPrefs(_PBase):
    type: Literal["prefs"]
    ask_single: PBool
    token: PToken


class PReady(_PBase):
    type: Literal["ready"]
    token: PToken


class PSay(_PBase):
    type: Literal["say"]
    phrase: Annotated[str, pydantic.Field(min_length=1, max_length=32)]
    token: PToken


class PSync(_PBase):
    type: Literal["sync"]


class PPing(_PBase):
    type: Literal["ping"]


_P_ADAPTER: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(
    Annotated[PHello | PAct | PAuto | PPrefs | PReady | PSay | PSync | PPing, pydantic.Field(discriminator="type")]
)


def pydantic_parse(text: str | bytes) -> P.ClientMessage:
    if len(text) > P.MAX_MESSAGE_BYTES:
        raise P.ProtocolError(P.TOO_LARGE, "too large")
    try:
        m = _P_ADAPTER.validate_json(text)
    except pydantic.ValidationError as e:
        if e.errors()[0]["type"] == "json_invalid":
            raise P.ProtocolError(P.BAD_JSON, "a message is one JSON object") from None
        raise P.ProtocolError(P.BAD_MESSAGE, str(e.errors()[0]["msg"])) from None
    if type(m) is PAct:
        if m.decision is None and m.state is None:
            raise P.ProtocolError(P.BAD_MESSAGE, "'act' needs 'decision'", m.id)
        return P.ClientMessage("act", m.id, m.token, None, m.action, m.state, m.decision)
    if type(m) is PReady:
        return P.ClientMessage("ready", m.id, m.token)
    if type(m) is PAuto:
        return P.ClientMessage("auto", m.id, m.token, on=m.on)
    if type(m) is PPrefs:
        return P.ClientMessage("prefs", m.id, m.token, on=m.ask_single)
    if type(m) is PSay:
        return P.ClientMessage("say", m.id, m.token, action=m.phrase)
    if type(m) is PHello:
        if m.v != P.VERSION:
            raise P.ProtocolError(P.VERSION_MISMATCH, "version", m.id)
        return P.ClientMessage("hello", m.id, m.token, version=m.v)
    return P.ClientMessage(m.type, m.id)


WAYS: dict[str, Callable[[str | bytes], P.ClientMessage]] = {
    "hand": hand_parse,
    "msgspec": msgspec_parse,
    "pydantic": pydantic_parse,
    "server": P.parse_client,  # the server's own since issue 31: msgspec, with gouji.server.messages.schemas' structs
}


def _check(texts: list[str], bad: list[str]) -> None:
    """Every way reads the good messages alike and refuses every bad one (else the comparison is void)."""
    for text in texts:
        want = hand_parse(text)
        for name, parse in WAYS.items():
            got = parse(text)
            assert got == want, (name, text, got, want)
    for text in bad:
        for name, parse in WAYS.items():
            try:
                parse(text)
            except P.ProtocolError:
                continue
            raise AssertionError(f"{name} accepted {text}")


def _time(parse: Callable[[str | bytes], P.ClientMessage], texts: list[str], rounds: int, refused: bool) -> float:
    """Microseconds a message, over ``rounds`` passes of ``texts`` (``refused``: each is refused; an accepted
    message refused is an error).  (A ``try`` costs nothing in Python 3.11 until something is raised.)"""
    t0 = time.perf_counter()
    for _ in range(rounds):
        for text in texts:
            try:
                parse(text)
            except P.ProtocolError:
                if not refused:
                    raise
    return (time.perf_counter() - t0) / (rounds * len(texts)) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    good, bad = _texts(GOOD), _texts(BAD)
    _check(good, bad)
    results: dict[str, dict[str, float]] = {}
    for mix, texts, refused, rounds in (("accepted", good, False, args.rounds), ("refused", bad, True, args.rounds)):
        runs: dict[str, list[float]] = {name: [] for name in WAYS}
        for _ in range(args.repeat):
            for name, parse in WAYS.items():  # alternating, so a busy moment of the machine hits every way
                runs[name].append(_time(parse, texts, rounds, refused))
        results[mix] = {name: statistics.median(r) for name, r in runs.items()}
    if args.json:
        print(json.dumps(results))
        return
    print(f"decode + validate a client message, µs (median of {args.repeat} × {args.rounds} rounds of the mix)")
    for mix, by_way in results.items():
        n = len(good) if mix == "accepted" else len(bad)
        print(f"  {mix} ({n} messages):")
        for name, us in by_way.items():
            print(f"    {name:9s} {us:7.2f} µs   {us / by_way['hand']:5.2f}× hand")


if __name__ == "__main__":
    main()
