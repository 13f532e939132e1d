"""The judges' tools: penalties with an escalation preview, judge calls, extensions,
no-shows, the action log and undo. Every change goes through the unit of work."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.services.actors import Actor
from bot.services.base import Service, TournamentRef
from bot.store.posts import KeptNotice
from domain.errors import one_of
from domain.guild import GuildConfig
from domain.tournament import events as ev
from domain.tournament.log import Action
from domain.tournament.model import Entry, Tournament
from domain.tournament.operations import (
    CallJudge,
    ClaimCall,
    GivePenalty,
    RecordNoShow,
    ResolveCall,
    RevokePenalty,
    Role,
    Undo,
)
from domain.tournament.penalties import (
    Infraction,
    JudgeCall,
    Penalty,
    PenaltyType,
    Suggestion,
    suggest_penalty,
)
from domain.tournament.permissions import require_role, visible_penalties_of
from domain.tournament.rounds import Match, Round


@dataclass(frozen=True)
class PenaltyPreview:
    tournament: Tournament
    player: Entry
    operation: GivePenalty
    earlier: list[Penalty]
    suggestion: Suggestion | None  # None: the domain has nothing to suggest
    pending_id: int


@dataclass(frozen=True)
class PenaltyOutcome:
    tournament: Tournament
    penalty: Penalty
    match: Match | None  # the match a game loss or disqualification turned


@dataclass(frozen=True)
class CallOutcome:
    tournament: Tournament
    call: JudgeCall
    match: Match | None
    server: GuildConfig  # the server's settings: the language of the call's post
    at: datetime  # when it happened (a claim suggests minutes from it)
    room: int | None = None  # the table's match room this round (a voice channel), if any


@dataclass(frozen=True)
class UndoPreview:
    tournament: Tournament
    action: Action
    pending_id: int


@dataclass(frozen=True)
class UndoOutcome:
    tournament: Tournament
    action: Action


class JudgeService(Service):
    # -- penalties ----------------------------------------------------------------------

    async def preview_penalty(
        self,
        actor: Actor,
        reference: TournamentRef,
        player_id: int,
        penalty: str,
        infraction: str,
        reason: str,
    ) -> PenaltyPreview:
        """The player's earlier penalties and a suggested escalation (R-PEN-2), with the
        penalty waiting for the judge's confirmation."""
        operation = GivePenalty(
            player_id,
            one_of(PenaltyType, penalty, "penalty.bad_penalty"),
            one_of(Infraction, infraction, "penalty.bad_infraction"),
            reason,
        )
        async with self.uow(actor) as tx:
            tx.authorize(GivePenalty)
            tournament = await tx.tournament(reference)
            pending_id = await tx.hold(tournament, operation)  # the rules check it first
        entry = tournament.players[player_id]
        earlier = [p for p in tournament.penalties if p.player_id == player_id]
        suggestion = suggest_penalty(earlier, operation.infraction)
        return PenaltyPreview(tournament, entry, operation, earlier, suggestion, pending_id)

    async def confirm(self, actor: Actor, pending_id: int) -> PenaltyOutcome | UndoOutcome:
        """Apply a waiting penalty or undo; only the person who asked may confirm it."""
        async with self.uow(actor) as tx:
            tournament, operation = await tx.take_held(pending_id)
            if isinstance(operation, Undo):
                actions = await tx.actions(tournament.id)
                tournament, plan = await tx.undo(tournament, operation.action_id)
                (action,) = [a for a in actions if a.id == plan.target.id]
                return UndoOutcome(tournament, action)
            tournament, events = await tx.apply(tournament, operation)
        given = ev.only(events, ev.PenaltyGiven)
        return PenaltyOutcome(tournament, given.penalty, _effect_match(tournament, given.penalty))

    async def cancel(self, actor: Actor, pending_id: int) -> None:
        async with self.uow(actor) as tx:
            await tx.take_held(pending_id)

    async def penalties(
        self, actor: Actor, reference: TournamentRef, player_id: int | None
    ) -> tuple[Tournament, list[Penalty]]:
        """Judges see every penalty; a player sees their own."""
        async with self.reader_as(actor) as tx:
            tournament = await tx.tournament(reference, finished_too=True)
            player_id = visible_penalties_of(tx.actor, player_id)
        found = [p for p in tournament.penalties if player_id is None or p.player_id == player_id]
        return tournament, found

    async def revoke(
        self, actor: Actor, reference: TournamentRef, penalty_id: int
    ) -> PenaltyOutcome:
        async with self.uow(actor) as tx:
            tx.authorize(RevokePenalty)
            tournament = await tx.tournament(reference)
            tournament, events = await tx.apply(tournament, RevokePenalty(penalty_id))
        revoked = ev.only(events, ev.PenaltyRevoked)
        return PenaltyOutcome(
            tournament, revoked.penalty, _effect_match(tournament, revoked.penalty)
        )

    async def notices_for(self, guild_id: int, user_id: int) -> list[KeptNotice]:
        """The private notices waiting for this player (their DMs were closed), taken. It
        runs after every command, so who has any is known in memory and everyone else
        costs no database trip."""
        if not await self.store.posts.has_notices(guild_id, user_id):
            return []
        async with self.bookkeeping(guild_id) as tx:
            taken = await tx.take_player_notices(user_id)
        self.store.posts.notices_taken(guild_id, user_id)
        return taken

    # -- calls, extensions, no-shows -----------------------------------------------------

    async def call(self, actor: Actor, reference: TournamentRef, reason: str) -> CallOutcome:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            tournament, events = await tx.apply(tournament, CallJudge(actor.user_id, reason))
            server = await tx.guild_config()
        called = ev.only(events, ev.JudgeCalled)
        return await self._call_outcome(tournament, called.call, server, tx.at)

    async def may_call(self, actor: Actor, reference: TournamentRef) -> Tournament:
        """Refuse before asking what happened, when the call itself would be refused."""
        async with self.reader_as(actor) as tx:
            tournament = await tx.tournament(reference)
            tx.refuse_early(tournament, CallJudge(actor.user_id, ""))
        return tournament

    async def claim(self, actor: Actor, tournament_id: int, call_id: int) -> CallOutcome:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(tournament_id)
            tournament, events = await tx.apply(tournament, ClaimCall(call_id))
            server = await tx.guild_config()
        claimed = ev.only(events, ev.CallClaimed)
        return await self._call_outcome(tournament, claimed.call, server, tx.at)

    async def resolve(
        self, actor: Actor, tournament_id: int, call_id: int, minutes: int
    ) -> CallOutcome:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(tournament_id)
            tournament, events = await tx.apply(tournament, ResolveCall(call_id, minutes))
            server = await tx.guild_config()
        resolved = ev.only(events, ev.CallResolved)
        return await self._call_outcome(tournament, resolved.call, server, tx.at)

    async def may_resolve(self, actor: Actor, tournament_id: int, call_id: int) -> None:
        """Refuse before asking for the minutes, when the call cannot be resolved."""
        async with self.reader_as(actor) as tx:
            tournament = await tx.tournament(tournament_id)
            tx.refuse_early(tournament, ResolveCall(call_id, 0))

    async def _call_outcome(
        self, tournament: Tournament, call: JudgeCall, server: GuildConfig, at: datetime
    ) -> CallOutcome:
        found = tournament.round(call.round)
        match = found.match_at(call.table) if found and call.table else None
        room = None
        if tournament.settings.rooms and match is not None:
            room = (await self.store.rooms.rooms(tournament.id, call.round)).get(match.table)
        return CallOutcome(tournament, call, match, server, at, room)

    async def no_show(
        self, actor: Actor, reference: TournamentRef, table: int, player_id: int
    ) -> tuple[Tournament, Round, Match]:
        async with self.uow(actor) as tx:
            tx.authorize(RecordNoShow)
            tournament = await tx.tournament(reference)
            number = tournament.current_round
            tournament, _ = await tx.apply(tournament, RecordNoShow(number, table, player_id))
        current = tournament.round(number)
        assert current is not None
        match = current.match_at(table)
        assert match is not None
        return tournament, current, match

    # -- the log and undo ---------------------------------------------------------------

    async def log(
        self, actor: Actor, reference: TournamentRef, player_id: int | None = None
    ) -> tuple[Tournament, list[Action]]:
        """The tournament's action log, newest first; for judges and organizers."""
        async with self.reader_as(actor) as tx:
            require_role(tx.actor, Role.JUDGE)
            tournament = await tx.tournament(reference, finished_too=True)
            actions = await tx.actions(tournament.id)
        if player_id is not None:
            actions = [
                a
                for a in actions
                if a.actor_id == player_id or a.payload.get("player_id") == player_id
            ]
        return tournament, list(reversed(actions))

    async def preview_undo(self, actor: Actor, reference: TournamentRef) -> UndoPreview:
        """What undo would take back, waiting for the organizer's confirmation."""
        async with self.uow(actor) as tx:
            tx.authorize(Undo)
            tournament = await tx.tournament(reference)
            plan = await tx.plan_undo(tournament)
            pending_id = await tx.hold(tournament, Undo(plan.target.id))
            actions = await tx.actions(tournament.id)
        (action,) = [a for a in actions if a.id == plan.target.id]
        return UndoPreview(tournament, action, pending_id)


def _effect_match(tournament: Tournament, penalty: Penalty) -> Match | None:
    effect = penalty.effect
    if effect is None:
        return None
    found = tournament.round(effect.round)
    return found.match_at(effect.table) if found else None
