"""Match rooms (対戦部屋): a voice room per played table, for webcam play.

Who may do what in a room follows the regulation: the table's two players play there
(view, connect, speak, video); judges and organizers may enter every room and speak;
everyone else at most listens and watches (「対戦中、観戦者や対戦相手以外のプレイヤーとは、
いかなる会話も行ってはいけません」), or does not see the rooms at all (a setting). A room
belongs to its table for one round: the next round's pairs take it over, the last
round's keep nothing of it.

Discord's limits are the design's: 50 channels a category, 500 a server.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from math import ceil

from domain.engine.players import PlayerStatus
from domain.engine.state import Phase
from domain.errors import InvalidInput
from domain.tournament.model import Tournament
from domain.tournament.operations import RoomSpectators

ROOMS_PER_CATEGORY = 50  # Discord: a category holds at most 50 channels
CHANNELS_PER_SERVER = 500  # Discord: a server holds at most 500 channels, categories included
# What the bot needs to make rooms and give each its overwrites (Discord's names).
ROOM_PERMISSIONS = ("manage_channels", "manage_roles")


class Access(StrEnum):
    """What one member may do in one room."""

    PLAY = "play"  # the table's players: view, connect, speak, video
    STAFF = "staff"  # judges and organizers: view, connect, speak
    LISTEN = "listen"  # everyone else: view and connect, never speak or stream
    HIDDEN = "hidden"  # everyone else, where the rooms are hidden


@dataclass(frozen=True)
class Room:
    """The room a table plays in this round: its number is the table's."""

    number: int
    players: tuple[int, ...]
    round: int

    @property
    def category(self) -> int:
        """Which of the tournament's categories holds it (1, 2, …: 50 rooms each)."""
        return (self.number - 1) // ROOMS_PER_CATEGORY + 1


def rooms_wanted(tournament: Tournament) -> tuple[Room, ...]:
    """The rooms the tournament should have now: one for each table of its newest round
    with two players (a bye plays nowhere), while rooms are on and the event is not over.
    Started but not yet paired, a room for each table the first round will have, nobody's
    yet: made before the pairing, so that the round's rooms are ready with its post."""
    current = tournament.current
    if not tournament.settings.rooms or tournament.phase.over:
        return ()
    if current is None:
        if tournament.phase is Phase.REGISTRATION:
            return ()
        tables = len(tournament.entries(PlayerStatus.ACTIVE)) // 2
        return tuple(Room(number, (), 0) for number in range(1, tables + 1))
    return tuple(
        Room(match.table, match.players, current.number)
        for match in current.matches
        if not match.is_bye
    )


def categories_needed(rooms: Collection[Room]) -> int:
    return ceil(max((room.number for room in rooms), default=0) / ROOMS_PER_CATEGORY)


def everyone_else(spectators: RoomSpectators) -> Access:
    return Access.HIDDEN if spectators is RoomSpectators.HIDDEN else Access.LISTEN


def access(room: Room, member: int, *, staff: bool, spectators: RoomSpectators) -> Access:
    """What `member` may do in `room` (the one rule the overwrites are made from)."""
    if member in room.players:
        return Access.PLAY
    if staff:
        return Access.STAFF
    return everyone_else(spectators)


def missing_for_rooms(granted: Collection[str]) -> list[str]:
    """The server permissions the bot lacks to make rooms, by Discord's names."""
    if "administrator" in granted:
        return []
    return [name for name in ROOM_PERMISSIONS if name not in granted]


def check_rooms_fit(tournament: Tournament, free_channels: int | None, owned: int) -> None:
    """Refuse a round whose rooms the server cannot hold: `free_channels` is what it can
    still take (None: not known), `owned` how many channels the tournament has already
    (its rooms and categories, reused). Nothing is half made: the round is not paired."""
    if free_channels is None:
        return
    rooms = rooms_wanted(tournament)
    needed = len(rooms) + categories_needed(rooms) - owned
    if needed > free_channels:
        raise InvalidInput(
            "rooms.no_space",
            rooms=len(rooms),
            needed=needed,
            free=free_channels,
            limit=CHANNELS_PER_SERVER,
        )
