"""What a training run is: its options (:class:`TrainConfig`), its files, and a deal's returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...bots.features import ACTION_SIZE, STATE_SIZE
from ...engine.deal import Deal
from ...engine.scoring import team_points
from ...engine.seats import SEATS, team

INPUT = STATE_SIZE + ACTION_SIZE
CURRENT = "current.npz"
CHECKPOINT = "checkpoint.pt"
CURVE_CSV = "curve.csv"
CURVE_PNG = "curve.png"
CURVE_FIELDS = (
    "minutes",
    "samples",
    "steps",
    "loss",
    "rules",
    "pairs",
    "margin",
    "margin_ci",
    "pairs_won",
    "pairs_lost",
    "ties",
)


@dataclass
class TrainConfig:
    """Everything a training run is made of (stored in its checkpoint; a resumed run keeps its own)."""

    rules: tuple[str, ...] = ("qingdao", "tournament")
    method: str = "paired"
    """``paired`` (the default: branch rollouts against the heuristic's choice) or ``dmc`` (plain returns)."""
    branch: float = 0.08
    """``paired``: the chance that a decision with several candidates is branched."""
    branch_kinds: tuple[str, ...] | None = None
    """``paired``: the kinds of decision (:func:`gouji.bots.learned.decision_kind`) that may be branched
    (None: every kind) — those where the shipped bot may overrule the heuristic."""
    focus: float = 0.5
    """``paired``: the share of branches that try the network's best alternative (the rest: a random one)."""
    prior_bonus: float = 0.02
    """The shipped bot plays another candidate than the heuristic's only when it is valued this much higher."""
    hidden: tuple[int, ...] = (256, 128, 64)
    lr: float = 3e-4
    batch: int = 512
    buffer: int = 200_000
    reuse: float = 4.0
    """Train steps are limited to ``reuse × new samples / batch``: each sample is used about this often."""
    epsilon: float = 0.06
    warm_minutes: float = 10.0
    """The heuristic-following probability falls from 1 to 0 over this much training time."""
    selfplay: float = 0.4
    """Share of deals where all six seats learn; the rest are learner team vs a pool opponent."""
    snapshot_share: float = 0.3
    """Among pool deals, the share against an earlier snapshot (the rest against the heuristic)."""
    actors: int = 1
    publish_seconds: float = 20.0
    checkpoint_seconds: float = 120.0
    eval_minutes: float = 10.0
    eval_pairs: int = 60
    eval_seed: int = 99
    snapshot_minutes: float = 10.0
    seed: int = 1
    ray: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def scale(rules_name: str) -> float:
    """Returns are divided by this: the spread of a deal's point difference under the preset."""
    return 9.0 if rules_name == "tournament" else 12.0


def deal_returns(deal: Deal) -> list[float]:
    """Each seat's return: its team's points minus the other team's, scaled (see :func:`scale`)."""
    return score_returns(team_points(deal), deal.rules.name)


def score_returns(pts: tuple[int, int], rules_name: str) -> list[float]:
    """:func:`deal_returns` of a deal that ended with the team points ``pts``."""
    diff = (pts[0] - pts[1]) / scale(rules_name)
    return [diff if team(seat) == 0 else -diff for seat in range(SEATS)]
