"""The heuristic bot and hints: legal in every preset and phase, blind to hidden cards, the strategy lines
of the rule book and the regional texts in set positions, and stronger than the random bot."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

import gouji
from gouji import PASS, YIELD, Burn, Deal, Play, parse_action
from gouji.bots import BOTS, RandomBot, make_bot, play_deal
from gouji.bots.heuristic import HeuristicBot
from gouji.bots.hints import Hint
from gouji.engine import cards as C
from gouji.engine.actions import DECLARE, REVOLT, WUTOU, YAOTOU, Action
from gouji.engine.scoring import team_points

MAX_DECISIONS = 3000


def strict() -> HeuristicBot:
    """A heuristic bot that raises instead of falling back, so that an internal error fails the test."""
    return HeuristicBot(strict=True)


def choose(deal: Deal) -> tuple[Action, str]:
    seat = deal.to_act
    assert seat is not None
    return strict().choose(deal.view(seat), deal.legal_actions())


def drive(deal: Deal, bots: list[Any], rng: random.Random) -> set[str]:
    """Play ``deal`` out, checking that every heuristic decision is legal; returns the kinds of decision
    the heuristic bots made (phase, lead / answer / burn offer)."""
    kinds: set[str] = set()
    for _ in range(MAX_DECISIONS):
        seat = deal.to_act
        if seat is None:
            return kinds
        legal = deal.legal_actions()
        bot = bots[seat]
        view = deal.view(seat, log=bool(getattr(bot, "wants_log", False)))
        action = bot.decide(view, legal, rng)
        if isinstance(bot, HeuristicBot):
            assert action in legal, (deal.rules.name, seat, str(action))
            if deal.phase != "play":
                kinds.add(deal.phase)
            elif view["burn_offer"]:
                kinds.add("burn offer")
            else:
                kinds.add("lead" if view["top"] is None else "answer")
            if isinstance(action, Burn):
                kinds.add("burn")
            if action is YIELD:
                kinds.add("yield")
        deal.act(action)
    raise AssertionError("the deal did not end")


# ---------------------------------------------------------------------------------------------- legality


def test_registered_and_exported() -> None:
    assert BOTS["heuristic"] is HeuristicBot
    assert make_bot("heuristic").name == "heuristic"
    assert gouji.hint is gouji.bots.hints.hint and "hint" in gouji.__all__


@pytest.mark.parametrize("preset", gouji.PRESETS)
def test_only_legal_actions_in_every_preset(preset: str) -> None:
    kinds: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        deal = Deal.new(preset, seed=seed)
        kinds |= drive(deal, [strict() for _ in range(6)], rng)
        assert deal.is_over and deal.places is not None
        assert deal.failed_burns == []  # it only burns when jokers carry every later play
        # mixed tables: the heuristic bot meets the random one's odd plays
        mixed = Deal.new(preset, seed=100 + seed)
        bots: list[Any] = [strict() if (s + seed) % 3 else RandomBot() for s in range(6)]
        kinds |= drive(mixed, bots, rng)
        assert mixed.is_over
        assert not any(isinstance(bots[s], HeuristicBot) for s in mixed.failed_burns)
    assert {"lead", "answer"} <= kinds
    rules = gouji.RuleSet.preset(preset)
    if rules.xuandian:
        assert "xuandian" in kinds
    if rules.buy_four_optional:
        assert "buy_four" in kinds


VARIANTS = {
    "qingdao, big joker kill, counts hidden": gouji.RuleSet.preset("qingdao").replace(
        big_joker_kill=True, show_counts="never"
    ),
    "heze, a 4 needed to open": gouji.RuleSet.preset("heze").replace(kaidian_needs_four=True),
    "tournament, 五户乱缠": gouji.RuleSet.preset("tournament").replace(luanchan_at=5),
    "zaozhuang, counts at or below 10": gouji.RuleSet.preset("zaozhuang").replace(show_counts="at_or_below_10"),
}


@pytest.mark.parametrize("name", VARIANTS)
def test_only_legal_actions_under_rule_variants(name: str) -> None:
    rules = VARIANTS[name]
    for seed in range(3):
        deal = Deal.new(rules, seed=seed)
        drive(deal, [strict() for _ in range(6)], random.Random(seed))
        assert deal.is_over and deal.failed_burns == []


def test_burns_yields_and_burn_offers_happen() -> None:
    kinds: set[str] = set()
    for seed in range(12):
        kinds |= drive(Deal.new("qingdao", seed=seed), [strict() for _ in range(6)], random.Random(seed))
    assert {"burn offer", "burn", "yield"} <= kinds


EIGHT_DECKS = gouji.RuleSet.preset("qingdao").replace(decks=8)
"""For scripted hands that hold more of a rank than four decks do (decks only change the shuffle)."""


def test_revolution_and_keeping_the_head() -> None:
    # seat 1 holds no 2 and no joker and a poor hand: it revolts; its 对头 (seat 4) keeps the head
    hands = [
        "DX22AKQJT98765543333",
        "KQJT9877665544433333",
        "DX22AKQJT98765543333",
        "DX22AKQJT98765543333",
        "DX22AKQJT98765543333",
        "DX22AKQJT98765543333",
    ]
    deal = Deal.from_hands(hands, EIGHT_DECKS, leader=0, setup=True, seed=1)
    seen: list[tuple[int, str]] = []
    while deal.phase != "play":
        action, reason = choose(deal)
        assert reason
        seen.append((deal.to_act or 0, str(action)))
        deal.act(action)
    assert (1, str(REVOLT)) in seen
    assert (4, str(YAOTOU)) in seen and (4, str(WUTOU)) not in seen
    assert deal.revolted == [1]
    drive(deal, [strict() for _ in range(6)], random.Random(0))
    assert deal.is_over


def test_a_strong_hand_declares_and_a_weak_one_does_not() -> None:
    strong = "DDXX2222AAAKKQQJT98765443"
    weak = "2KQJT98776655444333"  # a 2: no revolution
    deal = Deal.from_hands([strong, weak, weak, weak, weak, weak], EIGHT_DECKS, leader=0, setup=True, seed=3)
    while deal.phase != "xuandian":
        deal.act(choose(deal)[0])
    decisions = {}
    while deal.phase == "xuandian":
        seat = deal.to_act
        action, _ = choose(deal)
        decisions[seat] = action
        deal.act(action)
    assert decisions[0] is DECLARE
    assert decisions[1] is PASS


class _Odd:
    """An action of a kind the bot does not know (a future 还贡 action, or anything else)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text


