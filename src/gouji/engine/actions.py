"""Actions a seat can take, and the lazily built set of legal actions.

An action is a :class:`~gouji.engine.plays.Play` (a play or an answer), a :class:`Burn` (烧牌: beating a gouji
play out of turn) or a :class:`Decision` (``pass``, ``yield`` and the setup decisions).  ``str(action)``
is its text form and :func:`parse_action` reads it back.

:class:`LegalActions` is a read-only sequence: ``len()``, indexing, iteration and ``in`` work without
building every action, because a lead from a 36-card hand full of 2s and jokers has thousands of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar, NamedTuple, overload

from .cards import ACE, BIG, FOUR, RANKS, SMALL, THREE, TWO, format_counts
from .plays import NO_RANK, InvalidPlay, Play, WeakIntern, parse_play


class Decision:
    """A choice that is not a play: ``pass``, ``yield`` (让牌) or a setup decision."""

    __slots__ = ("text",)
    _all: ClassVar[dict[str, Decision]] = {}

    def __init__(self, text: str) -> None:
        self.text = text
        """Its text form (``str()``)."""
        Decision._all[text] = self

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Decision({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (_decision, (self.text,))


def _decision(text: str) -> Decision:
    """The decision singleton with this text (pickling restores the same object)."""
    return Decision._all[text]


PASS = Decision("pass")
"""过牌; in a burn offer, declining the burn; in a setup phase, declining (no revolution, no 宣点, no 4)."""
YIELD = Decision("yield")
"""让牌: let the two seats after me act first on my opposite's play."""
REVOLT = Decision("revolt")
"""革命: lay down a hand with no joker and no 2 and sit the deal out."""
YAOTOU = Decision("yaotou")
"""要头: the revolutionary's opposite keeps the head (their gouji plays stay protected)."""
WUTOU = Decision("wutou")
"""无头: the revolutionary's opposite plays on without a head."""
DECLARE = Decision("declare")
"""宣点: declare that my opposite will not open the point."""
BUY_FOUR = Decision("buy4")
"""买四: buy a 4 (only where buying is optional)."""
HUIWU = Decision("huiwu")
"""汇5: after being swept, discard every 5 of the new hand."""
GIVEBACK = Decision("giveback")
"""退贡: hand back the 落贡 a teammate paid."""
SWAP = Decision("swap")
"""换点: agree to the one-for-one 点贡 with the 对头 (``mutual_point_tribute="agree"``); both must agree."""
CHONGDIAN = Decision("chongdian")
"""冲点: with no joker and no 2, try to open the point with three gouji plays."""
SELFOPEN = Decision("selfopen")
"""无级自开: with no gouji play at all, show the hand to the 对头 and open the point by leading a 4."""


class Burn:
    """烧牌 with a play: ``str()`` is ``"burn <cards>"``."""

    __slots__ = ("__weakref__", "play", "text")
    _cache: ClassVar[WeakIntern[Play, Burn]] = WeakIntern(keep=256)

    def __new__(cls, play: Play) -> Burn:
        b = cls._cache.get(play)
        if b is None:
            b = object.__new__(cls)
            b.play = play
            b.text = f"burn {play.text}"
            b = cls._cache.add(play, b)
        return b

    play: Play
    text: str
    """``"burn <cards>"``."""

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Burn({str(self.play)!r})"

    def __reduce__(self) -> tuple[object, tuple[Play]]:
        return (Burn, (self.play,))


class Return:
    """还贡: give back these cards to the player who paid 落贡; ``str()`` is ``"return <cards>"``."""

    __slots__ = ("__weakref__", "counts", "size", "text")
    _cache: ClassVar[WeakIntern[tuple[int, ...], Return]] = WeakIntern(keep=256)

    counts: tuple[int, ...]
    size: int
    text: str
    """``"return <cards>"``."""

    def __new__(cls, counts: Sequence[int]) -> Return:
        key = tuple(counts)
        r = cls._cache.get(key)
        if r is None:
            r = object.__new__(cls)
            r.counts = key
            r.size = sum(key)
            r.text = f"return {format_counts(key)}"
            r = cls._cache.add(key, r)
        return r

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Return({self.text[7:]!r})"

    def __reduce__(self) -> tuple[object, tuple[tuple[int, ...]]]:
        return (Return, (self.counts,))


