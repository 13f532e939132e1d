"""Builders shared by the deck tests."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from pathlib import Path

from domain.decks import (
    CardDatabase,
    DeckCheck,
    Decklist,
    DeckRules,
    Regulation,
    RestrictedList,
    check_deck,
    parse_decklist,
)

REPO_ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = REPO_ROOT / "data" / "examples"
EVENT_DATE = dt.date(2014, 6, 1)
KEION = "けいおん！"
YURUYURI = "ゆるゆり"

# The restricted-list format exactly as docs/decklists.md gives it (also
# data/restricted/example.toml).
FORMAT_EXAMPLE = """
[[limit]]
regulations = ["single", "event"]     # any of: mix, single, mix-two, event
effective = 2014-05-03
label = "メモリーズカード"
title = "ゆるゆり"
number = "01-046"
max_copies = 1

[[group]]
regulations = ["mix", "mix-two"]
effective = 2014-05-03
label = "プレシャス1"
max_total = 1
cards = [{title = "ゆるゆり", number = "01-063"}, {title = "ゆるゆり", number = "01-121"}]
"""


def text_deck(sections: dict[str, Iterable[tuple[int, str]]]) -> str:
    """The text format: `{title: [(count, number), …]}`."""
    out: list[str] = []
    for title, cards in sections.items():
        out.append(f"# {title}")
        out.extend(f"{count} {number}" for count, number in cards)
    return "\n".join(out) + "\n"


def spread(total: int, prefix: str = "01", start: int = 1) -> list[tuple[int, str]]:
    """`total` cards as 4-ofs (and one remainder) of distinct numbers."""
    cards: list[tuple[int, str]] = []
    serial = start
    while total > 0:
        count = min(4, total)
        cards.append((count, f"{prefix}-{serial:03d}"))
        total -= count
        serial += 1
    return cards


def deck(sections: dict[str, Iterable[tuple[int, str]]]) -> Decklist:
    return parse_decklist(text_deck(sections))


def legal_keion() -> Decklist:
    return deck({KEION: spread(60)})


def check(
    decklist: Decklist,
    regulation: Regulation = Regulation.MIX,
    *,
    date: dt.date = EVENT_DATE,
    designated: tuple[str, ...] = (),
    restricted: RestrictedList | None = None,
    cards: CardDatabase | None = None,
    mix_two_minimum: int = 15,
    ex_deck: bool = False,
    ex_copies_shared: bool = True,
) -> DeckCheck:
    return check_deck(
        decklist,
        DeckRules(
            regulation=regulation,
            date=date,
            designated_titles=designated,
            restricted=restricted,
            cards=cards,
            mix_two_minimum=mix_two_minimum,
            ex_deck=ex_deck,
            ex_copies_shared=ex_copies_shared,
        ),
    )


def keys(result: DeckCheck) -> list[str]:
    return [violation.key for violation in result.violations]


def yuruyuri(*cards: tuple[int, str]) -> Decklist:
    """A 60-card ゆるゆり deck holding `cards` and filler 4-ofs from 02-001."""
    total = sum(count for count, _ in cards)
    return deck({YURUYURI: [*cards, *spread(60 - total, prefix="02")]})
