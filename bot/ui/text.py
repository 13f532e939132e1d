"""Plain-text pieces shared by Discord and the command line (no discord import here).

`deck_rule_label` lives in `bot.i18n` (decklist errors cite rules too) and is used from here."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date

from bot.i18n import Lang, deck_rule_label, t
from domain.decks import Unchecked, Violation

_ZERO_WIDTH_SPACE = "\u200b"


def violation_text(
    violation: Violation, lang: Lang, *, escape: Callable[[str], str] | None = None
) -> str:
    """The violation's message followed by its rule. `escape` is applied to every text
    parameter (titles, names, labels come from players and organizers)."""
    params = {
        name: escape(value) if escape is not None and isinstance(value, str) else value
        for name, value in map(_dated, violation.params.items())
    }
    return t(violation.key, lang, **params) + deck_rule_label(violation.rule, lang)


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _dated(param: tuple[str, object]) -> tuple[str, object]:
    """A date the deck rules give as ISO text (an effective or release date) as a date, so it
    is written the one way every message writes a day (`bot.i18n.show_date`)."""
    name, value = param
    if isinstance(value, str) and _ISO_DATE.fullmatch(value):
        try:
            return name, date.fromisoformat(value)
        except ValueError:
            return param
    return param


def unchecked_lines(unchecked: Iterable[Unchecked], lang: Lang) -> list[str]:
    """A line for each thing a deck check could not look at (no card database, no
    restricted list): every answer of a check says so, never a bare 「使用できます」."""
    return [t(f"decks.unchecked.{missing.value}", lang) for missing in unchecked]


def code_block(text: str) -> str:
    """`text` in a Discord code block it cannot close: a zero-width space follows every
    backtick, so a ``` in a card name or title shows as written instead of ending the block."""
    return f"```\n{text.replace('`', '`' + _ZERO_WIDTH_SPACE)}\n```"
