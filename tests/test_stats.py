"""Players' statistics (issue 42): the counters of deals, sets and duplicate matches, from their records."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import gouji
from gouji import Deal
from gouji.bots import RandomBot, decide, make_bot
from gouji.competition.duplicate import Tournament
from gouji.competition.records import RecordError, sign
from gouji.competition.sets import Match
from gouji.competition.stats import (
    COUNTERS,
    Counters,
    SeatKey,
    credit,
    deal_stats,
    merge,
    preset_of,
    record_stats,
    record_totals,
    summary,
    zero,
)
from gouji.engine.actions import Burn, parse_action
from gouji.engine.seats import SEATS, team

from .test_deal_rules import finish, run
from .test_setup import NO_BIESAN, pass_setup

SETS = [("qingdao", 4, "random"), ("tournament", 2, "random"), ("zhangqiu", 3, "random"), ("heze", 1, "heuristic")]
"""Seeded sets: zhangqiu's seed 3 sweeps in deal 3, so deal 4 starts with 汇5 (the whole set replays for it)."""


def play_set(preset: str, seed: int, bot_name: str) -> Match:
    rng = random.Random(seed)
    match = Match(preset, seed=seed)
    bot = make_bot(bot_name) if bot_name != "random" else RandomBot()
    while not match.is_over:
        match.act(decide(bot, match.current, rng))
    return match


@pytest.fixture(scope="module", params=SETS, ids=lambda p: f"{p[0]}-{p[1]}")
def played(request: pytest.FixtureRequest) -> Match:
    return play_set(*request.param)


@pytest.fixture(scope="module")
def duplicate() -> Tournament:
    t = Tournament("tournament", seed=7, deals=3)
    t.run_bots(RandomBot(), RandomBot(), random.Random(7))
    return t


def add_up(*parts: dict[SeatKey, Counters]) -> dict[SeatKey, Counters]:
    out: dict[SeatKey, Counters] = {}
    for part in parts:
        for key, counters in part.items():
            out[key] = merge(out.get(key, {}), counters)
    return out


# ---------------------------------------------------------------- a set: incremental = all at once


def test_the_increments_add_up_to_the_whole_record(played: Match) -> None:
    n = len(played.deals)
    # as the server stores them: the set up to each deal as it ends (its text), then the whole set
    increments = [record_stats(played.record_text(k), k) for k in range(n)]
    final = played.record()
    total = add_up(*increments, record_stats(final, None))
    assert total == record_totals(final)
    for k, inc in enumerate(increments):
        assert inc == {(0, s): deal_stats(played.deals[k], s) for s in range(SEATS)}
        assert record_stats(final, k) == inc, "a later record gives the same deal's increments"
    assert all(list(c) == list(COUNTERS) for c in total.values())


def test_places_count_up_to_the_deals(played: Match) -> None:
    total = record_totals(played.record())
    n = len(played.deals)
    for s in range(SEATS):
        c = total[0, s]
        assert c["deals"] == n
        assert sum(c[f"place_{p}"] for p in range(1, 7)) == n
    for p in range(1, 7):
        assert sum(total[0, s][f"place_{p}"] for s in range(SEATS)) == n, "each place is somebody's in each deal"


def test_points_are_the_sets_team_points(played: Match) -> None:
    total = record_totals(played.record())
    for s in range(SEATS):
        assert total[0, s]["points"] == played.totals[team(s)]
        for k, deal in enumerate(played.deals):
            assert deal_stats(deal, s)["points"] == played.points[k][team(s)]
    won = [c["sets_won"] for c in total.values()]
    drawn = [c["sets_drawn"] for c in total.values()]
    lost = [c["sets_lost"] for c in total.values()]
    x, y = played.totals
    assert drawn == [int(x == y)] * SEATS
    assert won == [int(x > y), int(y > x)] * 3 and lost == [int(x < y), int(y < x)] * 3


def independent_count(deal: Deal, seat: int) -> dict[str, int]:
    """The event counters of ``seat`` from what else the deal says: its actions, result and void events."""
    result = deal.result()
    voided = [s for e in deal.events if e["type"] == "void" for s in e["revolted"]]
    burns = [parse_action(e["action"]) for e in deal.events if e["type"] == "act" and e["seat"] == seat]
    return {
        "burns_tried": sum(isinstance(a, Burn) for a in burns),
        "burns_won": sum(b["burner"] == seat and b["result"] == "success" for b in result["burns"]),
        "opened": int(result["opened"][seat]),
        "men_suffered": sum(p[0] == seat for p in result["smothered"]),
        "men_dealt": sum(p[1] == seat for p in result["smothered"]),
        "revolutions": (result["revolted"] + voided).count(seat),
    }


