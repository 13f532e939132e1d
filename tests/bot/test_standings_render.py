"""/standings pages and CSV: R-FMT-4 (points, opponents' points), R-FMT-5 (shared
ranks), lined up by display width for Japanese names, within Discord's limits."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from fractions import Fraction

import pytest

from bot.i18n import Lang, catalog
from bot.ui.standings import (
    EMBED_DESCRIPTION_LIMIT,
    StandingRow,
    display_width,
    format_points,
    standings_csv,
    standings_page,
    truncate,
)


def cols(text: str) -> int:
    """The reference width: East Asian Wide and Fullwidth characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def table_lines(description: str) -> list[str]:
    block = re.fullmatch(r"```\n(.*)\n```\n.*", description, flags=re.DOTALL)
    assert block is not None, description
    return block.group(1).replace("\u200b", "").split("\n")


MIXED = [
    StandingRow(1, "平沢 唯", 12, Fraction(45, 2)),
    StandingRow(2, "Mio Akiyama", 9, Fraction(21)),
    StandingRow(2, "田井中 律", 9, Fraction(21)),
    StandingRow(4, "ＡＢＣ全角", 9, Fraction(37, 2), "dropped"),
    StandingRow(5, "琴吹 紬", 6, Fraction(15), "disqualified"),
    StandingRow(6, "nakano azusa", 3, Fraction(7, 2)),
    StandingRow(7, "若王子いちごと名前がとても長いプレイヤー", 0, Fraction(0)),
]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_columns_line_up_by_display_width(lang: Lang) -> None:
    embed, pages = standings_page(MIXED, "けいおん！杯", lang, 0)
    assert pages == 1
    lines = table_lines(embed.description or "")
    assert len(lines) == 1 + len(MIXED)
    # The last column (opponents' points) is right-aligned: every line ends at one column.
    assert len({cols(line) for line in lines}) == 1, lines
    # Points end at the same column on every row too.
    ends = set()
    for row, line in zip(MIXED, lines[1:], strict=True):
        head = line[: line.rindex(" " + str(row.points) + " ") + 1 + len(str(row.points))]
        ends.add(cols(head))
    assert len(ends) == 1
    assert lines[1].lstrip().startswith("1 平沢 唯")


def test_long_names_are_cut_by_display_width_with_an_ellipsis() -> None:
    assert truncate("若王子いちごと名前がとても長い", 9) == "若王子い…"
    assert cols(truncate("若王子いちごと名前がとても長い", 9)) <= 9
    assert truncate("abcdefghijklmnop", 9) == "abcdefgh…"
    assert truncate("平沢 唯", 9) == "平沢 唯"
    assert display_width("ＡＢＣ") == 6
    assert display_width("e\u0301") == 1  # a combining accent takes no column
    embed, _ = standings_page(MIXED, "x", "ja", 0)
    assert "若王子いちごと…" in (embed.description or "")


def test_shared_ranks_show_the_same_number_and_the_next_rank_skips() -> None:
    # R-FMT-5: equal points and opponents' points share the rank.
    embed, _ = standings_page(MIXED, "x", "en", 0)
    lines = table_lines(embed.description or "")[1:]
    ranks = [line.split()[0] for line in lines]
    assert ranks[:4] == ["1", "2", "2", "4"]


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(15, 2), "7.5"),  # R-FMT-4: a bye in a 5-round event
        (Fraction(21), "21"),
        (Fraction(0), "0"),
        (Fraction(45, 2), "22.5"),
        (Fraction(1, 4), "0.25"),
        (Fraction(201, 20), "10.05"),
        (Fraction(1, 3), "0.33"),
    ],
)
def test_points_are_shown_exactly(value: Fraction, shown: str) -> None:
    assert format_points(value) == shown


def test_the_page_shows_opponents_points_without_trailing_zeros() -> None:
    rows = [
        StandingRow(1, "平沢 唯", 9, Fraction(15, 2)),
        StandingRow(2, "秋山 澪", 6, Fraction(9)),
    ]
    description = standings_page(rows, "x", "ja", 0)[0].description or ""
    lines = table_lines(description)
    assert lines[1].endswith(" 7.5")
    assert lines[2].endswith("   9")
    assert ".0" not in description


def test_dropped_and_disqualified_players_are_marked_in_words() -> None:
    ja = table_lines(standings_page(MIXED, "x", "ja", 0)[0].description or "")
    assert "ドロップ" in ja[4]
    assert "失格" in ja[5]
    assert not any(word in ja[1] for word in ("ドロップ", "失格"))
    en = table_lines(standings_page(MIXED, "x", "en", 0)[0].description or "")
    assert "drop" in en[4]
    assert "DQ" in en[5]


def test_records_get_a_column_only_when_given() -> None:
    rows = [
        StandingRow(1, "平沢 唯", 9, Fraction(6), record="3-0-0"),
        StandingRow(2, "秋山 澪", 6, Fraction(9)),
    ]
    lines = table_lines(standings_page(rows, "x", "ja", 0)[0].description or "")
    assert lines[0].endswith("戦績")
    assert lines[1].endswith("3-0-0")
    assert "戦績" not in (standings_page(MIXED, "x", "ja", 0)[0].description or "")


def test_a_name_cannot_break_the_code_block_or_the_line() -> None:
    rows = [
        StandingRow(1, "```evil``` @everyone", 3, Fraction(3)),
        StandingRow(2, "two\nlines\u202ereversed\u200b", 3, Fraction(3)),
    ]
    description = standings_page(rows, "x", "en", 0)[0].description or ""
    assert description.count("```") == 2  # the opening and closing fences only
    lines = table_lines(description)
    assert len(lines) == 3
    assert "\u202e" not in description
    assert "two lines" in lines[2]


