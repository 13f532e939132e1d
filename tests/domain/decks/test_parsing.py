"""Decklist formats, encodings, limits and parse errors."""

from __future__ import annotations

import codecs
import unicodedata

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from domain.decks import (
    MAX_BYTES,
    MAX_LINES,
    CardKey,
    Decklist,
    DecklistError,
    default_titles,
    parse_decklist,
)
from domain.decks.cards import normalise_number
from domain.decks.errors import MAX_REPORTED_GROUPS
from domain.errors import InvalidInput
from tests.domain.decks.helpers import EXAMPLES, KEION, REPO_ROOT, YURUYURI


def test_text_format_sections_counts_and_comments() -> None:
    decklist = parse_decklist(
        "// my deck\n"
        "# けいおん！\n"
        "4 01-001 平沢 唯\n"
        "\n"
        "4x 01-002 秋山 澪 // comment after a card\n"
        "[ゆるゆり]\n"
        "; another comment\n"
        "2枚 01-046 赤座 あかり\n"
    )
    assert decklist.format == "text"
    assert [
        (line.line, line.count, line.title, line.number, line.name) for line in decklist.lines
    ] == [
        (3, 4, "けいおん!", "01-001", "平沢 唯"),
        (5, 4, "けいおん!", "01-002", "秋山 澪"),
        (8, 2, "ゆるゆり", "01-046", "赤座 あかり"),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "4 01-001 平沢 唯",
        "4x 01-001 平沢 唯",
        "4 x 01-001 平沢 唯",
        "x4 01-001",
        "×4 01-001",
        "4枚 01-001 平沢 唯",
        "4: 01-001",
        "４　０１－００１　平沢　唯",
        "4\t01-001\t平沢 唯",
        "01-001 平沢 唯 x4",
        "01-001 平沢 唯 ×4",
        "01-001 平沢 唯 4枚",
        "01-001 x4",
        "4 01-001平沢 唯",
    ],
)
def test_text_format_is_forgiving_about_counts(line: str) -> None:
    decklist = parse_decklist(f"# けいおん！\n{line}\n")
    assert decklist.counts() == {CardKey("けいおん!", "01-001"): 4}


@pytest.mark.parametrize(
    ("line", "count", "name"),
    [
        # The name first, then the number and the count (how many players write a list).
        ("西住みほ 02-001 ×5", 5, "西住みほ"),
        ("西住みほ 02-001 ×4", 4, "西住みほ"),
        ("西住みほ 02-001 x4", 4, "西住みほ"),
        ("西住みほ 02-001 X4", 4, "西住みほ"),
        ("西住みほ 02-001 *4", 4, "西住みほ"),
        ("西住みほ 02-001 4枚", 4, "西住みほ"),
        ("西住みほ 02-001 ×4枚", 4, "西住みほ"),
        ("西住みほ 02-001 ×４", 4, "西住みほ"),
        ("西住みほ　０２－００１　×４枚", 4, "西住みほ"),
        ("西住みほ02-001×4", 4, "西住みほ"),
        ("西住 みほ（パンツァー） 02-001 x 3", 3, "西住 みほ(パンツァー)"),  # NFKC, as all text
        ("2号車 02-001 ×2", 2, "2号車"),  # a name that starts with digits
        ("Team 8 02-001 x1", 1, "Team 8"),  # a name that ends with one
        ("4 Seasons 02-001 x2", 2, "4 Seasons"),  # the count at the end decides
        # The number first, the count at the end, in every count form.
        ("02-001 西住みほ x4", 4, "西住みほ"),
        ("02-001 西住みほ X4", 4, "西住みほ"),
        ("02-001 西住みほ ×4", 4, "西住みほ"),
        ("02-001 西住みほ 4枚", 4, "西住みほ"),
        ("02-001 西住みほ ×4枚", 4, "西住みほ"),
        ("02-001 西住みほ ４枚", 4, "西住みほ"),
        ("02-001 西住みほ×4枚", 4, "西住みほ"),
        # The count first, in every count form.
        ("×4枚 02-001 西住みほ", 4, "西住みほ"),
        ("X4 02-001 西住みほ", 4, "西住みほ"),
        ("４枚 ０２－００１ 西住みほ", 4, "西住みほ"),
    ],
)
def test_name_first_lines_and_every_count_form(line: str, count: int, name: str) -> None:
    decklist = parse_decklist(f"# ガールズ＆パンツァー\n{line}\n")
    (card,) = decklist.lines
    assert (card.count, card.number, card.name) == (count, "02-001", name)


