"""Subcommands of `python -m bot`.

Each module here defines `register(subcommands)`, which adds its parser and sets
`handler`, a function `(argparse.Namespace) -> int` returning the exit code. Handlers raise
`bot.errors.StartupError` for unusable input: the entry point prints its message (no
traceback) and exits with its code.
"""

from __future__ import annotations

import argparse
import sys
from typing import Protocol

from bot.i18n import cli_language, t


class Subcommands(Protocol):
    def add_parser(self, name: str, **kwargs: object) -> argparse.ArgumentParser: ...


# Order here is the order `--help` lists them in.
COMMAND_MODULES: tuple[str, ...] = (
    "bot.cli.run",
    "bot.cli.migrate",
    "bot.cli.migrate_to_postgres",
    "bot.cli.verify",
    "bot.cli.sync",
    "bot.cli.backup",
    "bot.cli.check_deck",
    "bot.cli.replay",
    "bot.cli.export",
    "bot.cli.simulate",
    "bot.cli.web",
    "bot.cli.demo",
)


def text(key: str, /, **params: object) -> str:
    """A line of the command line (its help, answers and progress), in the terminal's
    language (`bot.i18n.cli_language`)."""
    return t(key, cli_language(), **params)


def tell(key: str, /, **params: object) -> None:
    """A line for the organizer in the terminal the bot runs in (started, stopping,
    stopped), in its language: on stderr, in order with the log (the operators' lines, in
    English), which the README and the guide tell the organizer to look for."""
    print(text(key, **params), file=sys.stderr, flush=True)
