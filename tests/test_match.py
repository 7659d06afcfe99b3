"""Sets with tribute and scoring, the duplicate tournament, and records (rule book §12-13)."""

from __future__ import annotations

import copy
import json
import random

import pytest

import gouji
from gouji.bots import RandomBot, decide
from gouji.competition.duplicate import Tournament
from gouji.competition.loading import load_record
from gouji.competition.records import RecordError
from gouji.competition.sets import Match
from gouji.engine.scoring import seat_points, team_points
from gouji.engine.tribute import owed


def play_set(preset: str, seed: int, length: int | None = None) -> Match:
    rng = random.Random(seed)
    match = Match(preset, seed=seed, set_length=length)
    bot = RandomBot()
    while not match.is_over:
        match.act(decide(bot, match.current, rng))
    return match


@pytest.fixture(scope="module")
def qingdao_set() -> Match:
    return play_set("qingdao", 4)


def test_a_set_of_five_deals(qingdao_set: Match) -> None:
    m = qingdao_set
    assert len(m.deals) == 5 and m.is_over and m.to_act is None
    assert m.points == [team_points(d) for d in m.deals]
    assert m.totals == (sum(p[0] for p in m.points), sum(p[1] for p in m.points))


def test_first_deal_pays_no_tribute_later_deals_pay_what_is_owed(qingdao_set: Match) -> None:
    m = qingdao_set
    assert m.deals[0].events[0]["tribute"] == []
    for prev, deal in zip(m.deals, m.deals[1:], strict=False):
        expected = [p.to_dict() for p in owed(m.rules, prev.result())]
        assert deal.events[0]["tribute"] == expected
        assert expected, "a qingdao deal always owes some tribute"


def test_the_last_place_leads_the_next_deal(qingdao_set: Match) -> None:
    m = qingdao_set
    for prev, deal in zip(m.deals, m.deals[1:], strict=False):
        assert prev.places is not None
        assert deal.first_leader == prev.places[-1]


def test_set_scoring_place_points_and_sweep() -> None:
    rules = gouji.RuleSet.preset("qingdao")
    assert seat_points(rules, [0, 1, 2, 3, 4, 5], None) == [4, 2, 0, 0, -2, -4]
    assert seat_points(rules, [0, 2, 4, 1, 3, 5], 0) == [12, -12, 12, -12, 12, -12]
    tournament = gouji.RuleSet.preset("tournament")
    assert seat_points(tournament, [5, 4, 3, 2, 1, 0], None) == [1, 2, 3, 4, 5, 6]


def test_sets_without_tribute() -> None:
    m = play_set("heze", 1, length=2)
    assert all(d.events[0]["tribute"] == [] for d in m.deals)


# ---------------------------------------------------------------- the duplicate tournament


@pytest.fixture(scope="module")
def tournament() -> Tournament:
    t = Tournament(seed=9)
    t.run_bots(RandomBot(), RandomBot(), random.Random(9))
    return t


def test_each_deal_is_played_twice_with_the_teams_swapped(tournament: Tournament) -> None:
    t = tournament
    assert len(t.tables) == 4 and t.is_over
    for one, two in t.tables:
        assert one.events[0]["hands"] == two.events[0]["hands"], "the same cards at both tables"
        assert one.first_leader == two.first_leader == 0
    # each hand is held by team X at one table and by team Y at the other
    for seat in range(6):
        assert {t.team_at(0, seat), t.team_at(1, seat)} == {0, 1}
    assert [t.team_at(0, s) for s in range(6)] == [0, 1, 0, 1, 0, 1]


def test_tournament_small_and_match_points(tournament: Tournament) -> None:
    t = tournament
    sp = t.small_points()
    assert len(sp) == 4 and all(x + y == 42 for x, y in sp), "6+5+4+3+2+1 at each of two tables"
    x, y = t.totals
    assert t.match_points() == ((3, 0) if x > y else (0, 3) if y > x else (1, 1))
    rows = t.result_table()
    assert [r["points"] for r in rows] == [list(p) for p in sp]


def test_tournament_small_points_follow_the_seats() -> None:
    t = Tournament(seed=2, deals=1)
    t.run_bots(RandomBot(), RandomBot(), random.Random(2))
    one, two = t.tables[0]
    x = sum(7 - 1 - i for i, s in enumerate(one.result()["places"]) if s % 2 == 0)
    x += sum(7 - 1 - i for i, s in enumerate(two.result()["places"]) if s % 2 == 1)
    assert t.small_points()[0][0] == x


