"""Construction rules and regulations (R-DECK-1…3, R-REG-1…4, R-REG-7)."""

from __future__ import annotations

import pytest

from domain.decks import (
    CardKey,
    DeckRules,
    Regulation,
    Unchecked,
    check_deck,
    load_card_database,
    load_restricted_list,
    parse_decklist,
    parse_regulation,
)
from domain.errors import InvalidInput
from tests.domain.decks.helpers import (
    EVENT_DATE,
    EXAMPLES,
    FORMAT_EXAMPLE,
    KEION,
    YURUYURI,
    check,
    deck,
    keys,
    legal_keion,
    spread,
)


def test_a_legal_deck() -> None:
    # R-DECK-1, R-DECK-2, R-REG-1: 60 cards, at most 4 of each, mix admits any title.
    result = check(legal_keion())
    assert result.legal
    assert result.total == 60
    assert dict(result.titles) == {KEION: 60}
    assert result.violations == ()


@pytest.mark.parametrize(
    ("total", "key"), [(59, "decks.too_few_cards"), (61, "decks.too_many_cards")]
)
def test_exactly_60_cards(total: int, key: str) -> None:
    # R-DECK-1: no more, no fewer; the violation says how many there are.
    result = check(deck({KEION: spread(total)}))
    assert not result.legal
    (violation,) = result.violations
    assert (violation.rule, violation.key) == ("R-DECK-1", key)
    assert violation.params["total"] == total


def test_at_most_4_copies() -> None:
    # R-DECK-2: at most 4 of the same card; name the card and its count.
    result = check(deck({KEION: [(5, "01-001"), *spread(55, start=2)]}))
    (violation,) = result.violations
    assert (violation.rule, violation.key) == ("R-DECK-2", "decks.too_many_copies")
    assert violation.cards == (CardKey(KEION, "01-001"),)
    assert violation.params["count"] == 5
    assert violation.params["number"] == "01-001"


def test_duplicate_lines_count_together() -> None:
    # R-DECK-2: duplicate lines for the same card are summed.
    result = check(deck({KEION: [(3, "01-001"), (2, "01-001"), *spread(55, start=2)]}))
    assert keys(result) == ["decks.too_many_copies"]


def test_the_same_number_in_two_titles_is_two_cards() -> None:
    # R-DECK-2: the same card = same title AND same number.
    result = check(
        deck(
            {
                KEION: [(4, "01-001"), *spread(26, start=2)],
                YURUYURI: [(4, "01-001"), *spread(26, start=2)],
            }
        )
    )
    assert result.legal


def test_parallels_count_as_the_same_card() -> None:
    # R-DECK-3: 01-001a counts as 01-001.
    result = check(deck({KEION: [(3, "01-001"), (2, "01-001a"), *spread(55, start=2)]}))
    (violation,) = result.violations
    assert (violation.rule, violation.key) == ("R-DECK-3", "decks.too_many_copies_parallel")
    assert violation.params["count"] == 5
    assert violation.params["numbers"] == ("01-001", "01-001a")


def test_aliases_count_as_the_title() -> None:
    # R-REG-7: けいおん！！ cards are けいおん！ cards, so copies add up across the logos.
    result = check(
        deck({KEION: [(3, "01-001"), *spread(55, start=2)], "けいおん！！": [(2, "01-001")]}),
        Regulation.SINGLE,
    )
    assert keys(result) == ["decks.too_many_copies"]
    assert dict(result.titles) == {KEION: 60}


def test_unknown_title_names_the_line_and_suggests() -> None:
    # R-REG-7: an unknown title is a violation naming the line, with the closest titles.
    result = check(deck({KEION: spread(56), "ゆるゆるり": [(4, "01-001")]}))
    (violation,) = result.violations
    assert (violation.rule, violation.key) == ("R-REG-7", "decks.unknown_title")
    assert violation.params["title"] == "ゆるゆるり"
    assert violation.params["lines"] == ("17",)
    assert violation.params["suggestions"][0] == YURUYURI  # type: ignore[index]


