"""Writes the rule cases of the conformance suite (conformance/v1/*.json but perft.json; see docs/conformance.md).

Every expectation below is written by hand from the rule texts — the seed sentence or the rule-book section in
its ``cite`` — never read from the engine: this script imports nothing of gouji.  Templates repeat a rule over
every preset that has it (one case per preset), with the expectation worked out from the preset's options as
the rule book states them (§14).  Run from the repository root::

    python conformance/author.py          # rewrites conformance/v1/{plays,round,...}.json
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "v1"
PRESETS = ["qingdao", "tournament", "tongyong", "changyi", "zoucheng", "zhangqiu", "zaozhuang", "heze", "shandong"]
BIE_SAN = [p for p in PRESETS if p != "tournament"]
# §6, §14: burn_needs_kaidian in tongyong and changyi: nobody burns before opening
BURN_WITHOUT_OPENING = [p for p in PRESETS if p not in ("tongyong", "changyi")]
TRIBUTE = ["qingdao", "tongyong", "changyi", "zoucheng", "zhangqiu", "zaozhuang", "shandong"]
NEEDS_FOUR = ["qingdao", "tournament", "tongyong", "changyi", "zhangqiu", "shandong"]
REVOLUTION = ["qingdao", "tongyong", "changyi", "zoucheng", "zhangqiu", "zaozhuang", "shandong"]
Case = dict[str, Any]


def seed(src: str, where: str, quote: str) -> dict[str, str]:
    return {"seed": src, "where": where, "quote": quote}


def book(section: str, words: str = "") -> dict[str, str]:
    return {"rulebook": section, "quote": words} if words else {"rulebook": section}


class Suite:
    def __init__(self, name: str, description: str) -> None:
        self.name, self.description, self.cases = name, description, []  # type: tuple[str, str, list[Case]]

    def add(self, family: str, slug: str, rules: Any, cite: dict[str, str], expect: dict[str, Any], **pos: Any) -> None:
        tag = rules if isinstance(rules, str) else rules["preset"] + "+" + "+".join(sorted(rules["options"]))
        case: Case = {"id": f"{self.name}/{slug}/{tag}", "family": family, "cite": cite, "rules": rules}
        case.update(pos)
        case["expect"] = expect
        self.cases.append(case)

    def write(self) -> int:
        data = {
            "format": "gouji-conformance",
            "version": 1,
            "name": self.name,
            "description": self.description,
            "cases": self.cases,
        }
        text = json.dumps(data, ensure_ascii=False, indent=1)
        (OUT / f"{self.name}.json").write_text(text + "\n", encoding="utf-8")
        return len(self.cases)


def deal(hands: list[str], moves: list[str] | None = None, leader: int = 0, **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"hands": hands, "leader": leader, "moves": moves or []}
    out.update(kw)
    return out


def opt(preset: str, **options: Any) -> dict[str, Any]:
    return {"preset": preset, "options": options}


# ------------------------------------------------------------------------------------------------ plays


def plays() -> Suite:
    s = Suite(
        "plays", "What a play is, which plays are gouji and pure, which open the point, what beats what (§3, §4)."
    )
    gouji_cite = seed("000", "牌型", "够级牌2张A，2张K，3张Q，4张J，5张10为最低级别、最少数量的够级牌")
    money_cite = seed("000", "牌型", "贴钱的牌转换点数后如果符合条件，也算作够级牌")
    # (play, gouji, pure): the thresholds of §3.1, twos-only and jokers
    shapes = [
        ("TTTTT", True, True, gouji_cite),
        ("TTTT", False, False, gouji_cite),
        ("JJJJ", True, True, gouji_cite),
        ("JJJ", False, False, gouji_cite),
        ("QQQ", True, True, gouji_cite),
        ("QQ", False, False, gouji_cite),
        ("KK", True, True, gouji_cite),
        ("K", False, False, gouji_cite),
        ("AA", True, True, gouji_cite),
        ("A", False, False, gouji_cite),
        ("TTTT2", True, False, money_cite),
        ("99999999", False, False, book("§3.1", "Ranks below 10 are never gouji by size alone")),
        ("2", True, False, seed("000", "够级牌", "1张大、小花及钱")),
        ("X", True, False, seed("000", "够级牌", "1张大、小花及钱")),
        ("5X", True, False, seed("000", "够级牌", "3张5加1张小花虽然牌点比10小，但因为挂了花也算是够级牌")),
        ("22333", False, False, book("§3", "22333 = five 3s")),
    ]
    for preset in PRESETS:
        for text, gouji, pure, cite in shapes:
            s.add("plays", f"shape-{text}", preset, cite, {"valid": True, "gouji": gouji, "pure": pure}, play=text)
    invalid = seed("000", "牌型", "不同点数牌不可混合发出，花、钱例外")
    for text in ("8899", "JQ", "T9999"):
        s.add("plays", f"invalid-{text}", "qingdao", invalid, {"valid": False}, play=text)
    for text in ("DX22555", "DD222", "22"):
        s.add(
            "plays", f"valid-{text}", "qingdao", book("§3", "jokers attached, with money"), {"valid": True}, play=text
        )
    # which standing gouji plays open the point (kaidian_plays, §8.1)
    readings = {
        "pure": ("qingdao", seed("001", "青岛 开点", "不含有2、王的够级牌称为“纯够级牌”")),
        "money": ("heze", seed("001", "菏泽", "纯够级或者纯够级加2或者2开点，其他均不开点")),
        "no_jokers_no_single_two": (
            opt("qingdao", kaidian_plays="no_jokers_no_single_two"),
            seed("000", "其他规则 开点", "以下牌型的够级牌不开点：任意张大花，小花或者挂花的牌；单张的2"),
        ),
        "any": ("zaozhuang", seed("001", "枣庄 (6)", "如果自己打出的够级牌无人接牌，使得自己获得首发权，则该玩家开点")),
    }
    opens = {  # play → readings under which it opens
        "QQQ": {"pure", "money", "no_jokers_no_single_two", "any"},
        "KK": {"pure", "money", "no_jokers_no_single_two", "any"},
        "TTTT2": {"money", "no_jokers_no_single_two", "any"},
        "QQ2": {"money", "no_jokers_no_single_two", "any"},
        "2": {"money", "any"},
        "22": {"money", "no_jokers_no_single_two", "any"},
        "XQQQ": {"any"},
        "D": {"any"},
        "JJJ": set(),
    }
    for reading, (rules, cite) in readings.items():
        for text, where in opens.items():
            s.add("kaidian", f"opens-{text}", rules, cite, {"opens_point": reading in where}, play=text)
    # beating (§4, §15)
    cmp_cite = seed("000", "牌型的比较", "同样张数的牌才允许比较大小，点数大的即大")
    joker_cite = seed("000", "牌型的比较", "如果要大过此牌，必须在两个方面都大过此牌")
    core = [
        ("99999", "22888", True, cmp_cite),
        ("22888", "99999", False, cmp_cite),
        ("9999", "99999", False, cmp_cite),
        ("DD999", "XX888", True, joker_cite),
        ("DDD99", "XX888", True, joker_cite),
        ("DD777", "XX888", False, joker_cite),
        ("XXX99", "XX888", False, joker_cite),
        ("DX999", "XX888", False, seed("000", "牌型", "1大花+1小花+2个2+4个五，当做2个小花带6个五")),
        ("X", "2", True, seed("000", "牌型的比较", "大花>小花>2>A")),
        ("2", "A", True, seed("000", "牌型的比较", "大花>小花>2>A")),
        ("KK", "AA", False, cmp_cite),
        ("D", "X", True, seed("000", "牌型的比较", "大花>小花")),
    ]
    for preset in PRESETS:
        for b, a, result, cite in core:
            s.add("beats", f"beats-{b}-over-{a}", preset, cite, {"beats": result}, play=b, over=a)
    kill = seed("003", "通用规则", "大王二杀一, 三小灭一大")
    kill_pairs = [("DD", "D", True), ("XXX", "D", True), ("DD999", "D888", True), ("DD888", "D888", False)]
    for b, a, with_kill in kill_pairs:
        s.add("beats", f"kill-{b}-over-{a}", "tongyong", kill, {"beats": with_kill}, play=b, over=a)
        s.add(
            "beats",
            f"kill-{b}-over-{a}",
            "qingdao",
            book("§4", "a play holding a big joker … can never be beaten"),
            {"beats": False},
            play=b,
            over=a,
        )
    two_big = seed("000", "山东地区", "可以选择俩大王打一大王")
    s.add(
        "beats",
        "kill-DD-over-D",
        opt("shandong", big_joker_kill=True, three_small_kill=False),
        two_big,
        {"beats": True},
        play="DD",
        over="D",
    )
    s.add(
        "beats",
        "kill-XXX-over-D",
        opt("shandong", big_joker_kill=True, three_small_kill=False),
        two_big,
        {"beats": False},
        play="XXX",
        over="D",
    )
    return s


# ------------------------------------------------------------------------------------------------ round

ROUND_HANDS = ["553", "663", "773", "883", "993", "TT3"]
GOUJI_HANDS = ["QQQ53", "63", "73", "KKK3", "83", "93"]
PASS_HANDS = ["593", "6T3", "X73", "J3", "Q3", "283"]


def offers_after_qqq(preset: str) -> list[int]:
    """§6: the burn of seat 0's QQQ is offered, team first (2, 4), then 1, 5 — where nobody needs to have opened."""
    return [2, 4, 1, 5] if preset in BURN_WITHOUT_OPENING else []


