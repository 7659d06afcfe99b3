"""Refusals in words: what a :mod:`msgspec` validation error means, as a sentence naming the field and what it
may be (``bots[3] must be a bot's name (GET /api/bots) or null, not a JSON object``), and :func:`describe`,
what a declared type allows — for :mod:`.schemas` (its refusals) and :mod:`.schema_docs` (its reference)."""

from __future__ import annotations

import functools
import re
from typing import Annotated, Any, Literal

import msgspec
import orjson
from msgspec import Meta, Struct
from msgspec import inspect as mi


def _seat_key(key: str) -> str:
    return f"[{key}]" if key.isdigit() else f"[{key!r}]"


_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_KEY = re.compile(r"^(?P<what>.*?) - at `key` in `\$(?P<path>[^`]*)`$", re.S)
_STEP = re.compile(r"\.(\w+)|\[(\d+|\.\.\.)\]")


def refusal(e: msgspec.ValidationError, data: Any, schema: type[Struct]) -> str:
    """A person's words for msgspec's refusal of ``data`` as ``schema``: the field (its path, a key of an
    object named), what it may be, and what it was."""
    text, key_of = str(e), False
    k = _KEY.match(text)
    if k:  # an object's key refused: "… - at `key` in `$.bots`"
        text, key_of = f"{k['what']} - at `${k['path']}`", True
    m = _AT.match(text)
    what, path = (m["what"], m["path"]) if m else (text, None)
    missing = re.match(r"Object missing required field `(\w+)`", what)
    if missing:
        return _missing(data, schema, path or "", missing[1])
    if path is None:  # a whole object's (``check``-like) refusal: msgspec's words
        return what
    info: Any = _info(schema)
    value: Any = data
    shown = ""
    for name, index in _STEP.findall(path):
        info = _strip(info)
        if name:
            info = _field_type(info, name)
            value = value.get(name) if isinstance(value, dict) else None
            shown += name if not shown else f".{name}"
        else:
            info = _container(info, value)
            if index == "...":  # msgspec does not say which key of an object: find it
                key = _bad_key(info, value)
                value = value.get(key) if isinstance(value, dict) and key is not None else None
                shown += _seat_key(str(key)) if key is not None else "[…]"
                info = getattr(_strip(info), "value_type", info)
            else:
                value = value[int(index)] if isinstance(value, list) and int(index) < len(value) else None
                shown += f"[{index}]"
                info = getattr(_strip(info), "item_type", info)
    if key_of:
        key_t = getattr(_container(info, value), "key_type", None)
        bad = next((x for x in value if _refuses(key_t, x)), None) if isinstance(value, dict) else None
        return f"{shown}: its keys may be {describe(key_t)}, not {_shown(bad)}"
    return f"{shown} must be {describe(info)}, not {_shown(value)}"


def _refuses(info: Any, value: Any) -> bool:
    try:
        msgspec.convert(value, _python(info))
    except msgspec.ValidationError:
        return True
    return False


@functools.cache
def _info(schema: type[Struct]) -> Any:
    """A schema's type as :mod:`msgspec.inspect` describes it (worked out once: it takes a while)."""
    return mi.type_info(schema)


def _missing(data: Any, schema: type[Struct], path: str, name: str) -> str:
    if path == "":
        info = _info(schema)
        if name == "type" and isinstance(info, mi.UnionType):  # a tagged union's tag (a message's type)
            tags = [str(t.tag) for t in info.types if isinstance(t, mi.StructType) and t.tag is not None]
            return f"type must be one of {', '.join(tags)}"
        return f"{name} is required: {describe(_field_type(info, name))}"
    return f"{path.lstrip('.')}.{name} is required"


def _strip(info: Any) -> Any:
    """The type itself, through its metadata."""
    while isinstance(info, mi.Metadata):
        info = info.type
    return info


def _words(info: Any) -> str | None:
    """What a type declares it is, in words (``Meta(extra={"words": …})``), if it does."""
    while isinstance(info, mi.Metadata):
        if info.extra and "words" in info.extra:
            return str(info.extra["words"])
        info = info.type
    return None


def _field_type(info: Any, name: str) -> Any:
    info = _strip(info)
    if isinstance(info, mi.StructType):
        for f in info.fields:
            if f.name == name:
                return f.type
    return mi.AnyType()


