"""Table configuration: what a table is created with (:class:`TableConfig`) and the validation of a table
creation request (:func:`parse_table_request`), nicknames included."""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..bots import BOTS
from ..competition.sets import Match
from ..engine.rules import LEGACY_OPTIONS, PRESETS, RuleSet, UnknownRules, upgrade_options
from ..engine.seats import SEATS
from .errors import RequestError, SettingError

MAX_NICKNAME = 24
MAX_SET_LENGTH = 20


def new_seed() -> int:
    """A new table's seed: unpredictable, and never sent to anyone."""
    return secrets.randbelow(2**63)


def valid_bot(value: Any, field: str = "bots") -> str | None:
    """A seat's bot as a request names it: a bot's name or null; raises :class:`RequestError` naming
    ``field`` (the one validator of every request that names bots: tables, matches, events)."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in BOTS:
        shown = repr(value) if isinstance(value, str) else f"a JSON {_json_type(value)}"
        raise RequestError(400, f"{field}: no bot {shown}; a bot is null or one of {', '.join(sorted(BOTS))}")
    return value


def _json_type(value: Any) -> str:
    """What a parsed JSON value is, in JSON's words."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, dict):
        return "object"
    return "array" if isinstance(value, list) else type(value).__name__


def valid_nickname(value: Any) -> str:
    """A nickname: 1-24 printable characters after trimming; raises :class:`RequestError`."""
    if not isinstance(value, str):
        raise RequestError(400, "nickname must be a string")
    name = value.strip()
    if not 1 <= len(name) <= MAX_NICKNAME or not name.isprintable():
        raise RequestError(400, f"nickname must be 1-{MAX_NICKNAME} printable characters")
    return name


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
        }

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


TURN_SECONDS: tuple[float, float] = (0.05, 3600)
"""The turn timer a table may have, in seconds (or none)."""
BOT_DELAY: tuple[float, float] = (0, 10)
"""The seconds a bot may wait before it acts (the masking time of every decision)."""
READY_SECONDS: tuple[float, float] = (0.05, 3600)
"""The pause between two deals a table may wait for its players, in seconds (or none: its turn time)."""


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
    if not isinstance(data, dict):
        raise RequestError(400, "the request body is a JSON object")
    known = {
        "preset",
        "options",
        "set_length",
        "turn_seconds",
        "ready_seconds",
        "bot_delay",
        "bots",
        "card_counter",
        "nickname",
        "seat",
    }
    unknown = set(data) - known
    if unknown:
        raise RequestError(400, f"unknown fields: {', '.join(sorted(unknown))}")
    preset = data.get("preset", "qingdao")
    if preset not in PRESETS:
        raise RequestError(400, f"preset must be one of {', '.join(PRESETS)}")
    base = RuleSet.preset(preset).to_dict()
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RequestError(400, "options must be an object of rule options")
    for key in options:
        if (key not in base and key not in LEGACY_OPTIONS) or key in ("name", "source"):
            raise RequestError(400, f"no rule option {key!r}")
    try:  # RuleSet checks every option (type, range, allowed words, lengths, a playable deck) and names it
        rules = RuleSet.from_dict({**base, **upgrade_options(options)})
    except (UnknownRules, TypeError, ValueError) as e:
        raise RequestError(400, f"bad rule option: {e}") from None
    set_length = data.get("set_length", rules.set_length)
    if isinstance(set_length, bool) or not isinstance(set_length, int) or not 1 <= set_length <= MAX_SET_LENGTH:
        raise RequestError(400, f"set_length must be an integer from 1 to {MAX_SET_LENGTH}")
    turn = data.get("turn_seconds", default_turn)
    turn_seconds = None if turn is None else _number(turn, "turn_seconds", *TURN_SECONDS)
    bot_delay = _number(data.get("bot_delay", default_bot_delay), "bot_delay", *BOT_DELAY)
    ready = data.get("ready_seconds")
    if ready is None:
        ready = default_ready if default_ready is not None else turn_seconds
    ready_seconds = None if ready is None else _number(ready, "ready_seconds", *READY_SECONDS)
    bots_in = data.get("bots", [None] * SEATS)
    if isinstance(bots_in, dict):
        seats: list[str | None] = [None] * SEATS
        for k, v in bots_in.items():
            if not (isinstance(k, str) and k.isdigit() and 0 <= int(k) < SEATS):
                raise RequestError(400, "bots: keys are seats 0-5")
            seats[int(k)] = valid_bot(v, f"bots[{int(k)}]")
        bots_in = seats
    if not isinstance(bots_in, list) or len(bots_in) != SEATS:
        raise RequestError(400, "bots must be a list of six entries (a bot name or null) or an object seat → bot")
    bots_in = [valid_bot(b, f"bots[{i}]") for i, b in enumerate(bots_in)]
    card_counter = data.get("card_counter", True)
    if not isinstance(card_counter, bool):
        raise RequestError(400, "card_counter must be true or false")
    config = TableConfig(
        preset=preset,
        rules=rules.to_dict(),
        seed=new_seed(),
        set_length=set_length,
        turn_seconds=turn_seconds,
        bot_delay=bot_delay,
        bots=tuple(bots_in),
        ready_seconds=ready_seconds,
        card_counter=card_counter,
    )
    try:
        config.new_match()
    except (UnknownRules, ValueError) as e:  # pragma: no cover - the options were checked one by one
        raise RequestError(400, f"these options cannot be played: {e}") from None
    return config
