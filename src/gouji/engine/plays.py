"""Plays (一手牌): their shapes, effective values, gouji plays (够级牌) and beating (上牌 / 管).

A play is fully described by five numbers: a natural rank ``r`` (3..A, or none) and how many of it
(``k``), how many 2s (``t``, 贴钱), small jokers (``x``) and big jokers (``d``) (挂花).  Plays are interned
value objects: ``Play.of(...)`` and :func:`parse_play` return the same object for the same cards, so they
compare and hash cheaply, and ``str(play)`` round-trips through :func:`parse_play`.
"""

from __future__ import annotations

import collections
import threading
import weakref
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import ClassVar, Generic, TypeVar

from .cards import (
    ACE,
    BIG,
    FOUR,
    NUM_RANKS,
    RANKS,
    SMALL,
    TEN,
    THREE,
    TWO,
    Counts,
    InvalidCards,
    parse_counts,
)

NO_RANK = -1

GOUJI_THRESHOLD: dict[int, int] = {TEN: 5, TEN + 1: 4, TEN + 2: 3, TEN + 3: 2, ACE: 2}
"""The least number of cards of each rank that makes a gouji play: 10 ×5, J ×4, Q ×3, K ×2, A ×2."""


class InvalidPlay(ValueError):
    """Text or cards that do not form a play; the message names the problem."""


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _KeyedRef(weakref.ref[V], Generic[K, V]):
    """A weak reference that knows the key its object is interned under."""

    __slots__ = ("key",)

    def __new__(cls, value: V, callback: Callable[[_KeyedRef[K, V]], None], key: K) -> _KeyedRef[K, V]:
        return super().__new__(cls, value, callback)

    def __init__(self, value: V, callback: Callable[[_KeyedRef[K, V]], None], key: K) -> None:
        # (weakref.ref's own __init__ only checks its arguments, which __new__ took)
        self.key = key


class WeakIntern(Generic[K, V]):
    """Interned objects (one object per key) kept only while something else holds them.

    The engine's actions are interned — the same play is the same object, which equality and the legal
    lists rely on — but a strong cache would keep every play any table (or any client's text) ever made:
    memory that grows with each finished table.  Here an object lives as long as a deal, a legal list or a
    bot holds it, or while it is among the last ``keep`` made or given out (so the plays the tables' legal
    lists make again and again are not made anew each time); then it is freed, and the next one made for
    its key is the interned one.  So the cache holds at most ``keep`` objects of its own, whatever was
    played.  (:meth:`Play.of` counts a play given out as recent; :meth:`get` does not.)"""

    __slots__ = ("_drop", "lock", "recent", "refs")

    def __init__(self, keep: int) -> None:
        self.refs: dict[K, _KeyedRef[K, V]] = {}
        self.recent: collections.deque[V] = collections.deque(maxlen=keep)
        self.lock = threading.RLock()
        """Held to change :attr:`refs` (the bots' and the hints' threads make plays too); reading needs none:
        an entry is replaced only once its object is dead, so a live object found is the interned one."""
        refs, lock = self.refs, self.lock

        def drop(ref: _KeyedRef[K, V]) -> None:
            with lock:  # (re-entrant: an object may die while this thread adds another)
                if refs.get(ref.key) is ref:
                    del refs[ref.key]

        self._drop = drop
        """The one callback of every reference (an object's key is on its reference: a closure an object
        would be three more objects for the cyclic collector to walk, each time a play is made)."""

    def get(self, key: K) -> V | None:
        """The live object of ``key``, or None."""
        ref = self.refs.get(key)
        return None if ref is None else ref()

    def add(self, key: K, value: V) -> V:
        """Intern ``value`` as ``key``'s object; an object of ``key`` still alive (made meanwhile by another
        thread) wins and is returned instead."""
        refs = self.refs
        with self.lock:
            held = refs.get(key)
            live = None if held is None else held()
            if live is not None:
                return live
            refs[key] = _KeyedRef(value, self._drop, key)
        self.recent.append(value)
        return value

    def __len__(self) -> int:
        return len(self.refs)


