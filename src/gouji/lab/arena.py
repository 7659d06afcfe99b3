"""The arena: two bots measured against each other with duplicate deals (rule book §13).

Every deal is played twice with the same cards and the teams swapped, so that each bot holds each set of
hands once and the luck of the cards cancels out:

- pair ``i`` of a run with seed ``S`` is dealt by ``Deal.new(rules, seed=S * SEED_STRIDE + i)`` — the first
  leader is drawn from that seed too — in both of its games;
- game 0 seats bot A in 0, 2, 4 (team 0) and bot B in 1, 3, 5; game 1 the other way round;
- game ``g`` is played with ``random.Random(f"arena {S}:{i}:{g}")`` as the bots' generator and a fresh bot
  per seat, so a pair's result depends only on (bots, rules, ``S``, ``i``) — not on which process plays
  it, nor on what was played before.

A's *margin* on a pair is A's team points over both games minus B's (:func:`gouji.engine.scoring.team_points`).
Because the generator belongs to the game, not to the seating, swapping A and B negates every margin
exactly only for bots that do not use it; for random bots the two runs are equally good but different
samples (this keeps a bot against itself a true measure of the noise instead of a string of ties).
Should the two games differ in their revolutions so that one deal is voided (流局) and dealt again while the
other is not, the two games end up with different cards; :attr:`ArenaResult.diverged` counts those pairs.

:func:`run_arena` is the whole measurement as a plain function; ``gouji arena`` prints it.
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from rich.table import Table

from ..bots import Bot, make_bot, play_deal
from ..engine.deal import Deal
from ..engine.rules import RuleSet, resolve
from ..engine.scoring import team_points
from ..engine.seats import SEATS, team
from .distributed import workers

T = TypeVar("T")

SEED_STRIDE = 1_000_003
"""Pair ``i`` of a run with seed ``S`` is dealt from seed ``S * SEED_STRIDE + i``."""
BURN_RESULTS = ("success", "broken", "countered", "failed", "ended")
"""How a burn (烧牌) ends, as ``Deal.burns`` records it."""
Z95 = 1.96
"""Half-width of a 95% confidence interval, in standard errors."""
LABELS = ("A", "B")
MAX_CHUNK = 25
"""At most this many pairs go to a worker process at once (with ``jobs > 1``)."""


# ---------------------------------------------------------------------------------------------- one pair


def deal_seed(seed: int, i: int) -> int:
    """The seed both games of pair ``i`` are dealt from."""
    return seed * SEED_STRIDE + i


def bot_rng(seed: int, i: int, game: int) -> random.Random:
    """The bots' generator in game ``game`` (0 or 1) of pair ``i``."""
    return random.Random(f"arena {seed}:{i}:{game}")


def seating(a: T, b: T, game: int) -> tuple[T, ...]:
    """What sits in each seat (a bot's name, or its maker): game 0 has A in the even seats (team 0), game 1 has B
    there."""
    even, odd = (a, b) if game == 0 else (b, a)
    return tuple(even if s % 2 == 0 else odd for s in range(SEATS))


def team_of(label: int, game: int) -> int:
    """The team (0: seats 0, 2, 4) that A (``label`` 0) or B (1) plays in game ``game``."""
    return label ^ game


def play_bots(a: Callable[[], Bot], b: Callable[[], Bot], rules: RuleSet | str, seed: int, i: int, game: int) -> Deal:
    """Game ``game`` (0 or 1) of pair ``i`` between the bots ``a`` and ``b`` make (one for each of their seats),
    played to its end."""
    deal = Deal.new(rules, seed=deal_seed(seed, i))
    return play_deal(deal, [make() for make in seating(a, b, game)], bot_rng(seed, i, game))


def play_game(a: str, b: str, rules: RuleSet | str, seed: int, i: int, game: int) -> Deal:
    """Game ``game`` (0 or 1) of pair ``i`` between the bots named ``a`` and ``b``, played to its end."""
    return play_bots(partial(make_bot, a), partial(make_bot, b), rules, seed, i, game)


