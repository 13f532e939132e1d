"""Where the bot's posts live, so that later notices go to the same places and edit the
same messages after a restart: each round's pairings channel and thread, each tournament's
registration post, and private notices kept for players whose DMs are closed. Bookkeeping
of the bot, not tournament state: not in the action log."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.backend import Connection, Database, Row
from bot.store.shards import Shards


@dataclass(frozen=True)
class RoundPlace:
    channel_id: int
    thread_id: int | None


@dataclass(frozen=True)
class EntryPost:
    guild_id: int
    tournament_id: int
    channel_id: int
    message_id: int
    checkin_shown: bool


async def running_tournaments(
    connection: Connection, shards: Shards | None = None
) -> list[tuple[int, int]]:
    """(guild id, tournament id) of every tournament with rounds in play (in `shards`)."""
    where, values = (shards or Shards()).where()
    rows = await connection.execute_fetchall(
        "SELECT guild_id, id FROM tournaments WHERE state IN ('running', 'top_cut')"
        f"{where} ORDER BY id",
        values,
    )
    return [(row[0], row[1]) for row in rows]


async def upcoming_tournaments(
    connection: Connection, shards: Shards | None = None
) -> list[tuple[int, int]]:
    """(guild id, tournament id) of every tournament before its start with a start time and
    its reminders on (in `shards`): those whose players may be reminded."""
    where, values = (shards or Shards()).where()
    rows = await connection.execute_fetchall(
        "SELECT guild_id, id FROM tournaments WHERE state = 'registration'"
        f" AND starts_at IS NOT NULL AND reminders = 1{where} ORDER BY id",
        values,
    )
    return [(row[0], row[1]) for row in rows]


async def round_place(
    connection: Connection, tournament_id: int, round_number: int
) -> RoundPlace | None:
    rows: list[Row] = list(
        await connection.execute_fetchall(
            "SELECT channel_id, thread_id FROM round_posts WHERE tournament_id = ? AND round = ?",
            (tournament_id, round_number),
        )
    )
    return RoundPlace(rows[0][0], rows[0][1]) if rows else None


async def save_round_place(
    connection: Connection, tournament_id: int, round_number: int, place: RoundPlace
) -> None:
    await connection.execute(
        "INSERT INTO round_posts (tournament_id, round, channel_id, thread_id)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, round) DO UPDATE SET"
        " channel_id = excluded.channel_id, thread_id = excluded.thread_id",
        (tournament_id, round_number, place.channel_id, place.thread_id),
    )


async def entry_post(connection: Connection, tournament_id: int) -> EntryPost | None:
    found = [post for post in await _entry_posts(connection, tournament_id) if post]
    return found[0] if found else None


async def entry_posts(connection: Connection) -> list[EntryPost]:
    """The registration posts of tournaments not over (finished or cancelled)."""
    return await _entry_posts(connection, None)


async def _entry_posts(connection: Connection, tournament_id: int | None) -> list[EntryPost]:
    query = (
        "SELECT t.guild_id, p.tournament_id, p.channel_id, p.message_id, p.checkin_shown"
        " FROM entry_posts p JOIN tournaments t ON t.id = p.tournament_id"
    )
    if tournament_id is None:
        rows = await connection.execute_fetchall(
            query + " WHERE t.state NOT IN ('finished', 'cancelled') ORDER BY p.tournament_id"
        )
    else:
        rows = await connection.execute_fetchall(
            query + " WHERE p.tournament_id = ?", (tournament_id,)
        )
    return [EntryPost(r[0], r[1], r[2], r[3], bool(r[4])) for r in rows]


async def save_entry_post(
    connection: Connection,
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


@dataclass(frozen=True)
class KeptNotice:
    """A notice kept for a player whose DMs are closed, shown at their next use of the bot:
    its text and its embeds (as Discord's JSON)."""

    text: str
    embeds: tuple[dict[str, Any], ...] = ()


async def add_player_notice(
    connection: Connection, guild_id: int, user_id: int, kept: KeptNotice, at: datetime
) -> None:
    await connection.execute(
        "INSERT INTO player_notices (guild_id, user_id, text, embeds, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (guild_id, user_id, kept.text, json.dumps(list(kept.embeds)), at.isoformat()),
    )


async def take_player_notices(
    connection: Connection, guild_id: int, user_id: int
) -> list[KeptNotice]:
    # Runs after every command: one statement (one trip to the database thread), which
    # also makes two processes unable to show the same notice twice.
    rows: list[Row] = list(
        await connection.execute_fetchall(
            "DELETE FROM player_notices WHERE guild_id = ? AND user_id = ?"
            " RETURNING id, text, embeds",
            (guild_id, user_id),
        )
    )
    return [
        KeptNotice(row["text"], tuple(json.loads(row["embeds"])))
        for row in sorted(rows, key=lambda row: int(row["id"]))
    ]


async def players_with_notices(connection: Connection) -> set[tuple[int, int]]:
    rows = await connection.execute_fetchall(
        "SELECT DISTINCT guild_id, user_id FROM player_notices"
    )
    return {(row[0], row[1]) for row in rows}


class Posts:
    """The delivery's way to the bookkeeping above (outside any tournament's unit of work),
    and who has private notices waiting (known in memory: it is asked after every command)."""

    def __init__(self, database: Database, shards: Shards | None = None) -> None:
        self.database = database
        self.shards = shards or Shards()
        self._waiting: set[tuple[int, int]] | None = None

    async def has_notices(self, guild_id: int, user_id: int) -> bool:
        if self._waiting is None:
            async with self.database.read() as connection:
                self._waiting = await players_with_notices(connection)
        return (guild_id, user_id) in self._waiting

    def notices_taken(self, guild_id: int, user_id: int) -> None:
        if self._waiting is not None:
            self._waiting.discard((guild_id, user_id))

    async def running(self) -> list[tuple[int, int]]:
        """(guild id, tournament id) of every tournament in play, in this process's guilds."""
        async with self.database.read() as connection:
            return await running_tournaments(connection, self.shards)

    async def upcoming(self) -> list[tuple[int, int]]:
        """(guild id, tournament id) of every tournament whose players may be reminded of
        its start, in this process's guilds."""
        async with self.database.read() as connection:
            return await upcoming_tournaments(connection, self.shards)

    async def entry_posts(self) -> list[EntryPost]:
        """Registration posts of tournaments not finished, in this process's guilds."""
        async with self.database.read() as connection:
            posts = await entry_posts(connection)
        return [post for post in posts if self.shards.owns(post.guild_id)]

    async def round_place(self, tournament_id: int, round_number: int) -> RoundPlace | None:
        async with self.database.read() as connection:
            return await round_place(connection, tournament_id, round_number)

    async def save_round_place(
        self, tournament_id: int, round_number: int, place: RoundPlace
    ) -> None:
        async with self.database.write() as connection:
            await save_round_place(connection, tournament_id, round_number, place)

    async def entry_post(self, tournament_id: int) -> EntryPost | None:
        async with self.database.read() as connection:
            return await entry_post(connection, tournament_id)

    async def save_entry_post(
        self, tournament_id: int, channel_id: int, message_id: int, checkin_shown: bool
    ) -> None:
        async with self.database.write() as connection:
            await save_entry_post(connection, tournament_id, channel_id, message_id, checkin_shown)

    async def leave_player_notice(
        self, guild_id: int, user_id: int, kept: KeptNotice, at: datetime
    ) -> None:
        async with self.database.write() as connection:
            await add_player_notice(connection, guild_id, user_id, kept, at)
        if self._waiting is not None:
            self._waiting.add((guild_id, user_id))
