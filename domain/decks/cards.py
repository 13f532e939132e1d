"""Card identity and text normalisation (R-DECK-2, R-DECK-3).

A card is a (title, card number) pair. Text is normalised with NFKC so that full-width and
half-width forms compare equal (`０１－００１` is `01-001`). A trailing lowercase letter marks a
parallel card, which counts as the number without the letter (`01-001a` is `01-001`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_COPIES = 4
"""R-DECK-2: at most four copies of the same card."""

DECK_SIZE = 60
"""R-DECK-1: exactly sixty cards."""

# Dashes people type between the two parts of a card number: ASCII hyphen-minus plus the
# Unicode hyphens, dashes and minus signs, and the katakana long-vowel mark that Japanese IMEs
# produce for "-" in full-width mode. NFKC already maps the full-width hyphen-minus to "-".
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u30fc\uff70\u2500\u2501"
_DASH_TABLE = str.maketrans(dict.fromkeys(_DASHES, "-"))

NUMBER_PATTERN = rf"[0-9A-Za-z]{{1,4}}[-{_DASHES}][0-9]{{2,4}}[A-Za-z]{{0,2}}"
"""A card number as written, after `normalise_text`: `01-001`, `12-034a`, `P-012`, `P-012a`."""

_NUMBER_RE = re.compile(
    r"(?P<prefix>[0-9A-Za-z]{1,4})-(?P<serial>[0-9]{2,4})(?P<parallel>[A-Za-z]{0,2})"
)
_SPACES_RE = re.compile(r"\s+")


def normalise_text(text: str) -> str:
    """NFKC, with runs of white space collapsed to one space and the ends trimmed."""
    return _SPACES_RE.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def normalise_number(text: str) -> str | None:
    """The printed card number in canonical form (`P-012a`), or None if it is not one.

    The prefix is upper-cased (`p-012` → `P-012`) and a parallel suffix lower-cased.
    """
    candidate = normalise_text(text).translate(_DASH_TABLE).replace(" ", "")
    match = _NUMBER_RE.fullmatch(candidate)
    if match is None:
        return None
    prefix = match["prefix"].upper()
    return f"{prefix}-{match['serial']}{match['parallel'].lower()}"


def base_number(number: str) -> str:
    """R-DECK-3: the number without its parallel letters (`01-001a` → `01-001`).

    `number` must already be canonical (see `normalise_number`).
    """
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")


def card_number(text: str) -> str | None:
    """The card's identity number (canonical, parallel letters dropped), or None."""
    number = normalise_number(text)
    return None if number is None else base_number(number)


@dataclass(frozen=True, order=True)
class CardKey:
    """The identity of a card (R-DECK-2): its title and its number without parallel letters."""

    title: str
    number: str

    def __str__(self) -> str:
        return f"{self.title} {self.number}"


_QUOTES = "「」『』\"'“”‘’《》〈〉"

# Marks printed or typed where a title has an apostrophe: the acute accent of `WORKING´!!`
# (as on the cards), primes, modifier letters and curly quotes. NFKC would turn the accent
# into a space and a combining mark (`WORKING ́!!`), so they are folded to `'` before it.
_APOSTROPHES = "\u00b4\u02b9\u02bb\u02bc\u02bd\u02ca\u2018\u2019\u201b\u2032\u2035\uff07`"
_APOSTROPHE_TABLE = str.maketrans(dict.fromkeys(_APOSTROPHES, "'"))


def fold_apostrophes(text: str) -> str:
    """`text` with every apostrophe-like mark written as `'` (U+0027)."""
    return text.translate(_APOSTROPHE_TABLE)


def title_text(text: str) -> str:
    """A title as written, tidied for display: apostrophes folded, NFKC, trimmed, outer quotes
    removed. Titles shown to players after a check are the titles file's own spelling
    (`TitleCatalogue.canonical`), not this."""
    # A title that went through NFKC already (copied from elsewhere) has the accent as a
    # space and a combining acute accent: fold that too.
    tidy = normalise_text(fold_apostrophes(text)).replace(" \u0301", "'")
    return tidy.strip(_QUOTES).strip()


def title_key(text: str) -> str:
    """The exact comparison key of a title: NFKC, case-folded, no white space or outer quotes."""
    return "".join(title_text(text).casefold().split())


def loose_title_key(text: str) -> str:
    """The forgiving key: `title_key` without punctuation and symbols (！, ☆, ・, …)."""
    return "".join(
        char for char in title_key(text) if unicodedata.category(char)[0] not in {"P", "S"}
    )
