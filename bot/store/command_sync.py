"""The hash of the command tree last synced to Discord, per target (global or one guild)."""

from __future__ import annotations

from datetime import datetime

from bot.store.backend import Connection


async def synced_tree_hash(connection: Connection, target: str) -> str | None:
    async with connection.execute(
        "SELECT tree_hash FROM command_sync WHERE target = ?", (target,)
    ) as cursor:
        row = await cursor.fetchone()
    return str(row[0]) if row else None


async def record_tree_sync(
    connection: Connection, target: str, tree_hash: str, at: datetime
) -> None:
    await connection.execute(
        "INSERT INTO command_sync (target, tree_hash, synced_at) VALUES (?, ?, ?)"
        " ON CONFLICT (target) DO UPDATE SET"
        " tree_hash = excluded.tree_hash, synced_at = excluded.synced_at",
        (target, tree_hash, at.isoformat()),
    )
