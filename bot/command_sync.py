"""Registering the slash commands with Discord, and only when they changed.

Discord rate-limits syncing and takes a while to spread global changes, so the bot does
not sync at every start. It hashes the exact payloads a sync would send (names,
descriptions, options and every localisation) and compares that with the hash stored
after the last sync to the same target. `python -m bot sync` stores the hash too.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.services.base import utc_now
from bot.store.backend import Database
from bot.store.command_sync import record_tree_sync, synced_tree_hash

log = logging.getLogger(__name__)


def sync_target(guild_id: int | None) -> str:
    return f"guild:{guild_id}" if guild_id else "global"


async def tree_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """What `tree.sync(guild=guild)` sends, built the same way."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


def tree_hash(payload: list[dict[str, Any]]) -> str:
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _prepare(
    tree: app_commands.CommandTree[Any], guild_id: int | None
) -> discord.abc.Snowflake | None:
    if not guild_id:
        return None
    guild = discord.Object(id=guild_id)
    # Guild commands appear at once, so a development server gets the global commands too.
    tree.copy_global_to(guild=guild)
    return guild


async def sync_commands(
    tree: app_commands.CommandTree[Any], database: Database, guild_id: int | None
) -> int:
    """Sync to one guild (instant) or globally, and remember what was synced."""
    guild = _prepare(tree, guild_id)
    digest = tree_hash(await tree_payload(tree, guild))
    synced = await tree.sync(guild=guild)
    async with database.write() as connection:
        await record_tree_sync(connection, sync_target(guild_id), digest, utc_now())
    return len(synced)


async def sync_if_changed(
    tree: app_commands.CommandTree[Any], database: Database, guild_id: int | None
) -> int | None:
    """Sync when the tree differs from the last one synced to this target.

    Returns the number of commands synced, or None when nothing changed.
    """
    guild = _prepare(tree, guild_id)
    target = sync_target(guild_id)
    digest = tree_hash(await tree_payload(tree, guild))
    async with database.read() as connection:
        previous = await synced_tree_hash(connection, target)
    if previous == digest:
        log.info("command tree unchanged since the last sync (%s): not syncing", target)
        return None
    log.info("command tree changed (%s): syncing", target)
    count = await sync_commands(tree, database, guild_id)
    log.info("synced %d commands (%s)", count, target)
    return count