def _container(info: Any, value: Any) -> Any:
    """The member of a union that holds ``value`` (a list or an object)."""
    info = _strip(info)
    if isinstance(info, mi.UnionType):
        for t in info.types:
            t = _strip(t)
            if isinstance(value, list) and isinstance(t, mi.ListType):
                return t
            if isinstance(value, dict) and isinstance(t, mi.DictType):
                return t
    return info


def _bad_key(info: Any, value: Any) -> Any:
    """The first key of the object ``value`` whose key or value ``info`` (a dict type) refuses."""
    info = _strip(info)
    if not isinstance(value, dict) or not isinstance(info, mi.DictType):
        return None
    key_t, value_t = _python(info.key_type), _python(info.value_type)
    for k, v in value.items():
        try:
            msgspec.convert(k, key_t)
            msgspec.convert(v, value_t)
        except msgspec.ValidationError:
            return k
    return None


def _python(info: Any) -> Any:
    """A Python type that validates like ``info`` (for one key or value of an object)."""
    info_s = _strip(info)
    if isinstance(info_s, mi.LiteralType):
        return Literal[info_s.values]
    if isinstance(info_s, mi.StrType):
        return Annotated[str, Meta(min_length=info_s.min_length, max_length=info_s.max_length)]
    if isinstance(info_s, mi.UnionType):
        parts = [_python(t) for t in info_s.types]
        out = parts[0]
        for p in parts[1:]:
            out = out | p
        return out
    if isinstance(info_s, mi.NoneType):
        return None
    if isinstance(info_s, mi.ListType):
        bounds = Meta(min_length=info_s.min_length, max_length=info_s.max_length)
        return Annotated[list[_python(info_s.item_type)], bounds]  # type: ignore[misc]
    return Any


def _shown(value: Any) -> str:
    if isinstance(value, list):  # (its length: a list of a fixed length may be refused for it)
        return f"a JSON array of {len(value)}"
    if isinstance(value, dict):
        return f"a JSON {_json_type(value)}"
    text = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode() if _jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _jsonable(value: Any) -> bool:
    return (
        value is None or isinstance(value, str | bool | float) or (isinstance(value, int) and -(2**63) <= value < 2**64)
    )


def _json_type(value: Any) -> str:
    """What a parsed JSON value is, in JSON's words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    return "array" if isinstance(value, list) else type(value).__name__


def _num(x: float) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def describe(info: Any) -> str:
    """What a value of this type (a :mod:`msgspec.inspect` type) may be, in words."""
    words = _words(info)
    if words is not None:
        return words
    info = _strip(info)
    if isinstance(info, mi.NoneType):
        return "null"
    if isinstance(info, mi.BoolType):
        return "true or false"
    if isinstance(info, mi.IntType | mi.FloatType):
        kind = "an integer" if isinstance(info, mi.IntType) else "a number"
        lo, hi = info.ge, info.le
        if lo is not None and hi is not None:
            return f"{kind} from {_num(lo)} to {_num(hi)}"
        if lo is not None:
            return f"{kind} of at least {_num(lo)}"
        return kind
    if isinstance(info, mi.StrType):
        lo, hi = info.min_length or 0, info.max_length
        if hi is None:
            return "a string" if not lo else f"a string of at least {lo} characters"
        return f"a string of {lo}-{hi} characters" if lo else f"a string of at most {hi} characters"
    if isinstance(info, mi.LiteralType):
        return "one of " + ", ".join(str(v) for v in info.values)
    if isinstance(info, mi.ListType):
        n = (
            f"{info.min_length}"
            if info.min_length is not None and info.min_length == info.max_length
            else f"{info.min_length or 0} to {info.max_length}"
            if info.max_length is not None
            else ""
        )
        return f"a list of {n + ' ' if n else ''}({describe(info.item_type)})"
    if isinstance(info, mi.DictType):
        value = describe(info.value_type)
        return f"an object mapping {describe(info.key_type)} to {f'({value})' if ' or ' in value else value}"
    if isinstance(info, mi.UnionType):
        parts = list(info.types)
        nulls = [t for t in parts if isinstance(_strip(t), mi.NoneType)]
        rest = [describe(t) for t in parts if not isinstance(_strip(t), mi.NoneType)]
        return " or ".join(rest + (["null"] if nulls else []))
    if isinstance(info, mi.StructType):
        return "an object"
    return "any JSON value"
