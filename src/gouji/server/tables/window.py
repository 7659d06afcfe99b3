"""Decision windows: every seat one event asks, answered at once, resolved after a masking time.

The engine asks seats one at a time (:meth:`gouji.Deal.window`): the seats offered the burn of a gouji play
in priority order, the seats answering a revolution (革命) or an optional 买四 in turn order, else the one
seat to act.  The table opens a :class:`Window` over all of them when the event comes up:

- a seat with one legal answer (``pass`` on a burn it cannot make, 要不起, a forced play) is never asked:
  its answer is given for it (unless its player asked to be asked anyway, ``ask_single``);
- a bot's seat, or a person's on 托管, decides at once;
- a person with a real choice is asked, all of them together: one prompt, one timer (``turn_seconds``);
  a timeout declines (``pass``; an ordinary turn is played by the 托管 bot) and puts the seat on 托管.

The window resolves when every answer is in, and never before its **masking time** (the table's bot delay)
has passed since it opened — the same whether anyone could act or not, so neither the time nor who was
prompted tells the table about a hidden hand.  Then the answers are fed to the engine in its order; an
answer that ends the event (a burn taken, a deal voided by a second revolution) drops the rest.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator, Sequence
from typing import overload

from ...engine.actions import PASS, Action
from ...engine.deal import SETUP_BUY_FOUR, SETUP_REVOLUTION, Deal

WindowKey = tuple[int, int]
"""(deal index, decisions made in that deal) when a window opens: a new decision means a new window."""


class Window:
    """One event's answers being collected.  (A plain class with slots: the tables open one or two a move.)"""

    __slots__ = (
        "answers",
        "asked",
        "choice",
        "deadline",
        "events_at",
        "key",
        "kind",
        "opened",
        "phase",
        "prompted",
        "seats",
        "thinking",
        "until",
    )

    def __init__(
        self,
        key: WindowKey,
        kind: str,
        seats: list[int],
        opened: float,
        until: float,
        phase: str = "",
        events_at: int = 0,
    ) -> None:
        self.key = key
        self.kind = kind
        """``burn``, ``revolution``, ``buy_four`` or ``turn`` (one seat's decision)."""
        self.seats = seats
        """The seats the engine asks, in its order."""
        self.opened = opened
        """Loop time when it opened."""
        self.until = until
        """Loop time before which it does not resolve (the masking time)."""
        self.phase = phase
        """The deal's phase when it opened."""
        self.events_at = events_at
        """How many events the deal had when it opened: a ``void`` after them ends the event asked about."""
        self.answers: dict[int, tuple[Action, str]] = {}
        """seat → (its answer, by: ``forced``, ``bot``, ``auto``, ``player`` or ``timeout``)."""
        self.asked: set[int] = set()
        """People with a real choice who have not answered yet."""
        self.thinking: list[int] = []
        """Bot (and 托管) seats whose answer is still being thought out."""
        self.prompted: set[int] = set()
        """Every person this window asked (answered or not)."""
        self.deadline: float | None = None
        """Epoch seconds when the people asked time out (None: no turn timer)."""
        self.choice = False
        """Whether any seat had more than one legal answer (known to the server only)."""

    @property
    def complete(self) -> bool:
        return not self.asked and not self.thinking


Timing = tuple[str, float, bool, bool]
"""A resolved window's kind, seconds from its opening to its resolution, whether a person was prompted and
whether any seat had a choice."""


class WindowTimings(Sequence[Timing]):
    """The :data:`Timing` of a table's last ``maxlen`` windows, oldest first: what the time of a deal went on.

    Kept in four columns of plain values rather than a tuple a window: a tuple is a container the cyclic
    garbage collector tracks until a collection looks at it, and two windows a move made a third of what
    the young generation had to walk on a busy server (its collections stop every table)."""

    __slots__ = ("_choice", "_kind", "_prompted", "_seconds")

    def __init__(self, maxlen: int = 10_000) -> None:
        self._kind: collections.deque[str] = collections.deque(maxlen=maxlen)
        self._seconds: collections.deque[float] = collections.deque(maxlen=maxlen)
        self._prompted: collections.deque[bool] = collections.deque(maxlen=maxlen)
        self._choice: collections.deque[bool] = collections.deque(maxlen=maxlen)

    def append(self, kind: str, seconds: float, prompted: bool, choice: bool) -> None:
        self._kind.append(kind)
        self._seconds.append(seconds)
        self._prompted.append(prompted)
        self._choice.append(choice)

    def __len__(self) -> int:
        return len(self._kind)

    @overload
    def __getitem__(self, i: int) -> Timing: ...

    @overload
    def __getitem__(self, i: slice) -> list[Timing]: ...

    def __getitem__(self, i: int | slice) -> Timing | list[Timing]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return (self._kind[i], self._seconds[i], self._prompted[i], self._choice[i])

    def __iter__(self) -> Iterator[Timing]:
        return zip(self._kind, self._seconds, self._prompted, self._choice, strict=True)


def window_kind(deal: Deal) -> str:
    """The kind of event the deal's current decision belongs to."""
    if deal.phase == SETUP_REVOLUTION:
        return "revolution"
    if deal.phase == SETUP_BUY_FOUR:
        return "buy_four"
    if deal.burn_offered:
        return "burn"
    return "turn"


def timeout_answer(kind: str, legal_has_pass: bool) -> Action | None:
    """What a timeout answers for a person: ``pass`` in a window of several seats (it declines); None
    (the 托管 bot decides) for one seat's own turn."""
    if kind != "turn" and legal_has_pass:
        return PASS
    return None


__all__ = ["Timing", "Window", "WindowKey", "WindowTimings", "timeout_answer", "window_kind"]
