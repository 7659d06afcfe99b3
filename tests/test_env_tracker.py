"""The step-by-step observation encoder (gouji.env.tracker) gives exactly encode_state(Deal.view(seat)),
and the environment's fast paths (legal indices in infos, fresh arrays, the order-checking wrapper) keep
PettingZoo's contract."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import gouji
from gouji.bots.features import encode_state
from gouji.competition.sets import Match
from gouji.engine.deal import PLAY
from gouji.env.catalogue import catalogue
from gouji.env.tracker import StateTracker

from .helpers import choose_action

PRESETS = list(gouji.PRESETS)


@pytest.mark.parametrize("preset", PRESETS)
def test_tracker_equals_encode_state_of_the_view_at_every_step(preset: str) -> None:
    """Sets of two deals (tribute carried, setup decisions, revolutions, burn offers): at every step every
    seat's tracked vector is np.array_equal to encode_state(deal.view(seat)).  Some steps observe only
    some seats, so the tracker also catches up over several steps at once."""
    phases: set[str] = set()
    burn_offers = revealed = steps = 0
    for seed in (0, 1, 4):
        rng = random.Random(seed)
        match = Match(preset, seed=seed, set_length=2)
        tracker = StateTracker()
        while True:
            deal = match.current
            for s in range(6):
                if s == deal.to_act or rng.random() < 0.5 or match.is_over:
                    got = tracker.observe(deal, s)
                    assert np.array_equal(got, encode_state(deal.view(s))), (preset, seed, len(deal.events), s)
            if match.is_over:
                break
            phases.add(deal.phase)
            burn_offers += bool(deal.round.burn_offers)
            revealed += bool(deal.revealed)
            match.act(choose_action(deal, rng, eager_revolt=seed != 1), seat=deal.to_act)
            steps += 1
    rules = gouji.RuleSet.preset(preset)
    assert steps > 300
    if rules.tribute or rules.revolution:
        assert phases - {PLAY}, "the setup decisions were encoded too"
    if preset in ("qingdao", "zhangqiu"):  # a revolution needs a hand without 2s and jokers: seeds deal one
        assert revealed, "a revolutionary's open hand was seen"
    if not rules.burn_needs_kaidian:
        assert burn_offers, "burn offers were encoded too"


def test_a_tracked_vector_is_never_changed_by_later_steps() -> None:
    deal = gouji.Deal.new("qingdao", seed=4)
    tracker = StateTracker()
    rng = random.Random(4)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    while deal.to_act is not None:
        v = tracker.observe(deal, deal.to_act)
        kept.append((v, v.copy()))
        deal.act(choose_action(deal, rng))
    assert all(np.array_equal(v, copy) for v, copy in kept)


pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: the rl extra (.[test,rl])")
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # noqa: E402

from gouji.env import env, raw_env  # noqa: E402


@pytest.mark.parametrize("preset", ["qingdao", "shandong"])
def test_infos_give_the_legal_indices_and_observations_stay_as_returned(preset: str) -> None:
    e = env(preset, seed=3, episode="set", set_length=2)
    e.reset()
    cat = catalogue(preset)
    rng = random.Random(3)
    kept = []
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        if term or trunc:
            e.step(None)
            continue
        game = e.unwrapped.game
        legal = info["legal_actions"]
        assert not legal.flags.writeable
        assert np.array_equal(legal, cat.indices(game.deal.legal_actions()))
        assert np.array_equal(np.sort(legal), np.flatnonzero(obs["action_mask"]))
        seat = int(agent[5:])
        assert np.array_equal(obs["observation"], encode_state(game.deal.view(seat)))
        for other in e.agents:
            if other != agent:
                assert len(e.infos[other]["legal_actions"]) == 0
        e.step(int(legal[rng.randrange(len(legal))]))
    for obs, copy in kept:  # nothing returned earlier was changed by later steps
        assert all(np.array_equal(obs[k], copy[k]) for k in copy)


def test_the_order_checks_still_hold() -> None:
    e = env("qingdao", seed=1)
    assert isinstance(e, OrderEnforcingWrapper) and str(e) == "gouji_v0"
    for read in (lambda: e.last(), lambda: e.agent_selection, lambda: e.agents, lambda: e.infos):
        with pytest.raises(AttributeError, match="before reset"):
            read()
    e.reset()
    raw = raw_env("qingdao", seed=1)
    raw.reset()
    assert e.agent_selection == raw.agent_selection and e.agents == raw.agents
    obs, reward, term, trunc, info = e.last()
    expected = raw.last()
    assert np.array_equal(obs["observation"], expected[0]["observation"])
    assert (reward, term, trunc) == expected[1:4]
    assert np.array_equal(info["legal_actions"], expected[4]["legal_actions"])
    assert e.last(observe=False)[0] is None


def test_recycled_masks_are_right_and_never_change_under_a_holder() -> None:
    """Masks nobody holds any more are reused: each mask returned is still exactly the legal set, and a
    mask still held (by its observation, a view or a variable) keeps its entries however long it is kept."""
    e = raw_env("qingdao", seed=6)
    e.reset()
    cat = catalogue("qingdao")
    rng = random.Random(6)
    held: list[tuple[object, np.ndarray]] = []
    step = reused = 0
    while e.game.to_act is not None:
        deal = e.game.deal
        for s in range(6):
            pool = list(e.game._mask_pool)  # alive while listed here: their ids stay theirs
            mask = e.observe(f"seat_{s}")["action_mask"]
            reused += any(mask is p[0] for p in pool)
            del pool
            expected = cat.mask(deal.legal_actions()) if s == deal.to_act else np.zeros(cat.size, np.int8)
            assert np.array_equal(mask, expected)
            if (step + s) % 7 == 0:  # keep some, in different ways
                keeper = mask.view(bool) if s % 2 else {"action_mask": mask}
                held.append((keeper, mask.copy()))
            del mask
        legal = e.infos[e.agent_selection]["legal_actions"]
        e.step(int(legal[rng.randrange(len(legal))]))
        step += 1
    for keeper, copy in held:
        kept = keeper["action_mask"] if isinstance(keeper, dict) else keeper
        assert np.array_equal(np.asarray(kept, dtype=np.int8), copy)
    assert len(e.game._mask_pool) <= 4 and held
    assert reused > 6 * step / 2, "most masks were recycled ones"


def test_masks_of_a_lead_too_big_for_indices_are_set_and_cleared_block_by_block() -> None:
    """A legal set above core._FILL_AT actions is written into a mask block by block (and cleared so when
    the mask is recycled); smaller ones by their indices: both give exactly the legal set."""
    from gouji.env.core import _FILL_AT

    hands = ["DDDDXXXX" + "2" * 16 + "AAAAKKKKQQQQJJJJTTTT", "3", "4", "5", "6", "7"]
    deal = gouji.Deal.from_hands(hands, "qingdao", leader=0)
    assert len(deal.legal_actions()) > _FILL_AT
    e = raw_env("qingdao", seed=2)
    e.reset(options={"deal": deal})
    cat = catalogue("qingdao")
    rng = random.Random(2)
    for _ in range(12):  # the big lead, then its mask recycled for the answers and the next leads
        deal = e.game.deal
        if deal.to_act is None:
            break
        for s in range(6):
            mask = e.observe(f"seat_{s}")["action_mask"]
            expected = cat.mask(deal.legal_actions()) if s == deal.to_act else np.zeros(cat.size, np.int8)
            assert np.array_equal(mask, expected)
            del mask
        legal = e.infos[e.agent_selection]["legal_actions"]
        e.step(int(legal[rng.randrange(len(legal))]))


def test_legal_index_arrays_are_kept_for_recurring_sets_in_a_bounded_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """The index arrays of answers and decisions are kept by their actions: a set seen again gives the
    same read-only array, every array is the catalogue's indices of the legal set, and the cache is
    emptied when it reaches INDEX_CACHE entries, so it never grows past it over many episodes."""
    from gouji.env import core

    monkeypatch.setattr(core, "INDEX_CACHE", 16)
    e = raw_env("qingdao", seed=8)
    cat = catalogue("qingdao")
    rng = random.Random(8)
    sizes: list[int] = []
    shared = 0
    for _ in range(3):
        e.reset()
        seen: dict[tuple[object, ...], np.ndarray] = {}
        while e.game.to_act is not None:
            legal = e.game.deal.legal_actions()
            idx = e.infos[e.agent_selection]["legal_actions"]
            assert np.array_equal(idx, cat.indices(legal)) and not idx.flags.writeable
            if not legal.blocks:
                key = tuple(legal.explicit)
                shared += seen.get(key) is idx
                seen[key] = idx
            sizes.append(len(e.game._index_cache))
            e.step(int(idx[rng.randrange(len(idx))]))
    assert max(sizes) <= 16, "never past its bound"
    assert any(b < a for a, b in itertools.pairwise(sizes)), "emptied when full"
    assert shared > 0, "a recurring legal set got the kept array"


def test_the_tracker_row_caches_stay_within_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows of recent plays (with and without their seat) and of top plays are cached across deals:
    each cache is emptied when it reaches ROWS_KEPT, and the vectors stay right through the emptying."""
    from gouji.env import tracker as t

    monkeypatch.setattr(t, "ROWS_KEPT", 8)
    caches = (t._ROW_CACHE, t._SEAT_ROWS, t._TOP_ROWS)
    for c in caches:
        c.clear()  # what earlier tests left
    most = [0, 0, 0]
    for seed in (2, 3):
        deal = gouji.Deal.new("qingdao", seed=seed)
        tracker = StateTracker()
        rng = random.Random(seed)
        while deal.to_act is not None:
            s = deal.to_act
            assert np.array_equal(tracker.observe(deal, s), encode_state(deal.view(s)))
            most = [max(m, len(c)) for m, c in zip(most, caches, strict=True)]
            deal.act(choose_action(deal, rng))
    assert most == [8, 8, 8], "each cache filled up to its bound, and never past it"
