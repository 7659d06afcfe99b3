"""Which standing plays open the point (开点, rule book §8.1): the option ``kaidian_plays``, every play shape
under every reading, scripted deals, the presets' readings, and old records that still say
``kaidian_allows_money``."""

from __future__ import annotations

import hashlib
import json

import pytest

from gouji import Deal, RuleSet, parse_play
from gouji.competition.loading import load_record
from gouji.competition.records import canonical
from gouji.competition.sets import Match
from gouji.engine.plays import KAIDIAN_PLAYS, opens_point
from gouji.engine.rule_bounds import InvalidRules
from gouji.engine.rules import upgrade_options

READINGS = ("pure", "money", "no_jokers_no_single_two", "any")

# Every shape of a play (rule book §3) against the four readings: does it open when it stands?
# fmt: off
SHAPES: dict[str, tuple[str, tuple[bool, bool, bool, bool]]] = {
    #  play        shape                                            pure   money  000    any
    "99999":    ("natural, not gouji (below the 10)",              (False, False, False, False)),
    "JJJ":      ("natural, below the threshold",                   (False, False, False, False)),
    "TTTTT":    ("pure gouji: five 10s",                           (True,  True,  True,  True)),
    "QQQ":      ("pure gouji: three Qs",                           (True,  True,  True,  True)),
    "AA":       ("pure gouji: two As",                             (True,  True,  True,  True)),
    "TTTT2":    ("gouji only with the 2 attached (贴钱)",          (False, True,  True,  True)),
    "QQ2":      ("gouji only with the 2 attached",                 (False, True,  True,  True)),
    "QQQ2":     ("pure gouji with a 2 attached (纯够级加2)",       (False, True,  True,  True)),
    "22333":    ("2s attached, not gouji (five 3s)",               (False, False, False, False)),
    "2":        ("a single 2",                                     (False, True,  False, True)),
    "22":       ("2s alone",                                       (False, True,  True,  True)),
    "2222":     ("2s alone",                                       (False, True,  True,  True)),
    "X":        ("a small joker alone",                            (False, False, False, True)),
    "D":        ("a big joker alone",                              (False, False, False, True)),
    "DX":       ("jokers only, mixed",                             (False, False, False, True)),
    "X5":       ("a joker attached to a low card (挂花)",          (False, False, False, True)),
    "XQQQ":     ("a joker attached to a pure gouji play",          (False, False, False, True)),
    "D22":      ("a joker with 2s",                                (False, False, False, True)),
    "X2KK":     ("a joker with 2s and a threshold play",           (False, False, False, True)),
}
# fmt: on


def test_readings_are_the_options_words() -> None:
    assert KAIDIAN_PLAYS == READINGS
    from gouji.engine import ruledocs

    assert ruledocs.literal_values("kaidian_plays") == READINGS
    assert RuleSet().kaidian_plays == "pure"


@pytest.mark.parametrize("text", list(SHAPES))
@pytest.mark.parametrize("reading", READINGS)
def test_kaidian_plays_every_shape_every_reading(text: str, reading: str) -> None:
    _, expected = SHAPES[text]
    play = parse_play(text)
    assert opens_point(play, reading) is expected[READINGS.index(reading)], (text, reading)
    assert play.opens_point(reading) is opens_point(play, reading)


def test_an_unknown_reading_is_refused() -> None:
    with pytest.raises(ValueError, match="kaidian_plays: 'pure_only' is not a reading"):
        opens_point(parse_play("QQQ"), "pure_only")
    with pytest.raises(InvalidRules, match="kaidian_plays: 'pure_only' is not allowed"):
        RuleSet(kaidian_plays="pure_only")  # type: ignore[arg-type]


# ---------------------------------------------------------------- scripted deals


