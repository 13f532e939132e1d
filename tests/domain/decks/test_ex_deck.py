"""The EX deck (R-DECK-6): an organizer setting, off by default (the 2014
regulation has none); up to 15 cards beside the 60-card main deck,
「デッキ60枚、エクストラ15枚」."""

from __future__ import annotations

import pytest

from domain.decks import (
    DEFAULT_EX_DECK_LIMIT,
    DecklistError,
    DeckRules,
    Regulation,
    check_deck,
    fingerprint,
    parse_decklist,
    read_stored_decklist,
)
from domain.decks.cards import CardKey
from domain.errors import InvalidInput
from tests.domain.decks.helpers import EVENT_DATE, KEION, YURUYURI, check, keys, spread


def _lines(cards: list[tuple[int, str]]) -> str:
    return "".join(f"{count} {number}\n" for count, number in cards)


MAIN = f"# {KEION}\n" + _lines(spread(60))
WITH_EX = MAIN + f"# EX\n# {KEION}\n" + _lines(spread(12, prefix="02"))


@pytest.mark.parametrize(
    "marker",
    [
        "# EX",
        "[EX]",
        "【ＥＸ】",
        "# エクストラ",
        "■EXデッキ",
        "# Extra deck",
        "EX",
        "エクストラデッキ",
    ],
)
def test_the_text_format_reads_an_ex_section(marker: str) -> None:
    decklist = parse_decklist(MAIN + f"{marker}\n4 02-001\n2 02-002\n")
    assert decklist.total == 60
    assert decklist.ex_total == 6
    # The title section goes on inside the EX deck.
    assert decklist.ex_counts() == {
        CardKey("けいおん!", "02-001"): 4,
        CardKey("けいおん!", "02-002"): 2,
    }


def test_a_main_header_goes_back_to_the_main_deck() -> None:
    decklist = parse_decklist(f"# {KEION}\n# EX\n4 02-001\n# メイン\n4 01-001\n")
    assert decklist.total == 4
    assert decklist.ex_total == 4


def test_csv_reads_a_deck_column() -> None:
    text = (
        "count,title,number,name,deck\n"
        "4,けいおん！,01-001,唯,main\n"
        "2,けいおん！,02-001,,EX\n"
        "1,けいおん！,02-002,,エクストラ\n"
        "3,けいおん！,01-002,,\n"
    )
    decklist = parse_decklist(text)
    assert decklist.total == 7
    assert decklist.ex_total == 3


def test_a_bad_deck_column_value_is_a_line_problem() -> None:
    with pytest.raises(DecklistError) as error:
        parse_decklist("count,title,number,deck\n4,けいおん！,01-001,side\n")
    assert [(p.line, p.key) for p in error.value.problems] == [(2, "decks.parse.bad_deck")]


def test_the_ex_deck_is_off_by_default() -> None:
    # R-DECK-6: the 2014 regulation has no EX deck.
    assert DeckRules(regulation=Regulation.MIX, date=EVENT_DATE).ex_deck is False
    result = check(parse_decklist(WITH_EX))
    assert keys(result) == ["decks.ex_not_allowed"]
    assert result.violations[0].rule == "R-DECK-6"
    assert result.violations[0].params["total"] == 12


def test_an_ex_deck_of_up_to_15_cards_is_legal_where_allowed() -> None:
    # R-DECK-6: 「デッキ60枚、エクストラ15枚」.
    text = MAIN + f"# EX\n# {KEION}\n" + _lines(spread(DEFAULT_EX_DECK_LIMIT, prefix="02"))
    result = check(parse_decklist(text), ex_deck=True)
    assert result.legal, result.violations
    assert (result.total, result.ex_total) == (60, 15)


def test_more_than_15_ex_cards_is_a_violation() -> None:
    text = MAIN + f"# EX\n# {KEION}\n" + _lines(spread(16, prefix="02"))
    result = check(parse_decklist(text), ex_deck=True)
    assert keys(result) == ["decks.ex_too_many"]
    assert result.violations[0].params == {"total": 16, "max": 15, "extra": 1}


def test_the_ex_deck_does_not_count_toward_the_60() -> None:
    # R-DECK-1 is the main deck's: 56 + 4 EX is still 4 short.
    text = f"# {KEION}\n" + _lines(spread(56)) + "# EX\n4 02-001\n"
    assert keys(check(parse_decklist(text), ex_deck=True)) == ["decks.too_few_cards"]


def test_four_copies_count_across_both_decks_unless_the_organizer_says_otherwise() -> None:
    # R-DECK-2 with R-DECK-6: 3 in the main deck and 2 in the EX deck are 5 copies.
    main = [(3, "01-001"), *spread(57, start=2)]
    text = f"# {KEION}\n" + _lines(main) + "# EX\n2 01-001\n"
    shared = check(parse_decklist(text), ex_deck=True)
    assert keys(shared) == ["decks.too_many_copies"]
    assert shared.violations[0].params["count"] == 5
    apart = check(parse_decklist(text), ex_deck=True, ex_copies_shared=False)
    assert apart.legal
    five_in_ex = f"# {KEION}\n" + _lines(spread(60)) + "# EX\n5 03-001\n"
    assert keys(check(parse_decklist(five_in_ex), ex_deck=True, ex_copies_shared=False)) == [
        "decks.too_many_copies"
    ]


def test_the_regulation_applies_to_the_ex_deck_too() -> None:
    # R-REG-2: a single deck's EX cards are of its title too.
    text = MAIN + f"# EX\n# {YURUYURI}\n4 01-001\n"
    assert keys(check(parse_decklist(text), Regulation.SINGLE, ex_deck=True)) == [
        "decks.single_other_titles"
    ]


def test_a_bad_ex_limit_is_the_organizers_error() -> None:
    rules = DeckRules(regulation=Regulation.MIX, date=EVENT_DATE, ex_deck=True, ex_deck_limit=61)
    with pytest.raises(InvalidInput) as error:
        check_deck(parse_decklist(MAIN), rules)
    assert error.value.key == "decks.bad_ex_deck_limit"


def test_the_ex_deck_is_shown_apart_and_round_trips_in_both_formats() -> None:
    result = check(parse_decklist(WITH_EX), ex_deck=True)
    text = result.decklist.canonical_text()
    main_part, ex_part = text.split("\n# EX\n")
    assert "02-001" not in main_part
    assert ex_part.startswith(f"# {KEION}\n")
    csv = result.decklist.canonical_csv()
    assert csv.splitlines()[0] == "count,title,number,name,deck"
    for again in (parse_decklist(text), parse_decklist(csv), read_stored_decklist(csv)):
        assert again.with_titles(lambda _: KEION).counts() == result.decklist.counts()
        assert again.with_titles(lambda _: KEION).ex_counts() == result.decklist.ex_counts()


def test_the_ex_deck_changes_the_fingerprint_and_lists_without_one_keep_theirs() -> None:
    # R-DECK-4: moving a card between the decks is a change.
    plain = parse_decklist(MAIN)
    assert "deck" not in plain.canonical_csv().splitlines()[0]
    moved = parse_decklist(f"# {KEION}\n" + _lines(spread(56)) + "# EX\n4 01-015\n")
    assert fingerprint(moved) != fingerprint(plain)
    assert moved.counts() != plain.counts()