def round_() -> Suite:
    s = Suite("round", "Rounds: answering in turn, gouji plays answered by the 对头, passes, yielding, 接风 (§5.2).")
    turn = book("§5.2", "The turn then passes to the next seats in order")
    only_opp = seed("000", "上牌", '一旦有人出了够级牌，则除了"烧牌"外，只有"对头"可以"上牌"')
    pass_final = seed("001", "枣庄", "过牌不准上，除非自己的对头出够级牌")
    yield_cite = seed("000", "让牌", '可声明"让牌"，即让下两家先"上牌"')
    for p in PRESETS:
        s.add(
            "round",
            "plain-next-seat",
            p,
            turn,
            {"to_act": 1, "legal_includes": ["66", "pass"], "legal_excludes": ["yield"]},
            deal=deal(ROUND_HANDS, ["55"]),
        )
        s.add(
            "round",
            "must-lead",
            p,
            book("§5.2", "The player holding the lead makes any legal play"),
            {"to_act": 0, "refused": {"action": "pass", "reason": "must_lead"}},
            deal=deal(ROUND_HANDS),
        )
        s.add(
            "round",
            "not-held",
            p,
            book("§3", "a play is made of the player's own cards"),
            {"refused": {"action": "KK", "reason": "not_held"}},
            deal=deal(ROUND_HANDS),
        )
        s.add(
            "round",
            "size-must-match",
            p,
            cmp_cite_round(),
            {"refused": {"action": "666", "reason": "cannot_meet"}},
            deal=deal(["553", "6663", "773", "883", "993", "TT3"], ["55"]),
        )
        s.add(
            "round",
            "must-beat",
            p,
            cmp_cite_round(),
            {"refused": {"action": "55", "reason": "does_not_beat"}},
            deal=deal(["663", "553", "773", "883", "993", "TT3"], ["66"]),
        )
        passes = ["pass"] * len(offers_after_qqq(p))
        s.add(
            "round",
            "gouji-answered-by-opposite",
            p,
            only_opp,
            {"to_act": 3, "legal": ["KKK", "pass"]},
            deal=deal(GOUJI_HANDS, ["QQQ", *passes]),
        )
        s.add(
            "round",
            "gouji-stands-when-opposite-passes",
            p,
            only_opp,
            {"to_act": 0, "top": None},
            deal=deal(GOUJI_HANDS, ["QQQ", *passes, "pass"]),
        )
        s.add(
            "round",
            "pass-final-plain",
            p,
            pass_final,
            {"to_act": 5, "top": None},
            deal=deal(PASS_HANDS, ["5", "6", "pass", "pass", "pass", "8", "pass", "pass"]),
        )
        gouji_passes = ["pass"] * (2 if p in BURN_WITHOUT_OPENING else 0)  # seats 1 and 0 offered the burn of 2
        s.add(
            "round",
            "pass-lifted-by-opposites-gouji",
            p,
            pass_final,
            {"to_act": 2, "legal": ["X", "pass"]},
            deal=deal(PASS_HANDS, ["5", "6", "pass", "pass", "pass", "2", *gouji_passes]),
        )
        s.add(
            "round",
            "yield-offered",
            p,
            yield_cite,
            {"to_act": 3, "legal_includes": ["yield", "pass", "88"]},
            deal=deal(ROUND_HANDS, ["55", "pass", "pass"]),
        )
        s.add(
            "round",
            "yield-lets-two-act",
            p,
            yield_cite,
            {"to_act": 4},
            deal=deal(ROUND_HANDS, ["55", "pass", "pass", "yield"]),
        )
        s.add(
            "round",
            "yield-comes-back",
            p,
            yield_cite,
            {"to_act": 3, "legal_excludes": ["yield"]},
            deal=deal(ROUND_HANDS, ["55", "pass", "pass", "yield", "pass", "pass"]),
        )
        s.add(
            "round",
            "no-yield-on-non-opposite",
            p,
            yield_cite,
            {"refused": {"action": "yield", "reason": "no_yield"}},
            deal=deal(ROUND_HANDS, ["55"]),
        )
        s.add(
            "round",
            "jiefeng",
            p,
            seed("000", "比赛规则 9", "接风"),
            {"to_act": 1, "top": None, "out_order": [0]},
            deal=deal(["3", "443", "553", "663", "773", "883"], ["3", "pass", "pass", "pass", "pass", "pass"])
            if p != "tournament"
            else deal(["3", "44", "55", "66", "77", "88"], ["3", "pass", "pass", "pass", "pass", "pass"]),
        )
    return s


