"""`python -m bot export TOURNAMENT_ID [--output FILE]`: the tournament record as JSON, the
same file `/tournament export` attaches, which `python -m bot replay` reads back."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.cli import Subcommands, text
from bot.cli.common import load_settings, reading
from bot.config import Settings
from bot.errors import StartupError
from bot.i18n import both, system_error, t, terminal_languages
from bot.store.tournaments import load_tournament, tournament_ids
from domain.tournament.views import export_json


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "export",
        help=text("cli.export.help"),
        description=text("cli.export.description"),
    )
    parser.add_argument(
        "tournament",
        type=int,
        metavar=text("cli.metavar.tournament"),
        help=text("cli.export.tournament"),
    )
    parser.add_argument(
        "--output", type=Path, metavar=text("cli.metavar.file"), help=text("cli.export.output")
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    record = asyncio.run(_record(load_settings(), args.tournament))
    written = json.dumps(record, ensure_ascii=False, indent=2) + "\n"
    if args.output is None:
        sys.stdout.write(written)
    else:
        try:
            args.output.write_text(written, encoding="utf-8")
        except OSError as error:
            said = [
                t(
                    "cli.export.unwritable",
                    lang,
                    path=args.output,
                    details=system_error(error, lang),
                )
                for lang in terminal_languages()
            ]
            raise StartupError("\n".join(said), exit_code=2) from None
        print(text("cli.export.wrote", path=args.output))
    return 0


async def _record(settings: Settings, tournament_id: int) -> dict[str, object]:
    async with reading(settings) as snapshot:
        connection = snapshot.connection
        for guild_id, found in await tournament_ids(connection):
            if found == tournament_id:
                tournament = await load_tournament(connection, guild_id, found)
                assert tournament is not None
                return export_json(tournament)
    raise StartupError(both("verify.no_such_tournament", id=tournament_id), exit_code=2)
