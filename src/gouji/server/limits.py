"""Limits: what one connection may send (:class:`Limits`, :class:`TokenBucket`) and the size of a request body."""

from __future__ import annotations

import time
from dataclasses import dataclass

MAX_BODY_BYTES = 16 * 1024


@dataclass(frozen=True)
class Limits:
    """Per-connection limits of the WebSocket.

    ``rate``/``burst``: a token bucket of messages per second; ``bad_rate``/``bad_burst``: a second bucket of
    refused messages — a connection that empties it is closed (code 1008).  ``queue`` frames may wait to be
    sent before a connection that does not read is dropped.  ``hello_seconds``: time to say hello.
    """

    rate: float = 20.0
    burst: float = 40.0
    bad_rate: float = 1.0
    bad_burst: float = 20.0
    queue: int = 512
    hello_seconds: float = 10.0


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; :meth:`take` spends one if there is one."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def refund(self) -> None:
        """Give back the token of a message that turned out to be no burden."""
        self.tokens = min(self.burst, self.tokens + 1)