def cmp_cite_round() -> dict[str, str]:
    return seed("000", "牌型的比较", "同样张数的牌才允许比较大小，点数大的即大")


# ------------------------------------------------------------------------------------------------- burn

BURN_HANDS = ["QQQ53", "KKKX53", "73", "83", "93", "T3"]


def burn() -> Suite:
    s = Suite("burn", "Burning (烧牌): who is offered it, in which order, and how a burn ends (§6).")
    order = seed("000", "烧牌", "发够级牌者的联邦可先于其他人烧牌")
    needs = seed("001", "昌邑", "开点后才能烧牌")
    for p in PRESETS:
        cite = (
            order if p in BURN_WITHOUT_OPENING else (needs if p == "changyi" else seed("003", "通用", "开点后才能烧牌"))
        )
        s.add(
            "burn", "offers-after-gouji", p, cite, {"burn_offers": offers_after_qqq(p)}, deal=deal(GOUJI_HANDS, ["QQQ"])
        )
        # (章丘: 头科 is placed, so 五户乱缠 has begun and seat 1 answers in turn)
        s.add(
            "burn",
            "final-play-not-burned",
            p,
            seed("001", "昌邑 7(3)", "最后一手牌不能烧"),
            {"burn_offers": [], "to_act": 1 if p == "zhangqiu" else 3, "out_order": [0]},
            deal=deal(["QQQ", "63", "73", "KKK3", "83", "93"], ["QQQ"]),
        )
        s.add(
            "burn",
            "no-burn-on-plain-play",
            p,
            book("§6", "a burn is offered right after a gouji play"),
            {"refused": {"action": "burn 66", "reason": "no_burn"}},
            deal=deal(ROUND_HANDS, ["55"]),
        )
    s.add(
        "burn",
        "offers-turn-order",
        opt("qingdao", burn_priority="turn_order"),
        seed("000", "第十条", "无联邦烧牌优先，按上下家的顺序顺烧"),
        {"burn_offers": [1, 2, 4, 5]},
        deal=deal(GOUJI_HANDS, ["QQQ"]),
    )
    for p in [q for q in BURN_WITHOUT_OPENING if q != "shandong"]:
        # seat 1 burns QQQ with KKK, then leads 5 with no joker: a failed burn (诈烧), out of play at once
        moves = ["QQQ", "pass", "pass", "burn KKK", "pass", "pass", "pass", "pass", "pass", "5"]
        s.add(
            "burn",
            "failed-burn",
            p,
            seed("000", "烧牌", "每次所发牌中必须挂至少一个小花或大花，但最后一次发牌可除外"),
            {
                "failed_burns": [1],
                "in_play": [0, 2, 3, 4, 5],
                "burns": [{"burner": 1, "burned": 0, "level": 1, "result": "failed"}],
            },
            deal=deal(BURN_HANDS, moves),
        )
        moves = ["QQQ", "pass", "pass", "burn KKK", "pass", "pass", "pass", "pass", "pass", "X5"]
        moves += ["pass"] * 5 + ["3"]
        s.add(
            "burn",
            "burn-success",
            p,
            seed("001", "烧牌", "烧牌成功并出完牌则下把收烧贡"),
            {"out_order": [1], "burns": [{"burner": 1, "burned": 0, "level": 1, "result": "success"}]},
            deal=deal(BURN_HANDS, moves),
        )
    first_out = ["3", "pass", "pass", "pass", "pass", "pass", "QQQ"]
    hands = ["3", "QQQ53", "63", "73", "KKK3", "83"]
    s.add(
        "burn",
        "headless-not-offered",
        "qingdao",
        seed("001", "昌邑 7(4)", "无头玩家也不能烧其他玩家够级牌"),
        {"burn_offers": [5, 2]},
        deal=deal(hands, first_out),
    )
    s.add(
        "burn",
        "none-after-first-out",
        opt("qingdao", burn_before_first_out=True),
        seed("001", "章丘 烧牌条件", "没有人走科"),
        {"burn_offers": [], "to_act": 3},
        deal=deal(hands, first_out),
    )
    # (seat 3 is 无头 — its 对头, seat 0, went out — so it answers seat 1's gouji play in turn, §5.3)
    return s


