"""Players as the engine sees them: an id, whether they still play, and late-entry losses."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.errors import InvalidInput


class PlayerStatus(StrEnum):
    """The one vocabulary of a player's place in an event, from registration to the end."""

    REGISTERED = "registered"  # entered, before the start
    WAITLISTED = "waitlisted"  # the event was full; promoted in arrival order
    ACTIVE = "active"  # playing
    DROPPED = "dropped"  # R-FMT-7: left the event; never paired again
    DISQUALIFIED = "disqualified"  # R-PEN-4: takes no further part


@dataclass(frozen=True)
class Player:
    """A registered player.

    `late_losses` is the number of rounds a late entrant is given as losses by the
    organizer's settings: they score 0 and have no opponent, so they add nothing to
    anyone's opponents' points.
    """

    id: str
    status: PlayerStatus = PlayerStatus.ACTIVE
    late_losses: int = 0

    def __post_init__(self) -> None:
        if not self.id:
            raise InvalidInput("engine.player.empty_id")
        if self.late_losses < 0:
            raise InvalidInput(
                "engine.player.negative_late_losses", player=self.id, losses=self.late_losses
            )

    @property
    def active(self) -> bool:
        return self.status is PlayerStatus.ACTIVE