def test_returns_the_lowest_cards_and_survives_unknown_decisions() -> None:
    deal = Deal.from_hands(["DX22AKQ9954433"] + ["KQJT98765433"] * 5, "qingdao", leader=0)
    view = deal.view(0)
    view["phase"] = "tribute"
    options: list[Any] = [_Odd("return D"), _Odd("return A"), _Odd("return 5"), _Odd("return 99")]
    action, reason = strict().choose(view, options)
    assert str(action) == "return 5" and reason
    # an unknown kind of decision: a legal choice, no crash
    unknown: list[Any] = [_Odd("frobnicate"), PASS]
    assert strict().choose(view, unknown)[0] is PASS
    assert HeuristicBot().choose(view, [_Odd("frobnicate")])[0].text == "frobnicate"


# ---------------------------------------------------------------------------------------------- hidden cards


def _swap(hands: list[str], a: int, b: int) -> list[str]:
    """Swap the highest card of seat a with the lowest of seat b (card counts stay the same)."""
    ha, hb = hands[a], hands[b]  # canonical text: highest first
    out = list(hands)
    out[a] = hb[-1] + ha[1:]
    out[b] = hb[:-1] + ha[0]
    return out


def hidden_card_comparisons(
    preset: str, seeds: range, decide: Callable[[dict[str, Any], Any], Any], max_decisions: int = MAX_DECISIONS
) -> int:
    """Play pairs of deals that differ only in cards hidden from an observer (seat 0, then seat 3), with
    ``decide(view, legal)`` choosing for every seat; assert the observer decides alike wherever its two
    views are equal, and return how many such decisions were compared."""
    compared = 0
    for seed in seeds:
        base = Deal.new(preset, seed=seed)
        hands = [base.hand(s) for s in range(6)]
        for observer, (a, b) in ((0, (1, 3)), (3, (2, 5))):
            one = Deal.from_hands(hands, preset, leader=seed % 6)
            two = Deal.from_hands(_swap(hands, a, b), preset, leader=seed % 6)
            for _ in range(max_decisions):
                seat = one.to_act
                if seat is None or two.to_act != seat:
                    break
                if seat == observer:
                    v1, v2 = one.view(seat), two.view(seat)
                    if v1 == v2:
                        assert decide(v1, one.legal_actions()) == decide(v2, two.legal_actions())
                        compared += 1
                action = decide(one.view(seat), one.legal_actions())
                one.act(action)
                if action not in two.legal_actions():
                    break
                two.act(action)
    return compared


