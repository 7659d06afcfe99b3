"""What every environment shares: an episode (one deal, or one set of deals), observations and rewards.

Numpy only — the PettingZoo and Gymnasium classes (:mod:`gouji.env.aec`, :mod:`gouji.env.single`) wrap an
:class:`Episode` in their APIs.

- **Observations** are ``encode_state(Deal.view(seat))`` (:func:`gouji.bots.features.encode_state`), kept
  up to date step by step from what that view holds (:mod:`gouji.env.tracker`), never from the deal's
  hidden state; the action mask comes from the seat's legal actions (which depend
  on its own hand and public facts only) through the :mod:`~gouji.env.catalogue`, and is all zeros for a
  seat that is not to act.
- **Rewards** come at the end of each deal: every seat gets its team's points for the deal (place points
  and sweeps under ``set`` scoring, small points under ``tournament``) less the mean of the two teams'
  points, so the two teams' rewards are opposite (zero-sum).  Under ``set`` scoring the mean is 0 and the
  reward is the team's place points.
- **Episodes** are one deal (``episode="deal"``) or one set (``episode="set"``, :class:`gouji.competition.sets.Match`:
  ``set_length`` deals with tribute carried from each deal to the next, a reward at the end of each).
"""

from __future__ import annotations

import random
import sys
from typing import Any, Literal

import numpy as np

from ..competition.sets import Match
from ..engine.actions import LegalActions
from ..engine.deal import Deal, IllegalAction
from ..engine.rules import RuleSet, resolve
from ..engine.scoring import place_scores, team_points
from ..engine.seats import SEATS, team
from .catalogue import Catalogue, catalogue
from .tracker import StateTracker

EpisodeKind = Literal["deal", "set"]
EPISODES: tuple[str, ...] = ("deal", "set")

Observation = dict[str, np.ndarray[Any, Any]]

_REFCOUNT = getattr(sys, "getrefcount", None)  # CPython: masks are recycled only where it can tell
_POOL = 4
INDEX_CACHE = 4096
"""The most legal sets whose index arrays an :class:`Episode` keeps (about 1 MB)."""
_FILL_AT = 8000
"""Legal sets larger than this are set in a mask block by block (:meth:`Catalogue.fill`), others by their
indices: one fancy assignment costs about 1 ns an index, a block's slice assignment about 1 µs."""

NO_INDICES: np.ndarray[Any, np.dtype[np.int64]] = np.zeros(0, dtype=np.int64)
NO_INDICES.flags.writeable = False


def deal_rewards(deal: Deal) -> list[float]:
    """Each seat's reward for a finished deal: its team's points less the mean of both teams' points."""
    points = team_points(deal)
    mean = (points[0] + points[1]) / 2
    return [float(points[team(s)] - mean) for s in range(SEATS)]


def worst_reward(rules: RuleSet) -> float:
    """The lowest reward a deal can give under ``rules`` (a sweep lost, or the three lowest places)."""
    scores = sorted(place_scores(rules))
    worst = (sum(scores[:3]) - sum(scores[3:])) / 2
    if rules.scoring == "set":
        worst = min(worst, -3.0 * rules.sweep_points * rules.base_points)
    return float(worst)


def new_seed(rng: random.Random) -> int:
    """A deal or set seed drawn from an environment's generator."""
    return rng.randrange(2**63)


