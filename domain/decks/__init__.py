"""Decklists and regulations (RULES.md R-DECK, R-REG): parsing, card identity, titles,
regulation and restricted-list checks, card database and fingerprint.

Pure functions over `bytes`/`str`; only `default_titles()` reads the shipped `data/titles.toml`.
"""

from domain.decks.carddb import CardDatabase, CardRecord, load_card_database
from domain.decks.cards import (
    DECK_SIZE,
    MAX_COPIES,
    CardKey,
    base_number,
    card_number,
    normalise_number,
    normalise_text,
)
from domain.decks.checks import (
    DEFAULT_EX_DECK_LIMIT,
    DEFAULT_MIX_TWO_MINIMUM,
    DeckCheck,
    DeckRules,
    Unchecked,
    check_deck,
)
from domain.decks.decklist import DeckEntry, DeckLine, Decklist, fingerprint
from domain.decks.defaults import default_titles
from domain.decks.errors import DataFileError, DecklistError, LineProblem
from domain.decks.parsing import MAX_BYTES, MAX_LINES, parse_decklist
from domain.decks.regulation import Regulation, Violation, parse_regulation
from domain.decks.restricted import CardLimit, GroupLimit, RestrictedList, load_restricted_list
from domain.decks.stored import read_stored_decklist
from domain.decks.titles import Title, TitleCatalogue, load_titles

__all__ = [
    "DECK_SIZE",
    "DEFAULT_EX_DECK_LIMIT",
    "DEFAULT_MIX_TWO_MINIMUM",
    "MAX_BYTES",
    "MAX_COPIES",
    "MAX_LINES",
    "CardDatabase",
    "CardKey",
    "CardLimit",
    "CardRecord",
    "DataFileError",
    "DeckCheck",
    "DeckEntry",
    "DeckLine",
    "DeckRules",
    "Decklist",
    "DecklistError",
    "GroupLimit",
    "LineProblem",
    "Regulation",
    "RestrictedList",
    "Title",
    "TitleCatalogue",
    "Unchecked",
    "Violation",
    "base_number",
    "card_number",
    "check_deck",
    "default_titles",
    "fingerprint",
    "load_card_database",
    "load_restricted_list",
    "load_titles",
    "normalise_number",
    "normalise_text",
    "parse_decklist",
    "parse_regulation",
    "read_stored_decklist",
]
