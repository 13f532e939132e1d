"""An event's deck rules from its settings, and the organizer's uploaded rule files.

Parsing a 1 MB card database takes a noticeable fraction of a second, so the parsed files
are cached by their text: every deck command of an event reuses them, and a settings change
(new text) parses once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from functools import lru_cache

from domain.decks.carddb import CardDatabase, load_card_database
from domain.decks.checks import DeckRules
from domain.decks.decoding import decode
from domain.decks.defaults import default_titles
from domain.decks.regulation import parse_regulation
from domain.decks.restricted import RestrictedList, load_restricted_list
from domain.decks.titles import TitleCatalogue, load_titles
from domain.errors import InvalidInput

# The setting each uploaded file fills, and its reader (which names the bad entry).
FILE_SETTINGS = ("restricted_list", "titles_file", "card_database")


def read_uploaded_files(files: Mapping[str, tuple[str, bytes] | None]) -> dict[str, str]:
    """The text of each uploaded settings file, refused when it is not text or is malformed."""
    texts: dict[str, str] = {}
    for setting, upload in files.items():
        if upload is None:
            continue
        filename, data = upload
        text = decode(data)
        if text is None:
            raise InvalidInput("files.not_text", name=filename)
        validate_rule_file(setting, text, source=filename)
        texts[setting] = text
    return texts


def validate_rule_file(setting: str, text: str, *, source: str | None = None) -> None:
    """Parse one rule file, raising the reader's typed error when it is malformed."""
    if setting == "restricted_list":
        _restricted(text, source or "restricted.toml")
    elif setting == "titles_file":
        _titles(text, source or "titles.toml")
    elif setting == "card_database":
        _cards(text, source or "cards.csv")
    else:
        raise ValueError(f"not a rule file setting: {setting}")


def deck_rules(
    *,
    regulation: str,
    date: dt.date,
    designated_titles: tuple[str, ...],
    mix_two_minimum: int,
    restricted_list: str | None,
    titles_file: str | None,
    card_database: str | None,
    ex_deck: bool = False,
    ex_copies_shared: bool = True,
) -> DeckRules:
    """The rule set a deck of an event is checked against."""
    return DeckRules(
        regulation=parse_regulation(regulation),
        date=date,
        designated_titles=designated_titles,
        mix_two_minimum=mix_two_minimum,
        titles=_titles(titles_file, "titles.toml") if titles_file else default_titles(),
        restricted=_restricted(restricted_list, "restricted.toml") if restricted_list else None,
        cards=_cards(card_database, "cards.csv") if card_database else None,
        ex_deck=ex_deck,
        ex_copies_shared=ex_copies_shared,
    )


# A few events' files at a time; keyed by the text, so a changed file is parsed anew.
@lru_cache(maxsize=16)
def _titles(text: str, source: str) -> TitleCatalogue:
    return load_titles(text, source=source)


@lru_cache(maxsize=16)
def _restricted(text: str, source: str) -> RestrictedList:
    return load_restricted_list(text, source=source)


@lru_cache(maxsize=16)
def _cards(text: str, source: str) -> CardDatabase:
    return load_card_database(text, source=source)
