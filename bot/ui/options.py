"""The slash-command options' types and texts that come from the domain's own limits, so a
bound or a default is written once, in the rule it belongs to.

Discord enforces these bounds in the client; the domain checks them again (a command can be
sent by anything, not only the Discord client)."""

from __future__ import annotations

from discord import app_commands

from domain.engine.results import MAX_POINT_ZONE
from domain.event import (
    DEFAULT_TIME_LIMIT_MINUTES,
    MAX_PLAYERS,
    MAX_ROUND_NUMBER,
    MAX_ROUNDS,
    MAX_TABLES,
    MIN_PLAYERS,
    TIME_LIMIT_RANGE,
    TOP_CUT_SIZES,
)
from domain.timeparse import typed_count
from domain.tournament.penalties import MAX_PENALTY_ID
from domain.tournament.play import MAX_EXTENSION_MINUTES
from domain.tournament.registration import (
    CHECKIN_MINUTES,
    LATE_REGISTRATION_ROUNDS,
    MIX_TWO_MINIMUM,
    NOSHOW_MINUTES,
)
from domain.tournament.rooms import ROOM_LIMIT

TOURNAMENT = "Tournament (optional when only one is open)"

PointZoneCount = app_commands.Range[int, 0, MAX_POINT_ZONE]  # R-MATCH-2
TableNumber = app_commands.Range[int, 1, MAX_TABLES]
RoundNumber = app_commands.Range[int, 1, MAX_ROUND_NUMBER]
SwissRounds = app_commands.Range[int, 1, MAX_ROUNDS]
TopCutSize = app_commands.Range[int, min(TOP_CUT_SIZES), max(TOP_CUT_SIZES)]
TimeLimit = app_commands.Range[int, TIME_LIMIT_RANGE[0], TIME_LIMIT_RANGE[1]]
PlayerLimit = app_commands.Range[int, MIN_PLAYERS, MAX_PLAYERS]
LateRounds = app_commands.Range[int, LATE_REGISTRATION_ROUNDS[0], LATE_REGISTRATION_ROUNDS[1]]
CheckinMinutes = app_commands.Range[int, CHECKIN_MINUTES[0], CHECKIN_MINUTES[1]]
MixTwoMinimum = app_commands.Range[int, MIX_TWO_MINIMUM[0], MIX_TWO_MINIMUM[1]]
NoShowMinutes = app_commands.Range[int, NOSHOW_MINUTES[0], NOSHOW_MINUTES[1]]
ExtensionMinutes = app_commands.Range[int, 1, MAX_EXTENSION_MINUTES]  # R-MATCH-7
PenaltyNumber = app_commands.Range[int, 1, MAX_PENALTY_ID]
RoomTables = app_commands.Range[int, ROOM_LIMIT[0], ROOM_LIMIT[1]]  # rooms for tables 1 to N

# The numbers option descriptions mention, for both languages' texts (the Japanese ones are
# catalog templates filled with these by the command translator).
OPTION_FACTS: dict[str, object] = {
    "default_time_limit": DEFAULT_TIME_LIMIT_MINUTES,
    "point_zone_max": MAX_POINT_ZONE,
    "top_cut_sizes": TOP_CUT_SIZES,  # a list: joined as the reader's language joins
}


def point_zone_count(text: str) -> int:
    """A point-zone count as typed in a form (R-MATCH-2: 0 to 6, full-width digits too)."""
    return typed_count(text, key="ui.report.not_a_count", rule="R-MATCH-2", maximum=MAX_POINT_ZONE)


def optional_count(text: str) -> int | None:
    """A count the form leaves optional (a dispute's, needed only for a time-out)."""
    return point_zone_count(text) if text.strip() else None
