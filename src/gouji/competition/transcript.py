"""A deal's log as text a person can read: the hands, each decision and what followed from it.

Used by the golden files of the test suite (a readable diff when behaviour changes) and by the
command line.  It prints whatever the log holds: a full record shows every hand; a seat's view
(``deal.view(seat)["log"]``) shows only that seat's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

PLACE_NAMES = ("头科", "二科", "三科", "四科", "二落", "大落")


def _hands(e: Mapping[str, Any]) -> list[str]:
    """Every hand of a full record's deal event, or the one hand of a seat's view of it."""
    if "hands" in e:
        return [f"  seat {s} ({len(h):2d}): {h}" for s, h in enumerate(e["hands"])]
    if "hand" in e:
        return [f"  my hand ({len(e['hand'])}): {e['hand']}"]
    return []


def format_event(e: Mapping[str, Any]) -> list[str]:
    """The lines for one event."""
    kind = e["type"]
    if kind == "deal":
        head = f"deal ({e['rules']['name']})" if "rules" in e else "deal"
        if e.get("seed") is not None:
            head += f", seed {e['seed']}"
        lead = e.get("first_leader", e.get("leader"))
        liang = e.get("liang_san")
        if liang and liang.get("seat") is not None:
            head += f" (亮3: seat {liang['seat']} shows {liang['threes']} 3s of one suit)"
        if e.get("huiwu"):
            head += f"; may discard 5s (汇5): seats {', '.join(map(str, e['huiwu']))}"
        return [f"{head}, first leader seat {lead}", *_hands(e)]
    if kind == "void":
        seats = ", ".join(map(str, e["revolted"]))
        return [f"two revolutions (seats {seats}): the deal is void, dealt again", *_hands(e)]
    if kind == "act":
        return [f"seat {e['seat']}: {e['action']}"]
    if kind == "buy":
        what = {
            "buy": f"buys a {e['rank']} from seat {e['from']} for a {e['paid']}",
            "give": f"is given a {e['rank']} by teammate seat {e['from']}",
            "free": f"is given a {e['rank']} by seat {e['from']}",
        }.get(e.get("kind", ""), f"gets no {e['rank']}")
        return [f"  seat {e['seat']} {what}"]
    if kind == "tribute":
        names = {"men": "闷贡", "shao": "烧贡", "dian": "点贡", "luo": "落贡", "sweep": "串三户贡"}
        paid = e["cards"] or "nothing"
        note = " (抗贡: exempt)" if e.get("exempt") else "" if len(e["cards"]) == e["owed"] else f" of {e['owed']} owed"
        return [f"  tribute {names.get(e['kind'], e['kind'])}: seat {e['from']} pays seat {e['to']} {paid}{note}"]
    if kind == "tribute_return":
        cards = e["cards"] if isinstance(e["cards"], str) else f"{e['cards']} cards"
        return [f"  还贡: seat {e['from']} gives back {cards} to seat {e['to']}"]
    simple = {
        "revolution": "  seat {seat} revolts (革命), laying down {hand}",
        "play": "play begins: seat {leader} leads",
        "round": "  round over: seat {leader} leads",
        "yield": "  seat {seat} yields (让牌)",
        "burn": "  seat {seat} burns seat {burned}'s play (烧牌, level {level})",
        "burn_success": "  seat {seat}'s burn succeeds (烧成功)",
        "burn_broken": "  seat {seat}'s burn is broken (解烧)",
        "burn_countered": "  seat {seat}'s burn is counter-burned (反烧)",
        "burn_failed": "  seat {seat}'s burn fails (烧失败): out of play, last",
        "burn_ended": "  seat {seat}'s burn ends without result",
        "smothered": "  seat {seat} is smothered (闷) by seat {by}",
        "out": "  seat {seat} goes out ({order})",
        "open": "  seat {seat} opens the point (开点)",
        "forfeit": "  seat {seat} played a 4: gives up opening the point",
        "free_for_all": "  free-for-all (乱缠) begins",
        "no_three": "  seat {seat} has no 3: ranked last (大拉), out of play",
        "huiwu": "  seat {seat} discards its 5s (汇5): {cards}",
        "tribute_giveback": "  退贡: seat {from} hands {cards} back to teammate seat {to}",
        "chongdian": "  seat {seat} asks to 冲点",
        "chongdian_end": "  seat {seat}'s 冲点: {result}",
        "gousiji": "  seat {seat}'s play is 够死级: only a burn may answer it",
    }
    if kind == "point_swap":
        return [f"  换点: seat {e['seat']} " + ("agrees" if e["agree"] else "declines")]
    if kind == "chongdian_place":
        return [f"  seat {e['seat']} leaves play after its 冲点, placed {PLACE_NAMES[e['place']]}"]
    if kind == "selfopen":
        shown = f", showing {e['hand']}" if "hand" in e else ""
        return [f"  seat {e['seat']} opens without gouji (无级自开) to seat {e['to']}{shown}"]
    if kind in simple:
        return [simple[kind].format(**e)]
    if kind == "end":
        places = e["places"]
        line = "deal over: " + ", ".join(f"{PLACE_NAMES[i]} seat {s}" for i, s in enumerate(places))
        if e.get("sweep") is not None:
            line += f"; team {e['sweep']} sweeps (串三户)"
        return [line]
    return [f"  {kind}: " + ", ".join(f"{k}={v}" for k, v in e.items() if k != "type")]


def format_events(events: Iterable[Mapping[str, Any]]) -> str:
    """The whole log as text, one line per decision or consequence."""
    lines: list[str] = []
    for e in events:
        lines += format_event(e)
    return "\n".join(lines) + "\n"
