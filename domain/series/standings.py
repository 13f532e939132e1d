"""Series standings: points over a season's events, and the declared tiebreaks.

Players are ordered by `TIEBREAKS`, in this order:

1. series points (more first), from the points table (`points.PointsTable`);
2. the best single placing (better first): the player who won an event beats one who was
   only ever second;
3. events played (more first): a shop league rewards coming back;
4. the sum of Swiss points over the series' events (more first);
5. who entered the series first: the earlier event (by day, then event id), then the
   earlier entry in it; then the player id, so two rows are never equal.

No step draws lots, and nothing depends on the order in which events were added: the
standings are a function of the set of events. An event in which a player was disqualified
(R-PEN-4) counts for nothing in that player's series (no points, not played, no placing).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum

from domain.errors import InvalidInput
from domain.series.placings import EventPlacing, EventResult
from domain.series.points import DEFAULT_POINTS, PointsTable


class SeriesTiebreak(StrEnum):
    POINTS = "points"
    BEST_FINISH = "best_finish"
    EVENTS_PLAYED = "events_played"
    SWISS_POINTS = "swiss_points"
    FIRST_ENTRY = "first_entry"


TIEBREAKS: tuple[SeriesTiebreak, ...] = tuple(SeriesTiebreak)
# One value per tiebreak, as a sort key (smaller first).
TiebreakValues = tuple[int, int, int, int, tuple[tuple[date, int, int], int]]


@dataclass(frozen=True)
class SeriesEventLine:
    """One player's part in one event of the series."""

    event_id: int
    event_name: str
    held_on: date
    rank: int
    finish: int
    points: int
    swiss_points: int
    dropped: bool
    disqualified: bool


@dataclass(frozen=True)
class SeriesStanding:
    """One row of the series standings. `rank` is the strict position (1, 2, 3 …);
    `decided_by` names the tiebreak that put the row below the one above it (None for the
    first row, `POINTS` when the points differ)."""

    rank: int
    player_id: int
    name: str
    points: int
    events_played: int
    best_finish: int | None
    swiss_points: int
    first_entry: tuple[date, int, int]
    events: tuple[SeriesEventLine, ...]
    decided_by: SeriesTiebreak | None = None

    def tiebreak_values(self) -> TiebreakValues:
        """The values `TIEBREAKS` compare, in order, as sort keys (smaller first)."""
        best = self.best_finish if self.best_finish is not None else 1 << 30
        return (
            -self.points,
            best,
            -self.events_played,
            -self.swiss_points,
            (self.first_entry, self.player_id),
        )


def series_standings(
    events: Iterable[EventResult], table: PointsTable = DEFAULT_POINTS
) -> tuple[SeriesStanding, ...]:
    """The standings of a series made of `events` (finished events, in any order)."""
    ordered = sorted(events, key=lambda event: event.order_key)
    ids = [event.event_id for event in ordered]
    if len(set(ids)) != len(ids):
        twice = next(i for i in ids if ids.count(i) > 1)
        raise InvalidInput("series.event_twice", event=twice)
    lines: dict[int, list[SeriesEventLine]] = {}
    names: dict[int, str] = {}
    first_entry: dict[int, tuple[date, int, int]] = {}
    for event in ordered:
        seen: set[int] = set()
        for placing in event.placings:
            if placing.player_id in seen:
                raise ValueError(f"player {placing.player_id} placed twice in {event.event_id}")
            seen.add(placing.player_id)
            lines.setdefault(placing.player_id, []).append(_line(event, placing, table))
            names[placing.player_id] = placing.name  # the latest event's name wins
            first_entry.setdefault(
                placing.player_id, (event.held_on, event.event_id, placing.arrival)
            )
    rows = [
        _row(player, names[player], first_entry[player], tuple(player_lines))
        for player, player_lines in lines.items()
    ]
    rows.sort(key=SeriesStanding.tiebreak_values)
    ranked: list[SeriesStanding] = []
    for position, row in enumerate(rows, start=1):
        decided_by = None if not ranked else _decided_by(ranked[-1], row)
        ranked.append(replace(row, rank=position, decided_by=decided_by))
    return tuple(ranked)


def _line(event: EventResult, placing: EventPlacing, table: PointsTable) -> SeriesEventLine:
    return SeriesEventLine(
        event_id=event.event_id,
        event_name=event.name,
        held_on=event.held_on,
        rank=placing.rank,
        finish=placing.finish,
        points=table.points_for(placing.finish, disqualified=placing.disqualified),
        swiss_points=placing.swiss_points,
        dropped=placing.dropped,
        disqualified=placing.disqualified,
    )


def _row(
    player: int,
    name: str,
    first_entry: tuple[date, int, int],
    events: tuple[SeriesEventLine, ...],
) -> SeriesStanding:
    counted = [line for line in events if not line.disqualified]
    return SeriesStanding(
        rank=0,
        player_id=player,
        name=name,
        points=sum(line.points for line in counted),
        events_played=len(counted),
        best_finish=min((line.finish for line in counted), default=None),
        swiss_points=sum(line.swiss_points for line in counted),
        first_entry=first_entry,
        events=events,
    )


def _decided_by(above: SeriesStanding, row: SeriesStanding) -> SeriesTiebreak:
    for tiebreak, mine, theirs in zip(
        TIEBREAKS, row.tiebreak_values(), above.tiebreak_values(), strict=True
    ):
        if mine != theirs:
            return tiebreak
    raise AssertionError("two series rows compare equal")  # the player id differs
