"""What every rule option means, in English and Chinese, and the rule book's two generated tables.

:data:`OPTION_DOCS` holds one line per :class:`~gouji.engine.rules.RuleSet` field, English and Chinese;
:data:`VALUE_DOCS` explains each value of the options that take one of a few words; :data:`OPTION_SECTIONS`
names the rule book section of each option.  ``gouji rules PRESET`` and the rule book (``docs/rulebook.md``,
``docs/rulebook.zh.md``) both read them, so the two never disagree.

The rule book's tables "every preset side by side" and "every option" are generated here.  After changing an
option, a preset or a line below, rewrite them with::

    python -m gouji.engine.ruledocs            # rewrites the tables in docs/rulebook.md and docs/rulebook.zh.md
    python -m gouji.engine.ruledocs --check    # exit status 1 (and the names of the books) when a table is stale
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from .rules import PRESETS, RuleSet

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")

META_FIELDS = ("name", "source", "extra")
"""RuleSet fields that describe a rule set rather than change a rule: not rows of the tables."""

OPTION_DOCS: dict[str, tuple[str, str]] = {
    # what a rule set is
    "name": ("The preset this rule set is, or was derived from.", "规则集的名称：哪个预设，或由哪个预设改来。"),
    "source": ("The regional rules the preset follows.", "预设依据的地方规则。"),
    "extra": (
        "Free data for tools built on the engine; no rule reads it.",
        "留给外部工具的附加数据，不影响任何规则。",
    ),
    # 2. cards
    "decks": ("How many full 54-card decks are shuffled together.", "用几副完整的扑克牌（每副 54 张）。"),
    "removed": (
        "Cards taken out of the deck before dealing, e.g. ten 3s and ten 4s.",
        "发牌前从牌里拿掉的牌，例如去掉十张 3、十张 4。",
    ),
    # 4. beating
    "big_joker_kill": (
        "大王二杀一, 三小灭一大: two big jokers, or three small ones, beat one big joker.",
        "大王二杀一、三小灭一大：两张大王或三张小王可以管一张大王。",
    ),
    "three_small_kill": (
        "With big_joker_kill: three small jokers beat a big one too (三小灭一大); off, only two big jokers do.",
        "配合大王二杀一：三张小王也能管一张大王（三小灭一大）；关掉则只有俩大王打一大王。",
    ),
    # 5.4 free-for-all
    "luanchan_at": (
        "The free-for-all (四户乱缠) starts when only this many players are left in play.",
        "场上只剩这么多人时开始“四户乱缠”（章丘为五户乱缠）。",
    ),
    # 6. burning
    "burn_needs_kaidian": ("Only a player who has opened the point may burn.", "必须先开点才能烧牌。"),
    "burn_after_four_forfeit": (
        "With burn_needs_kaidian: a player who gave up the opening by playing a 4 may burn too.",
        "先发 4 认不开点的人也可以烧牌（配合“开点才能烧”）。",
    ),
    "burn_before_first_out": ("No burning once anyone has gone out.", "有人走科之后不能再烧牌。"),
    # 7. 憋三
    "bie_san": (
        "憋三: 3s are played only as a player's last play; a player left with only 3s can be smothered (闷).",
        "憋三：3 只能最后一手出；手里只剩 3 时上一手被管就是被闷。",
    ),
    # 8. 开点 and 宣点
    "kaidian_needs_four": (
        "开点发4: an opening counts only when the opener's next lead is 4s.",
        "开点发 4：够级牌站住后，下一手要出 4 才算开点。",
    ),
    "kaidian_four_single": (
        "With kaidian_needs_four: that lead must be exactly one 4.",
        "开点发 4 时必须出单张 4。",
    ),
    "four_forfeits_kaidian": (
        "With kaidian_needs_four: playing 4s at any other moment gives up opening for the deal.",
        "没开点就先出 4，算放弃本局开点。",
    ),
    "kaidian_plays": (
        "Which gouji plays open the point when they stand.",
        "哪些够级牌站住了算开点。",
    ),
    "kaidian_until_out": (
        "Nobody can open the point once this many players have gone out.",
        "走科的人数到了这个数，就谁也不能再开点。",
    ),
    "xuandian": (
        "宣点: before play a player may declare that their 对头 will not open the point.",
        "宣点：出牌前可以宣布对头开不了点。",
    ),
    # 9. buying
    "buy_four": ("买四: every player must hold a 4, bought like the 3s.", "买四：每人都要有 4，没有就像买三一样买。"),
    "buy_four_optional": ("A player without a 4 may decline to buy one.", "没有 4 的人可以不买。"),
    "buy_with_highest": (
        "A buyer with no 2 and no joker pays their highest card for a 3 or 4 (菏泽).",
        "没钱没花的人用手里最大的牌买 3（4）（菏泽：没大王用最大牌）。",
    ),
    "no_three": (
        "What becomes of a player who can get no 3 and holds no 2 and no joker.",
        "没有 3、又没钱没花、也要不到 3 的人怎么办。",
    ),
    # 10. revolution
    "revolution": (
        "革命: a player with no joker and no 2 may lay down their hand; two revolutions void the deal.",
        "革命：没有王也没有 2 的人可以扔牌不打；两人革命则流局。",
    ),
    "yaotou_limit": (
        "要头: how many gouji plays of the revolutionary's 对头 stay protected.",
        "要头后，革命者对头的前几手够级牌受保护（只能烧，不能管）。",
    ),
    # 11. counts
    "show_counts": ("报牌: when the other players' card counts are shown.", "报牌：什么时候能看到别人手里的张数。"),
    # 12. tribute
    "tribute": (
        "进贡: each deal of a set pays the tribute owed from the deal before.",
        "进贡：一圈里每局要进上局欠的贡。",
    ),
    "set_length": ("Deals in a set (the first pays no tribute).", "一圈打几局（第一局不进贡）。"),
    "tribute_order": ("The order the kinds of tribute are paid in.", "几种贡的进贡顺序。"),
    "tribute_cards": ("Which cards a tribute is paid with.", "进贡进哪些牌。"),
    "no_return": ("No 还贡: the receivers of 落贡 give nothing back.", "不还贡：吃落贡的人不用还牌。"),
    "kanggong": (
        "抗贡: four big jokers pay no tribute for the whole team; four small jokers, none for oneself.",
        "抗贡：抓到四个大王全伙不进贡，四个小王自己不进贡。",
    ),
    "sweep_tribute": ("Who pays what after a sweep (串三户).", "串三户（被圈）之后怎么进贡。"),
    # 13. scoring
    "scoring": ("How deals are scored.", "怎么计分。"),
    "place_points": (
        "Points for 头科, 二科, 三科, 四科, 二落, 大落 under set scoring.",
        "头科、二科、三科、四科、二落、大落各得几分。",
    ),
    "sweep_points": ("Points per team member for a sweep, won or lost.", "串三户时每人得（失）几分。"),
    "base_points": (
        "基础分, the stake: every point of set scoring is multiplied by it (章丘).",
        "基础分：计分时每个名次分、串三户分都乘以它（章丘：得分=本队走科分数之和×基础分）。",
    ),
    # 16.1 play
    "burn_priority": ("Who burns first when several seats want to.", "几个人同时要烧时，谁先烧。"),
    "smother_by": ("Whose beat smothers (闷) a player left with only 3s.", "被谁管住才算被闷。"),
    "opposite_counter_burn": (
        "反稍 by the 对家: the burner's 对头 may counter-burn instead of breaking the burn, for a double 烧贡.",
        "对家反稍：烧牌者的对头可以反烧而不只是解烧，反烧成功吃双倍烧贡。",
    ),
    "smothered_keeps_head": (
        "憋三留头: a smothered player still counts as there, so their 对头 is not 无头.",
        "憋三留头：被闷的人不算走人，其对头不算无头。",
    ),
    "open_when_opposite_smothered": (
        "A player whose 对头 was smothered may still open the point (anyone may answer their gouji plays).",
        "对家被闷时仍可开点（此时其够级牌谁都可以管）。",
    ),
    "fours_whole": (
        "4不拆不挂: 4s are played all together, with nothing attached.",
        "4 不拆不挂：4 要一起出，不能贴钱挂花。",
    ),
    "failed_burn_third": ("The place of the third failed burn of a deal.", "一局里第三个烧牌失败的人算第几。"),
    "gousiji": (
        "够死级: without 憋三, when 头科 or 二科 goes out on a gouji play that their 对头 beats, only a burn may "
        "answer that 对头's play.",
        "够死级：不憋三时，头科或二科用够级牌走科被对头管住，对头这手牌只能被烧。",
    ),
    "first_leader": ("How the first leader (上班) of a match is chosen.", "第一局谁上班（先出牌）。"),
    # 16.2 setup and tribute
    "buy_order": (
        "Where a player without a 3 (or 4) gets one, in what order.",
        "没有 3（4）时向谁买、向谁要，先后顺序。",
    ),
    "return_held_ranks_only": (
        "还贡 cards must be of a rank the payer of the 落贡 still holds.",
        "还贡只能还进贡者手里有的点数。",
    ),
    "mutual_point_tribute": (
        "换点: when neither of a 对头 pair declared or opened, whether they swap one card each way.",
        "换点：对家都没宣点也都没开点时，互进的一张点贡进不进。",
    ),
    "huiwu": (
        "汇5: after a sweep, each loser may throw away all the 5s of their next hand.",
        "汇 5：被圈的一方下一局可以把手里的 5 全扔掉。",
    ),
    "sweep_restart_leader": (
        "After a sweep the next deal is led by the seat after the last first leader, not by the 大落.",
        "串三户后重新开牌，由上次首开牌人的下家先出，而不是大落。",
    ),
    # 16.3 the shandong preset
    "lao_to_teammate": (
        "落贡 owed to a teammate: waived, or paid and returnable.",
        "落贡进给自己同伙时：免了，还是进了可以退。",
    ),
    "sweep_keeps_point_tribute": (
        "After a sweep 点贡 is still paid both ways (闷贡 and 烧贡 are waived).",
        "被圈时点贡照进（闷贡、烧贡免）。",
    ),
    "chongdian": (
        "冲点: a player with no joker and no 2 may try to open with three gouji plays in a row.",
        "冲点：一个王一个 2 都没有时，可以请求连出三把够级牌冲点。",
    ),
    "self_open": (
        "无级自开: a player without a single gouji play may show their hand to their 对头 and open with a 4.",
        "无级自开：一套够级牌都没有时，给对家看牌后出 4 自开。",
    ),
}
"""One line per RuleSet field: (English, Chinese)."""

VALUE_DOCS: dict[str, dict[str, tuple[str, str]]] = {
    "no_three": {
        "revolt": ("they revolt (革命) automatically", "自动革命"),
        "free": ("someone gives them a 3 for nothing", "白给一张 3"),
        "last": ("they are ranked 大落 at once (大拉) and sit out", "直接算大落（大拉），不参加本局"),
    },
    "show_counts": {
        "always": ("always", "一直显示"),
        "at_or_below_10": ("once a player holds 10 cards or fewer", "剩 10 张及以下时报牌"),
        "never": ("never", "从不显示"),
    },
    "sweep_tribute": {
        "opposite": (
            "each sweeper takes one card from their 对头; all other tribute is waived",
            "赢方每人吃对头一张贡，其余全免",
        ),
        "losers_pay": ("each loser pays one 落贡; 点贡 is still paid", "输方每人进一张落贡，点贡照进"),
    },
    "scoring": {
        "set": ("place_points per player, sweep_points for a sweep", "按名次计分，串三户另计"),
        "tournament": ("比赛规则: 6, 5, 4, 3, 2, 1 small points per place", "比赛规则：名次得 6、5、4、3、2、1 小分"),
    },
    "tribute_order": {
        "men": ("闷贡", "闷贡"),
        "shao": ("烧贡", "烧贡"),
        "dian": ("点贡", "点贡"),
        "luo": ("落贡", "落贡"),
    },
    "burn_priority": {
        "team_first": ("the gouji player's own team first (联邦烧牌优先)", "够级者的联邦先烧"),
        "turn_order": ("in turn order from the gouji player (顺烧)", "按出牌顺序顺烧，谁在前谁先烧"),
    },
    "smother_by": {
        "anyone": ("anyone", "谁管都算"),
        "not_opposite": ("anyone but the player's own 对头 (对家无闷)", "对家管不算（对家无闷）"),
        "opposite_only": ("only the player's own 对头", "只有对家管才算"),
    },
    "failed_burn_third": {
        "sike": ("四科, like any third penalty", "四科"),
        "sanke": ("三科 (枣庄: 大落, 二落, 三科)", "三科（枣庄：依次大落、二落、三科）"),
    },
    "first_leader": {
        "random": ("a seat drawn at random", "随机一家"),
        "liang_san": ("亮3 and 顶班: the most 3s of one suit", "亮 3、顶班：同花色 3 最多者上班"),
    },
    "buy_order": {
        "opposite_first": (
            "buy from the 对头, then from the 对头's teammates; failing that a teammate gives one",
            "先向对家买，再向对家的同伙买，都买不到再向同伙要",
        ),
        "teammates_second": (
            "buy from the 对头, then a teammate gives one, then buy from the 上家 or 下家",
            "先向对家买，再由联邦送，再向上家或下家买",
        ),
        "teammates_first": (
            "a teammate gives one, then buy from the 对头 and the 对头's teammates",
            "先由同伙送，再向对家和对家的同伙买",
        ),
    },
    "kaidian_plays": {
        "pure": ("pure gouji plays only (纯够级: no 2 attached, no joker)", "只有纯够级牌（不贴钱、不挂花）"),
        "money": (
            "pure ones, those with 2s attached and 2s alone; never one with a joker (菏泽)",
            "纯够级、纯够级加 2、纯 2 都开点，挂花的不开（菏泽）",
        ),
        "no_jokers_no_single_two": (
            "every gouji play but those holding a joker and a single 2 (000 其他规则)",
            "除了带王（挂花）的牌和单张 2，够级牌都开点（000 其他规则）",
        ),
        "any": ("every gouji play, jokers too (枣庄)", "任何够级牌都开点，挂花的也算（枣庄）"),
    },
    "mutual_point_tribute": {
        "pay": ("they swap one card each way", "互进一张"),
        "waive": ("they swap nothing", "都不进"),
        "agree": (
            "each deal, the two are asked before tribute and swap only if both agree",
            "每局进贡前问两人，两人都同意才互进",
        ),
    },
    "tribute_cards": {
        "money": (
            "the payer's highest jokers and 2s; a payer with none pays nothing",
            "进手里最大的王和 2；没有王也没有 2 就不进",
        ),
        "highest": ("the payer's highest cards, whatever they are", "进手里最大的牌，不论是什么牌"),
    },
    "lao_to_teammate": {
        "none": ("no 落贡 between teammates", "同伙之间不进落贡"),
        "returnable": ("paid, and the teammate may hand it back (退贡)", "照进，同伙可以退贡"),
    },
}
"""For each option that takes one of a few words: each word → (English, Chinese)."""

OPTION_SECTIONS: dict[str, str] = {
    "decks": "2",
    "removed": "2",
    "big_joker_kill": "4",
    "three_small_kill": "4",
    "luanchan_at": "5.4",
    "burn_needs_kaidian": "6",
    "burn_after_four_forfeit": "6",
    "burn_before_first_out": "6",
    "bie_san": "7",
    "kaidian_needs_four": "8.1",
    "kaidian_four_single": "8.1",
    "four_forfeits_kaidian": "8.1",
    "kaidian_plays": "8.1",
    "kaidian_until_out": "8.1",
    "xuandian": "8.2",
    "buy_four": "9",
    "buy_four_optional": "9",
    "buy_with_highest": "9",
    "no_three": "9",
    "revolution": "10",
    "yaotou_limit": "10",
    "show_counts": "11",
    "tribute": "12",
    "set_length": "12",
    "tribute_order": "12",
    "tribute_cards": "12",
    "no_return": "12",
    "kanggong": "12",
    "sweep_tribute": "12",
    "scoring": "13",
    "place_points": "13",
    "sweep_points": "13",
    "base_points": "13",
    "burn_priority": "16.1",
    "smother_by": "16.1",
    "opposite_counter_burn": "16.1",
    "smothered_keeps_head": "16.1",
    "open_when_opposite_smothered": "16.1",
    "fours_whole": "16.1",
    "failed_burn_third": "16.1",
    "gousiji": "16.1",
    "first_leader": "16.1",
    "buy_order": "16.2",
    "return_held_ranks_only": "16.2",
    "mutual_point_tribute": "16.2",
    "huiwu": "16.2",
    "sweep_restart_leader": "16.2",
    "lao_to_teammate": "16.3",
    "sweep_keeps_point_tribute": "16.3",
    "chongdian": "16.3",
    "self_open": "16.3",
}
"""The rule book section (§) that describes each option."""

PRESET_NAMES_ZH: dict[str, str] = {
    "qingdao": "青岛",
    "tournament": "比赛规则",
    "tongyong": "通用规则",
    "changyi": "昌邑",
    "zoucheng": "邹城",
    "zhangqiu": "章丘",
    "zaozhuang": "枣庄",
    "heze": "菏泽",
    "shandong": "山东地区",
}
"""The Chinese name of each preset."""

_HEAD: dict[str, tuple[str, str]] = {
    "option": ("option", "选项"),
    "section": ("§", "§"),
    "meaning": ("what it does", "含义"),
    "values": ("values (default first)", "取值（第一个为默认）"),
    "default": ("default", "默认"),
    "source": ("follows", "依据"),
    "cards": ("cards dealt", "总张数"),
    "each": ("each", "每人"),
    "yes": ("yes", "是"),
    "no": ("no", "否"),
    "none": ("none", "无"),
}

BEGIN = "<!-- generated by `python -m gouji.engine.ruledocs`: {} -->"
END = "<!-- end of generated {} -->"
BOOKS: dict[Lang, str] = {"en": "docs/rulebook.md", "zh": "docs/rulebook.zh.md"}
"""Where the rule book lives, relative to the repository's root."""