Action = Play | Burn | Decision | Return


class InvalidAction(ValueError):
    """Text that is not an action at all."""


ACTION_TYPES = (Play, Burn, Decision, Return)
"""The classes of :data:`Action`, as a tuple for ``isinstance`` (quicker than the union)."""


def parse_action(text: str | Play | Burn | Decision | Return) -> Action:
    """Read an action from its text: a play (``"QQQ"``), ``"burn KKK"``, ``"pass"``, ``"yield"``, …"""
    if isinstance(text, ACTION_TYPES):
        return text
    if not isinstance(text, str):
        raise InvalidAction(f"an action is text or an action object, not {type(text).__name__}")
    s = text.strip()
    low = s.lower()
    d = Decision._all.get(low)
    if d is not None:
        return d
    try:
        if low.startswith("return"):
            from .cards import InvalidCards, parse_counts

            rest = s[6:].strip()
            try:
                counts = parse_counts(rest)
            except InvalidCards as e:
                raise InvalidAction(f"{text!r}: {e}") from None
            if not any(counts):
                raise InvalidAction("'return' needs the cards to give back, e.g. 'return 65'")
            return Return(counts)
        if low.startswith("burn"):
            rest = s[4:].strip()
            if not rest:
                raise InvalidAction("'burn' needs the cards to burn with, e.g. 'burn KKK'")
            return Burn(parse_play(rest))
        return parse_play(s)
    except InvalidPlay as e:
        names = ", ".join(Decision._all)
        raise InvalidAction(f"{text!r} is not an action ({e}); actions are plays, 'burn <cards>', {names}") from None


class _Block(NamedTuple):
    """Every play ``rank×k + 2×t + X×x + D×d`` with each count in a range (a product of ranges): ``k0 <= k <
    k0 + kn``, ``t0 <= t < t0 + tn``, ``x < xn``, ``d < dn``, but the empty play when ``skip`` (1); ``size``
    plays in all.  A tuple: a lead makes one for each rank held, so making one must cost little."""

    rank: int
    k0: int
    kn: int
    t0: int
    tn: int
    xn: int
    dn: int
    skip: int
    size: int

    @classmethod
    def of(cls, rank: int, k0: int, kn: int, t0: int, tn: int, xn: int, dn: int, skip: int) -> _Block:
        """The block of these ranges (its ``size`` worked out)."""
        return cls(rank, k0, kn, t0, tn, xn, dn, skip, kn * tn * xn * dn - skip)

    def get(self, i: int) -> Play:
        i += self.skip
        i, d = divmod(i, self.dn)
        i, x = divmod(i, self.xn)
        k, t = divmod(i, self.tn)
        return Play.of(self.rank, self.k0 + k, self.t0 + t, x, d)

    def texts(self) -> list[str]:
        """The text of each play of the block, in order (``str(self.get(i))``, without making the plays)."""
        rank = RANKS[self.rank] if self.rank != NO_RANK else ""
        if self.tn == self.xn == self.dn == 1:  # nothing to attach (most blocks of a lead): the rank's counts
            twos = "2" * self.t0
            return [twos + rank * k for k in range(self.k0, self.k0 + self.kn)][self.skip :]
        out = [
            "D" * d + "X" * x + "2" * t + rank * k
            for k in range(self.k0, self.k0 + self.kn)
            for t in range(self.t0, self.t0 + self.tn)
            for x in range(self.xn)
            for d in range(self.dn)
        ]
        return out[self.skip :]

    def has(self, p: Play) -> bool:
        if p.rank != self.rank:
            return False
        if not (self.k0 <= p.k < self.k0 + self.kn and self.t0 <= p.t < self.t0 + self.tn):
            return False
        if p.x >= self.xn or p.d >= self.dn:
            return False
        return not (self.skip and p.size == 0)


