"""The page's Japanese font: the reader's own first, the bot's as a fallback in slices.

Every phone and desktop sold in Japan has a Japanese font (Hiragino on Apple, Noto Sans CJK
on Android, Yu Gothic / Meiryo on Windows), so the page's font stack names those first and a
phone downloads nothing. Only a machine without one (a bare Linux, a kiosk) falls back to
the Noto Sans CJK JP the bot ships (`noto-cjk-sans-jp-regular`, 16 MB: far too much for a
phone). That fallback is cut into slices of 256 code points, each declared with its
`unicode-range`, so the browser fetches only the slices holding characters on the page
(about 50 KB each). A slice is cut with fontTools the first time someone asks for it
(about half a second) and kept in memory.
"""

from __future__ import annotations

import asyncio
import io
import logging
import threading
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FONT_PACKAGE = "noto_cjk_sans_jp_regular"
FONT_FILE = "NotoSansCJKjp-Regular.otf"
FAMILY = "PM Noto Sans JP"
BLOCK = 256  # code points per slice
MIN_GLYPHS = 64  # sparse neighbouring blocks are joined into one slice


@dataclass(frozen=True)
class Slice:
    index: int
    ranges: tuple[tuple[int, int], ...]  # inclusive code point ranges
    codepoints: tuple[int, ...]

    @property
    def unicode_range(self) -> str:
        return ", ".join(
            f"U+{low:04X}" if low == high else f"U+{low:04X}-{high:04X}"
            for low, high in self.ranges
        )


def font_path() -> Path | None:
    try:
        resource = resources.files(FONT_PACKAGE).joinpath(FONT_FILE)
    except ModuleNotFoundError:
        return None
    return resource if isinstance(resource, Path) and resource.is_file() else None


def _load(path: Path, lazy: bool = True) -> Any:
    from fontTools.ttLib import TTFont

    return TTFont(str(path), lazy=lazy)


class FontSlices:
    """The fallback font's slices: the CSS that declares them, and each slice's bytes."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.slices: tuple[Slice, ...] = ()
        self._made: dict[int, bytes] = {}
        self._lock = threading.Lock()
        if path is None:
            return
        try:
            codepoints = sorted(_load(path).getBestCmap())
        except Exception:  # no fontTools, or an unreadable file: the system fonts only
            log.warning("the page's fallback font is not available", exc_info=True)
            self.path = None
            return
        self.slices = _cut(codepoints)

    def css(self) -> str:
        return "".join(
            f'@font-face{{font-family:"{FAMILY}";font-display:swap;'
            f'src:url(/fonts/{piece.index}.woff) format("woff");'
            f"unicode-range:{piece.unicode_range}}}\n"
            for piece in self.slices
        )

    async def woff(self, index: int) -> bytes | None:
        if not 0 <= index < len(self.slices):
            return None
        made = self._made.get(index)
        if made is None:
            made = await asyncio.to_thread(self._make, index)
        return made

    def _make(self, index: int) -> bytes:
        from fontTools import subset

        with self._lock:  # one cut at a time: each reads the whole font
            made = self._made.get(index)
            if made is not None:
                return made
            assert self.path is not None
            options = subset.Options()
            options.flavor = "woff"
            options.hinting = False
            options.layout_features = ["*"]
            font = _load(self.path)
            cutter = subset.Subsetter(options)
            cutter.populate(unicodes=self.slices[index].codepoints)
            cutter.subset(font)
            out = io.BytesIO()
            font.flavor = "woff"
            font.save(out)
            made = self._made[index] = out.getvalue()
            return made


def _cut(codepoints: list[int]) -> tuple[Slice, ...]:
    blocks: dict[int, list[int]] = {}
    for point in codepoints:
        if point >= 0x20:
            blocks.setdefault(point // BLOCK, []).append(point)
    slices: list[Slice] = []
    ranges: list[tuple[int, int]] = []
    points: list[int] = []
    for block in sorted(blocks):
        members = blocks[block]
        ranges.append((members[0], members[-1]))
        points += members
        if len(points) >= MIN_GLYPHS:
            slices.append(Slice(len(slices), tuple(ranges), tuple(points)))
            ranges, points = [], []
    if points:
        slices.append(Slice(len(slices), tuple(ranges), tuple(points)))
    return tuple(slices)


@cache
def font_slices() -> FontSlices:
    return FontSlices(font_path())
