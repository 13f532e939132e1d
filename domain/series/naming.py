"""The name of the next event of a repeating series: 「第13回 交流会」 → 「第14回 交流会」.

Which number is the counter, in this order (the first that matches wins):

1. 「第N回」 (also 弾, 戦, 期, 節): N in ASCII digits, full-width digits or kanji numerals
   (第十三回 → 第十四回, 第九十九回 → 第百回);
2. a number after `#`, `＃`, `No.` or `Vol.` (`交流会 #13` → `交流会 #14`);
3. the last number that stands alone (`Weekly 13` → `Weekly 14`, `交流会（2）` → `交流会（3）`):
   not part of a date or a time (`12/24`, `2026-12-24`, `13:00`, `12月`, `24日`) and not a
   year (four digits from 1900 to 2099), which the next event does not count up.

The number keeps its form: full-width digits stay full-width (第１３回 → 第１４回) and zero
padding keeps its width while it fits (`#09` → `#10`, `#099` → `#100`).

A name without a counter gets one: 「交流会」 → 「交流会（2）」 when the name has Japanese
in it, `Weekly` → `Weekly (2)` otherwise; the event it was copied from counts as the first.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

_FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
_TO_ASCII = str.maketrans("０１２３４５６７８９", "0123456789")
_DIGITS = "0-9０-９"
_KANJI_DIGITS = "一二三四五六七八九"
_KANJI_UNITS = {"十": 10, "百": 100, "千": 1000}
_KANJI = f"〇{_KANJI_DIGITS}{''.join(_KANJI_UNITS)}"
_MAX_KANJI = 9999
_MAX_TRIES = 1000  # next free name: a guild never has this many copies of one event

_ORDINAL = re.compile(rf"第(?P<n>[{_DIGITS}]+|[{_KANJI}]+)(?=[回弾戦期節])")
_MARKED = re.compile(rf"(?:[#＃]|\b(?:No|Vol)\.?\s*)(?P<n>[{_DIGITS}]+)", re.IGNORECASE)
_NUMBER = re.compile(rf"(?<![{_DIGITS}])(?P<n>[{_DIGITS}]+)(?![{_DIGITS}])")
# Around a number of a date or a time: 12/24, 2026-12-24, 2026.12.24, 13:00, 12月, 24日, 13時.
_DATE_PART_AFTER = re.compile(rf"\s*(?:[/／.\-:：][{_DIGITS}]|[年月日時分])")
_DATE_PART_BEFORE = re.compile(rf"[{_DIGITS}][/／.\-:：]$")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")


@dataclass(frozen=True)
class _Counter:
    start: int
    end: int
    value: int
    kanji: bool = False


def next_event_name(name: str, taken: Collection[str] = ()) -> str:
    """The name the next event of the series proposes (the organizer may type another).

    With `taken` (the guild's tournament names), it counts on until the name is free, so
    copying 「第13回」 when 「第14回」 already exists proposes 「第15回」.
    """
    candidate = _next(name)
    for _ in range(_MAX_TRIES):
        if candidate not in taken:
            return candidate
        candidate = _next(candidate)
    return candidate


def _next(name: str) -> str:
    counter = _find_counter(name)
    if counter is None:
        return f"{name}（2）" if _JAPANESE.search(name) else f"{name} (2)"
    old = name[counter.start : counter.end]
    if counter.kanji:
        # 第九千九百九十九回 is followed by 第10000回: kanji are written up to 9999.
        new = to_kanji(counter.value + 1) if counter.value < _MAX_KANJI else str(counter.value + 1)
    else:
        new = str(counter.value + 1).zfill(len(old))
        if old != old.translate(_TO_ASCII):  # full-width digits stay full-width
            new = new.translate(_FULL_WIDTH)
    return name[: counter.start] + new + name[counter.end :]


def _find_counter(name: str) -> _Counter | None:
    match = _ORDINAL.search(name)
    if match is not None:
        text = match["n"]
        if text[0] in _KANJI:
            value = from_kanji(text)
            if value is not None:
                return _Counter(match.start("n"), match.end("n"), value, kanji=True)
        else:
            return _Counter(match.start("n"), match.end("n"), int(text.translate(_TO_ASCII)))
    match = _MARKED.search(name)
    if match is not None:
        return _Counter(match.start("n"), match.end("n"), int(match["n"].translate(_TO_ASCII)))
    for match in reversed(list(_NUMBER.finditer(name))):
        if _stands_alone(name, match):
            value = int(match["n"].translate(_TO_ASCII))
            return _Counter(match.start("n"), match.end("n"), value)
    return None


def _stands_alone(name: str, match: re.Match[str]) -> bool:
    """Whether the number is a counter: not part of a date or a time, and not a year."""
    if _DATE_PART_AFTER.match(name, match.end()) or _DATE_PART_BEFORE.search(name[: match.start()]):
        return False
    text = match["n"].translate(_TO_ASCII)
    return not (len(text) == 4 and 1900 <= int(text) <= 2099)


def from_kanji(text: str) -> int | None:
    """十三 → 13, 九十九 → 99, 百二 → 102, 二千二十六 → 2026; None when it is not a numeral
    written that way (digit by digit, 一三, is not read)."""
    total = 0
    digit: int | None = None
    last_unit = 10_000
    for char in text:
        if char in _KANJI_DIGITS:
            if digit is not None:
                return None
            digit = _KANJI_DIGITS.index(char) + 1
        elif char in _KANJI_UNITS:
            unit = _KANJI_UNITS[char]
            if unit >= last_unit:
                return None
            total += (digit or 1) * unit
            digit = None
            last_unit = unit
        else:
            return None
    total += digit or 0
    return total or None


def to_kanji(value: int) -> str:
    """13 → 十三, 100 → 百, 2026 → 二千二十六 (1 to 9999)."""
    if not 1 <= value <= 9999:
        raise ValueError(value)
    out = ""
    for unit, symbol in ((1000, "千"), (100, "百"), (10, "十")):
        count, value = divmod(value, unit)
        if count:
            out += ("" if count == 1 else _KANJI_DIGITS[count - 1]) + symbol
    if value:
        out += _KANJI_DIGITS[value - 1]
    return out
