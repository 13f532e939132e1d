"""Message catalogs in Japanese and English.

Catalogs are TOML files under `bot/locales/<lang>/`, one file per area (core, decks, engine, …)
so that each part of the bot owns its own messages. Keys are dotted (`errors.unknown_tournament`)
and values are `str.format` templates. Every key exists in every language: a test checks it.

Besides `str.format`, templates know three things, all rendered here so that no caller
builds lists, plurals or command names by hand:

- a list or tuple param is joined for the language: 「A、B、C」 / "A, B, C" (`join_list`);
  decklist line numbers (`LineNumbers`) with neighbours as a range: 「3–17、20」;
- `{n:one|many}` picks the singular or plural form by `n` (a number, or a list's length),
  and `#` in the form stands for the value: `{lines:line #|lines #}` → "line 2", "lines 2, 3";
- `[[deck submit]]` names a slash command the way the reader sees it: a clickable mention
  `</deck submit:ID>` once the bot knows the synced ids, else the name in the reader's
  language (`/デッキ 提出`, `/deck submit`). See `command_ref`.
"""

from __future__ import annotations

import errno
import locale
import os
import re
import socket
import sqlite3
import string
import sys
import tomllib
from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Literal

from domain.decks.errors import DecklistError, LineNumbers
from domain.errors import DomainError

Lang = Literal["ja", "en"]
LANGUAGES: tuple[Lang, ...] = ("ja", "en")
LOCALES_DIR = Path(__file__).with_name("locales")


def normalise_locale(locale: object, default: Lang = "ja") -> Lang:
    """Map a Discord locale (`ja`, `en-US`, `en-GB`, …) to a catalog language.

    Japanese goes to `ja`; any other known locale reads English better than Japanese.
    """
    text = str(locale or "").strip().lower()
    if not text:
        return default
    if text.startswith("ja"):
        return "ja"
    return "en"


def _flatten(prefix: str, table: Mapping[str, object], into: dict[str, str], source: Path) -> None:
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, Mapping):
            _flatten(f"{key}.", value, into, source)
        elif isinstance(value, str):
            if key in into:
                raise ValueError(f"{source}: message key {key!r} is defined twice")
            into[key] = value
        else:
            raise ValueError(f"{source}: message {key!r} must be a string")


@cache
def catalog(lang: Lang) -> Mapping[str, str]:
    messages: dict[str, str] = {}
    for path in sorted((LOCALES_DIR / lang).glob("*.toml")):
        with path.open("rb") as handle:
            _flatten("", tomllib.load(handle), messages, path)
    return messages


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


LIST_SEPARATOR: Mapping[Lang, str] = {"ja": "、", "en": ", "}

# One way to write a day everywhere (2026/12/24, the day in Japan); a moment is a Discord
# timestamp, `<t:…>`, which every reader sees in their own time zone.
DATE_FORMAT = "%Y/%m/%d"


def show_date(day: date) -> str:
    return day.strftime(DATE_FORMAT)


def join_list(items: Iterable[object], lang: Lang) -> str:
    """Items as one list in the reader's language: 「A、B、C」 or "A, B, C"."""
    return LIST_SEPARATOR[lang].join(str(item) for item in items)


def line_ranges(lines: Iterable[int], lang: Lang) -> str:
    """Line numbers with neighbours as a range: 「3–17、20」 / "3–17, 20"."""
    spans: list[list[int]] = []
    for line in sorted(set(lines)):
        if spans and line == spans[-1][1] + 1:
            spans[-1][1] = line
        else:
            spans.append([line, line])
    return join_list((f"{a}–{b}" if a != b else str(a) for a, b in spans), lang)


def plural(count: int, one: str, many: str) -> str:
    """The English form for `count` things ("1 player", "2 players"); Japanese has one form,
    so pass the same word twice."""
    return one if count == 1 else many


