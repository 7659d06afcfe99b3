"""Rule sets: every option of the rule book as a typed field, and the named regional presets.

``RuleSet.preset("tongyong")`` gives a preset; ``.replace(bie_san=False)`` a variant of it.  Unlisted
options of a preset take the ``qingdao`` value (rule book §14).  The regional options of rule book §16
default to the common core rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from . import rule_bounds
from .cards import RANK_INDEX, RANKS
from .rule_bounds import InvalidRules, UnknownRules

ShowCounts = Literal["always", "at_or_below_10", "never"]
Scoring = Literal["set", "tournament"]
NoThree = Literal["revolt", "free", "last"]
BurnPriority = Literal["team_first", "turn_order"]
SmotherBy = Literal["anyone", "not_opposite", "opposite_only"]
FailedBurnThird = Literal["sike", "sanke"]
FirstLeader = Literal["random", "liang_san"]
BuyOrder = Literal["opposite_first", "teammates_second", "teammates_first"]
MutualPointTribute = Literal["pay", "waive", "agree"]
LaoToTeammate = Literal["none", "returnable"]
SweepTribute = Literal["opposite", "losers_pay"]
TributeCards = Literal["money", "highest"]
KaidianPlays = Literal["pure", "money", "no_jokers_no_single_two", "any"]
TributeKind = Literal["men", "shao", "dian", "luo"]
TRIBUTE_KINDS: tuple[TributeKind, ...] = ("men", "shao", "dian", "luo")
"""Tribute kinds in the default order: 闷贡, 烧贡, 点贡, 落贡."""


@dataclass(frozen=True)
class RuleSet:
    """Every option of the rule book.  Field docs name the rule and its seed."""

    name: str = "qingdao"
    """The preset this rule set is (or was derived from)."""
    source: str = "001 青岛, 000 大纲"
    """The seed sections the preset follows."""

    # 2. Cards
    decks: int = 4
    """Full 54-card decks in play (216 cards with 4)."""
    removed: tuple[tuple[str, int], ...] = ()
    """Cards removed from the deck, as (rank character, count) pairs: (("3", 10), ("4", 10)) → 196 cards."""

    # 7. 憋三 and 闷
    bie_san: bool = True
    """憋三: 3s only as a player's final play; a play leaving only 3s that is beaten smothers (闷) its player."""

    # 9. Buying 3s and 4s
    buy_four: bool = False
    """买四: every player must hold a 4 before play, bought like the 3s."""
    buy_four_optional: bool = False
    """A player without a 4 may decline to buy one (菏泽)."""
    no_three: NoThree = "revolt"
    """A player who can get no 3 and holds no 2 and no joker: revolts ("revolt") or is given one ("free");
    "last": anyone left without a 3 is ranked 大落, out of play (000 山东地区: 每人必须有3，否则大拉)."""
    buy_with_highest: bool = False
    """A buyer with no 2 and no joker pays their highest card for a 3 (or 4) (001 菏泽's header:
    没2用小王，没小王用大王，没大王用最大牌); off, such a buyer cannot buy (see no_three)."""
    buy_order: BuyOrder = "opposite_first"
    """Whom a 3 (or 4) is bought from: the 对头, its teammates, then own teammates free ("opposite_first");
    the 对头, own teammates free, then 上家/下家 ("teammates_second", 003 通用); own teammates free, then the
    对头 and its teammates ("teammates_first", 000 山东地区: 一般同伙送)."""

    # 4. Beating
    big_joker_kill: bool = False
    """大王二杀一, 三小灭一大: two big or three small jokers cover one big joker (通用规则)."""
    three_small_kill: bool = True
    """With big_joker_kill: three small jokers cover a big one too (三小灭一大, 003 通用); off, only two big
    jokers do (000 山东地区: 可以选择俩大王打一大王)."""

    # 8. 开点 and 宣点
    kaidian_needs_four: bool = False
    """开点发4: an opening counts only if the opener's next lead is 4s."""
    kaidian_four_single: bool = False
    """With kaidian_needs_four: that lead must be a single 4 (章丘), not any play of 4s."""
    four_forfeits_kaidian: bool = False
    """With kaidian_needs_four: playing 4s other than to complete an opening gives up opening this deal."""
    kaidian_plays: KaidianPlays = "pure"
    """Which standing gouji plays open the point: pure ones only ("pure": 001 青岛, 003 通用, 000 山东地区);
    also those with 2s attached and 2s alone ("money": 001 菏泽); all but joker plays and a single 2
    ("no_jokers_no_single_two": 000 其他规则 开点); every gouji play ("any": 001 枣庄).  Replaces the boolean
    ``kaidian_allows_money`` (true: "money"), which old records and payloads still give."""
    kaidian_until_out: int = 2
    """Nobody can open the point once this many players have gone out."""
    xuandian: bool = True
    """宣点: before play each player may declare that their opposite will not open the point."""

    # 6. Burning
    burn_needs_kaidian: bool = False
    """A player must have opened the point to burn (昌邑, 通用)."""
    burn_after_four_forfeit: bool = False
    """With burn_needs_kaidian: giving up the opening by playing a 4 also allows burning (通用: 先发4认不开点)."""
    burn_before_first_out: bool = False
    """No burning once anyone has gone out (章丘)."""
    burn_priority: BurnPriority = "team_first"
    """Who is offered a burn first: the gouji player's team ("team_first") or simply the next seats in turn
    order ("turn_order", 000 第十条: 无联邦烧牌优先，按上下家的顺序顺烧)."""
    opposite_counter_burn: bool = False
    """反稍 by the 对家: the burner's 对头 may burn the burner's play instead of breaking the burn (解烧), and if it
    succeeds the burner pays it the doubled 烧贡 (000 山东地区: 如果被对家反稍则进对家两倍的贡)."""
    failed_burn_third: FailedBurnThird = "sike"
    """Where a third failed burn of a deal is placed: 四科 ("sike") or 三科 ("sanke", 001 枣庄)."""

    # 7. 闷 (regional)
    smother_by: SmotherBy = "anyone"
    """Who smothers (闷) a player whose play leaves only 3s by beating it: anyone; anyone but the 对头
    ("not_opposite", 000: 对家无闷); the 对头 only ("opposite_only", 000 山东地区)."""
    smothered_keeps_head: bool = False
    """憋三留头: a smothered player's 对头 is not 无头 (003)."""
    open_when_opposite_smothered: bool = False
    """A player whose 对头 was smothered may still open the point (001 邹城: 对家被闷时，可以开点)."""
    fours_whole: bool = False
    """4不拆不挂: 4s are played all together and with nothing attached (000 山东地区)."""
    gousiji: bool = False
    """够死级 without 憋三: the 对头's beat of 头科's or 二科's last gouji play can only be burned (001 枣庄)."""
    first_leader: FirstLeader = "random"
    """Who leads the first deal: a seeded random seat, or 亮3 / 顶班 from the 3s' suits (001 青岛)."""
    chongdian: bool = False
    """冲点: a player with no joker and no 2 may try to open the point with three gouji plays (000 山东地区)."""
    self_open: bool = False
    """无级自开: a player with no gouji play shows the hand to the 对头 and opens by leading a 4 (000 山东地区)."""

    # 5.4 Free-for-all
    luanchan_at: int = 4
    """四户乱缠: the free-for-all starts when only this many players are still in play (章丘: 5)."""

    # 10. Revolution
    revolution: bool = True
    """革命: a player with no joker and no 2 may lay down their hand; two revolutions void the deal."""
    yaotou_limit: int = 3
    """要头: how many of their gouji plays the revolutionary's opposite keeps protected."""

    # 11. Card counts
    show_counts: ShowCounts = "always"
    """报牌: whether other players' card counts are shown: always, once at or below 10, or never."""

    # 12. Tribute
    tribute: bool = True
    """进贡: deals of a set pay tribute owed from the deal before."""
    set_length: int = 5
    """Deals in a set."""
    tribute_order: tuple[TributeKind, ...] = TRIBUTE_KINDS
    """The order tribute is paid in: men (闷贡), shao (烧贡), dian (点贡), luo (落贡)."""
    tribute_cards: TributeCards = "money"
    """Which cards a payer gives: the highest of its jokers and 2s, and nothing if it holds none ("money", 001
    进贡 法定贡牌: 大小王、2 … 不符合以上条件的不进贡); or its highest cards, whatever they are ("highest", 000
    山东地区: 大拉贡进两颗最大的 … 进自己一颗最大的)."""
    no_return: bool = False
    """No 还贡: the receivers of 落贡 return nothing (章丘)."""
    kanggong: bool = False
    """抗贡: four big jokers pay no tribute for the whole team, four small jokers none for oneself (章丘)."""
    sweep_tribute: SweepTribute = "opposite"
    """串三户: each sweeper receives one from their opposite, the rest waived; or the three losers each pay
    one 落贡 and point tribute is still paid (章丘: "losers_pay")."""

    return_held_ranks_only: bool = False
    """还贡 only in ranks the 落贡 payer still holds (001 青岛: 被还贡者没有的牌不能还贡)."""
    mutual_point_tribute: MutualPointTribute = "pay"
    """When neither of a 对头 pair opened nor declared: the 1-for-1 exchange is paid, waived, or paid only
    when both of the pair agree at the start of the next deal ("agree", 000 换点: 可以商议都进或都不进)."""
    huiwu: bool = False
    """汇5: after a sweep, each loser may discard all 5s from the next hand; a third sweep in a row of the
    same team restarts the set (001 章丘)."""
    sweep_restart_leader: bool = False
    """After a sweep the next deal is led by the seat after the previous first leader (000 大纲: 重新开牌)."""
    lao_to_teammate: LaoToTeammate = "none"
    """落贡 between teammates: none, or paid and handed back at the receiver's choice ("returnable",
    000 山东地区: 如果是进给自己同伙，同伙可以选择退贡)."""
    sweep_keeps_point_tribute: bool = False
    """After a sweep 点贡 is still paid both ways beside the sweep tribute (000 山东地区)."""

    # 13. Scoring
    scoring: Scoring = "set"
    """``set``: place_points and sweep_points; ``tournament``: 6..1 small points (比赛规则)."""
    place_points: tuple[int, int, int, int, int, int] = (4, 2, 0, 0, -2, -4)
    """Points for 头科, 二科, 三科, 四科, 二落, 大落."""
    sweep_points: int = 12
    """Points per team member for a sweep (串三户), won or lost."""
    base_points: int = 1
    """基础分, the stake of set scoring: every place and sweep point is multiplied by it (001 章丘 8: 玩家得分=
    (本队三个玩家走科分数之和)*基础分)."""

    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        """Check every option (types, bounds, allowed words, lengths, a playable deck): see
        :mod:`gouji.engine.rule_bounds`.  Lists become tuples and ``removed`` its canonical form."""
        for name, value in rule_bounds.check(self).items():
            object.__setattr__(self, name, value)

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """The named preset of rule book §14 (see :data:`PRESETS`)."""
        try:
            return _PRESETS[name]
        except KeyError:
            raise UnknownRules(f"no preset {name!r}; the presets are {', '.join(PRESETS)}") from None

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some options changed; an unknown option name is an error (an old name of
        :data:`LEGACY_OPTIONS` is read as its new option)."""
        changes = upgrade_options(changes)
        names = {f.name for f in dataclasses.fields(self)}
        for key in changes:
            if key not in names:
                raise UnknownRules(f"no rule option {key!r}")
        return dataclasses.replace(self, **changes)

    def burner_standing(self, opened: bool, forfeited: bool, anyone_out: bool) -> bool:
        """Whether a seat's own standing lets it burn (rule book §6): after the first seat is out, only where
        ``burn_before_first_out`` is off; with ``burn_needs_kaidian``, only once it opened the point (or gave
        the opening up by a 4, with ``burn_after_four_forfeit``).  The engine's burn offers and 反稍 and the
        heuristic's guess of who may burn all ask this, from public facts alone."""
        if self.burn_before_first_out and anyone_out:
            return False
        return not self.burn_needs_kaidian or opened or (self.burn_after_four_forfeit and forfeited)

    def may_still_open(self, opened: bool, forfeited: bool, free_for_all: bool, outs: int) -> bool:
        """Whether a seat may still open the point at all (rule book §8), before what depends on the play at
        hand (a head, 冲点): not opened, not forfeited, not in the free-for-all, fewer than
        ``kaidian_until_out`` seats out."""
        return not opened and not forfeited and not free_for_all and outs < self.kaidian_until_out

    @property
    def removed_counts(self) -> dict[int, int]:
        """``removed`` as rank index → count."""
        return {RANK_INDEX[r]: n for r, n in self.removed}

    @property
    def deck_size(self) -> int:
        """The number of cards dealt."""
        return 54 * self.decks - sum(n for _, n in self.removed)

    def to_dict(self) -> dict[str, Any]:
        """The options as plain JSON-serialisable data (``from_dict`` reads it back)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "extra":
                continue
            v = getattr(self, f.name)
            if f.name == "removed":
                v = {r: n for r, n in v}
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Rebuild a rule set from :meth:`to_dict` output."""
        if not isinstance(data, Mapping):
            raise InvalidRules(f"rules: expected an object of rule options, not {type(data).__name__}")
        data = upgrade_options(data)
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise UnknownRules(f"unknown rule options: {', '.join(sorted(map(str, unknown)))}")
        return cls(**data)  # lists become tuples in __post_init__