# ------------------------------------------------------------------------------------------ 憋三 and 闷


def biesan() -> Suite:
    s = Suite("biesan", "Threes last (憋三) and smothering (闷) (§7).")
    last = seed("001", "青岛 9", "3必须留到最后一手才能出，不能挂王")
    men = seed("001", "青岛 9", "若倒数第二手牌被别人压过，则直接算大落")
    for p in PRESETS:
        d = deal(["553", "663", "773", "883", "993", "TT3"])
        if p == "tournament":
            s.add(
                "biesan",
                "threes-any-time",
                p,
                seed("000", "比赛规则", "不憋三"),
                {"legal_includes": ["3", "5", "55"]},
                deal=d,
            )
            s.add(
                "biesan",
                "no-smother",
                p,
                seed("000", "比赛规则", "不憋三"),
                {"smothered": [], "in_play": [0, 1, 2, 3, 4, 5]},
                deal=deal(["883", "993", "T3", "J3", "Q3", "K3"], ["88", "99"]),
            )
            continue
        s.add(
            "biesan",
            "threes-last-lead",
            p,
            last,
            {"legal_includes": ["5", "55"], "legal_excludes": ["3", "53", "553"]},
            deal=d,
        )
        s.add("biesan", "threes-refused", p, last, {"refused": {"action": "3", "reason": "threes_last"}}, deal=d)
        s.add("biesan", "only-threes", p, last, {"legal": ["33"]}, deal=deal(["33", "66", "77", "88", "99", "TT"]))
        beaten = deal(["883", "993", "T3", "J3", "Q3", "K3"], ["88", "99"])
        if p == "shandong":
            s.add(
                "biesan",
                "not-smothered-by-non-opposite",
                p,
                seed("000", "山东地区 闷贡", "在出最后一把冲科牌时被对家打了"),
                {"smothered": [], "in_play": [0, 1, 2, 3, 4, 5]},
                deal=beaten,
            )
            s.add(
                "biesan",
                "smothered-by-opposite",
                p,
                seed("000", "山东地区 闷贡", "在出最后一把冲科牌时被对家打了"),
                {"smothered": [[0, 3]], "in_play": [1, 2, 3, 4, 5], "headless": [3]},
                deal=deal(["883", "T3", "J3", "993", "Q3", "K3"], ["88", "pass", "pass", "99"]),
            )
            continue
        s.add(
            "biesan",
            "smothered",
            p,
            men,
            {"smothered": [[0, 1]], "in_play": [1, 2, 3, 4, 5], "headless": [3]},
            deal=beaten,
        )
    s.add(
        "biesan",
        "opposite-does-not-smother",
        opt("qingdao", smother_by="not_opposite"),
        seed("000", "闷贡", "我们的打法是对家无闷"),
        {"smothered": []},
        deal=deal(["883", "T3", "J3", "993", "Q3", "K3"], ["88", "pass", "pass", "99"]),
    )
    s.add(
        "biesan",
        "smothered-keeps-head",
        opt("qingdao", smothered_keeps_head=True),
        seed("003", "百度百科", '被憋三玩家视为并未走人，称为"憋三留头"'),
        {"smothered": [[0, 1]], "headless": []},
        deal=deal(["883", "993", "T3", "J3", "Q3", "K3"], ["88", "99"]),
    )
    return s


