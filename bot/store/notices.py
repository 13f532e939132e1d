"""The bot's own bookkeeping for the round clock: notices posted, and where rounds live."""

from __future__ import annotations

from datetime import datetime

import aiosqlite


async def recorded_notices(
    connection: aiosqlite.Connection, tournament_id: int, round_number: int
) -> set[str]:
    async with connection.execute(
        "SELECT key FROM notices WHERE tournament_id = ? AND round = ?",
        (tournament_id, round_number),
    ) as cursor:
        return {row[0] for row in await cursor.fetchall()}


async def record_notice(
    connection: aiosqlite.Connection,
    tournament_id: int,
    round_number: int,
    key: str,
    *,
    posted: bool,
    at: datetime,
) -> bool:
    """Remember a notice; False when it was already recorded (posted once, never twice)."""
    cursor = await connection.execute(
        "INSERT OR IGNORE INTO notices (tournament_id, round, key, posted, at)"
        " VALUES (?, ?, ?, ?, ?)",
        (tournament_id, round_number, key, int(posted), at.isoformat()),
    )
    return cursor.rowcount == 1


async def save_round_post(
    connection: aiosqlite.Connection,
    tournament_id: int,
    round_number: int,
    channel_id: int,
    thread_id: int | None,
) -> None:
    await connection.execute(
        "INSERT INTO round_posts (tournament_id, round, channel_id, thread_id)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, round) DO UPDATE SET"
        " channel_id = excluded.channel_id, thread_id = excluded.thread_id",
        (tournament_id, round_number, channel_id, thread_id),
    )


async def round_post(
    connection: aiosqlite.Connection, tournament_id: int, round_number: int
) -> tuple[int, int | None] | None:
    rows = list(
        await connection.execute_fetchall(
            "SELECT channel_id, thread_id FROM round_posts WHERE tournament_id = ? AND round = ?",
            (tournament_id, round_number),
        )
    )
    return (rows[0][0], rows[0][1]) if rows else None


async def running_tournaments(connection: aiosqlite.Connection) -> list[tuple[int, int]]:
    """(guild id, tournament id) of every tournament with rounds in play."""
    async with connection.execute(
        "SELECT guild_id, id FROM tournaments WHERE state IN ('running', 'top_cut') ORDER BY id"
    ) as cursor:
        return [(row[0], row[1]) for row in await cursor.fetchall()]


async def save_entry_post(
    connection: aiosqlite.Connection,
    tournament_id: int,
    channel_id: int,
    message_id: int,
    checkin_shown: bool,
) -> None:
    await connection.execute(
        "INSERT INTO entry_posts (tournament_id, channel_id, message_id, checkin_shown)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id) DO UPDATE SET"
        " channel_id = excluded.channel_id, message_id = excluded.message_id,"
        " checkin_shown = excluded.checkin_shown",
        (tournament_id, channel_id, message_id, int(checkin_shown)),
    )


async def entry_posts(connection: aiosqlite.Connection) -> list[tuple[int, int, int, int, bool]]:
    """(guild id, tournament id, channel id, message id, check-in shown) of open events."""
    async with connection.execute(
        "SELECT t.guild_id, p.tournament_id, p.channel_id, p.message_id, p.checkin_shown"
        " FROM entry_posts p JOIN tournaments t ON t.id = p.tournament_id"
        " WHERE t.state != 'finished' ORDER BY p.tournament_id"
    ) as cursor:
        return [(r[0], r[1], r[2], r[3], bool(r[4])) for r in await cursor.fetchall()]