class _CatalogFormatter(string.Formatter):
    """`str.format` plus lists joined per language and `{n:one|many}` plural forms."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" in format_spec:
            one, _, many = format_spec.partition("|")
            count = len(value) if isinstance(value, list | tuple) else int(str(value))
            return plural(count, one, many).replace("#", self.format_field(value, ""))
        if isinstance(value, LineNumbers):
            return line_ranges(value, self.lang)
        if isinstance(value, list | tuple):
            return join_list(value, self.lang)
        if isinstance(value, date) and not isinstance(value, datetime):
            return show_date(value)
        return str(super().format_field(value, format_spec))


_COMMAND_MARKUP = re.compile(r"\[\[([a-z_]+(?: [a-z_]+)*)\]\]")

# Root command name → its id, from the synced tree; filled by the bot once it is ready.
_command_ids: dict[str, int] = {}


def set_command_ids(ids: Mapping[str, int]) -> None:
    """Remember the ids of the synced top-level commands, so messages can link to them."""
    _command_ids.clear()
    _command_ids.update(ids)


def localized_command(name: str, lang: Lang) -> str:
    """`deck submit` as the reader's Discord shows it: `/デッキ 提出` in Japanese."""
    parts = name.split()
    if lang == "en":
        return "/" + name
    names = catalog("ja")
    return "/" + " ".join(
        names.get("commands." + ".".join(parts[: i + 1]) + ".name", part)
        for i, part in enumerate(parts)
    )


def localized_option(command: str, option: str, lang: Lang) -> str:
    """An option of a command as the reader's Discord shows it: `starts_at` of
    `tournament settings` is 「開始時刻」 in Japanese."""
    if lang == "en":
        return option
    key = "commands." + command.replace(" ", ".") + f".params.{option}.name"
    return catalog("ja").get(key, option)


def command_ref(name: str, lang: Lang) -> str:
    """A command as the reader should see it in a message.

    With the synced id, a mention `</deck submit:ID>`: Discord shows it in the reader's own
    language and runs the command on a click. Without it (not synced yet, or the command
    line), the localized name. Use this, or `[[name]]` in a catalog, for every command a
    message names.
    """
    command_id = _command_ids.get(name.split()[0])
    if command_id is not None:
        return f"</{name}:{command_id}>"
    return localized_command(name, lang)


def t(key: str, lang: Lang, /, **params: object) -> str:
    """The message `key` in `lang`, filled with `params`.

    A missing key is a programming error, so it raises instead of showing a raw key to users.
    Command markup is replaced in the template only, never in the params (user text).
    """
    template = catalog(lang)[key]
    if "[[" in template:
        template = _COMMAND_MARKUP.sub(lambda m: command_ref(m[1], lang), template)
    if not params:
        return template
    pieces = _pieces(template)
    formatter = _CatalogFormatter(lang)
    if pieces is None:
        return formatter.format(template, **params)
    filled = []
    for literal, name, spec in pieces:
        filled.append(literal)
        if name is not None:
            value = params[name]
            filled.append(
                value if not spec and type(value) is str else formatter.format_field(value, spec)
            )
    return "".join(filled)


@cache
def _pieces(template: str) -> tuple[tuple[str, str | None, str], ...] | None:
    """The template cut once into (text, field, format spec): a pairings post of 2,048
    tables fills thousands of messages, and `string.Formatter` parsed each again (most of
    the post's rendering). None for what only the formatter does: a positional, dotted or
    indexed field, a conversion, a field inside a spec."""
    pieces = []
    for literal, name, spec, conversion in string.Formatter().parse(template):
        if name is not None and (
            not name.isidentifier() or conversion is not None or "{" in (spec or "")
        ):
            return None
        pieces.append((literal, name, spec or ""))
    return tuple(pieces)


def _system_language() -> str | None:
    """The system's own language where the environment names none: Windows sets no LANG,
    so its display language (0x11: Japanese); elsewhere the C library's locale."""
    if sys.platform == "win32":
        import ctypes

        ui = ctypes.windll.kernel32.GetUserDefaultUILanguage()
        if ui:
            return "ja" if ui & 0x3FF == 0x11 else "en"
    return locale.getlocale()[0]


