"""Small shared utilities for tests that drive whole deals: random policies, playouts and snapshots.

- :func:`choose_action` picks one legal action at random (a mix of uniform choice and simple plays, so
  that passes, yields, burns and 闷 all happen often enough);
- :func:`playout_steps` / :func:`random_playout` drive a deal with it until it ends;
- :func:`dealt_hands` shuffles a preset's deck into six hand texts for :meth:`Deal.from_hands`;
- :func:`played_counts`, :func:`held_counts` and :func:`deck_of` count cards for conservation checks;
- :func:`snapshot` captures everything an illegal action must leave unchanged;
- :func:`wait_until` polls a condition that another thread (a server) makes true.
"""

from __future__ import annotations

import copy
import random
import socket
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from gouji import Burn, Deal, Play, parse_action, resolve
from gouji.engine import cards as C
from gouji.engine.actions import REVOLT, Action
from gouji.engine.rules import RuleSet

MAX_STEPS = 3000
"""A generous bound on the decisions of one deal (random playouts take 200-400)."""


def choose_action(deal: Deal, rng: random.Random, eager_revolt: bool = False) -> Action:
    """A random legal action for ``deal.to_act``.

    Half the time uniform over the legal set; otherwise a "simple" choice: pass/yield now and then, else the
    smallest plays (fewest attached 2s and jokers), which keeps hands long and rounds contested.
    With ``eager_revolt`` a seat that may revolt always does (so that 要头 and void deals happen).
    """
    legal = deal.legal_actions()
    n = len(legal)
    if n == 0:
        raise AssertionError("choose_action called with no legal action")
    if eager_revolt and REVOLT in legal:
        return REVOLT
    if n == 1 or rng.random() < 0.5:
        return legal[rng.randrange(n)]
    # a big lead set is sampled instead of scanned
    pool = [legal[rng.randrange(n)] for _ in range(40)] if n > 400 else list(legal)
    plays = [a for a in pool if isinstance(a, Play | Burn)]
    others = [a for a in pool if not isinstance(a, Play | Burn)]
    if others and (not plays or rng.random() < 0.3):
        return rng.choice(others)
    if not plays:  # pragma: no cover - a sampled pool always holds one or the other
        return legal[rng.randrange(n)]

    def cost(a: Action) -> tuple[int, int]:
        p = a.play if isinstance(a, Burn) else a
        assert isinstance(p, Play)
        return (p.t + p.x + 2 * p.d, p.size)

    best = min(cost(a) for a in plays)
    return rng.choice([a for a in plays if cost(a) == best])


def playout_steps(
    deal: Deal, rng: random.Random, max_steps: int = MAX_STEPS, eager_revolt: bool = False
) -> Iterator[Action]:
    """Drive ``deal`` with :func:`choose_action`, yielding each action just after it was applied.

    Stops when the deal is over or after ``max_steps`` actions (the caller checks :attr:`Deal.is_over`).
    """
    for _ in range(max_steps):
        if deal.is_over:
            return
        a = choose_action(deal, rng, eager_revolt)
        deal.act(a)
        yield a


def random_playout(deal: Deal, rng: random.Random, max_steps: int = MAX_STEPS, eager_revolt: bool = False) -> list[str]:
    """Play ``deal`` out with random legal actions; returns the texts of the actions taken."""
    return [str(a) for a in playout_steps(deal, rng, max_steps, eager_revolt)]


def deck_of(rules: RuleSet | str) -> C.Counts:
    """The cards a preset deals: ``build_deck(decks, removed)``."""
    rs = resolve(rules)
    return C.build_deck(rs.decks, rs.removed_counts)


def dealt_hands(rules: RuleSet | str, seed: int, first: int = 0) -> list[str]:
    """Six hand texts: the preset's deck shuffled with ``seed`` and dealt from seat ``first``."""
    return [C.format_counts(h) for h in C.deal_hands(deck_of(rules), 6, first, random.Random(seed))]


def played_counts(events: Sequence[Mapping[str, Any]], base: Sequence[int] = C.EMPTY) -> C.Counts:
    """Every card played (plays and burns) in ``events`` since the last redeal (a "void" event), added to
    ``base`` — pass the total so far and only the new events to count incrementally."""
    total = list(base)
    for e in events:
        if e["type"] == "void":
            total = [0] * C.NUM_RANKS
        elif e["type"] == "act":
            a = parse_action(e["action"])
            p = a.play if isinstance(a, Burn) else a
            if isinstance(p, Play):
                for r, n in enumerate(p.counts):
                    total[r] += n
    return tuple(total)


def held_counts(deal: Deal) -> C.Counts:
    """Every card still in the six hands (a revolutionary's laid-down hand included)."""
    return tuple(sum(h[r] for h in deal.hands) for r in range(C.NUM_RANKS))


def snapshot(deal: Deal, sample: int = 64, deep: bool = True) -> dict[str, Any]:
    """What an action must leave unchanged when refused: events, hands, turn, public view, legal set.

    Large legal sets (thousands of leads) are captured by their length and an evenly spread sample.
    ``deep=False`` skips copying the events (enough for the "after" side of a comparison).
    """
    legal = deal.legal_actions()
    n = len(legal)
    if n <= 2 * sample:
        texts = [str(a) for a in legal]
    else:
        texts = [str(legal[i * n // sample]) for i in range(sample)] + [str(legal[-1])]
    return {
        "events": copy.deepcopy(deal.events) if deep else deal.events,
        "hands": [list(h) for h in deal.hands],
        "to_act": deal.to_act,
        "phase": deal.phase,
        "decisions": deal.decisions,
        "public": deal.view(None),
        "own": deal.view(deal.to_act) if deal.to_act is not None else None,
        "n_legal": n,
        "legal": texts,
    }


def wait_until(pred: Callable[[], object], timeout: float = 20.0, what: str = "the condition") -> None:
    """Poll ``pred`` until it is true; an AssertionError naming ``what`` after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise AssertionError(f"{what} did not come true within {timeout} s")
        time.sleep(0.01)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
