"""The bracket picture: a real PNG, Japanese names drawn with the shipped font."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFont

from bot.ui.bracket import (
    NAME_SIZE,
    BracketPicture,
    BracketSlot,
    SlotPlayer,
    bracket_file,
    render_bracket,
    round_label,
)
from bot.ui.picture_text import (
    FontMissing,
    fit_runs,
    font,
    has_glyph,
    layout,
    line_width,
    locate_font,
)
from domain.engine.elimination import bracket_order

NAMES = [
    "平沢 唯",
    "秋山 澪",
    "田井中 律",
    "琴吹 紬",
    "中野 梓",
    "真鍋 和",
    "平沢 憂",
    "鈴木 純",
    "山中 さわ子",
    "曽我部 恵",
    "若王子 いちご",
    "髙橋 﨑子",
    "寿限無寿限無五劫の擦り切れ海砂利水魚の水行末雲来末風来末",
    "🎸ギター担当🎸",
    "\u202eevil\u202c zero\u200bwidth",
    "A Very Long Overseas Player Name Indeed",
]


def seeded(size: int) -> list[list[BracketSlot]]:
    """A bracket of `size` players, seeds placed as the domain places them, the first round
    played (the lower seed of every other match wins) and the second round half known."""
    order = bracket_order(size)
    players = [SlotPlayer(NAMES[seed - 1], seed) for seed in order]
    first = [
        BracketSlot(
            (players[i], players[i + 1]), winner=(i // 2) % 2, score="判定勝ち" if i == 2 else None
        )
        for i in range(0, size, 2)
    ]
    rounds = [first]
    if size >= 4:
        winners = [slot.players[slot.winner or 0] for slot in first]
        second = [
            BracketSlot((winners[i], winners[i + 1]), winner=0 if i == 0 else None)
            for i in range(0, len(winners), 2)
        ]
        rounds.append(second)
    return rounds


def png(picture: BracketPicture) -> Image.Image:
    data = render_bracket(picture)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize(
    ("size", "max_bytes", "min_height", "max_height"),
    [
        (2, 100_000, 150, 400),
        (4, 150_000, 250, 600),
        (8, 200_000, 450, 900),
        (16, 300_000, 800, 1300),
    ],
)
def test_a_real_png_that_opens_at_a_phone_friendly_size(
    size: int, max_bytes: int, min_height: int, max_height: int, tmp_path: Path
) -> None:
    picture = BracketPicture("けいおん！杯 決勝トーナメント", seeded(size), subtitle="第 2 回戦")
    path = tmp_path / f"bracket-{size}.png"
    path.write_bytes(render_bracket(picture))
    assert 5_000 < path.stat().st_size < max_bytes
    with Image.open(path) as image:
        assert image.format == "PNG"
        image.verify()
    with Image.open(path) as image:
        width, height = image.size
        assert 1000 <= width <= 1600
        assert min_height <= height <= max_height
        # Not a blank card: the boxes, lines and text use many colours.
        assert len(image.convert("RGB").getcolors(maxcolors=1 << 16) or []) > 50


def test_the_font_comes_from_the_installed_package() -> None:
    source = locate_font()
    assert isinstance(source, Path | bytes)
    size = source.stat().st_size if isinstance(source, Path) else len(source)
    assert size > 1_000_000  # a real CJK font, not a stub


def test_japanese_glyphs_are_real_glyphs_not_the_notdef_box() -> None:
    face = font(NAME_SIZE)
    notdef = face.getmask("\uffff")
    for name in NAMES[:12]:
        for char in name.replace(" ", ""):
            assert has_glyph(char), char
            mask = face.getmask(char)
            assert (mask.size, bytes(mask)) != (notdef.size, bytes(notdef)), char
    # Pillow's own bitmap font cannot draw them at all: the check above is not vacuous.
    with pytest.raises(UnicodeEncodeError):
        ImageFont.load_default_imagefont().getmask("平")
    assert not has_glyph("😀")


def test_two_names_differing_in_one_kanji_give_different_pictures() -> None:
    # Were the kanji drawn as .notdef boxes, 唯 and 憂 would look the same.
    def picture(name: str) -> Image.Image:
        slot = BracketSlot((SlotPlayer(name, 1), SlotPlayer("秋山 澪", 2)), winner=0)
        return png(BracketPicture("大会", [[slot]])).convert("RGB")

    yui, ui = picture("平沢 唯"), picture("平沢 憂")
    assert ImageChops.difference(yui, ui).getbbox() is not None


def test_invisible_characters_are_left_out_not_drawn_as_boxes() -> None:
    # Emoji are drawn (tests/bot/test_bracket_scripts.py); format characters are not.
    def drawn(text: str) -> str:
        return "".join(run.text for run in layout(text))

    assert drawn("\u202eevil\u202c zero\u200bwidth") == "evil zerowidth"
    assert drawn("🎸ギター担当🎸") == "🎸ギター担当🎸"

    def picture(name: str) -> Image.Image:
        slot = BracketSlot((SlotPlayer(name, 1), SlotPlayer("秋山 澪", 2)))
        return png(BracketPicture("大会", [[slot]])).convert("RGB")

    plain = picture("中野 梓")
    assert ImageChops.difference(picture("中野\u200b \u2066梓\u2069"), plain).getbbox() is None


def test_long_names_are_cut_by_measured_width_with_an_ellipsis() -> None:
    def cut(text: str, limit: float) -> str:
        runs = fit_runs(layout(text), NAME_SIZE, limit)
        assert line_width(runs, NAME_SIZE) <= limit
        return "".join(run.text for run in runs)

    long_kanji = NAMES[12]
    shown = cut(long_kanji, 200)
    assert shown.endswith("…")
    assert long_kanji.startswith(shown[:-1])
    # Measured, not counted: narrow letters fit more characters than wide kanji.
    assert len(cut("i" * 200, 200)) > len(cut("寿" * 200, 200))
    assert cut("平沢 唯", 200) == "平沢 唯"
    # Across fonts, and never leaving half an emoji sequence's joiner behind.
    mixed = cut("平沢🎸唯" + "👨\u200d👩\u200d👧" * 20, 200)
    assert mixed.startswith("平沢🎸唯")
    assert mixed.endswith("…")
    assert "\u200d…" not in mixed


def test_byes_double_losses_and_unknown_players_render() -> None:
    s = SlotPlayer
    first = [
        BracketSlot((s("平沢 唯", 1), None), winner=0),
        BracketSlot((s("田井中 律", 4), s("中野 梓", 5)), double_loss=True),
        BracketSlot((s("秋山 澪", 2), None)),
        BracketSlot((s("琴吹 紬", 3), s("真鍋 和", 6)), winner=1, score="2-1"),
    ]
    second = [BracketSlot((s("平沢 唯", 1), None), winner=0), BracketSlot((None, s("真鍋 和", 6)))]
    for lang in ("ja", "en"):
        image = png(BracketPicture("Winter Cup", [first, second], lang=lang))
        assert image.size[0] >= 1000


@pytest.mark.parametrize(
    ("slots", "message"),
    [
        ([], "at least one match"),
        ([BracketSlot()] * 3, "power of two"),
        ([BracketSlot((SlotPlayer("a"), None), winner=1)], "winner"),
        ([BracketSlot((SlotPlayer("a"), SlotPlayer("b")), winner=0, double_loss=True)], "winner"),
    ],
)
def test_a_malformed_bracket_is_refused(slots: list[BracketSlot], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_bracket(BracketPicture("x", [slots]))


def test_rounds_are_named_from_the_final_backwards() -> None:
    assert [round_label(i, 4, "ja") for i in range(4)] == [
        "第 1 回戦",
        "準々決勝",
        "準決勝",
        "決勝",
    ]
    assert [round_label(i, 2, "en") for i in range(2)] == ["Semifinals", "Final"]
    assert round_label(0, 5, "en") == "Round 1"


def test_a_missing_font_is_a_clear_error_at_render_time_not_at_import() -> None:
    with pytest.raises(FontMissing, match="pip install no-such-font-package"):
        locate_font("no_such_font_package")
    # In a fresh interpreter where the font package cannot be imported: the module still
    # imports, and only drawing fails, with the package to install.
    script = textwrap.dedent(
        """
        import sys
        sys.modules["noto_cjk_sans_jp_regular"] = None
        from bot.ui.bracket import BracketPicture, BracketSlot, render_bracket
        from bot.ui.picture_text import FontMissing
        try:
            render_bracket(BracketPicture("x", [[BracketSlot()]]))
        except FontMissing as error:
            print("missing:", error)
        """
    )
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True
    )
    assert "missing:" in result.stdout
    assert "noto-cjk-sans-jp-regular" in result.stdout


def test_the_picture_comes_as_a_discord_attachment() -> None:
    attachment = bracket_file(BracketPicture("大会", seeded(4)))
    assert attachment.filename == "bracket.png"
    with Image.open(attachment.fp) as image:
        assert image.format == "PNG"