def test_tournament_with_people_acting_at_either_table() -> None:
    t = Tournament(seed=3, deals=1)
    deal = t.current[1]
    seat = deal.to_act
    assert seat is not None
    with pytest.raises(gouji.IllegalAction):
        t.act(1, "pass", seat=(seat + 1) % 6)
    t.act(1, deal.legal_actions()[0], seat=seat)
    assert t.current[0].decisions == 0 and deal.decisions == 1
    with pytest.raises(gouji.IllegalAction, match="table"):
        t.act(2, "pass")


# ---------------------------------------------------------------- records


def test_set_record_round_trips(qingdao_set: Match) -> None:
    rec = qingdao_set.record()
    text = json.dumps(rec, ensure_ascii=False)
    again = load_record(text)
    assert isinstance(again, Match)
    assert again.totals == qingdao_set.totals
    assert [d.events for d in again.deals] == [d.events for d in qingdao_set.deals]
    assert rec["format"] == "gouji-record" and rec["version"] == 1 and rec["kind"] == "set"


def test_tournament_record_round_trips(tournament: Tournament) -> None:
    again = load_record(json.dumps(tournament.record()))
    assert isinstance(again, Tournament)
    assert again.small_points() == tournament.small_points()
    assert again.match_points() == tournament.match_points()


def test_unfinished_set_record_replays_to_where_it_was() -> None:
    m = Match("qingdao", seed=5)
    rng = random.Random(5)
    for _ in range(150):
        m.act(decide(RandomBot(), m.current, rng))
    again = Match.from_record(m.record())
    assert again.current.events == m.current.events and again.to_act == m.to_act


def test_a_record_up_to_a_finished_deal(qingdao_set: Match) -> None:
    """``record(upto=k)``: the set as it stood when deal k ended — its first k + 1 deals, their totals, signed;
    the whole set's record when k is the last deal; a deal that has not ended is refused."""
    m = qingdao_set
    whole = m.record()
    for k in range(len(m.points)):
        rec = m.record(upto=k)
        assert rec["deals"] == whole["deals"][: k + 1]
        assert rec["totals"] == [sum(p[0] for p in m.points[: k + 1]), sum(p[1] for p in m.points[: k + 1])]
        again = load_record(json.dumps(rec))
        assert isinstance(again, Match) and [d.events for d in again.deals[: k + 1]] == [
            d.events for d in m.deals[: k + 1]
        ]
        assert list(again.totals) == rec["totals"]
    assert m.record(upto=len(m.points) - 1) == whole
    with pytest.raises(ValueError, match="has not finished"):
        m.record(upto=len(m.points))
    playing = Match("qingdao", seed=5)
    with pytest.raises(ValueError, match="deal 0 has not finished"):
        playing.record(upto=0)


def test_a_record_as_text_is_the_same_document(qingdao_set: Match) -> None:
    """``record_text(k)``: the signed record up to finished deal k as canonical JSON text (keys sorted, no
    spaces) — the same document as ``record(upto=k)``, its checksum that of the text without it; it loads;
    a deal that has not ended is refused."""
    m = qingdao_set
    for k in range(len(m.points)):
        text = m.record_text(k)
        doc = json.loads(text)
        assert doc == m.record(upto=k)
        assert text == json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()
        assert resign(copy.deepcopy(doc))["checksum"] == doc["checksum"]
        assert len(load_record(text.decode()).deals) == min(k + 2, m.set_length)  # type: ignore[union-attr]
    fresh = Match.from_record(m.record())  # (no deal's text kept yet: each is made when first asked for)
    assert fresh.record_text(len(m.points) - 1) == m.record_text(len(m.points) - 1)
    with pytest.raises(ValueError, match="has not finished"):
        m.record_text(len(m.points))
    with pytest.raises(ValueError, match="deal 0 has not finished"):
        Match("qingdao", seed=5).record_text(0)


