"""What a review's worker process runs: one seat of one finished deal reviewed, each decision sent back to the
server as it is found (with the reason of a mistake, :mod:`gouji.lab.review_reason`).

Kept apart from the server's modules so that a worker process imports the engine, the bots and the review,
and none of the web server."""

from __future__ import annotations

from typing import Any

from ...engine.deal import Deal
from ...lab.review import NOTE, ReviewError, check_seat, iter_review, threshold, unit
from ...lab.review_reason import with_reasons

_progress: Any = None
"""The queue back to the server (a ``multiprocessing`` queue), given to each worker process as it starts."""


def start_worker(progress: Any) -> None:
    """The worker process's initializer: where its decisions go."""
    global _progress
    _progress = progress


def seat_decisions(recorded: Deal, seat: int) -> int:
    """How many decisions of ``seat`` the review will go through (those with more than one legal action)."""
    deal = Deal.from_deal_event(recorded.events[0])
    n = 0
    for e in recorded.events:
        if e["type"] != "act":
            continue
        if e["seat"] == seat and len(deal.legal_actions()) > 1:
            n += 1
        deal.act(e["action"], seat=e["seat"])
    return n


def review_events(job: int, events: list[dict[str, Any]], seat: int, deal: int, table: int | None) -> dict[str, Any]:
    """The review of ``seat`` in the finished deal of ``events`` (``deal`` and ``table``, for the answer,
    numbered from 0 as the replay numbers them): as :func:`gouji.lab.review.review_deal` answers, every
    mistake with its ``reason``.  Sends ``(job, "total", n)`` first, then ``(job, "decision", d)`` for each decision."""
    seat = check_seat(seat)
    try:
        recorded = Deal.replay(events)
    except (ValueError, KeyError, TypeError) as e:
        raise ReviewError(f"the deal does not replay: {e}") from None
    if not recorded.is_over:
        raise ReviewError("the deal is not over: a review is of a finished deal")
    rules = recorded.rules
    u = unit(rules)
    _send(job, "total", seat_decisions(recorded, seat))
    decisions = []
    for d in with_reasons(recorded, seat, iter_review(recorded, seat), u):
        decisions.append(d)
        _send(job, "decision", d)
    out: dict[str, Any] = {
        "seat": seat,
        "deal": deal,
        "rules": rules.name,
        "unit": u,
        "threshold": threshold(rules),
        "note": NOTE,
        "decisions": decisions,
        "mistakes": sum(1 for d in decisions if d["mistake"]),
        "lost": sum(d["gain"] for d in decisions),
    }
    if table is not None:
        out["table"] = table
    return out


def _send(job: int, kind: str, payload: Any) -> None:
    if _progress is not None:
        _progress.put((job, kind, payload))


__all__ = ["review_events", "seat_decisions", "start_worker"]
