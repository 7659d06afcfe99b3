"""Players' ratings (issue 43): OpenSkill's Plackett-Luce model over the results of sets and duplicate matches.

**The model.** :class:`openskill.models.PlackettLuce` — a Bayesian team model (each player a Gaussian skill
``mu ± sigma``, a team the sum of its players): it rates teams of any size and ties, costs microseconds an
update, and is the model OpenSkill recommends by default; a Gouji result is one team's win, or a draw, between
two teams of three, which it takes as ranks.  (Thurstone-Mosteller or Bradley-Terry would rate the same two-team
results almost alike; Plackett-Luce also leaves room for rating the six places of a deal later.)

**What counts.** A set counts by its team result — the team with more points wins, equal points draw — and a
duplicate match by its comparison: the team with more small points over both tables wins (the same cards were
dealt to both teams, so the luck of the cards cancels out and a team that played them better gains).  Places
inside a deal are not rated on their own: a deal's places are mostly its cards, and the set's points sum them.

**Bots** in rated seats carry fixed ratings, never changed: 高手 (``heuristic``) ``25 ± 1``, and 新手
(``novice``) the ``mu`` at which three 新手 lose to three 高手 as often as the ladder measured (``docs/ladder.md``:
of 3,893 decided duplicate pairs on ``qingdao`` and ``tournament``, 高手 won 3,861 — :func:`bot_mu_from_ladder`).

**What people see.** The rating shown is ``1000 + 40 × (mu − 3 sigma)``: a new account (``25 ± 8.33``) is 1000,
and it rises as its results narrow ``sigma`` and move ``mu``.  Its title (:data:`TITLES`) is a rung of the
imperial examinations' ladder, as Chinese card rooms name their ranks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()
NEW = (MODEL.mu, MODEL.sigma)
"""A new account's rating: ``25 ± 8.33``."""

LADDER_PAIRS = (3861, 32)
"""高手 against 新手, duplicate pairs won and lost by 高手 (``docs/ladder.md``, seed 2026, 2,000 pairs a preset:
qingdao 1,875 won and 28 lost, tournament 1,986 and 4)."""
BOT_SIGMA = 1.0


def bot_mu_from_ladder(won: int, lost: int, strong_mu: float = 25.0, sigma: float = BOT_SIGMA) -> float:
    """The ``mu`` of a weaker bot whose team of three loses to a team of three of the stronger one (``strong_mu``)
    as often as ``won`` of ``won + lost`` — by bisection on the model's own win probability."""
    target = won / (won + lost)
    strong = [MODEL.rating(mu=strong_mu, sigma=sigma)] * 3
    lo, hi = strong_mu - 25.0, strong_mu
    for _ in range(60):
        mid = (lo + hi) / 2
        p = MODEL.predict_win([strong, [MODEL.rating(mu=mid, sigma=sigma)] * 3])[0]
        lo, hi = (mid, hi) if p > target else (lo, mid)
    return round((lo + hi) / 2, 2)


BOT_RATINGS: dict[str, tuple[float, float]] = {"heuristic": (25.0, BOT_SIGMA), "novice": (19.9, BOT_SIGMA)}
"""The bots that may sit at a rated table, and their fixed ratings (``novice``: :func:`bot_mu_from_ladder` of
:data:`LADDER_PAIRS`, rounded; a test recomputes it)."""

TITLES: tuple[tuple[int, str, str], ...] = (
    (0, "童生", "Pupil"),
    (1000, "秀才", "Scholar"),
    (1200, "举人", "Graduate"),
    (1400, "贡士", "Candidate"),
    (1600, "进士", "Doctor"),
    (1800, "探花", "Third laureate"),
    (2000, "榜眼", "Second laureate"),
    (2200, "状元", "Champion"),
)
"""The titles by shown rating, lowest first: (from, 中文, English)."""


def shown(mu: float, sigma: float) -> int:
    """The rating people see."""
    return round(1000 + 40 * (mu - 3 * sigma))


def title(rating: int) -> dict[str, str | int]:
    """The title of a shown rating: ``{level, zh, en}`` (level 0 the lowest)."""
    level = max(i for i, (low, _, _) in enumerate(TITLES) if rating >= low or i == 0)
    _, zh, en = TITLES[level]
    return {"level": level, "zh": zh, "en": en}


@dataclass(frozen=True)
class Seat:
    """A seat of a rated result: an account's (its rating now) or a bot's (fixed)."""

    mu: float
    sigma: float
    account: str | None = None


def rate(teams: tuple[Sequence[Seat], Sequence[Seat]], outcome: int) -> dict[str, tuple[float, float]]:
    """The new ratings of the accounts of two teams after a result: ``outcome`` 1 the first team won, 0 a draw,
    -1 the second won.  Bots' seats take part with their fixed ratings and get nothing back."""
    if outcome not in (1, 0, -1):
        raise ValueError(f"outcome is 1, 0 or -1, not {outcome!r}")
    rated: list[list[PlackettLuceRating]] = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams]
    ranks: list[float] = [1.0, 1.0] if outcome == 0 else [1.0, 2.0] if outcome == 1 else [2.0, 1.0]
    after = MODEL.rate(rated, ranks=ranks)
    out: dict[str, tuple[float, float]] = {}
    for team, new in zip(teams, after, strict=True):
        for seat, r in zip(team, new, strict=True):
            if seat.account is not None:
                out[seat.account] = (r.mu, r.sigma)
    return out
