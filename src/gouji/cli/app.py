"""The ``gouji`` command group; each command is a module of this package."""

from __future__ import annotations

import click

from .. import __version__
from .accounts import accounts
from .arena import arena
from .backup import backup, restore
from .beliefs import beliefs
from .conformance import conformance
from .distil import distil
from .event import event
from .ladder import ladder
from .proxy_config import proxy_config
from .replay import replay
from .review import review
from .rules import rules
from .serve import serve
from .sim import sim
from .tournament import tournament
from .train import train
from .tune import tune


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gouji")
def main() -> None:
    """Shandong Gouji (够级): the rule sets, and a simulator of random deals."""


for command in (
    rules,
    conformance,
    sim,
    arena,
    serve,
    tournament,
    replay,
    review,
    event,
    train,
    tune,
    beliefs,
    distil,
    ladder,
    proxy_config,
    backup,
    restore,
    accounts,
):
    main.add_command(command)
