"""What an applied operation did, beyond the new state: what the bot tells people about."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    pass


@dataclass(frozen=True)
class TournamentCreated(Event):
    tournament_id: int


@dataclass(frozen=True)
class Registered(Event):
    player_id: int
    waitlist_position: int | None  # None: in the event
    joined_round: int  # 0 unless joining a running event (R-FMT-8)


@dataclass(frozen=True)
class Unregistered(Event):
    player_id: int


@dataclass(frozen=True)
class Promoted(Event):
    """The first waitlisted player moved into the event."""

    player_id: int


@dataclass(frozen=True)
class CheckedIn(Event):
    player_id: int


@dataclass(frozen=True)
class DeckStored(Event):
    player_id: int
    fingerprint: str
    total: int


@dataclass(frozen=True)
class SettingsChanged(Event):
    names: tuple[str, ...]


@dataclass(frozen=True)
class Started(Event):
    playing: tuple[int, ...]
    without_deck: tuple[int, ...]  # no legal list at the start
    dropped: tuple[int, ...]  # removed at the start (no deck per setting, or no check-in)
    not_checked_in: tuple[int, ...]


@dataclass(frozen=True)
class DecksPublished(Event):
    count: int