class Play:
    """One play (一手牌).  Build with :meth:`Play.of` or :func:`parse_play`; never mutate.

    Attributes (all ints or bools):

    - ``rank``, ``k``, ``t``, ``x``, ``d``: natural rank (``-1`` if none), its count, 2s, small and big jokers;
    - ``size``: the number of cards;
    - ``eff_big``, ``eff_small``: the jokers as they count (in a mixed-joker play every big joker counts
      as small: 大花+小花 … 此时大花当做小花);
    - ``value``, ``body``: the effective rank and count of the non-joker part (``value`` is ``-1`` when the
      play is jokers only); a 2 attached to natural cards takes their rank (贴钱);
    - ``gouji``: a gouji play (够级牌); ``pure``: a pure gouji play (纯够级, threshold, nothing attached).
    """

    __slots__ = (
        "__weakref__",
        "body",
        "counts",
        "d",
        "eff_big",
        "eff_small",
        "gouji",
        "has_joker",
        "k",
        "parts",
        "pure",
        "rank",
        "size",
        "t",
        "text",
        "threshold",
        "value",
        "x",
    )

    _cache: ClassVar[WeakIntern[tuple[int, int, int, int, int], Play]] = WeakIntern(keep=16384)

    rank: int
    k: int
    t: int
    x: int
    d: int
    size: int
    eff_big: int
    eff_small: int
    value: int
    body: int
    gouji: bool
    pure: bool
    threshold: bool
    has_joker: bool
    counts: Counts
    parts: tuple[tuple[int, int], ...]
    """``(rank, count)`` of each rank the play holds (the engine moves a play's cards by these)."""
    text: str
    """The play's text form, as :func:`parse_play` reads it (``str(play)``)."""

    def __new__(cls, rank: int, k: int, t: int, x: int, d: int) -> Play:
        return cls.of(rank, k, t, x, d)

    @classmethod
    def of(cls, rank: int, k: int, t: int = 0, x: int = 0, d: int = 0) -> Play:
        """The play of ``k`` cards of ``rank`` (or ``rank=-1``, ``k=0``), ``t`` 2s, ``x`` small, ``d`` big jokers."""
        key = (rank, k, t, x, d)
        ref = _play_ref(key)  # (WeakIntern.get, inlined: the engine makes plays all the time)
        if ref is not None:
            play = ref()
            if play is not None:
                _recent_play(play)  # kept among the recent ones as long as it is in use
                return play
        return cls._cache.add(key, cls._make(rank, k, t, x, d))

    @classmethod
    def _make(cls, rank: int, k: int, t: int, x: int, d: int) -> Play:
        if min(k, t, x, d) < 0:
            raise InvalidPlay("card counts cannot be negative")
        if (rank == NO_RANK) != (k == 0):
            raise InvalidPlay("a natural rank needs at least one card of it, and no rank none")
        if rank != NO_RANK and not THREE <= rank <= ACE:
            raise InvalidPlay(f"{RANKS[rank] if 0 <= rank < NUM_RANKS else rank} is not a natural rank")
        if k + t + x + d == 0:
            raise InvalidPlay("a play needs at least one card")
        # (object.__setattr__: this class's own __setattr__ refuses every change once ``text`` is set)
        p = object.__new__(cls)
        put = object.__setattr__
        put(p, "rank", rank)
        put(p, "k", k)
        put(p, "t", t)
        put(p, "x", x)
        put(p, "d", d)
        put(p, "size", k + t + x + d)
        has_joker = x + d > 0
        put(p, "has_joker", has_joker)
        if x and d:
            put(p, "eff_big", 0)
            put(p, "eff_small", x + d)
        else:
            put(p, "eff_big", d)
            put(p, "eff_small", x)
        if k:
            value, body = rank, k + t
        elif t:
            value, body = TWO, t
        else:
            value, body = NO_RANK, 0
        put(p, "value", value)
        put(p, "body", body)
        need = GOUJI_THRESHOLD.get(value)
        threshold = k > 0 and need is not None and body >= need
        put(p, "threshold", threshold)
        put(p, "gouji", has_joker or (k == 0 and t > 0) or threshold)
        put(p, "pure", threshold and t == 0 and not has_joker)
        counts = [0] * NUM_RANKS
        if k:
            counts[rank] = k
        counts[TWO] += t
        counts[SMALL] = x
        counts[BIG] = d
        put(p, "counts", tuple(counts))
        put(p, "parts", tuple((r, n) for r, n in enumerate(counts) if n))
        put(p, "text", "D" * d + "X" * x + "2" * t + (RANKS[rank] * k if k else ""))
        return p

    def __reduce__(self) -> tuple[object, tuple[int, int, int, int, int]]:
        return (Play.of, (self.rank, self.k, self.t, self.x, self.d))

    def __copy__(self) -> Play:
        return self

    def __deepcopy__(self, memo: object) -> Play:
        return self

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Play({self.text!r})"

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "text"):
            raise AttributeError("Play is immutable")
        object.__setattr__(self, name, value)

    @property
    def key(self) -> tuple[int, int, int, int, int]:
        """``(rank, k, t, x, d)``."""
        return (self.rank, self.k, self.t, self.x, self.d)

    @property
    def only_threes(self) -> bool:
        """Whether the play is made of 3s alone (the final play of 憋三)."""
        return self.rank == THREE and self.t == 0 and not self.has_joker

    def opens_point(self, reading: str = "pure") -> bool:
        """Whether this play can open the point (开点) when it stands, under the ``kaidian_plays`` reading
        ``reading`` (see :func:`opens_point`)."""
        return opens_point(self, reading)

    def effective_values(self) -> list[int]:
        """Each card's effective rank index, highest first (2s take the natural rank, mixed D counts as X)."""
        return [BIG] * self.eff_big + [SMALL] * self.eff_small + [self.value] * self.body


