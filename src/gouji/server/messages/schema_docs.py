"""The reference section of ``docs/protocol.md``, written from the schemas (:mod:`.schemas`): every request
body's and WebSocket client message's fields and what each may be.  ``python -m gouji.server.messages.schema_docs``
prints it; a test checks the file against it."""

from __future__ import annotations

import sys
from typing import Any

import msgspec
import orjson
from msgspec import UNSET, Struct
from msgspec import inspect as mi

from .schema_refusals import _info, describe
from .schemas import BODIES, CLIENT_MESSAGES, QUERIES, Id


def _doc(obj: Any) -> str:
    """A schema's docstring as one line of Markdown."""
    return " ".join((obj.__doc__ or "").split()).replace("``", "`")


def _field_rows(schema: type[Struct], skip: tuple[str, ...] = ()) -> list[str]:
    rows = []
    info = _info(schema)
    assert isinstance(info, mi.StructType)
    for f in info.fields:
        if f.name in skip:
            continue
        meta = f.type
        notes = []
        while isinstance(meta, mi.Metadata):
            if meta.extra_json_schema and "description" in meta.extra_json_schema:
                notes.append(meta.extra_json_schema["description"])
            meta = meta.type
        for t in getattr(meta, "types", ()):
            if isinstance(t, mi.Metadata) and t.extra_json_schema and "description" in t.extra_json_schema:
                notes.append(t.extra_json_schema["description"])
        if f.required:
            default = "required"
        elif f.default is not msgspec.NODEFAULT and f.default is not UNSET:
            default = f"default `{orjson.dumps(f.default).decode()}`"
        elif f.default_factory is not msgspec.NODEFAULT:
            default = f"default `{orjson.dumps(f.default_factory()).decode()}`"
        else:
            default = "optional"
        allowed = describe(f.type).replace("|", "\\|")
        note = "; ".join(notes).replace("|", "\\|")
        rows.append(f"| `{f.name}` | {allowed} | {default} | {note} |")
    return rows


def markdown() -> str:
    """The reference of every message the server reads, as ``docs/protocol.md`` carries it."""
    out = [
        "Generated from `src/gouji/server/messages/schemas.py` by `python -m gouji.server.messages.schema_docs`;",
        "a test fails when this section and the schemas differ. A body with a field not listed, or a field that",
        "is not what it may be, is a 400 naming the field and what it may be (a WebSocket message: an `error`",
        "with code `bad_message`); nothing changes. Bot names are those `GET /api/bots` lists.",
        "",
        "### Request bodies",
    ]
    for route, schema in BODIES.items():
        out += ["", f"**`{route}`** — {_doc(schema)}", "", "| field | may be | | |", "|---|---|---|---|"]
        out += _field_rows(schema)
    for route, query_schema in QUERIES.items():
        schema_doc, rows = _doc(query_schema), _field_rows(query_schema)
        out += ["", f"**`{route}`** query — {schema_doc}", "", "| field | may be | | |", "|---|---|---|---|"]
        out += rows
    out += [
        "",
        "### WebSocket client messages",
        "",
        "Every message may carry `id` " + f"({describe(mi.type_info(Id))}).",
    ]
    for msg in CLIENT_MESSAGES:
        tag = msg.__struct_config__.tag
        out += ["", f"**`{tag}`** — {_doc(msg)}"]
        rows = _field_rows(msg, skip=("id",))
        if rows:
            out += ["", "| field | may be | | |", "|---|---|---|---|", *rows]
    return "\n".join(out) + "\n"


BEGIN = "<!-- schemas: begin (generated) -->"
END = "<!-- schemas: end -->"


def main() -> None:
    sys.stdout.write(markdown())


if __name__ == "__main__":
    main()
