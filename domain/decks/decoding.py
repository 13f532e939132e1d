"""Bytes to text for uploaded files: UTF-8 (with or without a BOM), else Shift_JIS (CP932).

Japanese spreadsheet tools (Excel on Windows) still save CSV as CP932, so a file that is not
valid UTF-8 is tried as CP932 before it is rejected.
"""

from __future__ import annotations

import codecs
import re

ENCODINGS: tuple[str, ...] = ("utf-8", "cp932")
_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")


def decode(data: bytes | str) -> str | None:
    """The text of `data`, without a leading BOM; None when no supported encoding fits."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    for encoding in ENCODINGS:
        try:
            return data.decode(encoding).removeprefix("\ufeff")
        except UnicodeDecodeError:
            continue
    return None


def byte_size(data: bytes | str) -> int:
    """The size of `data` in bytes (text counted as UTF-8, lone surrogates included)."""
    if isinstance(data, bytes):
        return len(data)
    return len(data.encode("utf-8", "surrogatepass"))


def split_lines(text: str) -> list[str]:
    """Lines as an editor numbers them: split on CRLF, CR or LF only, no trailing empty line."""
    lines = _LINE_BREAK_RE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines
