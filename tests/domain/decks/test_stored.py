"""Stored decklists read back exactly (R-DECK-4): what is stored is the
canonical CSV of the checked list, and `read_stored_decklist` must give back the same deck and
fingerprint whatever its size, with the titles file's own spelling."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from domain.decks import (
    MAX_BYTES,
    Decklist,
    DecklistError,
    Regulation,
    default_titles,
    fingerprint,
    parse_decklist,
    read_stored_decklist,
)
from domain.decks.decoding import byte_size
from tests.domain.decks.helpers import KEION, check, legal_keion


def _same_deck(stored: Decklist, original: Decklist) -> None:
    for deck in ("entries", "ex_entries"):
        got = [(e.key, e.count, e.name) for e in getattr(stored, deck)]
        want = [(e.key, e.count, e.name) for e in getattr(original, deck)]
        assert got == want, deck
    assert fingerprint(stored) == fingerprint(original)


def test_a_list_whose_stored_form_outgrows_the_input_limit_still_reads_back() -> None:
    # A ~58 KB legal list was accepted, but its stored form passed 64 KB (NFKC turns
    # ﷺ into 18 characters, CSV doubles every ") and could no longer be read.
    name = "ﷺ" * 1300 + '"'
    text = f"# {KEION}\n" + "".join(f"4 01-{n:03d} {name}\n" for n in range(1, 16))
    assert 55_000 < byte_size(text) <= MAX_BYTES
    result = check(parse_decklist(text), Regulation.SINGLE)
    assert result.legal
    stored = result.decklist.canonical_csv()
    assert byte_size(stored) > MAX_BYTES
    with pytest.raises(DecklistError) as refused:
        parse_decklist(stored, filename="deck.csv")  # the old read-back path
    assert refused.value.key == "decks.parse.too_large"
    again = read_stored_decklist(stored)
    _same_deck(again, result.decklist)
    assert fingerprint(again) == result.fingerprint


def test_a_stored_name_longer_than_the_csv_modules_field_limit_reads_back() -> None:
    # One 24 KB name of ﷺ is 144,000 characters stored: over csv's 131,072 field limit.
    text = f"# {KEION}\n4 01-001 {'ﷺ' * 8000}\n" + _body_from(2)
    result = check(parse_decklist(text), Regulation.SINGLE)
    assert result.legal
    again = read_stored_decklist(result.decklist.canonical_csv())
    _same_deck(again, result.decklist)
    assert len(again.entries[0].name) == 18 * 8000


def _body_from(start: int) -> str:
    return "".join(f"4 01-{n:03d}\n" for n in range(start, 16))


def test_stored_titles_keep_the_title_lists_spelling() -> None:
    # 「けいおん！」 with a full-width ！, as the title list writes it, not the NFKC form
    # 「けいおん!」 that the old read-back printed in /deck show and the published file.
    result = check(
        parse_decklist("# けいおん!\n" + legal_keion().canonical_text().split("\n", 1)[1])
    )
    again = read_stored_decklist(result.decklist.canonical_csv())
    assert {line.title for line in again.lines} == {KEION}
    assert "# けいおん！\n" in again.canonical_text()
    assert "けいおん!" not in again.canonical_text()
    assert fingerprint(again) == result.fingerprint


@pytest.mark.parametrize(
    "text",
    [
        "",
        "count,title,number\n4,a,01-001\n",  # not the stored header
        "count,title,number,name\n",  # no cards
        "count,title,number,name\n0,a,01-001,\n",
        "count,title,number,name\nfour,a,01-001,\n",
        "count,title,number,name\n4,a,1,\n",
        "count,title,number,name\n4,a,01-001\n",
        'count,title,number,name\n4,"a,01-001,\n',
        'count,title,number,name\n4,a"b,01-001,\n',
        'count,title,number,name\n4,"a"b,01-001,\n',
        "count,title,number,name,deck\n4,a,01-001,,side\n",
        "count,title,number,name\n" + "9" * 5000 + ",a,01-001,\n",
    ],
)
def test_a_damaged_stored_list_is_a_typed_error(text: str) -> None:
    with pytest.raises(DecklistError) as error:
        read_stored_decklist(text)
    assert error.value.key == "decks.parse.stored_corrupt"


# --- property: every accepted list re-reads to the same deck and fingerprint ------------------

_TITLES = [
    spelling for title in default_titles().titles for spelling in (title.name, *title.aliases)
]
# Player text with everything that changes size or needs quoting when stored.
_NAME_CHARS = st.sampled_from(list("ﷺ\"',`;ｱ１ＡabＷ平沢 　\t…㍿"))
_names = st.text(_NAME_CHARS, max_size=12)
_numbers = st.builds(
    "{}-{:03d}{}".format,
    st.sampled_from(["01", "02", "P", "１２"]),
    st.integers(1, 120),
    st.sampled_from(["", "", "a", "b"]),
)
_card = st.tuples(st.integers(1, 60), _numbers, _names)
_title = st.one_of(st.sampled_from(_TITLES), st.text(_NAME_CHARS, min_size=1, max_size=8))
_section = st.tuples(_title, st.lists(_card, min_size=1, max_size=6))


def _text(main: list[tuple[str, list[tuple[int, str, str]]]], ex: list[object]) -> str:
    out: list[str] = []
    for part, sections in (("main", main), ("EX", ex)):
        if part == "EX" and sections:
            out.append("# EX")
        for title, cards in sections:  # type: ignore[misc]
            out.append(f"# {title}")
            out.extend(f"{count} {number} {name}".rstrip() for count, number, name in cards)
    return "\n".join(out) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_section, min_size=1, max_size=4),
    st.lists(_section, max_size=2),
    st.sampled_from(list(Regulation)),
)
def test_every_accepted_list_rereads_to_the_same_deck_and_fingerprint(
    main: list[tuple[str, list[tuple[int, str, str]]]],
    ex: list[tuple[str, list[tuple[int, str, str]]]],
    regulation: Regulation,
) -> None:
    # R-DECK-4: what is stored (`canonical_csv` of the checked list) always
    # reads back, to the same cards, counts, names, EX deck and fingerprint.
    text = _text(main, ex)
    try:
        decklist = parse_decklist(text, titles=default_titles())
    except DecklistError:
        event("refused")
        return  # refused at submission: never stored
    event("parsed")
    designated = (KEION,) if regulation is Regulation.EVENT else ()
    result = check(decklist, regulation, designated=designated, ex_deck=True)
    stored = read_stored_decklist(result.decklist.canonical_csv())
    _same_deck(stored, result.decklist)
    assert fingerprint(stored) == result.fingerprint
    # The unresolved list too (any titles, as written).
    _same_deck(read_stored_decklist(decklist.canonical_csv()), decklist)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_decklist_or_a_typed_error(text: str) -> None:
    key = None
    try:
        read_stored_decklist("count,title,number,name\n" + text)
    except DecklistError as error:
        key = error.key
    assert key in (None, "decks.parse.stored_corrupt")
