"""The page's Japanese font: the reader's own first, the bot's as a fallback in slices.

Every phone and desktop sold in Japan has a Japanese font (Hiragino on Apple, Noto Sans CJK
on Android, Yu Gothic / Meiryo on Windows), so the page's font stack names those first and a
phone downloads nothing. Only a machine without one (a bare Linux, a kiosk) falls back to
the Noto Sans CJK JP the bot ships (`noto-cjk-sans-jp-regular`, 16 MB: far too much for a
phone). That fallback is cut into slices of 256 code points, each declared with its
`unicode-range`, so the browser fetches only the slices holding characters on the page
(about 50 KB each).

Cutting every slice with fontTools costs minutes of CPU (docs/BENCHMARKS.md, "The live page
against a stranger": font slices), so it is never done
in the bot's process nor when a reader asks: at start the web server runs `python -m
bot.web.fonts` (at the lowest priority, once per font file) to cut every slice into a cache
folder (`FONT_SLICES_DIR`, else the user's cache folder), saying what it did in `cutting.log`
there (never in the terminal, whose lines are the organizer's), and the server only reads
those files. A slice not cut yet answers 404, and the browser keeps the reader's own font.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import sys
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
CUT_VERSION = 1  # the way slices are cut: a change makes a new cache folder


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


def cutting_log(root: Path) -> Path:
    """The log of the process that cuts the slices, beside the slices' folders."""
    return root / "cutting.log"


def cache_root() -> Path:
    configured = os.environ.get("FONT_SLICES_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pm-tournament-bot" / "font-slices"


class FontSlices:
    """The fallback font's slices: the CSS that declares them, and each slice's bytes, read
    from the folder `python -m bot.web.fonts` cut them into."""

    def __init__(self, path: Path | None, root: Path | None = None) -> None:
        self.path = path
        self.slices: tuple[Slice, ...] = ()
        self.folder: Path | None = None
        self._read: dict[int, bytes] = {}
        if path is None:
            return
        try:
            codepoints = sorted(_load(path).getBestCmap())
        except Exception:  # no fontTools, or an unreadable file: the system fonts only
            log.warning("the page's fallback font is not available", exc_info=True)
            self.path = None
            return
        self.slices = _cut(codepoints)
        stat = path.stat()
        key = f"{stat.st_size}-{stat.st_mtime_ns}-{BLOCK}-{MIN_GLYPHS}-{CUT_VERSION}"
        self.folder = (root or cache_root()) / key

    def css(self) -> str:
        return "".join(
            f'@font-face{{font-family:"{FAMILY}";font-display:swap;'
            f'src:url(/fonts/{piece.index}.woff) format("woff");'
            f"unicode-range:{piece.unicode_range}}}\n"
            for piece in self.slices
        )

    def file(self, index: int) -> Path | None:
        return None if self.folder is None else self.folder / f"{index}.woff"

    def missing(self) -> list[int]:
        """The slices not cut yet."""
        return [piece.index for piece in self.slices if not self._cut_already(piece.index)]

    def _cut_already(self, index: int) -> bool:
        file = self.file(index)
        return file is not None and file.is_file()

    async def woff(self, index: int) -> bytes | None:
        """A slice's bytes, or None when there is no such slice or it is not cut yet (never
        cut here: that is `python -m bot.web.fonts`'s work)."""
        if not 0 <= index < len(self.slices):
            return None
        made = self._read.get(index)
        if made is None:
            file = self.file(index)
            if file is None or not file.is_file():
                return None
            made = self._read[index] = await asyncio.to_thread(file.read_bytes)
        return made

    def cut(self, indexes: list[int] | None = None) -> int:
        """Cut the slices (all missing ones by default) into the folder; how many were cut.
        Each is written whole or not at all (a reader never gets half a file)."""
        if self.path is None or self.folder is None:
            return 0
        self.folder.mkdir(parents=True, exist_ok=True)
        done = 0
        for index in self.missing() if indexes is None else indexes:
            file = self.file(index)
            assert file is not None
            partial = file.with_suffix(f".{os.getpid()}.part")
            partial.write_bytes(self._make(index))
            partial.replace(file)
            done += 1
        return done

    def _make(self, index: int) -> bytes:
        from fontTools import subset

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
        return out.getvalue()


class Cutter:
    """The cutting process the web server starts when slices are missing: another process,
    at the lowest priority, so the bot's own loop never waits for it."""

    def __init__(self) -> None:
        self.process: asyncio.subprocess.Process | None = None

    async def start(self, slices: FontSlices) -> bool:
        if slices.folder is None or not slices.missing():
            return False
        root = slices.folder.parent
        env = {**os.environ, "FONT_SLICES_DIR": str(root)}
        # Its words (and a traceback, were it to fail) go to its log file, never to the
        # terminal an organizer reads the bot's own lines in.
        root.mkdir(parents=True, exist_ok=True)
        with cutting_log(root).open("ab") as written:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.web.fonts",
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=written,
            )
        log.info(
            "cutting %d font slices in process %d (its log: %s)",
            len(slices.missing()),
            self.process.pid,
            cutting_log(root),
        )
        return True

    async def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.returncode is None:
            process.terminate()
            await process.wait()


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


def main(argv: list[str] | None = None) -> int:
    """`python -m bot.web.fonts [INDEX …]`: every missing slice (or those named) cut into
    the cache folder."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(
        level=logging.INFO,
        filename=cutting_log(root),
        encoding="utf-8",
        format="%(asctime)s %(levelname)-8s %(name)s: %(message)s",
    )
    logging.getLogger("fontTools").setLevel(logging.WARNING)  # a line per table it prunes
    if hasattr(os, "nice"):
        os.nice(19)  # the bot's process comes first on a shared machine
    named = [int(arg) for arg in (sys.argv[1:] if argv is None else argv)]
    slices = font_slices()
    try:
        cut = slices.cut(named or None)
    except KeyboardInterrupt:  # Ctrl + C reaches the terminal's whole process group
        log.info("stopped by Ctrl + C; the slices cut so far are kept")
        return 130
    log.info("%d font slices cut into %s", cut, slices.folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
