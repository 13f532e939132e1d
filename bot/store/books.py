"""A server's own bookkeeping beside its tournaments: its players' profiles (the
handle each chose, whether their record may be shown on the live page) and its series (the
tournaments an organizer grouped, with their points table). Rows to domain values and back;
the rules are the domain's (`domain.handles`, `domain.series`). Each change is also logged
in the action log as a server-level change, by the service, with who made it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.backend import Connection, Row
from domain.handles import Profile, name_key
from domain.series.model import Series
from domain.series.points import Band, PointsTable

# -- profiles -------------------------------------------------------------------------------


def _profile(row: Row) -> Profile:
    return Profile(
        user_id=int(row["user_id"]),
        handle=row["handle"],
        public=bool(row["public"]),
        updated_by=int(row["updated_by"]),
    )


async def load_profiles(connection: Connection, guild_id: int) -> dict[int, Profile]:
    rows = await connection.execute_fetchall(
        "SELECT * FROM player_profiles WHERE guild_id = ? ORDER BY user_id", (guild_id,)
    )
    return {int(row["user_id"]): _profile(row) for row in rows}


async def load_profile(connection: Connection, guild_id: int, user_id: int) -> Profile | None:
    rows: list[Row] = list(
        await connection.execute_fetchall(
            "SELECT * FROM player_profiles WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
    )
    return _profile(rows[0]) if rows else None


async def save_profile(
    connection: Connection, guild_id: int, profile: Profile, at: datetime
) -> None:
    key = name_key(profile.handle) if profile.handle else None
    await connection.execute(
        "INSERT INTO player_profiles (guild_id, user_id, handle, handle_key, public,"
        " updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET handle = excluded.handle,"
        " handle_key = excluded.handle_key, public = excluded.public,"
        " updated_by = excluded.updated_by, updated_at = excluded.updated_at",
        (
            guild_id,
            profile.user_id,
            profile.handle,
            key,
            int(profile.public),
            profile.updated_by,
            at.isoformat(),
        ),
    )


# -- series ---------------------------------------------------------------------------------


def points_json(table: PointsTable) -> str:
    bands = [[band.first, band.last, band.points] for band in table.bands]
    return json.dumps({"bands": bands, "participation": table.participation})


def points_of(text: str) -> PointsTable:
    data: dict[str, Any] = json.loads(text)
    bands = tuple(Band(int(a), int(b), int(p)) for a, b, p in data["bands"])
    return PointsTable(bands, int(data["participation"]))


@dataclass(frozen=True)
class SeriesRow:
    """A series as stored, with who made it."""

    series: Series
    created_by: int


async def load_series(
    connection: Connection, guild_id: int, series_id: int | None = None
) -> list[SeriesRow]:
    """The guild's series (or the one with `series_id`), oldest first, each with its
    events in the order they were added."""
    query = "SELECT * FROM series WHERE guild_id = ?"
    params: tuple[int, ...] = (guild_id,)
    if series_id is not None:
        query += " AND id = ?"
        params += (series_id,)
    rows: list[Row] = list(await connection.execute_fetchall(query + " ORDER BY id", params))
    if not rows:
        return []
    marks = ", ".join("?" for _ in rows)
    events: dict[int, list[int]] = {}
    for row in await connection.execute_fetchall(
        f"SELECT series_id, tournament_id FROM series_events WHERE series_id IN ({marks})"
        " ORDER BY added_at, tournament_id",
        tuple(int(row["id"]) for row in rows),
    ):
        events.setdefault(int(row["series_id"]), []).append(int(row["tournament_id"]))
    return [
        SeriesRow(
            Series(
                id=int(row["id"]),
                guild_id=int(row["guild_id"]),
                name=str(row["name"]),
                table=points_of(row["points"]),
                event_ids=tuple(events.get(int(row["id"]), ())),
            ),
            int(row["created_by"]),
        )
        for row in rows
    ]


async def find_series_id(connection: Connection, guild_id: int, name: str) -> int | None:
    rows: list[Row] = list(
        await connection.execute_fetchall(
            "SELECT id FROM series WHERE guild_id = ? AND name = ?", (guild_id, name)
        )
    )
    return int(rows[0]["id"]) if rows else None


async def insert_series(
    connection: Connection, series: Series, created_by: int, at: datetime
) -> int:
    cursor = await connection.execute(
        "INSERT INTO series (guild_id, name, points, created_by, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (series.guild_id, series.name, points_json(series.table), created_by, at.isoformat()),
    )
    return int(cursor.lastrowid or 0)


async def save_series(
    connection: Connection, before: Series, after: Series, actor_id: int, at: datetime
) -> None:
    """Write what changed from `before` to `after`: its points table, events added or
    removed (each added one with who added it)."""
    if before.table != after.table:
        await connection.execute(
            "UPDATE series SET points = ? WHERE id = ?", (points_json(after.table), after.id)
        )
    for removed in set(before.event_ids) - set(after.event_ids):
        await connection.execute(
            "DELETE FROM series_events WHERE series_id = ? AND tournament_id = ?",
            (after.id, removed),
        )
    for added in after.event_ids:
        if added not in before.event_ids:
            await connection.execute(
                "INSERT INTO series_events (series_id, tournament_id, added_by, added_at)"
                " VALUES (?, ?, ?, ?)",
                (after.id, added, actor_id, at.isoformat()),
            )


async def series_ids_of(connection: Connection, tournament_id: int) -> list[int]:
    """The series a tournament is in."""
    rows = await connection.execute_fetchall(
        "SELECT series_id FROM series_events WHERE tournament_id = ? ORDER BY series_id",
        (tournament_id,),
    )
    return [int(row["series_id"]) for row in rows]


class Books:
    """The guild's bookkeeping as one unit of work sees it (`Transaction.books`)."""

    def __init__(self, connection: Connection, guild_id: int, at: datetime, actor_id: int):
        self._connection = connection
        self.guild_id = guild_id
        self.at = at
        self.actor_id = actor_id

    async def profiles(self) -> dict[int, Profile]:
        return await load_profiles(self._connection, self.guild_id)

    async def profile(self, user_id: int) -> Profile | None:
        return await load_profile(self._connection, self.guild_id, user_id)

    async def handles(self) -> dict[int, str]:
        """Each player's handle on this server (players without one left out)."""
        return {
            user: profile.handle
            for user, profile in (await self.profiles()).items()
            if profile.handle
        }

    async def save_profile(self, profile: Profile) -> None:
        await save_profile(self._connection, self.guild_id, profile, self.at)

    async def series(self, series_id: int | None = None) -> list[SeriesRow]:
        return await load_series(self._connection, self.guild_id, series_id)

    async def find_series(self, name: str) -> int | None:
        return await find_series_id(self._connection, self.guild_id, name)

    async def create_series(self, series: Series) -> int:
        return await insert_series(self._connection, series, self.actor_id, self.at)

    async def save_series(self, before: Series, after: Series) -> None:
        await save_series(self._connection, before, after, self.actor_id, self.at)

    async def series_of(self, tournament_id: int) -> list[Series]:
        """The series a tournament of this guild is in."""
        wanted = set(await series_ids_of(self._connection, tournament_id))
        return [row.series for row in await self.series() if row.series.id in wanted]
