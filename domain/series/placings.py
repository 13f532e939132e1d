"""One finished event's placings, as a series counts them.

`EventResult` is the series' own input type: the standings rows it needs and nothing more,
so that series points can be computed (and tested) without building whole tournaments.
`event_result(tournament)` is the one adapter from the tournament model: the final standings'
shared ranks, and each bracket player's band as the final placings decide it
(`domain.engine.placings`: a player who advanced and then left went out in the next round).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from domain.engine.players import PlayerStatus
from domain.engine.state import Phase
from domain.errors import IllegalTransition
from domain.tournament.model import Tournament
from domain.tournament.views import final_standings


@dataclass(frozen=True)
class EventPlacing:
    """Where one player finished in one event.

    `rank` is the shared final rank (ties share it, R-FMT-5); `top_cut` the bracket band the
    player reached (1 the winner, 2 the finalist, 4 a semi-finalist, 8 a quarter-finalist …),
    None for a player who did not play the bracket. `arrival` is the entry order in the
    event, the series' last tiebreak.
    """

    player_id: int
    name: str
    rank: int
    swiss_points: int
    top_cut: int | None = None
    dropped: bool = False
    disqualified: bool = False
    arrival: int = 0

    @property
    def finish(self) -> int:
        """The placing the points table reads: the bracket band when the player reached the
        top cut (a quarter-finalist placed 5th is in the ベスト8 band), else the rank."""
        return self.top_cut if self.top_cut is not None else self.rank


@dataclass(frozen=True)
class EventResult:
    """A finished event: its id, the day it was held, and everyone who has a placing."""

    event_id: int
    name: str
    held_on: date
    placings: tuple[EventPlacing, ...]

    @property
    def order_key(self) -> tuple[date, int]:
        """Events are ordered by day, then id: never by the order they were added."""
        return (self.held_on, self.event_id)


def event_result(tournament: Tournament) -> EventResult:
    """The final placings of a finished `tournament` (`final_standings`, shared ranks).

    Refused with IllegalTransition(`series.event_not_finished`) before the end: placings
    that may still change would make the series' points move backwards.
    """
    if tournament.phase is not Phase.FINISHED:
        raise IllegalTransition("series.event_not_finished", name=tournament.name)
    shared, _strict = final_standings(tournament)
    placings = tuple(
        EventPlacing(
            player_id=line.user_id,
            name=line.name,
            rank=line.rank,
            swiss_points=line.points,
            top_cut=line.top_cut.best if line.top_cut is not None else None,
            dropped=line.status is PlayerStatus.DROPPED,
            disqualified=line.status is PlayerStatus.DISQUALIFIED,
            arrival=tournament.players[line.user_id].seq,
        )
        for line in shared
    )
    return EventResult(tournament.id, tournament.name, tournament.event_date, placings)
