"""The learned bot: loads with numpy alone, plays legally everywhere, sees only its view."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gouji
from gouji.bots import BOTS, decide, make_bot
from gouji.bots.features import ACTION_SIZE, STATE_SIZE
from gouji.bots.learned import MAX_CANDIDATES, WEIGHTS, LearnedBot, QNet, candidates
from gouji.engine.deal import Deal
from tests.test_heuristic import FILLER, NoScan, hidden_card_comparisons


def test_registered_with_shipped_weights() -> None:
    assert "learned" in BOTS and WEIGHTS.exists()
    net = QNet.load(WEIGHTS)
    assert net.w_state.shape[0] == STATE_SIZE and net.w_action.shape[0] == ACTION_SIZE
    assert WEIGHTS.stat().st_size < 5_000_000


def test_the_shipped_weights_play_without_pytorch() -> None:
    code = (
        "import sys; sys.modules['torch'] = None\n"  # any import of torch now fails
        "import random, gouji\n"
        "from gouji.bots import make_bot, play_deal\n"
        "d = play_deal(gouji.Deal.new('qingdao', seed=5), [make_bot('learned')] * 6, random.Random(5))\n"
        "assert d.is_over and len(d.places) == 6\n"
        "assert 'torch' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    layers = [
        (rng.normal(size=(STATE_SIZE + ACTION_SIZE, 8)).astype(np.float32), rng.normal(size=8).astype(np.float32)),
        (rng.normal(size=(8, 1)).astype(np.float32), rng.normal(size=1).astype(np.float32)),
    ]
    net = QNet(layers, {"note": "test"})
    net.save(tmp_path / "n.npz")
    back = QNet.load(tmp_path / "n.npz")
    s = rng.normal(size=STATE_SIZE).astype(np.float32)
    a = rng.normal(size=(3, ACTION_SIZE)).astype(np.float32)
    assert np.allclose(net.q(s, a), back.q(s, a)) and back.meta == {"note": "test"}
    # the same as the plain formula
    x = np.concatenate([np.repeat(s[None], 3, 0), a], 1)
    ref = np.maximum(x @ layers[0][0] + layers[0][1], 0) @ layers[1][0] + layers[1][1]
    assert np.allclose(net.q(s, a), ref[:, 0], atol=1e-4)


def test_a_network_of_other_features_is_refused() -> None:
    w = np.zeros((10, 4), np.float32), np.zeros(4, np.float32)
    with pytest.raises(ValueError, match="trained on other features"):
        QNet([w])


@pytest.mark.parametrize("preset", gouji.PRESETS)
def test_whole_deals_are_legal_on_every_preset(preset: str) -> None:
    for seed in range(2):
        deal = Deal.new(preset, seed=seed)
        bots = [make_bot("learned" if s % 2 == seed % 2 else "heuristic") for s in range(6)]
        rng = random.Random(seed)
        while not deal.is_over:
            s = deal.to_act
            assert s is not None
            legal = deal.legal_actions()
            action = decide(bots[s], deal, rng)
            assert action in legal
            deal.act(action)
        assert len(deal.places) == 6


def test_a_huge_lead_set_is_never_scanned() -> None:
    huge = "DDDDXXXX22222222AAAAAAKKKKKKQQQQQQJJJJJJ987653"
    deal = Deal.from_hands([huge] + [FILLER] * 5, "qingdao", leader=0)
    legal = deal.legal_actions()
    assert len(legal) > 5_000
    bot = LearnedBot()
    action = bot.decide(deal.view(0), NoScan(legal), random.Random(0))
    assert action in legal
    cands = candidates(deal.view(0), NoScan(legal), None)
    assert 5 <= len(cands) <= MAX_CANDIDATES and all(c in legal for c in cands)


def test_decisions_do_not_depend_on_hidden_cards() -> None:
    bot = LearnedBot()

    def decide(view: dict[str, Any], legal: Any) -> Any:
        return bot.decide(view, legal, random.Random(0))

    assert hidden_card_comparisons("qingdao", range(2), decide, max_decisions=2000) >= 10


def test_a_large_prior_bonus_plays_the_heuristics_choice() -> None:
    """With the bonus for its preset far above any value, the bot plays exactly as the heuristic does."""
    net = QNet.load(WEIGHTS)
    net.meta = {**net.meta, "prior_bonus": 0.0, "prior_bonus_by_rules": {"tournament": 1e9}}
    bot = LearnedBot(net)
    heuristic = make_bot("heuristic")
    deal = Deal.new("tournament", seed=8)
    rng = random.Random(0)
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        view, legal = deal.view(seat), deal.legal_actions()
        mine = bot.decide(view, legal, rng)
        assert mine == heuristic.decide(view, legal, rng)
        deal.act(mine)


def test_auto_play_can_use_the_learned_bot() -> None:
    """``gouji serve --auto-bot learned`` makes the learned bot play for seats on 托管."""
    from click.testing import CliRunner

    from gouji.cli import main
    from gouji.server.settings import ServerSettings

    assert ServerSettings().auto_bot_name() == "heuristic"
    out = CliRunner().invoke(main, ["serve", "--auto-bot", "nope"])
    assert out.exit_code == 2 and "nope" in out.output
    settings = ServerSettings(auto_bot="learned")
    assert settings.auto_bot_name() == "learned"
    assert isinstance(make_bot(settings.auto_bot_name()), LearnedBot)


def _burn_loving_net() -> QNet:
    """A network that values every burn far above anything else, and plays without jokers above plays
    with them: left free, it would burn whenever it may, carried or not, and break its burns."""
    from gouji.bots import features as F

    w0 = np.zeros((STATE_SIZE + ACTION_SIZE, 2), np.float32)
    w0[STATE_SIZE + F._A_KIND + 1, 0] = 10.0  # burn
    w0[STATE_SIZE + F._A_EXTRA + 1, 1] = -1.0  # uses jokers: worse
    b0 = np.asarray([0.0, 1.0], np.float32)
    w1 = np.asarray([[1.0], [1.0]], np.float32)
    return QNet([(w0, b0), (w1, np.zeros(1, np.float32))], {"prior_bonus": 0.0})


def test_the_network_never_weighs_a_sure_false_burn() -> None:
    """Burns that cannot be carried (诈烧) and plays that break the seat's own burn are never candidates,
    however much the network likes them; the burns it may weigh are taken."""
    bot = LearnedBot(_burn_loving_net())
    heuristic = bot.prior
    rng = random.Random(0)
    refused = burned = failed = 0
    for seed in range(12):
        deal = Deal.new("qingdao", seed=seed)
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view, legal = deal.view(seat), deal.legal_actions()
            action, cands, _, _, _ = bot.evaluate(view, legal, rng)
            prior = heuristic.choose(view, legal)[0]
            if view.get("burn_offer") and len(legal) > 1:
                false = [a for a in legal if isinstance(a, gouji.Burn) and not heuristic.carryable(view, a)]
                refused += len(false)
                assert not any(a in cands for a in false if a != prior)
                burned += isinstance(action, gouji.Burn)
            deal.act(action)
        failed += len(deal.failed_burns)
    assert refused > 0 and burned > 0  # false burns were on offer, and the good ones were taken
    assert failed == 0  # and no burn it began was ever broken


def test_the_network_computes_on_one_blas_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy's BLAS runs on one thread while the network values actions (threads only slow matrices this
    small, and badly on a busy machine), and gets its own setting back afterwards."""
    from threadpoolctl import threadpool_info

    def blas_threads() -> set[int]:
        return {int(i["num_threads"]) for i in threadpool_info() if i.get("user_api") == "blas"}

    net = QNet.load(WEIGHTS)
    seen: list[set[int]] = []
    real = QNet._q

    def spy(self: QNet, state: np.ndarray, actions: np.ndarray) -> np.ndarray:
        seen.append(blas_threads())
        return real(self, state, actions)

    monkeypatch.setattr(QNet, "_q", spy)
    before = blas_threads()
    q = net.q(np.zeros(STATE_SIZE, np.float32), np.zeros((3, ACTION_SIZE), np.float32))
    assert q.shape == (3,) and seen == [{1}] and blas_threads() == before