def _t(key: str, lang: Lang) -> str:
    en, zh = _HEAD[key]
    return en if lang == "en" else zh


def option_names() -> list[str]:
    """The RuleSet options in declaration order, without the fields of :data:`META_FIELDS`."""
    return [f.name for f in dataclasses.fields(RuleSet) if f.name not in META_FIELDS]


def explain(name: str, lang: Lang = "en") -> str:
    """The one-line explanation of option ``name``; ``KeyError`` for an unknown name."""
    en, zh = OPTION_DOCS[name]
    return en if lang == "en" else zh


def explain_value(name: str, value: Any, lang: Lang = "en") -> str | None:
    """What ``value`` of option ``name`` means, for the options of :data:`VALUE_DOCS`; else None."""
    words = VALUE_DOCS.get(name, {})
    if isinstance(value, str) and value in words:
        en, zh = words[value]
        return en if lang == "en" else zh
    return None


def literal_values(name: str) -> tuple[str, ...] | None:
    """The words a RuleSet option may take when its type is a ``Literal`` of strings (or a tuple of them)."""
    hint = typing.get_type_hints(RuleSet).get(name)
    while hint is not None and typing.get_origin(hint) is tuple:
        hint = typing.get_args(hint)[0]
    if hint is not None and typing.get_origin(hint) is Literal:
        args = typing.get_args(hint)
        if all(isinstance(a, str) for a in args):
            return tuple(str(a) for a in args)
    return None


