"""What an organizer decides when creating an event, validated before anything is stored.

Covers R-FMT-6 (format, regulation and time limit are fixed and announced up front),
R-MATCH-1 (40 minutes by default) and R-REG-4 (an event regulation needs designated titles).
A single event may name its title too (R-REG-2); the deck check then accepts only that title.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from domain.decks.regulation import parse_regulation

# The phases of a tournament belong to the engine's state machine; re-exported for callers.
from domain.engine.state import Phase as Phase
from domain.errors import InvalidInput


class EventFormat(StrEnum):
    SWISS = "swiss"
    ELIMINATION = "elimination"
    SWISS_TOP_CUT = "swiss_top_cut"


TOP_CUT_SIZES = (4, 8, 16)
DEFAULT_TOP_CUT = 8
DEFAULT_TIME_LIMIT_MINUTES = 40  # R-MATCH-1
TIME_LIMIT_RANGE = (5, 180)
MAX_ROUNDS = 30
MIN_PLAYERS = 2
MAX_PLAYERS = 4096  # open events; a community event has 8 to 300
MAX_TABLES = MAX_PLAYERS // 2
# A round's number: the Swiss rounds, then a bracket of up to MAX_PLAYERS (12 rounds).
MAX_ROUND_NUMBER = MAX_ROUNDS + (MAX_PLAYERS - 1).bit_length()
MAX_TOURNAMENT_NAME = 64
MAX_DISPLAY_NAME = 32
MAX_TITLES = 10

# Anything that would ping people or break out of the line it is shown on.
_MENTION = re.compile(r"@(everyone|here)|<[@#][!&]?\d+>|<@&\d+>", re.IGNORECASE)


def clean_name(text: str, *, max_length: int, field: str) -> str:
    """A single-line name without mentions or control characters, at most `max_length` long."""
    name = " ".join(text.split())
    if not name:
        raise InvalidInput("event.name_empty", field=field)
    if len(name) > max_length:
        raise InvalidInput("event.name_too_long", field=field, length=len(name), limit=max_length)
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise InvalidInput("event.name_control_characters", field=field)
    if _MENTION.search(name):
        raise InvalidInput("event.name_mentions", field=field)
    return name


def clean_display_name(
    text: str,
    *,
    max_length: int = MAX_DISPLAY_NAME,
    field: str = "display_name",
    chosen: bool = False,
) -> str:
    """A member's Discord name as the bot keeps it: one line, at most `max_length` long.

    Unlike an organizer's names, it is not refused for what Discord itself allows in a
    name: mention-like text (`@everyone`), zero-width joiners of emoji, RTL marks, flags.
    It is the member's name; every place that shows it escapes it and posts ping nobody.
    Only what breaks the line or the text is refused: control characters (whitespace
    ones, newlines included, are folded to one space) and lone surrogates.

    `chosen=True` is for a name a player picks for the bot (a tournament handle), which the
    bot then publishes in posts, standings and exports in place of the Discord name: there
    mention-like text is refused too, and so are the invisible characters and the bidi
    embeddings, overrides and isolates that reorder or hide the text around them
    (`HIDDEN_FORMAT`). Emoji joiners and flags stay."""
    name = " ".join(text.split())
    if not name:
        raise InvalidInput("event.name_empty", field=field)
    if len(name) > max_length:
        raise InvalidInput("event.name_too_long", field=field, length=len(name), limit=max_length)
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
        raise InvalidInput("event.name_control_characters", field=field)
    if chosen and any(char in HIDDEN_FORMAT for char in name):
        raise InvalidInput("event.name_hidden_characters", field=field)
    if chosen and _MENTION.search(name):
        raise InvalidInput("event.name_mentions", field=field)
    return name


# Bidi embeddings, overrides and isolates (they reorder what follows them: the "Trojan
# Source" characters), and invisible characters that make two names look the same.
HIDDEN_FORMAT = frozenset(
    [chr(code) for code in range(0x202A, 0x202F)]  # LRE RLE PDF LRO RLO
    + [chr(code) for code in range(0x2066, 0x206A)]  # LRI RLI FSI PDI
    + ["\u200b", "\u2060", "\u2061", "\u2062", "\u2063", "\u2064", "\ufeff", "\u00ad"]
    + ["\u180e", "\u061c", "\u115f", "\u1160", "\u3164", "\uffa0"]
)


@dataclass(frozen=True)
class EventConfig:
    name: str
    format: EventFormat
    regulation: str
    event_date: date
    rounds: int | None = None  # None: ceil(log2 players) when the event starts
    top_cut: int | None = None
    time_limit_minutes: int = DEFAULT_TIME_LIMIT_MINUTES
    titles: tuple[str, ...] = ()
    max_players: int | None = None


def make_event_config(
    *,
    name: str,
    format: str,
    regulation: str,
    event_date: date,
    rounds: int | None = None,
    top_cut: int | None = None,
    time_limit_minutes: int | None = None,
    titles: str | None = None,
    max_players: int | None = None,
) -> EventConfig:
    """Validate an organizer's choices; every problem names the option and how to fix it."""
    try:
        event_format = EventFormat(format)
    except ValueError:
        known = tuple(f.value for f in EventFormat)
        raise InvalidInput("event.unknown_format", value=format, known=known) from None
    regulation = parse_regulation(regulation).value
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidInput("event.bad_rounds", value=rounds, limit=MAX_ROUNDS)
    if event_format is EventFormat.SWISS_TOP_CUT:
        top_cut = DEFAULT_TOP_CUT if top_cut is None else top_cut
    elif top_cut is not None:
        raise InvalidInput("event.top_cut_needs_format", rule="R-FMT-1")
    if top_cut is not None and top_cut not in TOP_CUT_SIZES:
        raise InvalidInput("event.bad_top_cut", value=top_cut, sizes=TOP_CUT_SIZES)
    minutes = DEFAULT_TIME_LIMIT_MINUTES if time_limit_minutes is None else time_limit_minutes
    low, high = TIME_LIMIT_RANGE
    if not low <= minutes <= high:
        raise InvalidInput("event.bad_time_limit", value=minutes, low=low, high=high)
    if max_players is not None and not MIN_PLAYERS <= max_players <= MAX_PLAYERS:
        raise InvalidInput(
            "event.bad_max_players", value=max_players, low=MIN_PLAYERS, high=MAX_PLAYERS
        )
    if top_cut is not None and max_players is not None and max_players < top_cut:
        raise InvalidInput("event.max_players_below_top_cut", value=max_players, top_cut=top_cut)
    designated = split_titles(titles)
    if regulation == "event" and not designated:
        raise InvalidInput("event.event_needs_titles", rule="R-REG-4")
    if regulation not in ("event", "single") and designated:
        raise InvalidInput("event.titles_not_used", regulation=regulation)
    return EventConfig(
        name=clean_name(name, max_length=MAX_TOURNAMENT_NAME, field="tournament_name"),
        format=event_format,
        regulation=regulation,
        event_date=event_date,
        rounds=rounds,
        top_cut=top_cut,
        time_limit_minutes=minutes,
        titles=designated,
        max_players=max_players,
    )


def split_titles(text: str | None) -> tuple[str, ...]:
    """`"けいおん！, ゆるゆり"` → `("けいおん！", "ゆるゆり")`; commas may be full-width."""
    if not text:
        return ()
    parts = [part.strip() for part in re.split(r"[,、，]", text)]
    titles = tuple(dict.fromkeys(part for part in parts if part))
    if len(titles) > MAX_TITLES:
        raise InvalidInput("event.too_many_titles", count=len(titles), limit=MAX_TITLES)
    for title in titles:
        clean_name(title, max_length=MAX_TOURNAMENT_NAME, field="titles")
    return titles
