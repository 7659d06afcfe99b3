"""The reason of a 复盘 mistake (issue 44, item 3): both lines are the very ones the review compared (their
points differ by the gain it claimed), and each reason says what is true of them."""

from __future__ import annotations

import random
from collections import Counter

from gouji.bots import HeuristicBot, NoviceBot, play_deal
from gouji.engine.deal import Deal
from gouji.engine.scoring import team_points
from gouji.engine.seats import SEATS, team
from gouji.lab.lookahead import Lookahead
from gouji.lab.review import iter_review, unit
from gouji.lab.review_reason import CODES, line, positions, with_reasons


def _mixed(seed: int) -> Deal:
    bots = [NoviceBot() if s % 2 == 0 else HeuristicBot() for s in range(SEATS)]
    return play_deal(Deal.new("qingdao", seed=seed), bots, random.Random(0))


def test_each_mistake_has_a_reason_true_of_the_two_lines() -> None:
    codes: Counter[str] = Counter()
    for seed in (2, 3):
        recorded = _mixed(seed)
        reviewed = list(with_reasons(recorded, 0, iter_review(recorded, 0), unit(recorded.rules)))
        assert [d["index"] for d in reviewed] == [d["index"] for d in iter_review(recorded, 0)]
        for d in reviewed:
            assert ("reason" in d) == d["mistake"]
            if not d["mistake"]:
                continue
            r = d["reason"]
            codes[r["code"]] += 1
            assert r["code"] in CODES and r["params"]["gain"] == d["gain"] and r["params"]["best"] == d["best"]
            position = next(p for i, p in positions(recorded) if i == d["index"])
            la = Lookahead()
            worse, better = line(position, d["played"], la), line(position, d["best"], la)
            assert team_points(better)[team(0)] - team_points(worse)[team(0)] == d["gain"]  # the review's lines
            pw, pb = worse.result()["places"], better.result()["places"]
            if r["code"] == "mate":
                mate = r["params"]["mate"]
                assert team(mate) == team(0) and mate != 0
                assert pb.index(mate) == r["params"]["place"] < r["params"]["was"] == pw.index(mate)
            if r["code"] == "place":
                assert pb.index(0) == r["params"]["place"] < r["params"]["was"] == pw.index(0)
            if r["code"] == "lead":
                start = len(position.events)
                lead_b = next(e["leader"] for e in better.events[start:] if e["type"] == "round")
                lead_w = next(e["leader"] for e in worse.events[start:] if e["type"] == "round")
                assert lead_b == r["params"]["by"] and team(lead_b) == team(0) != team(lead_w)
    # (six qingdao deals of a novice seat gave 24 mate, 7 lead, 4 place, 1 burn)
    assert sum(codes.values()) >= 5 and len(codes) >= 2, codes
