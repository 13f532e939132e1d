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

from bot.cli import Subcommands, text
from bot.errors import StartupError
from bot.i18n import LANGUAGES, Lang, cli_language, describe_error, system_error, t
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
from domain.timeparse import parse_date

T = TypeVar("T")

JST = dt.timezone(dt.timedelta(hours=9), "JST")
"""Events are dated in Japan, as the bot dates them, whatever the machine's time zone."""


def today_in_japan(now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC)) -> dt.date:
    return now().astimezone(JST).date()


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "check-deck",
        help=text("cli.check_deck.help"),
        description=text("cli.check_deck.description"),
    )
    parser.add_argument("file", metavar=text("cli.metavar.file"), help=text("cli.check_deck.file"))
    parser.add_argument(
        "--regulation",
        required=True,
        type=_regulation,
        metavar="{mix,single,mix-two,event}",
        help=text("cli.check_deck.regulation"),
    )
    parser.add_argument(
        "--titles",
        default="",
        metavar=text("cli.metavar.titles"),
        help=text("cli.check_deck.titles"),
    )
    parser.add_argument(
        "--restricted",
        type=Path,
        metavar=text("cli.metavar.file"),
        help=text("cli.check_deck.restricted"),
    )
    parser.add_argument(
        "--cards", type=Path, metavar=text("cli.metavar.file"), help=text("cli.check_deck.cards")
    )
    parser.add_argument(
        "--date",
        type=_date,
        default=None,
        metavar=text("cli.metavar.date"),
        help=text("cli.check_deck.date"),
    )
    parser.add_argument(
        "--titles-file",
        type=Path,
        metavar=text("cli.metavar.file"),
        help=text("cli.check_deck.titles_file"),
    )
    parser.add_argument(
        "--mix-two-minimum",
        type=int,
        default=DEFAULT_MIX_TWO_MINIMUM,
        metavar=text("cli.metavar.count"),
        help=text("cli.check_deck.mix_two_minimum", default=DEFAULT_MIX_TWO_MINIMUM),
    )
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=text("cli.check_deck.lang"))
    parser.add_argument("--json", action="store_true", help=text("cli.check_deck.json"))
    parser.set_defaults(handler=handle)


def _regulation(written: str) -> Regulation:
    try:
        return parse_regulation(written)
    except InvalidInput as error:
        raise argparse.ArgumentTypeError(text(error.key, **error.params)) from None


def _date(written: str) -> dt.date:
    """The event's day as people write it, as the slash commands read it: 2026/12/24,
    2026-12-24, 2026年12月24日, full-width digits too."""
    try:
        return parse_date(written)
    except InvalidInput:
        raise argparse.ArgumentTypeError(text("decks.cli.bad_date", value=written)) from None


def handle(args: argparse.Namespace) -> int:
    lang: Lang = args.lang or cli_language()
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
        detail = system_error(error, lang)
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
            regulation=t(f"ui.regulation.{rules.regulation.value}", lang),
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
