"""Running one conformance case against this engine (``docs/conformance.md`` defines every key).

:func:`run_case` builds the case's position, then compares each key of its ``expect`` with what the engine
says there; it returns the list of disagreements (empty: the case holds).  The engine's functions are called
through their modules (``plays.beats``, ``tribute.owed``, ``scoring.seat_points``), so that a test that breaks
a rule there sees the cases of that rule fail (``tests/test_conformance.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..engine import cards as C
from ..engine import plays, scoring, tribute
from ..engine.deal import Deal
from ..engine.plays import InvalidPlay, parse_play
from ..engine.rules import RuleSet
from .perft import check_perft

Failures = list[str]


def rules_of(spec: Any) -> RuleSet:
    """A case's ``rules``: a preset name, or ``{"preset": name, "options": {...}}``."""
    if isinstance(spec, str):
        return RuleSet.preset(spec)
    base = RuleSet.preset(spec.get("preset", "qingdao"))
    return base.replace(**spec.get("options", {}))


def run_case(case: Mapping[str, Any]) -> Failures:
    """The disagreements between ``case['expect']`` and this engine (empty when the case holds)."""
    try:
        rules = rules_of(case["rules"])
        if "play" in case:
            return _check_play(case, rules)
        if "result" in case:
            return _check_result(case, rules)
        if "perft" in case:
            return check_perft(case["perft"], case["expect"], rules)
        return _check_deal(case, rules)
    except Exception as e:  # a case the engine cannot even set up fails, with the reason
        return [f"error: {type(e).__name__}: {e}"]


def _same_cards(a: str, b: str) -> bool:
    return C.parse_counts(a) == C.parse_counts(b)


def _compare(failures: Failures, key: str, want: Any, got: Any) -> None:
    if want != got:
        failures.append(f"{key}: expected {want!r}, got {got!r}")


# ------------------------------------------------------------------------------------------- plays


def _check_play(case: Mapping[str, Any], rules: RuleSet) -> Failures:
    out: Failures = []
    expect = case["expect"]
    try:
        play = parse_play(case["play"])
    except (InvalidPlay, C.InvalidCards):
        _compare(out, "valid", expect.get("valid", True), False)
        return out
    if "valid" in expect:
        _compare(out, "valid", expect["valid"], True)
    if "over" in case:
        got = plays.beats(play, parse_play(case["over"]), rules.big_joker_kill, rules.three_small_kill)
        _compare(out, "beats", expect["beats"], got)
    for key, got in (
        ("gouji", play.gouji),
        ("pure", play.pure),
        ("opens_point", play.opens_point(rules.kaidian_plays)),
    ):
        if key in expect:
            _compare(out, key, expect[key], got)
    return out


# ------------------------------------------------------------------------------------------ results


def _check_result(case: Mapping[str, Any], rules: RuleSet) -> Failures:
    out: Failures = []
    expect, result = case["expect"], dict(case["result"])
    for key, default in (("smothered", []), ("burns", []), ("revolted", []), ("sweep", None)):
        result.setdefault(key, default)
    for key in ("opened", "declared"):
        result.setdefault(key, [False] * 6)
    payments = tribute.owed(rules, result)
    if "tribute_owed" in expect:  # a multiset: the order of kinds is "tribute_order"
        got = [(p.kind, p.payer, p.receiver, p.cards) for p in payments]
        want = [(p["kind"], p["payer"], p["receiver"], p["cards"]) for p in expect["tribute_owed"]]
        _compare(out, "tribute_owed", sorted(want), sorted(got))
    if "tribute_order" in expect:
        kinds: list[str] = []
        for p in payments:
            if not kinds or kinds[-1] != p.kind:
                kinds.append(p.kind)
        _compare(out, "tribute_order", expect["tribute_order"], kinds)
    if "points" in expect:
        got_points = scoring.seat_points(rules, list(result["places"]), result["sweep"])
        _compare(out, "points", expect["points"], got_points)
    return out


# --------------------------------------------------------------------------------------------- deals


def build_deal(spec: Mapping[str, Any], rules: RuleSet) -> Deal:
    """A case's ``deal``: six hands, the leader, the setup phases or not (with tribute owed), then the moves."""
    setup = bool(spec.get("setup", False))
    deal = Deal.from_hands(
        spec["hands"],
        rules,
        leader=spec.get("leader", 0),
        setup=setup,
        seed=spec.get("seed", 0) if setup else None,
        tribute=spec.get("tribute", ()),
    )
    for i, move in enumerate(spec.get("moves", ())):
        if deal.to_act is None:
            raise ValueError(f"move {i} ({move!r}): the deal is over")
        deal.act(move)
    return deal


