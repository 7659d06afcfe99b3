"""Golden files: whole deals, one per preset, played by a fixed seeded policy and kept as their full
record (``tests/golden/<preset>.json``) and readable transcript (``.txt``).  Any change of behaviour shows
up here as a diff.  After an intended change, regenerate with ``GOUJI_UPDATE_GOLDEN=1 pytest
tests/test_golden.py`` and read the diff of the transcripts before committing."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import gouji
from gouji.competition.transcript import format_events

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GOUJI_UPDATE_GOLDEN") == "1"


def modest_policy(deal: gouji.Deal, rng: random.Random) -> str:
    """Lead or answer with one of the smallest plays, pass a third of the time, burn rarely.

    Deterministic for a seeded ``rng``: it picks among the legal actions in their fixed order."""
    legal = [str(a) for a in deal.legal_actions()]
    plays = [a for a in legal if a not in ("pass", "yield") and not a.startswith("burn")]
    if deal.phase != "play":
        return rng.choice(legal)
    if "pass" in legal and (not plays or rng.random() < 0.35):
        if any(a.startswith("burn") for a in legal) and rng.random() < 0.15:
            return rng.choice([a for a in legal if a.startswith("burn")])
        return "pass" if "yield" not in legal or rng.random() < 0.7 else "yield"
    if not plays:
        return rng.choice(legal)
    plays.sort(key=lambda a: (len(a) > 3, sum(c in "2XD" for c in a), a))
    return plays[min(len(plays) - 1, int(rng.random() ** 3 * len(plays)))]


def play_golden(preset: str) -> gouji.Deal:
    rng = random.Random(f"golden-{preset}")
    deal = gouji.Deal.new(preset, seed=f"golden-{preset}")
    while not deal.is_over:
        deal.act(modest_policy(deal, rng))
    return deal


@pytest.mark.parametrize("preset", gouji.PRESETS)
def test_golden_deal(preset: str) -> None:
    deal = play_golden(preset)
    record = json.dumps(deal.events, ensure_ascii=False, indent=0)
    text = format_events(deal.events)
    json_path, txt_path = GOLDEN / f"{preset}.json", GOLDEN / f"{preset}.txt"
    if UPDATE or not json_path.exists():
        if not UPDATE:
            pytest.fail(f"no golden file {json_path}; run with GOUJI_UPDATE_GOLDEN=1 to create it")
        GOLDEN.mkdir(exist_ok=True)
        json_path.write_text(record + "\n", encoding="utf-8")
        txt_path.write_text(text, encoding="utf-8")
    assert text == txt_path.read_text(encoding="utf-8"), f"{preset}: the transcript changed"
    assert record + "\n" == json_path.read_text(encoding="utf-8"), f"{preset}: the record changed"
    # the stored record replays to the same deal
    stored = json.loads(json_path.read_text(encoding="utf-8"))
    again = gouji.Deal.replay(stored)
    assert again.places == deal.places and again.events == deal.events


def test_golden_deals_cover_the_rules() -> None:
    """Together the golden deals exercise the rules that matter, so a change to any of them shows."""
    kinds: set[str] = set()
    for preset in gouji.PRESETS:
        path = GOLDEN / f"{preset}.json"
        if path.exists():
            kinds |= {e["type"] for e in json.loads(path.read_text(encoding="utf-8"))}
    for kind in ("burn", "out", "round", "open", "smothered", "free_for_all", "yield", "buy", "end"):
        assert kind in kinds, f"no golden deal shows a {kind!r} event"
