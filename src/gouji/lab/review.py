"""The 复盘 review of one seat in one stored deal: at each of its decisions, what else it could have done.

For every decision the seat took (with more than one legal action — tribute returns, burns, 宣点 and the
other decisions before and during play alike), a handful of candidates (:func:`gouji.lab.lookahead.candidates`:
what was played, the heuristic's choice, and other distinct legal actions) are each played out to the end
of the deal from the true position, with the heuristic bot in every seat (:class:`~gouji.lab.lookahead.Lookahead`).
A candidate's result is the seat's team points of the finished deal in the preset's own unit (place points,
or small points under 比赛规则); the decision's **gain** is the best candidate's result less the played
one's, and the decision is a **mistake** when the gain reaches the preset's threshold (:func:`threshold`).

**A hindsight judgement, not a rule**: the review knows every hand, and assumes everyone plays as the
heuristic after the decision.  What it finds is what would have happened then, not what a player could
have known.  How it is measured and what it means: ``docs/review.md``.

:func:`review_record` is a pure function for any caller (the CLI, a server's worker process): a record,
a deal number and a seat in; a JSON-ready result out, and an optional ``progress`` callback given each
decision as it is found (:func:`iter_review` yields them).  Bad input is refused with :class:`ReviewError`
before anything is computed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..bots.learned import decision_kind
from ..competition.duplicate import Tournament
from ..competition.loading import load_record
from ..competition.records import RecordError
from ..engine.actions import Action, parse_action
from ..engine.deal import Deal
from ..engine.rules import RuleSet
from ..engine.seats import SEATS
from .lookahead import DEFAULT_LIMIT, Lookahead, candidates, history_key, next_key, seat_result

NOTE = (
    "hindsight: the review knows every hand and assumes everyone plays as the heuristic bot after each "
    "decision; a gain is what that line would have scored, not a rule"
)


class ReviewError(ValueError):
    """Input the review refuses (a corrupt record, a deal or seat out of range); the message says what."""


def threshold(rules: RuleSet) -> int:
    """The least gain that makes a decision a mistake under ``rules``, in the preset's unit: 2 small points
    under 比赛规则 scoring (one player two places higher, or two players one each), 4 × the stake
    (``base_points``) under set scoring (twice the smallest step: 头科 instead of 三科, or two players a
    step each).  A single smallest step (1 small point, 2 points) is not enough: a deal played out by the
    heuristic moves by one for little reason.  Every preset's figure: ``docs/review.md``."""
    return 2 if rules.scoring == "tournament" else 4 * rules.base_points


def unit(rules: RuleSet) -> str:
    """The unit of a result under ``rules``."""
    return "small points" if rules.scoring == "tournament" else "points"


def select_deal(record: Mapping[str, Any] | str | bytes, deal: int, table: int | None = None) -> Deal:
    """Deal ``deal`` (1-based) of a stored set or duplicate-match record, at ``table`` (1 or 2, for a
    duplicate match only), replayed and checked; :class:`ReviewError` says what is wrong."""
    try:
        loaded = load_record(record)
    except RecordError as e:
        raise ReviewError(f"the record is refused: {e}") from None
    if isinstance(loaded, Tournament):
        if table not in (1, 2):
            raise ReviewError("a duplicate match's record has two tables: name one, table 1 or 2")
        deals = [pair[table - 1] for pair in loaded.tables]
    else:
        if table is not None:
            raise ReviewError("a set's record has one table: a table is named only for a duplicate match's record")
        deals = loaded.deals
    if not 1 <= deal <= len(deals):
        raise ReviewError(f"deal {deal} is out of range: the record holds deals 1 to {len(deals)}")
    return deals[deal - 1]


