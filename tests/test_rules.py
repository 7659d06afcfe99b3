"""Rule sets and the presets of rule book §14 (and §16.3's ``shandong``)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

import gouji
from gouji import PRESETS, RuleSet, UnknownRules, resolve
from gouji.engine import cards as C

TABLE_ORDER = (
    "qingdao", "tournament", "tongyong", "changyi", "zoucheng", "zhangqiu", "zaozhuang", "heze", "shandong"
)  # fmt: skip

THREES_FOURS = (("3", 10), ("4", 10))

# The common table of rule book §14, row by row.  A "—" of the table (tournament's 开点 rows) is left out here.
# Its row kaidian_allows_money is the option kaidian_plays, each preset reading its own seed: "money" for
# heze (the table's yes), "any" for zaozhuang (001 枣庄 (6): 自己打出的够级牌无人接牌 … 则该玩家开点), else "pure".
# fmt: off
TABLE: dict[str, dict[str, Any]] = {
    "qingdao": dict(
        source="001 青岛, 000 大纲", decks=4, removed=(), bie_san=True, buy_four=False, big_joker_kill=False,
        kaidian_needs_four=True, kaidian_plays="pure", kaidian_until_out=2, burn_needs_kaidian=False,
        burn_before_first_out=False, luanchan_at=4, revolution=True, xuandian=True, tribute=True,
        show_counts="always", scoring="set",
    ),
    "tournament": dict(
        source="000 比赛规则", decks=4, removed=(), bie_san=False, buy_four=False, big_joker_kill=False,
        burn_needs_kaidian=False, burn_before_first_out=False, luanchan_at=4, revolution=False, xuandian=False,
        tribute=False, show_counts="at_or_below_10", scoring="tournament",
        return_held_ranks_only=False, first_leader="random",  # §16's options: "—", so off
    ),
    "tongyong": dict(
        source="003 通用规则", decks=4, removed=(("3", 10), ("4", 8)), bie_san=True, buy_four=True,
        big_joker_kill=True, kaidian_needs_four=True, kaidian_plays="pure", kaidian_until_out=2,
        burn_needs_kaidian=True, burn_before_first_out=False, luanchan_at=4, revolution=True, xuandian=True,
        tribute=True, show_counts="at_or_below_10", scoring="set",
    ),
    "changyi": dict(
        source="001 昌邑", decks=4, removed=THREES_FOURS, bie_san=True, buy_four=False, big_joker_kill=False,
        kaidian_needs_four=True, kaidian_four_single=False, kaidian_plays="pure", kaidian_until_out=2,
        burn_needs_kaidian=True, burn_before_first_out=False, luanchan_at=4, revolution=True, xuandian=True,
        tribute=True, show_counts="always", scoring="set",
    ),
    "zoucheng": dict(
        source="001 邹城", decks=4, removed=THREES_FOURS, bie_san=True, buy_four=False, big_joker_kill=False,
        kaidian_needs_four=False, kaidian_plays="pure", kaidian_until_out=2, burn_needs_kaidian=False,
        burn_before_first_out=False, luanchan_at=4, revolution=True, xuandian=True, tribute=True,
        show_counts="never", scoring="set",
    ),
    "zhangqiu": dict(
        source="001 章丘", decks=4, removed=THREES_FOURS, bie_san=True, buy_four=True, big_joker_kill=False,
        kaidian_needs_four=True, kaidian_four_single=True, kaidian_plays="pure", kaidian_until_out=1,
        burn_needs_kaidian=False, burn_before_first_out=True, luanchan_at=5, revolution=True, xuandian=True,
        tribute=True, no_return=True, kanggong=True, show_counts="never", scoring="set",
    ),
    "zaozhuang": dict(
        source="001 枣庄", decks=6, removed=(), bie_san=True, buy_four=False, big_joker_kill=False,
        kaidian_needs_four=False, kaidian_plays="any", kaidian_until_out=2, burn_needs_kaidian=False,
        burn_before_first_out=False, luanchan_at=4, revolution=True, xuandian=True, tribute=True,
        show_counts="always", scoring="set",
    ),
    "heze": dict(
        source="001 菏泽", decks=4, removed=THREES_FOURS, bie_san=True, buy_four=True, buy_four_optional=True,
        big_joker_kill=False, kaidian_needs_four=False, kaidian_plays="money", kaidian_until_out=2,
        burn_needs_kaidian=False, burn_before_first_out=False, luanchan_at=4, revolution=False, xuandian=False,
        tribute=False, show_counts="never", scoring="set",
    ),
    # rule book §16.3 (000 够级大纲-山东地区)
    "shandong": dict(
        source="000 够级大纲-山东地区", decks=4, removed=(("3", 10), ("4", 2)), bie_san=True, no_three="last",
        buy_order="teammates_first", kaidian_needs_four=True, fours_whole=True, kaidian_plays="pure",
        smother_by="opposite_only", lao_to_teammate="returnable", sweep_keeps_point_tribute=True,
        tribute_order=("dian", "men", "shao", "luo"), xuandian=True, tribute=True, set_length=5,
        revolution=True, big_joker_kill=False, chongdian=True, self_open=True, buy_four=False,
        return_held_ranks_only=False, first_leader="random", scoring="set",
    ),
}
# fmt: on

# The two rows of §14 for §16's options: buy_order, and the regional options each preset turns on.
REGIONAL_OFF: dict[str, Any] = {
    "buy_order": "opposite_first", "return_held_ranks_only": False, "first_leader": "random",
    "open_when_opposite_smothered": False, "huiwu": False, "failed_burn_third": "sike",
}  # fmt: skip
REGIONAL_ON: dict[str, dict[str, Any]] = {
    "qingdao": {"return_held_ranks_only": True, "first_leader": "liang_san"},
    "tongyong": {"buy_order": "teammates_second"},
    "zoucheng": {"open_when_opposite_smothered": True},
    "zhangqiu": {"huiwu": True},
    "zaozhuang": {"failed_burn_third": "sanke"},
}
for _name, _row in TABLE.items():
    if _name not in ("tournament", "shandong"):
        _row.update(REGIONAL_OFF | REGIONAL_ON.get(_name, {}))

ELSEWHERE: dict[str, dict[str, Any]] = {
    "tournament": {"set_length": 4},  # section 13: "after 4 deals"
    "zhangqiu": {  # section 9 (no_three_free [001 章丘]) and section 12 (order, sweep)
        "no_three": "free",
        "tribute_order": ("dian", "shao", "men", "luo"),
        "sweep_tribute": "losers_pay",
    },
}
"""Preset values the rule book gives outside the §14 table."""

DEVIATIONS: dict[tuple[str, str], tuple[Any, str]] = {
    ("tongyong", "four_forfeits_kaidian"): (True, "003 通用: 提前发4不算开点"),
    ("tongyong", "burn_after_four_forfeit"): (True, "003 通用: 先发4认不开点后才能烧牌"),
    ("changyi", "four_forfeits_kaidian"): (True, "001 昌邑: 没开点直接出4，算放弃开点"),
    ("heze", "no_three"): ("free", "001 菏泽: 没有钱、大花、小花，则无偿获得3"),
    ("heze", "buy_with_highest"): (True, "001 菏泽: 没大王用最大牌"),
    ("shandong", "opposite_counter_burn"): (True, "000 山东地区: 如果被对家反稍则进对家两倍的贡"),
    ("shandong", "tribute_cards"): ("highest", "000 山东地区: 大拉贡进两颗最大的"),
    ("zaozhuang", "gousiji"): (True, "001 枣庄 (7): 不憋三的话"),
}
"""Options the engine sets for a preset though the rule book names them for no preset (§14 says unlisted
options take the qingdao value).  Each is backed by the seed quoted and documented in docs/rules.md."""


DECK_SIZES = {
    "qingdao": 216,
    "tournament": 216,
    "tongyong": 198,
    "changyi": 196,
    "zoucheng": 196,
    "zhangqiu": 196,
    "zaozhuang": 324,
    "heze": 196,
    "shandong": 204,
}

OPTIONS = [f.name for f in dataclasses.fields(RuleSet) if f.name not in ("name", "extra")]


def expected(name: str) -> dict[str, Any]:
    return TABLE[name] | ELSEWHERE.get(name, {})


def test_presets_are_the_nine_of_section_14_and_16() -> None:
    assert PRESETS == TABLE_ORDER
    assert gouji.PRESETS is PRESETS
    for name in PRESETS:
        preset = RuleSet.preset(name)
        assert preset.name == name
        assert resolve(name) is preset


@pytest.mark.parametrize("name", TABLE_ORDER)
def test_preset_matches_the_table(name: str) -> None:
    preset = RuleSet.preset(name)
    got = {option: getattr(preset, option) for option in expected(name)}
    assert got == expected(name)


@pytest.mark.parametrize("name", TABLE_ORDER)
def test_unlisted_options_are_qingdaos(name: str) -> None:
    qingdao, preset = RuleSet.preset("qingdao"), RuleSet.preset(name)
    for option in OPTIONS:
        if option in expected(name):
            continue
        if (name, option) in DEVIATIONS:
            assert getattr(preset, option) == DEVIATIONS[name, option][0]
            continue
        assert getattr(preset, option) == getattr(qingdao, option), option


@pytest.mark.parametrize(("name", "option"), list(DEVIATIONS))
def test_preset_deviations_are_documented(name: str, option: str) -> None:
    """Every option a preset sets beyond the rule book's table is explained, with its seed, in docs/rules.md."""
    doc = (Path(__file__).parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    value, seed = DEVIATIONS[name, option]
    assert getattr(RuleSet.preset(name), option) == value
    rows = [line for line in doc.splitlines() if f"`{name}`" in line and f"`{option}`" in line]
    assert rows, f"docs/rules.md does not explain {name}.{option}"
    assert any(seed.split(": ")[0] in row for row in rows), f"docs/rules.md gives no seed for {name}.{option}"


def test_kaidian_four_single_only_in_zhangqiu() -> None:
    assert [n for n in PRESETS if RuleSet.preset(n).kaidian_four_single] == ["zhangqiu"]
    readings = {n: RuleSet.preset(n).kaidian_plays for n in PRESETS}
    assert {n: r for n, r in readings.items() if r != "pure"} == {"heze": "money", "zaozhuang": "any"}
    assert [n for n in PRESETS if RuleSet.preset(n).big_joker_kill] == ["tongyong"]


@pytest.mark.parametrize("name", TABLE_ORDER)
def test_preset_deck(name: str) -> None:
    preset = RuleSet.preset(name)
    size = DECK_SIZES[name]
    assert preset.deck_size == size
    deck = C.build_deck(preset.decks, preset.removed_counts)
    assert C.total(deck) == size
    assert preset.removed_counts == {C.RANKS.index(r): n for r, n in TABLE[name]["removed"]}
    hands = C.deal_hands(deck, 6, 0, random.Random(3))
    base, extra = divmod(size, 6)
    assert [C.total(h) for h in hands] == [base + (i < extra) for i in range(6)]


def test_dealt_hand_sizes_of_section_14() -> None:
    sizes = {}
    for name in PRESETS:
        preset = RuleSet.preset(name)
        deck = C.build_deck(preset.decks, preset.removed_counts)
        sizes[name] = [C.total(h) for h in C.deal_hands(deck, 6, 0, random.Random(0))]
    assert sizes["qingdao"] == [36] * 6
    assert sizes["zaozhuang"] == [54] * 6
    assert sizes["tongyong"] == [33] * 6
    assert sizes["zoucheng"] == sizes["heze"] == [33, 33, 33, 33, 32, 32]


def test_replace_makes_a_variant_and_leaves_the_preset() -> None:
    preset = RuleSet.preset("tongyong")
    variant = preset.replace(bie_san=False)
    assert variant.bie_san is False and preset.bie_san is True
    assert RuleSet.preset("tongyong").bie_san is True
    assert variant != preset
    for option in OPTIONS:
        if option != "bie_san":
            assert getattr(variant, option) == getattr(preset, option), option
    assert RuleSet.preset("tongyong") == preset.replace()
    with pytest.raises(dataclasses.FrozenInstanceError):
        preset.bie_san = False  # type: ignore[misc]


def test_replace_refuses_unknown_options() -> None:
    with pytest.raises(UnknownRules, match="nonsense"):
        RuleSet.preset("qingdao").replace(nonsense=1)
    with pytest.raises(ValueError):
        RuleSet.preset("qingdao").replace(bie_san=False, nonsense=1)
    assert RuleSet.preset("qingdao").bie_san is True


def test_unknown_preset_names_the_presets() -> None:
    with pytest.raises(UnknownRules) as info:
        RuleSet.preset("beijing")
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert "beijing" in message
    for name in PRESETS:
        assert name in message
    with pytest.raises(UnknownRules):
        resolve("beijing")


def test_resolve() -> None:
    assert resolve(None) is RuleSet.preset("qingdao")
    variant = RuleSet.preset("heze").replace(luanchan_at=5)
    assert resolve(variant) is variant
    with pytest.raises(UnknownRules):
        resolve(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", TABLE_ORDER)
def test_to_dict_round_trips(name: str) -> None:
    preset = RuleSet.preset(name)
    data = preset.to_dict()
    assert set(data) == {f.name for f in dataclasses.fields(RuleSet)} - {"extra"}
    assert RuleSet.from_dict(data) == preset
    text = json.dumps(data, ensure_ascii=False)
    again = RuleSet.from_dict(json.loads(text))
    assert again == preset
    assert again.to_dict() == data
    assert again.deck_size == preset.deck_size and again.removed_counts == preset.removed_counts


def test_to_dict_of_a_variant_round_trips() -> None:
    variant = RuleSet.preset("zhangqiu").replace(bie_san=False, place_points=(5, 3, 1, -1, -3, -5))
    assert RuleSet.from_dict(json.loads(json.dumps(variant.to_dict()))) == variant


def test_from_dict_refuses_unknown_options() -> None:
    data = RuleSet.preset("qingdao").to_dict() | {"nonsense": 1}
    with pytest.raises(UnknownRules, match="nonsense"):
        RuleSet.from_dict(data)


def test_removed_is_normalised() -> None:
    rules = RuleSet(removed={"10": 2, "4": 10, "3": 10})  # type: ignore[arg-type]
    assert rules.removed == (("3", 10), ("4", 10), ("T", 2))
    assert rules.deck_size == 216 - 22
    assert rules.removed_counts == {0: 10, 1: 10, 7: 2}


@pytest.mark.parametrize(
    "options",
    [
        {"decks": 0},
        {"luanchan_at": 7},
        {"luanchan_at": 1},
        {"removed": (("Z", 1),)},
        {"removed": (("3", -1),)},
        {"tribute_order": ("men", "gift")},
        {"show_counts": "sometimes"},
    ],
)
def test_invalid_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(UnknownRules):
        RuleSet(**options)


def test_a_seats_standing_to_burn_and_to_open_is_stated_once_by_the_rule_set() -> None:
    """RuleSet.burner_standing and may_still_open: what the engine's burn offers, 反稍 and 开点 and the
    heuristic's guesses all ask, each option of §6 and §8 flipping the answer."""
    plain = RuleSet.preset("qingdao")
    assert plain.burner_standing(False, False, True), "qingdao: anyone may burn, also after someone is out"
    early = plain.replace(burn_before_first_out=True)
    assert early.burner_standing(False, False, False) and not early.burner_standing(True, False, True)
    needs = plain.replace(burn_needs_kaidian=True)
    assert not needs.burner_standing(False, False, False) and needs.burner_standing(True, False, False)
    assert not needs.burner_standing(False, True, False), "a 4's forfeit does not count unless the rule says"
    assert needs.replace(burn_after_four_forfeit=True).burner_standing(False, True, False)
    assert plain.may_still_open(False, False, False, plain.kaidian_until_out - 1)
    assert not plain.may_still_open(False, False, False, plain.kaidian_until_out)
    for opened, forfeited, ffa in ((True, False, False), (False, True, False), (False, False, True)):
        assert not plain.may_still_open(opened, forfeited, ffa, 0)
