"""The errors of the server: :class:`RequestError`, which the HTTP API answers with (its status and message),
and :class:`SettingError`, a server setting it cannot start with."""

from __future__ import annotations

import math


class RequestError(ValueError):
    """A request the lobby refuses: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after
        """Seconds to wait before asking again (a 429's ``Retry-After``), when known."""

    def headers(self) -> dict[str, str] | None:
        """The answer's headers: ``Retry-After`` when the wait is known."""
        if self.retry_after is None:
            return None
        return {"retry-after": str(max(1, math.ceil(self.retry_after)))}


class SettingError(ValueError):
    """A server setting no server can work with — a default no table may have, a limit that lets nothing
    through or everything: ``name`` is the setting's (its command-line option is ``--`` and the name with
    ``-`` for ``_``), ``message`` what is wrong with it."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name} {message}")
        self.name, self.message = name, message

    @property
    def option(self) -> str:
        """The command-line option of the setting."""
        return "--" + self.name.replace("_", "-")