@pytest.mark.parametrize(
    ("line", "count", "number", "name"),
    [
        # A count first still wins over a count at the end: the end is part of the name.
        ("4 02-001 西住みほ x2", 4, "02-001", "西住みほ x2"),
        # A number first still wins: what follows it is the name.
        ("02-001 02-002 x4", 4, "02-001", "02-002"),
        ("4 02-001 2号車", 4, "02-001", "2号車"),
    ],
)
def test_existing_forms_keep_their_reading(line: str, count: int, number: str, name: str) -> None:
    (card,) = parse_decklist(f"# ガールズ＆パンツァー\n{line}\n").lines
    assert (card.count, card.number, card.name) == (count, number, name)


@pytest.mark.parametrize(
    "line",
    [
        "西住みほ 02-001",  # no count: which count was meant is unknown
        "4 西住みほ 02-001",  # the count first and the name before the number
        "けいおん！,01-001,x4",  # a CSV row without its header is not a text line
        "4,けいおん！,01-001",
        "01-001,4",
    ],
)
def test_lines_that_stay_unreadable(line: str) -> None:
    with pytest.raises(DecklistError):
        parse_decklist(f"# ガールズ＆パンツァー\n4 02-002\n{line}\n")


@pytest.mark.parametrize("line", ["# 大洗 02-001 x4", "【大洗 02-001 x4】", "[大洗 02-001 x4]"])
def test_a_title_line_is_never_read_as_a_name_first_card(line: str) -> None:
    decklist = parse_decklist(f"{line}\n4 02-002\n")
    assert [(card.title, card.number) for card in decklist.lines] == [("大洗 02-001 x4", "02-002")]


@pytest.mark.parametrize(
    "header",
    [
        "# けいおん！",
        "## けいおん！ ##",
        "[けいおん！]",
        "【けいおん！】",
        "■けいおん！",
        "作品: けいおん！",
        "title: けいおん！",
    ],
)
def test_title_sections(header: str) -> None:
    decklist = parse_decklist(f"{header}\n4 01-001\n")
    assert decklist.lines[0].title == "けいおん!"


def test_a_bare_title_line_is_a_section_when_the_catalogue_knows_it() -> None:
    text = "けいおん！\n4 01-001\n"
    with pytest.raises(DecklistError):
        parse_decklist(text)
    assert parse_decklist(text, titles=default_titles()).lines[0].title == "けいおん!"


def test_total_lines_are_ignored() -> None:
    decklist = parse_decklist("# けいおん！\n4 01-001\n合計 4枚\nTotal: 4\n")
    assert decklist.total == 4


def test_duplicate_lines_and_parallels_are_summed() -> None:
    # R-DECK-3: 01-001a counts as 01-001; duplicate lines of the same card are summed.
    decklist = parse_decklist("# けいおん！\n2 01-001\n1 01-001a\n1 01-001\n")
    (entry,) = decklist.entries
    assert entry.key == CardKey("けいおん!", "01-001")
    assert entry.count == 4
    assert entry.numbers == ("01-001", "01-001a")
    assert entry.lines == (2, 3, 4)


def test_csv_with_the_canonical_header() -> None:
    decklist = parse_decklist(
        'count,title,number,name\n4,けいおん！,01-001,平沢 唯\n3,ゆるゆり,01-046,"赤座, あかり"\n'
    )
    assert decklist.format == "csv"
    assert decklist.counts() == {
        CardKey("けいおん!", "01-001"): 4,
        CardKey("ゆるゆり", "01-046"): 3,
    }
    assert decklist.entries[1].name == "赤座, あかり"


