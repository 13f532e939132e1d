"""Who is asking, and what they may do. Decided here, never trusted to Discord's UI."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.store.guilds import GuildConfig
from domain.errors import DomainError, PermissionDenied
from domain.tournament.operations import Actor as TournamentActor
from domain.tournament.operations import Role, server_role


@dataclass(frozen=True)
class Actor:
    """The member behind an interaction, as plain values (the services never see discord)."""

    user_id: int
    guild_id: int | None
    display_name: str
    role_ids: frozenset[int] = field(default_factory=frozenset)
    manages_guild: bool = False  # Manage Server or Administrator
    # The interaction behind the request: an operation made twice by one interaction (a
    # redelivery) applies once.
    request_id: int | None = None
    channel_id: int | None = None  # where the command was used (a post's last fallback)
    # Tells the person that the request arrived (a Discord interaction's acknowledgement),
    # awaited before anything of the request is written (`Service.uow`): an acknowledgement
    # that fails stops the request with nothing stored, so a change is never stored while
    # the person is told that the request failed.
    acknowledge: Callable[[], Awaitable[None]] | None = field(
        default=None, compare=False, repr=False
    )


def require_guild(actor: Actor) -> int:
    if actor.guild_id is None:
        raise DomainError("errors.guild_only")
    return actor.guild_id


def role_of(actor: Actor, config: GuildConfig) -> Role:
    return server_role(
        manages_guild=actor.manages_guild,
        role_ids=actor.role_ids,
        organizer_role_id=config.organizer_role_id,
        judge_role_id=config.judge_role_id,
    )


def tournament_actor(actor: Actor, config: GuildConfig) -> TournamentActor:
    """The actor as the tournament model sees it: a user id and a role."""
    return TournamentActor(
        actor.user_id,
        role_of(actor, config),
        staff_roles_configured=config.organizer_role_id is not None,
    )


def is_judge(actor: Actor, config: GuildConfig) -> bool:
    return role_of(actor, config) >= Role.JUDGE


def require_manager(actor: Actor) -> None:
    if not actor.manages_guild:
        raise PermissionDenied("permissions.manage_server_only")
