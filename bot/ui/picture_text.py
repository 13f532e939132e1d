"""Text in a picture (the bracket PNG): which font draws which character, and drawing it.

Players' names come in any script. The main font is Noto Sans CJK JP (the
`noto-cjk-sans-jp-regular` package): Japanese, Latin, Greek, Cyrillic. What it lacks (Arabic,
Hebrew, Thai and the other scripts of South and South-East Asia, emoji) is drawn with the
Noto fonts of the `manimgx-fonts` package, tried in `FALLBACK_FILES` order. `layout` cuts a
text into runs, each drawn with the first font that has a glyph for every character of it;
a character no installed font has is left out, never drawn as an empty box.

The main font is laid out with Pillow's basic engine, which gives the same metrics on every
machine. The fallback fonts are laid out with libraqm when Pillow has it (`complex_layout`):
it joins and orders Arabic letters and joins emoji sequences (👨‍👩‍👧). Without it (libraqm
needs FriBiDi, Debian's `libfribidi0`, at run time) every glyph is still real: Arabic is put
in reading order letter by letter, and emoji joiners are left out.

Fonts are located when text is first laid out, never at import. A missing main font raises
`FontMissing`; a missing fallback package only means fewer characters can be drawn.
"""

from __future__ import annotations

import io
import logging
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from PIL import ImageDraw, ImageFont, features

from bot.ui.emoji import ZWJ, is_skin_tone, without_stray_joiners

log = logging.getLogger(__name__)

FONT_PACKAGE = "noto_cjk_sans_jp_regular"
FONT_FILE = "NotoSansCJKjp-Regular.otf"

# Noto (SIL OFL 1.1) for what the Japanese font lacks: the pan-European Noto Sans first, the
# scripts of other languages, then emoji (monochrome outlines) and other symbols.
FALLBACK_PACKAGE = "manimgx_fonts"
FALLBACK_FILES = (
    "NotoSans[wght].ttf",
    "NotoSansArabic[wght].ttf",
    "NotoSansHebrew[wght].ttf",
    "NotoSansThai[wght].ttf",
    "NotoSansLao[wght].ttf",
    "NotoSansKhmer[wght].ttf",
    "NotoSansMyanmar[wght].ttf",
    "NotoSansDevanagari[wght].ttf",
    "NotoSansBengali[wght].ttf",
    "NotoSansGurmukhi[wght].ttf",
    "NotoSansGujarati[wght].ttf",
    "NotoSansOriya[wght].ttf",
    "NotoSansTamil[wght].ttf",
    "NotoSansTelugu[wght].ttf",
    "NotoSansKannada[wght].ttf",
    "NotoSansMalayalam[wght].ttf",
    "NotoSansSinhala[wght].ttf",
    "NotoSansArmenian[wght].ttf",
    "NotoSansGeorgian[wght].ttf",
    "NotoSansEthiopic[wght].ttf",
    "NotoEmoji[wght].ttf",
    "NotoSansSymbols[wght].ttf",
)

# Characters that only select or join the glyphs around them (a joiner, an emoji or text
# variation selector, the tags of a subdivision flag): kept inside a shaped run, where
# libraqm consumes them, and left out anywhere else.
_SHAPING_ONLY = frozenset({ZWJ, "\ufe0e", "\ufe0f", *map(chr, range(0xE0020, 0xE0080))})
_INVISIBLE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_MARKS = {"Mn", "Mc", "Me"}


class FontMissing(RuntimeError):
    """The Japanese font the pictures are drawn with is not installed."""


@dataclass(frozen=True)
class PictureFont:
    """One font of the chain. `shaped`: laid out with libraqm when Pillow has it."""

    name: str
    source: Path | bytes
    shaped: bool = False


@dataclass(frozen=True)
class Run:
    """Consecutive characters of a text drawn with one font, in reading order."""

    text: str
    font: PictureFont