def markdown_value(name: str, value: Any, lang: Lang = "en") -> str:
    """An option's value in a Markdown table cell: yes/no, ``3×10 4×10`` for removed cards, words in code."""
    if isinstance(value, bool):
        return _t("yes" if value else "no", lang)
    if name == "removed":
        return " ".join(f"{rank}×{n}" for rank, n in value) or _t("none", lang)
    if isinstance(value, tuple):
        return " ".join(f"`{v}`" if isinstance(v, str) else str(v) for v in value)
    if isinstance(value, str):
        return f"`{value}`"
    return str(value)


def describe(rules: RuleSet, lang: Lang = "en") -> list[tuple[str, Any, str]]:
    """Each option of ``rules`` as (name, value, explanation): the option's line, and for a word-valued option
    what its value means — what ``gouji rules PRESET`` prints."""
    lines = []
    for name in option_names():
        value = getattr(rules, name)
        text = explain(name, lang)
        meaning = explain_value(name, value, lang)
        if meaning:
            text += (" — " if lang == "en" else "——") + meaning
        lines.append((name, value, text))
    return lines


def _cards(rules: RuleSet, lang: Lang) -> str:
    """The cards dealt and the hand sizes: ``216 (36 each)``, ``196 (32–33 each)``."""
    low, high = rules.deck_size // 6, -(-rules.deck_size // 6)
    return f"{rules.deck_size} ({low if low == high else f'{low}–{high}'} {_t('each', lang)})"