@pytest.mark.parametrize("preset", ["qingdao", "tournament", "zoucheng"])
def test_decisions_do_not_depend_on_hidden_cards(preset: str) -> None:
    bot = strict()
    assert hidden_card_comparisons(preset, range(3), lambda view, legal: bot.choose(view, legal)[0]) >= 20


def test_the_same_view_gives_the_same_decision() -> None:
    deal = Deal.new("qingdao", seed=11)
    for _ in range(40):
        seat = deal.to_act
        assert seat is not None
        view, legal = deal.view(seat), deal.legal_actions()
        bot = strict()
        first = bot.decide(view, legal, random.Random(1))
        assert bot.decide(view, legal, random.Random(2)) == first
        assert HeuristicBot().choose(view, legal) == bot.choose(view, legal)
        deal.act(first)


# ---------------------------------------------------------------------------------------------- hints


def test_hint_is_a_legal_action_with_a_reason() -> None:
    deal = Deal.new("tongyong", seed=5)
    for _ in range(150):
        seat = deal.to_act
        if seat is None:
            break
        h = gouji.hint(deal, seat)
        assert isinstance(h, Hint)
        assert h.action in deal.legal_actions()
        assert h.text == str(h.action) and parse_action(h.text) == h.action
        assert h.reason.strip() and "\n" not in h.reason
        assert gouji.hint(deal, seat) == h  # deterministic
        deal.act(h.text)


def test_hint_refuses_a_seat_not_to_act() -> None:
    deal = Deal.new("qingdao", seed=2)
    seat = deal.to_act
    assert seat is not None
    while deal.phase != "play":  # (in the revolution every seat is asked about the same event)
        deal.act(gouji.hint(deal, deal.to_act).text)  # type: ignore[arg-type]
    other = next(s for s in range(6) if s not in deal.window())
    with pytest.raises(ValueError, match="not to act"):
        gouji.hint(deal, other)
    play_deal(deal, [RandomBot() for _ in range(6)], random.Random(0))
    with pytest.raises(ValueError, match="over"):
        gouji.hint(deal, 0)


# ---------------------------------------------------------------------------------------------- strategy

FILLER = "KQJT987654433"  # a dull hand for seats that only pass


def test_leads_the_lowest_play_and_keeps_control_cards() -> None:
    deal = Deal.from_hands(["DX22AK9955533"] + [FILLER] * 5, "qingdao", leader=0)
    action, reason = choose(deal)
    assert action == Play.of(2, 3)  # 555, naked
    assert "lowest" in reason


def test_does_not_overtake_a_teammate_with_a_two_or_a_joker() -> None:
    # seat 0 leads a 9, seat 1 passes; seat 2 (0's teammate) could beat it only with a 2 or a joker
    hands = ["9KQJT87654433", FILLER, "DX22876543333", FILLER, FILLER, FILLER]
    deal = Deal.from_hands(hands, "qingdao", leader=0)
    deal.act("9")
    deal.act("pass")
    assert deal.to_act == 2
    legal = deal.legal_actions()
    assert any(isinstance(a, Play) and (a.t or a.has_joker) for a in legal)
    action, reason = choose(deal)
    assert action is PASS and "teammate" in reason


def test_beats_an_opponent_cheaply_with_a_natural_group() -> None:
    hands = ["99KQJT8765433", "DX22TT876543333", FILLER, FILLER, FILLER, FILLER]
    deal = Deal.from_hands(hands, "qingdao", leader=0)
    deal.act("99")
    assert deal.to_act == 1
    action, _ = choose(deal)
    assert action == Play.of(7, 2)  # TT, not the 2s or the jokers