def pair_games(a: str, b: str, rules: RuleSet | str, seed: int, i: int) -> tuple[Deal, Deal]:
    """Both games of pair ``i``, played to their ends (the same dealt hands, the teams swapped)."""
    games = (play_game(a, b, rules, seed, i, 0), play_game(a, b, rules, seed, i, 1))
    if games[0].events[0]["hands"] != games[1].events[0]["hands"]:  # pragma: no cover - an engine bug
        raise RuntimeError(f"pair {i}: the two games were not dealt the same hands")
    return games


@dataclass(frozen=True, slots=True)
class Side:
    """What one team did in one game."""

    points: int
    place_sum: int
    """The sum of its three seats' places, 1 = 头科 … 6 = 大落."""
    sweep: bool
    smothered: int
    """Its seats smothered (闷) by the other team."""
    smothering: int
    """Seats of the other team it smothered."""
    burns: tuple[int, ...]
    """Burns started by its players, by how they ended (as :data:`BURN_RESULTS`)."""
    revolutions: int
    """Revolutions (革命) by its players, those of voided deals included."""


def side_of(deal: Deal, t: int) -> Side:
    """Team ``t``'s :class:`Side` of a finished deal."""
    assert deal.places is not None
    burns = [0] * len(BURN_RESULTS)
    for burn in deal.burns:
        if team(burn["burner"]) == t:
            burns[BURN_RESULTS.index(burn["result"])] += 1
    return Side(
        points=team_points(deal)[t],
        place_sum=sum(place + 1 for place, s in enumerate(deal.places) if team(s) == t),
        sweep=deal.sweep == t,
        smothered=sum(1 for s, _ in deal.smothered if team(s) == t),
        smothering=sum(1 for _, by in deal.smothered if team(by) == t),
        burns=tuple(burns),
        revolutions=sum(1 for e in deal.events if e["type"] == "revolution" and team(e["seat"]) == t),
    )


def played_hands(deal: Deal) -> list[str]:
    """The hands the deal was finally played with: those of the last deal or redeal (after a void)."""
    return list(next(e for e in reversed(deal.events) if e["type"] in ("deal", "void"))["hands"])


@dataclass(frozen=True, slots=True)
class PairResult:
    """Both games of one duplicate pair."""

    index: int
    leader: int
    """The first leader (上班) of both games."""
    sides: tuple[tuple[Side, Side], tuple[Side, Side]]
    """``sides[game][label]``: what A (label 0) and B (1) did in game 0 and game 1."""
    decisions: int
    voids: int
    """Deals voided by two revolutions (流局), over both games."""
    diverged: bool
    """Whether the two games ended up played with different hands (one was voided and dealt again)."""

    def points(self, label: int) -> int:
        """A's (label 0) or B's (1) points over both games."""
        return self.sides[0][label].points + self.sides[1][label].points

    @property
    def margin(self) -> int:
        """A's points minus B's over both games."""
        return self.points(0) - self.points(1)


def play_pair(a: str, b: str, rules: RuleSet | str, seed: int, i: int) -> PairResult:
    """Play pair ``i`` and sum it up."""
    games = pair_games(a, b, rules, seed, i)
    sides = tuple((side_of(deal, team_of(0, g)), side_of(deal, team_of(1, g))) for g, deal in enumerate(games))
    return PairResult(
        index=i,
        leader=games[0].first_leader,
        sides=(sides[0], sides[1]),
        decisions=sum(d.decisions for d in games),
        voids=sum(1 for d in games for e in d.events if e["type"] == "void"),
        diverged=played_hands(games[0]) != played_hands(games[1]),
    )


def play_pairs(a: str, b: str, rules: RuleSet, seed: int, start: int, stop: int) -> list[PairResult]:
    """Pairs ``start`` … ``stop - 1``: one chunk of work for a worker process."""
    return [play_pair(a, b, rules, seed, i) for i in range(start, stop)]