# --------------------------------------------------------------------------------------------- 开点

KD_HANDS = ["QQQ4553", "663", "773", "883", "993", "TT3"]


def kaidian() -> Suite:
    s = Suite("kaidian", "Opening the point (开点): when a standing gouji play opens, 开点发4, forfeits (§8).")
    four = seed("001", "青岛 开点", "当纯够级牌“站住”（管不了）时，下一张打出4则为开点")
    stands = seed("000", "开点", "如果一方打出的够级牌，无人接牌，使得自己获得出牌权，则该玩家开点")
    for p in PRESETS:
        passes = ["pass"] * (len(offers_after_qqq(p)) + 1)
        stood = ["QQQ", *passes]
        needs = p in NEEDS_FOUR
        s.add(
            "kaidian",
            "stands",
            p,
            four if needs else stands,
            {"to_act": 0, "opened": [] if needs else [0]},
            deal=deal(KD_HANDS, stood),
        )
        s.add("kaidian", "then-four", p, four if needs else stands, {"opened": [0]}, deal=deal(KD_HANDS, [*stood, "4"]))
        s.add(
            "kaidian",
            "beaten-opens-nothing",
            p,
            stands,
            {"opened": []},
            deal=deal(["QQQ4553", "663", "773", "KKK3", "993", "TT3"], ["QQQ", *passes[:-1], "KKK", "pass"]),
        )
        forfeits = p in ("tongyong", "changyi")
        s.add(
            "kaidian",
            "early-four",
            p,
            seed("001", "昌邑", "没开点直接出4，算放弃开点") if forfeits else book("§8.1"),
            {"forfeited": [0] if forfeits else []},
            deal=deal(KD_HANDS, ["4"]),
        )
    s.add(
        "kaidian",
        "single-four-only",
        "zhangqiu",
        seed("001", "章丘 (6)", "4不挂花、不贴钱，必须出单张4"),
        {"opened": []},
        deal=deal(["QQQ44553", "663", "773", "883", "993", "TT3"], ["QQQ"] + ["pass"] * 5 + ["44"]),
    )
    s.add(
        "kaidian",
        "any-fours",
        "qingdao",
        four,
        {"opened": [0]},
        deal=deal(["QQQ44553", "663", "773", "883", "993", "TT3"], ["QQQ"] + ["pass"] * 5 + ["44"]),
    )
    s.add(
        "kaidian",
        "never-open",
        opt("zoucheng", kaidian_until_out=0),
        book("§8.1", "Nobody can open the point once"),
        {"opened": []},
        deal=deal(KD_HANDS, ["QQQ"] + ["pass"] * 5),
    )
    money = ["2QQQ53", "663", "773", "883", "993", "TT3"]
    s.add(
        "kaidian",
        "money-opens",
        "heze",
        seed("001", "菏泽", "纯够级或者纯够级加2或者2开点"),
        {"opened": [0]},
        deal=deal(money, ["2QQQ"] + ["pass"] * 5),
    )
    s.add(
        "kaidian",
        "money-does-not-open",
        "zoucheng",
        seed("001", "青岛 开点", "不含有2、王的够级牌称为“纯够级牌”"),
        {"opened": []},
        deal=deal(money, ["2QQQ"] + ["pass"] * 5),
    )
    return s


# ----------------------------------------------------------------------------------- free-for-all, places

FFA_HANDS = ["5", "44", "6", "44", "TT9", "44"]


