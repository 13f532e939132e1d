"""The next name of a repeating event: 第13回 → 第14回, keeping the number's form."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.series.naming import from_kanji, next_event_name, to_kanji


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("第13回 交流会", "第14回 交流会"),
        ("交流会 #13", "交流会 #14"),
        ("交流会 ＃13", "交流会 ＃14"),
        ("Weekly 13", "Weekly 14"),
        ("Weekly No.9", "Weekly No.10"),
        ("第１３回 交流会", "第１４回 交流会"),  # full-width stays full-width
        ("第十三回 交流会", "第十四回 交流会"),
        ("第九回", "第十回"),
        ("第十九回", "第二十回"),
        ("第九十九回", "第百回"),
        ("第5弾 プレメモ杯", "第6弾 プレメモ杯"),
        ("#09 Cup", "#10 Cup"),  # zero padding keeps its width
        ("#099 Cup", "#100 Cup"),
        ("#99 Cup", "#100 Cup"),
        ("交流会（2）", "交流会（3）"),
        ("Weekly (2)", "Weekly (3)"),
    ],
)
def test_the_counter_counts_up(name: str, expected: str) -> None:
    assert next_event_name(name) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # The ordinal wins over a later number; dates, times and years are never counted.
        ("第13回 交流会 2026", "第14回 交流会 2026"),
        ("2026 Spring League 3", "2026 Spring League 4"),
        ("交流会 12/24", "交流会 12/24（2）"),
        ("Cup 2026-12-24", "Cup 2026-12-24 (2)"),
        ("交流会 7 12月", "交流会 8 12月"),
        ("Night 3 21:00", "Night 4 21:00"),
        ("Cup 2026", "Cup 2026 (2)"),
    ],
)
def test_dates_times_and_years_are_not_counters(name: str, expected: str) -> None:
    assert next_event_name(name) == expected


def test_a_name_without_a_number_gets_the_second_one_in_its_language() -> None:
    assert next_event_name("交流会") == "交流会（2）"
    assert next_event_name("けいおん！杯") == "けいおん！杯（2）"
    assert next_event_name("Friday Cup") == "Friday Cup (2)"
    # ... and the copy of the copy goes on from there.
    assert next_event_name(next_event_name("交流会")) == "交流会（3）"


def test_a_taken_name_is_skipped() -> None:
    taken = {"第14回 交流会", "第15回 交流会"}
    assert next_event_name("第13回 交流会", taken) == "第16回 交流会"


def test_kanji_numerals_read_and_write_back() -> None:
    assert from_kanji("十三") == 13
    assert from_kanji("百二") == 102
    assert from_kanji("二千二十六") == 2026
    assert from_kanji("一三") is None  # digit by digit is not read
    assert from_kanji("十十") is None
    assert to_kanji(13) == "十三"
    assert to_kanji(100) == "百"
    assert to_kanji(2026) == "二千二十六"
    assert next_event_name("第九千九百九十九回") == "第10000回"


@given(st.integers(min_value=1, max_value=9999))
def test_kanji_numerals_round_trip(value: int) -> None:
    assert from_kanji(to_kanji(value)) == value


FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


@given(
    # A year (1900 to 2099) alone at the end is not a counter: see the test above.
    st.integers(min_value=1, max_value=10**6).filter(lambda v: not 1900 <= v <= 2099),
    st.sampled_from(["第{}回 交流会", "交流会 #{}", "Weekly {}", "{} Cup"]),
    st.booleans(),
)
def test_the_number_goes_up_by_one_and_nothing_else_changes(
    value: int, pattern: str, full_width: bool
) -> None:
    number = str(value).translate(FULL_WIDTH) if full_width else str(value)
    name = pattern.format(number)
    following = str(value + 1).translate(FULL_WIDTH) if full_width else str(value + 1)
    assert next_event_name(name) == pattern.format(following)


@given(st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=30))
def test_the_next_name_always_differs_and_has_a_counter(name: str) -> None:
    following = next_event_name(name)
    assert following != name
    # The next one after that moves on again (a counter was found or added).
    assert next_event_name(following) != following
    assert re.search(r"[0-9０-９〇一二三四五六七八九十百千]", following)
