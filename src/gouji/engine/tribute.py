"""Tribute (进贡 / 还贡): what one deal of a set owes the next (rule book §12).

:func:`owed` turns a finished deal's result (:meth:`gouji.Deal.result`) into the list of payments the
next deal starts with, in the order of the rule set's ``tribute_order``; the deal pays them from its new
hands (see ``Deal.new(..., tribute=...)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .checks import InvalidPayment, check_payment
from .rule_bounds import show
from .rules import RuleSet
from .seats import SEATS


@dataclass(frozen=True)
class Payment:
    """One tribute owed: ``payer`` gives ``receiver`` up to ``cards`` cards (their highest joker or 2, or their
    highest cards with ``tribute_cards="highest"``)."""

    kind: str
    """men (闷贡), shao (烧贡), dian (点贡), luo (落贡) or sweep (串三户)."""
    payer: int
    receiver: int
    cards: int
    returned: bool = False
    """Whether the receiver gives back as many cards of their choice (还贡)."""
    giveback: bool = False
    """落贡 to a teammate that the receiver may hand back whole (退贡, ``lao_to_teammate="returnable"``)."""
    swap: bool = False
    """Half of a 换点 that is paid only if both seats of the pair agree (``mutual_point_tribute="agree"``)."""

    def __post_init__(self) -> None:
        check_payment(self)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for records (``giveback`` only when set, so older records read the same), its keys in
        the fields' order — made field by field: ``dataclasses.asdict`` deep-copies each value, which was a
        quarter of what dealing a deal with its tribute cost the server (96 of 364 µs)."""
        out = {
            "kind": self.kind,
            "payer": self.payer,
            "receiver": self.receiver,
            "cards": self.cards,
            "returned": self.returned,
        }
        if self.giveback:
            out["giveback"] = True
        if self.swap:
            out["swap"] = True
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Payment:
        """Read back :meth:`to_dict`; a malformed payment is an :class:`InvalidPayment`."""
        if not isinstance(data, Mapping) or not {"kind", "payer", "receiver", "cards"} <= set(data):
            raise InvalidPayment(f"a payment is an object with kind, payer, receiver and cards, not {show(data)}")
        return cls(
            kind=data["kind"],
            payer=data["payer"],
            receiver=data["receiver"],
            cards=data["cards"],
            returned=data.get("returned", False),
            giveback=data.get("giveback", False),
            swap=data.get("swap", False),
        )


def _opposite(s: int) -> int:
    return (s + 3) % SEATS


def point_tribute(
    a: int, b: int, declared: Sequence[bool], opened: Sequence[bool], mutual: str = "pay"
) -> list[Payment]:
    """点贡 for the 对头 pair ``a``–``b`` from who declared (宣点) and who opened (开点); ``mutual`` is the
    1-for-1 exchange when neither declared nor opened (000 换点: 可以商议都进或都不进): ``"pay"``,
    ``"waive"``, or ``"agree"`` — owed as :attr:`Payment.swap` halves, paid only if both seats agree."""

    def pay(frm: int, to: int, n: int, swap: bool = False) -> Payment:
        return Payment("dian", frm, to, n, swap=swap)

    da, db, oa, ob = declared[a], declared[b], opened[a], opened[b]
    if da == db:
        one, each = (4, 2) if da else (1, 1)
        if oa and not ob:
            return [pay(b, a, one)]
        if ob and not oa:
            return [pay(a, b, one)]
        if not oa and not ob:
            if da or mutual == "pay":
                return [pay(a, b, each), pay(b, a, each)]
            return [pay(a, b, 1, swap=True), pay(b, a, 1, swap=True)] if mutual == "agree" else []
        return [pay(a, b, 2), pay(b, a, 2)] if da else []
    if db:  # make a the only one who declared
        return point_tribute(b, a, declared, opened, mutual)
    if oa and not ob:
        return [pay(b, a, 3)]
    if ob and not oa:
        return [pay(a, b, 3)]
    if not oa and not ob:
        return [pay(a, b, 1), pay(b, a, 2)]
    return [pay(a, b, 2)]


def owed(rules: RuleSet, result: Mapping[str, Any]) -> list[Payment]:
    """The tribute the deal after ``result`` starts with, in ``rules.tribute_order``.

    ``result`` is :meth:`gouji.Deal.result` of the finished deal: places, smothered, burns, opened,
    declared, revolted and sweep.
    """
    if not rules.tribute:
        return []
    places: list[int] = list(result["places"])
    revolted = set(result["revolted"])
    team = [s % 2 for s in range(SEATS)]
    by_kind: dict[str, list[Payment]] = {"men": [], "shao": [], "dian": [], "luo": []}
    for seat, by in result["smothered"]:
        by_kind["men"].append(Payment("men", seat, by, 1))
    for burn in result["burns"]:
        if burn["result"] == "success":
            by_kind["shao"].append(Payment("shao", burn["burned"], burn["burner"], 2 ** (burn["level"] - 1)))
    for a in range(3):
        b = _opposite(a)
        if a in revolted or b in revolted:
            continue
        by_kind["dian"] += point_tribute(a, b, result["declared"], result["opened"], mutual=rules.mutual_point_tribute)
    sweep = result.get("sweep")
    if sweep is None:
        for loser, winner, n in ((places[5], places[0], 2), (places[4], places[1], 1)):
            if team[loser] != team[winner]:
                by_kind["luo"].append(Payment("luo", loser, winner, n, returned=not rules.no_return))
            elif rules.lao_to_teammate == "returnable":
                # 000 山东地区: 如果是进给自己同伙，同伙可以选择退贡
                by_kind["luo"].append(Payment("luo", loser, winner, n, giveback=True))
    elif rules.sweep_tribute == "opposite":
        # 串三户: each member of the sweeping team receives one from their 对头; all else is waived —
        # except 点贡 with sweep_keeps_point_tribute (000 山东地区: 点贡双方都不免), in its place of the order.
        swept = [Payment("sweep", _opposite(s), s, 1) for s in range(SEATS) if team[s] == sweep]
        if not rules.sweep_keeps_point_tribute:
            return swept
        kept: list[Payment] = []
        for kind in rules.tribute_order:
            kept += by_kind["dian"] if kind == "dian" else swept if kind == "luo" else []
        return kept
    else:
        # 章丘: the three losers each pay one 落贡 to their 对头; 点贡 still paid, 闷贡 and 烧贡 waived.
        by_kind["men"] = []
        by_kind["shao"] = []
        by_kind["luo"] = [
            Payment("luo", s, _opposite(s), 1, returned=not rules.no_return) for s in range(SEATS) if team[s] != sweep
        ]
    out: list[Payment] = []
    for kind in rules.tribute_order:
        out += by_kind[kind]
    return out
