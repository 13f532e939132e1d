"""Tournament handles: checked by the one name cleaner in its `chosen` mode, and
unique on a server as people read them."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInput
from domain.event import HIDDEN_FORMAT, clean_display_name
from domain.handles import (
    MAX_HANDLE,
    check_handle_free,
    clean_handle,
    name_key,
    set_handle,
    shown_name,
)


@pytest.mark.parametrize(
    "handle", ["ゆい", "Mio Akiyama", "あずにゃん🐱", "👨\u200d👩\u200d👧", "平沢🇯🇵", "مرحبا"]
)
def test_ordinary_handles_are_kept(handle: str) -> None:
    assert clean_handle(handle) == handle


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "event.name_empty"),
        ("x" * (MAX_HANDLE + 1), "event.name_too_long"),
        ("bell\x07", "event.name_control_characters"),
        ("\ud800", "event.name_control_characters"),
        ("abc\u202edcba", "event.name_hidden_characters"),  # RLO: reverses what follows
        ("a\u2066b\u2069", "event.name_hidden_characters"),  # an isolate
        ("yu\u200bi", "event.name_hidden_characters"),  # a zero-width space
        ("\u3164", "event.name_hidden_characters"),  # a Hangul filler: a blank name
        ("@everyone", "event.name_mentions"),
        ("<@123456789012345678>", "event.name_mentions"),
    ],
)
def test_hostile_handles_are_refused_with_the_cleaners_keys(text: str, key: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        clean_handle(text)
    assert refused.value.key == key
    assert refused.value.params["field"] == "handle"


def test_a_discord_name_keeps_what_a_handle_may_not() -> None:
    # The same cleaner: Discord's own names are only refused for what breaks the text.
    assert clean_display_name("abc\u202edcba") == "abc\u202edcba"
    assert clean_display_name("@everyone") == "@everyone"


def test_line_breaks_fold_to_one_space() -> None:
    assert clean_handle("  ゆい\n  \u3000ちゃん ") == "ゆい ちゃん"


def test_two_players_cannot_read_as_the_same_name() -> None:
    handles = {1: "Ｙｕｉ", 2: "mio"}
    with pytest.raises(InvalidInput) as taken:
        set_handle("yui", 3, handles)
    assert taken.value.key == "handle.taken"
    with pytest.raises(InvalidInput):
        check_handle_free("M I O", 3, handles)
    # Keeping (or restyling) one's own handle is fine.
    assert set_handle("YUI", 1, handles) == "YUI"
    assert name_key("Ｙｕｉ Hirasawa") == name_key("yuihirasawa")


def test_the_shown_name_is_the_handle_when_there_is_one() -> None:
    assert shown_name("yui_discord", "ゆい") == "ゆい"
    assert shown_name("yui_discord", None) == "yui_discord"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_a_handle_is_one_short_line_without_hidden_characters(text: str) -> None:
    try:
        handle = clean_handle(text)
    except InvalidInput:
        return
    assert 1 <= len(handle) <= MAX_HANDLE
    assert len(handle.splitlines()) == 1
    assert all(unicodedata.category(char) not in ("Cc", "Cs") for char in handle)
    assert not set(handle) & HIDDEN_FORMAT
    assert clean_handle(handle) == handle
