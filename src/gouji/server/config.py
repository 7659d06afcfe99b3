"""Table configuration: what a table is created with (:class:`TableConfig`) and the validation of a table
creation request (:func:`parse_table_request`), nicknames included."""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from msgspec import UnsetType

from ..competition.sets import Match
from ..engine.rules import LEGACY_OPTIONS, RuleSet, UnknownRules, upgrade_options
from .errors import RequestError, SettingError
from .messages import schemas as S
from .messages.schemas import (
    BOT_DELAY,
    MAX_NICKNAME,
    MAX_SET_LENGTH,
    READY_SECONDS,
    TURN_SECONDS,
    valid_bot,
    valid_nickname,
)

__all__ = [
    "BOT_DELAY",
    "MAX_NICKNAME",
    "MAX_SET_LENGTH",
    "READY_SECONDS",
    "TURN_SECONDS",
    "TableConfig",
    "check_table_defaults",
    "parse_table_request",
    "valid_bot",
    "valid_nickname",
]


def new_seed() -> int:
    """A new table's seed: unpredictable, and never sent to anyone."""
    return secrets.randbelow(2**63)


@dataclass(frozen=True)
class TableConfig:
    """What a table is created with; stored with it (the seed never leaves the server)."""

    preset: str
    rules: dict[str, Any]
    seed: int
    set_length: int
    turn_seconds: float | None
    bot_delay: float
    bots: tuple[str | None, ...]
    ready_seconds: float | None = None
    """How long the pause between two deals of a set waits for the players to be ready (None: no limit)."""
    card_counter: bool = True
    """记牌器: whether the table shows the cards played so far (the views' ``played``)."""
    in_hall: bool = False
    """Whether the public hall lists it (its creator's choice: ``public``; or a table of quick play)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "rules": self.rules,
            "seed": self.seed,
            "set_length": self.set_length,
            "turn_seconds": self.turn_seconds,
            "bot_delay": self.bot_delay,
            "bots": list(self.bots),
            "ready_seconds": self.ready_seconds,
            "card_counter": self.card_counter,
        } | ({"public": True} if self.in_hall else {})

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TableConfig:
        return cls(
            preset=d["preset"],
            rules=dict(d["rules"]),
            seed=int(d["seed"]),
            set_length=int(d["set_length"]),
            turn_seconds=None if d["turn_seconds"] is None else float(d["turn_seconds"]),
            bot_delay=float(d["bot_delay"]),
            bots=tuple(d["bots"]),
            ready_seconds=_ready_seconds(d),
            card_counter=bool(d.get("card_counter", True)),
            in_hall=bool(d.get("public", False)),
        )

    def public(self) -> dict[str, Any]:
        """Everything but the seed."""
        d = self.to_dict()
        del d["seed"]
        return d

    def new_match(self) -> Match:
        return Match(RuleSet.from_dict(self.rules), seed=self.seed, set_length=self.set_length)


def _ready_seconds(d: Mapping[str, Any]) -> float | None:
    """A stored configuration's ready timeout; one stored before it existed has the turn time."""
    value = d["ready_seconds"] if "ready_seconds" in d else d["turn_seconds"]
    return None if value is None else float(value)


def _number(value: Any, name: str, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RequestError(400, f"{name} must be a number")
    if not lo <= value <= hi:
        raise RequestError(400, f"{name} must be between {lo} and {hi}")
    return float(value)


def check_table_defaults(turn_seconds: float | None, bot_delay: float, ready_seconds: float | None) -> None:
    """Raise :class:`~.errors.SettingError` if a server's defaults for new tables are ones that
    :func:`parse_table_request` would refuse — a server started with them would refuse every table created
    without its own (a request that leaves them out)."""
    for name, value, (lo, hi) in (
        ("turn_seconds", turn_seconds, TURN_SECONDS),
        ("bot_delay", bot_delay, BOT_DELAY),
        ("ready_seconds", ready_seconds, READY_SECONDS),
    ):
        if value is None and name != "bot_delay":
            continue
        try:
            _number(value, name, lo, hi)
        except RequestError:
            none = "" if name == "bot_delay" else " (or none)"
            raise SettingError(name, f"must be a number from {lo:g} to {hi:g}{none}, not {value!r}") from None


def parse_table_request(
    data: Any, default_turn: float | None, default_bot_delay: float, default_ready: float | None = None
) -> TableConfig:
    """Validate a table creation request (``POST /api/tables``); raises :class:`RequestError`.

    The ready timeout (between two deals) is ``ready_seconds`` if given, else ``default_ready``, else the
    table's ``turn_seconds`` (no timeout when that is None too)."""
    req = data if isinstance(data, S.CreateTable) else S.body(S.CreateTable, data)
    base = RuleSet.preset(req.preset).to_dict()
    for key in req.options:
        if (key not in base and key not in LEGACY_OPTIONS) or key in ("name", "source"):
            raise RequestError(400, f"options: no rule option {key!r}")
    try:  # RuleSet checks every option (type, range, allowed words, lengths, a playable deck) and names it
        rules = RuleSet.from_dict({**base, **upgrade_options(req.options)})
    except (UnknownRules, TypeError, ValueError) as e:
        raise RequestError(400, f"bad rule option: {e}") from None
    set_length = rules.set_length if isinstance(req.set_length, UnsetType) else req.set_length
    if not 1 <= set_length <= MAX_SET_LENGTH:
        raise RequestError(400, f"set_length must be an integer from 1 to {MAX_SET_LENGTH}")
    turn_seconds = default_turn if isinstance(req.turn_seconds, UnsetType) else req.turn_seconds
    bot_delay = default_bot_delay if isinstance(req.bot_delay, UnsetType) else req.bot_delay
    ready = req.ready_seconds
    if ready is None:
        ready = default_ready if default_ready is not None else turn_seconds
    ready_seconds = None if ready is None else _number(ready, "ready_seconds", *READY_SECONDS)
    preset, card_counter, bots_in = req.preset, req.card_counter, req.seat_bots()
    config = TableConfig(
        preset=preset,
        rules=rules.to_dict(),
        seed=new_seed(),
        set_length=set_length,
        turn_seconds=None if turn_seconds is None else float(turn_seconds),
        bot_delay=float(bot_delay),
        bots=tuple(bots_in),
        ready_seconds=ready_seconds,
        card_counter=card_counter,
        in_hall=req.public,
    )
    try:
        config.new_match()
    except (UnknownRules, ValueError) as e:  # pragma: no cover - the options were checked one by one
        raise RequestError(400, f"these options cannot be played: {e}") from None
    return config