def test_declines_a_burn_without_jokers() -> None:
    # seat 0 leads KK (gouji); seat 1 could burn with AA but holds no joker to carry the rest
    hands = ["KKQJT98765433", "AA9876543333", FILLER, FILLER, FILLER, FILLER]
    deal = Deal.from_hands(hands, "qingdao", leader=0)
    deal.act("KK")
    while deal.to_act != 1:
        deal.act("pass")  # the burn offers of seats 2 and 4 come first
    legal = deal.legal_actions()
    assert Burn(Play.of(11, 2)) in legal
    action, reason = choose(deal)
    assert action is PASS and "joker" in reason


def test_burns_when_the_jokers_carry_the_rest() -> None:
    # AA burns KK; then 55+D and 66+D stand, and the 3s go last
    hands = ["KKQJT98765433", "DDAA55663", FILLER, FILLER, FILLER, FILLER]
    deal = Deal.from_hands(hands, "qingdao", leader=0)
    deal.act("KK")
    while deal.to_act != 1:
        deal.act("pass")
    action, _ = choose(deal)
    assert action == Burn(Play.of(11, 2))
    deal.act(action)
    while not deal.is_over and 1 not in deal.out_order:
        if deal.to_act == 1:
            action, _ = choose(deal)
            assert isinstance(action, Play)
            assert action.has_joker or action.only_threes
            deal.act(action)
        else:
            deal.act("pass")
    assert deal.burns and deal.burns[0]["result"] == "success"


def test_avoids_leaving_only_threes_behind_a_play_that_can_be_beaten() -> None:
    # answering 88 with 99 would leave only 3s behind a pair anybody may beat: pass instead
    hands = ["88KQJT7654433", "99333", FILLER, FILLER, FILLER, FILLER]
    deal = Deal.from_hands(hands, "qingdao", leader=0)
    deal.act("88")
    assert Play.of(6, 2) in deal.legal_actions()
    action, reason = choose(deal)
    assert action is PASS and "3s" in reason
    # … but a big joker cannot be beaten: answer the A with it and go out with the 3s next
    hands = ["AKQJT87654433", "D333", FILLER, FILLER, FILLER, FILLER]
    deal = Deal.from_hands(hands, "qingdao", leader=0)
    deal.act("A")
    action, _ = choose(deal)
    assert action == Play.of(-1, 0, 0, 0, 1)


def test_keeps_a_safe_play_for_the_last_before_the_threes() -> None:
    # with D, 55 and 3s: D+55 cannot be beaten and leaves only the 3s
    deal = Deal.from_hands(["D55333"] + [FILLER] * 5, "qingdao", leader=0)
    action, reason = choose(deal)
    assert action == Play.of(2, 2, 0, 0, 1)
    assert "3s" in reason
    # with more to shed, the big joker waits: the low group goes first
    deal = Deal.from_hands(["D5577333"] + [FILLER] * 5, "qingdao", leader=0)
    action, _ = choose(deal)
    assert action == Play.of(2, 2)


def test_opens_the_point_with_a_safe_pure_gouji_play() -> None:
    zoucheng = gouji.RuleSet.preset("zoucheng").replace(decks=8)  # these hands hold more 3s than 4 decks
    deal = Deal.from_hands(["AAAAAAA5678333"] + [FILLER] * 5, zoucheng, leader=0)
    action, reason = choose(deal)
    assert action == Play.of(11, 7)
    assert "open" in reason


def test_follows_the_opening_with_a_single_four_where_asked() -> None:
    zhangqiu = gouji.RuleSet.preset("zhangqiu").replace(decks=8)  # these hands hold more 3s and 4s than 4 decks
    deal = Deal.from_hands(["AAAAAAA44568333"] + [FILLER] * 5, zhangqiu, leader=0)
    action, _ = choose(deal)
    assert action == Play.of(11, 7)
    deal.act(action)
    while deal.to_act != 0:
        deal.act("pass")
    action, reason = choose(deal)
    assert action == Play.of(1, 1)  # a single 4 (章丘), not both
    assert "4" in reason
    deal.act(action)
    assert deal.opened[0]


class NoScan(Sequence[Action]):
    """A legal set that may be asked its length, an item or membership, but never scanned whole."""

    def __init__(self, legal: Sequence[Action]) -> None:
        self.legal = legal

    def __len__(self) -> int:
        return len(self.legal)

    def __getitem__(self, i: Any) -> Any:
        return self.legal[i]

    def __contains__(self, a: object) -> bool:
        return a in self.legal

    def __iter__(self) -> Iterator[Action]:
        raise AssertionError("the bot scanned the whole lead set")


