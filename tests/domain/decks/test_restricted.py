"""Restricted-card lists (R-REG-5, R-REG-6)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.decks import (
    CardKey,
    DataFileError,
    Regulation,
    RestrictedList,
    load_card_database,
    load_restricted_list,
    load_titles,
)
from tests.domain.decks.helpers import FORMAT_EXAMPLE, REPO_ROOT, YURUYURI, check, keys, yuruyuri

CARDS_LINE = FORMAT_EXAMPLE.strip().splitlines()[-1]
BEFORE = dt.date(2014, 5, 2)
FROM = dt.date(2014, 5, 3)


def test_the_documented_format_loads() -> None:
    restricted = load_restricted_list(FORMAT_EXAMPLE)
    (limit,) = restricted.limits
    assert limit.regulations == {Regulation.SINGLE, Regulation.EVENT}
    assert limit.effective == FROM
    assert (limit.label, limit.card, limit.max_copies) == (
        "メモリーズカード",
        CardKey(YURUYURI, "01-046"),
        1,
    )
    (group,) = restricted.groups
    assert group.cards == (CardKey(YURUYURI, "01-063"), CardKey(YURUYURI, "01-121"))
    assert group.max_total == 1


def test_the_shipped_example_file_loads() -> None:
    path = REPO_ROOT / "data" / "restricted" / "example.toml"
    assert load_restricted_list(path.read_bytes()) == load_restricted_list(FORMAT_EXAMPLE)


def test_a_per_card_limit() -> None:
    # R-REG-5: the violation cites the entry's label.
    result = check(
        yuruyuri((2, "01-046")), Regulation.SINGLE, restricted=load_restricted_list(FORMAT_EXAMPLE)
    )
    (violation,) = result.violations
    assert (violation.rule, violation.key) == ("R-REG-5", "decks.restricted_card")
    assert violation.params["label"] == "メモリーズカード"
    assert violation.params["count"] == 2
    assert violation.cards == (CardKey(YURUYURI, "01-046"),)


def test_a_parallel_counts_against_the_limit() -> None:
    # R-REG-5 with R-DECK-3: 01-046a is 01-046.
    result = check(
        yuruyuri((1, "01-046"), (1, "01-046a")),
        Regulation.SINGLE,
        restricted=load_restricted_list(FORMAT_EXAMPLE),
    )
    assert keys(result) == ["decks.restricted_card"]


def test_a_banned_card() -> None:
    # R-REG-5: max_copies = 0 means banned.
    restricted = load_restricted_list(
        FORMAT_EXAMPLE.replace("max_copies = 1", "max_copies = 0").replace('"single", ', "") + ""
    )
    result = check(
        yuruyuri((1, "01-046")), Regulation.EVENT, restricted=restricted, designated=(YURUYURI,)
    )
    # The event takes メモリーズカード from the single list (R-REG-6), which has no entry now.
    assert result.legal
    restricted = load_restricted_list(FORMAT_EXAMPLE.replace("max_copies = 1", "max_copies = 0"))
    result = check(yuruyuri((1, "01-046")), Regulation.SINGLE, restricted=restricted)
    assert keys(result) == ["decks.banned_card"]


def test_a_group_limit() -> None:
    # R-REG-5: at most max_total cards in all from the group.
    restricted = load_restricted_list(FORMAT_EXAMPLE)
    decklist = yuruyuri((1, "01-063"), (1, "01-121"))
    (violation,) = check(decklist, Regulation.MIX, restricted=restricted).violations
    assert (violation.rule, violation.key) == ("R-REG-5", "decks.restricted_group")
    assert violation.params["label"] == "プレシャス1"
    assert violation.params["total"] == 2
    assert check(yuruyuri((1, "01-063")), Regulation.MIX, restricted=restricted).legal


def test_lists_are_per_regulation() -> None:
    # R-REG-5: the group applies to mix and mix-two, not to single.
    restricted = load_restricted_list(FORMAT_EXAMPLE)
    decklist = yuruyuri((1, "01-063"), (1, "01-121"))
    assert check(decklist, Regulation.SINGLE, restricted=restricted).legal
    assert not check(decklist, Regulation.MIX, restricted=restricted).legal


def test_only_entries_in_force_on_the_event_date_apply() -> None:
    # R-REG-5: effective from 2014-05-03.
    restricted = load_restricted_list(FORMAT_EXAMPLE)
    decklist = yuruyuri((2, "01-046"))
    assert check(decklist, Regulation.SINGLE, restricted=restricted, date=BEFORE).legal
    assert not check(decklist, Regulation.SINGLE, restricted=restricted, date=FROM).legal


def test_the_newest_entry_for_a_card_wins() -> None:
    # R-REG-5: a later entry (relaxed to 3 copies from 2015-01-01) replaces the older one.
    relaxed = FORMAT_EXAMPLE + (
        '\n[[limit]]\nregulations = ["single"]\neffective = 2015-01-01\n'
        'label = "メモリーズカード"\ntitle = "ゆるゆり"\nnumber = "01-046a"\nmax_copies = 3\n'
    )
    restricted = load_restricted_list(relaxed)
    decklist = yuruyuri((3, "01-046"))
    assert not check(
        decklist, Regulation.SINGLE, restricted=restricted, date=dt.date(2014, 12, 31)
    ).legal
    assert check(decklist, Regulation.SINGLE, restricted=restricted, date=dt.date(2015, 1, 1)).legal


def test_release_event_takes_memories_and_precious_1_from_the_single_list() -> None:
    # R-REG-6: 【メモリーズカード】 and 【プレシャス1】 follow the single regulation's list.
    text = """
