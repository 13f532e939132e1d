"""The places that refuse the bot, remembered by the delivery: channels it may no longer
post in (a permission taken away, the channel deleted) and players whose DMs are closed;
and each player's DM channel once opened.
Bookkeeping of the bot, not tournament state: not in the action log."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.store.backend import Database, fetch_rows


@dataclass(frozen=True)
class RefusingChannel:
    channel_id: int
    guild_id: int
    reason: str
    since: datetime
    retry_at: datetime


class RefusingPlaces:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def channels(self) -> list[RefusingChannel]:
        async with self.database.read() as connection:
            rows = await connection.execute_fetchall(
                "SELECT channel_id, guild_id, reason, since, retry_at FROM refusing_channels"
            )
        return [
            RefusingChannel(
                int(row[0]),
                int(row[1]),
                str(row[2]),
                datetime.fromisoformat(row[3]),
                datetime.fromisoformat(row[4]),
            )
            for row in rows
        ]

    async def refuse(self, channel: RefusingChannel) -> bool:
        """Remember a channel that refused; False when it was remembered already (the staff
        were told then)."""
        async with self.database.write() as connection:
            await connection.execute(
                "INSERT INTO refusing_channels (channel_id, guild_id, reason, since, retry_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (channel_id) DO UPDATE SET"
                " reason = excluded.reason, retry_at = excluded.retry_at",
                (
                    channel.channel_id,
                    channel.guild_id,
                    channel.reason,
                    channel.since.isoformat(),
                    channel.retry_at.isoformat(),
                ),
            )
            # The insert's since is kept on a conflict: a row whose since is this one's is new.
            rows = await fetch_rows(
                connection,
                "SELECT since FROM refusing_channels WHERE channel_id = ?",
                (channel.channel_id,),
            )
        return bool(rows) and str(rows[0][0]) == channel.since.isoformat()

    async def accept(self, channel_ids: list[int]) -> None:
        """These channels work again (a post went through, or the server's settings changed)."""
        if not channel_ids:
            return
        marks = ", ".join("?" for _ in channel_ids)
        async with self.database.write() as connection:
            await connection.execute(
                f"DELETE FROM refusing_channels WHERE channel_id IN ({marks})", tuple(channel_ids)
            )

    async def closed_dms(self) -> dict[int, datetime]:
        async with self.database.read() as connection:
            rows = await connection.execute_fetchall("SELECT user_id, since FROM closed_dms")
        return {int(row[0]): datetime.fromisoformat(row[1]) for row in rows}

    async def close_dm(self, user_id: int, since: datetime) -> None:
        async with self.database.write() as connection:
            await connection.execute(
                "INSERT INTO closed_dms (user_id, since) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET since = excluded.since",
                (user_id, since.isoformat()),
            )

    async def open_dm(self, user_id: int) -> None:
        async with self.database.write() as connection:
            await connection.execute("DELETE FROM closed_dms WHERE user_id = ?", (user_id,))

    async def dm_channels(self) -> dict[int, int]:
        async with self.database.read() as connection:
            rows = await connection.execute_fetchall("SELECT user_id, channel_id FROM dm_channels")
        return {int(row[0]): int(row[1]) for row in rows}

    async def dm_channel_opened(self, user_id: int, channel_id: int) -> None:
        async with self.database.write() as connection:
            await connection.execute(
                "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
                (user_id, channel_id),
            )
