"""Who may do what: the role an operation needs, players acting only for themselves, and
what a role may read (penalties, decklists). Decided here, never by Discord's UI."""

from __future__ import annotations

from domain.errors import PermissionDenied
from domain.tournament.model import Tournament
from domain.tournament.operations import Actor, Operation, PlayerOperation, Role


def authorize_role(kind: type[Operation], actor: Actor) -> None:
    """Whether the actor's role may make operations of this kind at all."""
    require_role(actor, kind.role)


def require_role(actor: Actor, role: Role) -> None:
    """Judges' tools need a judge, organizers' an organizer (reads as well as changes)."""
    if actor.role >= role:
        return
    if role is Role.ORGANIZER:
        raise PermissionDenied(
            "permissions.organizer_only"
            if actor.staff_roles_configured
            else "permissions.organizer_only_unconfigured"
        )
    raise PermissionDenied("permissions.judge_only")


def visible_penalties_of(actor: Actor, player_id: int | None) -> int | None:
    """Whose penalties the actor may list: judges anyone's (None: everyone's), a player
    their own."""
    if actor.role >= Role.JUDGE:
        return player_id
    if player_id not in (None, actor.user_id):
        raise PermissionDenied("permissions.judge_only")
    return actor.user_id


def authorize(operation: Operation, actor: Actor) -> None:
    """Who may make `operation`: its class says the role; players act only for themselves."""
    authorize_role(type(operation), actor)
    player_id = getattr(operation, "player_id", None)
    if (
        isinstance(operation, PlayerOperation)
        and actor.role is Role.PLAYER
        and player_id != actor.user_id
    ):
        raise PermissionDenied("permissions.own_entry_only")


def require_deck_visible(tournament: Tournament, actor: Actor, owner_id: int) -> None:
    """Decklists are private to their owner and the judges until the organizer publishes."""
    if owner_id == actor.user_id or tournament.decks_published or actor.role >= Role.JUDGE:
        return
    raise PermissionDenied("submission.private")
