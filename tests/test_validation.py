"""Validation: rule options (one check in RuleSet, through every door), seats and hands given to a Deal,
record structure before a replay, and clear command-line errors (issue 12, items 3 and 6)."""

from __future__ import annotations

import contextlib
import copy
import json
import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import gouji
from gouji import Deal, RuleSet, UnknownRules
from gouji.cli import main
from gouji.competition.duplicate import Tournament
from gouji.competition.loading import load_record
from gouji.competition.records import RecordError, sign
from gouji.competition.sets import Match
from gouji.engine.checks import InvalidHands, InvalidPayment, InvalidSeat
from gouji.engine.rule_bounds import INT_BOUNDS, InvalidRules

from .helpers import MAX_STEPS, dealt_hands, random_playout

QINGDAO = RuleSet.preset("qingdao")

# ---------------------------------------------------------------------------------------------- rule options

BAD_OPTIONS = [
    ({"bie_san": "no"}, "bie_san", "true or false"),
    ({"bie_san": 1}, "bie_san", "true or false"),
    ({"place_points": (1,)}, "place_points", "6 entries"),
    ({"place_points": (4, 2, 0, 0, -2, -4.0)}, r"place_points\[5\]", "whole number"),
    ({"place_points": "420024"}, "place_points", "a list of 6 entries"),
    ({"place_points": (4, 2, 0, 0, -2, -(10**6))}, r"place_points\[5\]", "from -1000 to 1000"),
    ({"place_points": (4, 2, 0, 0, -2, 10**5000)}, r"place_points\[5\]", "bit number"),
    ({"place_points": (10**5000,)}, "place_points: a tuple holding a number too long to show", "6 entries"),
    ({"scoring": "nope"}, "scoring", "'set', 'tournament'"),
    ({"yaotou_limit": -1}, "yaotou_limit", "from 0 to 100"),
    ({"set_length": 0}, "set_length", "from 1 to 20"),
    ({"set_length": 21}, "set_length", "from 1 to 20"),
    ({"sweep_points": 10**30}, "sweep_points", "from 0 to 1000"),
    ({"sweep_points": 10**5000}, "sweep_points", "bit number"),
    ({"sweep_points": math.nan}, "sweep_points", "whole number"),
    ({"sweep_points": 12.0}, "sweep_points", "whole number"),
    ({"no_three": "maybe"}, "no_three", "'revolt', 'free'"),
    ({"no_three": None}, "no_three", "'revolt', 'free'"),
    ({"show_counts": 1}, "show_counts", "always"),
    ({"decks": 0}, "decks", "from 1 to 8"),
    ({"decks": 9}, "decks", "from 1 to 8"),
    ({"decks": 1_000_000_000}, "decks", "from 1 to 8"),
    ({"decks": True}, "decks", "whole number"),
    ({"decks": 4.0}, "decks", "whole number"),
    ({"luanchan_at": 7}, "luanchan_at", "from 2 to 6"),
    ({"kaidian_until_out": -1}, "kaidian_until_out", "from 0 to 6"),
    ({"tribute_order": ("men", "men", "dian", "luo")}, "tribute_order", "each exactly once"),
    ({"tribute_order": ("men", "shao", "dian")}, "tribute_order", "each exactly once"),
    ({"tribute_order": ("men", "gift", "dian", "luo")}, r"tribute_order\[1\]", "'men', 'shao', 'dian', 'luo'"),
    ({"removed": (("Z", 1),)}, "removed", "a rank, one of 3456789TJQKA2XD"),
    ({"removed": (("3", -1),)}, r"removed\[0\]\[1\]", "from 0 to 32"),
    ({"removed": (("3", "ten"),)}, r"removed\[0\]\[1\]", "whole number"),
    ({"removed": {"2": 1}}, "removed", "only ranks 3 to A"),
    ({"removed": {"D": 1}}, "removed", "only ranks 3 to A"),
    ({"removed": {"5": 17}}, "removed", "hold only 16"),
    ({"removed": (("3", 1), ("3", 2))}, "removed", "listed twice"),
    ({"removed": 5}, "removed", "a list"),
    ({"decks": 1}, "bie_san", "at least 6 must stay"),
    ({"removed": {"3": 11}}, "bie_san", "leaves 5 cards of rank 3"),
    ({"buy_four": True, "removed": {"4": 11}}, "buy_four", "leaves 5 cards of rank 4"),
    ({"decks": 2, "bie_san": False, "removed": {r: 8 for r in "56789TJ"}}, "removed", "at least 54"),
    ({"name": "x" * 300}, "name", "at most 200"),
    ({"source": 3}, "source", "text"),
]


