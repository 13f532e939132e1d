"""`python -m bot verify`: fold each tournament's action log and compare it with the tables.

Exit 0 when every tournament agrees (one line each), 1 naming every difference when a row
was changed behind the bot's back, 2 when the database is missing or unusable.
"""

from __future__ import annotations

import argparse
import asyncio
import gc

from bot.cli import Subcommands, text
from bot.cli.common import load_settings, reading
from bot.config import Settings
from bot.errors import StartupError
from bot.i18n import both, cli_language, describe_error
from bot.store.migrations import discover_migrations
from bot.store.verify import Verdict, verify_all


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "verify",
        help=text("cli.verify.help"),
        description=text("cli.verify.description"),
    )
    parser.add_argument(
        "--tournament",
        type=int,
        metavar=text("cli.metavar.tournament"),
        help=text("cli.verify.tournament"),
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    # The fold makes and drops millions of objects, all freed as they go (no cycles): the
    # cycle collector would only walk the whole stored event again and again, a share of
    # the run worth saving (docs/BENCHMARKS.md, "verify (profile: cProfile …)").
    gc.disable()
    try:
        return asyncio.run(_verify(load_settings(), args.tournament))
    finally:
        gc.enable()


async def _verify(settings: Settings, tournament_id: int | None) -> int:
    async with reading(settings) as snapshot:
        version = snapshot.schema_version
        known = discover_migrations()[-1].version
        if version != known:
            path = settings.database_label
            raise StartupError(
                both("verify.schema_mismatch", path=path, found=version, known=known), exit_code=2
            )
        verdicts = await verify_all(snapshot.connection, tournament_id)
    if tournament_id is not None and not verdicts:
        raise StartupError(both("verify.no_such_tournament", id=tournament_id), exit_code=2)
    if not verdicts:  # an empty database: say so, rather than nothing at all
        print(text("cli.verify.nothing", path=settings.database_label))
    for verdict in verdicts:
        print(_line(verdict))
    return 0 if all(v.agrees or not v.replayable for v in verdicts) else 1


def _line(verdict: Verdict) -> str:
    named = {"id": verdict.tournament_id, "name": verdict.name}
    if not verdict.replayable:
        return text("cli.verify.not_checked", **named)
    if verdict.error is not None:
        problem = describe_error(verdict.error, cli_language(), rule_ids=True)
        return text("cli.verify.does_not_replay", problem=problem, **named)
    if not verdict.differences:
        return text("cli.verify.agrees", operations=verdict.operations, **named)
    listed = "".join(
        "\n  - "
        + text(
            f"cli.verify.difference_{found.kind}",
            path=found.path,
            logged=found.logged,
            stored=found.stored,
        )
        for found in verdict.differences
    )
    return text("cli.verify.differences", count=len(verdict.differences), **named) + listed
