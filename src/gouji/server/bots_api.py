"""``GET /api/bots``: the bots this server offers, so that a page offers no other (``expert`` only where it is
registered) and shows each by its level's name, never by its id."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..bots import BOTS

LEVELS = ("novice", "heuristic", "expert")
"""The bots a person picks by level, weakest first; the others (``random``, ``learned`` …) follow by name."""


def offered_bots() -> list[str]:
    """The registered bots: the levels first (weakest first), then the rest sorted."""
    return [b for b in LEVELS if b in BOTS] + sorted(b for b in BOTS if b not in LEVELS)


async def _bots(request: Request) -> JSONResponse:
    return JSONResponse({"bots": offered_bots()}, headers={"cache-control": "max-age=60"})


def bot_routes() -> list[Route]:
    return [Route("/api/bots", _bots, methods=["GET"])]