@pytest.mark.parametrize(("options", "option", "allowed"), BAD_OPTIONS)
def test_bad_option_values_are_refused_naming_option_value_and_what_is_allowed(
    options: dict[str, Any], option: str, allowed: str
) -> None:
    for build in (lambda: RuleSet(**options), lambda: QINGDAO.replace(**options)):
        with pytest.raises(InvalidRules, match=option) as info:
            build()
        assert allowed in str(info.value)
        assert "not allowed" in str(info.value)


def test_invalid_rules_is_a_value_error_and_an_unknown_rules() -> None:
    assert issubclass(InvalidRules, ValueError) and issubclass(InvalidRules, UnknownRules)
    assert gouji.InvalidRules is InvalidRules


def test_the_refusal_names_the_bad_value() -> None:
    with pytest.raises(InvalidRules, match=r"yaotou_limit: -1 is not allowed"):
        QINGDAO.replace(yaotou_limit=-1)
    with pytest.raises(InvalidRules, match=r"bie_san: 'no' is not allowed"):
        QINGDAO.replace(bie_san="no")


@pytest.mark.parametrize("name", gouji.PRESETS)
def test_every_preset_passes_and_round_trips_through_json(name: str) -> None:
    rules = RuleSet.preset(name)
    again = RuleSet.from_dict(json.loads(json.dumps(rules.to_dict())))
    assert again == rules and hash(again) == hash(rules)
    assert isinstance(again.place_points, tuple) and isinstance(again.tribute_order, tuple)


@pytest.mark.parametrize(("options", "option", "allowed"), BAD_OPTIONS[:20])
def test_from_dict_refuses_what_the_constructor_refuses(options: dict[str, Any], option: str, allowed: str) -> None:
    data = QINGDAO.to_dict() | options
    with pytest.raises(InvalidRules, match=option):
        RuleSet.from_dict(data)


def test_from_dict_refuses_what_is_not_an_object() -> None:
    for junk in ([], "qingdao", 3, None):
        with pytest.raises(InvalidRules, match="expected an object of rule options"):
            RuleSet.from_dict(junk)  # type: ignore[arg-type]


def test_lists_become_tuples_and_the_rule_set_stays_hashable() -> None:
    rules = RuleSet(place_points=[6, 4, 2, 0, -4, -8], tribute_order=["luo", "dian", "shao", "men"])  # type: ignore[arg-type]
    assert rules.place_points == (6, 4, 2, 0, -4, -8)
    assert rules.tribute_order == ("luo", "dian", "shao", "men")
    assert hash(rules) == hash(RuleSet(place_points=(6, 4, 2, 0, -4, -8), tribute_order=("luo", "dian", "shao", "men")))


@pytest.mark.parametrize(
    "options",
    [
        {"decks": 8},
        {"decks": 1, "bie_san": False},
        {"decks": 2, "removed": {"3": 2, "K": 8}},
        {"removed": {"3": 10, "4": 10}, "buy_four": True},
        {"kaidian_until_out": 0, "yaotou_limit": 0, "sweep_points": 0, "set_length": 1},
        {"place_points": (1000, 0, 0, 0, 0, -1000)},
    ],
)
def test_values_at_the_bounds_are_playable(options: dict[str, Any]) -> None:
    rules = QINGDAO.replace(**options)
    for seed in range(3):
        deal = Deal.new(rules, seed=seed)
        random_playout(deal, random.Random(seed), eager_revolt=True)
        assert deal.is_over


