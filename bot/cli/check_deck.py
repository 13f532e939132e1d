"""`python -m bot check-deck FILE --regulation …`: check a decklist file offline.

Exit codes: 0 legal, 1 illegal, 2 unusable input (an unreadable file, unparseable lines, a bad
data file or option), printed without a traceback. Does not import discord.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from bot.cli import Subcommands
from bot.errors import StartupError
from bot.i18n import LANGUAGES, Lang, describe_error, t
from bot.ui.text import unchecked_lines, violation_text
from domain.decks import (
    DEFAULT_MIX_TWO_MINIMUM,
    CardDatabase,
    DeckCheck,
    DecklistError,
    DeckRules,
    Regulation,
    RestrictedList,
    check_deck,
    default_titles,
    load_card_database,
    load_restricted_list,
    load_titles,
    parse_decklist,
    parse_regulation,
)
from domain.errors import DomainError, InvalidInput
from domain.event import split_titles

T = TypeVar("T")

JST = dt.timezone(dt.timedelta(hours=9), "JST")
"""Events are dated in Japan, as the bot dates them, whatever the machine's time zone."""


def today_in_japan(now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC)) -> dt.date:
    return now().astimezone(JST).date()


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "check-deck",
        help="check a decklist against a regulation / デッキリストをチェックする",
        description=(
            "Check a decklist (CSV/TSV or the text format, see docs/decklists.md) against a "
            "regulation. Exit 0 legal, 1 illegal, 2 unusable input."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="the decklist; - reads standard input")
    parser.add_argument(
        "--regulation",
        required=True,
        type=_regulation,
        metavar="{mix,single,mix-two,event}",
        help="the regulation (mix_two is accepted too)",
    )
    parser.add_argument(
        "--titles",
        default="",
        metavar='"A,B"',
        help="the designated titles of a release event (comma-separated)",
    )
    parser.add_argument("--restricted", type=Path, metavar="FILE", help="restricted list (TOML)")
    parser.add_argument("--cards", type=Path, metavar="FILE", help="card database (CSV)")
    parser.add_argument(
        "--date",
        type=_date,
        default=None,
        metavar="YYYY-MM-DD",
        help="the event date (default: today in Japan, JST)",
    )
    parser.add_argument(
        "--titles-file",
        type=Path,
        metavar="FILE",
        help="titles file (TOML) instead of the shipped one",
    )
    parser.add_argument(
        "--mix-two-minimum",
        type=int,
        default=DEFAULT_MIX_TWO_MINIMUM,
        metavar="N",
        help=f"MIX-Two limited: minimum cards per title (default {DEFAULT_MIX_TWO_MINIMUM})",
    )
    parser.add_argument("--lang", choices=LANGUAGES, default="ja", help="message language")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(handler=handle)


def _regulation(text: str) -> Regulation:
    try:
        return parse_regulation(text)
    except InvalidInput as error:
        raise argparse.ArgumentTypeError(t(error.key, "en", **error.params)) from None


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(t("decks.cli.bad_date", "en", value=text)) from None


def handle(args: argparse.Namespace) -> int:
    lang: Lang = args.lang
    titles = _load(args.titles_file, load_titles, lang) if args.titles_file else default_titles()
    restricted: RestrictedList | None = (
        _load(args.restricted, load_restricted_list, lang) if args.restricted else None
    )
    cards: CardDatabase | None = _load(args.cards, load_card_database, lang) if args.cards else None
    data = _read(args.file, lang)
    try:
        decklist = parse_decklist(data, filename=Path(args.file).name, titles=titles)
    except DecklistError as error:
        raise StartupError(describe_error(error, lang, rule_ids=True), exit_code=2) from None
    rules = DeckRules(
        regulation=args.regulation,
        date=args.date or today_in_japan(),
        designated_titles=tuple(split_titles(args.titles)),
        mix_two_minimum=args.mix_two_minimum,
        titles=titles,
        restricted=restricted,
        cards=cards,
    )
    try:
        result = check_deck(decklist, rules)
    except DomainError as error:
        raise StartupError(describe_error(error, lang, rule_ids=True), exit_code=2) from None
    print(as_json(result, lang) if args.json else as_text(result, rules, lang))
    return 0 if result.legal else 1


def _read(path: str, lang: Lang) -> bytes:
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        return Path(path).read_bytes()
    except OSError as error:
        detail = error.strerror or type(error).__name__
        raise StartupError(t("decks.cli.unreadable", lang, path=path, detail=detail)) from None


def _load(path: Path, loader: Callable[..., T], lang: Lang) -> T:
    data = _read(str(path), lang)
    try:
        return loader(data, source=path.name)
    except DomainError as error:
        raise StartupError(describe_error(error, lang, rule_ids=True), exit_code=2) from None


def as_json(result: DeckCheck, lang: Lang) -> str:
    return json.dumps(
        {
            "legal": result.legal,
            "total": result.total,
            "titles": dict(result.titles),
            "violations": [
                {
                    "rule": violation.rule,
                    # The format of the original request: the rule id leads the message.
                    "message": f"[{violation.rule}] {t(violation.key, lang, **violation.params)}",
                    "cards": [
                        {"title": card.title, "number": card.number} for card in violation.cards
                    ],
                }
                for violation in result.violations
            ],
            "unchecked": [missing.value for missing in result.unchecked],
        },
        ensure_ascii=False,
    )


def as_text(result: DeckCheck, rules: DeckRules, lang: Lang) -> str:
    lines = [
        t("decks.cli.legal", lang)
        if result.legal
        else t("decks.cli.illegal", lang, count=len(result.violations)),
        t(
            "decks.cli.summary",
            lang,
            regulation=rules.regulation.value,
            date=rules.date,
            total=result.total,
            fingerprint=result.fingerprint,
        ),
        t("decks.cli.titles", lang, titles=_titles(result.titles.items())),
    ]
    lines.extend(f"- {violation_text(v, lang)}" for v in result.violations)
    lines.extend(unchecked_lines(result.unchecked, lang))
    return "\n".join(lines)


def _titles(items: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{title} ×{count}" for title, count in items)
