"""``GET /api/bots``: the bots this server offers, so that a page offers no other (``expert`` only where it is
registered) and shows each by its level's name, never by its id: ``bots`` (the levels first, weakest first,
then the rest by name), ``levels`` (:data:`gouji.bots.LEVELS` with their names in Chinese and English) and
``auto``, the bot that plays on 托管."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..bots import BOTS, LEVELS, levels


def offered_bots() -> list[str]:
    """The registered bots: the levels first (weakest first), then the rest sorted."""
    ranked = [lv.bot for lv in LEVELS if lv.bot in BOTS]
    return ranked + sorted(b for b in BOTS if b not in ranked)


async def _bots(request: Request) -> JSONResponse:
    body = {"bots": offered_bots(), "levels": levels(), "auto": request.app.state.settings.auto_bot_name()}
    return JSONResponse(body, headers={"cache-control": "max-age=60"})


def bot_routes() -> list[Route]:
    return [Route("/api/bots", _bots, methods=["GET"])]