def lead_and_stand(rules: RuleSet | str, play: str) -> Deal:
    """Seat 0 leads ``play`` with cards to spare; nobody holds anything that beats or burns it; every seat
    asked passes, until the round ends and the lead comes back to seat 0."""
    hands = [play + "553", "663", "773", "883", "993", "T3"]
    d = Deal.from_hands(hands, rules, leader=0)
    d.act(play)
    while d.to_act != 0:
        d.act("pass")
    assert d.round.leader == 0 and d.round.top is None, "the play stood: seat 0 leads the next round"
    return d


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("text", ["TTTTT", "TTTT2", "QQQ2", "2", "22", "X5", "D"])
def test_a_standing_play_opens_as_its_reading_says(reading: str, text: str) -> None:
    d = lead_and_stand(RuleSet(kaidian_plays=reading), text)  # type: ignore[arg-type]
    expected = SHAPES.get(text, ("", None))[1]
    if expected is None:
        expected = tuple(parse_play(text).opens_point(r) for r in READINGS)
    assert d.opened[0] is expected[READINGS.index(reading)], (text, reading)
    assert any(e["type"] == "open" and e["seat"] == 0 for e in d.events) is d.opened[0]


def test_zaozhuang_opens_with_any_standing_gouji_play() -> None:
    """001 枣庄 (6): 自己打出的够级牌无人接牌，使得自己获得首发权，则该玩家开点 — a joker play and a single 2 open."""
    for text in ("D", "X5", "2", "TTTT2", "QQQ"):
        assert lead_and_stand("zaozhuang", text).opened[0], text
    assert not lead_and_stand("zaozhuang", "JJJ").opened[0], "JJJ is not a gouji play"


def test_heze_opens_with_money_but_not_jokers() -> None:
    """001 菏泽: 纯够级或者纯够级加2或者2开点，其他均不开点."""
    for text in ("QQQ", "QQQ2", "TTTT2", "2", "22"):
        assert lead_and_stand("heze", text).opened[0], text
    for text in ("X5", "D", "XQQQ"):
        assert not lead_and_stand("heze", text).opened[0], text


@pytest.mark.parametrize("preset", ["qingdao", "tongyong", "changyi", "zhangqiu", "shandong", "zoucheng"])
def test_pure_presets_open_only_with_pure_plays(preset: str) -> None:
    """001 青岛/昌邑/章丘, 003 通用, 000 山东地区: 纯够级 only (开点发4 aside: the play must stand first)."""
    rules = RuleSet.preset(preset)
    assert rules.kaidian_plays == "pure"
    rules = rules.replace(kaidian_needs_four=False, fours_whole=False)
    assert lead_and_stand(rules, "QQQ").opened[0]
    for text in ("QQQ2", "2", "22", "D"):
        assert not lead_and_stand(rules, text).opened[0], (preset, text)


def test_000_reading_opens_22_and_money_but_not_a_single_2() -> None:
    """000 其他规则 开点: 以下牌型的够级牌不开点：任意张大花，小花或者挂花的牌；单张的2."""
    rules = RuleSet.preset("qingdao").replace(kaidian_plays="no_jokers_no_single_two", kaidian_needs_four=False)
    assert lead_and_stand(rules, "22").opened[0]
    assert lead_and_stand(rules, "TTTT2").opened[0]
    assert not lead_and_stand(rules, "2").opened[0]
    assert not lead_and_stand(rules, "XQQQ").opened[0]


def test_needs_four_still_applies_to_every_reading() -> None:
    """With 开点发4 the standing play only sets up the opening; the next lead of 4s completes it."""
    rules = RuleSet(kaidian_plays="any", kaidian_needs_four=True)
    d = Deal.from_hands(["D4553", "663", "773", "883", "993", "T3"], rules, leader=0)
    d.act("D")
    while d.to_act != 0:
        d.act("pass")
    assert not d.opened[0]
    d.act("4")
    assert d.opened[0]


