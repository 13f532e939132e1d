"""Message catalogs in Japanese and English.

Catalogs are TOML files under `bot/locales/<lang>/`, one file per area (core, decks, engine, …)
so that each part of the bot owns its own messages. Keys are dotted (`errors.unknown_tournament`)
and values are `str.format` templates. Every key exists in every language: a test checks it.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Literal

from domain.decks.errors import DecklistError
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


def t(key: str, lang: Lang, /, **params: object) -> str:
    """The message `key` in `lang`, filled with `params`.

    A missing key is a programming error, so it raises instead of showing a raw key to users.
    """
    template = catalog(lang)[key]
    return template.format(**params) if params else template


def both(key: str, /, **params: object) -> str:
    """Japanese then English, for text read before we know the reader's language (CLI, logs)."""
    return f"{t(key, 'ja', **params)}\n{t(key, 'en', **params)}"


def describe_error(error: DomainError, lang: Lang) -> str:
    """A typed error as text: its message, every bad line of an unreadable decklist, and the
    rule broken, if any. Shared by the Discord replies and the command line."""
    lines = [t(error.key, lang, **error.params)]
    if isinstance(error, DecklistError):
        lines += [f"• {t(p.key, lang, **p.message_params())}" for p in error.problems]
    if error.rule:
        lines.append(t("errors.rule_suffix", lang, rule=error.rule))
    return "\n".join(lines)