def test_bounds_table_covers_every_int_option() -> None:
    """Every int option of today has its bounds written down (a new one falls back to the default)."""
    ints = [f for f, v in QINGDAO.to_dict().items() if isinstance(v, int) and not isinstance(v, bool)]
    assert set(ints) <= set(INT_BOUNDS)


@dataclass(frozen=True)
class _Extended(RuleSet):
    """A rule set with options this module never heard of: the generic check still covers them."""

    new_flag: bool = False
    new_mode: Literal["a", "b"] = "a"
    new_count: int = 1
    new_pair: tuple[int, int] = (0, 0)
    new_rate: float = 0.5
    new_leader: int | None = None


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"new_flag": "yes"}, "new_flag"),
        ({"new_mode": "c"}, "new_mode"),
        ({"new_count": 101}, "new_count"),
        ({"new_count": -1}, "new_count"),
        ({"new_pair": (1, 2, 3)}, "new_pair"),
        ({"new_pair": (1, "2")}, r"new_pair\[1\]"),
        ({"new_rate": math.nan}, "new_rate"),
        ({"new_rate": math.inf}, "new_rate"),
        ({"new_leader": "0"}, "new_leader"),
    ],
)
def test_options_added_later_are_checked_by_their_types(options: dict[str, Any], option: str) -> None:
    with pytest.raises(InvalidRules, match=option):
        _Extended(**options)
    ok = _Extended(new_flag=True, new_mode="b", new_count=100, new_pair=[3, 4], new_rate=2, new_leader=None)  # type: ignore[arg-type]
    assert ok.new_pair == (3, 4) and ok.new_rate == 2.0
    assert _Extended(new_leader=5).new_leader == 5


# Hypothesis: junk values for random options are refused with InvalidRules, or accepted and playable.

_OPTION_NAMES = [n for n in QINGDAO.to_dict() if n not in ("name", "source")]
_WORDS = ["revolt", "free", "always", "never", "at_or_below_10", "set", "tournament", "opposite", "losers_pay"]
_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=40),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(_WORDS),
    st.lists(st.integers(min_value=-5, max_value=20), max_size=7),
    st.lists(st.sampled_from(["men", "shao", "dian", "luo", "x"]), max_size=5),
    st.permutations(["men", "shao", "dian", "luo"]),
    st.dictionaries(st.sampled_from(list("3456789TJQKA2XDZ")), st.integers(min_value=-1, max_value=20), max_size=3),
)


def _plausible(name: str) -> st.SearchStrategy[Any]:
    """Values of the option's own type, in and around its bounds (so that many rule sets are accepted)."""
    default = getattr(QINGDAO, name)
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, int):
        return st.integers(min_value=-1, max_value=12)
    if isinstance(default, str):
        return st.sampled_from(_WORDS)
    if name == "removed":
        counts = st.integers(min_value=0, max_value=12)
        return st.dictionaries(st.sampled_from(list("3456789TJQKA")), counts, max_size=3)
    if name == "tribute_order":
        return st.permutations(["men", "shao", "dian", "luo"])
    return st.lists(st.integers(min_value=-5, max_value=20), min_size=len(default), max_size=len(default))


def _value(name: str) -> st.SearchStrategy[Any]:
    """Three times in four a plausible value, else junk (``one_of`` would flatten the junk's branches)."""
    return st.integers(min_value=0, max_value=3).flatmap(lambda k: _JUNK if k == 0 else _plausible(name))