def test_three_hundred_players_page_through_every_row_once() -> None:
    rows = [
        StandingRow(i + 1, f"プレイヤー{i + 1}", 30 - i // 10, Fraction(300 - i, 2))
        for i in range(300)
    ]
    embed, pages = standings_page(rows, "大会", "ja", 0)
    assert pages == 15
    seen = []
    for page in range(pages):
        embed, count = standings_page(rows, "大会", "ja", page)
        assert count == pages
        lines = table_lines(embed.description or "")[1:]
        assert len(lines) == 20
        seen.extend(int(line.split()[0]) for line in lines)
        assert embed.footer.text == f"{page + 1}/15 ページ・300 人"
    assert seen == list(range(1, 301))
    # A page past the end shows the last one.
    last, _ = standings_page(rows, "大会", "ja", 99)
    assert table_lines(last.description or "")[-1].split()[0] == "300"
    assert standings_page(rows, "大会", "en", 0)[0].footer.text == "Page 1/15 · 300 players"


def test_pages_stay_within_discord_limits_with_long_names() -> None:
    nasty = "`" * 10 + "寿限無寿限無五劫の擦り切れ" + "W" * 9  # 32 characters
    assert len(nasty) == 32
    rows = [
        StandingRow(i + 1, nasty, 3, Fraction(45, 2), "disqualified", "10-10-10")
        for i in range(300)
    ]
    pages = standings_page(rows, "長" * 300, "ja", 0, per_page=200)[1]
    shown = 0
    for page in range(pages):
        embed, _ = standings_page(rows, "長" * 300, "ja", page, per_page=200)
        assert len(embed.description or "") <= EMBED_DESCRIPTION_LIMIT
        assert len(embed) <= 6000  # Discord's limit for all embeds of one message
        assert len(embed.title or "") <= 256
        shown += len(table_lines(embed.description or "")) - 1
    assert shown == 300


def test_no_standings_yet() -> None:
    embed, pages = standings_page([], "x", "en", 3)
    assert pages == 1
    assert embed.description == catalog("en")["standings.empty"]


def test_csv_has_a_bom_and_the_readers_header() -> None:
    rows = [*MIXED, StandingRow(8, "=HYPERLINK(1)", 0, Fraction(1, 2), record="0-3-0")]
    data = standings_csv(rows, "ja")
    assert data.startswith(b"\xef\xbb\xbf")
    assert b"\r\n" in data  # Excel's line ends
    table = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert table[0] == [
        "順位",
        "プレイヤー",
        "勝ち点",
        "対戦相手の勝ち点",
        "戦績",
        "状態",
        "決勝トーナメント",
    ]
    assert table[1] == ["1", "平沢 唯", "12", "22.5", "", "", ""]
    assert table[4][5] == "ドロップ"
    assert table[5][5] == "失格"
    assert table[7][1] == "若王子いちごと名前がとても長いプレイヤー"  # never cut
    assert table[8][1] == "'=HYPERLINK(1)"  # not run as a formula
    assert table[8][3:5] == ["0.5", "0-3-0"]
    en = list(csv.reader(io.StringIO(standings_csv(rows, "en").decode("utf-8-sig"))))
    assert en[0][0] == "Rank"
    assert en[5][5] == "disqualified"


SEEDED = [
    StandingRow(1, "あずさ", 12, Fraction(30), record="4-0-0", seed=1),
    StandingRow(2, "みお", 9, Fraction(27), record="3-1-0", seed=3),
    StandingRow(2, "りつ", 9, Fraction(27), record="3-1-0", seed=2),
    StandingRow(4, "ゆい", 9, Fraction(24), record="3-1-0", seed=4),
    StandingRow(5, "のどか", 6, Fraction(24), record="2-2-0"),
]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_shared_ranks_show_the_seed_the_bracket_used_r_fmt_5(lang: Lang) -> None:
    # R-FMT-5: two players shown at rank 2 were seeded 3 and 2 by the draw from the
    # recorded seed; the table says so in a column of its own, and the legend says what it is.
    embed, _ = standings_page(SEEDED, "けいおん！杯", lang, 0)
    header, *lines = table_lines(embed.description or "")
    seed_word = catalog(lang)["standings.col.seed"]
    assert seed_word in header
    assert header.split()[1] == seed_word  # after the rank
    assert [line.split()[1] for line in lines] == ["1", "3", "2", "4", "のどか"]
    assert catalog(lang)["standings.legend_seed"] in (embed.description or "")
    plain, _ = standings_page(MIXED, "けいおん！杯", lang, 0)
    assert seed_word not in (plain.description or "")
    table = list(csv.reader(io.StringIO(standings_csv(SEEDED, lang).decode("utf-8-sig"))))
    assert table[0][-1] == catalog(lang)["standings.csv.seed"]
    assert [row[-1] for row in table[1:]] == ["1", "3", "2", "4", ""]
    unseeded = list(csv.reader(io.StringIO(standings_csv(MIXED, lang).decode("utf-8-sig"))))
    assert catalog(lang)["standings.csv.seed"] not in unseeded[0]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_top_cut_column_is_explained_in_the_legend(lang: Lang) -> None:
    rows = [
        StandingRow(1, "なぎさ", 9, Fraction(42), record="3-2-0", top_cut=1),
        StandingRow(2, "ひだまり荘", 15, Fraction(44), record="5-0-0", top_cut=2),
    ]
    embed, _ = standings_page(rows, "けいおん！杯", lang, 0)
    assert catalog(lang)["standings.legend_top_cut"] in (embed.description or "")