class Episode:
    """One episode of Gouji: a deal or a set, stepped with catalogue indices."""

    def __init__(self, rules: RuleSet | str | None = "qingdao", episode: str = "deal", set_length: int | None = None):
        self.rules = resolve(rules)
        if episode not in EPISODES:
            raise ValueError(f"episode must be 'deal' or 'set', not {episode!r}")
        if set_length is not None and (episode != "set" or set_length < 1):
            raise ValueError("set_length is for episode='set', and at least 1")
        self.kind = episode
        self.set_length = set_length
        self.catalogue: Catalogue = catalogue(self.rules)
        self.match: Match | None = None
        self.deal: Deal = Deal.new(self.rules, seed=0)
        self.deals_done = 0
        self._log_deal: Deal | None = None
        self._logs: list[list[dict[str, Any]]] = []
        self._tracker = StateTracker()
        self._legal_of: LegalActions | None = None
        self._legal_idx = NO_INDICES
        self._index_cache: dict[tuple[Any, ...], np.ndarray[Any, np.dtype[np.int64]]] = {}
        """The read-only index arrays of legal sets listed one by one, by their actions (at most
        :data:`INDEX_CACHE`, emptied when full)."""
        self._mask_pool: list[list[Any]] = []  # [mask, the legal actions set in it, or their indices]
        self._pool_next = 0

    def start(self, seed: int | str, deal: Deal | None = None) -> None:
        """Start a new episode from ``seed`` (or, for a one-deal episode, from the given ``deal``).
        A bad ``deal`` raises ``ValueError`` and leaves the episode as it was."""
        if deal is not None:
            if self.kind == "set":
                raise ValueError("a set episode deals its own deals: the 'deal' option is for episode='deal'")
            if not isinstance(deal, Deal):
                raise ValueError(f"the 'deal' option must be a gouji.Deal, not {type(deal).__name__}")
            if deal.rules != self.rules:
                raise ValueError(f"the deal plays {deal.rules.name} rules, the environment {self.rules.name}")
        self.deals_done = 0
        if self.kind == "set":
            self.match = Match(self.rules, seed=seed, set_length=self.set_length)
            self.deal = self.match.current
        else:
            self.match = None
            self.deal = deal if deal is not None else Deal.new(self.rules, seed=seed)

    @property
    def to_act(self) -> int | None:
        """The seat to decide, or None once the episode is over."""
        return self.deal.to_act

    @property
    def is_over(self) -> bool:
        return self.match.is_over if self.match is not None else self.deal.is_over

    def view(self, seat: int) -> dict[str, Any]:
        """``Deal.view(seat)`` of the current deal, the same data, its log kept up to date event by event
        (:meth:`Deal.public_event` of each new event) instead of rebuilt from the first event each time."""
        deal = self.deal
        if deal is not self._log_deal:
            self._log_deal = deal
            self._logs = [[] for _ in range(SEATS)]
        log = self._logs[seat]
        events = deal.events
        if len(log) < len(events):
            public = Deal.public_event
            log.extend([public(e, seat) for e in events[len(log) :]])
        v = deal.view(seat, log=False)
        v["log"] = list(log)
        return v

    def observe(self, seat: int) -> Observation:
        """Seat ``seat``'s observation: its encoded view and its action mask (zeros when not to act).

        The vector is ``encode_state(Deal.view(seat))``, kept up to date step by step
        (:class:`~gouji.env.tracker.StateTracker`); both arrays are new ones that later steps leave alone."""
        deal = self.deal
        obs = self._tracker.observe(deal, seat)
        return {"observation": obs, "action_mask": self._mask(deal.to_act == seat)}

    def _mask(self, to_act: bool) -> np.ndarray[Any, np.dtype[np.int8]]:
        """An action mask: the legal actions of the seat to act, or all zeros.

        Zeroing a new 167,957-entry array and touching its pages costs more than the rest of the mask, so
        masks are recycled — but only one that nothing outside this pool refers to any more (its reference
        count says so: no observation dict, variable, view or tensor of the caller still holds it), so a mask
        once returned never changes while anyone can see it.  A recycled mask is cleared where it was set."""
        pool = self._mask_pool
        entry = None
        if _REFCOUNT is not None:
            for e in pool:
                if _REFCOUNT(e[0]) == 2:  # the pool's reference and the call's own: nobody else holds it
                    entry = e
                    break
        if entry is None:  # all held: a new one, in place of the oldest (which its holder keeps as it is)
            entry = [np.zeros(self.catalogue.size, dtype=np.int8), None, None]
            if len(pool) < _POOL:
                pool.append(entry)
            else:
                pool[self._pool_next] = entry
                self._pool_next = (self._pool_next + 1) % _POOL
        mask: np.ndarray[Any, np.dtype[np.int8]] = entry[0]
        legal = self.deal.legal_actions() if to_act else None
        idx = self.legal_indices() if legal is not None and len(legal) <= _FILL_AT else None
        if idx is not None and idx is entry[2]:  # the same kept index array: it holds these entries already
            return mask
        if entry[1] is not None:  # clear what it held
            if entry[2] is None:
                self.catalogue.fill(mask, entry[1], 0)
            else:
                mask[entry[2]] = 0
        if legal is not None:
            if idx is None:  # many leads: a block is one slice assignment, quicker than its indices
                self.catalogue.fill(mask, legal, 1)
            else:
                mask[idx] = 1
        entry[1], entry[2] = legal, idx
        return mask

    def legal_indices(self) -> np.ndarray[Any, np.dtype[np.int64]]:
        """The catalogue indices of the legal actions of the seat to act, in the order of
        ``Deal.legal_actions()`` (empty once the episode is over); a read-only array."""
        legal = self.deal.legal_actions()  # the same object until the deal changes
        if legal is not self._legal_of:
            if legal.blocks:  # leads: their indices are quick to gather, their key would not be
                idx = self.catalogue.indices(legal)
                idx.flags.writeable = False
            else:  # answers and decisions recur (a lone pass most of all): their arrays are kept
                key = tuple(legal.explicit)  # actions are interned: hashed and compared by identity
                got = self._index_cache.get(key)
                if got is None:
                    got = self.catalogue.indices(legal)
                    got.flags.writeable = False
                    if len(self._index_cache) >= INDEX_CACHE:
                        self._index_cache.clear()
                    self._index_cache[key] = got
                idx = got
            self._legal_of, self._legal_idx = legal, idx
        return self._legal_idx

    def step(self, index: int | np.integer[Any]) -> list[float] | None:
        """Take the action at catalogue ``index`` for the seat to act; returns the rewards by seat when a
        deal ended with it, else None.  An index that is not a legal action raises
        :class:`~gouji.IllegalAction` (a ``ValueError``) saying why, and changes nothing."""
        deal = self.deal
        seat = deal.to_act
        if seat is None:
            raise IllegalAction("the episode is over: nobody can act")
        try:
            i = int(index)
        except (TypeError, ValueError):
            raise IllegalAction(f"an action is a catalogue index (an int), not {index!r}") from None
        try:
            action = self.catalogue.action(i)
        except IndexError as e:
            raise IllegalAction(f"seat {seat} cannot take action {i}: {e}") from None
        try:
            if self.match is not None:
                self.match.act(action, seat=seat)
            else:
                deal.act(action, seat=seat)
        except IllegalAction as e:
            raise IllegalAction(f"action {i} ({action}) is not legal: {e}") from None
        if not deal.is_over:
            return None
        self.deals_done += 1
        if self.match is not None:
            self.deal = self.match.current
        return deal_rewards(deal)