_CHANGES = st.lists(
    st.sampled_from(_OPTION_NAMES).flatmap(lambda n: st.tuples(st.just(n), _value(n))), min_size=1, max_size=3
).map(dict)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(gouji.PRESETS), changes=_CHANGES, seed=st.integers(min_value=0, max_value=2**32))
def test_junk_options_are_refused_or_playable(preset: str, changes: dict[str, Any], seed: int) -> None:
    try:
        rules = RuleSet.preset(preset).replace(**changes)
    except InvalidRules:
        event("refused")
        return
    event("accepted")
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    match = Match(rules, seed=seed, set_length=2)  # two deals: tribute and scoring of the first one too
    rng = random.Random(seed)
    for _ in range(2 * MAX_STEPS):
        if match.is_over:
            break
        legal = match.legal_actions()
        match.act(legal[rng.randrange(len(legal))])
    assert match.is_over, f"{changes} did not finish a set"
    assert load_record(match.record()).totals == match.totals


# ---------------------------------------------------------------------------------------------- seats


class _Index:
    """An integer-like seat (as numpy integers are): accepted through ``__index__``."""

    def __index__(self) -> int:
        return 2


@pytest.mark.parametrize("seat", [6, -1, 7, 100, "0", 1.0, True, None])
def test_seat_arguments_out_of_range_are_clear_value_errors(seat: Any) -> None:
    deal = Deal.new("qingdao", seed=1)
    for call in (deal.hand, deal.hand_counts, deal.card_count, deal.headless, lambda s: deal.count_visible(0, s)):
        with pytest.raises(InvalidSeat, match="must be a seat 0-5"):
            call(seat)
    if seat is not None:
        for call in (deal.view, lambda s: deal.count_visible(s, 0)):
            with pytest.raises(InvalidSeat, match="must be a seat 0-5 or None"):
                call(seat)
    assert issubclass(InvalidSeat, ValueError)


def test_integer_like_seats_are_seats() -> None:
    deal = Deal.new("qingdao", seed=1)
    assert deal.hand(_Index()) == deal.hand(2)  # type: ignore[arg-type]
    assert deal.card_count(_Index()) == deal.card_count(2)  # type: ignore[arg-type]
    assert deal.count_visible(None, 5) == deal.card_count(5)
    assert deal.count_visible(_Index(), 2) == deal.card_count(2)  # type: ignore[arg-type]
    assert deal.view(_Index())["hand"] == deal.view(2)["hand"]  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------- hands


@pytest.mark.parametrize(
    ("hands", "rules", "needle"),
    [
        (["3"] * 5, "qingdao", "needs 6 hands"),
        (["3"] * 7, "qingdao", "needs 6 hands"),
        ("333333", "qingdao", "expected a list of 6 hands"),
        (None, "qingdao", "expected a list of 6 hands"),
        (["3", "4", "", "5", "6", "7"], "qingdao", "seat 2 is empty"),
        (["3", "4", (0,) * 15, "5", "6", "7"], "qingdao", "seat 2 is empty"),
        (["3", "4", "5", "6", "7", "8Z"], "qingdao", "hand of seat 5: .*'Z'"),
        (["3", "4", "5", "6", "7", (1, 2)], "qingdao", "hand of seat 5: .*15 per-rank counts"),
        (["3", "4", "5", "6", "7", (1,) * 14 + (-1,)], "qingdao", "hand of seat 5"),
        (["3", "4", "5", "6", "7", (1,) * 14 + (True,)], "qingdao", "hand of seat 5"),
        (["3", "4", "5", "6", "7", 8], "qingdao", "hand of seat 5"),
        (["D" * 5, "4", "5", "6", "7", "8"], "qingdao", r"5 cards of rank D, but .*\(4 decks\) holds 4"),
        (["3" * 17, "4", "5", "6", "7", "8"], "qingdao", "17 cards of rank 3"),
        (["3333", "333", "4", "5", "6", "7"], "tongyong", "7 cards of rank 3, .*less 3×10 4×8\\) holds 6"),
        (["D" * 7, "4", "5", "6", "7", "8"], "zaozhuang", "7 cards of rank D, .*6 decks\\) holds 6"),
    ],
)
def test_impossible_hands_are_refused(hands: Any, rules: str, needle: str) -> None:
    with pytest.raises(InvalidHands, match=needle):
        Deal.from_hands(hands, rules)
    assert issubclass(InvalidHands, ValueError)