@pytest.mark.parametrize("preset", ["tournament", "qingdao"])
def test_a_huge_lead_set_is_never_scanned(preset: str) -> None:
    huge = "DDDDXXXX22222222AAAAAAKKKKKKQQQQQQJJJJJJ987653"
    deal = Deal.from_hands([huge] + [FILLER] * 5, preset, leader=0)
    legal = deal.legal_actions()
    assert len(legal) > 5_000
    action = strict().decide(deal.view(0), NoScan(legal), random.Random(0))
    assert action in legal
    # every lead of a whole deal, too
    deal = Deal.new(preset, seed=1)
    bot = strict()
    while not deal.is_over:
        legal = deal.legal_actions()
        seat = deal.to_act
        assert seat is not None
        choice = bot.decide(deal.view(seat), NoScan(legal) if len(legal) > 256 else legal, random.Random(0))
        deal.act(choice)


# ---------------------------------------------------------------------------------------------- strength


def test_beats_the_random_bot_on_duplicate_deals() -> None:
    """Each deal is played twice with the teams swapped: the heuristic team must score more."""
    margins = []
    for seed in range(30):
        margin = 0
        for heuristic_team in (0, 1):
            bots: list[Any] = [strict() if s % 2 == heuristic_team else RandomBot() for s in range(6)]
            deal = play_deal(Deal.new("qingdao", seed=seed), bots, random.Random(seed))
            points = team_points(deal)
            margin += points[heuristic_team] - points[1 - heuristic_team]
        margins.append(margin)
    assert sum(margins) / len(margins) > 20
    assert sum(m > 0 for m in margins) >= 0.8 * len(margins)


# ---------------------------------------------------------------- the regional decisions of rule book §16


def test_answers_the_regional_setup_decisions() -> None:
    from gouji.engine.tribute import Payment

    # 汇5: discard the 5s
    rules = gouji.RuleSet.preset("qingdao").replace(bie_san=False, revolution=False, xuandian=False, huiwu=True)
    deal = Deal.from_hands(["5559K", "AK", "AK", "AK", "AK", "AK"], rules, leader=0, setup=True, huiwu=[0])
    assert deal.phase == "huiwu"
    assert str(choose(deal)[0]) == "huiwu"
    # 退贡: hand a teammate's 落贡 back
    rules = rules.replace(huiwu=False, lao_to_teammate="returnable")
    pays = [Payment("luo", 2, 0, 1, giveback=True)]
    deal = Deal.from_hands(["AK", "AK", "2AK", "AK", "AK", "AK"], rules, leader=0, setup=True, tribute=pays)
    assert deal.phase == "giveback" and str(choose(deal)[0]) == "giveback"
    # 无级自开 whenever allowed
    rules = rules.replace(self_open=True)
    deal = Deal.from_hands(["KQJ9854", "AA", "AA", "AA", "AA", "AA"], rules, leader=0, setup=True)
    assert deal.phase == "selfopen" and str(choose(deal)[0]) == "selfopen"
    # 冲点: with three pure gouji groups and three As; not with a weak hand
    rules = rules.replace(self_open=False, chongdian=True)
    deal = Deal.from_hands(["AAAKKQQQ5", "9KQJ", "2", "2", "2", "2"], rules, leader=0, setup=True)
    assert deal.phase == "chongdian" and str(choose(deal)[0]) == "chongdian"
    deal.act("chongdian")
    assert str(choose(deal)[0]) == "pass", "seat 1: KQJ9 is no 冲点 hand"


def test_a_chongdian_attempt_leads_the_play_likeliest_to_stand() -> None:
    rules = gouji.RuleSet.preset("qingdao").replace(bie_san=False, revolution=False, xuandian=False, chongdian=True)
    deal = Deal.from_hands(["AAAKKQQQ5", "9KQJ", "2", "2", "2", "2"], rules, leader=0, setup=True)
    deal.act("chongdian")
    while deal.phase == "chongdian":
        deal.act("pass")
    assert deal.phase == "play" and deal.to_act == 0
    action, reason = choose(deal)
    assert action in deal.legal_actions() and "冲点" in reason
    assert isinstance(action, Play) and action.rank == C.ACE
