"""The deal's log is typed (gouji.engine.deal.events): every event the engine writes has exactly the fields its
kind declares, and every kind the engine's source writes is declared."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import gouji
from gouji.competition import Match
from gouji.engine.deal.events import EVENT_TYPES, check_event

GOLDEN = Path(__file__).parent / "golden"
DEAL_SOURCE = Path(gouji.__file__).parent / "engine" / "deal"


def test_check_event_refuses_an_unknown_kind_a_missing_and_an_extra_field() -> None:
    check_event({"type": "open", "seat": 2})
    with pytest.raises(ValueError, match="not a kind"):
        check_event({"type": "opened", "seat": 2})
    with pytest.raises(ValueError, match=r"lacks \['seat'\]"):
        check_event({"type": "open"})
    with pytest.raises(ValueError, match=r"unknown \['by'\]"):
        check_event({"type": "open", "seat": 2, "by": 1})


def test_every_kind_the_source_writes_is_declared() -> None:
    written = set()
    for path in DEAL_SOURCE.glob("*.py"):
        written |= set(re.findall(r'"type": "([a-z_]+)"', path.read_text(encoding="utf-8")))
    from gouji.engine.deal.burn import BURN_END_EVENTS

    written |= set(BURN_END_EVENTS.values())
    assert written - set(EVENT_TYPES) == set()
    assert len(written) >= 30


@pytest.mark.parametrize("golden", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_golden_events_fit_their_kinds(golden: Path) -> None:
    data = json.loads(golden.read_text(encoding="utf-8"))
    events = data["events"] if isinstance(data, dict) else data
    assert events
    for e in gouji.Deal.replay(events).events:
        check_event(e)


@pytest.mark.parametrize("preset", gouji.PRESETS)
def test_sets_with_tribute_write_events_of_their_kinds(preset: str) -> None:
    kinds = set()
    for seed in range(3):
        match = Match(preset, seed=f"events {seed}")
        rng = random.Random(seed)
        while not match.is_over:
            legal = match.current.legal_actions()
            match.act(legal[rng.randrange(len(legal))])
        for deal in match.deals:
            for e in deal.events:
                check_event(e)
                kinds.add(e["type"])
    assert {"deal", "act", "play", "end"} <= kinds