def test_hands_within_the_deck_are_dealt() -> None:
    hands = dealt_hands("tongyong", 3)
    deal = Deal.from_hands(hands, "tongyong")
    assert [deal.hand(s) for s in range(6)] == hands
    assert Deal.from_hands(["D" * 6, "4", "5", "6", "7", "8"], "zaozhuang").hand(0) == "D" * 6


@pytest.mark.parametrize("leader", [6, -1, "0", True])
def test_from_hands_refuses_a_leader_that_is_no_seat(leader: Any) -> None:
    with pytest.raises(InvalidSeat, match="leader must be a seat 0-5"):
        Deal.from_hands(["3", "4", "5", "6", "7", "8"], leader=leader)


@pytest.mark.parametrize("leader", [6, -1, "0", True, 2.0])
def test_a_new_deal_refuses_a_leader_that_is_no_seat(leader: Any) -> None:
    with pytest.raises(InvalidSeat, match="leader must be a seat 0-5"):
        Deal.new("qingdao", seed=1, leader=leader)


@pytest.mark.parametrize(
    ("payment", "needle"),
    [
        ({"kind": "luo", "payer": 6, "receiver": 0, "cards": 2}, "seats 0-5, not 6"),
        ({"kind": "luo", "payer": 1, "receiver": "0", "cards": 2}, "seats 0-5, not '0'"),
        ({"kind": "luo", "payer": 1, "receiver": 1, "cards": 2}, "seat 1 cannot pay tribute to itself"),
        ({"kind": "luo", "payer": 1, "receiver": 0, "cards": -1}, "at least 0, not -1"),
        ({"kind": "luo", "payer": 1, "receiver": 0, "cards": 2.5}, "at least 0, not 2.5"),
        ({"kind": "", "payer": 1, "receiver": 0, "cards": 2}, "kind is a word"),
        ({"kind": "luo", "payer": 1, "receiver": 0, "cards": 2, "returned": "yes"}, "returned is true or false"),
        ({"kind": "luo", "payer": 1, "cards": 2}, "an object with kind, payer, receiver and cards"),
        ("luo", "an object with kind, payer, receiver and cards"),
    ],
)
def test_tribute_payments_that_name_no_seats_are_refused(payment: Any, needle: str) -> None:
    with pytest.raises(InvalidPayment, match=needle):
        Deal.new("qingdao", seed=1, tribute=[payment])
    with pytest.raises(InvalidPayment, match=needle):
        Deal.from_hands(dealt_hands("qingdao", 1), setup=True, seed=1, tribute=[payment])
    assert issubclass(InvalidPayment, ValueError)


def test_sound_payments_are_paid() -> None:
    deal = Deal.new("qingdao", seed=1, tribute=[{"kind": "luo", "payer": 1, "receiver": 0, "cards": 2}])
    assert deal.tribute_paid[0]["from"] == 1 and deal.tribute_paid[0]["owed"] == 2


# ---------------------------------------------------------------------------------------------- records


def _set_record(seed: int = 5) -> dict[str, Any]:
    match = Match("qingdao", seed=seed, set_length=2)
    rng = random.Random(seed)
    while not match.is_over:
        legal = match.legal_actions()
        match.act(legal[rng.randrange(len(legal))])
    return match.record()


def _tournament_record() -> dict[str, Any]:
    t = Tournament("tournament", seed=2, deals=1)
    bot = gouji.bots.make_bot("random")
    t.run_bots(bot, bot, random.Random(2))
    return t.record()