def test_burns_men_opening_and_revolutions_match_the_deals_own_account(played: Match) -> None:
    for deal in played.deals:
        for s in range(SEATS):
            counted = deal_stats(deal, s)
            assert {k: counted[k] for k in independent_count(deal, s)} == independent_count(deal, s)


def test_the_seeded_sets_count_something_of_each_kind() -> None:
    """So that the tests above test something: over the seeded sets, every event counter is above 0 — but
    burns_won, which random play seldom reaches (the scripted cases below count it)."""
    total = zero()
    for params in SETS:
        for c in record_totals(play_set(*params).record()).values():
            total = merge(total, c)
    for name in ("burns_tried", "opened", "men_suffered", "men_dealt", "revolutions"):
        assert total[name] > 0, name


def test_a_deal_after_a_sweep_with_huiwu_is_read_with_the_whole_set() -> None:
    m = play_set("zhangqiu", 3, "random")
    assert m.deals[2].sweep is not None and m.deals[3].huiwu, "the seed no longer gives the case"
    assert record_stats(m.record_text(3), 3) == {(0, s): deal_stats(m.deals[3], s) for s in range(SEATS)}


# ---------------------------------------------------------------- a duplicate match


def test_a_duplicate_match(duplicate: Tournament) -> None:
    record = duplicate.record()
    increments = [record_stats(record, k) for k in range(duplicate.n_deals)]
    total = add_up(*increments, record_stats(record, None))
    assert total == record_totals(record)
    assert set(total) == {(t, s) for t in (0, 1) for s in range(SEATS)}
    for side in (0, 1):  # team X, team Y: small points at both tables
        held = [key for key in total if Tournament.team_at(*key) == side]
        assert sum(total[key]["points"] for key in held) == 3 * duplicate.totals[side]  # each seat: its team's
        mine = duplicate.match_points()[side]
        assert all(total[key]["matches_won"] == (mine == 3) for key in held)
        assert all(total[key]["matches_drawn"] == (mine == 1) for key in held)
        assert all(total[key]["sets_won"] == 0 for key in held)
    for k, pair in enumerate(duplicate.tables):
        for t in (0, 1):
            for s in range(SEATS):
                assert increments[k][t, s] == deal_stats(pair[t], s, small_points=True)
    assert preset_of(record) == "tournament"


def test_a_duplicate_match_on_set_scoring_rules_counts_small_points() -> None:
    t = Tournament("qingdao", seed=3, deals=1)
    t.run_bots(RandomBot(), RandomBot(), random.Random(3))
    inc = record_stats(t.record(), 0)
    places = t.tables[0][0].result()["places"]
    for s in range(SEATS):
        assert inc[0, s]["points"] == sum(6 - i for i, p in enumerate(places) if team(p) == team(s))


def test_a_match_in_progress_gives_only_its_finished_deals() -> None:
    t = Tournament("tournament", seed=5, deals=2)
    rng = random.Random(5)
    bot = RandomBot()
    while len(t.tables) < 2:  # play the first deal at both tables
        for table in (0, 1):
            if t.current[table].to_act is not None:
                t.act(table, decide(bot, t.current[table], rng))
    t.act(0, decide(bot, t.current[0], rng))
    record = t.record()
    assert record_stats(record, 0)[1, 5]["deals"] == 1
    with pytest.raises(ValueError, match="deal 1 of this match record has not finished at table 1"):
        record_stats(record, 1)
    with pytest.raises(ValueError, match="not finished: it has no match points"):
        record_stats(record, None)
    assert all(c["deals"] == 1 for c in record_totals(record).values())


# ---------------------------------------------------------------- scripted deals, one counter each


def points_of(places: list[int], scores: tuple[int, ...], seat: int) -> int:
    return sum(scores[i] for i, p in enumerate(places) if team(p) == team(seat))