def test_unknown_title_without_a_close_match() -> None:
    # R-REG-7
    result = check(deck({KEION: spread(56), "Zzyzx": [(4, "01-001")]}))
    assert keys(result) == ["decks.unknown_title_no_match"]


def test_single_regulation_admits_one_title() -> None:
    # R-REG-2: list the other titles found.
    result = check(deck({KEION: spread(52), YURUYURI: spread(8)}), Regulation.SINGLE)
    (violation,) = result.violations
    assert (violation.rule, violation.key) == ("R-REG-2", "decks.single_other_titles")
    assert violation.params["main"] == KEION
    assert violation.params["others"] == (f"{YURUYURI} ×8",)
    assert all(card.title == YURUYURI for card in violation.cards)
    assert check(legal_keion(), Regulation.SINGLE).legal


def test_a_single_event_with_a_designated_title_accepts_only_that_title() -> None:
    # R-REG-2: 60 けいおん！ cards passed in a single event made for ゆるゆり.
    result = check(legal_keion(), Regulation.SINGLE, designated=(YURUYURI,))
    (violation,) = result.violations
    assert (violation.rule, violation.key) == ("R-REG-2", "decks.single_not_designated")
    assert violation.params == {"titles": (f"{KEION} ×60",), "allowed": (YURUYURI,)}
    assert set(violation.cards) == {entry.key for entry in result.decklist.entries}
    # The designated title (any spelling of it) passes; no designation means any one title.
    assert check(legal_keion(), Regulation.SINGLE, designated=("映画けいおん！",)).legal
    assert check(legal_keion(), Regulation.SINGLE).legal
    assert check(legal_keion(), Regulation.SINGLE, designated=(" ",)).legal


def test_a_single_event_refuses_an_unknown_designated_title() -> None:
    # The organizer's mistake, caught like a release event's (R-REG-4).
    with pytest.raises(InvalidInput) as caught:
        check(legal_keion(), Regulation.SINGLE, designated=("けいおんっ",))
    assert caught.value.key == "decks.unknown_designated_title"


def test_mix_admits_any_titles() -> None:
    # R-REG-1
    result = check(deck({KEION: spread(20), YURUYURI: spread(20), "WORKING!!": spread(20)}))
    assert result.legal


def test_mix_two_needs_two_titles_with_15_each() -> None:
    # R-REG-3: exactly two titles, at least 15 of each.
    assert check(deck({KEION: spread(45), YURUYURI: spread(15)}), Regulation.MIX_TWO).legal
    (violation,) = check(
        deck({KEION: spread(46), YURUYURI: spread(14)}), Regulation.MIX_TWO
    ).violations
    assert (violation.rule, violation.key) == ("R-REG-3", "decks.mix_two_too_few")
    assert violation.params == {"title": YURUYURI, "count": 14, "minimum": 15, "missing": 1}


def test_mix_two_with_one_title() -> None:
    # R-REG-3
    assert keys(check(legal_keion(), Regulation.MIX_TWO)) == ["decks.mix_two_one_title"]


def test_mix_two_with_three_titles() -> None:
    # R-REG-3
    result = check(
        deck({KEION: spread(20), YURUYURI: spread(20), "WORKING!!": spread(20)}), Regulation.MIX_TWO
    )
    assert keys(result) == ["decks.mix_two_too_many_titles"]
    assert result.violations[0].params["count"] == 3


def test_mix_two_minimum_is_a_setting() -> None:
    # R-REG-3: later regulations raised the minimum.
    decklist = deck({KEION: spread(40), YURUYURI: spread(20)})
    assert check(decklist, Regulation.MIX_TWO).legal
    assert keys(check(decklist, Regulation.MIX_TWO, mix_two_minimum=25)) == [
        "decks.mix_two_too_few"
    ]
    with pytest.raises(InvalidInput):
        check(decklist, Regulation.MIX_TWO, mix_two_minimum=0)