def places() -> Suite:
    s = Suite("places", "The free-for-all (四户乱缠), the end of a deal, places and sweeps (§5.4, §5.5).")
    four = seed("001", "四户乱缠", '头科、二科产生后（只要有两个人的结算名称已定），剩下四人为"四户乱缠"')
    five = seed("001", "章丘 7(8)", "头科产生后，其他5人是五户乱缠")
    for p in PRESETS:
        s.add("free_for_all", "not-at-start", p, book("§5.4"), {"free_for_all": False}, deal=deal(FFA_HANDS))
        s.add(
            "free_for_all",
            "after-first-out",
            p,
            five if p == "zhangqiu" else four,
            {"free_for_all": p == "zhangqiu", "out_order": [0]},
            deal=deal(FFA_HANDS, ["5"]),
        )
        s.add(
            "free_for_all",
            "after-second-out",
            p,
            four,
            {"free_for_all": True, "out_order": [0, 2]},
            deal=deal(FFA_HANDS, ["5", "pass", "6"]),
        )
        s.add(
            "places",
            "sweep",
            p,
            seed("000", "串三户", '如果一方获得"头科"、"二科"、"三科"'),
            {"over": True, "places": [0, 2, 4, 5, 1, 3], "sweep": 0},
            deal=deal(["5", "44", "6", "44", "7", "44"], ["5", "pass", "6", "pass", "7"]),
        )
        s.add(
            "places",
            "holders-by-cards",
            p,
            book("§5.5", "fewer cards first, ties in turn order"),
            {"over": True, "places": [0, 2, 4, 3, 5, 1], "sweep": 0},  # seat 4 acted last: 5 is next
            deal=deal(["5", "999", "6", "4", "7", "999"], ["5", "pass", "6", "pass", "7"]),
        )
    ffa = opt("qingdao", luanchan_at=6)
    rule = seed("000", "四户乱缠", "可在过牌后再上牌，打非对头够级牌也不算烧牌")
    s.add(
        "free_for_all",
        "anyone-answers-gouji",
        ffa,
        rule,
        {"to_act": 1, "legal": ["AAA", "pass"]},
        deal=deal(["QQQ553", "AAA63", "KKK73", "KKK83", "993", "T3"], ["QQQ"]),
    )
    s.add(
        "free_for_all",
        "pass-does-not-bar",
        ffa,
        rule,
        {"to_act": 1, "legal_includes": ["AAA"]},
        deal=deal(
            ["QQQ553", "AAA63", "KKK73", "KKK83", "993", "T3"], ["QQQ", "pass", "KKK", "pass", "pass", "pass", "pass"]
        ),
    )
    s.add(
        "free_for_all",
        "no-yield",
        ffa,
        rule,
        {"legal_excludes": ["yield"], "to_act": 3},
        deal=deal(ROUND_HANDS, ["55", "pass", "pass"]),
    )
    # 章丘: a revolution before play places nobody (issue 47)
    revolt = ["QQQ243", "KKK943", "AAA243", "KKK243", "2643", "2743"]
    setup_moves = ["pass", "revolt", "pass", "pass", "pass", "pass", "wutou", "pass", "pass", "pass", "pass"]
    s.add(
        "free_for_all",
        "revolution-alone",
        "zhangqiu",
        five,
        {"revolted": [1], "free_for_all": False, "burn_offers": [2, 5], "to_act": 2},
        deal=deal(revolt, [*setup_moves, "QQQ"], setup=True),
    )
    return s


# ------------------------------------------------------------------------------------------------ setup


def setup() -> Suite:
    s = Suite("setup", "Before play: buying 3s (买三), revolution (革命) (§9, §10).")
    buy = seed("001", "青岛 买三", "发完牌以后如果没有3，则要用一张2（没2用小王、大王）向对头买3")
    for p in ("qingdao", "changyi", "zoucheng", "zaozhuang"):
        s.add(
            "setup",
            "buy-three-from-opposite",
            p,
            buy,
            {"hands": {"0": "553", "3": "2J3"}, "phase": "revolution"},
            deal=deal(["255", "39", "3T", "33J", "3Q", "3K"], setup=True),
        )
        s.add(
            "setup",
            "teammate-gives-free",
            p,
            seed("001", "青岛 买三", "如果买不到3，则向自己的联邦要3"),
            {"hands": {"0": "2553", "2": "T3"}},
            deal=deal(["255", "39", "33T", "3J", "3Q", "3K"], setup=True),
        )
        s.add(
            "setup",
            "no-money-revolts",
            p,
            seed("000", "革命", "如果自己没有3，又没有钱、大花、小花，则算做自动革命"),
            {"revolted": [0]},
            deal=deal(["55", "239", "23T", "233J", "23Q", "23K"], setup=True),
        )
        s.add(
            "setup",
            "money-pays-two-first",
            p,
            buy,
            {"hands": {"0": "X553", "3": "2J3"}},
            deal=deal(["X255", "39", "3T", "33J", "3Q", "3K"], setup=True),
        )
    s.add(
        "setup",
        "teammates-first",
        opt("shandong", removed={"3": 9, "4": 2}),
        seed("000", "山东地区", "一般同伙送"),
        {"hands": {"0": "2553", "3": "33J"}},
        deal=deal(["255", "39", "33T", "33J", "3Q", "3K"], setup=True),
    )
    s.add(
        "setup",
        "opposite-first",
        opt("qingdao", first_leader="random"),
        buy,
        {"hands": {"0": "553", "3": "2J3"}},
        deal=deal(["255", "39", "33T", "33J", "3Q", "3K"], setup=True),
    )
    revolt = ["QQQ243", "KKK943", "AAA243", "KKK243", "2643", "2743"]
    rev = seed("000", "革命", '如果大花、小花、钱均没有时，可声明"革命"')
    for p in REVOLUTION:
        s.add(
            "setup",
            "money-cannot-revolt",
            p,
            rev,
            {"phase": "revolution", "to_act": 0, "legal": ["pass"]},
            deal=deal(revolt, setup=True),
        )
        s.add(
            "setup",
            "may-revolt",
            p,
            rev,
            {"phase": "revolution", "to_act": 1, "legal": ["pass", "revolt"]},
            deal=deal(revolt, ["pass"], setup=True),
        )
        s.add(
            "setup",
            "opposite-chooses-head",
            p,
            seed("000", "要头/无头", '革命后，对头可宣布"要头"或"无头"'),
            {"revolted": [1], "to_act": 4, "legal": ["wutou", "yaotou"]},
            deal=deal(revolt, ["pass", "revolt", "pass", "pass", "pass", "pass"], setup=True),
        )
    return s


# ---------------------------------------------------------------------------------------------- tribute

NO_LUO_PLACES = [0, 1, 3, 2, 5, 4]  # 大落 4 → 头科 0 and 二落 5 → 二科 1 are teammates: no 落贡


def pay(kind: str, payer: int, receiver: int, cards: int) -> dict[str, Any]:
    return {"kind": kind, "payer": payer, "receiver": receiver, "cards": cards}