class LegalActions(Sequence[Action]):
    """The actions open to the seat to act: explicit ones first, then whole blocks of leads."""

    __slots__ = ("_blocks", "_explicit", "_len")

    def __init__(self, explicit: list[Action], blocks: list[_Block] | None = None) -> None:
        self._explicit = explicit
        if blocks:
            self._blocks: Sequence[_Block] = blocks
            self._len = len(explicit) + sum([b.size for b in blocks])
        else:
            self._blocks = ()  # (no list made for the answers and decisions, which have no blocks)
            self._len = len(explicit)

    @classmethod
    def leads(
        cls,
        hand: Sequence[int],
        allow_threes: bool,
        explicit: list[Action] | None = None,
        whole_fours: bool = False,
    ) -> LegalActions:
        """Every lead from ``hand``: one natural rank (any count) with any 2s and jokers, 2s with any
        jokers, or jokers alone.  Without ``allow_threes`` no play holds a 3; with ``whole_fours`` the 4s
        go all together with nothing attached (4不拆不挂)."""
        tn, xn, dn = hand[TWO] + 1, hand[SMALL] + 1, hand[BIG] + 1
        each = tn * xn * dn  # the plays of one natural card count: 2s and jokers attached or not
        block = tuple.__new__  # (the tuple itself, without _Block's Python-level __new__: one for every rank)
        blocks: list[_Block] = [
            block(_Block, (r, 1, have, 0, tn, xn, dn, 0, have * each))
            for r, have in enumerate(hand[THREE if allow_threes else FOUR : ACE + 1], THREE if allow_threes else FOUR)
            if have
        ]
        if whole_fours and hand[FOUR]:  # all the 4s, nothing attached: one play
            i = next(i for i, b in enumerate(blocks) if b.rank == FOUR)
            blocks[i] = _Block.of(FOUR, hand[FOUR], 1, 0, 1, 1, 1, 0)
        if tn > 1:
            blocks.append(_Block.of(NO_RANK, 0, 1, 1, tn - 1, xn, dn, 0))
        if xn > 1 or dn > 1:
            blocks.append(_Block.of(NO_RANK, 0, 1, 0, 1, xn, dn, 1))
        return cls(explicit or [], blocks)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if not self._blocks:  # (answers and decisions: the list itself, as for every decision a player takes)
            try:
                return self._explicit[i]
            except IndexError:
                raise IndexError("legal action index out of range") from None
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("legal action index out of range")
        n = len(self._explicit)
        if i < n:
            return self._explicit[i]
        i -= n
        for b in self._blocks:
            if i < b.size:
                return b.get(i)
            i -= b.size
        raise IndexError("legal action index out of range")  # pragma: no cover

    def __iter__(self) -> Iterator[Action]:
        yield from self._explicit
        for b in self._blocks:
            for i in range(b.size):
                yield b.get(i)

    def __contains__(self, a: object) -> bool:
        if a in self._explicit:  # (actions are interned: compared by identity)
            return True
        if self._blocks and isinstance(a, Play):
            for b in self._blocks:
                if b.has(a):
                    return True
        return False

    @property
    def explicit(self) -> Sequence[Action]:
        """The actions listed one by one (answers, burns, decisions, 还贡 returns), in order."""
        return self._explicit

    @property
    def blocks(self) -> Sequence[_Block]:
        """The leads as blocks, after :attr:`explicit`: each every play ``rank×k + 2×t + X×x + D×d`` with
        ``k0 <= k < k0 + kn``, ``t0 <= t < t0 + tn``, ``x < xn``, ``d < dn`` (``skip``: not the empty one)."""
        return self._blocks

    def texts(self, limit: int | None = None) -> list[str]:
        """Every action's text form (``limit``: of the first ``limit`` actions only)."""
        explicit = self._explicit if limit is None else self._explicit[:limit]
        out = [str(a) for a in explicit]
        for b in self._blocks:
            if limit is not None and len(out) >= limit:
                break
            out += b.texts()
        return out if limit is None else out[:limit]

    def __repr__(self) -> str:
        head = ", ".join(str(a) for a in self[:8])
        more = f", … ({self._len} in all)" if self._len > 8 else ""
        return f"LegalActions([{head}{more}])"