def test_mix_two_example_file() -> None:
    # R-REG-3
    decklist = parse_decklist((EXAMPLES / "mix-two.txt").read_bytes())
    assert check(decklist, Regulation.MIX_TWO).legal


def test_release_event_admits_the_designated_titles_only() -> None:
    # R-REG-4: only the titles the organizer designates.
    decklist = deck({KEION: spread(40), YURUYURI: spread(20)})
    assert check(decklist, Regulation.EVENT, designated=(KEION, YURUYURI)).legal
    (violation,) = check(decklist, Regulation.EVENT, designated=("けいおん",)).violations
    assert (violation.rule, violation.key) == ("R-REG-4", "decks.event_other_titles")
    assert violation.params == {"titles": (f"{YURUYURI} ×20",), "allowed": (KEION,)}


def test_release_event_designation_is_validated() -> None:
    # R-REG-4: a bad designation is the organizer's error, not a deck violation.
    with pytest.raises(InvalidInput) as caught:
        check(legal_keion(), Regulation.EVENT)
    assert caught.value.key == "decks.no_designated_titles"
    with pytest.raises(InvalidInput) as caught:
        check(legal_keion(), Regulation.EVENT, designated=("けいおんっ",))
    assert caught.value.key == "decks.unknown_designated_title"
    assert caught.value.rule == "R-REG-4"


def test_every_violation_is_reported_at_once() -> None:
    # R-DECK-1, R-DECK-2, R-REG-2, R-REG-7 together.
    result = check(
        deck({KEION: [(6, "01-001"), *spread(40, start=2)], YURUYURI: spread(4), "謎": spread(4)}),
        Regulation.SINGLE,
    )
    assert [violation.rule for violation in result.violations] == [
        "R-REG-7",
        "R-DECK-1",
        "R-DECK-2",
        "R-REG-2",
    ]


@pytest.mark.parametrize(
    ("text", "regulation"),
    [
        ("mix", Regulation.MIX),
        ("single", Regulation.SINGLE),
        ("mix-two", Regulation.MIX_TWO),
        ("mix_two", Regulation.MIX_TWO),
        ("MIX-Two limited", Regulation.MIX_TWO),
        ("event", Regulation.EVENT),
        ("シングル", Regulation.SINGLE),
        ("発売記念大会", Regulation.EVENT),
    ],
)
def test_regulation_names(text: str, regulation: Regulation) -> None:
    assert parse_regulation(text) is regulation


def test_unknown_regulation() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_regulation("standard")
    assert caught.value.key == "decks.unknown_regulation"


def test_rules_default_to_the_shipped_titles() -> None:
    rules = DeckRules(regulation=Regulation.SINGLE, date=EVENT_DATE)
    assert len(rules.catalogue) == 36
    assert check_deck(legal_keion(), rules).legal


def test_a_check_says_what_it_could_not_check_r_reg_5_r_reg_8() -> None:
    # No card database and no restricted list ship: a list of made-up numbers is legal by
    # the construction rules alone, and the check says the numbers were checked against no
    # card list (R-REG-8) and no restricted list was applied (R-REG-5).
    made_up = deck({KEION: [(4, f"99-{900 + n}") for n in range(15)]})
    result = check(made_up)
    assert result.legal
    assert result.unchecked == (Unchecked.CARD_NUMBERS, Unchecked.RESTRICTED_LIST)
    cards = load_card_database(
        "title,number,name,type,release_date\n"
        + "".join(f"{KEION},99-{900 + n},x,キャラ,2013-01-01\n" for n in range(15))
    )
    restricted = load_restricted_list(FORMAT_EXAMPLE)
    both = check(made_up, cards=cards, restricted=restricted)
    assert both.unchecked == ()
    assert check(made_up, cards=cards).unchecked == (Unchecked.RESTRICTED_LIST,)