def test_a_record_made_again_is_made_from_the_deals_as_they_are(qingdao_set: Match) -> None:
    """A set's record is made again as each deal ends, with the canonical texts of its finished deals made
    once: the checksum is still that of the whole canonical text, the deal in progress is taken as it is now,
    and a record's parts are its own (changing one changes no later record)."""
    m = qingdao_set
    rec = m.record()
    assert resign(copy.deepcopy(rec))["checksum"] == rec["checksum"]
    mine = m.record()
    mine["deals"][0]["actions"][0][1] = "X"
    mine["deals"][1]["actions"].pop()
    mine["deals"][2]["places"].reverse()
    mine["deals"][0]["points"][0] += 1
    assert m.record() == rec
    assert m.record()["deals"][0] is not m.record()["deals"][0]
    playing = Match("qingdao", seed=5)
    rng = random.Random(5)
    while len(playing.deals) < 2:
        playing.act(decide(RandomBot(), playing.current, rng))
    before = playing.record()
    playing.act(decide(RandomBot(), playing.current, rng))
    after = playing.record()
    assert after["deals"][0] == before["deals"][0]
    assert len(after["deals"][1]["actions"]) == len(before["deals"][1]["actions"]) + 1
    for r in (before, after):
        assert resign(copy.deepcopy(r))["checksum"] == r["checksum"]
        assert [d.events for d in load_record(json.dumps(r)).deals] == [  # type: ignore[union-attr]
            d.events for d in Match.from_record(r).deals
        ]


def resign(rec: dict) -> dict:  # type: ignore[type-arg]
    from gouji.competition.records import sign

    body = {k: v for k, v in rec.items() if k != "checksum"}
    return sign(body)


def test_tampered_records_are_refused(qingdao_set: Match) -> None:
    rec = qingdao_set.record()
    # altered without fixing the checksum: refused as corrupt
    bad = copy.deepcopy(rec)
    bad["totals"][0] += 1
    with pytest.raises(RecordError, match="checksum"):
        load_record(bad)
    # altered with a fresh checksum: the replay refuses it
    bad = copy.deepcopy(rec)
    bad["totals"][0] += 1
    with pytest.raises(RecordError, match="totals"):
        load_record(resign(bad))
    bad = copy.deepcopy(rec)
    seat, _ = bad["deals"][1]["actions"][-1]
    bad["deals"][1]["actions"][-1] = [seat, "DDDD"]
    with pytest.raises(RecordError, match="does not replay"):
        load_record(resign(bad))
    bad = copy.deepcopy(rec)
    bad["deals"][2]["places"] = list(reversed(bad["deals"][2]["places"]))
    with pytest.raises(RecordError, match="places"):
        load_record(resign(bad))
    bad = copy.deepcopy(rec)
    bad["deals"][1]["tribute"] = []
    with pytest.raises(RecordError, match="tribute"):
        load_record(resign(bad))
    bad = copy.deepcopy(rec)
    bad["version"] = 99
    with pytest.raises(RecordError, match="version"):
        load_record(resign(bad))
    with pytest.raises(RecordError, match="JSON"):
        load_record(json.dumps(rec)[:-20])
    with pytest.raises(RecordError, match="not a gouji record"):
        load_record({"format": "other"})


@pytest.mark.parametrize("preset", sorted(gouji.PRESETS))
def test_a_deal_entrys_text_is_the_standard_librarys_canonical_text(preset: str) -> None:
    """A finished deal's entry is written by orjson (``_entry_text``), the record's checksum is checked with the
    standard library's text (``_canonical``): the two must be the same bytes for every entry of every preset,
    or a stored record would not verify."""
    from gouji.competition.records import canonical, entry_text

    for seed in (f"{preset}-1", "种子/ä😀\n\t\x01"):  # (the seed is the one string of the entry a user chooses)
        m = Match(gouji.RuleSet.preset(preset), seed=seed, set_length=3)
        rng = random.Random(seed)
        while not m.is_over:
            before = len(m.points)
            legal = m.legal_actions()
            m.act(legal[rng.randrange(len(legal))])
            if len(m.points) > before:
                i = before
                entry, text = m._deal_entry(i, m.deals[i])
                assert text == canonical(entry) == entry_text(entry), (preset, seed, i)
                assert load_record(m.record_text(i).decode()).points == m.points[: i + 1]  # (its checksum verifies)
        assert entry_text({"seed": "x", "n": 2**70}) == canonical({"seed": "x", "n": 2**70})  # (orjson refuses it)


def test_a_kept_deal_entry_text_takes_its_own_size() -> None:
    """orjson's bytes keep the whole buffer they were written in (32 KiB for a 2 KB text), and a finished deal
    keeps its entry's text while its table lives: the text is copied to its own size."""
    import tracemalloc

    from gouji.competition.records import entry_text

    entry = {"seed": "s/0", "leader": 0, "tribute": [], "actions": [[i % 6, "KK"] for i in range(200)]}
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        texts = [entry_text(entry) for _ in range(20)]
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 20 * (len(texts[0]) + 256), grown