def locate_font(package: str = FONT_PACKAGE, filename: str = FONT_FILE) -> Path | bytes:
    """The font file's path (or its bytes, if the package is installed zipped)."""
    hint = f"pip install {package.replace('_', '-')}"
    try:
        resource = resources.files(package).joinpath(filename)
    except ModuleNotFoundError as exc:
        raise FontMissing(f"The font package {package!r} is not installed ({hint}).") from exc
    if not resource.is_file():
        raise FontMissing(f"{filename} is missing from {package!r} ({hint}).")
    if isinstance(resource, Path):
        return resource
    return resource.read_bytes()


@cache
def font_chain() -> tuple[PictureFont, ...]:
    """The main font, then each fallback font that is installed."""
    chain = [PictureFont(FONT_FILE, locate_font())]
    for filename in FALLBACK_FILES:
        try:
            chain.append(PictureFont(filename, locate_font(FALLBACK_PACKAGE, filename), True))
        except FontMissing as missing:
            log.warning("pictures draw fewer scripts: %s", missing)
            break  # one package: when one file is missing, the others are too
    return tuple(chain)


def main_font() -> PictureFont:
    return font_chain()[0]


@cache
def complex_layout() -> bool:
    """Whether Pillow can shape text with libraqm (Arabic joining, emoji sequences)."""
    return bool(features.check_feature("raqm"))


@cache
def face(font: PictureFont, size: int) -> ImageFont.FreeTypeFont:
    """`font` at `size` px, with the layout engine it is drawn with."""
    engine = ImageFont.Layout.BASIC
    if font.shaped and complex_layout():
        engine = ImageFont.Layout.RAQM
    handle = io.BytesIO(font.source) if isinstance(font.source, bytes) else str(font.source)
    return ImageFont.truetype(handle, size, layout_engine=engine)


def font(size: int) -> ImageFont.FreeTypeFont:
    """The main (Japanese) font at `size` px."""
    return face(main_font(), size)


_PROBE_SIZE = 24


@cache
def _notdef_mask(font: PictureFont) -> tuple[tuple[int, int], bytes]:
    mask = face(font, _PROBE_SIZE).getmask("\uffff")  # a noncharacter: always .notdef
    return mask.size, bytes(mask)


@cache
def has_glyph(char: str, font: PictureFont | None = None) -> bool:
    """Whether `font` (the main font by default) draws `char` as itself rather than as its
    .notdef box."""
    font = font or main_font()
    mask = face(font, _PROBE_SIZE).getmask(char)
    return (mask.size, bytes(mask)) != _notdef_mask(font)


def _visible(text: str) -> str:
    """`text` without control, format and unassigned characters, except the joiners of
    emoji; white space as single spaces, none at the ends."""
    kept = []
    for char in without_stray_joiners(text):
        category = unicodedata.category(char)
        if category == "Zs":
            kept.append(" ")
        elif category not in _INVISIBLE or char in _SHAPING_ONLY:
            kept.append(char)
    return " ".join("".join(kept).split())


def _font_for(char: str, previous: PictureFont | None) -> PictureFont | None:
    """The font that draws `char`: a mark or a skin tone stays with the character it
    modifies when that font has it; anything else gets the first font that has it."""
    modifier = unicodedata.category(char) in _MARKS or is_skin_tone(char)
    if previous is not None and modifier and has_glyph(char, previous):
        return previous
    return next((font for font in font_chain() if has_glyph(char, font)), None)


