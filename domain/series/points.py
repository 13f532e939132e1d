"""Series points: how many points each placing of an event is worth.

A table is a list of placing bands, best first, each with its points, plus points for
taking part. A player's placing in an event (`EventPlacing.finish`) is the top-cut band
they reached, or their final rank when they did not play a top cut (every player of a
Swiss-only event), and earns the points of the first band that covers it.

The default follows how Japanese shop leagues and official point rankings count (placing
bands named 優勝, 準優勝, ベスト4, ベスト8, plus a point for each visit, like a shop's
point card):

    優勝 = 10      (1st)
    準優勝 = 7     (2nd)
    ベスト4 = 5    (3rd–4th, or a semi-finalist)
    ベスト8 = 3    (5th–8th, or a quarter-finalist)
    参加 = 1       (every event played, on top of the placing's points)

In a Swiss-only 交流会 the bands read the final rank: 1位 is 優勝, 3–4位 ベスト4. Tied
players share the better band (a shared rank is the position of the first of them).

Organizers type a table as lines `key = points` (TOML-like; `:` works too, `#` starts a
comment, full-width characters are read as half-width). Keys, Japanese or English:

    優勝 / winner / 1st / 1位            the 1st place
    準優勝 / runner-up / 2nd / 2位       the 2nd place
    ベストN / topN / top N               down to the N-th place
    N位                                   the N-th place alone
    M-N位 / M〜N位                        places M to N (M must follow the band before)
    参加 / participation                  every event played

Points are whole numbers (`10`, `10点`, `10pt`). Bands are given best first, from the 1st
place, without gaps, and a worse placing may not be worth more than a better one. A TOML
table header (`[points]`) is skipped, so the same text can sit in a TOML file. Every
problem raises InvalidInput keyed `series.points.*` with the line number.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from domain.decks.decoding import split_lines
from domain.errors import InvalidInput

MAX_POINTS = 1000
MAX_BANDS = 32
MAX_PLACE = 1024
MAX_TABLE_CHARS = 4000


@dataclass(frozen=True)
class Band:
    """Places `first` to `last` (inclusive) earn `points`."""

    first: int
    last: int
    points: int


@dataclass(frozen=True)
class PointsTable:
    bands: tuple[Band, ...]
    participation: int = 0

    def placing_points(self, finish: int) -> int:
        """The points of the band that covers `finish` (0 below the last band)."""
        for band in self.bands:
            if band.first <= finish <= band.last:
                return band.points
        return 0

    def points_for(self, finish: int, *, disqualified: bool = False) -> int:
        """Placing and participation points of one event. A disqualified player (R-PEN-4)
        earns nothing from that event: the disqualification ended their part in it."""
        if disqualified:
            return 0
        return self.placing_points(finish) + self.participation

    def to_text(self) -> str:
        """The table in the form `parse_points_table` reads (Japanese keys)."""
        lines = [f"{_band_key(band)} = {band.points}" for band in self.bands]
        lines.append(f"参加 = {self.participation}")
        return "\n".join(lines) + "\n"


DEFAULT_POINTS = PointsTable(
    bands=(Band(1, 1, 10), Band(2, 2, 7), Band(3, 4, 5), Band(5, 8, 3)),
    participation=1,
)

_COMMENT = re.compile(r"\s#.*$|^#.*$")
_HEADER = re.compile(r"^\[[^\]]*\]$")
_VALUE = re.compile(r"^(?P<n>[0-9]+)\s*(?:pts?|p|点|ポイント)?$", re.IGNORECASE)
_PAIR = re.compile(r"^(?P<key>[^=:]+?)\s*[=:]\s*(?P<value>.*)$")
_TOP = re.compile(r"^(?:ベスト|best|top)\s*(?P<n>[0-9]+)$", re.IGNORECASE)
_PLACE = re.compile(r"^(?P<n>[0-9]+)\s*(?:位|st|nd|rd|th)$", re.IGNORECASE)
_RANGE = re.compile(r"^(?P<m>[0-9]+)\s*[-~〜～]\s*(?P<n>[0-9]+)\s*(?:位|th)?$", re.IGNORECASE)
_NAMED = {
    "優勝": 1,
    "winner": 1,
    "champion": 1,
    "準優勝": 2,
    "runner-up": 2,
    "runnerup": 2,
    "runner_up": 2,
    "finalist": 2,
}
_PARTICIPATION = frozenset({"参加", "参加賞", "participation", "entry"})


def parse_points_table(text: str) -> PointsTable:
    """The table an organizer typed; the keyed error of the first wrong line otherwise."""
    if len(text) > MAX_TABLE_CHARS:
        raise InvalidInput("series.points.too_long", length=len(text), limit=MAX_TABLE_CHARS)
    bands: list[Band] = []
    participation: int | None = None
    seen: dict[str, int] = {}
    for number, raw in enumerate(split_lines(text), start=1):
        line = _COMMENT.sub("", unicodedata.normalize("NFKC", raw)).strip()
        if not line or _HEADER.match(line):
            continue
        match = _PAIR.match(line)
        if match is None:
            raise InvalidInput("series.points.not_a_pair", line=number, text=raw.strip()[:40])
        key = match["key"].strip().strip("\"'").strip()
        points = _points(match["value"].strip(), number)
        folded = key.casefold().replace(" ", "")
        if folded in seen:
            raise InvalidInput(
                "series.points.duplicate_key", line=number, key=key, first=seen[folded]
            )
        seen[folded] = number
        if folded in _PARTICIPATION:
            participation = points
            continue
        first, last = _places(key, folded, number, bands)
        if len(bands) >= MAX_BANDS:
            raise InvalidInput("series.points.too_many_bands", line=number, limit=MAX_BANDS)
        if bands and points > bands[-1].points:
            raise InvalidInput(
                "series.points.worse_place_more_points",
                line=number,
                key=key,
                points=points,
                better=bands[-1].points,
            )
        bands.append(Band(first, last, points))
    if not bands:
        raise InvalidInput("series.points.no_bands")
    return PointsTable(tuple(bands), participation or 0)


def _points(text: str, line: int) -> int:
    match = _VALUE.match(text)
    if match is None or len(match["n"]) > 4 or int(match["n"]) > MAX_POINTS:
        raise InvalidInput("series.points.bad_points", line=line, value=text[:20], limit=MAX_POINTS)
    return int(match["n"])


def _places(key: str, folded: str, line: int, bands: list[Band]) -> tuple[int, int]:
    """The places a key names, checked to follow the bands before it without a gap."""
    expected = bands[-1].last + 1 if bands else 1
    if folded in _NAMED:
        first = last = _NAMED[folded]
    elif match := _TOP.match(folded):
        first, last = expected, int(match["n"])
    elif match := _PLACE.match(folded):
        first = last = int(match["n"])
    elif match := _RANGE.match(folded):
        first, last = int(match["m"]), int(match["n"])
    else:
        raise InvalidInput("series.points.unknown_key", line=line, key=key)
    if first != expected or last < expected:
        raise InvalidInput("series.points.out_of_order", line=line, key=key, expected=expected)
    if not first <= last <= MAX_PLACE:
        raise InvalidInput("series.points.bad_places", line=line, key=key, limit=MAX_PLACE)
    return first, last


def _band_key(band: Band) -> str:
    if band.first == band.last == 1:
        return "優勝"
    if band.first == band.last == 2:
        return "準優勝"
    if band.first == band.last:
        return f"{band.first}位"
    if band.first > 2 and band.last == 2 * (band.first - 1):
        return f"ベスト{band.last}"
    return f"{band.first}-{band.last}位"
