"""The custom-id formats of bot/ui/buttons.py: an id of a format is routed to its
handler whatever the size of its numbers, and one past 64 bits names nothing (`parse` gives
None, which the routes refuse as out of date) instead of going unanswered.

The presses themselves, through the fake Discord: tests/e2e/test_stale_buttons_story.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.ui import buttons
from bot.ui.buttons import REGISTER, RESOLVE_CALL, TIME_FORM, CustomId, carried_number
from bot.ui.pagination import page_id_arg
from bot.ui.stateless import ModalRoutes
from cogs.judges._listing import Listing
from domain.errors import IllegalTransition

FORMATS = sorted(
    (value for value in vars(buttons).values() if isinstance(value, CustomId)),
    key=lambda custom: custom.prefix,
)
PAST_64_BITS = 10**22


def an_id_of(custom: CustomId, number: int) -> str:
    """An id of `custom`'s format with every numeric field `number`."""
    samples = {"kind": "box", "arg": "12.ja", "direction": "n", "choice": "go", "claim": "win"}
    samples |= {"step": "start", "minutes": "x", "tool": "series"}
    values = {
        name: number if pattern == buttons.NUMBER else samples[name]
        for name, pattern in custom.fields
    }
    return custom.prefix + "".join(f":{values[name]}" for name, _ in custom.fields)


@pytest.mark.parametrize("custom", FORMATS, ids=lambda custom: custom.prefix)
def test_every_format_parses_its_ids_and_names_nothing_past_64_bits(custom: CustomId) -> None:
    in_range = an_id_of(custom, 2**63 - 1)
    too_long = an_id_of(custom, PAST_64_BITS)
    assert custom.matches(in_range)
    parsed = custom.parse(in_range)
    assert parsed is not None
    assert 2**63 - 1 in parsed.values()
    assert custom.matches(too_long)  # routed: the route answers it
    assert custom.parse(too_long) is None  # … as naming nothing


def test_a_carried_number_is_ascii_digits_within_64_bits() -> None:
    assert carried_number("0") == 0
    assert carried_number(str(2**63 - 1)) == 2**63 - 1
    for text in (str(2**63), str(PAST_64_BITS), "", "-1", "1.5", "١٢", "１２"):
        assert carried_number(text) is None, text
    # Other scripts' digits match the format's \d, and name nothing.
    assert REGISTER.matches("en:reg:١٢")
    assert REGISTER.parse("en:reg:١٢") is None


NAMING_NOTHING = (f"{PAST_64_BITS}.ja", "me.ja", "１２.ja", ".ja", "")


def test_a_page_buttons_listing_names_an_id_in_range_or_is_out_of_date() -> None:
    assert page_id_arg("12.ja") == (12, "ja")
    assert page_id_arg(f"{2**63 - 1}.en") == (2**63 - 1, "en")
    for arg in NAMING_NOTHING:
        with pytest.raises(IllegalTransition):
            page_id_arg(arg)
    assert Listing.parse("12.0.ja") == Listing(12, None, "ja")
    assert Listing.parse("12.7.en") == Listing(12, 7, "en")
    for arg in ("12.ja", f"12.{PAST_64_BITS}.ja", *(f"12.{text}" for text in NAMING_NOTHING)):
        with pytest.raises(IllegalTransition):
            Listing.parse(arg)


def test_an_id_of_another_format_is_not_matched() -> None:
    assert not REGISTER.matches("en:chk:12")
    assert not REGISTER.matches("en:reg:12:3")
    assert not REGISTER.matches("en:reg:")
    assert REGISTER.parse("en:chk:12") is None


async def handler(*args: Any, **fields: Any) -> None:
    return None


def test_a_form_past_64_bits_is_found_without_fields() -> None:
    routes = ModalRoutes()
    routes.add(TIME_FORM, handler)
    routes.add(RESOLVE_CALL, handler)
    assert routes.find("rt:12:3") == ({"tournament": 12, "round": 3}, handler)
    assert routes.find(f"rt:12:{PAST_64_BITS}") == (None, handler)
    assert routes.find("jm:12:3") is None  # not routed here
