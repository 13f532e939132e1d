"""/setup: the roles and channels a server uses for its tournaments."""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

from bot.services.actors import Actor, require_guild, require_manager
from bot.services.base import Service
from domain.errors import one_of
from domain.guild import GuildConfig, Ratings


class GuildService(Service):
    async def configure(
        self,
        actor: Actor,
        *,
        organizer_role_id: int | None = None,
        judge_role_id: int | None = None,
        announcements_channel_id: int | None = None,
        pairings_channel_id: int | None = None,
        standings_channel_id: int | None = None,
        judge_calls_channel_id: int | None = None,
        log_channel_id: int | None = None,
        staff_channel_id: int | None = None,
        locale: str | None = None,
        bilingual_buttons: bool | None = None,
        ratings: str | None = None,
    ) -> GuildConfig:
        """Set the given values; options left out keep their current value."""
        require_guild(actor)
        require_manager(actor)
        given = {
            "organizer_role_id": organizer_role_id,
            "judge_role_id": judge_role_id,
            "announcements_channel_id": announcements_channel_id,
            "pairings_channel_id": pairings_channel_id,
            "standings_channel_id": standings_channel_id,
            "judge_calls_channel_id": judge_calls_channel_id,
            "log_channel_id": log_channel_id,
            "staff_channel_id": staff_channel_id,
            "locale": locale,
            "bilingual_buttons": bilingual_buttons,
            "ratings": None if ratings is None else one_of(Ratings, ratings, "setup.bad_ratings"),
        }
        changes: dict[str, Any] = {
            name: value for name, value in given.items() if value is not None
        }
        async with self.uow(actor) as tx:
            current = await tx.guild_config()
            updated = replace(current, **changes)
            if updated.locale is None:
                updated = replace(updated, locale=self.default_locale)
            await tx.save_guild_config(updated)
            await tx.log_guild_change(
                "guild.setup", {k: v for k, v in asdict(updated).items() if k != "guild_id"}
            )
        self.store.remember_config(updated)  # committed: now the truth
        return updated

    async def config(self, guild_id: int) -> GuildConfig:
        cached = self.store.guild_configs.get(guild_id)
        if cached is None:
            async with self.reader(guild_id) as tx:
                cached = await tx.guild_config()
            self.store.remember_config(cached)
        return cached

    async def show(self, actor: Actor) -> GuildConfig:
        return await self.config(require_guild(actor))
