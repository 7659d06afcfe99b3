"""The action catalogue (gouji.env.catalogue): stable indices, index <-> action both ways, masks from blocks."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

import gouji
from gouji import Burn, Deal, Play, parse_action
from gouji.engine.actions import PASS, YIELD, LegalActions, Return
from gouji.env.catalogue import DECISION_SLOTS, DECISIONS, MAX_RETURN, catalogue

from .helpers import choose_action


def test_sizes_per_deck() -> None:
    four, six = catalogue("qingdao"), catalogue("zaozhuang")
    assert four.size == 167_957 and four.play_size == 82_025
    assert six.size == 711_957 and six.play_size == 354_025
    # a deck with 3s and 4s removed keeps 16 of ranks 5..A, so the same shape (and the same object)
    assert catalogue("changyi") is four
    assert catalogue(gouji.RuleSet.preset("qingdao").replace(decks=6)) is six


def test_fixed_indices() -> None:
    cat = catalogue("qingdao")
    assert cat.index(PASS) == 0 and cat.index(YIELD) == 1
    assert [cat.text(i) for i in range(len(DECISIONS))] == list(DECISIONS)
    # the indices are fixed: these decisions keep these places (the features' one-hot follows them too)
    pinned = "pass yield revolt yaotou wutou declare buy4 chongdian selfopen huiwu giveback"
    assert " ".join(DECISIONS[:11]) == pinned
    assert cat.index("return 3") == DECISION_SLOTS == 32
    assert cat.index("3") == cat.play_start  # the first play: a single 3
    assert cat.index("D") == cat.play_start + cat.natural_size + 1  # (t, x, d) = (0, 0, 1)
    assert cat.index("burn 3") == cat.burn_start
    assert cat.index("DDDDXXXX" + "2" * 16 + "A" * 16) == cat.play_start + cat.natural_size - 1  # last natural
    assert cat.index("DDDDXXXX" + "2" * 16) == cat.burn_start - 1  # the last play
    assert cat.index("burn DDDDXXXX" + "2" * 16) == cat.size - 1


def test_every_index_round_trips() -> None:
    cat = catalogue("qingdao")
    empty = cat.play_start + cat.natural_size  # the empty play's slot
    seen = set()
    for i in range(cat.size):
        if i in (empty, empty + cat.play_size):
            with pytest.raises(IndexError, match="empty play"):
                cat.action(i)
            continue
        try:
            a = cat.action(i)
        except IndexError as e:
            assert i < DECISION_SLOTS, e  # a free slot, or a section 16 decision this engine lacks yet
            assert i >= len(DECISIONS) or DECISIONS[i] in ("chongdian", "selfopen", "huiwu", "giveback")
            continue
        assert cat.index(a) == i, (i, a)
        assert cat.index(str(a)) == i
        seen.add(str(a))
    assert len(seen) == len({str(a) for a in seen})


def test_bad_indices_and_actions() -> None:
    cat = catalogue("qingdao")
    for bad in (-1, cat.size):
        with pytest.raises(IndexError, match="outside the catalogue"):
            cat.action(bad)
    with pytest.raises(ValueError, match="not a play of this deck"):
        cat.index("D" * 5)
    with pytest.raises(ValueError, match="at most"):
        cat.index(Return(parse_action("return 3" * 1 + "3" * MAX_RETURN).counts))  # type: ignore[union-attr]
    assert catalogue("zaozhuang").index("DDDDD") > 0  # six decks hold five big jokers


def check_mask(deal: Deal) -> None:
    cat = catalogue(deal.rules)
    legal = deal.legal_actions()
    mask = cat.mask(legal)
    assert mask.dtype == np.int8 and mask.shape == (cat.size,)
    idx = cat.indices(legal)
    assert len(idx) == len(legal) == int(mask.sum())
    assert np.all(mask[idx] == 1)
    # the indices follow the legal order (so a policy over legal[i] and one over the catalogue agree)
    n = len(legal)
    for j in {0, n - 1, n // 2, *random.Random(n).sample(range(n), min(n, 30))}:
        assert cat.action(int(idx[j])) is legal[j]


@pytest.mark.parametrize("preset", gouji.PRESETS)
def test_masks_match_the_legal_actions(preset: str) -> None:
    rng = random.Random(preset)
    for seed in range(3):
        deal = Deal.new(preset, seed=seed)
        while not deal.is_over:
            check_mask(deal)
            deal.act(choose_action(deal, rng))


def test_mask_of_a_big_lead_covers_every_block() -> None:
    hand = "DDDDXXXX" + "2" * 16 + "AAAA99993"
    legal = LegalActions.leads(gouji.engine.cards.parse_counts(hand), allow_threes=True)
    cat = catalogue("qingdao")
    mask = cat.mask(legal)
    assert int(mask.sum()) == len(legal) > 4000
    assert {cat.text(i) for i in np.flatnonzero(mask)} == set(legal.texts())


def test_burns_and_answers_are_indexed() -> None:
    cat = catalogue("qingdao")
    play = Play.of(gouji.engine.cards.KING, 2)
    assert cat.index(Burn(play)) - cat.index(play) == cat.play_size
    assert cat.action(cat.index(Burn(play))) is Burn(play)


FEATURES_START, FEATURES_END = "<!-- features-table -->", "<!-- /features-table -->"


def features_block() -> str:
    """The field table and the action row of gouji.bots.features' docstring, as docs/env.md shows them."""
    from gouji.bots import features

    lines = (features.__doc__ or "").splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("====")]
    table = "\n".join(lines[rules[0] : rules[-1] + 1])
    after = "\n".join(lines[rules[-1] + 1 :]).strip()
    return f"{FEATURES_START}\n```text\n{table}\n```\n\n{after}\n{FEATURES_END}"


def test_docs_render_the_features_docstring() -> None:
    path = Path(__file__).parent.parent / "docs" / "env.md"
    text = path.read_text(encoding="utf-8")
    start, end = text.index(FEATURES_START), text.index(FEATURES_END) + len(FEATURES_END)
    if os.environ.get("GOUJI_UPDATE_DOCS"):
        path.write_text(text[:start] + features_block() + text[end:], encoding="utf-8")
        return
    assert text[start:end] == features_block(), "docs/env.md: run GOUJI_UPDATE_DOCS=1 pytest on this test"
