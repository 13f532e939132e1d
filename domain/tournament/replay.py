"""Rebuild a tournament by folding its action log through the rules, as `verify` does."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.errors import InvalidInput
from domain.tournament.apply import apply, create
from domain.tournament.model import Tournament
from domain.tournament.operations import Actor, CreateTournament, Role, Undo, operation_types


@dataclass(frozen=True)
class LoggedOperation:
    """One row of the action log: the whole operation, who made it, as what, and when."""

    id: int
    kind: str
    payload: dict[str, Any]
    actor_id: int
    role: Role
    at: datetime


def fold(
    tournament_id: int,
    guild_id: int,
    log: Iterable[LoggedOperation],
    *,
    skip: set[int] | None = None,
) -> Tournament:
    """The tournament the log leads to. Every operation is checked again, as it was live.

    Operations taken back by an undo are left out (an undo only ever targets an earlier
    operation, and was refused unless everything after it still applied without it).
    """
    known = operation_types()
    entries = list(log)
    left_out = (
        skip
        if skip is not None
        else {int(e.payload["action_id"]) for e in entries if e.kind == Undo.kind}
    )
    tournament: Tournament | None = None
    actors: dict[tuple[int, Role], Actor] = {}  # one value per person and role, not per row
    for entry in entries:
        if entry.kind == Undo.kind or entry.id in left_out:
            continue
        kind = known.get(entry.kind)
        if kind is None:
            raise InvalidInput("log.unknown_kind", kind=entry.kind, action=entry.id)
        operation = kind.from_payload(entry.payload)
        actor = actors.get((entry.actor_id, entry.role))
        if actor is None:
            actor = actors[entry.actor_id, entry.role] = Actor(entry.actor_id, entry.role)
        if isinstance(operation, CreateTournament):
            if tournament is not None:
                raise InvalidInput("log.created_twice", action=entry.id)
            tournament, _ = create(
                operation, tournament_id=tournament_id, guild_id=guild_id, at=entry.at, actor=actor
            )
        elif tournament is None:
            raise InvalidInput("log.not_created_first", action=entry.id)
        else:
            tournament, _ = apply(tournament, operation, entry.at, actor)
    if tournament is None:
        raise InvalidInput("log.empty", tournament=tournament_id)
    return tournament