def test_csv_name_is_optional_and_columns_may_be_reordered() -> None:
    decklist = parse_decklist("title,number,count\nけいおん！,01-001,4\n")
    assert decklist.counts() == {CardKey("けいおん!", "01-001"): 4}


def test_csv_with_japanese_headers() -> None:
    decklist = parse_decklist("枚数,作品名,カード番号,カード名\n4,けいおん！,01-001,平沢 唯\n")
    assert decklist.total == 4


def test_tsv() -> None:
    decklist = parse_decklist("count\ttitle\tnumber\tname\n4\tけいおん！\t01-001\t平沢 唯\n")
    assert decklist.format == "tsv"
    assert decklist.total == 4


def test_utf8_with_a_bom() -> None:
    data = codecs.BOM_UTF8 + "count,title,number\n4,けいおん！,01-001\n".encode()
    assert parse_decklist(data).total == 4


def test_shift_jis_bytes() -> None:
    data = "count,title,number,name\r\n4,けいおん！,01-001,平沢 唯\r\n".encode("cp932")
    decklist = parse_decklist(data, filename="deck.csv")
    assert decklist.lines[0].name == "平沢 唯"


def test_the_shipped_shift_jis_example_file() -> None:
    data = (EXAMPLES / "keion-sjis.csv").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    sjis = parse_decklist(data, filename="keion-sjis.csv")
    utf8 = parse_decklist((EXAMPLES / "keion.csv").read_bytes())
    assert sjis.counts() == utf8.counts()
    assert sjis.total == 60


def test_the_text_and_csv_examples_hold_the_same_deck() -> None:
    text = parse_decklist((EXAMPLES / "keion.txt").read_bytes(), filename="keion.txt")
    csv = parse_decklist((EXAMPLES / "keion.csv").read_bytes(), filename="keion.csv")
    canonical = default_titles().canonical
    assert text.with_titles(canonical).counts() == csv.with_titles(canonical).counts()


def test_undecodable_bytes() -> None:
    with pytest.raises(DecklistError) as caught:
        parse_decklist(b"# \x81 \x82\xff")
    assert caught.value.key == "decks.parse.undecodable"


def test_input_over_64_kb_is_refused() -> None:
    data = ("# けいおん！\n" + "// " + "x" * MAX_BYTES).encode()
    with pytest.raises(DecklistError) as caught:
        parse_decklist(data)
    assert caught.value.key == "decks.parse.too_large"
    assert caught.value.params["limit"] == MAX_BYTES


def test_more_than_200_lines_is_refused() -> None:
    text = "# けいおん！\n" + "// filler\n" * MAX_LINES
    with pytest.raises(DecklistError) as caught:
        parse_decklist(text)
    assert caught.value.key == "decks.parse.too_many_lines"
    assert caught.value.params == {"lines": MAX_LINES + 1, "limit": MAX_LINES}


def test_exactly_200_lines_is_fine() -> None:
    text = "# けいおん！\n4 01-001\n" + "\n" * (MAX_LINES - 2)
    assert parse_decklist(text).total == 4


def test_empty_input() -> None:
    for text in ("", "\n\n", "// only a comment\n", "# けいおん！\n", "count,title,number\n"):
        with pytest.raises(DecklistError) as caught:
            parse_decklist(text)
        assert caught.value.key == "decks.parse.empty"


def test_every_bad_line_is_reported_at_once_with_its_line_number() -> None:
    with pytest.raises(DecklistError) as caught:
        parse_decklist(
            "4 01-001\n"  # 1: before any title
            "# けいおん！\n"
            "4 01-0x1 平沢\n"  # 3: bad number
            "01-002 秋山\n"  # 4: missing count
            "0 01-003\n"  # 5: count out of range
            "hello there\n"  # 6: not understood
            "4 01-004\n"
        )
    error = caught.value
    assert isinstance(error, InvalidInput)
    assert error.key == "decks.parse.invalid"
    assert [(problem.line, problem.key) for problem in error.problems] == [
        (1, "decks.parse.card_before_title"),
        (3, "decks.parse.bad_number"),
        (4, "decks.parse.missing_count"),
        (5, "decks.parse.count_range"),
        (6, "decks.parse.unrecognised"),
    ]
    assert error.params["count"] == 5
    assert error.params["lines"] == (1, 3, 4, 5, 6)


