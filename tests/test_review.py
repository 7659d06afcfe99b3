"""The lookahead and the 复盘 review (issue 44): exact rollouts, honest gains, the novice found out, bad input
refused before anything is computed."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gouji.bots import HeuristicBot, NoviceBot, play_deal
from gouji.cli import main
from gouji.competition.duplicate import Tournament
from gouji.competition.records import sign
from gouji.competition.sets import Match
from gouji.engine.actions import PASS, parse_action
from gouji.engine.deal import Deal
from gouji.engine.rules import PRESETS, RuleSet
from gouji.engine.scoring import team_points
from gouji.engine.seats import SEATS, team
from gouji.lab import lookahead as L
from gouji.lab.review import ReviewError, format_review, review_deal, review_record, threshold
from gouji.lab.review_check import check_deals, compare

ROOT = Path(__file__).resolve().parents[1]


def mixed_deal(rules: str, seed: int) -> Deal:
    """A deal played by the novice in team ``seed % 2``'s seats and the heuristic in the others."""
    side = seed % 2
    bots = [NoviceBot() if team(s) == side else HeuristicBot() for s in range(SEATS)]
    return play_deal(Deal.new(rules, seed=seed), bots, random.Random(0))


def replayed_to(recorded: Deal, index: int) -> Deal:
    """The recorded deal replayed from its deal event up to (not including) decision ``index`` (1-based)."""
    deal = Deal.from_deal_event(recorded.events[0])
    acts = [e for e in recorded.events if e["type"] == "act"]
    for e in acts[: index - 1]:
        deal.act(e["action"], seat=e["seat"])
    return deal


def heuristic_result(deal: Deal, action: str, seat: int) -> int:
    """``action`` taken, then the heuristic in every seat through the engine's own loop: the seat's team points."""
    deal.act(action)
    play_deal(deal, [HeuristicBot()] * SEATS, random.Random(7))
    return team_points(deal)[team(seat)]


# ------------------------------------------------------------------------------------------ the lookahead


def test_a_rollout_is_the_heuristic_playing_on_and_the_cache_changes_nothing() -> None:
    deal = Deal.new("qingdao", seed=1001)
    la = L.Lookahead()
    for _ in range(40):  # into play
        deal.act(la.choice(deal))
    cands = L.candidates(deal, [la.choice(deal)])
    assert len(cands) >= 2
    shared = la.evaluate(deal, cands)
    alone = [L.Lookahead().evaluate(deal, [a])[0] for a in cands]
    assert shared == alone
    for a, score in zip(cands, shared, strict=True):
        branch = Deal.replay(deal.events)  # from the log, not a copy
        branch.act(a)
        play_deal(branch, [HeuristicBot()] * SEATS, random.Random(3))
        assert team_points(branch) == score, str(a)
    assert deal.decisions == 40  # left as it was


def test_the_heuristic_line_is_free_once_played() -> None:
    deal = Deal.new("tournament", seed=1002)
    la = L.Lookahead()
    end = la.play_out(Deal.replay(deal.events), L.history_key(deal))
    steps = la.steps
    assert la.evaluate(deal, [la.choice(deal)]) == [end]
    assert la.steps == steps  # answered from the cache: no decision played again