def terminal_language(
    environ: Mapping[str, str] | None = None,
    system: Callable[[], str | None] = _system_language,
) -> Lang | None:
    """The language of the terminal the command line and the bot's start-up lines are read
    in: the first of LC_ALL, LC_MESSAGES and LANG that is set, as POSIX reads them (C and
    POSIX read English), else the system's (`_system_language`); None when nothing says."""
    found = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if found.get(name):
            return normalise_locale(found[name])
    named = system()
    return normalise_locale(named) if named else None


def cli_language() -> Lang:
    """What the command line speaks: the terminal's language, Japanese when nothing says
    (the bot's own default, as DEFAULT_LOCALE's)."""
    return terminal_language() or "ja"


def terminal_languages() -> tuple[Lang, ...]:
    """What text read in the terminal is written in where the reader's language is not
    known for sure (the command line's refusals, the bot's start-up): Japanese, then
    English, except in a Japanese terminal, which reads Japanese only."""
    return ("ja",) if terminal_language() == "ja" else LANGUAGES


def both(key: str, /, **params: object) -> str:
    """`key` in each of `terminal_languages()`, one after the other."""
    return "\n".join(t(key, lang, **params) for lang in terminal_languages())


def system_error(error: BaseException, lang: Lang) -> str:
    """The system's words for a failed read, write, connection or database, in `lang`:
    「No such file or directory」 is 「ファイルが見つかりません」, SQLite's 「unable to open
    database file」 and PostgreSQL's refused password are named by their codes; what the
    catalog does not know stays as the system said it."""
    if isinstance(error, UnicodeDecodeError):
        return t("cli.not_utf8", lang)
    if isinstance(error, socket.gaierror):
        return t("cli.os_error.host_unknown", lang)
    for key in _error_keys(error):
        if key in catalog(lang):
            return t(key, lang)
    detail = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return t("cli.os_error.other", lang, detail=detail)


def _error_keys(error: BaseException) -> list[str]:
    keys = []
    if isinstance(error, OSError) and error.errno is not None:
        keys.append(f"cli.os_error.{errno.errorcode.get(error.errno, '')}")
    if isinstance(error, sqlite3.Error):
        # SQLITE_IOERR_WRITE, or its primary code SQLITE_IOERR when not named itself.
        name = getattr(error, "sqlite_errorname", "")
        primary = "_".join(name.split("_")[:2])
        keys += [f"cli.sqlite_error.{name}", f"cli.sqlite_error.{primary}"]
    state = getattr(error, "sqlstate", None)  # asyncpg's errors from the server
    if isinstance(state, str):
        keys.append(f"cli.postgres_error.{state}")
    return keys


def both_error(key: str, error: BaseException, /, **params: object) -> str:
    """`key` in each of `terminal_languages()`, its `details` the system's words for
    `error` in that language (`system_error`)."""
    return "\n".join(
        t(key, lang, details=system_error(error, lang), **params) for lang in terminal_languages()
    )


def rule_name(rule: str, lang: Lang) -> str:
    """A rule's short name in the reader's language: `R-MATCH-2` → 「時間切れの判定」. The
    decklist rules are named by the deck catalog (`decks.rule_names`), the others here."""
    messages = catalog(lang)
    for table in ("rule_names.", "decks.rule_names."):
        name = messages.get(table + rule)
        if name is not None:
            return name
    raise KeyError(f"no name for the rule {rule!r}")


def deck_rule_label(rule: str, lang: Lang) -> str:
    """A decklist rule as the deck messages cite it: 「（規定 R-DECK-1: デッキ枚数）」."""
    return t("decks.rule_label", lang, rule=rule, name=rule_name(rule, lang))


CodeName = Callable[[str, Lang], str]


def _named_in(table: str) -> CodeName:
    """A code named by the catalog's table (`"steps."` + `pair_round`)."""
    return lambda code, lang: t(table + code, lang)