def test_csv_problems_name_their_lines() -> None:
    with pytest.raises(DecklistError) as caught:
        parse_decklist(
            "count,title,number,name\n"
            "4,けいおん！,01-001,唯\n"
            "four,けいおん！,01-002,澪\n"
            "4,,01-003,律\n"
            "4,けいおん！\n"
            '4,けいおん！,01-005,"unclosed\n'
        )
    assert [(problem.line, problem.key) for problem in caught.value.problems] == [
        (3, "decks.parse.bad_count"),
        (4, "decks.parse.empty_title"),
        (5, "decks.parse.csv_fields"),
        (6, "decks.parse.csv_quotes"),
    ]


def test_a_csv_file_without_header_is_told_what_header_to_add() -> None:
    with pytest.raises(DecklistError) as caught:
        parse_decklist("4,けいおん！,01-001\n", filename="deck.csv")
    (problem,) = caught.value.problems
    assert (problem.line, problem.key) == (1, "decks.parse.csv_header")


def test_many_bad_lines_of_one_kind_are_one_group() -> None:
    with pytest.raises(DecklistError) as caught:
        parse_decklist("# けいおん！\n" + "nonsense\n" * 150)
    assert len(caught.value.problems) == 150
    (group,) = caught.value.groups
    assert tuple(group.lines) == tuple(range(2, 152))
    assert caught.value.params["count"] == 150


def test_the_number_of_reported_kinds_is_capped() -> None:
    # Every line its own kind: each is short of columns by a different number.
    header = ",".join(f"note{column}" for column in range(40)) + ",count,title,number\n"
    rows = "".join(",".join("x" * width) + "\n" for width in range(1, 40))
    with pytest.raises(DecklistError) as caught:
        parse_decklist(header + rows)
    assert len(caught.value.groups) == MAX_REPORTED_GROUPS
    assert caught.value.params["count"] == len(caught.value.problems) > MAX_REPORTED_GROUPS


def test_unquoted_commas_in_a_trailing_name_stay_in_the_name() -> None:
    decklist = parse_decklist("count,title,number,name\n4,けいおん！,01-001,平沢,唯\n")
    assert decklist.lines[0].name == "平沢,唯"


# --- properties --------------------------------------------------------------------------------


def _parse_or_error(data: str | bytes, filename: str | None) -> Decklist | DecklistError:
    """The parsed list, or the parse error; any other exception fails the test."""
    try:
        return parse_decklist(data, filename=filename)
    except DecklistError as error:
        return error


_deck_alphabet = st.sampled_from(list('0123456789-xX×枚#[]【】,\t \r\n/;:aAPけいおん！　０１－"'))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=400), st.text(_deck_alphabet, max_size=400)))
def test_parsing_arbitrary_text_raises_only_the_parse_error(text: str) -> None:
    outcome = _parse_or_error(text, None)
    if isinstance(outcome, DecklistError):
        assert outcome.key.startswith("decks.parse.")
        assert len(outcome.groups) <= MAX_REPORTED_GROUPS
    else:
        assert outcome.total > 0


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400), st.sampled_from([None, "deck.csv", "deck.tsv", "deck.txt"]))
def test_parsing_arbitrary_bytes_raises_only_the_parse_error(
    data: bytes, filename: str | None
) -> None:
    outcome = _parse_or_error(data, filename)
    if isinstance(outcome, DecklistError):
        assert outcome.key.startswith("decks.parse.")
    else:
        assert outcome.total > 0


