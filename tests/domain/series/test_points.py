"""The series points table an organizer types: the default, the text form and
its keyed errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.series.points import DEFAULT_POINTS, Band, PointsTable, parse_points_table


def test_the_default_counts_like_a_japanese_shop_league() -> None:
    table = DEFAULT_POINTS
    # 優勝 10, 準優勝 7, ベスト4 5, ベスト8 3, plus 1 for taking part.
    assert [table.points_for(finish) for finish in (1, 2, 3, 4, 5, 8, 9, 40)] == [
        11,
        8,
        6,
        6,
        4,
        4,
        1,
        1,
    ]
    # R-PEN-4: a disqualified player earns nothing from the event, not even taking part.
    assert table.points_for(1, disqualified=True) == 0
    assert parse_points_table(table.to_text()) == table


def test_an_organizer_types_a_table_in_japanese() -> None:
    text = """
    # 2026 冬シーズン
    優勝 = 10
    準優勝：７点
    ベスト４ = 5pt
    5-8位 = 3
    9〜16位 = 2
    参加 = 1
    """
    table = parse_points_table(text)
    assert table.bands == (
        Band(1, 1, 10),
        Band(2, 2, 7),
        Band(3, 4, 5),
        Band(5, 8, 3),
        Band(9, 16, 2),
    )
    assert table.participation == 1
    assert table.placing_points(12) == 2
    assert table.placing_points(17) == 0


def test_english_keys_and_a_toml_file_work_too() -> None:
    text = '[points]\n"winner" = 8\nrunner-up = 5\ntop 4 = 3\n"participation" = 2\n'
    table = parse_points_table(text)
    assert table == PointsTable((Band(1, 1, 8), Band(2, 2, 5), Band(3, 4, 3)), 2)


def test_without_participation_points_taking_part_earns_nothing() -> None:
    table = parse_points_table("1st = 3\n2nd = 2\n3rd = 1")
    assert table.points_for(3) == 1
    assert table.points_for(4) == 0


@pytest.mark.parametrize(
    ("text", "key", "line"),
    [
        ("優勝 10", "series.points.not_a_pair", 1),
        ("優勝 = 10\n優勝 = 8", "series.points.duplicate_key", 2),
        ("優勝 = 10\n準優勝 = -3", "series.points.bad_points", 2),
        ("優勝 = ten", "series.points.bad_points", 1),
        ("優勝 = 1001", "series.points.bad_points", 1),
        ("優勝 = 10\nMVP = 3", "series.points.unknown_key", 2),
        ("優勝 = 10\nベスト8 = 3\nベスト4 = 5", "series.points.out_of_order", 3),
        ("優勝 = 10\n5-8位 = 3", "series.points.out_of_order", 2),
        ("準優勝 = 7", "series.points.out_of_order", 1),
        ("優勝 = 5\n準優勝 = 7", "series.points.worse_place_more_points", 2),
        ("優勝 = 10\n2-1位 = 1", "series.points.out_of_order", 2),
        ("優勝 = 10\nベスト2000 = 1", "series.points.bad_places", 2),
    ],
)
def test_each_mistake_names_its_line(text: str, key: str, line: int) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_points_table(text)
    assert refused.value.key == key
    assert refused.value.params["line"] == line


def test_a_table_needs_a_placing_and_a_sane_size() -> None:
    with pytest.raises(InvalidInput) as empty:
        parse_points_table("参加 = 1\n# nothing else")
    assert empty.value.key == "series.points.no_bands"
    with pytest.raises(InvalidInput) as long:
        parse_points_table("# " + "x" * 5000)
    assert long.value.key == "series.points.too_long"
    many = "\n".join(f"{n}位 = 1" for n in range(1, 40))
    with pytest.raises(InvalidInput) as bands:
        parse_points_table(many)
    assert bands.value.key == "series.points.too_many_bands"


@st.composite
def tables(draw: st.DrawFn) -> PointsTable:
    widths = draw(st.lists(st.integers(1, 8), min_size=1, max_size=10))
    points = sorted(
        draw(st.lists(st.integers(0, 1000), min_size=len(widths), max_size=len(widths)))
    )
    bands, first = [], 1
    for width, value in zip(widths, reversed(points), strict=True):
        bands.append(Band(first, first + width - 1, value))
        first += width
    return PointsTable(tuple(bands), draw(st.integers(0, 1000)))


@given(tables())
def test_a_table_reads_back_from_its_text(table: PointsTable) -> None:
    assert parse_points_table(table.to_text()) == table


@given(tables(), st.integers(1, 200), st.integers(1, 200))
def test_a_better_placing_never_earns_fewer_points(
    table: PointsTable, finish: int, other: int
) -> None:
    better, worse = sorted((finish, other))
    assert table.points_for(better) >= table.points_for(worse) >= table.participation