# Params of errors that carry a code of the domain (a step, a phase, an operation's kind, an
# enum's value), by the messages that receive them: shown by the code's name in the
# reader's language, never as the code (「「組み合わせ」の前に」, not 「「pair_round」の前に」).
# A list param names each of its codes.
CODED_PARAMS: Mapping[str, Mapping[str, CodeName]] = {
    "engine.state.": {
        "step": _named_in("steps."),
        "phase": _named_in("ui.state."),
        "status": _named_in("round_status."),
    },
    "rounds.not_running": {"phase": _named_in("ui.state.")},
    "tournament.operation_not_applicable": {"kind": _named_in("ui.log.kind.")},
    "undo.": {"kind": _named_in("ui.log.kind.")},
    "event.": {
        "field": _named_in("fields."),
        "regulation": _named_in("ui.regulation."),
        "known": _named_in("ui.format."),
    },
    "tournament.create_needs": {
        "options": lambda option, lang: localized_option("tournament create", option, lang)
    },
    "tournament.settings_refused": {
        "setting": lambda option, lang: localized_option("tournament settings", option, lang)
    },
    "rooms.missing_permissions": {"missing": _named_in("rooms.permission.")},
    "engine.record.bad_json": {"problem": _named_in("syntax.")},
    "decks.data.toml_syntax": {"problem": _named_in("syntax.")},
    "submission.not_legal": {
        "rules": lambda rule, lang: t(
            "submission.rule_item", lang, rule=rule, name=rule_name(rule, lang)
        )
    },
}


Escape = Callable[[str], str]


def readable_params(
    key: str, params: Mapping[str, object], lang: Lang, escape: Escape | None = None
) -> dict[str, object]:
    """An error's params with every code named (see `CODED_PARAMS`), the text that came from
    people escaped (`escape`), and the errors an error carries (what refused a settings
    change, the reasons of a refusal) as text, a list of them one per line; their rule is
    the carrying error's to cite."""
    named = dict(params)
    done: set[str] = set()  # params made text here: not the people's, not escaped again

    def described(error: DomainError) -> str:
        return describe_error(error, lang, with_rule=False, escape=escape)

    for param, value in params.items():
        if isinstance(value, DomainError):
            named[param] = described(value)
            done.add(param)
        elif isinstance(value, list | tuple) and value and isinstance(value[0], DomainError):
            named[param] = "\n".join(described(e) for e in value)
            done.add(param)
    for prefix, coded in CODED_PARAMS.items():
        if not key.startswith(prefix):
            continue
        for param, name in coded.items():
            value = params.get(param)  # the code as the domain gave it, not escaped as text
            if isinstance(value, list | tuple):
                named[param] = [name(str(code), lang) for code in value]
            elif value is not None:
                named[param] = name(str(value), lang)
            done.add(param)
    if escape is not None:
        for param, value in named.items():
            if param not in done and isinstance(value, str):
                named[param] = escape(value)
    return named


def describe_error(
    error: DomainError,
    lang: Lang,
    *,
    rule_ids: bool = False,
    with_rule: bool = True,
    escape: Escape | None = None,
) -> str:
    """A typed error as text: its message (codes named, never shown), one line per kind of
    problem of an unreadable decklist with every line number that has it, and the rule
    broken, if any: by its name for players, with its id too for the staff at the command
    line (`rule_ids`). Shared by the Discord replies and the command line.

    `escape` is applied to every text parameter: names, lines of a decklist and values come
    from players and organizers (Discord escapes them; the command line shows them as is)."""
    lines = [t(error.key, lang, **readable_params(error.key, error.params, lang, escape)).rstrip()]
    if isinstance(error, DecklistError):
        for group in error.groups:
            rule = deck_rule_label(group.rule, lang) if group.rule else ""
            found = readable_params(group.key, group.message_params(), lang, escape)
            lines.append(f"• {t(group.key, lang, **found)}{rule}")
    if error.rule and with_rule:
        name = rule_name(error.rule, lang)
        if rule_ids:
            name = f"{error.rule} {name}"
        lines.append(t("errors.rule_suffix", lang, name=name))
    return "\n".join(lines)
