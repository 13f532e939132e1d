"""Match rooms (対戦部屋): a voice room per played table, for webcam play.

Who may do what in a room follows the regulation: the table's two players play there
(view, connect, speak, video); judges and organizers may enter every room and speak;
everyone else at most listens and watches (「対戦中、観戦者や対戦相手以外のプレイヤーとは、
いかなる会話も行ってはいけません」), or does not see the rooms at all (a setting). A room
belongs to its table for one round: the next round's pairs take it over, the last
round's keep nothing of it.

Discord's limits are the design's: 50 channels a category, 500 a server. Where the rooms
would not fit, the organizer chooses before the round is paired (or the event started, or
rooms turned on): rooms for the first tables only (`Settings.room_limit`), the tables
beyond playing without one, or no rooms.
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
# The organizer's choice of rooms for tables 1 to N only (0: every table).
ROOM_LIMIT = (0, CHANNELS_PER_SERVER)
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
    with two players (a bye plays nowhere), while rooms are on and the event is not over,
    up to the first `room_limit` tables where the organizer chose fewer rooms. Started but
    not yet paired, a room for each table the first round will have, nobody's yet: made
    before the pairing, so that the round's rooms are ready with its post."""
    if not tournament.settings.rooms or tournament.phase.over:
        return ()
    return _limited(tournament, _every_room(tournament))


def _every_room(tournament: Tournament) -> tuple[Room, ...]:
    current = tournament.current
    if current is None:
        if tournament.phase is Phase.REGISTRATION:
            return ()
        tables = len(tournament.entries(PlayerStatus.ACTIVE)) // 2
        return tuple(Room(number, (), 0) for number in range(1, tables + 1))
    return tuple(
        Room(match.table, match.players, current.number)
        for match in sorted(current.matches, key=lambda match: match.table)
        if not match.is_bye
    )


def _limited(tournament: Tournament, rooms: tuple[Room, ...]) -> tuple[Room, ...]:
    limit = tournament.settings.room_limit
    return rooms[:limit] if limit else rooms


def tables_without_room(tournament: Tournament) -> tuple[int, ...]:
    """The played tables of the newest round left without a room by the organizer's choice
    of fewer rooms (they play as they would without rooms, and are told so)."""
    if not tournament.settings.rooms or tournament.phase.over:
        return ()
    every = _every_room(tournament)
    kept = {room.number for room in _limited(tournament, every)}
    return tuple(room.number for room in every if room.number not in kept)


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


def channels_for(rooms: int) -> int:
    """The channels `rooms` rooms take: the rooms and their categories (50 rooms each)."""
    return rooms + ceil(rooms / ROOMS_PER_CATEGORY)


def rooms_that_fit(wanted: int, free_channels: int, owned: int) -> int:
    """How many of `wanted` rooms (tables 1, 2, …) the server can hold: `free_channels` it
    can still take, `owned` the tournament's channels already there (reused)."""
    fits = 0
    while fits < wanted and channels_for(fits + 1) - owned <= free_channels:
        fits += 1
    return fits


class RoomsDoNotFit(InvalidInput):
    """The server cannot hold the rooms the tournament would need now: nothing was changed,
    and the organizer chooses rooms for the first `fits` tables only, or no rooms."""

    def __init__(
        self, tournament_id: int, *, rooms: int, needed: int, free: int, fits: int
    ) -> None:
        super().__init__(
            "rooms.no_space" if fits else "rooms.no_space_none",
            rooms=rooms,
            needed=needed,
            free=free,
            fits=fits,
            limit=CHANNELS_PER_SERVER,
        )
        self.tournament_id = tournament_id
        self.fits = fits


def check_rooms_fit(tournament: Tournament, free_channels: int | None, owned: int) -> None:
    """Refuse a step (the start, a round's pairing, rooms turned on) after which the
    tournament would want rooms the server cannot hold: `free_channels` is what it can
    still take (None: not known), `owned` how many channels the tournament has already (its
    rooms and categories, reused). Nothing is half made: the step is not taken."""
    if free_channels is None:
        return
    rooms = rooms_wanted(tournament)
    needed = len(rooms) + categories_needed(rooms) - owned
    if needed > free_channels:
        raise RoomsDoNotFit(
            tournament.id,
            rooms=len(rooms),
            needed=needed,
            free=free_channels,
            fits=rooms_that_fit(len(rooms), free_channels, owned),
        )