def _check_deal(case: Mapping[str, Any], rules: RuleSet) -> Failures:
    out: Failures = []
    deal = build_deal(case["deal"], rules)
    for key, want in case["expect"].items():
        check = DEAL_CHECKS.get(key)
        if check is None:
            out.append(f"{key}: not a key this runner knows")
            continue
        check(out, deal, want)
    return out


def _legal(deal: Deal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def _legal_exact(out: Failures, deal: Deal, want: list[str]) -> None:
    _compare(out, "legal", sorted(want), sorted(_legal(deal)))


def _legal_includes(out: Failures, deal: Deal, want: list[str]) -> None:
    legal = set(_legal(deal))
    missing = [a for a in want if a not in legal]
    if missing:
        out.append(f"legal_includes: {missing} not legal (legal: {sorted(legal)[:20]})")


def _legal_excludes(out: Failures, deal: Deal, want: list[str]) -> None:
    legal = set(_legal(deal))
    there = [a for a in want if a in legal]
    if there:
        out.append(f"legal_excludes: {there} legal")


def _refused(out: Failures, deal: Deal, want: Any) -> None:
    for item in want if isinstance(want, list) else [want]:
        seat = item.get("seat", deal.to_act)
        got = deal.refusal_code(seat, item["action"])
        _compare(out, f"refused {item['action']!r}", item["reason"], got)


def _hands(out: Failures, deal: Deal, want: Mapping[str, str]) -> None:
    for seat, cards in want.items():
        got = deal.hand(int(seat))
        if not _same_cards(cards, got):
            out.append(f"hands[{seat}]: expected {cards!r}, got {got!r}")


def _tribute_paid(out: Failures, deal: Deal, want: list[Mapping[str, Any]]) -> None:
    got = list(deal.tribute_paid)
    if len(got) != len(want):
        out.append(f"tribute_paid: expected {len(want)} payments, got {len(got)}: {got}")
        return
    for w, g in zip(want, got, strict=True):
        if (w["kind"], w["from"], w["to"]) != (g["kind"], g["from"], g["to"]) or not _same_cards(
            w["cards"], g["cards"]
        ):
            out.append(f"tribute_paid: expected {dict(w)}, got {g}")


def _burns(out: Failures, deal: Deal, want: list[Mapping[str, Any]]) -> None:
    got = [{k: b[k] for k in ("burner", "burned", "level", "result")} for b in deal.burns]
    _compare(out, "burns", [dict(w) for w in want], got)


def _simple(key: str, get: Callable[[Deal], Any]) -> Callable[[Failures, Deal, Any], None]:
    def check(out: Failures, deal: Deal, want: Any) -> None:
        _compare(out, key, want, get(deal))

    return check


def _seats(flags: list[bool]) -> list[int]:
    return [s for s, f in enumerate(flags) if f]


DEAL_CHECKS: dict[str, Callable[[Failures, Deal, Any], None]] = {
    "to_act": _simple("to_act", lambda d: d.to_act),
    "phase": _simple("phase", lambda d: d.phase),
    "legal": _legal_exact,
    "legal_includes": _legal_includes,
    "legal_excludes": _legal_excludes,
    "legal_count": _simple("legal_count", lambda d: len(d.legal_actions())),
    "refused": _refused,
    "top": _simple("top", lambda d: None if d.top is None else [str(d.top), d.top_seat]),
    "burn_offers": _simple("burn_offers", lambda d: list(d.round.burn_offers)),
    "free_for_all": _simple("free_for_all", lambda d: d.ffa),
    "over": _simple("over", lambda d: d.is_over),
    "places": _simple("places", lambda d: d.places),
    "sweep": _simple("sweep", lambda d: d.sweep),
    "out_order": _simple("out_order", lambda d: list(d.out_order)),
    "opened": _simple("opened", lambda d: _seats(d.opened)),
    "forfeited": _simple("forfeited", lambda d: _seats(d.forfeited)),
    "headless": _simple("headless", lambda d: [s for s in range(6) if d.in_play[s] and d.headless(s)]),
    "in_play": _simple("in_play", lambda d: _seats(d.in_play)),
    "smothered": _simple("smothered", lambda d: [list(p) for p in d.smothered]),
    "failed_burns": _simple("failed_burns", lambda d: list(d.failed_burns)),
    "revolted": _simple("revolted", lambda d: list(d.revolted)),
    "hands": _hands,
    "tribute_paid": _tribute_paid,
    "burns": _burns,
}
"""Each key a deal case's ``expect`` may give, and how it is checked."""
