"""`python -m bot export TOURNAMENT_ID [--output FILE]`: the tournament record as JSON, the
same file `/tournament export` attaches, which `python -m bot replay` reads back."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.cli import Subcommands
from bot.cli.common import load_settings, reading
from bot.config import Settings
from bot.errors import StartupError
from bot.i18n import both
from bot.store.tournaments import load_tournament, tournament_ids
from domain.tournament.views import export_json


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "export",
        help="write a tournament's record as JSON / 大会記録を JSON で書き出す",
        description=(
            "Write the tournament record (the format `python -m bot replay` reads) of one "
            "tournament of the database (DATABASE_URL or DATABASE_PATH), to standard output "
            "or a file."
        ),
    )
    parser.add_argument("tournament", type=int, help="the tournament id (see /tournament info)")
    parser.add_argument("--output", type=Path, help="write here instead of standard output")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    record = asyncio.run(_record(load_settings(), args.tournament))
    text = json.dumps(record, ensure_ascii=False, indent=2) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {args.output}")
    return 0


async def _record(settings: Settings, tournament_id: int) -> dict[str, object]:
    async with reading(settings) as connection:
        for guild_id, found in await tournament_ids(connection):
            if found == tournament_id:
                tournament = await load_tournament(connection, guild_id, found)
                assert tournament is not None
                return export_json(tournament)
    raise StartupError(both("verify.no_such_tournament", id=tournament_id), exit_code=2)
