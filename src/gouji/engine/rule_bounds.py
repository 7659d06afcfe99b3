"""The one validation of rule options: every :class:`gouji.RuleSet` is checked here when it is built.

The check is driven by the dataclass field types, so a new option is validated without more code:

- ``bool``: ``True`` or ``False`` only (not ``"no"``, not ``0``);
- ``int``: a whole number, not a bool or a float, within its entry of :data:`INT_BOUNDS`
  (:data:`DEFAULT_INT_BOUNDS` for an option not listed);
- ``float``: a finite number (no NaN, no infinity) within its bounds;
- ``Literal[...]``: one of the listed words;
- ``str``: text of at most :data:`MAX_TEXT` characters;
- ``tuple[X, ...]`` / ``tuple[X, X, X]``: a list or tuple (stored as a tuple) of that many entries, each
  checked as ``X`` (the entries of an int tuple within the option's bounds);
- ``X | None``: ``None`` or an ``X``.

Then the cross-option rules of :func:`check_deck` keep the deck playable, and :data:`PERMUTATIONS` name
tuples that must hold each of their allowed words exactly once.  Every refusal is an
:class:`InvalidRules` naming the option, the bad value and what is allowed.  ``docs/rules.md`` ("Option
bounds") lists the bounds with their reasons.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, get_args, get_origin

from . import cards as C


class UnknownRules(ValueError):
    """A preset name or option that does not exist."""


class InvalidRules(UnknownRules):
    """An option with a value the rules do not allow: the message names the option, the value and what
    is allowed.  (A kind of :class:`UnknownRules`, so code that catches that catches this too.)"""


MAX_DECKS = 8
"""Most decks in play: twice the usual four, more than any region plays (枣庄 plays six)."""

INT_BOUNDS: dict[str, tuple[int, int]] = {
    "decks": (1, MAX_DECKS),
    "kaidian_until_out": (0, 6),
    "luanchan_at": (2, 6),
    "yaotou_limit": (0, 100),
    "set_length": (1, 20),
    "sweep_points": (0, 1000),
    "base_points": (1, 100),
    "place_points": (-1000, 1000),
    "removed": (0, 4 * MAX_DECKS),
}
"""Inclusive bounds of each whole-number option (for a tuple option: of each entry)."""

DEFAULT_INT_BOUNDS = (0, 100)
"""Bounds of a whole-number option not in :data:`INT_BOUNDS`."""

FLOAT_BOUNDS: dict[str, tuple[float, float]] = {}
"""Inclusive bounds of each real-number option."""

DEFAULT_FLOAT_BOUNDS = (0.0, 1000.0)

MAX_TEXT = 200
"""Longest free text (the ``name`` and ``source`` of a rule set)."""

PERMUTATIONS = frozenset({"tribute_order"})
"""Tuple options that list every one of their allowed words exactly once (an order, not a selection)."""

MIN_CARDS = 54
"""Fewest cards in play: one full deck, nine a seat."""

SKIP = frozenset({"extra"})
"""Fields that are not options (free data the engine never reads as rules)."""


def show(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters (a huge number or text stays readable)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        return f"a {value.bit_length()}-bit number"
    try:
        text = repr(value)
    except ValueError:  # a number inside with more digits than Python converts to text
        return f"a {type(value).__name__} holding a number too long to show"
    return text if len(text) <= limit else text[: limit - 3] + "..."


Checker = Callable[[str, Any], Any]
"""A compiled check of one type: ``checker(path, value)`` returns the value (lists made tuples) or raises."""


def _refuse(name: str, value: Any, allowed: str) -> InvalidRules:
    return InvalidRules(f"{name}: {show(value)} is not allowed: expected {allowed}")


_PLANS: dict[type, list[tuple[str, Checker]]] = {}


def _plan(cls: type) -> list[tuple[str, Checker]]:
    """Each option field of ``cls`` with the compiled check of its type (worked out once per class)."""
    plan = _PLANS.get(cls)
    if plan is None:
        hints = typing.get_type_hints(cls)
        fields = [f.name for f in dataclasses.fields(cls) if f.name not in SKIP]
        plan = _PLANS[cls] = [(name, checker(name, hints[name])) for name in fields]
    return plan


def _int_bounds(option: str) -> tuple[int, int]:
    return INT_BOUNDS.get(option, DEFAULT_INT_BOUNDS)


def describe(option: str, tp: Any) -> str:
    """What an option of type ``tp`` allows, in words: ``a whole number from 1 to 8``."""
    origin, args = get_origin(tp), get_args(tp)
    if tp is bool:
        return "true or false"
    if tp is int:
        lo, hi = _int_bounds(option)
        return f"a whole number from {lo} to {hi}"
    if tp is float:
        flo, fhi = FLOAT_BOUNDS.get(option, DEFAULT_FLOAT_BOUNDS)
        return f"a finite number from {flo} to {fhi}"
    if tp is str:
        return f"text of at most {MAX_TEXT} characters"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            if option in PERMUTATIONS:
                return "a list of " + ", ".join(repr(a) for a in get_args(args[0])) + ", each exactly once"
            return f"a list, each entry {describe(option, args[0])}"
        if len(set(args)) == 1:
            return f"a list of {len(args)} entries, each {describe(option, args[0])}"
        return "a list of " + ", ".join(describe(option, a) for a in args)
    if origin in (types.UnionType, typing.Union):
        return " or ".join("null" if a is type(None) else describe(option, a) for a in args)
    return getattr(tp, "__name__", str(tp))


_CHECKERS: dict[tuple[str, Any], Checker] = {}


def check_value(option: str, path: str, value: Any, tp: Any) -> Any:
    """``value`` checked against the type ``tp`` of ``option`` (``path`` names it in errors, e.g.
    ``place_points[2]``); returns it with lists made tuples.  Raises :class:`InvalidRules`."""
    return checker(option, tp)(path, value)


def checker(option: str, tp: Any) -> Checker:
    """The check of values of type ``tp`` for ``option``, compiled once (a rule set is built often: every
    replayed deal reads its rules back)."""
    key = (option, tp)
    found = _CHECKERS.get(key)
    if found is None:
        found = _CHECKERS[key] = _compile(option, tp)
    return found


def _compile(option: str, tp: Any) -> Checker:
    origin, args = get_origin(tp), get_args(tp)
    allowed = describe(option, tp)
    test: Callable[[Any], bool]
    if tp is bool:
        test = lambda v: v is True or v is False  # noqa: E731
    elif tp is int:
        lo, hi = _int_bounds(option)
        test = lambda v: type(v) is int and lo <= v <= hi  # noqa: E731
    elif tp is float:
        flo, fhi = FLOAT_BOUNDS.get(option, DEFAULT_FLOAT_BOUNDS)

        def check_float(path: str, value: Any) -> float:
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if number and math.isfinite(value) and flo <= value <= fhi:
                return float(value)
            raise _refuse(path, value, allowed)

        return check_float
    elif tp is str:
        test = lambda v: isinstance(v, str) and len(v) <= MAX_TEXT  # noqa: E731
    elif origin is Literal:
        words = frozenset((type(a), a) for a in args)
        test = lambda v: isinstance(v, str | int) and (type(v), v) in words  # noqa: E731
    elif origin is tuple:
        return _compile_tuple(option, tp, allowed)
    elif origin in (types.UnionType, typing.Union):
        return _compile_union(option, args, allowed)
    else:  # pragma: no cover - a field type this module does not know yet
        raise TypeError(f"rule option {option}: no check for its type {tp!r}")

    def check_plain(path: str, value: Any) -> Any:
        if test(value):
            return value
        raise _refuse(path, value, allowed)

    return check_plain


def _compile_tuple(option: str, tp: Any, allowed: str) -> Checker:
    args = get_args(tp)
    each = checker(option, args[0]) if len(args) == 2 and args[1] is Ellipsis else None
    fixed = [checker(option, a) for a in args] if each is None else []
    words = sorted(get_args(args[0])) if option in PERMUTATIONS else None

    def check_tuple(path: str, value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise _refuse(path, value, allowed)
        if each is None and len(value) != len(fixed):
            raise InvalidRules(
                f"{path}: {show(value)} is not allowed: expected {len(fixed)} entries, not {len(value)} ({allowed})"
            )
        checks = [each] * len(value) if each is not None else fixed
        try:
            out = tuple([c(path, v) for c, v in zip(checks, value, strict=True)])
        except InvalidRules:  # again, to name the entry: place_points[5]
            out = tuple([c(f"{path}[{i}]", v) for i, (c, v) in enumerate(zip(checks, value, strict=True))])
        if words is not None and sorted(out) != words:
            raise _refuse(path, value, allowed)
        return value if isinstance(value, tuple) and all(a is b for a, b in zip(out, value, strict=True)) else out

    return check_tuple


def _compile_union(option: str, args: tuple[Any, ...], allowed: str) -> Checker:
    nullable = type(None) in args
    options = [checker(option, a) for a in args if a is not type(None)]

    def check_union(path: str, value: Any) -> Any:
        if value is None and nullable:
            return None
        for c in options:
            try:
                return c(path, value)
            except InvalidRules:
                continue
        raise _refuse(path, value, allowed)

    return check_union


def _removed_pairs(removed: Any) -> Any:
    """``removed`` as given (a mapping rank → count, or pairs) as a list of pairs, rank keys canonical."""
    items = list(removed.items()) if isinstance(removed, Mapping) else removed
    if not isinstance(items, list | tuple):
        return items
    out = []
    for item in items:
        if isinstance(item, list | tuple) and len(item) == 2 and isinstance(item[0], str | int):
            rank = str(item[0]).upper().replace("10", "T")
            if rank not in C.RANK_INDEX:
                raise _refuse("removed", item[0], f"a rank, one of {C.RANKS} (T or 10: ten)")
            item = (rank, item[1])
        out.append(item)
    return out


def check(rules: Any) -> dict[str, Any]:
    """Check every option of the rule set ``rules`` (a :class:`gouji.RuleSet` being built); returns the
    normalised values of the fields that changed form (lists → tuples, ``removed`` sorted by rank)."""
    changed: dict[str, Any] = {}
    for name, check_field in _plan(type(rules)):
        value = getattr(rules, name)
        if name == "removed":
            changed[name] = _canonical_removed(check_field(name, _removed_pairs(value)))
            continue
        new = check_field(name, value)
        if new is not value:
            changed[name] = new
    extra = getattr(rules, "extra", {})
    if not isinstance(extra, Mapping):
        raise _refuse("extra", extra, "an object")
    check_deck(changed.get("decks", rules.decks), changed["removed"], rules.bie_san, rules.buy_four)
    return changed


def _canonical_removed(pairs: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    seen: set[str] = set()
    for rank, _ in pairs:
        if rank in seen:
            raise _refuse("removed", pairs, f"each rank once with its count ({rank} is listed twice)")
        seen.add(rank)
    return tuple(sorted(pairs, key=lambda p: C.RANK_INDEX[p[0]]))


def check_deck(decks: int, removed: tuple[tuple[str, int], ...], bie_san: bool, buy_four: bool) -> None:
    """The deck stays playable: only natural ranks (3 … A) are removed, never more than the decks hold;
    at least :data:`MIN_CARDS` cards stay; where every player must hold a 3 (``bie_san``) or a 4
    (``buy_four``), at least six of that rank stay (else a player who can get none revolts, and with two
    such players every deal is void and dealt again, forever)."""
    deck = C.build_deck(decks, ())
    left = list(deck)
    shown = " ".join(f"{r}×{n}" for r, n in removed) if removed else ""
    for rank, n in removed:
        r = C.RANK_INDEX[rank]
        if r not in C.NATURAL_RANKS:
            raise InvalidRules(
                f"removed: {rank}×{n} is not allowed: only ranks 3 to A may be removed "
                "(2s and jokers are the money of buying, tribute and revolution)"
            )
        if n > deck[r]:
            raise InvalidRules(
                f"removed: {rank}×{n} is not allowed: {decks} decks hold only {deck[r]} cards of rank {rank}"
            )
        left[r] -= n
    if sum(left) < MIN_CARDS:
        raise InvalidRules(
            f"removed: {shown} is not allowed: it leaves {sum(left)} cards of {decks} decks; at least {MIN_CARDS} "
            "must stay (nine a seat)"
        )
    for needed, held, option in ((bie_san, C.THREE, "bie_san"), (buy_four, C.FOUR, "buy_four")):
        if needed and left[held] < 6:
            raise InvalidRules(
                f"{option}: True is not allowed with decks {decks} and removed {shown or 'none'}: that leaves "
                f"{left[held]} cards of rank {C.RANKS[held]}, and {option} makes every player hold one, so at least "
                f"6 must stay (use more decks, remove fewer or turn {option} off)"
            )


__all__ = ["DEFAULT_INT_BOUNDS", "INT_BOUNDS", "MAX_DECKS", "InvalidRules", "UnknownRules", "check", "describe"]
