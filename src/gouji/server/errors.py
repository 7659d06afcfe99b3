"""The error the HTTP API answers with: :class:`RequestError` carries its status and message."""

from __future__ import annotations


class RequestError(ValueError):
    """A request the lobby refuses: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
