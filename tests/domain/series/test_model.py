"""A series groups a server's tournaments; its standings count the finished ones."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from domain.errors import InvalidInput, NotFound
from domain.series.model import (
    MAX_SERIES_NAME,
    Series,
    add_event,
    clean_series_name,
    remove_event,
    standings_of,
)
from domain.series.points import parse_points_table
from tests.domain.series.support import ids, play_event
from tests.domain.tournament.support import new_tournament


def test_events_join_and_leave_a_series() -> None:
    season = Series(1, guild_id=1000, name="2026 冬シーズン")
    first = play_event(ids(4), tournament_id=1)
    upcoming = replace(new_tournament(name="第2回"), id=2)
    season = add_event(add_event(season, first), upcoming)
    assert season.event_ids == (1, 2)
    with pytest.raises(InvalidInput) as twice:
        add_event(season, first)
    assert twice.value.key == "series.event_already_in"
    assert remove_event(season, upcoming).event_ids == (1,)
    with pytest.raises(InvalidInput) as missing:
        remove_event(Series(2, 1000, "x"), first)
    assert missing.value.key == "series.event_not_in"


def test_another_servers_tournament_is_not_found() -> None:
    elsewhere = replace(new_tournament(), guild_id=2000)
    with pytest.raises(NotFound):
        add_event(Series(1, 1000, "Season"), elsewhere)


def test_the_standings_count_finished_events_by_the_series_table() -> None:
    table = parse_points_table("優勝 = 3\n準優勝 = 2\n参加 = 1")
    one = play_event(ids(4), tournament_id=1, event_date=date(2026, 12, 1))
    two = play_event(ids(3), tournament_id=2, event_date=date(2026, 12, 8))
    other = play_event(ids(4), tournament_id=3)
    upcoming = replace(new_tournament(name="第3回"), id=4)
    season = Series(1, 1000, "Season", table, (1, 2, 4))
    standings = standings_of(season, [one, two, other, upcoming])
    assert [(row.player_id, row.points, row.events_played) for row in standings] == [
        (101, 8, 2),
        (102, 6, 2),
        (103, 2, 2),
        (104, 1, 1),
    ]


def test_a_series_name_is_checked_like_an_organizers_names() -> None:
    assert clean_series_name("  2026 冬シーズン ") == "2026 冬シーズン"
    with pytest.raises(InvalidInput) as long:
        clean_series_name("x" * (MAX_SERIES_NAME + 1))
    assert long.value.key == "event.name_too_long"
    with pytest.raises(InvalidInput) as mention:
        clean_series_name("@here league")
    assert mention.value.key == "event.name_mentions"
