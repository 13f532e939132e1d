"""Registering, unregistering (with a waitlist), checking in and listing players."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.services.actors import Actor
from bot.services.base import Service, TournamentRef
from bot.services.profiles import give_handle
from bot.store.uow import Transaction
from domain.entry_import import ImportPlan, check_import_allowed, plan_tournament_import
from domain.handles import Profile
from domain.tournament import events as ev
from domain.tournament.model import Entry, Tournament
from domain.tournament.operations import CheckIn, Register, Role, Unregister
from domain.tournament.permissions import require_role


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
    async def register(
        self, actor: Actor, reference: TournamentRef, *, handle: str | None = None
    ) -> Registration:
        """Register the actor, under their handle on this server when they have one; a
        `handle` given here becomes it (checked, and their other events renamed)."""
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            if handle is not None and handle.strip():
                profile, _ = await give_handle(tx, actor.user_id, actor.display_name, handle)
                tournament = await tx.tournament(tournament.id)
            else:
                profile = await tx.books.profile(actor.user_id) or Profile(actor.user_id)
            operation = Register(actor.user_id, actor.display_name, profile.handle)
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

    async def may_import(self, actor: Actor, reference: TournamentRef) -> None:
        """Refuse a non-organizer, or a tournament that takes no more imports, before the
        form opens, the file is read or the members are listed."""
        async with self.reader_as(actor) as tx:
            require_role(tx.actor, Role.ORGANIZER)
            check_import_allowed(await tx.tournament(reference))

    async def import_entries(
        self, actor: Actor, reference: TournamentRef, data: bytes, directory: MemberDirectory
    ) -> ImportReport:
        """/tournament import (organizers): a CSV of entries, all or nothing."""
        async with self.uow(actor) as tx:
            require_role(tx.actor, Role.ORGANIZER)
            tournament = await tx.tournament(reference)
            return await import_entries(tx, tournament, data, directory)

    async def players(
        self, guild_id: int | None, reference: TournamentRef
    ) -> tuple[Tournament, list[Entry]]:
        async with self.reader(guild_id) as tx:
            tournament = await tx.tournament(reference, finished_too=True)
        return tournament, tournament.entries()


@dataclass(frozen=True)
class MemberDirectory:
    """The server's members as the cog read them from Discord: each one's shown name, and
    every name each can be called by (Discord name, display name, nickname)."""

    display_names: Mapping[int, str]
    names: Mapping[str, frozenset[int]]


@dataclass(frozen=True)
class ImportReport:
    """What /tournament import did: the plan (every row's fate) and, when no row was
    refused, the entries registered (nothing at all otherwise)."""

    tournament: Tournament
    plan: ImportPlan
    registered: tuple[Entry, ...]


async def import_entries(
    tx: Transaction, tournament: Tournament, data: bytes, directory: MemberDirectory
) -> ImportReport:
    """Check every row (`plan_tournament_import`); when none is refused, register every
    entry, each under its handle (a handle in the file becomes the player's on this server,
    set by the organizer), in the caller's transaction. A refused row writes nothing."""
    plan = plan_tournament_import(
        data,
        tournament,
        names=directory.names,
        members=directory.display_names.keys(),
        handles=await tx.books.handles(),
    )
    if not plan.accepted:
        return ImportReport(tournament, plan, ())
    registered = []
    for imported in plan.require_accepted():
        discord_name = directory.display_names[imported.player_id]
        handle = imported.handle
        if handle is not None:
            await give_handle(tx, imported.player_id, discord_name, handle)
            tournament = await tx.tournament(tournament.id)
        else:
            profile = await tx.books.profile(imported.player_id)
            handle = profile.handle if profile else None
        operation = Register(imported.player_id, discord_name, handle)
        tournament, _ = await tx.apply(tournament, operation)
        registered.append(tournament.players[imported.player_id])
    return ImportReport(tournament, plan, tuple(registered))