SET_RECORD = _set_record()
TOURNAMENT_RECORD = _tournament_record()


def _resigned(record: dict[str, Any], change: Any) -> dict[str, Any]:
    """A copy of ``record`` changed by ``change(copy)``, its checksum recomputed (so only the structure
    check can refuse it)."""
    body = copy.deepcopy(record)
    del body["checksum"]
    change(body)
    return sign(body)


def _setter(path: list[Any], value: Any = None, delete: bool = False) -> Any:
    def change(body: Any) -> None:
        node = body
        for key in path[:-1]:
            node = node[key]
        if delete:
            del node[path[-1]]
        else:
            node[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("path", "value", "delete", "needle"),
    [
        (["rules"], None, True, "rules: missing"),
        (["rules", "bie_san"], "no", False, "rules: bie_san: 'no' is not allowed"),
        (["rules", "decks"], 10**9, False, "rules: decks: 1000000000 is not allowed"),
        (["rules"], [], False, "rules: rules: expected an object"),
        (["seed"], [1], False, "seed: expected a whole number"),
        (["set_length"], "2", False, "set_length: expected a whole number from 1 to 20"),
        (["deals"], {}, False, "deals: expected a list of 1 to 1000 entries"),
        (["deals"], [], False, "deals: expected a list of 1 to 1000 entries"),
        (["deals", 1, "actions"], None, True, r"deals\[1\]\.actions: missing"),
        (["deals", 1, "actions", 5], [9, "pass"], False, r"deals\[1\]\.actions\[5\]: expected \[seat, action\]"),
        (["deals", 1, "actions", 5], "pass", False, r"deals\[1\]\.actions\[5\]: expected \[seat, action\]"),
        (["deals", 1, "actions", 5], [0, 1], False, r"deals\[1\]\.actions\[5\]: expected \[seat, action\]"),
        (["deals", 0, "leader"], "0", False, r"deals\[0\]\.leader: expected a seat 0-5 or null"),
        (["deals", 1, "tribute"], "none", False, r"deals\[1\]\.tribute: expected a list"),
        (["deals", 1, "tribute", 0, "payer"], 6, False, r"deals\[1\]\.tribute\[0\]\.payer: expected a seat"),
        (["deals", 0, "places"], [0, 1], False, r"deals\[0\]\.places: expected six seats"),
        (["deals", 0, "points"], ["3", 4], False, r"deals\[0\]\.points: expected \[team 0 points"),
        (["deals", 0], 7, False, r"deals\[0\]: expected an object"),
        (["totals"], None, True, "totals: missing"),
        (["totals"], [1, 2, 3], False, "totals: expected"),
    ],
)
def test_a_set_record_of_the_wrong_shape_is_refused_naming_the_field(
    path: list[Any], value: Any, delete: bool, needle: str
) -> None:
    if path[:3] == ["deals", 1, "tribute"] and not SET_RECORD["deals"][1]["tribute"]:
        pytest.skip("this record's second deal pays no tribute")  # pragma: no cover - seed 5 pays tribute
    bad = _resigned(SET_RECORD, _setter(path, value, delete))
    with pytest.raises(RecordError, match=needle):
        load_record(bad)


@pytest.mark.parametrize(
    ("path", "value", "delete", "needle"),
    [
        (["deals_in_match"], None, True, "deals_in_match: missing"),
        (["deals", 0, "tables"], [], False, r"deals\[0\]\.tables: expected two tables"),
        (["deals", 0, "tables", 1, "actions", 3], [0], False, r"deals\[0\]\.tables\[1\]\.actions\[3\]: expected"),
        (["deals", 0, "tables", 1], None, False, r"deals\[0\]\.tables\[1\]: expected an object"),
        (["teams"], ["X"], False, "teams: expected two team names"),
        (["match_points"], "3", False, "match_points: expected"),
    ],
)
def test_a_tournament_record_of_the_wrong_shape_is_refused_naming_the_field(
    path: list[Any], value: Any, delete: bool, needle: str
) -> None:
    bad = _resigned(TOURNAMENT_RECORD, _setter(path, value, delete))
    with pytest.raises(RecordError, match=needle):
        load_record(bad)


