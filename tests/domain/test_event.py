"""What an organizer decides at creation: R-FMT-1, R-FMT-6, R-MATCH-1, R-REG-4."""

from __future__ import annotations

import unicodedata
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.event import (
    DEFAULT_TIME_LIMIT_MINUTES,
    MAX_TOURNAMENT_NAME,
    EventFormat,
    clean_display_name,
    clean_name,
    make_event_config,
    split_titles,
)

DAY = date(2026, 12, 24)


def config(**options: object) -> object:
    values: dict[str, object] = {
        "name": "Cup",
        "format": "swiss",
        "regulation": "mix",
        "event_date": DAY,
    }
    values.update(options)
    return make_event_config(**values)  # type: ignore[arg-type]


def test_defaults_follow_the_regulation() -> None:
    # R-MATCH-1: 40 minutes; R-FMT-6: format and time limit are fixed when announced.
    made = make_event_config(name="Cup", format="swiss", regulation="mix", event_date=DAY)
    assert made.time_limit_minutes == DEFAULT_TIME_LIMIT_MINUTES == 40
    assert made.format is EventFormat.SWISS
    assert made.rounds is None
    assert made.top_cut is None


def test_a_top_cut_defaults_to_eight_and_needs_its_format() -> None:
    # R-FMT-1: the elimination part of swiss_top_cut.
    assert (
        make_event_config(
            name="Cup", format="swiss_top_cut", regulation="mix", event_date=DAY
        ).top_cut
        == 8
    )
    with pytest.raises(InvalidInput) as refused:
        config(top_cut=8)
    assert refused.value.key == "event.top_cut_needs_format"
    with pytest.raises(InvalidInput) as odd:
        config(format="swiss_top_cut", top_cut=6)
    assert odd.value.key == "event.bad_top_cut"


def test_mix_two_is_accepted_with_an_underscore() -> None:
    made = make_event_config(name="Cup", format="swiss", regulation="mix_two", event_date=DAY)
    assert made.regulation == "mix-two"


def test_an_event_needs_designated_titles() -> None:
    # R-REG-4
    with pytest.raises(InvalidInput) as refused:
        config(regulation="event")
    assert refused.value.rule == "R-REG-4"
    made = make_event_config(
        name="Cup",
        format="swiss",
        regulation="event",
        event_date=DAY,
        titles="けいおん！、ゆるゆり",
    )
    assert made.titles == ("けいおん！", "ゆるゆり")


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"time_limit_minutes": 2}, "event.bad_time_limit"),
        ({"rounds": 0}, "event.bad_rounds"),
        ({"max_players": 1}, "event.bad_max_players"),
        ({"format": "league"}, "event.unknown_format"),
        ({"titles": "けいおん！"}, "event.titles_not_used"),
        ({"name": "@here now"}, "event.name_mentions"),
        ({"name": "x" * (MAX_TOURNAMENT_NAME + 1)}, "event.name_too_long"),
    ],
)
def test_bad_choices_name_what_is_wrong(options: dict[str, object], key: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        config(**options)
    assert refused.value.key == key


def test_titles_split_on_ascii_and_japanese_commas_without_duplicates() -> None:
    assert split_titles("A, B、C，A") == ("A", "B", "C")
    assert split_titles(None) == ()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_clean_names_are_single_line_short_and_mention_free(text: str) -> None:
    try:
        name = clean_name(text, max_length=MAX_TOURNAMENT_NAME, field="name")
    except InvalidInput:
        return
    assert 1 <= len(name) <= MAX_TOURNAMENT_NAME
    assert "\n" not in name
    assert "@everyone" not in name.lower()
    assert name == name.strip()


# Names shown safely: a member's Discord name is their name; only what breaks
# the line is refused.
ODD_NAME = "@everyone 平沢🇯🇵\u200d\u202e"


@pytest.mark.parametrize(
    "name",
    [
        ODD_NAME,
        "@here",
        "<@&123456789012345678>",
        "👨\u200d👩\u200d👧",
        "\u200fمرحبا\u200e",
        "a\u2066b",
    ],
)
def test_display_names_keep_mentions_joiners_rtl_marks_and_flags(name: str) -> None:
    assert clean_display_name(name) == name


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("bell\x07", "event.name_control_characters"),
        ("nul\x00x", "event.name_control_characters"),
        ("\ud800half", "event.name_control_characters"),
        ("   ", "event.name_empty"),
        ("x" * 33, "event.name_too_long"),
    ],
)
def test_display_names_refuse_what_breaks_the_text(name: str, key: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        clean_display_name(name)
    assert refused.value.key == key
    assert refused.value.params["field"] == "display_name"


def test_line_breaks_in_a_display_name_fold_to_one_space() -> None:
    assert clean_display_name("平沢\n唯\u2028さん") == "平沢 唯 さん"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_display_names_are_one_line_short_and_stable(text: str) -> None:
    try:
        name = clean_display_name(text)
    except InvalidInput:
        return
    assert 1 <= len(name) <= 32
    assert len(name.splitlines()) == 1
    assert all(unicodedata.category(char) not in ("Cc", "Cs") for char in name)
    assert clean_display_name(name) == name