_play_ref = Play._cache.refs.get
_recent_play = Play._cache.recent.append


KAIDIAN_PLAYS: tuple[str, ...] = ("pure", "money", "no_jokers_no_single_two", "any")
"""The readings of which standing plays open the point (the rule option ``kaidian_plays``)."""


def opens_point(play: Play, reading: str = "pure") -> bool:
    """Whether ``play``, standing (nobody beats or burns it, its player wins the lead), opens the point (开点)
    under the ``kaidian_plays`` reading ``reading``:

    - ``"pure"``: a pure gouji play only (纯够级: 001 青岛/昌邑/章丘, 003 通用, 000 山东地区);
    - ``"money"``: also a gouji play with 2s attached and a play of 2s alone, a single 2 too, never one holding
      a joker (001 菏泽: 纯够级或者纯够级加2或者2开点);
    - ``"no_jokers_no_single_two"``: every gouji play but one holding a joker and a single 2 (000 其他规则 开点:
      以下牌型的够级牌不开点：任意张大花，小花或者挂花的牌；单张的2);
    - ``"any"``: every gouji play (001 枣庄 (6): 自己打出的够级牌无人接牌 … 则该玩家开点).

    A play that is not a gouji play never opens.  An unknown reading is a ``ValueError``.
    """
    if reading not in KAIDIAN_PLAYS:
        raise ValueError(f"kaidian_plays: {reading!r} is not a reading; the readings are {', '.join(KAIDIAN_PLAYS)}")
    if play.pure:
        return True
    if not play.gouji or reading == "pure":
        return False
    if reading == "any":
        return True
    if play.has_joker:
        return False
    single_two = play.k == 0 and play.t == 1
    return reading == "money" or not single_two


def from_counts(counts: Sequence[int]) -> Play:
    """The play made of exactly these cards; raises :class:`InvalidPlay` naming what is wrong."""
    naturals = [r for r in range(THREE, ACE + 1) if counts[r]]
    if len(naturals) > 1:
        names = " and ".join(RANKS[r] for r in naturals)
        raise InvalidPlay(
            f"{''.join(RANKS[r] * counts[r] for r in naturals)} mixes {names}: the natural cards of a play "
            "must all be one rank (only 2s and jokers may be attached)"
        )
    if not any(counts):
        raise InvalidPlay("an empty play: name at least one card")
    rank = naturals[0] if naturals else NO_RANK
    return Play.of(rank, counts[rank] if naturals else 0, counts[TWO], counts[SMALL], counts[BIG])


def parse_play(text: str | Play) -> Play:
    """Read a play from its text, e.g. ``"22333"`` (five 3s) or ``"D X 2 2 5 5 5 5"``.

    Raises :class:`InvalidPlay` (a ``ValueError``) that names the problem: a bad character, an empty
    play, or natural cards of different ranks.
    """
    if isinstance(text, Play):
        return text
    try:
        counts = parse_counts(text)
    except InvalidCards as e:
        raise InvalidPlay(str(e)) from None
    return from_counts(counts)


def beats(b: Play, a: Play, kill: bool = False, small: bool = True) -> bool:
    """Whether play ``b`` beats play ``a`` (上牌).

    Same number of cards and, effective values sorted high to low, every card of ``b`` strictly higher
    than the card of ``a`` at the same position.  With ``kill`` (``big_joker_kill``: 大王二杀一, 三小灭一大)
    each big joker of ``a`` may instead be covered by two big jokers or (with ``small``, 三小灭一大:
    ``three_small_kill``) three small jokers of ``b``, with no card of ``b`` left over.
    """
    if a.eff_big:
        if not kill:
            return False
        # a holds big jokers, so it is not mixed and has no small jokers.
        if b.x:  # any small joker makes every joker of b count as small
            if not small:
                return False
            need = 3 * a.eff_big
            jokers = b.eff_small
        else:
            need = 2 * a.eff_big
            jokers = b.eff_big
        if jokers < need or b.size != need + a.body:
            return False
        return b.body == 0 or b.value > a.value
    if b.size != a.size or b.eff_big < a.eff_small:
        return False
    return b.body == 0 or b.value > a.value


def is_gouji(play: str | Play) -> bool:
    """Whether a play is a gouji play (够级牌): a joker in it, twos only, or 10×5 / J×4 / Q×3 / K×2 / A×2."""
    return parse_play(play).gouji


def is_pure_gouji(play: str | Play) -> bool:
    """Whether a play is a pure gouji play (纯够级): a gouji play by size with no 2 and no joker attached."""
    return parse_play(play).pure


