"""The one dispatcher: every operation goes through `apply`, which checks who is asking and
hands the operation to its rule handler. Pure: the time comes in as `at`, a start's or a
pairing's random seed inside the operation.

`apply(tournament, operation, at, actor)` returns the new tournament and what happened
(`events`); a refused operation raises a typed, keyed error (`domain.errors`) and changes
nothing. A new tournament comes from `create`.
"""

from __future__ import annotations

from datetime import datetime

from domain.errors import IllegalTransition
from domain.tournament import events as ev
from domain.tournament import judging, play, registration
from domain.tournament.handlers import Applied, Handler
from domain.tournament.model import Tournament
from domain.tournament.operations import Actor, CreateTournament, Operation
from domain.tournament.permissions import authorize

HANDLERS: dict[type[Operation], Handler] = {
    **registration.HANDLERS,
    **play.HANDLERS,
    **judging.HANDLERS,
}


def apply(tournament: Tournament, operation: Operation, at: datetime, actor: Actor) -> Applied:
    """`tournament` after `operation`, and what happened; refused operations raise."""
    authorize(operation, actor)
    handler = HANDLERS.get(type(operation))
    if handler is None:
        raise IllegalTransition("tournament.operation_not_applicable", kind=operation.kind)
    updated, events = handler(tournament, operation, at, actor)
    return updated, events + _round_completed(tournament, updated)


def _round_completed(before: Tournament, after: Tournament) -> tuple[ev.Event, ...]:
    """Whatever operation brings in a round's last result (a confirmation, a judge's result,
    a game loss, a no-show), the round is complete: said once, by the one dispatcher."""
    was, now = before.current, after.current
    if now is None or was is None or was.number != now.number:
        return ()
    return (ev.RoundCompleted(now.number),) if now.complete and not was.complete else ()


def create(
    operation: CreateTournament, *, tournament_id: int, guild_id: int, at: datetime, actor: Actor
) -> Applied:
    """A new tournament from an organizer's validated choices."""
    authorize(operation, actor)
    tournament = Tournament(
        id=tournament_id,
        guild_id=guild_id,
        config=operation.config,
        created_by=actor.user_id,
        created_at=at,
    )
    if operation.config.titles:
        # An unknown designated title is the organizer's mistake: refuse it now, not at
        # every player's deck check (R-REG-4).
        tournament.deck_rules().designated()
    return tournament, (ev.TournamentCreated(tournament_id),)
