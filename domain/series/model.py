"""A series: tournaments an organizer groups together (a season, a league), with the points
table its standings use.

An event may belong to several series (a weekly 交流会 can count for the month's ranking
and the year's). Events join while they are upcoming, running or finished; only finished
ones give points (`series_results`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from domain.engine.state import Phase
from domain.errors import InvalidInput, NotFound
from domain.event import clean_name
from domain.series.placings import EventResult, event_result
from domain.series.points import DEFAULT_POINTS, PointsTable
from domain.series.standings import SeriesStanding, series_standings
from domain.tournament.model import Tournament

MAX_SERIES_NAME = 64
MAX_SERIES_EVENTS = 200


@dataclass(frozen=True)
class Series:
    id: int
    guild_id: int
    name: str
    table: PointsTable = DEFAULT_POINTS
    event_ids: tuple[int, ...] = ()


def clean_series_name(text: str) -> str:
    """A series name as an organizer's names are checked (one line, no mentions)."""
    return clean_name(text, max_length=MAX_SERIES_NAME, field="series")


def add_event(series: Series, tournament: Tournament) -> Series:
    """`series` with `tournament` in it. Refused for another server's tournament
    (NotFound, as if it did not exist), one already in, or a full series."""
    if tournament.guild_id != series.guild_id:
        raise NotFound("tournament.unknown", reference=tournament.name)
    if tournament.id in series.event_ids:
        raise InvalidInput("series.event_already_in", name=tournament.name, series=series.name)
    if len(series.event_ids) >= MAX_SERIES_EVENTS:
        raise InvalidInput("series.too_many_events", limit=MAX_SERIES_EVENTS)
    return replace(series, event_ids=(*series.event_ids, tournament.id))


def remove_event(series: Series, tournament: Tournament) -> Series:
    if tournament.id not in series.event_ids:
        raise InvalidInput("series.event_not_in", name=tournament.name, series=series.name)
    return replace(series, event_ids=tuple(i for i in series.event_ids if i != tournament.id))


def series_results(series: Series, tournaments: Iterable[Tournament]) -> list[EventResult]:
    """The placings of the series' finished events among `tournaments`."""
    members = set(series.event_ids)
    return [
        event_result(tournament)
        for tournament in tournaments
        if tournament.id in members
        and tournament.guild_id == series.guild_id
        and tournament.phase is Phase.FINISHED
    ]


def standings_of(series: Series, tournaments: Iterable[Tournament]) -> tuple[SeriesStanding, ...]:
    """The series standings from its finished events, by its own points table."""
    return series_standings(series_results(series, tournaments), series.table)