# ---------------------------------------------------------------------------------------------------------
# Generating plays from a hand


def _bodies(hand: Sequence[int], m: int, above: int, allow_threes: bool) -> Iterator[tuple[int, int, int]]:
    """Every non-joker part of ``m`` cards whose effective rank is above ``above``: (rank, k, t)."""
    twos = hand[TWO]
    if m <= twos and above < TWO:
        yield (NO_RANK, 0, m)
    low = max(above + 1, THREE if allow_threes else THREE + 1)
    for r in range(low, ACE + 1):
        have = hand[r]
        if not have:
            continue
        for k in range(max(1, m - twos), min(have, m) + 1):
            yield (r, k, m - k)


def answers(hand: Sequence[int], a: Play, kill: bool = False, small: bool = True) -> list[Play]:
    """Every play the hand can make that beats ``a`` (never holding a 3: nothing is beaten by 3s), in a fixed
    order: by big jokers, then small jokers, then 2s alone before the natural ranks, low to high, each by
    count; ``kill`` and ``small`` as for :func:`beats`.  (The engine asks this for every answer: built as a
    list, each natural rank looked at once.)"""
    if a.eff_big:
        return list(_killing_answers(hand, a, small)) if kill else []
    n, xa, above = a.size, a.eff_small, a.value
    hd = hand[BIG]
    most_d = hd if hd < n else n
    if most_d < xa:  # a's small jokers need as many big jokers
        return []
    hx, twos = hand[SMALL], hand[TWO]
    low = above + 1 if above >= FOUR else FOUR
    held = hand[low : ACE + 1]  # the counts of the natural ranks above a's
    twos_alone = above < TWO
    # the most cards a natural part (rank, 2s attached) or 2s alone can have: fewer jokers need more
    most_held = max(held) if held else 0
    body = most_held + twos if most_held else twos if twos_alone else 0
    out: list[Play] = []
    add, of = out.append, Play.of
    for d in range(xa, most_d + 1):
        rest = n - d
        x = rest - body if rest > body else 0
        last_x = 0 if xa else hx if hx < rest else rest  # a's small jokers are beaten by big ones only
        while x <= last_x:
            m = rest - x
            if m == 0:
                add(of(NO_RANK, 0, 0, x, d))
            else:
                if m <= twos and twos_alone:
                    add(of(NO_RANK, 0, m, x, d))
                least = m - twos if m > twos else 1  # (at least 1: the ranks not held are passed over)
                if most_held >= least:
                    for r, have in enumerate(held, low):
                        if have >= least:
                            k, most = least, have if have < m else m
                            while k <= most:
                                add(of(r, k, m - k, x, d))
                                k += 1
            x += 1
    return out


def _killing_answers(hand: Sequence[int], a: Play, small: bool) -> Iterator[Play]:
    """:func:`answers` to a play holding big jokers, with ``big_joker_kill``."""
    hx, hd = hand[SMALL], hand[BIG]
    of = Play.of
    body, above = a.body, a.value
    # Two big jokers for each big joker of a, the rest covered by spare big jokers or a higher body.
    base = 2 * a.eff_big
    for spare in range(body + 1):
        d = base + spare
        if d > hd:
            break
        m = body - spare
        if m == 0:
            yield of(NO_RANK, 0, 0, 0, d)
        else:
            for r, k, t in _bodies(hand, m, above, False):
                yield of(r, k, t, 0, d)
    if not small:
        return
    # Three small jokers (a mixed play's big jokers count as small) for each big joker of a.
    base = 3 * a.eff_big
    for spare in range(body + 1):
        e = base + spare
        if e > hx + hd:
            break
        m = body - spare
        for x in range(max(1, e - hd), min(hx, e) + 1):
            d = e - x
            if m == 0:
                yield of(NO_RANK, 0, 0, x, d)
            else:
                for r, k, t in _bodies(hand, m, above, False):
                    yield of(r, k, t, x, d)


def responses(hand: Sequence[int], a: Play, kill: bool = False, small: bool = True) -> Iterator[Play]:
    """Every play the hand can make that beats ``a``, one by one (:func:`answers`, in its order)."""
    return iter(answers(hand, a, kill, small))


def can_beat(hand: Sequence[int], a: Play, kill: bool = False, small: bool = True) -> bool:
    """Whether the hand holds any play that beats ``a``."""
    return bool(answers(hand, a, kill, small))


def play_or_none(r: int, k: int, t: int = 0, x: int = 0, d: int = 0) -> Play | None:
    """:meth:`Play.of` — ``k`` cards of rank ``r`` with ``t`` 2s, ``x`` small and ``d`` big jokers — or None where
    no such play exists (what a bot asks while it looks for the plays a hand can make)."""
    try:
        return Play.of(r, k, t, x, d)
    except ValueError:
        return None
