"""The ``gouji`` command: one module a command, registered on the group in :mod:`gouji.cli.app`."""

from __future__ import annotations

from .app import main

__all__ = ["main"]