def presets_markdown(lang: Lang = "en", presets: Sequence[str] = PRESETS) -> str:
    """Every preset side by side as a Markdown table; a value that differs from ``qingdao`` is in bold."""
    rule_sets = [RuleSet.preset(p) for p in presets]
    base = RuleSet.preset("qingdao")
    if lang == "en":
        heads = [f"`{p.name}`" for p in rule_sets]
    else:
        heads = [f"{PRESET_NAMES_ZH.get(p.name, p.name)} `{p.name}`" for p in rule_sets]
    rows = [
        "| " + " | ".join([_t("option", lang), *heads]) + " |",
        "|" + "---|" * (len(heads) + 1),
        "| " + " | ".join([_t("source", lang), *(p.source for p in rule_sets)]) + " |",
        "| " + " | ".join([_t("cards", lang), *(_cards(p, lang) for p in rule_sets)]) + " |",
    ]
    for name in option_names():
        cells = []
        for p in rule_sets:
            value = getattr(p, name)
            text = markdown_value(name, value, lang)
            cells.append(f"**{text}**" if value != getattr(base, name) else text)
        rows.append("| " + " | ".join([f"`{name}`", *cells]) + " |")
    return "\n".join(rows) + "\n"


def options_markdown(lang: Lang = "en") -> str:
    """Every option as a Markdown table: its name, rule book section, meaning, and values with the default."""
    default = RuleSet()
    rows = [
        "| " + " | ".join([_t("option", lang), _t("section", lang), _t("meaning", lang), _t("values", lang)]) + " |",
        "|---|---|---|---|",
    ]
    for name in option_names():
        value = getattr(default, name)
        words = literal_values(name) or tuple(VALUE_DOCS.get(name, ()))
        explained = "; ".join(f"`{w}`: {explain_value(name, w, lang)}" for w in words if w != value)
        if isinstance(value, str) and name in VALUE_DOCS:
            values = f"`{value}`: {explain_value(name, value, lang)}" + (f"; {explained}" if explained else "")
        else:
            values = f"{_t('default', lang)} {markdown_value(name, value, lang)}" + (
                f" ({explained})" if explained and name in VALUE_DOCS else ""
            )
        section = OPTION_SECTIONS.get(name, "")
        rows.append(f"| `{name}` | {section and '§' + section} | {explain(name, lang)} | {values} |")
    return "\n".join(rows) + "\n"