def test_places_and_points_of_one_deal() -> None:
    d = Deal.from_hands(["883", "99T", "43", "53", "63", "73"], "qingdao", leader=0)
    run(d, (0, "88"), (1, "99"))
    finish(d)
    assert d.places is not None and d.places[-1] == 0
    for s in range(SEATS):
        c = deal_stats(d, s)
        assert c["deals"] == 1 and c[f"place_{d.places.index(s) + 1}"] == 1
        assert sum(c[f"place_{p}"] for p in range(1, 7)) == 1
        assert c["points"] == points_of(d.places, (4, 2, 0, 0, -2, -4), s)
        assert deal_stats(d, s, small_points=True)["points"] == points_of(d.places, (6, 5, 4, 3, 2, 1), s)
    # 闷 (example 9): seat 1's 99 beat seat 0's 88 and left it only a 3
    assert deal_stats(d, 0)["men_suffered"] == 1 and deal_stats(d, 0)["men_dealt"] == 0
    assert deal_stats(d, 1)["men_dealt"] == 1 and deal_stats(d, 1)["men_suffered"] == 0
    assert sum(deal_stats(d, s)["men_dealt"] for s in range(SEATS)) == 1


BURN = ["QQQ53", "443", "KKKX93", "553", "663", "773"]
PASSES = ((4, "pass"), (0, "pass"), (3, "pass"), (1, "pass"), (5, "pass"))


