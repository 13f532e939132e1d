"""The optional card database: unknown cards (R-REG-1) and release dates (R-REG-8)."""

from __future__ import annotations

import datetime as dt

import pytest

from domain.decks import CardKey, DataFileError, Regulation, load_card_database
from tests.domain.decks.helpers import KEION, check, deck, keys, spread


def database(*extra: str, header: str = "title,number,name,type,release_date,product") -> str:
    rows = [
        f"けいおん！,01-{serial:03d},カード{serial},キャラクター,2013-03-28,スターター"
        for serial in range(1, 16)
    ]
    return "\n".join([header, *rows, *extra]) + "\n"


def test_a_deck_of_known_released_cards_is_legal() -> None:
    cards = load_card_database(database())
    assert len(cards) == 15
    assert check(deck({KEION: spread(60)}), cards=cards).legal


def test_unknown_cards_are_violations() -> None:
    # R-REG-1: a card the database does not list is not a released card.
    cards = load_card_database(database())
    result = check(deck({KEION: [*spread(56), (4, "01-099")]}), cards=cards)
    (violation,) = result.violations
    assert (violation.rule, violation.key) == ("R-REG-1", "decks.unknown_card")
    assert violation.cards == (CardKey(KEION, "01-099"),)


def test_cards_released_after_the_event_date_are_violations() -> None:
    # R-REG-8: products sold early at events are legal only from the official release date.
    cards = load_card_database(
        database("けいおん！,01-016,先行カード,イベント,2014-06-15,先行販売")
    )
    decklist = deck({KEION: [*spread(56), (4, "01-016")]})
    result = check(decklist, cards=cards, date=dt.date(2014, 6, 14))
    (violation,) = result.violations
    assert (violation.rule, violation.key) == ("R-REG-8", "decks.not_yet_released")
    assert violation.params["release_date"] == "2014-06-15"
    assert violation.params["name"] == "先行カード"
    assert check(decklist, cards=cards, date=dt.date(2014, 6, 15)).legal


def test_parallels_and_aliases_are_looked_up_as_their_card() -> None:
    # R-DECK-3, R-REG-7: 01-001a is 01-001; 映画けいおん！ is けいおん！.
    cards = load_card_database(database())
    result = check(
        deck({KEION: spread(56), "映画けいおん！": [(4, "01-015a")]}),
        Regulation.SINGLE,
        cards=cards,
    )
    assert result.legal, keys(result)


def test_without_a_database_every_structural_rule_is_still_checked() -> None:
    # R-DECK-1
    assert keys(check(deck({KEION: spread(59)}))) == ["decks.too_few_cards"]


def test_japanese_spreadsheet_exports_load() -> None:
    data = database(header="title,number,name,type,release_date").replace("2013-03-28", "2013/3/28")
    cards = load_card_database(("\ufeff" + data).encode("utf-8"))
    assert cards.records[0].release_date == dt.date(2013, 3, 28)
    sjis = load_card_database(data.replace("\n", "\r\n").encode("cp932"))
    assert sjis.records[0].name == "カード1"


@pytest.mark.parametrize(
    ("text", "key", "where", "field"),
    [
        (
            "title,number,name,release_date\nA,01-001,x,2014-01-01\n",
            "decks.data.bad_header",
            "cards.csv:1",
            "type",
        ),
        (
            "title,number,name,type,release_date\nA,01-001,x,t,someday\n",
            "decks.data.bad_date",
            "cards.csv:2",
            "release_date",
        ),
        (
            "title,number,name,type,release_date\nA,1_1,x,t,2014-01-01\n",
            "decks.data.bad_number",
            "cards.csv:2",
            "number",
        ),
        (
            "title,number,name,type,release_date\n\nA,01-001,x,t,2014-01-01\n,01-002,x,t,2014-01-01\n",
            "decks.data.bad_text",
            "cards.csv:4",
            "title",
        ),
    ],
)
def test_a_malformed_database_names_the_line_and_column(
    text: str, key: str, where: str, field: str
) -> None:
    with pytest.raises(DataFileError) as caught:
        load_card_database(text)
    assert caught.value.key == key
    assert caught.value.params["where"] == where
    assert caught.value.params["field"] == field


def test_a_short_row_is_rejected() -> None:
    with pytest.raises(DataFileError) as caught:
        load_card_database("title,number,name,type,release_date\nA,01-001\n")
    assert caught.value.key == "decks.data.bad_row"
    assert caught.value.params["where"] == "cards.csv:2"
