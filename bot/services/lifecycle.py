"""Starting a tournament: close registration, lock decks (R-DECK-4), record the seed."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.actors import Actor
from bot.services.base import Service
from domain.engine.rounds import default_rounds
from domain.engine.state import Phase
from domain.errors import IllegalTransition
from domain.tournament import events as ev
from domain.tournament.model import Entry, Tournament
from domain.tournament.operations import StartTournament
from domain.tournament.rules import start_plan


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


class LifecycleService(Service):
    async def preview(self, actor: Actor, reference: str | None) -> StartPreview:
        """Who the start would drop and how many rounds it would set; changes nothing.
        Organizers only, like the start itself."""
        async with self.reader_as(actor) as tx:
            tx.authorize(StartTournament)
            tournament = await tx.tournament(reference)
        if tournament.phase is not Phase.REGISTRATION:
            raise IllegalTransition("tournament.already_started", name=tournament.name)
        plan = start_plan(tournament)  # refuses too few players, as the start would

        def entries(ids: tuple[int, ...] | frozenset[int]) -> list[Entry]:
            return [e for e in plan.registered if e.user_id in set(ids)]

        return StartPreview(
            tournament,
            plan.playing,
            tournament.config.rounds or default_rounds(plan.playing),
            entries(plan.without_deck),
            entries(plan.not_checked_in),
            entries(plan.dropped),
        )

    async def start(self, actor: Actor, reference: str | None) -> StartReport:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            tournament, events = await tx.apply(tournament, StartTournament(seed=self.seeds()))
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