_titles = st.sampled_from(
    [KEION, YURUYURI, "ＷＯＲＫＩＮＧ！！", "とらドラ！", "Some, Title", '"quoted"']
)
_numbers = st.builds(
    "{}-{:03d}{}".format,
    st.sampled_from(["01", "02", "P", "12"]),
    st.integers(1, 200),
    st.sampled_from(["", "a", "b"]),
)
_names = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), max_size=12
)
_cards = st.lists(st.tuples(st.integers(1, 12), _titles, _numbers, _names), min_size=1, max_size=30)


def _csv(cards: list[tuple[int, str, str, str]]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["count", "title", "number", "name"])
    writer.writerows(cards)
    return buffer.getvalue()


@settings(max_examples=100, deadline=None)
@given(_cards)
def test_normalised_lists_round_trip(cards: list[tuple[int, str, str, str]]) -> None:
    decklist = parse_decklist(_csv(cards))
    # A line holds at most 60 copies, so the canonical form of a list with more copies of
    # one card than a deck can hold does not parse back: leave those out.
    assume(all(entry.count <= 60 for entry in decklist.entries))
    canonical = decklist.canonical_csv()
    again = parse_decklist(canonical)
    assert again.counts() == decklist.counts()
    assert again.canonical_csv() == canonical
    assert {entry.key: entry.name for entry in again.entries} == {
        entry.key: entry.name for entry in decklist.entries
    }


@settings(max_examples=100, deadline=None)
@given(_cards)
def test_canonical_text_round_trips(cards: list[tuple[int, str, str, str]]) -> None:
    decklist = parse_decklist(_csv([(c, t, n, "") for c, t, n, _ in cards]))
    assume(all(entry.count <= 60 for entry in decklist.entries))
    again = parse_decklist(decklist.canonical_text())
    assert again.counts() == decklist.counts()


# Card names of words that hold digits, x and 枚 (but no card number, and not starting with
# a bare number, which would read as a count first).
_WORDS = ["西住", "みほ", "Max", "Alex", "2号車", "Team", "8", "x線", "枚数", "ボコ", "(限定)", "Ⅱ"]
_card_names = st.builds(
    lambda first, rest: " ".join([first, *rest]),
    st.sampled_from([word for word in _WORDS if not word.isdigit()]),
    st.lists(st.sampled_from(_WORDS), max_size=3),
)
_COUNT_FORMS = ["{}", "x{}", "X{}", "×{}", "*{}", "x {}", "{}枚", "×{}枚", "{} 枚"]
_FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


@settings(max_examples=400, deadline=None)
@given(
    st.integers(1, 60),
    _numbers,
    _card_names,
    st.sampled_from(_COUNT_FORMS),
    st.sampled_from(["count first", "count last", "name first"]),
    st.booleans(),
)
def test_every_line_form_reads_back_its_count_card_and_name(
    count: int, number: str, name: str, form: str, order: str, full_width: bool
) -> None:
    # A count at the end needs its mark (x, ×, * or 枚): a bare number there could be
    # part of the name.
    assume(order == "count first" or form != "{}")
    written = form.format(count)
    if full_width:
        written = written.translate(_FULL_WIDTH)
    line = {
        "count first": f"{written} {number} {name}",
        "count last": f"{number} {name} {written}",
        "name first": f"{name} {number} {written}",
    }[order]
    (card,) = parse_decklist(f"# ガールズ＆パンツァー\n{line}\n").lines
    assert (card.count, card.number, card.name) == (
        count,
        normalise_number(number),
        unicodedata.normalize("NFKC", name),
    )


def _doc_block(language: str, after: str) -> str:
    doc = (REPO_ROOT / "docs" / "decklists.md").read_text("utf-8")
    return doc.split(after, 1)[1].split(f"```{language}\n", 1)[1].split("```", 1)[0]


def test_the_documented_examples_parse() -> None:
    text = parse_decklist(_doc_block("text", "### The text format"), titles=default_titles())
    assert text.format == "text"
    assert text.counts()[CardKey("けいおん!", "01-007")] == 4
    table = parse_decklist(_doc_block("csv", "### CSV / TSV"))
    assert table.format == "csv"
    assert table.total == 11
