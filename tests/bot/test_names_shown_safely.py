"""A member's name is shown as written but can never ping,
format, or reorder the line around it."""

from __future__ import annotations

from fractions import Fraction

from bot.ui.render import safe
from bot.ui.standings import StandingRow, display_width, standings_page, unpinged

ODD_NAME = "@everyone 平沢🇯🇵\u200d\u202e"


def test_safe_escapes_mentions_and_closes_bidi_controls() -> None:
    shown = safe(ODD_NAME)
    assert "@everyone" not in shown
    assert shown == "\u2068@\u200beveryone 平沢🇯🇵\u200d\u202e\u2069"
    assert "@\u200bhere" in safe("@here *bold*")
    assert safe("plain 名前") == "plain 名前"  # nothing added where nothing is needed


def test_standings_rows_never_ping_and_stay_aligned() -> None:
    rows = [
        StandingRow(1, ODD_NAME, 9, Fraction(6)),
        StandingRow(2, "@here", 6, Fraction(3)),
        StandingRow(3, "Alice", 3, Fraction(9, 2)),
    ]
    embed, _ = standings_page(rows, "Cup", "ja", 0)
    text = embed.description or ""
    assert "@everyone" not in text
    assert "@here" not in text
    assert "@\u200beveryone" in text
    body = [line for line in text.splitlines() if line.strip()[:1].isdigit()]
    assert len(body) == len(rows)
    # The points column ends at the same display column on every row: the zero-width space
    # takes no room.
    ends = {display_width(line.rsplit(maxsplit=1)[0]) for line in body}
    assert len(ends) == 1


def test_unpinged_reads_the_same() -> None:
    assert unpinged("@Everyone and @here").replace("\u200b", "") == "@Everyone and @here"
    assert display_width(unpinged("@everyone")) == display_width("@everyone")