def layout(text: str) -> tuple[Run, ...]:
    """`text` as runs of one font each, in reading order; () when nothing in it can be
    drawn. What no installed font has is left out."""
    pieces: list[tuple[str, PictureFont]] = []
    for char in _visible(text):
        previous = pieces[-1][1] if pieces else None
        if char in _SHAPING_ONLY:
            if previous is not None and previous.shaped and complex_layout():
                pieces.append((char, previous))
            continue
        if char == " " and (previous is None or pieces[-1][0] == " "):
            continue  # a space left at the start, or doubled, by a character left out
        chosen = _font_for(char, previous)
        if chosen is not None:
            pieces.append((char, chosen))
    while pieces and pieces[-1][0] == " ":
        pieces.pop()
    _spaces_join_their_words(pieces)
    runs: list[Run] = []
    for char, chosen in pieces:
        if runs and runs[-1].font == chosen:
            runs[-1] = Run(runs[-1].text + char, chosen)
        else:
            runs.append(Run(char, chosen))
    if not complex_layout():
        runs = [Run(_reading_order(run.text), run.font) for run in runs]
    return tuple(runs)


def _spaces_join_their_words(pieces: list[tuple[str, PictureFont]]) -> None:
    """A space between two words of one fallback font belongs to that font's run: Arabic
    words are ordered right to left around it, which a run break would prevent."""
    for index, (char, _) in enumerate(pieces):
        if char != " " or index == 0 or index + 1 == len(pieces):
            continue
        before, after = pieces[index - 1][1], pieces[index + 1][1]
        if before == after and before.shaped and has_glyph(" ", before):
            pieces[index] = (" ", before)


def _reading_order(text: str) -> str:
    """Right-to-left text, for the basic layout that draws left to right: its letters (each
    with its marks) reversed. Other text as it is."""
    if not any(unicodedata.bidirectional(char) in ("R", "AL") for char in text):
        return text
    clusters: list[str] = []
    for char in text:
        if clusters and unicodedata.category(char) in _MARKS:
            clusters[-1] += char
        else:
            clusters.append(char)
    return "".join(reversed(clusters))


def line_width(runs: Sequence[Run], size: int) -> float:
    return sum(face(run.font, size).getlength(run.text) for run in runs)


def fit_runs(runs: Sequence[Run], size: int, limit: float) -> tuple[Run, ...]:
    """`runs`, cut with "…" (in the main font) so that they measure at most `limit` px."""
    if line_width(runs, size) <= limit:
        return tuple(runs)
    total = sum(len(run.text) for run in runs)

    def cut(keep: int) -> tuple[Run, ...]:
        kept: list[Run] = []
        for run in runs:
            if keep <= 0:
                break
            text = run.text[:keep]
            keep -= len(run.text)
            # A cut inside an emoji sequence would leave its joiner joining nothing.
            text = without_stray_joiners(text)
            kept.append(Run(text, run.font))
        if kept and kept[-1].font == main_font():
            return (*kept[:-1], Run(kept[-1].text.rstrip() + "…", main_font()))
        if kept:
            kept[-1] = Run(kept[-1].text.rstrip(), kept[-1].font)
        return (*kept, Run("…", main_font()))

    low, high = 0, total  # the most characters that fit with the ellipsis
    while low < high:
        middle = (low + high + 1) // 2
        if line_width(cut(middle), size) <= limit:
            low = middle
        else:
            high = middle - 1
    return tuple(run for run in cut(low) if run.text)


def draw_runs(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    runs: Sequence[Run],
    size: int,
    *,
    anchor: str = "la",
    fill: tuple[int, int, int],
    stroke_width: int = 0,
) -> None:
    """Draw `runs` one after the other on one baseline. `anchor` as Pillow's, of the whole
    line: horizontal `l` or `r`, vertical `a` (top of the main font's ascender) or `m`
    (midway between its ascender and descender)."""
    ascent, descent = font(size).getmetrics()
    x, y = xy
    baseline = y + ascent if anchor[1] == "a" else y + (ascent - descent) / 2
    if anchor[0] == "r":
        x -= line_width(runs, size)
    for run in runs:
        run_face = face(run.font, size)
        draw.text(
            (x, baseline),
            run.text,
            font=run_face,
            fill=fill,
            anchor="ls",
            stroke_width=stroke_width,
            stroke_fill=fill,
        )
        x += run_face.getlength(run.text)