def generated_blocks(lang: Lang) -> dict[str, str]:
    """The generated tables of the rule book in ``lang``, by block name."""
    return {"presets": presets_markdown(lang), "options": options_markdown(lang)}


def render_book(text: str, lang: Lang) -> str:
    """``text`` (a rule book) with every generated block between its markers replaced by today's table."""
    for block, body in generated_blocks(lang).items():
        begin, end = BEGIN.format(block), END.format(block)
        start = text.find(begin)
        stop = text.find(end, start)
        if start < 0 or stop < 0:
            raise ValueError(f"the rule book ({lang}) has no markers for the generated {block} table")
        text = text[: start + len(begin)] + "\n" + body + text[stop:]
    return text


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gouji.engine.ruledocs [--check] [--root DIR]``: rewrite (or check) the rule book's tables."""
    parser = argparse.ArgumentParser(prog="python -m gouji.engine.ruledocs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check; exit status 1 if a table is stale")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository's root (default: here)")
    args = parser.parse_args(argv)
    stale = []
    for lang, rel in BOOKS.items():
        path = args.root / rel
        try:
            old = path.read_text(encoding="utf-8")
        except OSError as exc:
            print(f"cannot read the rule book {rel} under {args.root}: {exc.strerror}", file=sys.stderr)
            return 2
        new = render_book(old, lang)
        if new != old:
            stale.append(rel)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    if args.check and stale:
        print(f"stale tables in {', '.join(stale)}: run python -m gouji.engine.ruledocs", file=sys.stderr)
        return 1
    for rel in stale:
        print(f"rewrote the tables of {rel}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