def play_chunk(a: str, b: str, rules: RuleSet, seed: int, span: tuple[int, int]) -> list[PairResult]:
    """:func:`play_pairs` over ``span = (start, stop)``: the worker function of :func:`run_arena`."""
    return play_pairs(a, b, rules, seed, *span)


# ---------------------------------------------------------------------------------------------- statistics


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean with the half-width of its 95% confidence interval (``None`` from a single value)."""

    mean: float
    half_width: float | None

    @classmethod
    def of(cls, values: Sequence[float]) -> Interval:
        """mean ± 1.96·sd/√n of ``values`` (normal approximation)."""
        mean = statistics.fmean(values)
        if len(values) < 2:
            return cls(mean, None)
        return cls(mean, Z95 * statistics.stdev(values, mean) / math.sqrt(len(values)))

    @property
    def low(self) -> float | None:
        return None if self.half_width is None else self.mean - self.half_width

    @property
    def high(self) -> float | None:
        return None if self.half_width is None else self.mean + self.half_width

    def to_dict(self) -> dict[str, float | None]:
        return {"mean": self.mean, "half_width": self.half_width, "low": self.low, "high": self.high}


@dataclass(frozen=True, slots=True)
class TeamStats:
    """One bot's results over the run, both games of every pair."""

    label: str
    bot: str
    points: int
    """Place points over every deal it played."""
    points_per_deal: Interval
    """Its mean place points per deal played, with the CI over the pairs' means."""
    pairs_won: int
    """Pairs where its margin is positive."""
    mean_place: float
    """1 = 头科 … 6 = 大落, over its seats and deals."""
    sweeps: int
    smothered: int
    smothering: int
    burns: dict[str, int]
    revolutions: int

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["points_per_deal"] = self.points_per_deal.to_dict()
        d["burns"] = dict(self.burns)
        return d


def team_stats(label: int, bot: str, pairs: Sequence[PairResult]) -> TeamStats:
    """Gather A's (``label`` 0) or B's (1) results over ``pairs``."""
    sides = [p.sides[g][label] for p in pairs for g in (0, 1)]
    deals = len(sides)
    burns = [sum(s.burns[r] for s in sides) for r in range(len(BURN_RESULTS))]
    sign = 1 if label == 0 else -1
    return TeamStats(
        label=LABELS[label],
        bot=bot,
        points=sum(s.points for s in sides),
        points_per_deal=Interval.of([p.points(label) / 2 for p in pairs]),
        pairs_won=sum(1 for p in pairs if sign * p.margin > 0),
        mean_place=sum(s.place_sum for s in sides) / (3 * deals),
        sweeps=sum(1 for s in sides if s.sweep),
        smothered=sum(s.smothered for s in sides),
        smothering=sum(s.smothering for s in sides),
        burns={"started": sum(burns), **dict(zip(BURN_RESULTS, burns, strict=True))},
        revolutions=sum(s.revolutions for s in sides),
    )


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """The outcome of :func:`run_arena`.  Everything but ``seconds`` and ``jobs`` depends only on the bots,
    the rules, the number of pairs and the seed."""

    a: str
    b: str
    rules: str
    seed: int
    pairs: int
    teams: tuple[TeamStats, TeamStats]
    """A's and B's results."""
    margin: Interval
    """A's points minus B's per pair (both games), with its CI."""
    ties: int
    """Pairs with margin 0."""
    diverged: int
    """Pairs whose two games were played with different hands (a void in one game only)."""
    voids: int
    decisions: int
    pair_results: tuple[PairResult, ...]
    seconds: float
    """Wall-clock time of the play, worker processes' start included."""
    jobs: int
    """Workers that played the pairs."""
    backend: str = "serial"
    """How they were spread: ``serial``, ``processes`` (``--jobs``) or ``ray`` (``--ray``)."""

    @property
    def deals(self) -> int:
        """Deals played: two per pair."""
        return 2 * self.pairs

    @property
    def deals_per_second(self) -> float | None:
        return self.deals / self.seconds if self.seconds > 0 else None

    def to_dict(self, with_pairs: bool = False) -> dict[str, Any]:
        """JSON-serialisable data; ``with_pairs`` adds every pair's A and B points in each game."""
        d: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "rules": self.rules,
            "seed": self.seed,
            "pairs": self.pairs,
            "deals": self.deals,
            "teams": [t.to_dict() for t in self.teams],
            "margin": self.margin.to_dict(),
            "ties": self.ties,
            "diverged": self.diverged,
            "voids": self.voids,
            "decisions": self.decisions,
            "timing": {
                "seconds": self.seconds,
                "deals_per_second": self.deals_per_second,
                "jobs": self.jobs,
                "backend": self.backend,
            },
        }
        if with_pairs:
            d["pair_results"] = [
                {
                    "index": p.index,
                    "leader": p.leader,
                    "points": [[p.sides[g][0].points, p.sides[g][1].points] for g in (0, 1)],
                    "margin": p.margin,
                }
                for p in self.pair_results
            ]
        return d

    def outcome(self) -> dict[str, Any]:
        """:meth:`to_dict` without the timing: what must be the same whatever ``jobs`` is."""
        d = self.to_dict(with_pairs=True)
        del d["timing"]
        return d


