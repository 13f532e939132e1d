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

import re
import string
import tomllib
from collections.abc import Callable, Iterable, Mapping
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
    return _CatalogFormatter(lang).format(template, **params) if params else template


def both(key: str, /, **params: object) -> str:
    """Japanese then English, for text read before we know the reader's language (CLI, logs)."""
    return f"{t(key, 'ja', **params)}\n{t(key, 'en', **params)}"


def rule_label(rule: str, lang: Lang) -> str:
    """The rule a deck message cites, once, in words: 「（規定 R-DECK-1: デッキ枚数）」."""
    name_key = f"decks.rule_names.{rule}"
    name = t(name_key, lang) if name_key in catalog(lang) else rule
    return t("decks.rule_label", lang, rule=rule, name=name)


def describe_error(
    error: DomainError, lang: Lang, *, escape: Callable[[str], str] | None = None
) -> str:
    """A typed error as text: its message, every bad line of an unreadable decklist, and the
    rule broken, if any. Shared by the Discord replies and the command line.

    `escape` is applied to every text parameter: names, lines of a decklist and values come
    from players and organizers (Discord escapes them; the command line shows them as is)."""

    def params(values: Mapping[str, object]) -> dict[str, object]:
        if escape is None:
            return dict(values)
        return {k: escape(v) if isinstance(v, str) else v for k, v in values.items()}

    lines = [t(error.key, lang, **params(error.params))]
    if isinstance(error, DecklistError):
        # One line per kind of problem, with every line number that has it.
        for group in error.groups:
            rule = rule_label(group.rule, lang) if group.rule else ""
            lines.append(f"• {t(group.key, lang, **params(group.message_params()))}{rule}")
    if error.rule:
        lines.append(t("errors.rule_suffix", lang, rule=error.rule))
    return "\n".join(lines)