def tribute() -> Suite:
    s = Suite("tribute", "Tribute owed by a finished deal, and the cards paid (§12).")
    table = seed("001", "进贡 点贡", "自己宣点对家不宣点的情况：自己开点对家没开，对家进3张点贡")
    # the 点贡 table for the pair 0–3; the other pairs both opened and declared nothing: they owe nothing
    decl_states = {"none": (False, False), "both": (True, True), "A": (True, False), "B": (False, True)}
    want = {
        ("none", "A"): [(3, 0, 1)], ("none", "B"): [(0, 3, 1)], ("none", "neither"): [(0, 3, 1), (3, 0, 1)],
        ("none", "both"): [],
        ("both", "A"): [(3, 0, 4)], ("both", "B"): [(0, 3, 4)], ("both", "neither"): [(0, 3, 2), (3, 0, 2)],
        ("both", "both"): [(0, 3, 2), (3, 0, 2)],
        ("A", "A"): [(3, 0, 3)], ("A", "B"): [(0, 3, 3)], ("A", "neither"): [(0, 3, 1), (3, 0, 2)],
        ("A", "both"): [(0, 3, 2)],
        ("B", "B"): [(0, 3, 3)], ("B", "A"): [(3, 0, 3)], ("B", "neither"): [(3, 0, 1), (0, 3, 2)],
        ("B", "both"): [(3, 0, 2)],
    }  # fmt: skip
    open_states = {"A": (True, False), "B": (False, True), "neither": (False, False), "both": (True, True)}
    for p in TRIBUTE:
        for (d, o), payments in want.items():
            da, db = decl_states[d]
            oa, ob = open_states[o]
            result = {
                "places": NO_LUO_PLACES,
                "declared": [da, False, False, db, False, False],
                "opened": [oa, True, True, ob, True, True],
            }
            mates = [pay("luo", 4, 0, 2), pay("luo", 5, 1, 1)] if p == "shandong" else []  # (to teammates: 退贡)
            s.add(
                "tribute",
                f"dian-declared-{d}-opened-{o}",
                p,
                table,
                {"tribute_owed": [pay("dian", *x) for x in payments] + mates},
                result=result,
            )
    s.add(
        "tribute",
        "swap-waived",
        opt("qingdao", mutual_point_tribute="waive"),
        seed("000", "换点", "可以商议都进或都不进贡"),
        {"tribute_owed": []},
        result={"places": NO_LUO_PLACES, "opened": [False, True, True, False, True, True]},
    )
    luo = seed("001", "落贡", "下一局游戏大落进给头客2张落贡，二落进给二客1张落贡")
    all_open = [True] * 6
    for p in TRIBUTE:
        s.add(
            "tribute",
            "luo",
            p,
            luo,
            {"tribute_owed": [pay("luo", 5, 0, 2), pay("luo", 4, 1, 1)]},
            result={"places": [0, 1, 2, 3, 4, 5], "opened": all_open},
        )
        teammates = [pay("luo", 4, 0, 2), pay("luo", 5, 1, 1)] if p == "shandong" else []
        s.add(
            "tribute",
            "luo-teammates",
            p,
            seed("000", "山东地区", "如果是进给自己同伙，同伙可以选择退贡")
            if p == "shandong"
            else seed("001", "进贡", "落贡如果是联邦（同帮/同伙）的话可以免贡"),
            {"tribute_owed": teammates},
            result={"places": NO_LUO_PLACES, "opened": all_open},
        )
        sweep = [pay("sweep", 3, 0, 1), pay("sweep", 5, 2, 1), pay("sweep", 1, 4, 1)]
        dian = [pay("dian", a, b, 1) for a in range(3) for b in (a + 3,)] + [pay("dian", a + 3, a, 1) for a in range(3)]
        if p == "zhangqiu":
            owed, cite = (
                dian + [pay("luo", 1, 4, 1), pay("luo", 3, 0, 1), pay("luo", 5, 2, 1)],
                seed("001", "章丘", "如果是串三户 输的3家各进落贡1张。点贡照进，闷贡和烧贡不再进"),
            )
        elif p == "shandong":
            owed, cite = dian + sweep, seed("000", "山东地区", "点贡双方都不免")
        else:
            owed, cite = sweep, seed("000", "串三户", "串三户的一方各吃一个贡，其他贡全免")
        s.add(
            "tribute",
            "sweep",
            p,
            cite,
            {"tribute_owed": owed},
            result={"places": [0, 2, 4, 1, 3, 5], "sweep": 0, "smothered": [[1, 0]]},
        )
        order = {"zhangqiu": ["shao", "men"]}.get(p, ["men", "shao"])
        for level, cards in ((1, 1), (2, 2), (3, 4)):
            burns = [{"burner": 1, "burned": 0, "level": level, "result": "success"}]
            owed = {"men": pay("men", 2, 1, 1), "shao": pay("shao", 0, 1, cards)}
            mates = [pay("luo", 4, 0, 2), pay("luo", 5, 1, 1)] if p == "shandong" else []
            s.add(
                "tribute",
                f"men-shao-level-{level}",
                p,
                seed("001", "烧贡", "反烧烧贡翻倍！"),
                {"tribute_owed": [owed[k] for k in order] + mates, "tribute_order": order + (["luo"] if mates else [])},
                result={"places": NO_LUO_PLACES, "opened": all_open, "smothered": [[2, 1]], "burns": burns},
            )
        s.add(
            "tribute",
            "broken-burn-owes-nothing",
            p,
            seed("000", "烧贡", "可以解烧（222），这时视为烧牌失败，不进烧贡"),
            {"tribute_owed": [pay("luo", 4, 0, 2), pay("luo", 5, 1, 1)] if p == "shandong" else []},
            result={
                "places": NO_LUO_PLACES,
                "opened": all_open,
                "burns": [{"burner": 1, "burned": 0, "level": 1, "result": "broken"}],
            },
        )
    for p in ("tournament", "heze"):
        s.add(
            "tribute",
            "none",
            p,
            seed("001", "菏泽", "没有进贡还贡") if p == "heze" else seed("000", "比赛规则", "四局累积小分"),
            {"tribute_owed": []},
            result={"places": [0, 1, 2, 3, 4, 5], "smothered": [[5, 0]]},
        )
    # the cards paid
    legal = seed("001", "进贡 法定贡牌", "大小王、2。进贡进的牌一定是当前手牌最大的牌")
    hands = ["XX2A53", "63", "73", "2253", "93", "T3"]
    men = [
        {"kind": "men", "payer": 0, "receiver": 3, "cards": 2},
        {"kind": "men", "payer": 3, "receiver": 1, "cards": 1},
    ]
    q = opt("qingdao", first_leader="random")
    s.add(
        "tribute",
        "paid-highest-money",
        q,
        legal,
        {
            "tribute_paid": [
                {"kind": "men", "from": 0, "to": 3, "cards": "XX"},
                {"kind": "men", "from": 3, "to": 1, "cards": "2"},
            ]
        },
        deal=deal(hands, setup=True, tribute=men),
    )
    s.add(
        "tribute",
        "never-pay-received",
        q,
        seed("001", "进贡 法定贡牌", "吃了的贡就是点数最大也不能进，遵循“吃了不吐”原则"),
        {"hands": {"3": "XX253", "1": "263"}},
        deal=deal(hands, setup=True, tribute=men),
    )
    luo2 = [{"kind": "luo", "payer": 0, "receiver": 3, "cards": 2}]
    s.add(
        "tribute",
        "no-money-pays-nothing",
        q,
        seed("001", "进贡 法定贡牌", "不符合以上条件的不进贡"),
        {"tribute_paid": [{"kind": "luo", "from": 0, "to": 3, "cards": ""}]},
        deal=deal(["AKQJ3", "63", "73", "83", "93", "T3"], setup=True, tribute=luo2),
    )
    s.add(
        "tribute",
        "highest-cards",
        "shandong",
        seed("000", "山东地区", "大拉贡进两颗最大的"),
        {"tribute_paid": [{"kind": "luo", "from": 0, "to": 3, "cards": "AK"}]},
        deal=deal(["AKQJ3", "53", "63", "73", "83", "93"], setup=True, tribute=luo2),
    )
    s.add(
        "tribute",
        "kanggong",
        "zhangqiu",
        seed("001", "章丘", "4个大王抗全联邦的贡"),
        {"tribute_paid": [{"kind": "luo", "from": 2, "to": 3, "cards": ""}]},
        deal=deal(
            ["DDDD43", "43", "2243", "43", "43", "43"],
            setup=True,
            tribute=[{"kind": "luo", "payer": 2, "receiver": 3, "cards": 2}],
        ),
    )
    return s


