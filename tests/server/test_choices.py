"""The choices a seat is told of (issue 29: the page computes no rule): every legal action, compactly when
there are many (``turn.legal``), and what a burn needs (``turn.burn_needs``, ``turn.burn_left``) — for the
seat asked alone, from its own hand."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import gouji
from gouji.engine.actions import Burn, parse_action
from gouji.engine.cards import RANKS, parse_counts
from gouji.server.config import TableConfig
from gouji.server.tables.choices import burn_need, plays_needed
from gouji.server.tables.table import CHOICES_CAP, Room


def decode(legal: dict[str, Any]) -> set[tuple[int, ...]]:
    """The plays of a ``turn.legal`` as counts (what the page's legal.js reads from it), explicit ones too."""
    out: set[tuple[int, ...]] = set()
    for text in legal["explicit"]:
        a = parse_action(text)
        if not isinstance(a, Burn) and hasattr(a, "counts"):
            out.add(tuple(a.counts))
    for rank, k0, kn, t0, tn, xn, dn, skip in legal["blocks"]:
        for k, t, x, d in itertools.product(range(k0, k0 + kn), range(t0, t0 + tn), range(xn), range(dn)):
            if skip and k + t + x + d == 0:
                continue
            counts = [0] * 15
            if rank:
                counts[RANKS.index(rank)] = k
            counts[12], counts[13], counts[14] = t, x, d
            out.add(tuple(counts))
    return out


def new_room(preset: str = "qingdao") -> Room:
    config = TableConfig(preset, gouji.RuleSet.preset(preset).to_dict(), 5, 1, None, 0.0, (None,) * 6)
    room = Room(1, "ABCDEF", config, "x" * 64)
    room.status = "playing"
    return room


def test_many_choices_are_sent_compactly_and_exactly_the_legal_plays() -> None:
    rng = random.Random(3)
    checked = 0
    for _ in range(6):
        room = new_room()
        deal = room.match.current
        while checked < 12 and not deal.is_over:
            legal = deal.legal_actions()
            if deal.phase == "play" and len(legal) > CHOICES_CAP:
                seat = deal.to_act
                turn = room.state_frame(seat)["turn"]
                assert turn["choices"] is None and turn["legal_count"] == len(legal)
                plays = {tuple(a.counts) for a in legal if hasattr(a, "counts")}
                assert decode(turn["legal"]) == plays
                for other in range(6):  # nobody else is told of them
                    if other != seat:
                        assert "legal" not in room.state_frame(other)["turn"]
                assert "legal" not in room.state_frame(None)["turn"]
                checked += 1
            room.match.act(legal[rng.randrange(len(legal))])
            deal = room.match.current
        if checked >= 12:
            break
    assert checked >= 12


def test_a_burn_offer_says_what_each_burn_needs_and_a_burner_what_is_left() -> None:
    # seat 0 leads QQQ (a 够级 play): seat 2 may burn with KKK, and then needs a joker for every play but its last
    hands = ["QQQ5553", "9996", "KKK88X73", "8863", "7763", "AA7743"]
    room = new_room()
    deal = gouji.Deal.from_hands(hands, "qingdao", leader=0)
    room.match.deals[-1] = deal
    deal.act("QQQ")
    seat = deal.to_act
    turn = room.state_frame(seat)["turn"]
    if not turn.get("burn_offer"):  # the offer goes round the seats: to the one that may burn
        while not room.state_frame(deal.to_act)["turn"].get("burn_offer") or deal.to_act != 2:
            deal.act("pass")
        seat = deal.to_act
        turn = room.state_frame(seat)["turn"]
    assert seat == 2 and turn["burn_offer"]
    rest = parse_counts("88X73")
    assert turn["burn_needs"]["KKK"] == [plays_needed(rest, True), plays_needed(rest, True) - 1, 1]
    assert turn["burn_needs"]["KKK"] == [3, 2, 1]  # 88, 7, then the 3s last: two jokers needed, one held
    assert all("burn_needs" not in room.state_frame(s)["turn"] for s in range(6) if s != seat)
    deal.act("burn KKK")
    while deal.to_act != 2:
        deal.act("pass")
    turn = room.state_frame(2)["turn"]
    assert turn["burn_left"] == burn_need(list(parse_counts("88X73")), True)
    frames = [json.dumps(room.state_frame(s)) for s in range(6) if s != 2] + [json.dumps(room.state_frame(None))]
    assert not any("burn_left" in f for f in frames)


def test_plays_needed_counts_a_play_per_natural_rank_and_the_threes_last() -> None:
    assert plays_needed(parse_counts("88X73"), True) == 3
    assert plays_needed(parse_counts("88X73"), False) == 3
    assert plays_needed(parse_counts("8873"), False) == 3
    assert plays_needed(parse_counts("2XD"), True) == 1
    assert plays_needed(parse_counts("33"), True) == 1
    assert burn_need([0] * 15, True) == [0, 0, 0]