[[group]]
regulations = ["single"]
effective = 2014-05-03
label = "プレシャス1"
max_total = 1
cards = [{title = "ゆるゆり", number = "01-063"}, {title = "ゆるゆり", number = "01-121"}]

[[group]]
regulations = ["event"]
effective = 2014-05-03
label = "プレシャス1"
max_total = 2
cards = [{title = "ゆるゆり", number = "01-063"}, {title = "ゆるゆり", number = "01-121"}]

[[limit]]
regulations = ["event"]
effective = 2014-05-03
label = "イベント制限"
title = "ゆるゆり"
number = "01-001"
max_copies = 1
"""
    restricted = load_restricted_list(text)
    decklist = yuruyuri((1, "01-063"), (1, "01-121"), (2, "01-001"))
    result = check(decklist, Regulation.EVENT, restricted=restricted, designated=(YURUYURI,))
    # プレシャス1 comes from the single list (max 1), not the event entry (max 2); the event's
    # own other entries still apply.
    assert sorted(keys(result)) == ["decks.restricted_card", "decks.restricted_group"]
    group = next(v for v in result.violations if v.key == "decks.restricted_group")
    assert group.params["max"] == 1


_SINGLE_MEMORIES = """
[[limit]]
regulations = ["single"]
effective = 2014-05-03
label = "LABEL"
title = "ゆるゆり"
number = "01-046"
max_copies = 1
"""


@pytest.mark.parametrize(
    "label",
    [
        "メモリーズカード",
        "【メモリーズカード】",
        "[メモリーズカード]",
        "［メモリーズカード］",
        "【 ﾒﾓﾘｰｽﾞｶｰﾄﾞ 】",
    ],
)
def test_a_single_list_category_applies_in_a_release_event_however_it_is_written(
    label: str,
) -> None:
    # R-REG-6: 【メモリーズカード】 written as the regulation writes it, with or without 【】,
    # in either width, was silently skipped in a release event.
    restricted = load_restricted_list(_SINGLE_MEMORIES.replace("LABEL", label))
    result = check(
        yuruyuri((3, "01-046")), Regulation.EVENT, restricted=restricted, designated=(YURUYURI,)
    )
    assert keys(result) == ["decks.restricted_card"]


@pytest.mark.parametrize(
    "label", ["【プレシャス1】", "【プレシャス１】", "プレシャス１", "[ﾌﾟﾚｼｬｽ1]"]
)
def test_precious_1_in_brackets_is_the_same_group(label: str) -> None:
    # R-REG-6: the group of the single list applies in a release event whatever the spelling.
    text = FORMAT_EXAMPLE.replace('regulations = ["mix", "mix-two"]', 'regulations = ["single"]')
    text = text.replace('label = "プレシャス1"', f'label = "{label}"')
    result = check(
        yuruyuri((1, "01-063"), (1, "01-121")),
        Regulation.EVENT,
        restricted=load_restricted_list(text),
        designated=(YURUYURI,),
    )
    assert keys(result) == ["decks.restricted_group"]


@pytest.mark.parametrize("label", ["【メモリーカード】", "[プレシャス2]", "【禁止】"])
def test_an_unknown_bracketed_category_is_refused_by_name(label: str) -> None:
    # R-REG-6: a misspelt category must not be skipped silently.
    with pytest.raises(DataFileError) as caught:
        load_restricted_list(_SINGLE_MEMORIES.replace("LABEL", label))
    assert caught.value.key == "decks.data.unknown_label"
    assert caught.value.params["value"] == label
    assert caught.value.params["where"] == "restricted.toml [[limit]] #1"
    assert "【メモリーズカード】" in str(caught.value.params["allowed"])


def test_a_free_label_without_brackets_stays_the_events_own() -> None:
    restricted = load_restricted_list(_SINGLE_MEMORIES.replace("LABEL", "イベント制限"))
    assert restricted.limits[0].label == "イベント制限"


def test_restricted_titles_resolve_through_the_catalogue() -> None:
    # R-REG-5: an entry written with an alias still matches the title's cards.
    restricted = load_restricted_list(
        FORMAT_EXAMPLE.replace('title = "ゆるゆり"', 'title = "ゆるゆり♪♪"')
    )
    assert keys(check(yuruyuri((2, "01-046")), Regulation.SINGLE, restricted=restricted)) == [
        "decks.restricted_card"
    ]


def test_an_empty_list_is_valid() -> None:
    assert load_restricted_list("") == RestrictedList()


@pytest.mark.parametrize(
    ("old", "new", "where", "field", "key"),
    [
        (
            "max_copies = 1",
            'max_copies = "one"',
            "[[limit]] #1",
            "max_copies",
            "decks.data.bad_count",
        ),
        ("max_copies = 1", "max_copies = -1", "[[limit]] #1", "max_copies", "decks.data.bad_count"),
        (
            "max_copies = 1",
            "max_copies = true",
            "[[limit]] #1",
            "max_copies",
            "decks.data.bad_count",
        ),
        ("max_copies = 1\n", "", "[[limit]] #1", "max_copies", "decks.data.missing_field"),
        (
            'effective = 2014-05-03\nlabel = "メ',
            'effective = "May"\nlabel = "メ',
            "[[limit]] #1",
            "effective",
            "decks.data.bad_date",
        ),
        (
            '"single", "event"',
            '"single", "standard"',
            "[[limit]] #1",
            "regulations",
            "decks.data.bad_regulation",
        ),
        (
            'number = "01-046"',
            'number = "01/046"',
            "[[limit]] #1",
            "number",
            "decks.data.bad_number",
        ),
        ('label = "プレシャス1"', 'label = ""', "[[group]] #1", "label", "decks.data.bad_text"),
        (
            "max_total = 1",
            "max_total = 1\nmax = 2",
            "[[group]] #1",
            "max",
            "decks.data.unknown_field",
        ),
        (
            '{title = "ゆるゆり", number = "01-121"}',
            '{title = "ゆるゆり"}',
            "[[group]] #1",
            "cards[2].number",
            "decks.data.missing_field",
        ),
        (
            '{title = "ゆるゆり", number = "01-063"}',
            '{title = "", number = "01-063"}',
            "[[group]] #1",
            "cards[1].title",
            "decks.data.bad_text",
        ),
        (
            CARDS_LINE,
            "cards = []",
            "[[group]] #1",
            "cards",
            "decks.data.bad_list",
        ),
    ],
)
def test_a_malformed_entry_is_named_with_its_field(
    old: str, new: str, where: str, field: str, key: str
) -> None:
    # R-REG-5
    assert old in FORMAT_EXAMPLE
    with pytest.raises(DataFileError) as caught:
        load_restricted_list(FORMAT_EXAMPLE.replace(old, new, 1), source="list.toml")
    assert caught.value.key == key
    assert caught.value.params["where"] == f"list.toml {where}"
    assert caught.value.params["field"] == field


def test_the_third_entry_is_named_limit_3() -> None:
    # R-REG-5
    limit = FORMAT_EXAMPLE.split("[[group]]")[0]
    text = limit + limit + limit.replace("max_copies = 1", "max_copies = 1.5")
    with pytest.raises(DataFileError) as caught:
        load_restricted_list(text)
    assert caught.value.params["where"] == "restricted.toml [[limit]] #3"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[[limit]\n", "decks.data.toml_syntax"),
        ("limit = 3\n", "decks.data.not_a_table"),
        ("[[cards]]\nx = 1\n", "decks.data.unknown_field"),
    ],
)
def test_a_broken_file(text: str, key: str) -> None:
    with pytest.raises(DataFileError) as caught:
        load_restricted_list(text)
    assert caught.value.key == key


_EDIT_ALPHABET = st.sampled_from(sorted(set(FORMAT_EXAMPLE + ",-0123456789/\n")))


@settings(max_examples=150, deadline=None)
@given(
    st.text(_EDIT_ALPHABET, max_size=12),
    st.integers(0, len(FORMAT_EXAMPLE)),
    st.integers(0, len(FORMAT_EXAMPLE)),
)
def test_damaged_data_files_raise_only_data_file_errors(text: str, start: int, end: int) -> None:
    # R-REG-5: a malformed file is an error naming the entry, never a crash.
    damaged = FORMAT_EXAMPLE[:start] + text + FORMAT_EXAMPLE[end:]
    for loader in (load_restricted_list, load_titles, load_card_database):
        try:
            loader(damaged)
        except DataFileError as error:
            assert error.params["where"]  # noqa: PT017


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * 100_000,
        "a = " + "{b = " * 100_000,
        "a = " + "9" * 5000,
        "[[limit]]\nmax_copies = " + "1" * 4301 + "\n",
    ],
    ids=["nested arrays", "nested tables", "long integer", "long count"],
)
def test_deep_nesting_and_long_integers_are_typed_errors(text: str) -> None:
    # Hostile input: RecursionError and ValueError escaped the loaders untyped.
    for loader in (load_restricted_list, load_titles):
        with pytest.raises(DataFileError) as caught:
            loader(text)
        assert caught.value.key in {"decks.data.toml_too_deep", "decks.data.toml_too_long"}
        assert caught.value.params["where"]


_TOML_PIECES = st.sampled_from(
    [
        "[",
        "]",
        "{",
        "}",
        "a = ",
        "b.c = ",
        "1",
        "9" * 5000,
        "0x" + "f" * 5000,
        '"x"',
        ",",
        "\n",
        "[[limit]]\n",
        "[[title]]\n",
        "name = ",
        "= ",
        "1979-05-27",
        "inf",
        "'''",
        '"""',
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_TOML_PIECES, max_size=40), st.integers(0, 3000))
def test_any_toml_like_text_raises_only_data_file_errors(pieces: list[str], depth: int) -> None:
    # Every parser failure is the typed error, with the file named.
    text = "".join(pieces) + "a = " + "[" * depth
    for loader in (load_restricted_list, load_titles, load_card_database):
        try:
            loader(text)
        except DataFileError as error:
            assert error.params["where"]  # noqa: PT017


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_bytes_raise_only_data_file_errors(data: bytes) -> None:
    for loader in (load_restricted_list, load_titles, load_card_database):
        try:
            loader(data)
        except DataFileError as error:
            assert error.params["where"]  # noqa: PT017


def test_the_documented_formats_load() -> None:
    doc = (REPO_ROOT / "docs" / "decklists.md").read_text("utf-8")
    restricted = doc.split("## Restricted list", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    assert load_restricted_list(restricted) == load_restricted_list(FORMAT_EXAMPLE)
    titles = doc.split("## Titles file", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    assert load_titles(titles).resolve("映画けいおん！") == "けいおん！"
    cards = doc.split("## Card database", 1)[1].split("```csv\n", 1)[1].split("```", 1)[0]
    assert len(load_card_database(cards)) == 2
