"""Registering, unregistering (with a waitlist), checking in and listing players."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.actors import Actor
from bot.services.base import Service, TournamentRef
from domain.tournament import events as ev
from domain.tournament.model import Entry, Tournament
from domain.tournament.operations import CheckIn, Register, Unregister


@dataclass(frozen=True)
class Registration:
    tournament: Tournament
    player: Entry
    waitlist_position: int | None  # None: in the event
    late_round: int  # 0 unless joining a running event


@dataclass(frozen=True)
class Unregistration:
    tournament: Tournament
    promoted: Entry | None  # the first waitlisted player, now in the event


class RegistrationService(Service):
    async def register(self, actor: Actor, reference: TournamentRef) -> Registration:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            operation = Register(actor.user_id, actor.display_name)
            tournament, events = await tx.apply(tournament, operation)
        registered = ev.only(events, ev.Registered)
        return Registration(
            tournament,
            tournament.players[actor.user_id],
            registered.waitlist_position,
            registered.joined_round,
        )

    async def unregister(self, actor: Actor, reference: TournamentRef) -> Unregistration:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            tournament, events = await tx.apply(tournament, Unregister(actor.user_id))
        promoted = [tournament.players[e.player_id] for e in events if isinstance(e, ev.Promoted)]
        return Unregistration(tournament, promoted[0] if promoted else None)

    async def check_in(self, actor: Actor, reference: TournamentRef) -> Tournament:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            tournament, _ = await tx.apply(tournament, CheckIn(actor.user_id))
        return tournament

    async def players(
        self, guild_id: int | None, reference: TournamentRef
    ) -> tuple[Tournament, list[Entry]]:
        async with self.reader(guild_id) as tx:
            tournament = await tx.tournament(reference, finished_too=True)
        return tournament, tournament.entries()
