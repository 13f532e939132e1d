"""`python -m bot [run|migrate|sync|…]`: the command-line entry point."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from bot.cli import COMMAND_MODULES, text
from bot.cli.parser import CliParser
from bot.errors import StartupError


def build_parser() -> argparse.ArgumentParser:
    parser = CliParser(prog="python -m bot", description=text("cli.bot"))
    subcommands = parser.add_subparsers(dest="command", metavar=text("cli.metavar.command"))
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subcommands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["run", *(argv if argv is not None else sys.argv[1:])])
    try:
        return int(args.handler(args))
    except StartupError as error:
        print(error.message, file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        # An error nobody caught: a line in the terminal's language, and its traceback (with
        # what the log never shows cut out) in a file to hand to whoever maintains the bot.
        print(crash_message(error, redacted_traceback()), file=sys.stderr)
        return 1


def crash_message(error: Exception, details: str, folder: Path = Path("logs")) -> str:
    """What an organizer reads when a command fails in a way nothing foresaw: which error,
    and the file its details were written to (the details themselves when no file can be
    written)."""
    from bot.i18n import both

    kind = type(error).__name__
    path = folder / f"error-{datetime.now():%Y%m%d-%H%M%S}.txt"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(details, encoding="utf-8")
    except OSError:
        return both("cli.crashed_unwritten", kind=kind) + "\n" + details
    return both("cli.crashed", kind=kind, path=path)


def redacted_traceback() -> str:
    import traceback

    from bot.logging_setup import REDACTED, startup_secrets

    text = traceback.format_exc()
    for secret in startup_secrets():
        text = text.replace(secret, REDACTED)
    return text


if __name__ == "__main__":
    sys.exit(main())
