"""`python -m bot replay FILE [--json]`: the standings a tournament record leads to, and
for a finished event its final placings (the top cut first).

Organizers use it to check the engine against results kept elsewhere. The whole file is
checked before anything is printed: a bad entry exits with code 2 and a message (Japanese,
then English) naming it, never a traceback or partial standings.
"""

from __future__ import annotations

import argparse
import json
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from bot.cli import Subcommands, text
from bot.errors import StartupError
from bot.i18n import Lang, cli_language, readable_params, system_error, t, terminal_languages
from domain.engine import PlayerStatus, Standing, TournamentRecord
from domain.engine.placings import Placing, TopCutPlace
from domain.engine.record import placing_rows, read_record
from domain.errors import DomainError


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "replay",
        help=text("cli.replay.help"),
        description=text("cli.replay.description"),
    )
    parser.add_argument(
        "file", type=Path, metavar=text("cli.metavar.file"), help=text("cli.replay.file")
    )
    parser.add_argument("--json", action="store_true", help=text("cli.replay.json"))
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    record = load_record(args.file)
    placings = record.placings()  # a finished event's final placings, top cut first
    print(standings_json(placings) if args.json else standings_table(placings))
    return 0


def load_record(path: Path) -> TournamentRecord:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        lines = [
            t("engine.cli.file_unreadable", lang, path=path, details=system_error(error, lang))
            for lang in terminal_languages()
        ]
        raise StartupError("\n".join(lines)) from None
    try:
        return read_record(text)
    except DomainError as error:
        raise StartupError(domain_message("engine.cli.bad_record", error, path=path)) from None


def domain_message(key: str, error: DomainError, /, **params: object) -> str:
    """`key` filled with the domain error's own message, in Japanese then English."""
    lines = []
    for lang in terminal_languages():
        details = t(error.key, lang, **readable_params(error.key, error.params, lang))
        if error.rule:
            details += t("engine.cli.rule_suffix", lang, rule=error.rule)
        lines.append(t(key, lang, details=details, **params))
    return "\n".join(lines)


def standings_json(standings: Sequence[Standing | Placing]) -> str:
    return json.dumps({"standings": placing_rows(standings)}, ensure_ascii=False)


def standings_table(standings: Sequence[Standing | Placing], lang: Lang | None = None) -> str:
    """A plain-text table, in the terminal's language (LANG), aligned for wide characters;
    with a column for the top cut's placings when the record has them."""
    lang = lang or cli_language()
    lines = [_placing(line) for line in standings]
    with_top_cut = any(line.top_cut is not None for line in lines)
    names = ("rank", "player", "points", "opponents_points", "status")
    header = [t(f"engine.cli.col_{name}", lang) for name in names]
    if with_top_cut:
        header.insert(1, t("engine.cli.col_top_cut", lang))
    body = []
    for line in lines:
        row = line.standing
        cells = [
            str(row.rank),
            row.player,
            str(row.points),
            _number(float(row.opponents_points)),
            _status(row.status, lang),
        ]
        if with_top_cut:
            cells.insert(1, _top_cut(line.top_cut, lang))
        body.append(cells)
    widths = [max(_width(cells[i]) for cells in [header, *body]) for i in range(len(header))]
    right_aligned = {0, 3, 4} if with_top_cut else {0, 2, 3}
    table = []
    for cells in [header, *body]:
        padded = [
            _pad(cell, width, right=index in right_aligned and cells is not header)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        table.append("  ".join(padded).rstrip())
    return "\n".join(table)


def _placing(line: Standing | Placing) -> Placing:
    return line if isinstance(line, Placing) else Placing(line)


def _top_cut(place: TopCutPlace | None, lang: Lang) -> str:
    if place is None:
        return ""
    return t(f"engine.cli.place_{place.kind.value}", lang, best=place.best)


def _status(status: PlayerStatus, lang: Lang) -> str:
    if status is PlayerStatus.ACTIVE:
        return ""
    return t(f"engine.cli.{status.value}", lang)


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() else str(value)


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, *, right: bool) -> str:
    fill = " " * (width - _width(text))
    return fill + text if right else text + fill