def check_seat(seat: int) -> int:
    """``seat`` when it is a seat 0-5, else :class:`ReviewError`."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise ReviewError(f"seat {seat!r} is out of range: the seats are 0 to {SEATS - 1}")
    return seat


def iter_review(
    recorded: Deal, seat: int, limit: int = DEFAULT_LIMIT, lookahead: Lookahead | None = None
) -> Iterator[dict[str, Any]]:
    """Each decision of ``seat`` in the recorded deal, reviewed, in the order they were taken (see
    :func:`review_deal` for the fields)."""
    seat = check_seat(seat)
    la = lookahead if lookahead is not None else Lookahead()
    mark = threshold(recorded.rules)
    deal = Deal.from_deal_event(recorded.events[0])
    key = history_key(deal)
    acts = [(e["seat"], e["action"]) for e in recorded.events if e["type"] == "act"]
    for index, (who, text) in enumerate(acts, 1):
        played = parse_action(text)
        if who == seat and len(deal.legal_actions()) > 1:
            yield _decision(la, deal, key, index, played, seat, mark, limit)
        deal.act(played, seat=who)
        key = next_key(key, who, played)


def _decision(
    la: Lookahead, deal: Deal, key: int, index: int, played: Action, seat: int, mark: int, limit: int
) -> dict[str, Any]:
    """One decision reviewed: the candidates' results, the best, the gain."""
    heuristic = la.choice(deal)
    cands = candidates(deal, [played, heuristic], limit=limit)
    results = [seat_result(s, seat) for s in la.evaluate(deal, cands, key)]
    best_i = max(range(len(cands)), key=lambda i: (results[i], i == 0, i == 1, -i))
    gain = results[best_i] - results[0]
    return {
        "index": index,
        "kind": decision_kind(deal.view(seat, log=False)),
        "played": played.text,
        "heuristic": heuristic.text,
        "best": cands[best_i].text,
        "gain": gain,
        "mistake": gain >= mark,
        "candidates": [{"action": a.text, "result": r} for a, r in zip(cands, results, strict=True)],
    }


def review_deal(
    recorded: Deal,
    seat: int,
    deal_number: int | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    limit: int = DEFAULT_LIMIT,
) -> dict[str, Any]:
    """The review of ``seat`` in a recorded deal (one whose :attr:`~gouji.Deal.events` hold its decisions).

    Returns ``{"seat", "deal", "rules", "unit", "threshold", "note", "decisions", "mistakes", "lost",
    "rollouts"}``; each decision is ``{"index"`` (its number among the deal's decisions, 1-based), ``"kind"``
    (setup, burn, lead, respond), ``"played"``, ``"heuristic"`` (the bot's choice), ``"best"``, ``"gain"``
    (best less played, ≥ 0), ``"mistake"`` (gain ≥ threshold), ``"candidates"`` (``{"action", "result"}``,
    what was played first)``}``.  ``lost`` is the sum of the gains; ``mistakes`` the count of mistakes.
    ``progress`` is called with each decision as it is found.
    """
    la = Lookahead()
    decisions = []
    for d in iter_review(recorded, seat, limit, la):
        decisions.append(d)
        if progress is not None:
            progress(d)
    rules = recorded.rules
    return {
        "seat": seat,
        "deal": deal_number,
        "rules": rules.name,
        "unit": unit(rules),
        "threshold": threshold(rules),
        "note": NOTE,
        "decisions": decisions,
        "mistakes": sum(1 for d in decisions if d["mistake"]),
        "lost": sum(d["gain"] for d in decisions),
        "rollouts": la.rollouts,
    }


def review_record(
    record: Mapping[str, Any] | str | bytes,
    deal: int,
    seat: int,
    table: int | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
    limit: int = DEFAULT_LIMIT,
) -> dict[str, Any]:
    """The review of ``seat`` (0-5) in deal ``deal`` (1-based) of a stored record (a dict or its JSON text);
    ``table`` (1 or 2) names the table of a duplicate match's record.  Pure: the same input, the same
    result (JSON-ready: see :func:`review_deal`), so a server may run it in a worker process.  A record that
    fails its checksum or schema, a deal, seat or table out of range: :class:`ReviewError`, nothing computed."""
    seat = check_seat(seat)
    chosen = select_deal(record, deal, table)
    result = review_deal(chosen, seat, deal, progress, limit)
    if table is not None:
        result["table"] = table
    return result


def format_review(result: Mapping[str, Any]) -> str:
    """The review as text: one line a decision that lost points, then the seat's total."""
    u = result["unit"]
    where = f"deal {result['deal']}" + (f", table {result['table']}" if "table" in result else "")
    lines = [f"seat {result['seat']}, {where} ({result['rules']}): {NOTE}."]
    for d in result["decisions"]:
        if d["gain"] <= 0:
            continue
        flag = "  MISTAKE" if d["mistake"] else ""
        lines.append(
            f"  decision {d['index']} ({d['kind']}): played {d['played']}, better {d['best']}: +{d['gain']} {u}{flag}"
        )
    n = len(result["decisions"])
    lines.append(
        f"seat {result['seat']} lost {result['lost']} {u} over {n} decisions; "
        f"{result['mistakes']} mistakes (a gain of {result['threshold']} {u} or more)"
    )
    return "\n".join(lines) + "\n"


def to_json(result: Mapping[str, Any]) -> str:
    """The review as JSON text."""
    return json.dumps(result, ensure_ascii=False, indent=1)


__all__ = [
    "NOTE",
    "ReviewError",
    "check_seat",
    "format_review",
    "iter_review",
    "review_deal",
    "review_record",
    "select_deal",
    "threshold",
    "to_json",
    "unit",
]