def test_a_cheng_dian_attempt_is_a_play_that_would_open() -> None:
    """冲点's leads are natural gouji plays that open under the reading: with ``pure`` no 2 is attached."""
    rules = RuleSet.preset("shandong")
    d = Deal.from_hands(["QQQTTTT553", "663", "773", "883", "993", "T3"], rules, leader=0)
    leads = {str(p) for p in d._chong_leads(0)}
    assert leads == {"QQQ"}


# ---------------------------------------------------------------- old records and payloads


def test_old_kaidian_allows_money_still_loads() -> None:
    """Records and option payloads from before ``kaidian_plays`` say ``kaidian_allows_money``."""
    old = RuleSet.preset("heze").to_dict()
    del old["kaidian_plays"]
    old["kaidian_allows_money"] = True
    assert RuleSet.from_dict(old) == RuleSet.preset("heze")
    old["kaidian_allows_money"] = False
    assert RuleSet.from_dict(old).kaidian_plays == "pure"
    assert RuleSet.preset("qingdao").replace(kaidian_allows_money=True).kaidian_plays == "money"
    assert upgrade_options({"kaidian_allows_money": True, "kaidian_plays": "money"}) == {"kaidian_plays": "money"}
    with pytest.raises(InvalidRules, match="kaidian_allows_money: True means kaidian_plays = 'money'"):
        upgrade_options({"kaidian_allows_money": True, "kaidian_plays": "any"})
    with pytest.raises(InvalidRules, match="kaidian_allows_money: 'yes' is not allowed"):
        RuleSet.from_dict({"kaidian_allows_money": "yes"})


def test_an_old_set_record_replays() -> None:
    """A set record written with the old option name (its checksum made for that text) replays as it was
    played: ``kaidian_allows_money`` true is ``money``."""
    rules = RuleSet.preset("qingdao").replace(kaidian_plays="money")
    m = Match(rules, seed=7, set_length=2)
    while not m.is_over:
        m.act(m.legal_actions()[0])
    body = {k: v for k, v in m.record().items() if k != "checksum"}
    del body["rules"]["kaidian_plays"]
    body["rules"]["kaidian_allows_money"] = True
    body["checksum"] = "sha256:" + hashlib.sha256(canonical(body)).hexdigest()
    again = load_record(json.dumps(body))
    assert isinstance(again, Match)
    assert again.rules == rules
    assert again.points == m.points


def test_the_cli_takes_the_option_and_its_old_name() -> None:
    from click.testing import CliRunner

    from gouji.cli import main
    from gouji.cli.options import parse_rule_options, with_options

    qingdao = RuleSet.preset("qingdao")
    for item, reading in (("kaidian_plays=any", "any"), ("kaidian_allows_money=true", "money")):
        assert with_options(qingdao, parse_rule_options(None, None, (item,))).kaidian_plays == reading
    res = CliRunner().invoke(main, ["sim", "--deals", "1", "--seed", "1", "--option", "kaidian_plays=nope"])
    assert res.exit_code == 2 and "kaidian_plays: 'nope' is not allowed" in res.output


def test_an_old_deal_log_replays_as_it_was_played() -> None:
    """A deal log from before ``kaidian_plays`` (zaozhuang then played pure-only) replays to the same events but
    for the renamed option: its 开点 stay where they were."""
    old_rules = RuleSet.preset("zaozhuang").replace(kaidian_plays="pure")
    deal = Deal.new(old_rules, seed="golden-zaozhuang")
    while not deal.is_over:
        deal.act(deal.legal_actions()[0])
    events = json.loads(json.dumps(deal.events))
    del events[0]["rules"]["kaidian_plays"]
    events[0]["rules"]["kaidian_allows_money"] = False
    for newer in ("three_small_kill", "buy_with_highest", "opposite_counter_burn", "base_points"):
        del events[0]["rules"][newer]  # options added since: an old log does not name them
    again = Deal.replay(events)
    assert again.rules == old_rules
    assert again.events[1:] == deal.events[1:] and again.opened == deal.opened
    assert again.places == deal.places