def _kaidian_allows_money(value: Any) -> tuple[str, Any]:
    if value is True:
        return "kaidian_plays", "money"
    if value is False:
        return "kaidian_plays", "pure"
    raise InvalidRules(f"kaidian_allows_money: {rule_bounds.show(value)} is not allowed: expected true or false")


LEGACY_OPTIONS: dict[str, Callable[[Any], tuple[str, Any]]] = {"kaidian_allows_money": _kaidian_allows_money}
"""Options of earlier versions, each with the function that reads its value as (new option, value):
``kaidian_allows_money`` true is ``kaidian_plays = "money"``, false ``"pure"``.  Old records and old option
payloads (the HTTP API's ``options``, the CLI's ``--option``) keep loading."""


def upgrade_options(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` (rule options by name) with every old option of :data:`LEGACY_OPTIONS` read as its new one.
    An old option and its new one given together must agree, else :class:`InvalidRules` names both."""
    out = dict(data)
    for old, read in LEGACY_OPTIONS.items():
        if old not in out:
            continue
        new, value = read(out.pop(old))
        if new in out and out[new] != value:
            raise InvalidRules(
                f"{old}: {rule_bounds.show(data[old])} means {new} = {value!r}, "
                f"but {new} is {rule_bounds.show(out[new])}; give {new} alone"
            )
        out[new] = value
    return out


def _p(name: str, source: str, **kw: Any) -> RuleSet:
    return RuleSet(name=name, source=source, **kw)


_THREES_FOURS = (("3", 10), ("4", 10))

_PRESETS: dict[str, RuleSet] = {
    "qingdao": _p(
        "qingdao",
        "001 青岛, 000 大纲",
        kaidian_needs_four=True,
        return_held_ranks_only=True,
        first_leader="liang_san",
    ),
    "tournament": _p(
        "tournament",
        "000 比赛规则",
        bie_san=False,
        revolution=False,
        xuandian=False,
        tribute=False,
        show_counts="at_or_below_10",
        scoring="tournament",
        set_length=4,
        kaidian_needs_four=True,  # the table's "—": no point tribute here, so the qingdao value is moot
    ),
    "tongyong": _p(
        "tongyong",
        "003 通用规则",
        removed=(("3", 10), ("4", 8)),
        buy_four=True,
        big_joker_kill=True,
        kaidian_needs_four=True,
        four_forfeits_kaidian=True,
        burn_needs_kaidian=True,
        burn_after_four_forfeit=True,
        show_counts="at_or_below_10",
        buy_order="teammates_second",
    ),
    "changyi": _p(
        "changyi",
        "001 昌邑",
        removed=_THREES_FOURS,
        kaidian_needs_four=True,
        four_forfeits_kaidian=True,
        burn_needs_kaidian=True,
    ),
    "zoucheng": _p(
        "zoucheng", "001 邹城", removed=_THREES_FOURS, show_counts="never", open_when_opposite_smothered=True
    ),
    "zhangqiu": _p(
        "zhangqiu",
        "001 章丘",
        removed=_THREES_FOURS,
        buy_four=True,
        no_three="free",
        kaidian_needs_four=True,
        kaidian_four_single=True,
        kaidian_until_out=1,
        burn_before_first_out=True,
        luanchan_at=5,
        show_counts="never",
        tribute_order=("dian", "shao", "men", "luo"),
        no_return=True,
        kanggong=True,
        sweep_tribute="losers_pay",
        huiwu=True,
    ),
    "zaozhuang": _p("zaozhuang", "001 枣庄", decks=6, failed_burn_third="sanke", kaidian_plays="any", gousiji=True),
    "heze": _p(
        "heze",
        "001 菏泽",
        removed=_THREES_FOURS,
        buy_four=True,
        buy_four_optional=True,
        no_three="free",
        buy_with_highest=True,
        kaidian_plays="money",
        revolution=False,
        xuandian=False,
        tribute=False,
        show_counts="never",
    ),
    "shandong": _p(
        "shandong",
        "000 够级大纲-山东地区",
        removed=(("3", 10), ("4", 2)),
        no_three="last",
        buy_order="teammates_first",
        kaidian_needs_four=True,
        fours_whole=True,
        opposite_counter_burn=True,
        smother_by="opposite_only",
        lao_to_teammate="returnable",
        sweep_keeps_point_tribute=True,
        tribute_order=("dian", "men", "shao", "luo"),
        tribute_cards="highest",
        chongdian=True,
        self_open=True,
    ),
}

PRESETS: tuple[str, ...] = tuple(_PRESETS)
"""The preset names of rule book §14 (and §16.3's ``shandong``)."""


def resolve(rules: RuleSet | str | None) -> RuleSet:
    """A rule set from a RuleSet, a preset name, or None (qingdao)."""
    if rules is None:
        return _PRESETS["qingdao"]
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return RuleSet.preset(rules)
    raise UnknownRules(f"rules must be a RuleSet or a preset name, not {type(rules).__name__}")


assert set(RANKS) >= {r for r, _ in _THREES_FOURS}
__all__ = [
    "LEGACY_OPTIONS",
    "PRESETS",
    "TRIBUTE_KINDS",
    "InvalidRules",
    "RuleSet",
    "UnknownRules",
    "resolve",
    "upgrade_options",
]
