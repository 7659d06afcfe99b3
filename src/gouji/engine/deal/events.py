"""The deal's log, typed: every kind of event :attr:`gouji.Deal.events` holds, with its fields.

The log is plain JSON data (it is stored, sent and replayed as it is), so an event is a dict; each kind is
declared here once as a :class:`~typing.TypedDict`, so code that reads the log can name the fields it reads
and :func:`check_event` can tell an event that is not of its kind (tests check every event the engine writes).
"""

# (no `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations)
from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict


# before play (rule book §5.1, §9, §10, §12, §16)
class DealEvent(TypedDict):
    type: Literal["deal"]
    mode: Literal["seed", "hands"]
    rules: dict[str, Any]
    leader: int | None
    hands: list[str]
    seed: NotRequired[int | str | None]
    first_leader: NotRequired[int]
    tribute: NotRequired[list[dict[str, Any]]]
    setup: NotRequired[bool]
    liang_san: NotRequired[dict[str, Any]]
    huiwu: NotRequired[list[int]]
    liang_san_from: NotRequired[int]


class VoidEvent(TypedDict):
    type: Literal["void"]
    revolted: list[int]
    hands: list[str]


TributeEvent = TypedDict(
    "TributeEvent",
    {
        "type": Literal["tribute"],
        "kind": str,
        "from": int,
        "to": int,
        "owed": int,
        "cards": str,
        "exempt": bool,
    },
)
TributeReturnEvent = TypedDict(
    "TributeReturnEvent", {"type": Literal["tribute_return"], "from": int, "to": int, "cards": str}
)
TributeGivebackEvent = TypedDict(
    "TributeGivebackEvent", {"type": Literal["tribute_giveback"], "from": int, "to": int, "cards": str}
)


class PointSwapEvent(TypedDict):
    """换点 agreed (``agree``) or declined by one seat of a pair (``mutual_point_tribute="agree"``)."""

    type: Literal["point_swap"]
    seat: int
    agree: bool


class HuiwuEvent(TypedDict):
    type: Literal["huiwu"]
    seat: int
    cards: str


class ChongdianEvent(TypedDict):
    type: Literal["chongdian"]
    seat: int


BuyEvent = TypedDict(
    "BuyEvent",
    {
        "type": Literal["buy"],
        "kind": NotRequired[Literal["buy", "give", "free"]],  # absent: nobody could sell or give one
        "seat": int,
        "rank": str,
        "from": int | None,
        "paid": str | None,
    },
)


class NoThreeEvent(TypedDict):
    type: Literal["no_three"]
    seat: int


class RevolutionEvent(TypedDict):
    type: Literal["revolution"]
    seat: int
    hand: str


class SelfOpenEvent(TypedDict):
    type: Literal["selfopen"]
    seat: int
    to: int
    hand: str


# decisions and play (rule book §5–§8)
class ActEvent(TypedDict):
    type: Literal["act"]
    seat: int
    action: str


class PlayStartsEvent(TypedDict):
    type: Literal["play"]
    leader: int


class RoundEvent(TypedDict):
    type: Literal["round"]
    leader: int


class YieldEvent(TypedDict):
    type: Literal["yield"]
    seat: int


class BurnEvent(TypedDict):
    type: Literal["burn"]
    seat: int
    burned: int
    level: int


class BurnEndEvent(TypedDict):
    type: Literal["burn_success", "burn_broken", "burn_countered", "burn_failed", "burn_ended"]
    seat: int
    burned: int


class OpenEvent(TypedDict):
    type: Literal["open"]
    seat: int


class ForfeitEvent(TypedDict):
    type: Literal["forfeit"]
    seat: int


class GousijiEvent(TypedDict):
    type: Literal["gousiji"]
    seat: int


class SmotheredEvent(TypedDict):
    type: Literal["smothered"]
    seat: int
    by: int


class OutEvent(TypedDict):
    type: Literal["out"]
    seat: int
    order: int


class ChongdianEndEvent(TypedDict):
    type: Literal["chongdian_end"]
    seat: int
    result: Literal["stood", "beaten", "ended"]


class ChongdianPlaceEvent(TypedDict):
    type: Literal["chongdian_place"]
    seat: int
    place: int


class FreeForAllEvent(TypedDict):
    type: Literal["free_for_all"]


class EndEvent(TypedDict):
    type: Literal["end"]
    places: list[int]
    sweep: int | None


EVENT_TYPES: dict[str, Any] = {
    "deal": DealEvent,
    "void": VoidEvent,
    "tribute": TributeEvent,
    "tribute_return": TributeReturnEvent,
    "tribute_giveback": TributeGivebackEvent,
    "point_swap": PointSwapEvent,
    "huiwu": HuiwuEvent,
    "chongdian": ChongdianEvent,
    "buy": BuyEvent,
    "no_three": NoThreeEvent,
    "revolution": RevolutionEvent,
    "selfopen": SelfOpenEvent,
    "act": ActEvent,
    "play": PlayStartsEvent,
    "round": RoundEvent,
    "yield": YieldEvent,
    "burn": BurnEvent,
    "burn_success": BurnEndEvent,
    "burn_broken": BurnEndEvent,
    "burn_countered": BurnEndEvent,
    "burn_failed": BurnEndEvent,
    "burn_ended": BurnEndEvent,
    "open": OpenEvent,
    "forfeit": ForfeitEvent,
    "gousiji": GousijiEvent,
    "smothered": SmotheredEvent,
    "out": OutEvent,
    "chongdian_end": ChongdianEndEvent,
    "chongdian_place": ChongdianPlaceEvent,
    "free_for_all": FreeForAllEvent,
    "end": EndEvent,
}
"""Each kind of event (its ``type``) and the TypedDict that declares its fields."""


def check_event(event: Mapping[str, Any]) -> None:
    """A ``ValueError`` naming what is wrong unless ``event`` has exactly the fields of its kind."""
    kind = event.get("type")
    declared = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if declared is None:
        raise ValueError(f"{kind!r} is not a kind of deal event")
    keys = set(event)
    missing = set(declared.__required_keys__) - keys
    extra = keys - set(declared.__required_keys__) - set(declared.__optional_keys__)
    if missing or extra:
        raise ValueError(f"a {kind!r} event lacks {sorted(missing)} or has unknown {sorted(extra)}")
