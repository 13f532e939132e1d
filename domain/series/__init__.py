"""Beyond one event: repeating events, series and their points, player records
and ratings. Pure functions over the tournament model; nothing here pairs or scores a
match, and the engine never imports it.

- `naming`, `repeat`: the next event of a weekly series (its name, date, config, settings);
- `placings`: one finished event's placings, the series' input (`event_result`);
- `points`: the organizer's points table and its text form (`parse_points_table`);
- `standings`: series standings with declared tiebreaks (`series_standings`);
- `model`: a series and the events in it;
- `records`: one player's record across events (`player_record`, `player_penalties`);
- `ratings`: OpenSkill ratings from every match (`server_ratings`).
"""

from domain.series.model import Series, add_event, clean_series_name, remove_event, standings_of
from domain.series.naming import next_event_name
from domain.series.placings import EventPlacing, EventResult, event_result
from domain.series.points import DEFAULT_POINTS, PointsTable, parse_points_table
from domain.series.records import PlayerRecord, player_penalties, player_record
from domain.series.repeat import NextEvent, Repeat, parse_repeat, plan_next_event, plan_repeat
from domain.series.standings import TIEBREAKS, SeriesStanding, SeriesTiebreak, series_standings

__all__ = [
    "DEFAULT_POINTS",
    "TIEBREAKS",
    "EventPlacing",
    "EventResult",
    "NextEvent",
    "PlayerRecord",
    "PointsTable",
    "Repeat",
    "Series",
    "SeriesStanding",
    "SeriesTiebreak",
    "add_event",
    "clean_series_name",
    "event_result",
    "next_event_name",
    "parse_points_table",
    "parse_repeat",
    "plan_next_event",
    "plan_repeat",
    "player_penalties",
    "player_record",
    "remove_event",
    "series_standings",
    "standings_of",
]