@pytest.mark.parametrize("text", ["[" * 100_000, b"\xff\xfe{", "{not json", ""])
def test_record_text_that_is_not_json_is_a_record_error(text: str | bytes) -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(text)


def test_sound_records_still_load() -> None:
    assert load_record(SET_RECORD).totals == tuple(SET_RECORD["totals"])
    assert load_record(TOURNAMENT_RECORD).totals == tuple(TOURNAMENT_RECORD["totals"])


def test_a_match_refuses_a_set_length_its_record_could_not_hold() -> None:
    for n in (0, 21, True):
        with pytest.raises(ValueError, match="set_length"):
            Match("qingdao", seed=1, set_length=n)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:8]):
            out += _paths(v, (*prefix, i))
    return out


_SET_PATHS = [p for p in _paths(SET_RECORD) if p[0] not in ("checksum", "format", "version", "kind")]
_RECORD_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-10, max_value=10),
    st.integers(),
    st.floats(),
    st.text(max_size=5),
    st.lists(st.integers(min_value=-1, max_value=7), max_size=7),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(_SET_PATHS), value=_RECORD_JUNK, delete=st.booleans())
def test_a_record_changed_anywhere_loads_or_is_refused_with_a_record_error(
    path: tuple[Any, ...], value: Any, delete: bool
) -> None:
    bad = _resigned(SET_RECORD, _setter(list(path), value, delete and isinstance(path[-1], str)))
    with contextlib.suppress(RecordError):
        load_record(bad)


# ---------------------------------------------------------------------------------------------- the CLI


def _run(args: list[str]) -> Any:
    res = CliRunner().invoke(main, args)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    return res


@pytest.mark.parametrize(
    "args",
    [
        ["sim", "--set", "--deals", "1", "--seed", "1"],
        ["tournament", "--bots", "random,random", "--deals", "1", "--seed", "1"],
    ],
)
def test_a_record_path_that_cannot_be_written_is_refused_before_the_run(tmp_path: Path, args: list[str]) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    cases = [
        ("/nonexistent/dir/x.json", "the directory /nonexistent/dir does not exist"),
        (str(tmp_path), "is a directory"),
        (str(a_file / "x.json"), "is not a directory"),
    ]
    for path, needle in cases:
        res = _run([*args, "--record", path])
        assert res.exit_code == 2, res.output
        assert "--record" in res.output and needle in res.output
        assert "Places" not in res.output and "Duplicate match" not in res.output  # nothing was played


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_record_that_fails_to_write_is_a_clear_error() -> None:
    res = _run(["sim", "--set", "--deals", "1", "--seed", "1", "--json", "--record", "/dev/full"])
    assert res.exit_code == 1
    assert "cannot store the record" in res.output


def _store(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "r.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ([], "empty list: no record to replay"),
        ("{not json", "cannot read the record"),
        ("[" * 100_000, "cannot read the record"),
        ({"a": 1}, "not a gouji record"),
        ([1], "a record is a JSON object"),
    ],
)
def test_replay_refuses_files_that_hold_no_record(tmp_path: Path, data: Any, needle: str) -> None:
    res = _run(["replay", _store(tmp_path, data)])
    assert res.exit_code == 1 and needle in res.output


