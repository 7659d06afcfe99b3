"""Passwords hashed with Argon2id (``argon2-cffi``), off the event loop.

The parameters are RFC 9106's second recommendation, ``argon2-cffi``'s defaults: 3 passes over 64 MiB with 4
lanes (about 50-100 ms of a core here; the C code releases the GIL).  A stored hash names its parameters, so
changing :data:`HASHER`'s makes :meth:`Passwords.verify` say that a hash wants redoing, and the server
rehashes the password at the next sign-in.

Hashing runs on :data:`AT_ONCE` threads of its own; more requests wait (a coroutine each) and past
:data:`WAITING` the server answers 503 rather than queue without bound.  A sign-in for a name nobody holds
verifies against a hash of nothing (:data:`NOBODY`), so it takes the time a wrong password takes."""

from __future__ import annotations

import asyncio
import concurrent.futures

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..errors import RequestError

HASHER = PasswordHasher(time_cost=3, memory_cost=64 * 1024, parallelism=4)
AT_ONCE = 2
WAITING = 32


class Passwords:
    """Hashes and verifies passwords on threads of their own, :data:`AT_ONCE` at a time."""

    def __init__(self) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(AT_ONCE, thread_name_prefix="gouji-argon2")
        self._slots = asyncio.Semaphore(AT_ONCE)
        self._waiting = 0
        self._nobody = self._pool.submit(HASHER.hash, "the hash of nobody's password")
        """Made at once, so the first sign-in for a name nobody holds takes no longer than the others."""

    async def _run(self, fn: object, *args: str) -> object:
        if self._waiting >= WAITING:
            raise RequestError(503, "the server is busy signing people in: try again in a moment")
        self._waiting += 1
        try:
            async with self._slots:
                return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)  # type: ignore[arg-type]
        finally:
            self._waiting -= 1

    async def hash(self, password: str) -> str:
        return str(await self._run(HASHER.hash, password))

    async def verify(self, stored: str | None, password: str) -> tuple[bool, bool]:
        """Whether ``password`` is the one ``stored`` was made from (None: nobody's — compared all the same),
        and whether the hash wants redoing with today's parameters."""
        if stored is None:
            stored, real = await asyncio.wrap_future(self._nobody), False
        else:
            real = True
        ok = bool(await self._run(_check, stored, password))
        return ok and real, ok and real and HASHER.check_needs_rehash(stored)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _check(stored: str, password: str) -> bool:
    try:
        return HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False