def summarize(
    a: str,
    b: str,
    rules: str,
    seed: int,
    results: Sequence[PairResult],
    seconds: float,
    jobs: int,
    backend: str = "serial",
) -> ArenaResult:
    """An :class:`ArenaResult` from the pairs' results, in pair order."""
    return ArenaResult(
        a=a,
        b=b,
        rules=rules,
        seed=seed,
        pairs=len(results),
        teams=(team_stats(0, a, results), team_stats(1, b, results)),
        margin=Interval.of([p.margin for p in results]),
        ties=sum(1 for p in results if p.margin == 0),
        diverged=sum(1 for p in results if p.diverged),
        voids=sum(p.voids for p in results),
        decisions=sum(p.decisions for p in results),
        pair_results=tuple(results),
        seconds=seconds,
        jobs=jobs,
        backend=backend,
    )


# ---------------------------------------------------------------------------------------------- the run


def chunks(pairs: int, jobs: int) -> list[tuple[int, int]]:
    """``[start, stop)`` ranges covering ``range(pairs)``: about eight per worker, at most MAX_CHUNK long."""
    size = max(1, min(MAX_CHUNK, math.ceil(pairs / (8 * jobs))))
    return [(start, min(start + size, pairs)) for start in range(0, pairs, size)]


def run_arena(
    a: str,
    b: str,
    rules: RuleSet | str,
    pairs: int,
    seed: int,
    jobs: int | None = 1,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> ArenaResult:
    """Play ``pairs`` duplicate pairs of bot ``a`` against bot ``b`` (names in :data:`gouji.bots.BOTS`).

    With ``jobs > 1`` the pairs are spread over that many processes, in chunks; with ``ray`` (an address,
    or :data:`gouji.lab.distributed.LOCAL`) over ``jobs`` Ray actors (``None``: one per CPU of the cluster) —
    see :mod:`gouji.lab.distributed`.  The result is the same whatever ``jobs`` and ``ray`` are (bots
    registered at run time may not exist in the workers, where the start method is not ``fork``).
    ``progress`` is called with the number of pairs done so far.
    Raises ``ValueError`` for an unknown bot, rule preset, or a count below 1.
    """
    for name in (a, b):
        make_bot(name)  # an unknown name is a ValueError listing the known ones
    rs = resolve(rules)  # an unknown preset is an UnknownRules, a ValueError
    if pairs < 1:
        raise ValueError(f"pairs must be at least 1, not {pairs}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if jobs is None and ray is None:
        jobs = 1
    start = time.perf_counter()
    results: list[PairResult] = []
    if jobs == 1 and ray is None:
        for i in range(pairs):
            results.append(play_pair(a, b, rs, seed, i))
            if progress is not None:
                progress(i + 1)
        kind = "serial"
    else:
        finished = 0

        def arrived(_: int, chunk: list[PairResult]) -> None:
            nonlocal finished
            finished += len(chunk)
            if progress is not None:
                progress(finished)

        with workers(jobs, ray) as pool:
            jobs, kind = pool.size, pool.kind
            for chunk in pool.map(partial(play_chunk, a, b, rs, seed), chunks(pairs, jobs), arrived):
                results.extend(chunk)
    seconds = time.perf_counter() - start
    return summarize(a, b, rs.name, seed, results, seconds, jobs, kind)


# ---------------------------------------------------------------------------------------------- report


def _ci(interval: Interval, fmt: str) -> str:
    """``mean ± half-width`` of ``interval``, each formatted with ``fmt`` (the half-width without sign)."""
    text = format(interval.mean, fmt)
    return text if interval.half_width is None else f"{text} ± {format(interval.half_width, fmt.lstrip('+'))}"


def _count(n: int, of: int) -> str:
    return f"{n} ({100 * n / of:.1f}%)"


BURN_LABELS = {
    "success": "succeeded (烧成功)",
    "broken": "broken (解烧)",
    "countered": "counter-burned (反烧)",
    "failed": "failed (烧失败)",
    "ended": "ended by the deal",
}


def arena_tables(result: ArenaResult) -> list[Table]:
    """``result`` as rich tables: the two bots side by side, then the pairs and the speed."""
    a, b = result.teams
    bots = Table(title="Bots", title_justify="left")
    bots.add_column("")
    bots.add_column(f"A: {a.bot}", justify="right")
    bots.add_column(f"B: {b.bot}", justify="right")
    bots.add_row("place points / deal (± 95% CI)", _ci(a.points_per_deal, "+.3f"), _ci(b.points_per_deal, "+.3f"))
    bots.add_row("pairs won (margin > 0)", _count(a.pairs_won, result.pairs), _count(b.pairs_won, result.pairs))
    bots.add_row("mean place (1 头科 … 6 大落)", f"{a.mean_place:.2f}", f"{b.mean_place:.2f}")
    bots.add_row("sweeps (串三户)", str(a.sweeps), str(b.sweeps))
    bots.add_row("its seats smothered (被闷)", str(a.smothered), str(b.smothered))
    bots.add_row("seats it smothered (闷)", str(a.smothering), str(b.smothering))
    bots.add_row("burns started (烧牌)", str(a.burns["started"]), str(b.burns["started"]))
    for key, label in BURN_LABELS.items():
        bots.add_row(f"  {label}", str(a.burns[key]), str(b.burns[key]))
    bots.add_row("revolutions (革命)", str(a.revolutions), str(b.revolutions))
    bots.caption = f"each bot played {result.deals} deals, half of them in seats 0 2 4"

    m = result.margin
    pairs = Table(title="Duplicate pairs", title_justify="left", show_header=False)
    pairs.add_column("")
    pairs.add_column("", justify="right")
    pairs.add_row("A's margin over B per pair (± 95% CI)", _ci(m, "+.2f"))
    if m.low is not None and m.high is not None:
        pairs.add_row("  95% CI", f"{m.low:+.2f} … {m.high:+.2f}")
    pairs.add_row("won by A / won by B / tied", f"{a.pairs_won} / {b.pairs_won} / {result.ties}")
    pairs.add_row("played with different hands (voided in one game)", str(result.diverged))
    pairs.add_row("decisions / deal", f"{result.decisions / result.deals:.1f}")
    rate = result.deals_per_second
    pairs.add_row(
        f"deals / s ({result.jobs} job{'s' if result.jobs > 1 else ''})", "—" if rate is None else f"{rate:,.0f}"
    )
    pairs.add_row("seconds", f"{result.seconds:.2f}")
    pairs.caption = "margin: A's place points minus B's over both games of a pair"
    return [bots, pairs]