def test_replay_names_the_bad_field_of_a_resigned_record(tmp_path: Path) -> None:
    bad = _resigned(SET_RECORD, _setter(["deals", 1, "actions", 5], [9, "pass"]))
    res = _run(["replay", _store(tmp_path, [SET_RECORD, bad])])
    assert res.exit_code == 1
    assert "record 2 is refused: deals[1].actions[5]: expected [seat, action]" in res.output
    bad = _resigned(SET_RECORD, _setter(["rules", "scoring"], "nope"))
    res = _run(["replay", _store(tmp_path, bad)])
    assert res.exit_code == 1 and "rules: scoring: 'nope' is not allowed" in res.output


@pytest.mark.parametrize(("deal", "needle"), [("0", "0 is not in the range"), ("3", "3 is out of range")])
def test_replay_deal_out_of_range(tmp_path: Path, deal: str, needle: str) -> None:
    path = _store(tmp_path, [SET_RECORD])
    res = _run(["replay", path, "--deal", deal])
    assert res.exit_code == 2 and "--deal" in res.output and needle in res.output
    assert "== set" not in res.output
    ok = _run(["replay", path, "--deal", "2"])
    assert ok.exit_code == 0 and "-- deal 2" in ok.output and "-- deal 1\n" not in ok.output


@pytest.mark.parametrize(
    ("command", "option", "needle"),
    [
        ("sim", "bie_san=no", "bie_san: 'no' is not allowed: expected true or false"),
        ("sim", "place_points=[1]", "place_points: [1] is not allowed: expected 6 entries"),
        ("sim", "sweep_points=10**30", "sweep_points: '10**30' is not allowed"),
        ("sim", "sweep_points=NaN", "sweep_points: nan is not allowed"),
        ("sim", "decks=1", "bie_san: True is not allowed with decks 1"),
        ("sim", "nonsense=1", "no rule option 'nonsense'"),
        ("sim", "bie_san", "give NAME=VALUE"),
        ("arena", "scoring=nope", "scoring: 'nope' is not allowed"),
        ("tournament", "yaotou_limit=-1", "yaotou_limit: -1 is not allowed"),
    ],
)
def test_cli_rule_options_are_checked(command: str, option: str, needle: str) -> None:
    extra = {"sim": [], "arena": ["--a", "random", "--b", "random"], "tournament": ["--bots", "random,random"]}
    res = _run([command, *extra[command], "--deals", "1", "--seed", "1", "--option", option])
    assert res.exit_code == 2 and "--option" in res.output and needle in res.output


def test_cli_rule_options_change_the_rules() -> None:
    res = _run(["sim", "--rules", "tongyong", "--deals", "3", "--seed", "1", "--json", "--option", "bie_san=false"])
    assert res.exit_code == 0, res.output
    changed = gouji.cli.sim.simulate(RuleSet.preset("tongyong").replace(bie_san=False), 3, 1)
    plain = gouji.cli.sim.simulate("tongyong", 3, 1)
    got = json.loads(res.output)
    assert got["seats"] == changed["seats"] != plain["seats"]
    res = _run(["sim", "--deals", "2", "--seed", "1", "--json", "--option", "scoring=tournament"])
    assert json.loads(res.output)["place_scores"] == [6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize("drop", ["rules", "seed", "hands", "leader"])
def test_a_deal_event_missing_a_key_is_a_clear_error(drop: str) -> None:
    """Replaying a log whose first event lacks a key says which, instead of a KeyError."""
    from gouji.engine.deal import Deal

    mode = "seed" if drop == "seed" else "hands"
    deal = (
        Deal.new("qingdao", seed=3)
        if mode == "seed"
        else Deal.from_hands(Deal.new("qingdao", seed=3).hands, "qingdao", leader=0)
    )
    events = [dict(e) for e in deal.events]
    if drop not in events[0]:
        pytest.skip(f"a {mode} deal event has no {drop!r}")
    del events[0][drop]
    with pytest.raises(ValueError, match=repr(drop)):
        Deal.replay(events)
    events[0] = {**deal.events[0], "rules": ["not", "an", "object"]}
    with pytest.raises(ValueError, match="'rules' must be an object"):
        Deal.replay(events)