# ---------------------------------------------------------------------------------------------- scoring


def scoring() -> Suite:
    s = Suite("scoring", "The points of a finished deal (§13).")
    setc = book(
        "§13", "each deal, places score place_points (default 头科 +4, 二科 +2, 三科 0, 四科 0, 二落 −2, 大落 −4)"
    )
    tour = seed("000", "比赛规则", "6、5、4、3、2、1")
    for p in PRESETS:
        if p == "tournament":
            s.add("scoring", "places", p, tour, {"points": [6, 5, 4, 3, 2, 1]}, result={"places": [0, 1, 2, 3, 4, 5]})
            s.add(
                "scoring",
                "sweep",
                p,
                tour,
                {"points": [6, 3, 5, 2, 4, 1]},
                result={"places": [0, 2, 4, 1, 3, 5], "sweep": 0},
            )
            continue
        s.add("scoring", "places", p, setc, {"points": [4, 2, 0, 0, -2, -4]}, result={"places": [0, 1, 2, 3, 4, 5]})
        s.add(
            "scoring",
            "sweep",
            p,
            book("§13", "a sweep scores sweep_points (default ±12 per team member)"),
            {"points": [12, -12, 12, -12, 12, -12]},
            result={"places": [0, 2, 4, 1, 3, 5], "sweep": 0},
        )
    s.add(
        "scoring",
        "base-points",
        opt("zhangqiu", base_points=3),
        seed("001", "章丘 8", "玩家得分=(本队三个玩家走科分数之和)*基础分"),
        {"points": [-12, 6, 12, -6, 0, 0]},
        result={"places": [2, 1, 4, 5, 3, 0]},
    )
    return s


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    total = 0
    for make in (plays, round_, burn, biesan, kaidian, places, setup, tribute, scoring):
        suite = make()
        n = suite.write()
        total += n
        print(f"{suite.name}.json: {n} cases")
    print(f"{total} cases")


if __name__ == "__main__":
    main()