def test_a_burn_that_succeeds() -> None:
    d = Deal.from_hands(BURN, "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "burn KKK"), *PASSES, (2, "X9"), *PASSES, (2, "3"))
    finish(d)
    assert [(deal_stats(d, s)["burns_tried"], deal_stats(d, s)["burns_won"]) for s in range(SEATS)] == [
        (0, 0),
        (0, 0),
        (1, 1),
        (0, 0),
        (0, 0),
        (0, 0),
    ]


def test_a_countered_burn_is_tried_and_the_counter_burn_won() -> None:
    d = Deal.from_hands(["QQQ53", "443", "KKKX93", "553", "AAAD3", "773"], "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "burn KKK"), (4, "burn AAA"))
    others = ((0, "pass"), (2, "pass"), (5, "pass"), (3, "pass"), (1, "pass"))
    run(d, *others, (4, "D"), *others, (4, "3"))
    finish(d)
    tried_won = {s: (deal_stats(d, s)["burns_tried"], deal_stats(d, s)["burns_won"]) for s in (2, 4)}
    assert tried_won == {2: (1, 0), 4: (1, 1)}


def test_a_broken_burn_is_tried_not_won() -> None:
    d = Deal.from_hands(["QQQ53", "443", "KKKX93", "553", "663", "AAA73"], "qingdao", leader=0)
    run(d, (0, "QQQ"), (2, "burn KKK"), (4, "pass"), (0, "pass"), (3, "pass"), (1, "pass"), (5, "AAA"))
    finish(d)
    assert (deal_stats(d, 2)["burns_tried"], deal_stats(d, 2)["burns_won"]) == (1, 0)


def test_opening_the_point() -> None:
    d = Deal.from_hands(["QQQ553", "443", "663", "773", "883", "993"], "zoucheng", leader=0)
    d.act("QQQ", seat=0)
    while d.top is not None:
        d.act("pass")
    finish(d)
    assert [deal_stats(d, s)["opened"] for s in range(SEATS)] == [1, 0, 0, 0, 0, 0]


def test_a_revolution() -> None:
    d = Deal.from_hands(["5", "44", "6", "277", "288", "299"], NO_BIESAN, leader=0, setup=True)
    run(d, (0, "pass"), (1, "revolt"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"), (4, "wutou"))
    pass_setup(d)
    finish(d)
    assert [deal_stats(d, s)["revolutions"] for s in range(SEATS)] == [0, 1, 0, 0, 0, 0]
    assert deal_stats(d, 1)["place_4"] == 1


def test_revolutions_that_void_the_deal_count() -> None:
    d = Deal.from_hands(["55", "66", "23T", "23J", "23Q", "23K"], NO_BIESAN, leader=0, setup=True, seed=11)
    run(d, (0, "revolt"), (1, "revolt"))
    pass_setup(d)
    finish(d)
    assert [e["revolted"] for e in d.events if e["type"] == "void"] == [[0, 1]] and d.revolted == []
    assert [deal_stats(d, s)["revolutions"] for s in range(SEATS)] == [1, 1, 0, 0, 0, 0]


def test_a_deal_not_over_and_a_seat_not_a_seat() -> None:
    d = Deal.from_hands(BURN, "qingdao", leader=0)
    with pytest.raises(ValueError, match="the deal is not over"):
        deal_stats(d, 0)
    finish(d)
    with pytest.raises(ValueError, match="seat must be 0-5, not 6"):
        deal_stats(d, 6)


# ---------------------------------------------------------------- records that cannot be counted


@pytest.fixture(scope="module")
def short_set() -> Match:
    rng = random.Random(9)
    m = Match("qingdao", seed=9, set_length=2)
    while not m.is_over:
        m.act(decide(RandomBot(), m.current, rng))
    return m


def test_a_record_failing_its_checksum(short_set: Match) -> None:
    record = short_set.record()
    record["deals"][0]["actions"].pop()
    with pytest.raises(RecordError, match="checksum does not match"):
        record_stats(record, 0)
    with pytest.raises(RecordError, match="checksum does not match"):
        record_stats(record, None)


def test_a_record_that_does_not_replay(short_set: Match) -> None:
    record = short_set.record()
    body = {k: v for k, v in copy.deepcopy(record).items() if k != "checksum"}
    body["deals"][1]["places"] = list(reversed(body["deals"][1]["places"]))
    with pytest.raises(RecordError, match="deal 2: the places"):
        record_stats(sign(body), 1)


@pytest.mark.parametrize(
    ("deal_index", "error"),
    [
        (2, "deal_index 2 is out of range: this set record holds deals 0-1"),
        (-1, "deal_index -1 is out of range"),
        (True, "deal_index must be a deal's index"),
        ("1", "deal_index must be a deal's index"),
    ],
)
def test_a_deal_index_out_of_range(short_set: Match, deal_index: Any, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        record_stats(short_set.record(), deal_index)


def test_a_set_not_finished(short_set: Match) -> None:
    with pytest.raises(ValueError, match="this set record is not finished: 1 of 2 deals begun"):
        record_stats(short_set.record(upto=0), None)
    m = Match("qingdao", seed=9, set_length=2)
    m.act(decide(RandomBot(), m.current, random.Random(1)))
    with pytest.raises(ValueError, match="deal 0 of this set record has not finished"):
        record_stats(m.record(), 0)


def test_what_is_not_a_set_or_match_record() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        record_stats("{", 0)
    with pytest.raises(RecordError, match="a record is a JSON object"):
        record_stats("[]", 0)
    with pytest.raises(RecordError, match="not 'event' ones"):
        record_stats(json.dumps({"format": "gouji-record", "kind": "event"}), None)


# ---------------------------------------------------------------- adding up, accounts and the profile


def test_merge_adds_and_takes_a_missing_counter_as_zero() -> None:
    a = zero() | {"deals": 2, "points": 6}
    assert merge(a, {"deals": 1, "points": -2}) == zero() | {"deals": 3, "points": 4}
    assert merge({}, {}) == zero()


def test_credit_by_account() -> None:
    one = zero() | {"deals": 1}
    increments = {(0, s): one for s in range(SEATS)}
    accounts = {(0, 0): "ann", (0, 2): "ann", (0, 1): "bo", (0, 3): None}
    assert credit(increments, accounts) == {"ann": zero() | {"deals": 2}, "bo": one}


def test_summary() -> None:
    assert summary(zero())["points_per_deal"] is None and summary(zero())["burn_rate"] is None
    c = zero() | {"deals": 3, "place_1": 2, "place_6": 1, "points": 10, "burns_tried": 3, "burns_won": 1}
    c |= {"opened": 1, "sets_won": 1, "matches_lost": 2}
    s = summary(c)
    assert s["places"] == [2, 0, 0, 0, 0, 1] and s["points_per_deal"] == 3.33
    assert s["burn_rate"] == 0.333 and s["open_rate"] == 0.333
    assert s["sets"] == {"won": 1, "drawn": 0, "lost": 0} and s["matches"] == {"won": 0, "drawn": 0, "lost": 2}


def test_preset_of() -> None:
    assert preset_of({"rules": gouji.RuleSet.preset("heze").to_dict()}) == "heze"
    with pytest.raises(RecordError, match="name no preset"):
        preset_of({})
