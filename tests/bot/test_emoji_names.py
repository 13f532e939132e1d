"""Emoji joined by zero-width joiners stay joined where names are shown (a family 👨‍👩‍👧 is
not three people); a joiner anywhere else is dropped. The rule is Unicode's grapheme rule
GB11, checked against the `regex` package's own segmentation."""

from __future__ import annotations

import csv
import io
import itertools
from fractions import Fraction

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ui.emoji import (
    EXTENDED_PICTOGRAPHIC,
    ZWJ,
    is_pictographic,
    joins_emoji,
    without_stray_joiners,
)
from bot.ui.standings import (
    StandingRow,
    clean_name,
    display_width,
    standings_csv,
    standings_page,
    truncate,
)

FAMILY = "👨\u200d👩\u200d👧"
TECHNOLOGIST = "👩🏽\u200d💻"  # a skin tone between the emoji and its joiner
HEART_ON_FIRE = "❤️\u200d🔥"  # a variation selector between them
RAINBOW_FLAG = "🏳️\u200d🌈"


def test_joined_emoji_keep_their_joiners_in_standings_names() -> None:
    for name in (FAMILY, TECHNOLOGIST, HEART_ON_FIRE, RAINBOW_FLAG, f"平沢{FAMILY}唯"):
        assert clean_name(name) == name


def test_stray_joiners_are_dropped() -> None:
    assert clean_name("a\u200db") == "ab"
    assert clean_name("平沢\u200d唯") == "平沢唯"
    assert clean_name(f"\u200d{FAMILY}\u200d") == FAMILY
    assert clean_name("👨\u200d\u200d👩") == "👨👩"  # two in a row join nothing
    # A flag is two regional indicators, not a pictograph: nothing for the joiner to join.
    assert clean_name("@everyone 平沢🇯🇵\u200d\u202e") == "@everyone 平沢🇯🇵"


def test_the_family_is_one_family_in_the_standings_page_and_csv() -> None:
    rows = [StandingRow(1, FAMILY, 9, Fraction(6)), StandingRow(2, "Alice", 6, Fraction(3))]
    embed, _ = standings_page(rows, "Cup", "ja", 0)
    assert FAMILY in (embed.description or "")
    table = standings_csv(rows, "en").decode("utf-8-sig")
    assert next(csv.reader(io.StringIO(table.splitlines()[1])))[1] == FAMILY


def test_a_joined_sequence_takes_the_room_of_one_emoji() -> None:
    # A monospace block shows the family as one wide glyph: two columns, not six.
    assert display_width(FAMILY) == 2
    assert display_width(TECHNOLOGIST) == 2
    assert display_width("👨👩👧") == 6
    rows = [StandingRow(1, FAMILY, 9, Fraction(6)), StandingRow(2, "ab", 6, Fraction(3))]
    embed, _ = standings_page(rows, "Cup", "ja", 0)
    body = [line for line in (embed.description or "").splitlines() if line.strip()[:1].isdigit()]
    assert len({display_width(line) for line in body}) == 1, body


def test_a_cut_never_leaves_a_joiner_dangling() -> None:
    name = "ab" + FAMILY * 3
    for columns in range(1, 10):
        cut = truncate(name, columns)
        assert display_width(cut) <= columns
        assert without_stray_joiners(cut) == cut, (columns, cut)


def test_the_pictographic_table_is_unicodes() -> None:
    reference = regex.compile(r"\p{Extended_Pictographic}")
    mismatched = [
        hex(code)
        for code in range(0x110000)
        if is_pictographic(chr(code)) != (reference.match(chr(code)) is not None)
    ]
    assert mismatched == []
    assert all(a <= b < c for (a, b), (c, _) in itertools.pairwise(EXTENDED_PICTOGRAPHIC))


# --- properties --------------------------------------------------------------------------------

_GRAPHEME = regex.compile(r"\X")
_PICTOGRAPH = regex.compile(r"\p{Extended_Pictographic}")


def reference_joins(text: str, index: int) -> bool:
    """GB11 as the `regex` package segments text: the ZWJ and the pictograph after it are in
    one grapheme cluster."""
    if index + 1 >= len(text) or not _PICTOGRAPH.match(text[index + 1]):
        return False
    ends = {match.end() for match in _GRAPHEME.finditer(text)}
    return index + 1 not in ends


# Emoji and what goes between them, and the ordinary letters and marks around them.
_PIECES = st.sampled_from(
    [
        *(ZWJ, ZWJ, ZWJ, "👨", "👩", "👧", "💻", "🔥", "❤", "🏳", "🌈", "©", "\ufe0f"),
        *("\U0001f3fd", "\U000e0067", "\u0301", "\u200c", "a", "平", " ", "1", "#", "\u20e3"),
        *("🇯", "\u202e"),
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.text(_PIECES, max_size=16))
def test_a_joiner_is_kept_exactly_when_unicode_joins_the_emoji_around_it(text: str) -> None:
    expected = "".join(
        char for index, char in enumerate(text) if char != ZWJ or reference_joins(text, index)
    )
    assert without_stray_joiners(text) == expected
    for index, char in enumerate(text):
        if char == ZWJ:
            assert joins_emoji(text, index) == reference_joins(text, index), (text, index)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_only_joiners_are_removed_and_once_is_enough(text: str) -> None:
    cleaned = without_stray_joiners(text)
    assert cleaned.replace(ZWJ, "") == text.replace(ZWJ, "")
    assert without_stray_joiners(cleaned) == cleaned
    for index, char in enumerate(cleaned):
        if char == ZWJ:
            assert is_pictographic(cleaned[index + 1])


@settings(max_examples=300, deadline=None)
@given(st.text(st.one_of(_PIECES, st.characters()), max_size=30))
def test_shown_names_keep_only_joining_joiners(text: str) -> None:
    shown = clean_name(text)
    assert without_stray_joiners(shown) == shown
    # Every joined pair of the name survives its cleaning.
    kept = sum(1 for index, char in enumerate(shown) if char == ZWJ)
    assert kept <= text.count(ZWJ)
