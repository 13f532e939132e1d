"""Registering, unregistering (with a waitlist), checking in and listing players."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from bot.services.actors import Actor, require_guild
from bot.services.base import Service
from bot.services.tournaments import resolve_tournament
from bot.store.actions import SYSTEM_ACTOR, append_action
from bot.store.tournaments import (
    PlayerRecord,
    TournamentRecord,
    count_players,
    delete_deck,
    get_player,
    list_players,
    set_checked_in,
    set_player_status,
    upsert_player,
)
from domain.errors import DomainError, IllegalTransition, InvalidInput
from domain.event import MAX_DISPLAY_NAME, Phase, clean_name

ACTIVE = ("registered",)


@dataclass(frozen=True)
class Registration:
    tournament: TournamentRecord
    player: PlayerRecord
    waitlist_position: int | None  # None: in the event
    late_round: int  # 0 unless joining a running event


@dataclass(frozen=True)
class Unregistration:
    tournament: TournamentRecord
    promoted: PlayerRecord | None  # the first waitlisted player, now in the event


class RegistrationService(Service):
    async def register(self, actor: Actor, reference: str | None) -> Registration:
        guild_id = require_guild(actor)
        name = clean_name(actor.display_name, max_length=MAX_DISPLAY_NAME, field="display_name")
        async with self.database.write() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
            late_round = self._entry_round(tournament)
            existing = await get_player(connection, tournament.id, actor.user_id)
            if existing and existing.status in ("registered", "waitlisted"):
                raise InvalidInput(
                    "registration.already_registered"
                    if existing.status == "registered"
                    else "registration.already_waitlisted",
                    tournament=tournament.name,
                )
            if existing and existing.status == "disqualified":
                raise IllegalTransition("registration.disqualified", tournament=tournament.name)
            registered = await count_players(connection, tournament.id, "registered")
            full = tournament.max_players is not None and registered >= tournament.max_players
            status = "waitlisted" if full else "registered"
            now = self.clock()
            await upsert_player(
                connection,
                tournament_id=tournament.id,
                user_id=actor.user_id,
                display_name=name,
                status=status,
                at=now,
                joined_round=late_round,
            )
            await append_action(
                connection,
                guild_id=guild_id,
                tournament_id=tournament.id,
                actor_id=actor.user_id,
                kind="player.waitlist" if full else "player.register",
                at=now,
                payload={"user_id": actor.user_id, "name": name, "joined_round": late_round},
            )
            player = await get_player(connection, tournament.id, actor.user_id)
            assert player is not None
            position = (
                await count_players(connection, tournament.id, "waitlisted") if full else None
            )
        return Registration(tournament, player, position, late_round)

    def _entry_round(self, tournament: TournamentRecord) -> int:
        """0 before the start; the next round while late registration is open; else refused."""
        if tournament.state is Phase.REGISTRATION:
            return 0
        next_round = tournament.current_round + 1
        if tournament.state is Phase.RUNNING and next_round <= (
            tournament.late_registration_rounds
        ):
            return next_round
        raise IllegalTransition("registration.closed", tournament=tournament.name)

    async def unregister(self, actor: Actor, reference: str | None) -> Unregistration:
        guild_id = require_guild(actor)
        async with self.database.write() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
            if tournament.state is not Phase.REGISTRATION:
                # R-FMT-7: once it has started, leaving is a drop, told to the judges.
                raise IllegalTransition(
                    "registration.started_use_drop", tournament=tournament.name, rule="R-FMT-7"
                )
            player = await get_player(connection, tournament.id, actor.user_id)
            if player is None or player.status not in ("registered", "waitlisted"):
                raise InvalidInput("registration.not_registered", tournament=tournament.name)
            now = self.clock()
            await set_player_status(connection, tournament.id, actor.user_id, "dropped")
            await delete_deck(connection, tournament.id, actor.user_id)
            await append_action(
                connection,
                guild_id=guild_id,
                tournament_id=tournament.id,
                actor_id=actor.user_id,
                kind="player.unregister",
                at=now,
                payload={"user_id": actor.user_id},
            )
            promoted = None
            if player.status == "registered":
                waitlist = await list_players(connection, tournament.id, statuses=("waitlisted",))
                if waitlist:
                    promoted = waitlist[0]
                    await set_player_status(
                        connection, tournament.id, promoted.user_id, "registered"
                    )
                    await append_action(
                        connection,
                        guild_id=guild_id,
                        tournament_id=tournament.id,
                        actor_id=SYSTEM_ACTOR,
                        kind="player.promote",
                        at=now,
                        payload={"user_id": promoted.user_id},
                    )
        return Unregistration(tournament, promoted)

    async def check_in(self, actor: Actor, reference: str | None) -> TournamentRecord:
        guild_id = require_guild(actor)
        async with self.database.write() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
            if tournament.state is not Phase.REGISTRATION:
                raise IllegalTransition("checkin.already_started", tournament=tournament.name)
            if tournament.checkin_minutes <= 0 or tournament.starts_at is None:
                raise IllegalTransition("checkin.not_used", tournament=tournament.name)
            now = self.clock()
            opens = tournament.starts_at - timedelta(minutes=tournament.checkin_minutes)
            if now < opens:
                raise IllegalTransition("checkin.not_open_yet", opens=int(opens.timestamp()))
            player = await get_player(connection, tournament.id, actor.user_id)
            if player is None or player.status != "registered":
                raise InvalidInput("registration.not_registered", tournament=tournament.name)
            await set_checked_in(connection, tournament.id, actor.user_id, now)
            await append_action(
                connection,
                guild_id=guild_id,
                tournament_id=tournament.id,
                actor_id=actor.user_id,
                kind="player.checkin",
                at=now,
                payload={"user_id": actor.user_id},
            )
        return tournament

    async def players(
        self, guild_id: int | None, reference: str | None
    ) -> tuple[TournamentRecord, list[PlayerRecord]]:
        if guild_id is None:
            raise DomainError("errors.guild_only")
        async with self.database.read() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
            return tournament, await list_players(connection, tournament.id)