@pytest.mark.parametrize("rules", ["qingdao", "tournament", "zoucheng"])
def test_candidates_are_distinct_legal_and_keep_the_played_the_heuristic_and_pass(rules: str) -> None:
    deal = Deal.new(rules, seed=1003)
    la = L.Lookahead()
    seen_pass = seen_lead = 0
    while deal.to_act is not None:
        legal = deal.legal_actions()
        h = la.choice(deal)
        if len(legal) > 1:
            played = legal[len(legal) // 2]
            cands = L.candidates(deal, [played, h], limit=6)
            texts = [a.text for a in cands]
            assert texts[0] == played.text and h.text in texts
            assert len(set(texts)) == len(texts) and all(a in legal for a in cands)
            assert len(cands) <= max(6, 2 + sum(1 for a in legal if a.text in ("pass", "yield")))
            assert len(cands) >= min(len(legal), 2)
            if PASS in legal:
                seen_pass += 1
                assert "pass" in texts
            if deal.top is None and deal.phase == "play":
                seen_lead += 1
        deal.act(h)
    assert seen_pass > 5 and seen_lead > 3


def test_kinds_name_what_a_player_would() -> None:
    assert L.kind(parse_action("pass"), lead=False) == "pass"
    assert L.kind(parse_action("777"), lead=True) == "lead 7"
    assert L.kind(parse_action("22"), lead=True) == "lead 2"
    assert L.kind(parse_action("XD"), lead=True) == "lead jokers"
    assert L.kind(parse_action("2777"), lead=False) == "2s"
    assert L.kind(parse_action("burn X77"), lead=False) == "burn jokers"
    assert L.strength(parse_action("AA")) > L.strength(parse_action("KK"))


# ------------------------------------------------------------------------------------------ the review


@pytest.mark.parametrize(("rules", "seed", "seat"), [("qingdao", 1011, 0), ("tournament", 1012, 3)])
def test_a_flagged_decision_replaced_by_the_suggestion_reproduces_the_gain_exactly(
    rules: str, seed: int, seat: int
) -> None:
    recorded = mixed_deal(rules, seed)
    found: list[dict[str, Any]] = []
    result = review_deal(recorded, seat, progress=found.append, limit=5)
    assert found == result["decisions"] and found
    assert result["lost"] == sum(d["gain"] for d in found)
    assert result["mistakes"] == sum(d["gain"] >= threshold(recorded.rules) for d in found)
    better = [d for d in found if d["gain"] > 0]
    assert better, "a review that never finds better is not checking anything"
    for d in better[:3]:
        best = heuristic_result(replayed_to(recorded, d["index"]), d["best"], seat)
        played = heuristic_result(replayed_to(recorded, d["index"]), d["played"], seat)
        assert best - played == d["gain"], d
        assert d["candidates"][0] == {"action": d["played"], "result": played}


def test_the_novice_loses_more_than_the_heuristic_in_a_few_deals() -> None:
    # A fast version of the 200-deal check of docs/review.md (benchmarks/bench_review.py --novice 200).
    checks = check_deals("qingdao", range(2001, 2007), seats=(0, 1), limit=3)
    out = compare(checks)
    assert out["deals"] == 6
    assert out["mistakes"]["novice"] > out["mistakes"]["heuristic"]
    assert out["lost"]["novice"] > out["lost"]["heuristic"]


def test_thresholds_are_documented_for_every_preset() -> None:
    text = (ROOT / "docs" / "review.md").read_text(encoding="utf-8")
    for name in PRESETS:
        rs = RuleSet.preset(name)
        unit = "small points" if rs.scoring == "tournament" else "points"
        assert f"| `{name}` | {threshold(rs)} {unit} |" in text, name


# ------------------------------------------------------------------------------------------ records and the CLI


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("records")
    match = Match("qingdao", seed=1021, set_length=2)
    bots = [HeuristicBot(), NoviceBot()] * 3
    rng = random.Random(0)
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        match.act(bots[seat].decide(match.current.view(seat), match.legal_actions(), rng))
    t = Tournament("tournament", seed=1022, deals=1)
    t.run_bots(HeuristicBot(), NoviceBot(), random.Random(0))
    paths = {"set": d / "set.json", "match": d / "match.json", "two": d / "two.json"}
    paths["set"].write_text(json.dumps(match.record()), encoding="utf-8")
    paths["match"].write_text(json.dumps(t.record()), encoding="utf-8")
    paths["two"].write_text(json.dumps([match.record(), match.record()]), encoding="utf-8")
    return paths


def run(*args: str | Path) -> Any:
    return CliRunner().invoke(main, ["review", *map(str, args)])


def test_the_cli_reviews_a_set_and_a_duplicate_table(records: dict[str, Path]) -> None:
    out = run(records["set"], "--deal", "2", "--seat", "1", "--json", "--candidates", "3")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert {"seat", "deal", "decisions", "mistakes", "lost", "note"} <= set(data)
    assert (data["seat"], data["deal"], data["unit"]) == (1, 2, "points")
    assert all({"index", "played", "best", "gain", "mistake"} <= set(d) for d in data["decisions"])
    tribute = review_record(json.loads(records["set"].read_text()), 2, 2, limit=3)  # 还贡 is a decision too
    first = tribute["decisions"][0]
    assert first["kind"] == "setup" and all(c["action"].startswith("return") for c in first["candidates"])
    assert len(first["candidates"]) == 3
    text = run(records["match"], "--deal", "1", "--seat", "2", "--table", "2", "--candidates", "3")
    assert text.exit_code == 0, text.output
    assert "hindsight" in text.output and "small points" in text.output
    assert text.output.rstrip().splitlines()[-1].startswith("seat 2 lost ")
    again = review_record(json.loads(records["match"].read_text()), 1, 2, table=2, limit=3)
    assert format_review(again) == text.output  # the same function, the same answer


def corrupt(record: dict[str, Any]) -> dict[str, Any]:
    seat, action = record["deals"][0]["actions"][3]
    record["deals"][0]["actions"][3] = [(seat + 1) % SEATS, action]
    return record


def bad_schema(record: dict[str, Any]) -> dict[str, Any]:
    record["deals"][0]["actions"] = "none"
    del record["checksum"]
    return sign(record)  # signed anew: the checksum holds, the shape does not


@pytest.mark.parametrize(
    ("args", "edit", "words"),
    [
        (("--deal", "3", "--seat", "0"), None, "deal 3 is out of range: the record holds deals 1 to 2"),
        (("--deal", "0", "--seat", "0"), None, "deal 0 is out of range"),
        (("--deal", "1", "--seat", "6"), None, "seat 6 is out of range: the seats are 0 to 5"),
        (("--deal", "1", "--seat", "-1"), None, "seat -1 is out of range"),
        (("--deal", "1", "--seat", "0", "--table", "1"), None, "a set's record has one table"),
        (("--deal", "1", "--seat", "0"), corrupt, "checksum does not match"),
        (("--deal", "1", "--seat", "0"), bad_schema, "deals[0].actions"),
    ],
)
def test_bad_input_is_refused_in_words_before_anything_is_computed(
    records: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    edit: Any,
    words: str,
) -> None:
    def never(*_: object) -> None:
        raise AssertionError("a rollout for refused input")

    monkeypatch.setattr(L.Lookahead, "rollout", never)
    path = records["set"]
    if edit is not None:
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(edit(json.loads(records["set"].read_text()))), encoding="utf-8")
    out = run(path, *args)
    assert out.exit_code != 0
    assert words in out.output, out.output


def test_a_duplicate_match_needs_its_table_and_a_list_its_set(
    records: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(L.Lookahead, "rollout", None)
    out = run(records["match"], "--deal", "1", "--seat", "0")
    assert out.exit_code == 1 and "two tables: name one, table 1 or 2" in out.output
    out = run(records["match"], "--deal", "1", "--seat", "0", "--table", "3")
    assert out.exit_code == 1 and "table 3 is out of range" in out.output
    out = run(records["two"], "--deal", "1", "--seat", "0")
    assert out.exit_code == 1 and "the file holds 2 records: name one with --set 1 to 2" in out.output
    out = run(records["two"], "--deal", "1", "--seat", "0", "--set", "3")
    assert out.exit_code == 1 and "--set 3 is out of range" in out.output
    with pytest.raises(ReviewError, match="checksum"):
        review_record(corrupt(json.loads(records["set"].read_text())), 1, 0)
