"""Who is asking, and what they may do. Decided here, never trusted to Discord's UI."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.store.guilds import GuildConfig
from domain.errors import DomainError, PermissionDenied


@dataclass(frozen=True)
class Actor:
    """The member behind an interaction, as plain values (the services never see discord)."""

    user_id: int
    guild_id: int | None
    display_name: str
    role_ids: frozenset[int] = field(default_factory=frozenset)
    manages_guild: bool = False  # Manage Server or Administrator


def require_guild(actor: Actor) -> int:
    if actor.guild_id is None:
        raise DomainError("errors.guild_only")
    return actor.guild_id


def is_organizer(actor: Actor, config: GuildConfig) -> bool:
    # Server managers are always organizers, which is also the fallback before /setup.
    if actor.manages_guild:
        return True
    return config.organizer_role_id is not None and config.organizer_role_id in actor.role_ids


def is_judge(actor: Actor, config: GuildConfig) -> bool:
    if is_organizer(actor, config):
        return True
    return config.judge_role_id is not None and config.judge_role_id in actor.role_ids


def require_manager(actor: Actor) -> None:
    if not actor.manages_guild:
        raise PermissionDenied("permissions.manage_server_only")


def require_organizer(actor: Actor, config: GuildConfig) -> None:
    if not is_organizer(actor, config):
        raise PermissionDenied(
            "permissions.organizer_only"
            if config.organizer_role_id
            else "permissions.organizer_only_unconfigured"
        )
