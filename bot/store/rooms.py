"""The channels the bot made for each tournament's match rooms, and the record of every
change to them in the action log (each change and its record in one transaction).

A channel is written down before it is asked for (no id yet, the lowest id it can have),
so that a stop between the request and its answer leaves a trace: the delivery then looks
for a channel of that name the bot made since before it makes another. Only channels
written down here are ever deleted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.actions import append_room_change
from bot.store.backend import Connection, Database, Row, fetch_rows

CATEGORY, ROOM = "category", "room"


@dataclass(frozen=True)
class RoomChannel:
    tournament_id: int
    kind: str  # CATEGORY or ROOM
    number: int  # a category's place (1, 2, …), a room's table
    name: str
    channel_id: int | None  # None: asked for, its answer not (yet) seen
    category_id: int | None
    round: int  # the round its permissions are for (0: none yet)
    # The lowest id the channel can have: a snowflake of when it was asked for (None: not
    # known, written before this was kept).
    asked_after: int | None = None


def _channel(row: Row) -> RoomChannel:
    return RoomChannel(
        row["tournament_id"],
        row["kind"],
        row["number"],
        row["name"],
        row["channel_id"],
        row["category_id"],
        row["round"],
        row["asked_after"],
    )


async def owned_count(connection: Connection, tournament_id: int) -> int:
    """How many channels the tournament's rooms have now (reused by its next round): not
    those asked for that Discord never made (refused, or a stop before its answer)."""
    rows = await fetch_rows(
        connection,
        "SELECT COUNT(*) AS n FROM room_channels WHERE tournament_id = ?"
        " AND channel_id IS NOT NULL",
        (tournament_id,),
    )
    return int(rows[0]["n"]) if rows else 0


class RoomChannels:
    """The delivery's way to the rooms' bookkeeping (outside any operation's unit of work)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def of(self, tournament_id: int) -> list[RoomChannel]:
        async with self.database.read() as connection:
            rows = await fetch_rows(
                connection,
                "SELECT * FROM room_channels WHERE tournament_id = ? ORDER BY kind, number",
                (tournament_id,),
            )
        return [_channel(row) for row in rows]

    async def rooms(self, tournament_id: int, number: int) -> dict[int, int]:
        """Table → its room's channel, for the rooms given to round `number`'s tables."""
        return {
            found.number: found.channel_id
            for found in await self.of(tournament_id)
            if found.kind == ROOM and found.channel_id is not None and found.round == number
        }

    async def owner(self, channel_id: int) -> int | None:
        """The tournament whose rooms include this channel, if any."""
        async with self.database.read() as connection:
            rows = await fetch_rows(
                connection,
                "SELECT tournament_id FROM room_channels WHERE channel_id = ?",
                (channel_id,),
            )
        return int(rows[0]["tournament_id"]) if rows else None

    async def leftover(self) -> list[tuple[int, int]]:
        """(guild, tournament) of every tournament that has rooms written down."""
        async with self.database.read() as connection:
            rows = await fetch_rows(
                connection,
                "SELECT DISTINCT t.guild_id, t.id FROM room_channels r"
                " JOIN tournaments t ON t.id = r.tournament_id ORDER BY t.id",
            )
        return [(int(row["guild_id"]), int(row["id"])) for row in rows]

    async def asking(
        self,
        tournament_id: int,
        kind: str,
        number: int,
        name: str,
        category_id: int | None,
        asked_after: int,
    ) -> None:
        """Written before the channel is asked for: `asked_after`, the lowest id the
        channel Discord makes can have."""
        async with self.database.write() as connection:
            await connection.execute(
                "INSERT INTO room_channels"
                " (tournament_id, kind, number, name, category_id, asked_after)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id, kind, number) DO UPDATE"
                " SET name = excluded.name, category_id = excluded.category_id,"
                " channel_id = NULL, round = 0, asked_after = excluded.asked_after",
                (tournament_id, kind, number, name, category_id, asked_after),
            )

    async def made(
        self,
        guild_id: int,
        found: RoomChannel,
        channel_id: int,
        at: datetime,
        *,
        round_number: int = 0,
        players: tuple[int, ...] = (),
        again: bool = False,
    ) -> None:
        """The channel exists (made now, or found again by its name after a stop)."""
        payload: dict[str, Any] = {
            "kind": found.kind,
            "number": found.number,
            "name": found.name,
            "channel": channel_id,
        }
        if found.kind == ROOM:
            payload |= {"round": round_number, "players": [*players]}
        if again:
            payload["found_again"] = True
        async with self.database.write() as connection:
            await connection.execute(
                "UPDATE room_channels SET channel_id = ?, round = ?"
                " WHERE tournament_id = ? AND kind = ? AND number = ?",
                (channel_id, round_number, found.tournament_id, found.kind, found.number),
            )
            await append_room_change(
                connection,
                guild_id=guild_id,
                tournament_id=found.tournament_id,
                kind="room_made",
                payload=payload,
                at=at,
            )

    async def permissioned(
        self,
        guild_id: int,
        found: RoomChannel,
        round_number: int,
        players: tuple[int, ...],
        at: datetime,
    ) -> None:
        """The room was given to round `round_number`'s table (its overwrites replaced)."""
        payload = {
            "number": found.number,
            "channel": found.channel_id,
            "round": round_number,
            "players": [*players],
        }
        async with self.database.write() as connection:
            await connection.execute(
                "UPDATE room_channels SET round = ?"
                " WHERE tournament_id = ? AND kind = ? AND number = ?",
                (round_number, found.tournament_id, found.kind, found.number),
            )
            await append_room_change(
                connection,
                guild_id=guild_id,
                tournament_id=found.tournament_id,
                kind="room_permissioned",
                payload=payload,
                at=at,
            )

    async def removed(self, guild_id: int, found: RoomChannel, at: datetime, *, lost: bool) -> None:
        """The channel is gone: deleted by the bot, or (`lost`) found deleted by someone."""
        payload = {"kind": found.kind, "number": found.number, "channel": found.channel_id}
        async with self.database.write() as connection:
            await connection.execute(
                "DELETE FROM room_channels WHERE tournament_id = ? AND kind = ? AND number = ?",
                (found.tournament_id, found.kind, found.number),
            )
            if found.channel_id is not None:
                await append_room_change(
                    connection,
                    guild_id=guild_id,
                    tournament_id=found.tournament_id,
                    kind="room_lost" if lost else "room_removed",
                    payload=payload,
                    at=at,
                )
