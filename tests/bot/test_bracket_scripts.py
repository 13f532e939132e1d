"""The bracket picture draws names in every script a player may use (before: names made of
emoji, Arabic or Thai were drawn as "?", so two such players looked the same). Each piece
of a name is drawn in the first font that has its glyphs; a name no installed font can draw
shows the player's seed, never "?" or an empty box."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops

from bot.ui import picture_text
from bot.ui.bracket import BracketPicture, BracketSlot, SlotPlayer, render_bracket
from bot.ui.picture_text import FONT_FILE, PictureFont, complex_layout, layout

FAMILY = "👨\u200d👩\u200d👧"
# Names the Japanese font has no glyph for, and a second name of the same kind.
OTHER_SCRIPTS = [
    ("😀", "🎸"),
    ("🎸🎸", "🎹🎹"),
    (FAMILY, "👩\u200d👩\u200d👦"),
    ("محمد علي", "علي حسن"),
    ("สมชาย", "สมศรี"),
    ("שלום", "דוד"),
    ("ເລົາ", "ລາວ"),
]
NOBODY_CAN_DRAW = "𓀀𓀁"  # Egyptian hieroglyphs: in none of the installed fonts

# Joining emoji and ordering Arabic need libraqm, which Pillow loads with FriBiDi (Debian's
# libfribidi0, on every machine of this project); without it the picture degrades, as
# test_without_complex_layout_every_glyph_still_exists checks.
needs_raqm = pytest.mark.skipif(not complex_layout(), reason="Pillow has no libraqm here")


def picture(*players: SlotPlayer) -> Image.Image:
    first, second = (*players, SlotPlayer("秋山 澪", 8))[:2]
    slot = BracketSlot((first, second), winner=0)
    data = render_bracket(BracketPicture("大会", [[slot]]))
    return Image.open(io.BytesIO(data)).convert("RGB")


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize(("name", "other"), OTHER_SCRIPTS)
def test_two_players_with_such_names_look_different(name: str, other: str) -> None:
    assert not same(picture(SlotPlayer(name, 1)), picture(SlotPlayer(other, 1)))


@pytest.mark.parametrize("name", [name for pair in OTHER_SCRIPTS for name in pair])
def test_no_such_name_is_drawn_as_a_question_mark_or_the_seed(name: str) -> None:
    drawn = picture(SlotPlayer(name, 3))
    assert not same(drawn, picture(SlotPlayer("?", 3)))
    assert not same(drawn, picture(SlotPlayer("#3", 3)))


def test_a_name_no_font_can_draw_shows_the_seed() -> None:
    assert same(picture(SlotPlayer(NOBODY_CAN_DRAW, 3)), picture(SlotPlayer("#3", 3)))
    # The champion's box too: the winner of a one-match bracket.
    assert same(picture(SlotPlayer("\u200d\u202e", 5)), picture(SlotPlayer("#5", 5)))
    # Without a seed, a word that says so (never "?").
    unnamed = picture(SlotPlayer(NOBODY_CAN_DRAW))
    assert same(unnamed, picture(SlotPlayer("（表示できない名前）")))
    assert not same(unnamed, picture(SlotPlayer("?")))


# --- the layout: which font draws which characters ----------------------------------------------


@cache
def cmap(font: PictureFont) -> frozenset[int]:
    source = font.source if isinstance(font.source, bytes) else font.source.read_bytes()
    return frozenset(TTFont(io.BytesIO(source), lazy=True).getBestCmap())


# Characters that shaping consumes (a joiner, a variation selector): they select or join
# glyphs and have none of their own.
SHAPING_ONLY = {"\u200d", "\ufe0e", "\ufe0f"}


def assert_drawable(name: str) -> str:
    runs = layout(name)
    assert runs, name
    for run in runs:
        for char in run.text:
            if char in SHAPING_ONLY:
                assert run.font.shaped, (name, run)
                continue
            assert ord(char) in cmap(run.font), (name, hex(ord(char)), run.font.name)
    return "".join(run.text for run in runs)


@pytest.mark.parametrize("name", [name for pair in OTHER_SCRIPTS for name in pair])
def test_each_character_is_drawn_in_a_font_that_has_its_glyph(name: str) -> None:
    drawn = assert_drawable(name)
    if complex_layout():
        assert drawn == name  # nothing left out


@needs_raqm
def test_mixed_names_switch_fonts_within_the_name() -> None:
    name = "平沢🎸唯 محمد"
    assert assert_drawable(name) == name
    runs = layout(name)
    assert [run.text for run in runs] == ["平沢", "🎸", "唯 ", "محمد"]
    assert len({run.font.name for run in runs}) == 3


@needs_raqm
def test_the_spaces_of_an_arabic_name_stay_in_its_run() -> None:
    # A space between two Arabic words belongs to the Arabic text: the words are ordered
    # right to left around it.
    (run,) = layout("محمد علي")
    assert run.text == "محمد علي"
    assert "Arabic" in run.font.name


@needs_raqm
def test_joined_emoji_stay_in_one_run_and_stray_joiners_go() -> None:
    (run,) = layout(FAMILY)
    assert run.text == FAMILY
    assert [run.text for run in layout("a\u200db")] == ["ab"]


def test_what_no_font_has_is_left_out_of_a_name_that_has_more() -> None:
    assert assert_drawable(f"平沢{NOBODY_CAN_DRAW}唯") == "平沢唯"
    assert layout(NOBODY_CAN_DRAW) == ()


def test_japanese_names_stay_in_the_japanese_font() -> None:
    for name in ("平沢 唯", "髙橋 﨑子", "A Very Long Overseas Player Name"):
        (run,) = layout(name)
        assert run.font.name == FONT_FILE


def test_without_complex_layout_every_glyph_still_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pillow shapes Arabic and joins emoji with libraqm, which needs FriBiDi at run time.
    # Without it: no joining or shaping, but still real glyphs, and Arabic in reading order.
    monkeypatch.setattr(picture_text, "complex_layout", lambda: False)
    picture_text.face.cache_clear()
    try:
        for name in ("محمد", "สมชาย", "😀🎸"):
            assert assert_drawable(name)
        (run,) = layout("محمد")
        assert run.text == "دمحم"  # drawn left to right, so reversed
        assert layout(FAMILY)[0].text == "👨👩👧"  # no joiners to draw as boxes
        assert not same(picture(SlotPlayer("😀", 1)), picture(SlotPlayer("🎸", 1)))
    finally:
        picture_text.face.cache_clear()


def test_without_the_fallback_fonts_the_seed_is_drawn() -> None:
    # In a fresh interpreter where the fallback font package cannot be imported, a name of
    # emoji draws exactly as its seed, and a Japanese name as before.
    script = textwrap.dedent(
        """
        import io, sys
        sys.modules["manimgx_fonts"] = None
        from PIL import Image, ImageChops
        from bot.ui.bracket import BracketPicture, BracketSlot, SlotPlayer, render_bracket

        def png(name):
            slot = BracketSlot((SlotPlayer(name, 3), SlotPlayer("秋山 澪", 8)), winner=0)
            data = render_bracket(BracketPicture("大会", [[slot]]))
            return Image.open(io.BytesIO(data)).convert("RGB")

        print("same:", ImageChops.difference(png("😀"), png("#3")).getbbox() is None)
        """
    )
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True
    )
    assert "same: True" in result.stdout
