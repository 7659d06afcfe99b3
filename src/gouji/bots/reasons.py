"""Why a hint suggests what it does: a reason **code** with **parameters**, and its English text.

The heuristic bot (:mod:`gouji.bots.heuristic`) explains each choice as a :class:`Reason`: a code such as
``"beat"`` and parameters that keep their kind — seats as seat numbers (0-5), plays and cards as their text
(``"22KK"``), chances as fractions.  :attr:`Reason.text` is the English line of the Python API; a client
renders the code in its own language with the seats' names as it shows them (the browser table does:
``static/reasons.js``).  The codes and their parameters are listed in :data:`CODES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.plays import parse_play


def desc(text: str) -> str:
    """A play as its parts: ``'55'``, ``'KK+22'``, ``'QQQ+D'`` …"""
    q = parse_play(text)
    s = str(q)
    parts = []
    if q.k:
        parts.append(s[q.d + q.x + q.t :])
    if q.t:
        parts.append("2" * q.t)
    jokers = "D" * q.d + "X" * q.x
    if jokers:
        parts.append(jokers)
    return "+".join(parts) if parts else s


def _odds(sp: float) -> str:
    if sp >= 0.95:
        return "nobody can beat it"
    if sp >= 0.5:
        return f"it stands {sp:.0%} of the time"
    if sp >= 0.05:
        return f"it may be beaten ({sp:.0%} it stands)"
    return "it sheds a play even if beaten"


def _plural(rank: str) -> str:
    return "10s" if rank == "T" else f"{rank}s"


def _lead_low(p: Mapping[str, Any]) -> str:
    why = "your lowest play" if p["lowest"] else "your lowest play you can spare now"
    if p.get("mate_n"):
        why += f"; a teammate has {p['mate_n']} to go — they may go out on it"
    elif p.get("opp_n"):
        why += f"; an opponent has {p['opp_n']} to go — do not lead them out"
    keep = [{"jokers": "the jokers", "twos": "the 2s"}[k] for k in p.get("keep", ())]
    tail = f"; keep {' and '.join(keep)} for later" if keep else ""
    return f"lead {desc(p['play'])}: {why}{tail}"


WHY: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "nothing_beats": lambda p: "nothing you hold beats it",
    "mate_threes": lambda p: "your teammate may hold only 3s now: beating their play would smother them (闷)",
    "mate_out": lambda p: f"seat {p['seat']} went out: if nobody beats it, your teammate takes the lead (接风)",
    "mate_top": lambda p: "your teammate's play is on top — let it stand",
    "smother_risk": lambda p: f"{desc(p['play'])} would leave only 3s behind a play that can be beaten (闷)",
    "bie_san_risk": lambda p: f"{desc(p['play'])} would leave your last play before the 3s unsafe (憋三)",
    "opp_gouji_cost": lambda p: f"beating your 对头's {p['top']} would cost more than it wins",
    "break_group": lambda p: f"{desc(p['play'])} would only break a group and not win the round",
    "control_cost": lambda p: f"beating {p['top']} would cost control cards it is not worth",
    "no_burn": lambda p: "nothing you hold can burn it",
    "no_jokers": lambda p: "without jokers you cannot keep a burn going (every later play needs one)",
    "mate_stands": lambda p: "your teammate's gouji play stands — burn it only to go out for sure",
    "few_jokers": lambda p: "too few jokers to carry every later play of a burn",
}
"""The reasons for declining (``pass`` / ``yield``): the ``why`` parameter and the rest of the parameters."""

ENGLISH: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "only": lambda p: f"{p['action']}: the only action open",
    "safe": lambda p: "a safe choice",
    "return_low": lambda p: f"return {p['cards']}: your lowest cards, and they shorten your hand",
    "return_first": lambda p: "return the first cards offered",
    "yaotou": lambda p: "要头: keep the head — your first gouji plays can only be burned, never answered",
    "wutou": lambda p: "无头: play on without a head",
    "revolt": lambda p: f"revolt: no 2 and no joker, and only {p['aces']} As and {p['kings']} Ks to fight with",
    "no_revolt": lambda p: f"no revolution: {p['aces']} As and {p['kings']} Ks can still fight",
    "declare": lambda p: "宣点: jokers and 2s enough to stop your 对头's gouji plays",
    "no_declare": lambda p: "no 宣点: too few jokers and 2s to stop your 对头 opening the point",
    "huiwu": lambda p: "汇5: discard your 5s — fewer cards to shed",
    "giveback": lambda p: "退贡: hand the 落贡 back — it stays with the team, and your teammate needs it more",
    "swap": lambda p: "换点: no big joker to lose, and your 对头's highest card is likely a joker",
    "no_swap": lambda p: "no 换点: you would give a big joker and get nothing better back",
    "selfopen": lambda p: "无级自开: no gouji play to hide, and leading a 4 opens the point",
    "chongdian": lambda p: f"冲点: {p['groups']} pure gouji groups, {p['aces']} As among them",
    "no_chongdian": lambda p: "no 冲点: too few pure gouji plays to risk 大落",
    "chong_attempt": lambda p: f"冲点 attempt {desc(p['play'])}: {_odds(p['stand'])}",
    "buy4": lambda p: "buy a 4: you can open the point and need a 4 to complete it",
    "no_buy4": lambda p: "no 4: it would cost a 2 and add a low card to shed",
    "lead_out": lambda p: f"lead {desc(p['play'])}: your last play — you go out",
    "open_four": lambda p: f"lead {desc(p['play'])}: the 4 after your standing gouji play opens the point (开点发4)",
    "anchor": lambda p: f"lead {desc(p['play'])}: the play before your 3s must stand (憋三) — {p['stand']:.0%} it does",
    "keep_anchor": lambda p: f"lead {desc(p['play'])}: keep {desc(p['anchor'])} as the safe play before your 3s (憋三)",
    "chain_sure": lambda p: f"lead {desc(p['play'])}: nobody can beat it (card counter), and you keep the lead",
    "chain_joker": lambda p: f"lead {desc(p['play'])}: the big joker makes it stand, and your jokers carry you out",
    "last_two": lambda p: (
        f"lead {desc(p['play'])}: of your last two plays the likelier to stand ({p['stand']:.0%}); "
        f"keep the {_plural(p['keep'])} to go out with"
    ),
    "open": lambda p: (
        f"lead {desc(p['play'])}: a pure gouji play that stands {p['stand']:.0%} of the time opens the point"
    ),
    "lead_low": _lead_low,
    "lead_control": lambda p: f"lead {desc(p['play'])}: only control cards are left before the 3s",
    "go_out": lambda p: f"play {desc(p['play'])}: it empties your hand — you go out",
    "over_mate": lambda p: (
        f"play {desc(p['play'])} over your teammate: it sheds a play cheaply and stands {p['stand']:.0%}"
    ),
    "smother": lambda p: (
        f"beat seat {p['seat']}'s {p['top']} with {desc(p['play'])}: they likely hold only 3s — this smothers them (闷)"
    ),
    "threes_next": lambda p: f"play {desc(p['play'])}: it stands {p['stand']:.0%}, then your 3s go out",
    "answer_opp": lambda p: (
        f"answer your 对头's gouji play with {desc(p['play'])}: it stands {p['stand']:.0%} of the time"
    ),
    "beat": lambda p: (
        f"beat seat {p['seat']}'s {p['top']} with {desc(p['play'])}: "
        + ("a natural group, no control spent" if p["natural"] else "worth the control cards")
        + f"; {_odds(p['stand'])}"
    ),
    "pass": lambda p: f"pass: {WHY[p['why']](p)}",
    "yield": lambda p: f"yield (让牌): {WHY[p['why']](p)}; let your teammate in first",
    "burn_out": lambda p: f"burn {p['top']} with {desc(p['play'])}: it empties your hand (烧成功)",
    "burn": lambda p: (
        f"burn {p['top']} with {desc(p['play'])}: "
        + ("your big jokers make every later play certain" if p["sure"] else "a joker for every later play")
    ),
    "burn_lead_out": lambda p: f"lead {desc(p['play'])}: the last play of your burn — you go out (烧成功)",
    "burn_lead_threes": lambda p: f"lead {desc(p['play'])}: the last play before your 3s, with every joker (烧牌)",
    "burn_lead_joker": lambda p: (
        f"lead {desc(p['play'])}: a burner's play needs a joker (小花早挂: the small one first)"
    ),
    "burn_lead_control": lambda p: f"lead {desc(p['play'])}: only control cards left",
    "burn_lost": lambda p: (
        f"lead {desc(p['play'])}: no joker is left for your burn, so any play but your last breaks it (诈烧, "
        "大落) — this sheds the most"
    ),
}
"""Each code's English line, from its parameters."""

CODES = tuple(ENGLISH)
"""Every reason code (the ``why`` of ``pass``/``yield`` is one of :data:`WHY`)."""


@dataclass(frozen=True)
class Reason:
    """Why a choice was made: ``code`` (one of :data:`CODES`) and its ``params`` (JSON values: seats as
    seat numbers, plays as play text, chances as fractions)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The reason as one English line."""
        return ENGLISH[self.code](self.params)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    def __str__(self) -> str:
        return self.text


def reason(code: str, **params: Any) -> Reason:
    """A :class:`Reason`; ``KeyError`` for an unknown code (so a typo fails at once, not when rendered)."""
    if code not in ENGLISH:
        raise KeyError(f"no reason code {code!r}")
    if code in ("pass", "yield") and params.get("why") not in WHY:
        raise KeyError(f"no decline reason {params.get('why')!r}")
    return Reason(code, params)


__all__ = ["CODES", "ENGLISH", "WHY", "Reason", "desc", "reason"]
