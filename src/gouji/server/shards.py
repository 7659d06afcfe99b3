"""Game servers side by side (``gouji serve --shard I/N``): which shard a code lives on.

A table's, match's or event's code names its shard by its first character, so a reverse proxy routes a
request or a WebSocket for a code to its shard with no lookup (:mod:`gouji.server.proxy_config` writes the
nginx ``map`` from :meth:`Shard.letters`).  The code alphabet's 31 characters are dealt round the shards:
shard ``i`` of ``n`` owns the characters at positions ``i - 1``, ``i - 1 + n``, … of
:data:`CODE_ALPHABET`.  A shard creates only codes of its own; the other characters of a code stay random,
so a code is as hard to guess as before but for its first character.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Join codes: no 0/O, 1/I/L, so a code read aloud or copied by hand comes through."""
CODE_LENGTH = 6
MAX_SHARDS = 16
"""At most this many shards: each owns at least one character of the 31 (here one or two)."""


class ShardError(ValueError):
    """A ``--shard`` that is not ``I/N`` with 1 ≤ I ≤ N ≤ :data:`MAX_SHARDS`."""


@dataclass(frozen=True)
class Shard:
    """Game server ``index`` (1-based) of ``count``; ``Shard(1, 1)`` is the one server of a plain host."""

    index: int = 1
    count: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARDS:
            raise ShardError(f"a shard count is 1 to {MAX_SHARDS}, not {self.count}")
        if not 1 <= self.index <= self.count:
            raise ShardError(f"shard {self.index} of {self.count}: the index is 1 to {self.count}")

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"2/3"`` → ``Shard(2, 3)``; a :class:`ShardError` naming what is wrong otherwise."""
        index, slash, count = text.strip().partition("/")
        if not slash or not index.isdigit() or not count.isdigit():
            raise ShardError(f"a shard is I/N such as 1/2, not {text!r}")
        return cls(int(index), int(count))

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    @property
    def letters(self) -> str:
        """The first characters of this shard's codes."""
        return letters_of(self.index, self.count)

    def owns(self, code: str) -> bool:
        """Whether ``code`` (any case) is one of this shard's."""
        return bool(code) and code[0].upper() in self.letters

    def new_code(self, length: int = CODE_LENGTH) -> str:
        """A fresh random code of this shard: its first character one of :attr:`letters`."""
        return secrets.choice(self.letters) + "".join(secrets.choice(CODE_ALPHABET) for _ in range(length - 1))


def letters_of(index: int, count: int) -> str:
    """The first characters of shard ``index``'s codes when there are ``count`` shards."""
    return CODE_ALPHABET[index - 1 :: count]


def shard_of(code: str, count: int) -> int | None:
    """The shard (1-based) that ``code`` lives on among ``count``; None for a code no shard makes."""
    first = code[:1].upper()
    at = CODE_ALPHABET.find(first) if first else -1
    return None if at < 0 else at % count + 1


__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "MAX_SHARDS", "Shard", "ShardError", "letters_of", "shard_of"]
