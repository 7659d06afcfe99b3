"""The errors of the server: :class:`RequestError`, which the HTTP API answers with (its status and message),
and :class:`SettingError`, a server setting it cannot start with."""

from __future__ import annotations


class RequestError(ValueError):
    """A request the lobby refuses: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


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
