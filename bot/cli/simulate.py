"""`python -m bot simulate --players N [--rounds R] [--seed S] [--json]`.

Runs a Swiss event with random results (about 10% time results) through the real pairing
engine, then prints each round (pair-downs, rematches, byes, pairing time) and the
standings, or all of it as JSON in the replay record's vocabulary.
"""

from __future__ import annotations

import argparse
import json
import time

from bot.cli import Subcommands, text
from bot.cli.replay import domain_message, standings_table
from bot.errors import StartupError
from bot.i18n import both, cli_language, t
from domain.engine import Simulation, simulate
from domain.engine.record import placing_rows
from domain.errors import DomainError


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "simulate",
        help=text("cli.simulate.help"),
        description=text("cli.simulate.description"),
    )
    parser.add_argument(
        "--players",
        type=int,
        required=True,
        metavar=text("cli.metavar.players"),
        help=text("cli.simulate.players"),
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        metavar=text("cli.metavar.rounds"),
        help=text("cli.simulate.rounds"),
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar=text("cli.metavar.seed"),
        help=text("cli.simulate.seed"),
    )
    parser.add_argument("--json", action="store_true", help=text("cli.simulate.json"))
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    _check_at_least("--players", args.players, 2)
    if args.rounds is not None:
        _check_at_least("--rounds", args.rounds, 1)
    try:
        result = simulate(args.players, args.rounds, args.seed, clock=time.perf_counter)
    except DomainError as error:
        raise StartupError(
            domain_message("engine.cli.bad_record", error, path="simulate")
        ) from None
    print(simulation_json(result) if args.json else simulation_text(result, args.seed))
    return 0


def _check_at_least(option: str, value: int, minimum: int) -> None:
    if value < minimum:
        raise StartupError(
            both("engine.cli.bad_option", option=option, minimum=minimum, value=value)
        )


def simulation_json(result: Simulation) -> str:
    rounds = [
        {
            "round": played.number,
            "seconds": round(played.seconds, 6),
            "matches": [
                {
                    "players": list(match.players),
                    "points_before": list(match.points_before),
                    "result": match.result,
                }
                for match in played.matches
            ],
        }
        for played in result.rounds
    ]
    return json.dumps(
        {"rounds": rounds, "standings": placing_rows(result.standings())}, ensure_ascii=False
    )


def simulation_text(result: Simulation, seed: int) -> str:
    lang = cli_language()
    lines = [
        t(
            "engine.cli.simulate_header",
            lang,
            players=len(result.record.players),
            rounds=len(result.rounds),
            seed=seed,
        )
    ]
    for played in result.rounds:
        pairing = played.pairing
        lines.append(
            t(
                "engine.cli.round_summary",
                lang,
                round=played.number,
                matches=len(pairing.pairs),
                pair_downs=len(pairing.pair_downs),
                rematches=len(pairing.rematches),
                bye=pairing.bye or t("engine.cli.no_bye", lang),
                seconds=played.seconds,
            )
        )
    lines.append("")
    lines.append(standings_table(result.standings(), lang))
    return "\n".join(lines)
