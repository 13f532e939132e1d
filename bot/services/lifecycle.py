"""Starting a tournament: close registration, lock decks (R-DECK-4), record the seed."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.actors import Actor
from bot.services.base import Service, TournamentRef
from domain.decks import Unchecked
from domain.tournament import events as ev
from domain.tournament.model import Entry, Tournament
from domain.tournament.operations import StartTournament
from domain.tournament.rooms import check_rooms_fit


@dataclass(frozen=True)
class StartReport:
    tournament: Tournament
    players: list[Entry]  # everyone in the event as it starts
    without_deck: list[Entry]  # no legal list at the start
    dropped: list[Entry]  # removed at the start (no deck per setting, or no check-in)
    not_checked_in: list[Entry]


@dataclass(frozen=True)
class StartPreview:
    """What `/tournament start` would do, shown before anything changes."""

    tournament: Tournament
    playing: int
    rounds: int  # Swiss rounds (or the bracket's, for an elimination event)
    without_deck: list[Entry]
    not_checked_in: list[Entry]
    dropped: list[Entry]
    unchecked: tuple[Unchecked, ...] = ()  # what the lists were checked against no file for


class LifecycleService(Service):
    async def preview(self, actor: Actor, reference: TournamentRef) -> StartPreview:
        """Who the start would drop and how many rounds it would set: the start itself,
        applied to a copy and thrown away, so the preview can never disagree with it."""
        async with self.reader_as(actor) as tx:
            tournament = await tx.tournament(reference)
            would_be, events = await tx.outcome(tournament, StartTournament(seed=0))
        started = ev.only(events, ev.Started)

        def entries(ids: tuple[int, ...]) -> list[Entry]:
            return [would_be.players[user_id] for user_id in ids]

        return StartPreview(
            tournament,
            len(started.playing),
            would_be.state.planned_rounds,
            entries(started.without_deck),
            entries(started.not_checked_in),
            entries(started.dropped),
            tournament.deck_rules().unchecked,
        )

    async def start(
        self, actor: Actor, reference: TournamentRef, *, free_channels: int | None = None
    ) -> StartReport:
        """The start; with match rooms on, refused whole where the first round's rooms (made
        at the start) would not fit the server (`free_channels`: what it can still take)."""
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            tournament, events = await tx.apply(tournament, StartTournament(seed=self.seeds()))
            if tournament.settings.rooms:
                check_rooms_fit(tournament, free_channels, await tx.owned_rooms(tournament.id))
        started = ev.only(events, ev.Started)

        def entries(ids: tuple[int, ...]) -> list[Entry]:
            return [tournament.players[user_id] for user_id in ids]

        return StartReport(
            tournament,
            entries(started.playing),
            entries(started.without_deck),
            entries(started.dropped),
            entries(started.not_checked_in),
        )
